<?php
$a = null; $b = false; $c = 0; $r = &$a;
var_dump($a === null, null === $a, $b !== false, $c === false, true !== $c, $r === null, $u === null);
if ($c !== null) echo "notnull\n";
while (($x = array_shift($q)) !== null) {}
