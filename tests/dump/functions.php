<?php
function add(int $a, int $b = 2): int {
    return $a + $b;
}
function greet(?string $who = null, ...$rest) {
    $who = $who ?? "nobody";
    return "hi " . $who . count($rest);
}
function nothing(): void {
    return;
}
echo add(1), add(1, 5), "\n";
echo greet(), greet("bob", 1, 2), "\n";
nothing();
echo undefined_later(3), "\n";
function undefined_later($x) { return $x * 2; }
