<?php
function sum(...$xs) { $t = 0; foreach ($xs as $x) $t += $x; return $t; }
function three($a, $b = 'B', $c = 'C') { return "$a$b$c"; }
function incr(&$x, &$y) { $x++; $y++; }
$args = [1, 2, 3];
echo sum(...$args), ' ', sum(10, ...$args), ' ', sum(...$args, ...[4, 5]), ' ', sum(...[]), "\n";
echo three(...['x']), ' ', three('p', ...['q', 'r']), "\n";
echo max(...$args), ' ', implode(',', [...$args, 4]), "\n";
$pair = [1, 5];
incr(...$pair);
var_dump($pair);
function gen_args() { return [7, 8]; }
echo sum(...gen_args()), "\n";
// many arguments: the call frame grows past the VM stack page
$big = [];
for ($i = 0; $i < 20000; $i++) $big[] = $i;
echo sum(...$big), ' ', count($big), "\n";
function deep($n, $big) { if ($n == 0) return sum(...$big); return deep($n - 1, $big); }
echo deep(50, $big), "\n";
function &refret() { static $v = 1; return $v; }
function takes_ref(&$r) { $r .= '!'; return $r; }
echo takes_ref(refret()), ' ', takes_ref(refret()), "\n";
echo strlen(...['abc']), "\n";
