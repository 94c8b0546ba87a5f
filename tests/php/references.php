<?php
$b = 1;
$a = &$b;
$a = 5;
echo $b, "\n";
$x = [1, 2, 3];
$r = &$x[1];
$y = $x;
$r = 20;
var_dump($x, $y);
unset($r);
$c = [&$a, 'k' => &$x[0]];
$c[0] = 7; $c['k'] = 8;
var_dump($b, $x);
foreach ($x as $k => &$v) { $v = $v * 2; }
unset($v);
var_dump($x);
$arr = [1, 2];
foreach ($arr as &$v) { if ($v == 1) { $arr[] = 3; } echo $v, " "; }
echo "\n";
function &getRef(array &$a) { return $a[0]; }
$q = [10, 20];
$ref = &getRef($q);
$ref = 99;
var_dump($q);
function g() { global $b, $newg; $b++; $newg = "hi"; }
g();
var_dump($b, $newg);
[&$p, $s] = $q;
$p = 'P';
var_dump($q);
['x' => &$rr] = $m;
$rr = 1;
var_dump($m);
$z ??= 5; $z ??= 6;
$w['a']['b'] ??= 'deep';
$w['a']['b'] ??= 'no';
var_dump($z, $w);
function k() { return 'a'; }
$w[k()] ??= 'no2';
$w[k() . 'x'] ??= 'yes';
var_dump($w);
