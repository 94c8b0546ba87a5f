<?php
// The object fast paths (cached NEW, constructor frame push, typed property
// writes, method returns that release $this) and the cases they leave to the
// general paths: destructor timing, readonly, __set, kinds outside the type.

class D {
    public function __construct(public string $name) { echo "make {$this->name}\n"; }
    public function __destruct() { echo "drop {$this->name}\n"; }
    public function me(): static { return $this; }
    public function self(): int { $s = $this; return 1; }
    public function id(): string { return $this->name; }
}

function loop() {
    for ($i = 0; $i < 3; $i++) {
        echo (new D("t$i"))->id(), "\n";   // the method frame holds the last reference
        echo "after t$i\n";
    }
    $d = new D("kept");
    for ($i = 0; $i < 3; $i++) {
        $d->self();
        $d->me();
    }
    echo "before unset\n";
    unset($d);
    echo "after unset\n";
    (new D("self"))->self();
    echo "after self\n";
}
loop();

final class V {
    public function __construct(public float $x = 0.0, public float $y = 0.0) {}
    public function add(V $o): V { return new V($this->x + $o->x, $this->y + $o->y); }
}
$v = new V();
for ($i = 0; $i < 5; $i++) {
    $v = $v->add(new V(1.5, 2.0));
}
var_dump($v);

class Plain { public $a = 1; public int $n = 0; public ?array $arr = null; }
for ($i = 0; $i < 3; $i++) {
    $p = new Plain;
    $p->a = "s$i";
    $p->n = $i;
    $p->arr = [$i];
    $p->arr = null;
}
var_dump($p);

class Magic {
    public $x;
    public function __set($k, $v) { echo "__set $k\n"; }
}
for ($i = 0; $i < 3; $i++) {
    $m = new Magic;
    $m->x = $i;
    if ($i == 1) { unset($m->x); $m->x = 9; }
}

class RO {
    public function __construct(public readonly int $v) {}
}
for ($i = 0; $i < 3; $i++) {
    $r = new RO($i);
    try { $r->v = 5; } catch (Error $e) { echo $e->getMessage(), "\n"; }
}
echo $r->v, "\n";

abstract class A {}
for ($i = 0; $i < 2; $i++) {
    try { new A; } catch (Error $e) { echo $e->getMessage(), "\n"; }
}
class NoCtor { public $q = [1, 2]; }
for ($i = 0; $i < 3; $i++) {
    $n = new NoCtor;
    $n->q[] = $i;
}
var_dump($n);
class Priv { private function __construct() {} public static function make() { return new Priv; } }
for ($i = 0; $i < 2; $i++) {
    var_dump(Priv::make() instanceof Priv);
    try { new Priv; } catch (Error $e) { echo $e->getMessage(), "\n"; }
}
echo "end\n";
