<?php
// Class constants the compiler substitutes, and static calls it knows.
class K {
    const A = 'a';
    private const P = 'p';
    const E = self::A . 'e';
    static function get() { return [self::A, self::P, self::E, K::A, self::LATER]; }
    static function inc(&$n) { $n++; return $n; }
    static function viaSelf() { $x = 1; self::inc($x); K::inc($x); return $x; }
    function closure() { return function () { return self::A . static::A; }; }
    const LATER = 'later';
}
class Kid extends K { const A = 'kid'; }
var_dump(K::get(), K::viaSelf(), (new Kid)->closure()());
$n = 5;
echo K::inc($n), " ", $n, "\n";
abstract class Ab { abstract static function m(); static function call() { return static::m(); } }
class Co extends Ab { static function m() { return 'co'; } }
echo Co::call(), "\n";
try { echo K::P; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
