<?php
$a = [1, 2, 3];
var_dump(current($a), key($a), next($a), key($a), next($a), next($a), key($a), current($a), prev($a), reset($a), end($a), key($a), prev($a), prev($a), prev($a), current($a), key($a));
$h = ['x' => 'a', 'y' => 'b', 'z' => 'c'];
next($h); var_dump(key($h)); unset($h['y']); var_dump(key($h), current($h));
$b = $h; var_dump(current($b)); next($b); var_dump(current($b), current($h));
$e = []; var_dump(current($e), key($e), end($e), reset($e), next($e));
$c = [1, 2]; end($c); next($c); $c[] = 3; var_dump(current($c));
$d = [5, 6, 7]; next($d); sort($d); var_dump(current($d));
$f = [1, 2, 3]; foreach ($f as $v) {} var_dump(current($f));
$g = [1, 2, 3, 4]; next($g); next($g); unset($g[0]); unset($g[1]); for ($i = 10; $i < 30; $i++) $g["k$i"] = $i; var_dump(current($g), key($g));
function f() { return [9, 8]; }
var_dump(current(f()), end($a));
$list = ['one', 'two', 'three'];
while (($v = current($list)) !== false) { echo key($list), "=", $v, "\n"; next($list); }
