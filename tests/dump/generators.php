<?php
// Generator functions: GENERATOR_CREATE after the RECVs, YIELD / YIELD_FROM, GENERATOR_RETURN (as opcache dumps them).
function gen($a, $b = 2) {
    $x = yield $a;
    yield 'k' => $b;
    try { yield; } finally { echo "f"; }
    $r = yield from [1,2];
    strtoupper(yield 5);
    return $x;
}
function g2() { yield 1; }
$f = fn() => yield 5;
foreach (gen(1) as $k => $v) echo $k, $v;
