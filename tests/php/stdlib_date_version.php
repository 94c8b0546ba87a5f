<?php
foreach ([0, 1700000000, 951782400, 1609459200, 1735603200, -86400, 2147483647, 1104537600, 1230681600, 1262217600] as $t)
  echo date("Y-m-d H:i:s D N j n y L W o t a A g G h H u v e T P O c r U l F M S z w \\Y", $t), "\n";
var_dump(mktime(0, 0, 0, 1, 1, 2000), gmmktime(12, 30, 0, 13, 1, 2020), mktime(0, 0, 0, 2, 30, 2021), mktime(1, 2, 3, 4, 5, 99), checkdate(2, 29, 2024), checkdate(2, 29, 2023), checkdate(13, 1, 2020), date_default_timezone_get());
foreach (["1.0.0", "1.0.0-dev", "1.0.0RC1", "1.0.0alpha", "1.0", "1.0.1", "5.3.0-beta", "1.10", "1.9", "1.0pl1"] as $v) echo $v, ":", version_compare($v, "1.0.0"), version_compare("1.9", $v, ">=") ? "y" : "n", " ";
echo "\n", php_sapi_name(), " ", phpversion() === PHP_VERSION ? "same" : "diff", "\n";
