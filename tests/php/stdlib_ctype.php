<?php
// Every ctype_* over every byte, strings, ints (PHP 8.1's deprecation,
// character codes and the out-of-range rules) and other types.
$fns = ['ctype_alnum', 'ctype_alpha', 'ctype_cntrl', 'ctype_digit', 'ctype_graph', 'ctype_lower',
        'ctype_print', 'ctype_punct', 'ctype_space', 'ctype_upper', 'ctype_xdigit'];
foreach ($fns as $f) {
    $in = '';
    for ($i = 0; $i < 256; $i++) {
        if ($f(chr($i))) {
            $in .= $i . ',';
        }
    }
    echo $f, ': ', $in, "\n";
    foreach (['', 'abc', 'ABC', 'aB1', '123', '12.5', ' ', "\t\n", '!?', 'ff0A', "a\0", 'ä'] as $s) {
        echo '  ', json_encode($s), ' ', var_export($f($s), true), "\n";
    }
}
foreach ($fns as $f) {
    foreach ([-300, -129, -128, -1, 0, 9, 32, 48, 65, 97, 127, 255, 256, 1000, PHP_INT_MAX, PHP_INT_MIN] as $n) {
        echo $f, '(', $n, ') = ', var_export(@$f($n), true), "\n";
    }
}
foreach ([1.5, null, true, false, [], new stdClass, '5'] as $v) {
    var_dump(ctype_digit($v));
}
var_dump(ctype_digit(65), ctype_alpha(-191));
try {
    ctype_alpha();
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
