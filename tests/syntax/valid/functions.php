<?php
function simple() {}
function withDefaults($a, $b = 1, $c = [1, 2], $d = null, $e = PHP_INT_MAX) {}
function variadic(...$args) { return $args; }
function byRef(&$a, &...$rest) { $a = 1; }
function &refReturn(array &$arr) { return $arr[0]; }
function trailing($a, $b,) {}
function named(int $x = 0, string ...$more) {}

$x = 1;
$closure = function ($a) use ($x, &$y) { return $a + $x + $y; };
$closureRef = function &() use (&$x) { return $x; };
$static = static function () { return 1; };
$arrow = fn($a) => $a + $x;
$arrowRef = fn&(array &$a) => $a;
$staticArrow = static fn(): int => 1;
$nestedArrow = fn($a) => fn($b) => $a + $b;
$closureTrailingUse = function () use ($x,) {};

$strlen = strlen(...);
$method = $obj->method(...);
$static = Foo::bar(...);
$nullable = $closure(...);
$dyn = $obj->$name(...);
$staticDyn = Foo::$name(...);
$strCallable = 'strlen'(...);

named(x: 1);
named(1, 'a', 'b');
named(...[1, 'a']);
named(...$args, ...$more);
variadic(...['a' => 1], b: 2);
array_fill(start_index: 0, count: 3, value: 'x');
foo(array: 1, list: 2, class: 3, function: 4, fn: 5, match: 6, enum: 7, readonly: 8);
f(...$a)(...$b);
$closure(1)(2)(3);
(function () {})();
(fn() => 1)();
(new Foo)->bar()();
[$obj, 'method']();
'strlen'('abc');
"strlen"('abc');
strlen(...)('x');
$f = $closure->call(...);
byRef($arr[0], $arr['k']->p);
echo refReturn($arr);
$r = &refReturn($arr);
$r = &$obj->method();
$r = &Foo::bar();
$r = &$arr['a']['b'];
$r = &$$name;
$r = &$obj->prop;
$r = &Foo::$prop;
$v = function () use ($x): int { return $x; };
