<?php
var_dump(trim("abc", "a.."), trim("abc", "..c"), trim("abc", "c..a"));
var_dump(array_flip([1.5, 'a', true]));
var_dump(hex2bin("abc"), hex2bin("zz"));
$defined = 1;
var_dump(compact('defined', 'undefined_var'));
var_dump(str_repeat(null, 2), strlen(null), str_pad("a", 3.0));
var_dump(array_count_values([1.5, 'x']));
var_dump(implode(",", [[1], 2]));
var_dump(bindec("12"), octdec("9"), hexdec("g1"));
var_dump(str_replace("a", "b", null));
var_dump(sprintf("%.60f", 1.5));
var_dump(intdiv(PHP_INT_MIN, 1), abs(PHP_INT_MIN), round(PHP_INT_MAX), 7 <=> "7");
function cmpb($a, $b) { return $a > $b; }
$x = [3, 1, 2]; usort($x, 'cmpb'); var_dump($x);
var_dump(max([]));
var_dump(trim("  xx  ", "a..")); 
var_dump(trim("abcxcba", "a..c"));
var_dump(trim("xx", "..a"));
var_dump(trim("xx", "z..a"));
var_dump(ucwords("hello_world-foo bar", "_-"));
var_dump(explode(",", "", -1), explode(",", "a,b,c", 0), explode(",", "a,b,c", -1), explode(",", "a,b,c", 2));
var_dump(substr("abc", 5), substr("abc", 1, -5), substr("abc", -5, 2));
var_dump(wordwrap("The quick brown fox", 10, "\n", true), wordwrap("A very long woooooooooooord.", 8, "\n", true), wordwrap("A very long woooooooooooord.", 8));
var_dump(str_word_count("Hello fri3nd, you're looking good today!"));
var_dump(ucfirst(""), nl2br("a\nb\r\nc"), htmlspecialchars("<a href='x'>T&amp;</a>\""));
