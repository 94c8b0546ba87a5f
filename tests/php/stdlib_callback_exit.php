<?php
function stop($v, $k) { echo "stop($k => $v)\n"; exit(3); }
echo "start\n";
$a = [1, 2];
array_walk($a, 'stop');
echo "not reached\n";
