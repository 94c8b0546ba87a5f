<?php
class K { function __construct(public $n) {} function __destruct() { echo "destruct {$this->n}\n"; } }
$w = new WeakMap;
$a = new K('a'); $b = new K('b');
$w[$a] = 'A'; $w[$b] = ['B'];
var_dump(count($w), $w[$a], isset($w[$b]), isset($w[new K('tmp')]));
unset($a);
echo "a gone\n";
var_dump(count($w));
try { $w['x'] = 1; } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { var_dump($w[new stdClass]); } catch (Error $e) { echo preg_replace('/#\d+/', '#N', $e->getMessage()), "\n"; }
unset($w[$b]);
var_dump(count($w));
$w[$b] = 1;
$w2 = new WeakMap; $w2[$b] = 2;
unset($w);
$b = null;
var_dump(count($w2));
$s = new SplObjectStorage;
$o1 = new stdClass; $o2 = new stdClass;
$s->attach($o1); $s->attach($o2, 'two'); $s[$o1] = 'one';
var_dump(count($s), $s[$o2], $s->contains($o1), isset($s[new stdClass]));
foreach ($s as $i => $obj) { var_dump($i, $obj === $o1, $s->getInfo()); }
$s->detach($o1);
var_dump(count($s), $s->contains($o1));
try { $s[new stdClass]; } catch (UnexpectedValueException $e) { echo $e->getMessage(), "\n"; }
try { $s->attach('x'); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
$k = new K('held');
$s->attach($k);
unset($k);
echo "still held\n";
$s = null;
enum E { case A; }
var_dump(class_exists('E'), enum_exists('E'), interface_exists('E'));
echo "end\n";
$wm = new WeakMap;
$k1 = new stdClass; $k1->id = 1; $k2 = new stdClass; $k2->id = 2; $k3 = new stdClass; $k3->id = 3;
$wm[$k1] = 'one'; $wm[$k2] = 'two'; $wm[$k3] = 'three';
unset($k2);
foreach ($wm as $k => $v) { echo $k->id, " => $v\n"; }
$it = $wm->getIterator();
var_dump($it instanceof Iterator, get_class($it), $wm instanceof IteratorAggregate, iterator_count($wm));
foreach ($wm as $k => $v) { if ($k->id === 1) { $k3 = null; } echo $k->id, "\n"; }
