<?php
mt_srand(42);
echo mt_rand(), " ", mt_rand(), " ", mt_rand(1, 100), " ", mt_rand(1, 6), " ", rand(), " ", rand(10, 20), " ", mt_rand(0, PHP_INT_MAX), " ", mt_rand(-1000, 1000), "\n";
mt_srand(3);
$a = range(1, 10); shuffle($a); echo implode(",", $a), "\n";
echo str_shuffle("abcdefghij"), " ", array_rand(['a' => 1, 'b' => 2, 'c' => 3]), "\n";
mt_srand(12345); $s = 0; for ($i = 0; $i < 1000; $i++) $s += mt_rand(0, 999); echo $s, "\n";
srand(7); echo rand(), " ", rand(1, 3), "\n";
var_dump(strlen(random_bytes(16)), random_int(5, 5), mt_getrandmax());
