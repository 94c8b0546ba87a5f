<?php
// ASSIGN over a string only the variable holds: the hot handler stores the
// new value and jumps to a helper that frees the old string.
function hexes(int $n): string {
    $last = '';
    for ($i = 1; $i <= $n; $i++) {
        $last = dechex($i);          // VAR source, old value a sole-owned string
    }
    return $last;
}
echo hexes(1000), "\n";

$s = str_repeat('a', 3);
$s = $s;                             // CV source: the same string, kept
echo $s, "\n";

$t = str_repeat('b', 2);
$u = $t;                             // shared: a decrement
$t = str_repeat('c', 2);
echo $t, $u, "\n";

$v = str_repeat('d', 4);
$w = ($v = 'lit');                   // CONST source, result used
echo $v, $w, "\n";

$x = str_repeat('e', 2);
$y = ($x = strtoupper('f'));         // VAR source, result used
echo $x, $y, "\n";

$z = str_repeat('g', 2);
$z = 42;                             // a non-string over the string
var_dump($z);

$r = str_repeat('h', 2);
$ref = &$r;
$r = str_repeat('i', 2);             // through a reference
echo $r, $ref, "\n";

$a = [str_repeat('j', 2)];
foreach ($a as $k => $val) {
    $val = $val . 'k';               // TMP source over a copy of an element
}
echo $val, $a[0], "\n";
