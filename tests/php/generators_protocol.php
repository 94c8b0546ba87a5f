<?php
// The Generator protocol: lazy start, keys, send, throw, getReturn,
// rewind and traversal errors, delegation, spread and iterator functions.
function counter($n) {
    echo "[start]";
    for ($i = 1; $i <= $n; $i++) {
        $got = yield $i;
        if ($got !== null) echo "[got $got]";
    }
    echo "[end]";
    return "ret$n";
}
$g = counter(3);
echo "created\n";
var_dump($g instanceof Traversable, $g instanceof Iterator, $g instanceof Generator, get_class($g));
var_dump($g->current(), $g->key());
var_dump($g->send("A"));
$g->next();
var_dump($g->valid(), $g->current());
$g->next();
var_dump($g->valid(), $g->current(), $g->key(), $g->getReturn());
$g->next();
var_dump($g->send("late"));

function keys() {
    yield 'a' => 1;
    yield 2;
    yield 10 => 3;
    yield 4;
    yield 3 => 5;
    yield 6;
    yield -20 => 7;
    yield 8;
    yield '15' => 9;
    yield 10;
    yield 1.5 => 11;
}
foreach (keys() as $k => $v) echo var_export($k, true), "=>$v ";
echo "\n";

// getReturn before the end, rewind after the first yield, a closed generator.
$g = counter(2);
foreach ([fn() => $g->getReturn(), fn() => $g->rewind(), fn() => $g->next(), fn() => $g->rewind()] as $i => $f) {
    try { $f(); echo "call $i ok\n"; } catch (Exception $e) { echo "\ncall $i: ", get_class($e), ": ", $e->getMessage(), "\n"; }
}
try { foreach ($g as $v) {} } catch (Exception $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
while ($g->valid()) { echo "v=", $g->current(), " "; $g->next(); }
echo "\n";
try { foreach ($g as $v) {} } catch (Exception $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { new Generator; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { $h = clone $g; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { foreach (counter(1) as &$r) {} } catch (Exception $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }

// Calling a generator function whose result is unused runs nothing.
counter(5);
echo "\nnothing ran\n";

// A generator resuming itself.
function selfish() { global $self; yield 1; $self->next(); yield 2; }
$self = selfish();
$self->current();
try { $self->next(); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }

// throw(): caught at the yield, or not.
function catcher() {
    while (true) {
        try {
            $x = yield;
            echo "got ", var_export($x, true), "\n";
        } catch (LogicException $e) {
            echo "caught inside: ", $e->getMessage(), "\n";
            yield "after catch";
        }
    }
}
$c = catcher();
$c->send(1);
var_dump($c->throw(new LogicException("boom")));
$c->send(2);
try { $c->throw(new RuntimeException("escapes")); } catch (RuntimeException $e) { echo "outside: ", $e->getMessage(), "\n"; }
var_dump($c->valid());
try { $c->throw(new RuntimeException("closed")); } catch (RuntimeException $e) { echo "closed: ", $e->getMessage(), "\n"; }
try { $c->throw(42); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }

// yield from: arrays, iterators, generators, return values, keys.
function inner($tag) { $x = yield "$tag-1"; echo "[inner got ", var_export($x, true), "]"; yield "$tag-2"; return "$tag-done"; }
function outer() {
    $r = yield from inner('a');
    echo "[r=$r]";
    yield from ['k' => 'arr1', 5 => 'arr2'];
    yield from new ArrayIterator(['x' => 'it1']);
    $r2 = yield from (function () { return 'empty'; yield; })();
    yield $r2;
    return 'outer-done';
}
$o = outer();
foreach ($o as $k => $v) echo "$k=>$v\n";
var_dump($o->getReturn());
$o = outer();
$o->current();
var_dump($o->send('S'));
function thrower() { yield 1; throw new DomainException("inner failed"); }
function wrapper() { try { yield from thrower(); } catch (DomainException $e) { echo "wrapper caught: ", $e->getMessage(), "\n"; } yield 'after'; }
var_dump(iterator_to_array(wrapper(), false));
function bad() { yield from 5; }
try { foreach (bad() as $v) {} } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
$done = inner('z');
foreach ($done as $v) {}
function reuse($g) { $r = yield from $g; return $r; }
$ru = reuse($done);
try { foreach ($ru as $v) {} } catch (Error $e) { echo "\n", get_class($e), ": ", $e->getMessage(), "\n"; }
var_dump($ru->valid());

// Spread, iterator functions, arguments and closures.
function gen3() { yield 'a'; yield 'b'; yield 'c'; }
var_dump([...gen3(), ...gen3()]);
function three($x, $y, $z) { return "$x|$y|$z"; }
var_dump(three(...gen3()));
var_dump(iterator_count(gen3()), iterator_to_array((fn() => yield from ['p' => 1, 'q' => 2])()));
$mult = 3;
$closure = function ($n) use ($mult) { for ($i = 0; $i < $n; $i++) yield $i * $mult; };
var_dump(implode(',', iterator_to_array($closure(4))));
class Tree {
    public function __construct(public $v, public array $kids = []) {}
    public function walk(): Generator { yield $this->v; foreach ($this->kids as $k) yield from $k->walk(); }
}
$t = new Tree(1, [new Tree(2, [new Tree(3)]), new Tree(4)]);
echo implode(' ', iterator_to_array($t->walk(), false)), "\n";
function variadic(...$xs) { foreach ($xs as $i => $x) yield $x => $i; }
var_dump(iterator_to_array(variadic('u', 'v')));
