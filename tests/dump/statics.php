<?php
function counter() {
    static $n = 0, $log = [];
    $n++;
    $log[] = $n;
    return $n;
}
counter();
counter();
echo counter(), "\n";
$x = @counter();
print "done\n";
