<?php
function f($a) {
    try {
        $x = intdiv($a, 0);
    } catch (DivisionByZeroError | TypeError $e) {
        echo "c1\n";
    } catch (Exception) {
        echo "c2\n";
    } finally {
        echo "fin\n";
    }
    foreach ([1,2] as $v) {
        try {
            if ($v) break;
            if ($v) continue;
            return $a . "x";
        } finally {
            echo "f2\n";
            return 5;
        }
    }
    $y = $a ?? throw $a;
    throw $y;
}
function g($a) {
    try {
        try {
            return $a;
        } finally {
            echo "inner\n";
        }
    } catch (Error $e) {
        echo "caught\n";
    } finally {
        echo "outer\n";
    }
    L: try { goto L; } finally { echo 1; }
    try { foreach ([1] as $x) { goto M; } } finally { echo 2; }
    M:
    return 1;
}
try { echo f(1), "\n"; } catch (Error) { echo "Error caught\n"; } finally { echo "x\n"; }
echo g(3), "\n";
