<?php
// Magic constants are dereferencable (array_object_dereferenceable).
function test() {
    var_dump(__FUNCTION__[0]);
    var_dump(__FUNCTION__->prop);
    try {
        __FUNCTION__->method();
    } catch (Error $e) {
        echo $e->getMessage(), "\n";
    }
    var_dump(__DIR__?->a);
    var_dump(['']?->a);
}
test();

// yield takes no operand before a token that cannot start an expression.
function gen() {
    var_dump(yield +1);
    var_dump(yield -1);
    var_dump(yield * -1);
}
for ($gen = gen(); $gen->valid(); $gen->send(1)) {
    var_dump($gen->current());
}

// readonly( is a call; readonly before a DNF type is a modifier.
function readonly() { return "called readonly()"; }
echo readonly(), "\n";
class Dnf {
    readonly (B&C)|A $l;
    private readonly A|(B&C) $m;
    static (B&C)|A $f;
}
echo "Dnf declared\n";

// $this fetched for writing: by-reference array element and assignment source.
class A {
    function f() { $a = [&$this]; var_dump(count($a)); $x = &$this; var_dump($x === $this); }
}
(new A)->f();

// Exception constructors coerce as declared.
$e = new Exception(1); var_dump($e->getMessage());
$e = new Exception("m", "2"); var_dump($e->getCode());
try { new Exception([]); } catch (TypeError $t) { echo $t->getMessage(), "\n"; }
try { new RuntimeException("a", 1, 5); } catch (TypeError $t) { echo $t->getMessage(), "\n"; }
$p = new LogicException("inner");
$e = new ErrorException(previous: $p); var_dump($e->getPrevious() === $p, $e->getSeverity());
try { new Exception(1, 2, 3, 4); } catch (Error $t) { echo get_class($t), ": ", $t->getMessage(), "\n"; }

// Trace arguments are escaped and truncated as smart_str_append_escaped does.
function thrower($s) { throw new Exception("x"); }
try { thrower("a\tb\nc\\d\x01\xff"); } catch (Exception $e) { echo $e->getTraceAsString(), "\n"; }
try { thrower("0123456789abcdefghij"); } catch (Exception $e) { echo $e->getTraceAsString(), "\n"; }
