<?php
// Which top-level classes exist before their declaration runs (early
// binding) and which only once their DECLARE_CLASS has run.
var_dump(class_exists('Plain'), class_exists('Child'), class_exists('WithIface'), class_exists('Stringy'), class_exists('Late'), class_exists('MyEx'), class_exists('E'));
echo Plain::hi(), Child::hi(), MyEx::class, "\n";
try { echo WithIface::hi(); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { new Late; } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
class Plain { static function hi() { return "plain "; } }
class Child extends Plain {}
interface I {}
class WithIface implements I { static function hi() { return "iface"; } }
class Stringy { function __toString(): string { return "s"; } }
class Late extends Later {}
class Later {}
class MyEx extends Exception {}
enum E { case A; }
var_dump(class_exists('WithIface'), class_exists('Stringy'), class_exists('Late'), class_exists('E'));
echo WithIface::hi(), " ", new Stringy, " ", get_class(new Late), "\n";
