<?php
// Every flag combination of preg_match, preg_match_all, preg_split and
// preg_replace_callback, over patterns with unset, empty and named groups.
function show($v) {
    echo json_encode($v), "\n";
}
$patterns = ['/(a)?(b)(c)?/', '/(?<x>a)?(?<y>b)|(?<z>c)/', '/x*/', '/(\d)(?:(\w)|(-))?/'];
$subjects = ['b abc c', '', '1- 2x 3'];
$order = [0, PREG_PATTERN_ORDER, PREG_SET_ORDER];
$extra = [0, PREG_OFFSET_CAPTURE, PREG_UNMATCHED_AS_NULL, PREG_OFFSET_CAPTURE | PREG_UNMATCHED_AS_NULL];
foreach ($patterns as $p) {
    foreach ($subjects as $s) {
        foreach ($extra as $e) {
            echo "$p ", json_encode($s), " $e: ";
            $r = preg_match($p, $s, $m, $e);
            echo $r, ' ';
            show($m);
            foreach ($order as $o) {
                echo "  all $o|$e: ";
                $r = preg_match_all($p, $s, $m, $o | $e);
                echo $r, ' ';
                show($m);
            }
            echo "  cb $e: ";
            show(preg_replace_callback($p, function ($m) { return '<' . json_encode($m) . '>'; }, $s, -1, $n, $e));
            echo "  count $n\n";
        }
        foreach (range(0, 7) as $sf) {
            foreach ([-1, 0, 1, 2, 3] as $limit) {
                echo "  split $sf $limit: ";
                show(preg_split($p, $s, $limit, $sf));
            }
        }
    }
}
// No matches argument, and the flags checks.
var_dump(preg_match_all('/a/', 'banana'));
var_dump(preg_match_all('/a/', 'banana', $m, 0), $m);
try {
    preg_match_all('/a/', 'banana', $m, PREG_PATTERN_ORDER | PREG_SET_ORDER);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($m);
try {
    preg_match('/a/', 'banana', $m, PREG_SET_ORDER);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
try {
    preg_match_all('/a/', 'banana', $m, 4);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$m = 'untouched';
var_dump(preg_match('/(/', 'x', $m), $m);
var_dump(preg_match_all('/(?:)/', 'abc', $m, PREG_OFFSET_CAPTURE), $m);
var_dump(preg_match_all('/(*MARK:A)a|(*MARK:B)b|c/', 'abc', $m), $m);
var_dump(preg_match_all('/(*MARK:A)a|(*MARK:B)b|c/', 'abc', $m, PREG_SET_ORDER), $m);
var_dump(preg_match_all('//u', 'aé', $m, PREG_OFFSET_CAPTURE), $m);
var_dump(preg_split('//u', 'aéb', -1, PREG_SPLIT_NO_EMPTY));
var_dump(preg_split('/(\d)|(x)/', 'a1bxc', -1, PREG_SPLIT_DELIM_CAPTURE));
var_dump(preg_split('/(\d)|(x)/', 'a1bxc', -1, PREG_SPLIT_DELIM_CAPTURE | PREG_SPLIT_NO_EMPTY));
var_dump(preg_split('/\d/', 'a1b2c3', 2, PREG_SPLIT_OFFSET_CAPTURE));
var_dump(array_map('bin2hex', preg_split('/x/u', "\xff", 1)), preg_last_error());
var_dump(preg_split('/x/u', "\xff", 2), preg_last_error());
