<?php
$vals = [0, 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1.005, 2.675, 1.955, 5.015, 1234.5678, -1234.5678, 1e15, 1.23456789e-5, 999.9999, 0.045, 3.14159265, 1e-10, 123456789012345678, 0.1+0.2, 1/3, 2/3, 99.995, 0.285, 1.45, 8.325, 4.35, 1e22, 5e-324, PHP_INT_MAX, -0.0];
foreach ($vals as $v) {
  echo round($v), " ", round($v, 1), " ", round($v, 2), " ", round($v, 3), " ", round($v, -1), " ", round($v, -3), "|";
  echo number_format($v), " ", number_format($v, 2), " ", number_format($v, 3, ',', '.'), "|";
  printf("%f %.1f %.3f %e %.2e %g %G %10.4f %-12.3e %05d %s %u %x\n", $v, $v, $v, $v, $v, $v, $v, $v, $v, $v, $v, $v, $v);
}
$m = [3, "10", "9", "abc", 2.5, true, null, "1e1", "ABC", [1], "", "0", -1, "  5", "5 "];
$x = $m; sort($x); echo json_encode($x), "\n";
$x = $m; rsort($x); echo json_encode($x), "\n";
$x = $m; sort($x, SORT_STRING); echo json_encode($x), "\n";
$x = $m; sort($x, SORT_NUMERIC); echo json_encode($x), "\n";
$x = $m; asort($x); echo json_encode($x), "\n";
$big = []; for ($i = 0; $i < 300; $i++) $big[] = ($i * 7919) % 101 . ($i % 3 ? "x" : ""); 
$y = $big; sort($y); echo crc32(json_encode($y)), "\n";
$y = $big; sort($y, SORT_STRING); echo crc32(json_encode($y)), "\n";
$y = $big; arsort($y); echo crc32(json_encode($y)), "\n";
$k = []; for ($i = 0; $i < 100; $i++) $k[($i * 37) % 101 . (($i % 2) ? "" : "k")] = $i; $z = $k; ksort($z); echo crc32(json_encode($z)), "\n"; krsort($z); echo crc32(json_encode($z)), "\n";
$u = array_unique($big); echo count($u), crc32(json_encode($u)), "\n";
$u = array_unique($m, SORT_REGULAR); echo json_encode($u), "\n";
