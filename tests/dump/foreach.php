<?php
$a = ['a' => 1, 'b' => 2, 'c' => 3];
$sum = 0;
foreach ($a as $k => $v) {
    foreach ($a as $w) {
        if ($w == 2) break 2;
        $sum += $w;
    }
    echo "$k=$v\n";
}
foreach ([1, 2] as $v) {
    $sum += $v;
}
echo $sum, "\n";
