<?php
function tick_a($tag = '') { echo "tick$tag "; }
register_tick_function('tick_a', '!');
declare(ticks=1);
$a = 1;
$b = 2;
if ($a) { $c = 3; }
function f() { $x = 1; return $x; }
f();
unregister_tick_function('tick_a');
echo "\n";
$o = new class { public $n = 0; function t() { $this->n++; } };
register_tick_function([$o, 't']);
declare(ticks=2) { $q = 1; $q = 2; $q = 3; $q = 4; }
echo $o->n, "\n";
