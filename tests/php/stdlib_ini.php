<?php
foreach (["display_errors","error_reporting","memory_limit","precision","serialize_precision","max_execution_time","date.timezone","default_charset","nope"] as $k) { echo $k, "=", var_export(ini_get($k), true), "\n"; }
var_dump(ini_set("memory_limit", "256M"), ini_get("memory_limit"), ini_set("nope", 1), ini_set("display_errors", "0"), ini_get("display_errors"), set_time_limit(5), ini_get("max_execution_time"));
var_dump(ini_set("error_reporting", E_ALL & ~E_WARNING), error_reporting());
echo $undefined_var_warning_suppressed ?? "ok", "\n";
$x = [] ; echo @$x['nokey'], "done\n";
