<?php
function grow() { global $a; for ($i = 0; $i < 100; $i++) { $a[] = $i; } return 1; }
$a = [[1, 2]];
$a[0][grow()] = grow();
echo count($a), ' ', $a[0][1], "\n";
$a = [[1]];
$a[0][] = grow();
echo count($a), ' ', count($a[0]), "\n";
$b = ['x' => [0]];
$b['x'][0] .= grow();
$r = &$b['x'][0];
$copy = $b;
$r = 'changed';
var_dump($copy['x'][0], $b['x'][0]);
$c = [1, 2, 3];
$ref = &$c[1];
$d = $c;
$d[1] = 'd';
var_dump($c[1], $d[1]);
unset($ref);
$e = $c; $e[1] = 'e'; var_dump($c[1]);
function mod() { global $f; $f = null; return 5; }
$f = [[1]];
$f[0][0] = mod();
var_dump($f);
