<?php
// finally runs on normal exit, return, break, continue, goto and exceptions.
function normal() {
    try { echo "try "; } finally { echo "finally\n"; }
    try { echo "try "; } catch (Error) { echo "no\n"; } finally { echo "finally after catch-less run\n"; }
}
normal();

function ret($x) {
    try {
        return "returned $x";
    } finally {
        echo "finally before return; ";
    }
}
echo ret(1), "\n";

function ret_cv() {
    $v = "original";
    try {
        return $v;
    } finally {
        $v = "changed in finally";
    }
}
echo ret_cv(), "\n";

function ret_override() {
    try {
        return "try";
    } finally {
        return "finally";
    }
}
echo ret_override(), "\n";

function exception_override() {
    try {
        intdiv(1, 0);
    } finally {
        return "finally discards the exception";
    }
}
echo exception_override(), "\n";

function catch_then_finally() {
    try {
        intdiv(1, 0);
    } catch (DivisionByZeroError) {
        echo "catch; ";
        return "from catch";
    } finally {
        echo "finally; ";
    }
}
echo catch_then_finally(), "\n";

function throw_in_catch() {
    try {
        try {
            intdiv(1, 0);
        } catch (DivisionByZeroError) {
            echo "catch; ";
            $x = 1 % 0;
        } finally {
            echo "finally runs before the outer catch; ";
        }
    } catch (DivisionByZeroError) {
        echo "outer catch\n";
    }
}
throw_in_catch();

function loops() {
    foreach ([1, 2, 3] as $i) {
        try {
            if ($i == 1) continue;
            if ($i == 3) break;
            echo "body $i; ";
        } finally {
            echo "finally $i; ";
        }
    }
    echo "\n";
    for ($i = 0; $i < 2; $i++) {
        foreach (["a", "b"] as $s) {
            try {
                try {
                    if ($s == "b") continue 2;
                    echo "$i$s ";
                } finally {
                    echo "inner ";
                }
            } finally {
                echo "outer ";
            }
        }
    }
    echo "\n";
    while (true) {
        try {
            break;
        } finally {
            echo "break from while\n";
        }
    }
    switch (1) {
        case 1:
            try { break; } finally { echo "break from switch\n"; }
    }
}
loops();

function nested_return() {
    foreach ([1, 2] as $a) {
        try {
            try {
                return "nested " . $a;
            } finally {
                echo "inner finally; ";
            }
        } finally {
            echo "outer finally; ";
        }
    }
}
echo nested_return(), "\n";

function with_goto() {
    $n = 0;
    again:
    try {
        $n++;
        if ($n < 3) goto again;
        goto out;
    } finally {
        echo "finally $n; ";
    }
    out:
    echo "out\n";
}
with_goto();

function exception_through_finally() {
    try {
        echo "try; ";
        intdiv(1, 0);
    } finally {
        echo "finally; ";
    }
    echo "not reached";
}
try {
    exception_through_finally();
} catch (DivisionByZeroError) {
    echo "caught after finally\n";
}

function finally_catches_its_own() {
    try {
        intdiv(1, 0);
    } finally {
        try {
            $x = 1 % 0;
        } catch (DivisionByZeroError) {
            echo "caught inside finally; ";
        }
    }
}
try {
    finally_catches_its_own();
} catch (DivisionByZeroError) {
    echo "original rethrown by FAST_RET\n";
}

function break_in_finally_discards() {
    foreach ([1, 2] as $i) {
        try {
            intdiv(1, 0);
        } finally {
            echo "finally $i; ";
            foreach ([1] as $j) {
                break;
            }
            return "exception discarded by return in a loop";
        }
    }
}
echo break_in_finally_discards(), "\n";

function return_value_freed() {
    try {
        try {
            return str_repeat("x", 3) . "y";
        } finally {
            intdiv(1, 0);
        }
    } catch (DivisionByZeroError) {
        return "return value dropped, exception caught";
    }
}
echo return_value_freed(), "\n";

function deep($n) {
    try {
        if ($n == 0) {
            intdiv(1, 0);
        }
        return deep($n - 1);
    } finally {
        echo "unwind $n; ";
    }
}
try { deep(3); } catch (Error) { echo "caught\n"; }

function typed(): string {
    try {
        return "typed";
    } finally {
        echo "typed finally; ";
    }
}
echo typed(), "\n";
$x = 0;
try { $x = 1; } finally { $x++; }
echo $x, "\n";
