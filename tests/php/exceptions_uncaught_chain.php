<?php
// An exception thrown in a finally block that runs because of another one
// chains it as `previous`; PHP prints both, the earliest first.
function f($a) {
    try {
        echo "try\n";
        intdiv($a, 0);
    } finally {
        echo "finally\n";
        $x = $a % 0;
    }
}
try {
    f(1);
} catch (TypeError) {
    echo "not this one\n";
} finally {
    echo "outer finally\n";
}
echo "not reached\n";
