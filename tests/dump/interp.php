<?php
$name = "world";
$n = 3;
echo "hello $name\n";
echo "$name";
echo "a{$name}b{$n}c\n";
echo "x" . $n . "y", PHP_EOL;
$s = "n=" . ($n + 1);
echo $s, strlen($s), "\n";
