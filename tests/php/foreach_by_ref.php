<?php
$a = [1, 2, 3];
foreach ($a as &$v) { $v *= 2; }
var_dump($a);
// the classic: $v still refers to the last element
foreach ($a as $v) {}
var_dump($a);
unset($v);
// appending while iterating visits the new elements
$b = [1, 2];
foreach ($b as $k => &$v) { if ($k < 3) { $b[] = $k + 10; } echo "$k=$v "; }
echo "\n";
unset($v);
// unset of an upcoming element skips it
$c = [1, 2, 3, 4];
foreach ($c as $k => &$v) { if ($k == 0) unset($c[1]); echo "$k=$v "; }
echo "\n";
unset($v);
// replacing the array restarts on the new one
$d = [1, 2, 3];
foreach ($d as &$v) { if ($v == 1) $d = [7, 8]; echo $v, ' '; }
echo "\n";
unset($v);
// a copy taken during the loop shares the elements made references
$e = [1, 2, 3];
foreach ($e as $k => &$v) { if ($k === 0) $copy = $e; $v *= 10; }
unset($v);
var_dump($e, $copy);
// by reference over a temporary, an undefined variable, a non-array
foreach ([1, 2] as &$v) { $v++; echo $v; }
echo "\n";
foreach ($undef as &$v) {}
$n = 5;
foreach ($n as &$v) {}
// nested, with keys, and an element array
$m = ['a' => [1, 2], 'b' => [3]];
foreach ($m as $key => &$list) { foreach ($list as &$x) { $x = "$key$x"; } unset($x); $list[] = 'end'; }
unset($list);
var_dump($m);
$t = [[1, 2], [3, 4]];
foreach ($t as [&$p, $q]) { $p = $p + $q; }
unset($p);
var_dump($t);
$w = [1, 2];
foreach ($w as $i => &$w2[$i]) {}
var_dump($w2);
// break out of a by-ref loop, return from one
function first_big(array &$xs) { foreach ($xs as &$x) { if ($x > 1) { $x = 'big'; return; } } }
$fb = [1, 5, 9];
first_big($fb);
var_dump($fb);
foreach ($fb as &$y) { break; }
$y = 'first';
var_dump($fb);
