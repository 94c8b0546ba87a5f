<?php
function dbl($x) { return $x * 2; }
function isodd($x) { return $x % 2; }
function add($a, $b) { return $a + $b; }
function cmp($a, $b) { return $a <=> $b; }
function rcmp($a, $b) { return $b <=> $a; }
function addone(&$v, $k) { $v = $v + 1; }
function show($v, $k, $p) { echo "$p$k=$v\n"; }
$a = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];
print_r(array_map('dbl', $a));
print_r(array_filter($a, 'isodd'));
print_r(array_filter([0, 1, '', 'a', null, [], [0]]));
var_dump(array_reduce($a, 'add', 0));
$b = $a; sort($b); print_r($b);
$b = $a; rsort($b); print_r($b);
$b = $a; usort($b, 'rcmp'); print_r($b);
$h = ['banana' => 3, 'apple' => 1, 'cherry' => 2, 10 => 'x', 2 => 'y'];
$c = $h; ksort($c); print_r($c);
$c = $h; krsort($c); print_r($c);
$c = ['b' => 2, 'a' => 3, 'c' => 1]; asort($c); print_r($c); arsort($c); print_r($c);
uasort($c, 'cmp'); print_r($c); uksort($c, 'strcmp'); print_r($c);
$m = ["10", 9, "9a", 1.5, true, null, "abc", [1]]; sort($m); var_dump($m);
$s = ["img12.png", "img10.png", "IMG2.png", "img1.png"]; natsort($s); print_r($s); natcasesort($s); print_r($s);
$s2 = $s; sort($s2, SORT_STRING | SORT_FLAG_CASE); print_r($s2);
$n = ["10", "9", "2", "1"]; sort($n, SORT_STRING); print_r($n); sort($n); print_r($n);
array_walk($a, 'addone'); print_r($a);
array_walk($h, 'show', '> ');
print_r(array_keys($h)); print_r(array_values($h)); print_r(array_keys($a, 2));
var_dump(array_key_exists('apple', $h), array_key_exists(10, $h), isset($h['zz']), in_array("2", $a), in_array("2", $a, true), array_search(6, $a));
$st = [1, 2]; var_dump(array_push($st, 3, 4)); var_dump(array_pop($st)); $st[] = 9; print_r($st);
var_dump(array_shift($st)); print_r($st); var_dump(array_unshift($st, 'a', 'b')); print_r($st);
print_r(array_merge([1, 2], ['a' => 1, 5 => 3], [4]));
print_r(array_merge_recursive(['a' => [1], 'b' => 2], ['a' => [3], 'b' => 4]));
print_r(array_replace([1, 2, 3], [1 => 'b'], [3 => 'd']));
print_r(array_slice([1, 2, 3, 4, 5], 1, 3)); print_r(array_slice(['a' => 1, 5 => 2, 3], -2, 2, true));
$sp = [1, 2, 3, 4, 5]; print_r(array_splice($sp, 1, 2, ['x', 'y', 'z'])); print_r($sp);
$sp = ['a' => 1, 'b' => 2, 3]; print_r(array_splice($sp, -1)); print_r($sp);
print_r(array_reverse(['x' => 1, 2, 3])); print_r(array_reverse([1, 2, 3], true));
var_dump(array_sum([1, 2.5, "3"]), array_product([2, "3", 4]));
print_r(array_fill(5, 3, 'v')); print_r(array_fill(-3, 3, 0)); print_r(array_fill_keys(['a', 5, 'c'], 0));
print_r(array_flip(['a', 'b', 'c'])); print_r(array_unique([1, "1", 2, 2.0, 'a', 'A', 'a']));
print_r(array_combine(['x', 'y'], [1, 2])); print_r(array_count_values(['a', 'b', 'a', 1, '1']));
print_r(array_chunk([1, 2, 3, 4, 5], 2)); print_r(array_chunk(['a' => 1, 'b' => 2, 'c' => 3], 2, true));
print_r(array_pad([1, 2], 4, 0)); print_r(array_pad([1, 2], -4, 0));
print_r(array_diff([1, 2, 3, 4], [2, 4])); print_r(array_intersect([1, 2, 3, 4], [2, 4, 5]));
print_r(array_diff_key(['a' => 1, 'b' => 2], ['a' => 9])); print_r(array_intersect_key(['a' => 1, 'b' => 2], ['a' => 9]));
print_r(array_diff_assoc(['a' => 1, 'b' => 2], ['a' => 1, 'b' => 3]));
var_dump(array_key_first($h), array_key_last($h), array_key_first([]), array_is_list([1, 2]), array_is_list([1 => 1]));
$rows = [['id' => 1, 'n' => 'a'], ['id' => 2, 'n' => 'b']];
print_r(array_column($rows, 'n')); print_r(array_column($rows, 'n', 'id')); print_r(array_column($rows, null, 'id'));
print_r(array_map(null, [1, 2], ['a', 'b'])); print_r(array_map('add', [1, 2], [10, 20, 30]));
print_r(array_map('strtoupper', ['a' => 'x', 'b' => 'y']));
print_r(array_change_key_case(['Ab' => 1, 'cD' => 2], CASE_UPPER));
$x = 1; $y = 'two'; print_r(compact('x', 'y', ['x']));
var_dump(extract(['x' => 10, 'zz' => 20])); var_dump($x, $zz);
var_dump(count([1, [2, 3]], COUNT_RECURSIVE), range('a', 'e', 2), range(0, 1, 0.25), range(5, 1, 2));
print_r(array_udiff([1, 5, 3], [3], 'cmp'));
var_dump(call_user_func('add', 2, 3), call_user_func_array('add', [4, 5]), is_callable('add'), is_callable('nope'), function_exists('strlen'), function_exists('add'));
print_r(str_split("abcdef", 4)); print_r(explode(" ", "a b  c"));
