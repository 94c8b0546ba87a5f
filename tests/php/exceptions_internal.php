<?php
// Internal errors caught by class, parent class, interface, multi-catch and
// catch without a variable; non-matching catches fall through to outer ones.
try { intdiv(1, 0); echo "not reached\n"; } catch (DivisionByZeroError $e) { echo "caught DivisionByZeroError (intdiv)\n"; }
try { $r = 1 % 0; } catch (DivisionByZeroError) { echo "caught DivisionByZeroError (%)\n"; }
try { $r = 1 << -1; } catch (ArithmeticError $e) { echo "caught ArithmeticError (<<)\n"; }
try { $r = 1 >> -1; } catch (DivisionByZeroError $e) { echo "wrong\n"; } catch (ArithmeticError $e) { echo "caught ArithmeticError (>>)\n"; }
try { echo match (5) { 1 => 'one' }; } catch (UnhandledMatchError $e) { echo "caught UnhandledMatchError\n"; }
try { strlen([]); } catch (TypeError $e) { echo "caught TypeError\n"; }
try { str_repeat("x", -1); } catch (TypeError | ValueError $e) { echo "caught ValueError via multi-catch\n"; }
try { intdiv(PHP_INT_MIN, -1); } catch (Exception $e) { echo "wrong\n"; } catch (Error $e) { echo "caught ArithmeticError as Error\n"; }
try { intdiv(1, 0); } catch (Throwable $t) { echo "caught as Throwable\n"; }
try { intdiv(1, 0); } catch (\DivisionByZeroError $t) { echo "caught fully qualified\n"; }
try { intdiv(1, 0); } catch (divisionbyzeroERROR $t) { echo "caught any case\n"; }
$e = "kept";
try { intdiv(1, 0); } catch (DivisionByZeroError) { echo "no variable: ", $e, "\n"; }
try {
    try {
        intdiv(1, 0);
    } catch (TypeError $e) {
        echo "wrong\n";
    } catch (ValueError | Exception $e) {
        echo "wrong\n";
    }
    echo "not reached\n";
} catch (ArithmeticError $e) {
    echo "outer caught\n";
}
$v = 5;
try { intdiv(1, 0); } catch (Error $v) { echo "caught into a used variable\n"; }
// Rethrow from a catch block to an outer handler.
try {
    try {
        intdiv(1, 0);
    } catch (DivisionByZeroError $e) {
        echo "inner\n";
        $r = 1 % 0;
    }
} catch (DivisionByZeroError $e) {
    echo "outer after inner\n";
}
// Exceptions in loops: the loop's temporaries are freed.
$out = [];
foreach ([1, 0, 2, 0, 3] as $d) {
    try {
        $out[] = str_repeat("ab", 2) . intdiv(6, $d);
    } catch (DivisionByZeroError) {
        $out[] = "div0";
        continue;
    }
}
echo implode(",", $out), "\n";
for ($i = 0; $i < 3; $i++) {
    foreach ([1, 2] as $x) {
        try { echo "x$i$x" . intdiv($x, $i), " "; } catch (DivisionByZeroError) { echo "z "; break; }
    }
}
echo "\n";
// throw as an expression; non-objects cannot be thrown.
try { throw 1; } catch (Error $e) { echo "caught Error: Can only throw objects\n"; }
$n = null;
try { $x = $n ?? throw "str"; } catch (Error) { echo "caught ?? throw\n"; }
try { $x = $undefined ?? throw null; } catch (Error) { echo "caught undefined ?? throw\n"; }
try { throw $undefinedvar; } catch (Error) { echo "caught after warning\n"; }
echo ($n ?? "default"), "\n";
echo "done\n";
