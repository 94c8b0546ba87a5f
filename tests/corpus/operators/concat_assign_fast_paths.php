<?php
// Fast paths of .= (in-place append), (string) of an int, dechex, string-keyed
// tables, ASSIGN and float comparisons, with the cases they must leave to
// the general paths.
$s = str_repeat('ab', 3);
$s .= $s; echo $s, "\n";
$s .= $s . "x"; echo $s, "\n";
$t = ($s .= 'q'); echo $t, " ", $s, "\n";
$r = 'r'; $ref = &$r; $ref .= 'ef'; echo $r, "\n";
$n = 'n'; $n .= -12345; $n .= PHP_INT_MIN; $n .= 0; echo $n, "\n";
$a = 'a'; $b = $a; $b .= 'b'; echo $a, $b, "\n";
$c = 'lit'; $c .= 1.5; $c .= true; $c .= null; echo $c, "\n";
$arr = ['k' => 'v']; $arr['k'] .= 'w'; echo $arr['k'], "\n";
function f() { static $z = ''; $z .= 'z'; return $z; } f(); echo f(), "\n";
$u .= 'undef'; echo $u, "\n";
$i = 5; $i .= 6; var_dump($i);
$e = ''; for ($k = 0; $k < 40; $k++) { $e .= $k; } echo $e, " ", strlen($e), "\n";
var_dump((string)0, (string)-7, (string)PHP_INT_MAX, (int)"12", (string)12.0, (string)"x");
echo dechex(0), dechex(255), dechex(-1), dechex(PHP_INT_MAX), "\n";
$h = []; for ($k = 0; $k < 300; $k++) { $h[dechex($k)] = $k; $h["foo_$k"] = $k; }
$cnt = 0; foreach ($h as $kk => $vv) { if (isset($h[(string)$vv])) $cnt++; } echo $cnt, " ", count($h), "\n";
echo json_encode(array_slice($h, 0, 5)), "\n";
$a = 1; $b = &$a; $b = 2; echo $a, "\n";
$s = "x" . mt_rand(1,1); $t = $s; $t = 5; echo $s, $t, "\n";
$arr = [1,2]; $c = $arr; $arr = 3; echo count($c), $arr, "\n";
$u = $undefined; var_dump($u);
$x = $y = 7; echo $x, $y, "\n";
function &r() { static $v = 1; return $v; } $z = &r(); $z = 9; echo r(), "\n";
$f = 1.5; $g = 2.5; var_dump($f < $g, $g <= $f, 4.0 < $f * $g, 1 < 1.5, 2.0 <= 2, NAN < 1.0, 1.0 <= NAN);
$m = PHP_INT_MAX; $m++; var_dump($m); $n = PHP_INT_MIN; $n--; var_dump($n);
$k = 5; $kr = &$k; $kr++; ++$kr; --$kr; echo $k, "\n";
var_dump(0.1 + 0.2, 1e308 * 10, 3 - 1.5, 2 * 2.5);
