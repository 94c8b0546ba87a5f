<?php
// A string found valid UTF-8 by a /u match is remembered as such (PHP's
// IS_STR_VALID_UTF8); any change to it forgets that.
$s = str_repeat('é', 3);
var_dump(preg_match('/./u', $s), preg_match('/./u', $s, $m, 0, 1), preg_last_error());
$s .= "\xff";
var_dump(preg_match('/./u', $s), preg_last_error());
$t = str_repeat('a', 4);
var_dump(preg_match('/a/u', $t));
$t[1] = "\xff";
var_dump(preg_match('/a/u', $t), preg_last_error());
$u = "é";
var_dump(preg_match('/x/u', $u));
$u = substr($u, 0, 1);
var_dump(preg_match('/x/u', $u), preg_last_error());
$v = str_repeat('ü', 1000);
$pos = 0;
$n = 0;
while (preg_match('/\G./u', $v, $m, 0, $pos)) {
    $pos += strlen($m[0]);
    $n++;
}
var_dump($n, preg_match('/./u', $v, $m, 0, 1), preg_last_error_msg());
$v .= 'x';
var_dump(preg_match('/x$/u', $v), preg_match('/./u', $v . "\xc3"), preg_last_error_msg());
