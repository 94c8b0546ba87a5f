<?php
global $top; $top = 1; var_dump($top);
function &nr() { return; }
$x = &nr(); var_dump($x);
$a = [1, [2]];
$a = &$a[1];
var_dump($a);
function arr() { return [5, 6]; }
[&$p] = arr();
var_dump($p);
foreach ("str" as &$v) {}
foreach (arr() as &$v) { $v++; echo $v; }
echo "\n";
$n = [1, 2];
foreach ($n as &$i) { foreach ($n as &$j) { $j *= 2; } }
var_dump($n);
switch (2) { case 2: echo "a"; case 2: echo "b"; break; case 3: case 4: case 5: case 6: echo "c"; }
echo "\n";
echo match(true) { default => 'only default' }, "\n";
$s = 'abc';
$s2 = &$s;
$s2[0] = 'X';
echo $s, "\n";
$arr = [3 => 'a'];
$r = &$arr[];
$r = 'appended';
var_dump($arr);
$u = [1];
$u[] = &$u;
echo count($u), "\n";
unset($u[1]);
function h(...$a) { return count($a); }
echo h(...[1, 2], ...[3]), "\n";
try_it:
echo [...[1, 2], ...['a' => 3]]['a'], "\n";
$cnt = 0;
$cnt ??= 9;
echo $cnt, "\n";
$list = [[1, 2], [3, 4]];
foreach ($list as [$aa, &$bb]) { $bb = 0; }
var_dump($list);
echo f2(...[1]);
function f2($a) { return $a * 2; }
echo "\n";
