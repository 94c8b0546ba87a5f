<?php
$a = [1, 2, 3, 4];
foreach ($a as $k => &$v) { if ($k == 1) unset($a[1]); echo "$k=$v "; }
echo "\n"; unset($v);
$a = [1, 2, 3];
foreach ($a as $k => &$v) { if ($k == 0) { unset($a[0]); $a[] = 9; } echo "$k=$v "; }
echo "\n"; unset($v);
$a = ['x' => 1, 'y' => 2];
foreach ($a as $k => &$v) { if ($k == 'x') { $a['z'] = 3; unset($a['y']); } echo "$k=$v "; }
echo "\n"; unset($v);
$a = [1, 2, 3];
foreach ($a as $k => &$v) { $a = null; echo "$k=$v "; }
echo "\n"; unset($v);
var_dump($a);
$a = [];
foreach ($a as &$v) { echo "never"; }
$b = [1];
foreach ($b as &$v) { $b[] = count($b); if (count($b) > 5) break; }
unset($v);
echo implode(',', $b), "\n";
$c = [5 => 'a', 10 => 'b'];
foreach ($c as $k => &$v) { $c[$k + 100] = $v . '!'; if ($k > 100) break; }
unset($v);
var_dump($c);
