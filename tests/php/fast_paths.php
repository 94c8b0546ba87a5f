<?php
// Boundaries of the handlers' inline fast paths (calls, returns, statics,
// arrays, foreach): each case also takes the slow path, and the results must
// be the same as PHP's.

// ---- calls and returns
function one(int $n): int { return $n + 1; }
function noret($a) { $b = $a; }
function retarr() { $a = [1, 2, 3]; return $a; }
function retcv($x) { return $x; }
function two_shared($a) { $b = $a; return count($b); }
function extra($a) { $b = [$a]; return $b[0] + 1; }
function undef_ret() { return $nope; }
function deep($n) { return $n == 0 ? 0 : 1 + deep($n - 1); }
function byname() { return 'byname'; }

$s = 0;
for ($i = 0; $i < 1000; $i++) { $s += one($i); }
echo $s, "\n";
noret([1, 2]);
noret("x" . $s);
var_dump(retarr());
$arr = [4, 5];
var_dump(retcv($arr));
$arr[] = 6;
var_dump(retcv($arr), $arr);
echo two_shared([1, 2, 3]), "\n";
echo extra(1, 2, 3), "\n";
var_dump(@undef_ret());
echo deep(20000), "\n";
$f = 'byname';
echo $f(), "\n";
one(5);
retarr();
echo strlen(str_repeat("ab", 3)), "\n";
echo abs(-5), max(1, 9, 3), intdiv(17, 5), "\n";
abs(-1);

// ---- statics (references)
function counter() { static $n = 0; return ++$n; }
function counter_arr() { static $a = []; $a[] = count($a); return $a; }
function post() { static $p = 10; $p--; $q = $p++; return $q; }
for ($i = 0; $i < 5; $i++) { counter(); }
echo counter(), "\n";
counter_arr();
print_r(counter_arr());
echo post(), post(), "\n";
function addref(&$x) { $x += 5; $x *= 2; $x++; --$x; }
$v = 1;
addref($v);
echo $v, "\n";

// ---- arrays
$a = [];
for ($i = 0; $i < 20; $i++) { $a[$i] = $i * 2; }
$a[] = 'end';
$a[30] = 'far';
$a[25] = 'mid';
print_r($a);
$b = $a;
$b[0] = 'copy';
echo $a[0], ' ', $b[0], "\n";
$c = [1, 2];
$c[0] = $c;
print_r($c);
$d = ['x' => 1, 'y' => [1, 2]];
$d['x'] += 10;
$d['y'] = 'replaced';
$d['z'] = $d['z'] ?? 3;
$d['10'] = 'numeric';
$d[-1] = 'neg';
print_r($d);
$e = [1, 2, 3];
$e[1] += 2.5;
$e[2] .= 'x';
$e[0] += PHP_INT_MAX;
var_dump($e);
$m = [[1, 2], [3, 4]];
echo $m[1][0] + $m[0][1], "\n";
echo $m[5] ?? 'none', "\n";
echo @$m[9][1], "|\n";
$h = ['foo' => 1, 'bar' => 2, '7' => 3, '' => 4, '-3' => 5, '08' => 6];
var_dump(isset($h['foo']), isset($h['baz']), isset($h[7]), isset($h['7']), isset($h['']), isset($h['-3']), isset($h['08']), isset($h[8]));
$h['nul'] = null;
var_dump(isset($h['nul']), empty($h['foo']), empty($h['nul']));
echo $h['bar'], $h['08'], $h[-3], "\n";
echo $h['missing'] ?? 'dflt', "\n";
$u = [];
$u['k'] = 1;
$u['k'] += 1;
echo $u['k'], "\n";

// ---- foreach
$sum = 0;
foreach ([1, 2, 3] as $k => $v) { $sum += $k * $v; }
echo $sum, "\n";
$t = ['a' => 'x', 'b' => 'y'];
foreach ($t as $k => $v) { echo "$k=$v "; }
echo "\n";
$holes = [1, 2, 3, 4];
unset($holes[1], $holes[2]);
foreach ($holes as $k => $v) { echo "$k:$v "; }
echo "\n";
$strs = ['p' . 1, 'q' . 2];
foreach ($strs as $v) { $last = $v; }
foreach ($strs as $v) { }
echo $last, $v, "\n";
$nested = [[1, 2], [3]];
foreach ($nested as $row) { foreach ($row as $x) { echo $x; } }
echo "\n";
foreach ($t as $k => $v) { $t[$k . '2'] = $v; }
print_r($t);

// ---- TMP/VAR operands that must be released
$h2 = ['ab' => 1, 'cd' => null, 5 => 'five'];
for ($i = 0; $i < 3; $i++) {
    var_dump(isset($h2['a' . 'b']), isset($h2['c' . 'd']), isset($h2[2 + 3]), isset($h2['z' . $i]));
    echo $h2['a' . 'b'] ?? 'x', $h2['q' . $i] ?? 'y', $h2[$i + 5] ?? 'z', "\n";
}
echo retarr()[1], [7, 8, 9][2], "\n";
$x = 'str' . 1;
var_dump($x === 'str1', $x !== 'str' . 2, 1 === 1.0, null === null, true === false, 1.5 === 1.5, [1] === [1], 'a' . 1 === 'a1');
var_dump(retarr() === [1, 2, 3], retarr() !== [1, 2]);
