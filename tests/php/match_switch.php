<?php
function up($s) { return $s === "a" ? "A" : $s; }
function m($x) {
    return match($x) { 1, 2 => 'one-two', 3 => 'three', 'a' => 'str a', '1' => 'str 1', default => 'other' };
}
foreach ([1, 2, 3, 'a', '1', 1.0, null, true] as $v) { echo m($v), "\n"; }
function chain($x) { return match(true) { $x < 0 => 'neg', $x === 0 => 'zero', default => 'pos' }; }
echo chain(-5), chain(0), chain(3), "\n";
$s = 'ab';
echo match($s . 'c') { 'abc' => 'tmp ok', default => 'no' }, "\n";
echo match($s . 'c') { 'x' => 1, 'abc' => 2 }, "\n";
function sw($x) {
    switch ($x) {
        case 1: echo "one "; 
        case 2: echo "two "; break;
        case 3: case 4: echo "three-four "; break;
        case 5: echo "five "; break;
        default: echo "default ";
    }
    echo "\n";
}
foreach ([1, 2, 3, 4, 5, 6, '1', '5.0', true, null] as $v) sw($v);
function sws($x) {
    switch ($x) { case 'apple': return 'A'; case 'banana': return 'B'; case '10': return 'ten'; }
    return '-';
}
echo sws('apple'), sws('banana'), sws('cherry'), sws(10), sws('1e1'), "\n";
function swt($x) {
    switch ($x . '') { case 'a': $r = 'A'; break; case 'b': $r = 'B'; break; default: $r = '?'; }
    switch (up($x)) { case "A": $r .= "!"; break; }
    return $r;
}
echo swt('a'), swt('b'), swt('c'), "\n";
for ($i = 0; $i < 3; $i++) {
    switch ($i) { case 1: continue 2; default: echo $i; }
    echo '.';
}
echo "\n";
echo match(5) { 1 => 'x', 5 => 'five' }, "\n";
echo m(2.5) ?? '', "\n";
$u = 5;
echo match($u) { 1 => 'a', 2 => 'b' };
