<?php
function h($a) {
    foreach ([$a, 2] as $k => $v) {
        try {
            echo $v . intdiv($a, $v);
        } catch (DivisionByZeroError | ArithmeticError $e) {
            echo "a";
            continue;
        } catch (TypeError) {
            break;
        }
    }
    try {
        $x = [$a, $a + 1];
        return $x;
    } finally {
        $x = null;
    }
}
function &r(array &$a) {
    try {
        return $a[0];
    } finally {
        echo "r";
    }
}
$y = 1;
try {
    try { h($y); } finally { echo "in"; }
} catch (Error) {
    echo match ($y) { 2 => 'x' };
} finally {
    switch ($y) { case 1: try { break; } finally { echo 1; } }
}
echo $y ?? throw $y;
