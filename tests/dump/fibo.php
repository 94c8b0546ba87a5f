<?php
function fibo($n) {
    return $n < 2 ? $n : fibo($n - 1) + fibo($n - 2);
}
$x = 10;
echo fibo($x), "\n";
