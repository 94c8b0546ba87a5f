<?php
$a = 1; $b = 2;
$c = function($x) use ($a, &$b) { static $s = 0; $s++; $b++; return $x + $a + $s; };
$d = fn($y) => $y * $a + $b;
echo $c(1), " ", $c(1), " ", $b, " ", $d(2), "\n";
echo implode(",", array_map(fn($v) => $v * 2, [1, 2, 3])), "\n";
$arr = [3, 1, 2]; usort($arr, function($x, $y) { return $x <=> $y; }); echo implode(",", $arr), "\n";
class Counter { private $n = 0; function inc() { return function() { return ++$this->n; }; }
  static function make() { return static fn() => new static; } function __invoke($x) { return $x * 10; } }
$k = (new Counter)->inc(); echo $k(), $k(), "\n";
$m = Counter::make(); echo get_class($m()), "\n";
$o = new Counter; echo $o(4), " ", call_user_func([$o, 'inc'])(), " ", call_user_func('Counter::make') instanceof Closure ? 'y' : 'n', "\n";
$adder = fn($x) => fn($y) => $x + $y; echo $adder(3)(4), "\n";
$f = function() { return $this->n; }; echo Closure::bind($f, new Counter, Counter::class)(), "\n";
echo (function() { return func_num_args(); })(1, 2), "\n";
$fn = 'strtoupper'; echo $fn('abc'), "\n";
var_dump($d);
