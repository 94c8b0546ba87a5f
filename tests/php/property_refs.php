<?php
class WithRef { public $val = 1; public $ref; public static $s = 0; public readonly int $ro; function __construct() { $this->ro = 1; } }
$w = new WithRef;
$w->ref = &$w->val;
$wc = clone $w;
$wc->ref = 99;
var_dump($w->val, $wc->val);
$x = 5;
$r = ($w->ref = &$x);
$x = 6;
var_dump($w->ref, $r);
WithRef::$s = &$x;
$x = 7;
var_dump(WithRef::$s);
$name = 'dyn';
$o = new stdClass;
$o->$name = &$x;
$o->{'a' . 'b'} = &$o->dyn;
$x = 8;
var_dump($o);
function &getref() { static $v = 10; return $v; }
function getval() { return 11; }
$o->g = &getref();
$o->h = &getval();
var_dump($o->g, $o->h);
try { $w->ro = &$x; } catch (Error $e) { echo $e->getMessage(), "\n"; }
$n = null;
try { $n->p = &$x; } catch (Error $e) { echo $e->getMessage(), "\n"; }
class Magic { function __get($n) { return 1; } }
$m = new Magic;
try { $m->p = &$x; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { $y = clone 5; } catch (Error $e) { echo $e->getMessage(), "\n"; }
