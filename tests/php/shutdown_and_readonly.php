<?php
class D { function __construct(public string $n) {} function __destruct() { echo "destruct {$this->n}\n"; } }
new D('temp');
echo "after temp\n";
class Holder { public function __construct(public readonly stdClass $obj, public readonly array $arr = []) {} }
$h = new Holder(new stdClass);
$h->obj->inner = 'interior';
$h->obj->list[] = 1;
var_dump($h->obj);
try { $h->obj = new stdClass; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { $h->arr[] = 1; } catch (Error $e) { echo $e->getMessage(), "\n"; }
readonly class RP { public function __construct(public int $x) {} }
$rp = new RP(1);
try { $rp->x = 2; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { $rp->y = 2; } catch (Error $e) { echo $e->getMessage(), "\n"; }
$g1 = new D('g1');
$g2 = new D('g2');
$g3 = new D('g3');
$keep = [$g2];
$g2b = $g2;
$cyc = new D('cyc');
$cyc->self = $cyc;
echo "end\n";
