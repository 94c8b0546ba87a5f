<?php
const DEF = 10;
class Cfg { const SIZE = 3; }
function greet($name = "World", $punct = "!") { return "Hello, $name$punct"; }
function calc($a, $b = DEF * 2, $c = Cfg::SIZE, $d = [1, 2], $e = null, $f = PHP_INT_MAX) {
    return [$a, $b, $c, $d, $e, $f];
}
echo greet(), "\n", greet("Ann"), "\n", greet("Bob", "?"), "\n";
var_dump(calc(1));
var_dump(calc(1, 2, 3));
var_dump(calc(1, null));
function defaultsSeeCurrentValue($x = DEF) { return $x; }
var_dump(defaultsSeeCurrentValue());
function withArrayDefault(array $opts = ['a' => 1]) { $opts['b'] = 2; return $opts; }
var_dump(withArrayDefault(), withArrayDefault(['z' => 0]));
function typedNullDefault(int $x = null) { return var_export($x, true); }
echo typedNullDefault(), " ", typedNullDefault(5), "\n";
function newInInit($obj = new ArrayObject([1, 2])) { return count($obj); }
var_dump(newInInit());
function exprDefault($x = 2 ** 3 + 1, $s = 'a' . 'b', $t = DEF > 5 ? 'big' : 'small') { return [$x, $s, $t]; }
var_dump(exprDefault());
function counter($start = 0) { static $n = null; $n ??= $start; return $n++; }
var_dump(counter(5), counter(100), counter());
function refDefault(&$r = 'default ref') { $r .= '!'; return $r; }
var_dump(refDefault());
$v = 'var';
class K {
    const A = 'ka';
    static function m($x = self::A . '!', $y = [self::A => PHP_INT_SIZE], ?int $z = null) { return [$x, $y, $z]; }
}
var_dump(K::m(), K::m(z: 3));
function named_ast($a, $b = DEF + 1, $c = new ArrayObject([])) { return [$a, $b, get_class($c)]; }
var_dump(named_ast(c: new ArrayIterator([]), a: 0));
function float_default(float $f = 1) { return $f; }
var_dump(float_default());
