<?php
// Every finally block rethrows: 20,001 exceptions chained, each with its
// own trace. PHP runs out of memory; so must Tusk (traces are counted).
function f($n) {
    try {
        if ($n == 0) { intdiv(1, 0); }
        f($n - 1);
    } finally {
        $x = $n % 0;
    }
}
f(20000);
