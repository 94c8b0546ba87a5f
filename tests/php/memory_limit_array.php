<?php
// An unbounded array ends with PHP's memory-exhausted fatal error, not a crash.
echo "start\n";
$a = [];
while (true) {
    $a[] = 1;
}
