<?php
// Generators destroyed while suspended run their finally blocks and free
// the temporaries alive at the yield (foreach iterators, calls being
// prepared, rope parts); exceptions leave generators with their traces.
class Res { public function __construct(public $n) { echo "open $n\n"; } public function __destruct() { echo "close {$this->n}\n"; } }
function nested($tag) {
    $r = new Res($tag);
    try {
        try {
            foreach ([str_repeat('a', 3), str_repeat('b', 3)] as $x) {
                yield $x;
            }
        } finally {
            echo "inner finally $tag\n";
        }
    } finally {
        echo "outer finally $tag\n";
    }
}
$g = nested('one');
echo $g->current(), "\n";
$g = null;
echo "-- after one\n";
foreach (nested('two') as $v) { echo $v, "\n"; }
echo "-- after two\n";

// Calls being prepared and rope parts at the yield.
function pending() {
    $s = str_repeat('x', 4);
    echo strtoupper(yield "first $s"), "\n";
    echo str_pad(yield, 6, '*'), " ", "rope {$s} " . (yield 'mid') . " end\n";
    echo implode(',', [$s, yield 'in array', $s]), "\n";
}
$p = pending();
var_dump($p->current());
var_dump($p->send('sent'));
$p->send('ab');
var_dump($p->current());
$p = null;
$p = pending();
$p->current();
$p->send('q');
$p->send('w');
$p->send('e');
var_dump($p->current());
unset($p);
echo "-- pending freed\n";

// A finally that returns, and one that throws while being destroyed.
function retInFinally() { try { yield 1; } finally { return 'from finally'; } }
$r = retInFinally();
$r->current();
unset($r);
// Exceptions thrown by a generator reach the code resuming it.
function failing($n) {
    $tmp = [str_repeat('t', $n)];
    foreach ($tmp as $v) {
        yield $v;
        throw new RuntimeException("failed after $v");
    }
}
function drive() { foreach (failing(2) as $v) { echo "drive got $v\n"; } }
try { drive(); } catch (RuntimeException $e) { echo $e->getMessage(), "\n", $e->getTraceAsString(), "\n"; }
$f = failing(3);
try { $f->current(); $f->next(); } catch (RuntimeException $e) { echo $e->getMessage(), " at line ", $e->getLine(), "\n"; }
var_dump($f->valid(), $f->current());
try { $f->getReturn(); } catch (Exception $e) { echo $e->getMessage(), "\n"; }

// Delegation chains destroyed in the middle.
function leaf($tag) { try { yield "$tag-1"; yield "$tag-2"; } finally { echo "leaf finally $tag\n"; } }
function middle() { try { yield from leaf('L'); } finally { echo "middle finally\n"; } }
$m = middle();
echo $m->current(), "\n";
$m = null;
echo "-- chain destroyed\n";
function generatorArgs(array $a, string ...$rest) { yield count($a) + count($rest); }
foreach (generatorArgs([1, 2], 'x', 'y', 'z') as $v) echo "args $v\n";

// A generator still suspended when the script ends.
$live = nested('live');
$live->current();
echo "end of script\n";
