<?php
$a = [1, 2];
var_dump(array_map('nope', $a));
