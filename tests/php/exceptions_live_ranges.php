<?php
// An exception frees every temporary alive where it was thrown (foreach
// iterators over built arrays, switch and match subjects, rope parts,
// pending call arguments, array literals under construction); the test
// harness also checks that nothing leaks.
function parts($n) { return array_fill(0, $n, str_repeat("p", $n)); }
function thrower($v) { if ($v === "pp") { intdiv(1, 0); } return $v; }
try {
    foreach (parts(3) as $p) {
        foreach (parts(2) as $q) {
            echo thrower($q), " ";
        }
    }
} catch (DivisionByZeroError) {
    echo "iterators freed\n";
}
try {
    switch (str_repeat("s", 2)) {
        case "ss":
            thrower("pp");
    }
} catch (Error) {
    echo "switch subject freed\n";
}
try {
    echo match (str_repeat("m", 2)) { "x" => 1 };
} catch (UnhandledMatchError) {
    echo "match subject freed\n";
}
$s = str_repeat("r", 3);
try {
    echo "rope $s and {$s}s " . thrower("pp") . " end";
} catch (Error) {
    echo "rope parts freed\n";
}
try {
    echo strlen(str_repeat("a", 2) . "b", thrower("pp"));
} catch (Error) {
    echo "pending call arguments freed\n";
}
try {
    $arr = [str_repeat("e", 2), [str_repeat("f", 2)], thrower("pp")];
} catch (Error) {
    echo "array literal freed\n";
}
function in_finally() {
    foreach (parts(2) as $v) {
        try {
            return str_repeat("ret", 2) . thrower($v);
        } finally {
            echo "finally with live iterator; ";
        }
    }
}
try {
    in_finally();
} catch (Error) {
    echo "caught\n";
}
function ret_then_throw() {
    foreach (parts(1) as $v) {
        try {
            return str_repeat("x", 2) . $v;
        } finally {
            thrower("pp");
        }
    }
}
try {
    ret_then_throw();
} catch (Error) {
    echo "pending return value freed\n";
}
function overridden() {
    try {
        return str_repeat("y", 2) . "z";
    } finally {
        return "override frees the first";
    }
}
echo overridden(), "\n";
