<?php
function &f(array &$a): int { return $a[0]; }
function &g(array &$a): int { return $a[1]; }
function &h(&$x): string { return $x; }
$arr = [1, "2"];
$r = &f($arr); $r = 5; var_dump($arr);
$s = &g($arr); var_dump($s, $arr);
$v = 7; $q = &h($v); var_dump($q);
function v(&$x): string { return $x; }
$n = 5; $s = v($n); var_dump($s, $n);
function w(): int { $a = "12"; $b = &$a; return $a; }
var_dump(w());
