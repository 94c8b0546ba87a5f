<?php
$b = 1;
$a = &$b;
$x[0] = &$y[1];
$c = [&$a, 'k' => &$x[0], ...$y];
foreach ($c as $k => &$v) { $v = 2; }
function &f() { static $s; return $s; }
$z = &f();
[&$p, [$q, &$r]] = $c;
function g() { global $b; return $b; }
$w['a'][g()] ??= 5;
echo match($b) { 1, 2 => 'a', 3 => 'b', default => 'c' };
echo match($b . '') { 'x' => 1 };
switch ($b) { case 'a': echo 1; break; case 'b': echo 2; }
switch ($b . '') { case 1: echo 1; }
var_dump(is_int($b), is_null($b));
const K = 1;
goto end;
echo 'skipped';
end:
echo K;
