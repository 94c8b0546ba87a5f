<?php
const DEF = 10;
function calc($a, $b = DEF * 2, $c = PHP_INT_MAX, $d = [1, 2], $o = new ArrayObject([1]), $e = M_PI) {}
