<?php
// Edge cases: return values across finally, @ and exceptions, labels
// before try, switch/match inside try, chains caught, exit in finally.
function over() {
    try {
        return str_repeat("a", 3) . "b";
    } finally {
        return "over";
    }
}
echo over(), "\n";
try { @intdiv(1, 0); } catch (Error) { echo "silenced caught\n"; }
echo $undefined1;
function sil() { return @intdiv(1, 0); }
try { sil(); } catch (Error) { echo "caught 2\n"; }
echo $undefined2;
function refret(array &$a) : int {
    try { return $a[0]; } finally { $a[0] = 100; }
}
$arr = [5];
echo refret($arr), $arr[0], "\n";
function &refret2(array &$a) {
    try { return $a[0]; } finally { $a[0] = 100; }
}
$arr = [5];
$r = &refret2($arr); echo $r, "\n";
$s = "x";
try { echo "a{$s}b" . intdiv(1, 0); } catch (Error) { echo "rope\n"; }
try { echo [1, 2, intdiv(1, 0)]; } catch (Error) { echo "array\n"; }
try { echo strlen(str_repeat("a", 2), intdiv(1, 0)); } catch (Error) { echo "call args\n"; }
// label before try
function lab() {
    $i = 0;
    L: try { $i++; if ($i < 3) goto L; } finally { echo "f$i "; }
    echo "\n";
}
lab();
function sw($x) {
    switch ($x) {
        case 1:
            try { return "one" . $x; } finally { echo "sw-finally "; }
        default:
            return "other";
    }
}
echo sw(1), sw(2), "\n";
function matchy($x) {
    try {
        return match ($x) { 1 => 'a' };
    } catch (\UnhandledMatchError) {
        return "unhandled";
    } finally {
        echo "m ";
    }
}
echo matchy(1), matchy(2), "\n";
function deepfin() {
    try {
        try {
            try { intdiv(1, 0); } finally { echo "1 "; }
        } finally { echo "2 "; }
    } catch (Error) { echo "c "; } finally { echo "3\n"; }
}
deepfin();
function rethrow_chain() {
    try {
        try { intdiv(1, 0); } finally { echo "a "; $x = 1 % 0; }
    } catch (DivisionByZeroError) { echo "caught the modulo (previous chained)\n"; }
}
rethrow_chain();
function nested_catch_in_finally() {
    try {
        throw 1;
    } catch (Error) {
        try { intdiv(1,0); } catch (Error) { echo "inner "; } finally { echo "innerfin "; }
        echo "after\n";
    }
}
nested_catch_in_finally();
echo "end\n";
function f() {
    try {
        intdiv(1, 0);
    } finally {
        echo "in finally, exiting\n";
        exit("bye\n");
    }
}
f();
