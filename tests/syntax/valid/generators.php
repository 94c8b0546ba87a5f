<?php
function gen() {
    yield;
    yield 1;
    yield 'k' => 'v';
    $x = yield;
    $x = yield 2;
    $x = yield 'k' => 2;
    $y = (yield 3) + 1;
    f(yield 4);
    f(yield 'a' => 5, yield);
    yield from [1, 2];
    yield from gen2();
    $r = yield from gen2();
    $arr = [yield, yield 1, yield 2 => 3];
    yield yield 1;
    yield from yield;
    $z = yield $a ?? $b;
    if (yield) {}
    while ((yield 1) < 3) {}
    return 5;
}
function gen2() { yield 1; return 2; }
$g = function () { yield 1; };
$a = fn() => yield 1;
class G { public function items(): iterable { yield from $this->other(); } public function other() { yield 1; } }
