<?php
// Exceptions crossing user frames and builtins that call back into PHP.
function level3($x) { return intdiv($x, 0); }
function level2($x) { $tmp = [$x, "keep"]; return level3($x) + count($tmp); }
function level1($x) {
    try {
        return level2($x);
    } catch (TypeError) {
        echo "wrong\n";
    }
}
try {
    echo level1(5);
} catch (DivisionByZeroError) {
    echo "caught three frames up\n";
}

function own_handler($x) {
    try {
        return level2($x);
    } catch (DivisionByZeroError) {
        return "handled in level1";
    }
}
echo own_handler(1), "\n";

function cb($v) {
    if ($v == 3) {
        intdiv($v, 0);
    }
    return $v * 10;
}
try {
    $r = array_map('cb', [1, 2, 3, 4]);
    echo "not reached\n";
} catch (DivisionByZeroError) {
    echo "caught from array_map callback\n";
}
echo implode(",", array_map('cb', [1, 2])), "\n";

function cmp($a, $b) {
    if ($a == 0 || $b == 0) {
        $x = 1 % 0;
    }
    return $a <=> $b;
}
$arr = [3, 1, 2];
usort($arr, 'cmp');
echo implode(",", $arr), "\n";
$arr = [3, 0, 2];
try {
    usort($arr, 'cmp');
} catch (DivisionByZeroError) {
    echo "caught from usort callback\n";
}

function catches_inside($v) {
    try {
        return intdiv(10, $v);
    } catch (DivisionByZeroError) {
        return -1;
    } finally {
        echo "f$v ";
    }
}
echo implode(",", array_map('catches_inside', [1, 0, 5])), "\n";

function outer_cb($v) {
    return array_sum(array_map('cb', [$v, $v + 1]));
}
try {
    array_map('outer_cb', [1, 2]);
} catch (Error) {
    echo "caught through two builtins\n";
}
function gen_list($n) {
    $out = [];
    for ($i = 0; $i < $n; $i++) {
        foreach ([$i] as $v) {
            $out[] = "v" . level3_safe($v);
        }
    }
    return $out;
}
function level3_safe($v) { if ($v == 2) { throw $v; } return $v; }
try {
    gen_list(5);
} catch (Error) {
    echo "caught Can only throw objects from a nested frame\n";
}
echo "done\n";
