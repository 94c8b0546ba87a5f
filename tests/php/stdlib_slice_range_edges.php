<?php
$base = ['a' => 1, 5 => 2, 3, 'b' => 4, 9 => 5, 6];
foreach ([-8, -3, -1, 0, 1, 3, 6, 7] as $off) {
  foreach ([null, -7, -2, 0, 1, 2, 10] as $len) {
    echo "$off/", var_export($len, true), ": ", json_encode(array_slice($base, $off, $len)), json_encode(array_slice($base, $off, $len, true));
    $c = $base; $rm = array_splice($c, $off, $len, ['x', 'k' => 'y']); echo " ", json_encode($rm), json_encode($c);
    $c = $base; $rm = array_splice($c, $off, $len ?? 0, 'z'); echo " ", json_encode($c), "\n";
  }
}
$c = [1, 2, 3]; array_splice($c, 1); echo json_encode($c), "\n";
$c = [1, 2, 3]; array_splice($c, 1, count($c), []); echo json_encode($c), "\n";
foreach ([[1, 5], [5, 1], [0, 10, 3], [1, 2, 0.5], ['a', 'e'], ['e', 'a', 2], ['1', '3'], [0.1, 0.5, 0.1], [1, 1], ['A', 'z', 10], [10, 0, -3], [-3, 3, 2]] as $args) {
  echo json_encode($args), " => ", json_encode(count($args) == 2 ? range($args[0], $args[1]) : range($args[0], $args[1], $args[2])), "\n";
}
foreach ([-2, -1, 0, 1, 2, 5] as $lim) echo json_encode(explode(",", "a,b,,c", $lim)), json_encode(explode(",", "", $lim)), "\n";
foreach (["   ", "a  b", "hello world-foo bar_baz", "Ünïcode wörds"] as $s) echo json_encode([str_word_count($s), ucwords($s), ucfirst($s), wordwrap($s, 3, "|", true), str_pad($s, 20, "*", STR_PAD_BOTH), strrev($s), str_split($s, 3)]), "\n";
echo json_encode(array_pad([1,2], 0, 'x')), json_encode(array_chunk([], 2)), json_encode(array_fill_keys([], 1)), json_encode(array_flip([])), json_encode(array_unique([])), "\n";
echo json_encode(array_merge(['a' => 1], ['a' => 2, 'b' => 3], [0 => 'x'])), "\n";
echo json_encode(array_combine(['a', 'b', 'a'], [1, 2, 3])), json_encode(array_search('1', [0, 1, '1'])), json_encode(array_search('1', [0, 1, '1'], true)), json_encode(in_array('abc', [0])), json_encode(in_array(null, [0])), json_encode(in_array(0, ['a'])), "\n";
echo json_encode(array_sum([])), json_encode(array_sum([1.5, 1.5])), json_encode(array_product([1, 2.0])), json_encode(array_sum([PHP_INT_MAX, 1])), "\n";
echo json_encode(max('10', '9')), json_encode(max('abc', 0)), json_encode(min([0, -0.0])), json_encode(max([1, 2], 5)), json_encode(min('a', 'B')), json_encode(max(true, 2)), json_encode(max([])), "\n";
