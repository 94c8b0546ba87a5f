<?php
$s = str_repeat("[", 200000) . str_repeat("]", 200000);
var_dump(json_decode($s, true, 1000000000)); echo json_last_error_msg(), "\n";
var_dump(json_decode(str_repeat("[", 600) . str_repeat("]", 600))); echo json_last_error_msg(), "\n";
$a = []; for ($i = 0; $i < 600; $i++) { $a = [$a]; }
var_dump(json_encode($a)); echo json_last_error_msg(), "\n";
var_dump(strlen(json_encode($a, 0, 1000)));
var_dump(array_pad([], 1048577, 0));
