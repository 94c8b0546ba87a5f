<?php
function boom($v) { echo "cb($v)\n"; return str_repeat("x", $v - 3); }
var_dump(array_map('boom', [5, 4]));
echo "before\n";
array_map('boom', [4, 2, 1]);
echo "not reached\n";
