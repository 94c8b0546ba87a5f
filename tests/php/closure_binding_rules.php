<?php
class C { public $n = 1; private $p = 'priv'; static function sm() { return static::class; } function m() { return $this->n; } }
class D extends C {}
$uses = function () { return isset($this) ? get_class($this) : 'none'; };
var_dump($uses(), $uses->bindTo(new C)(), $uses->bindTo(new C)->bindTo(null));
$plain = function () { return 1; };
var_dump($plain->bindTo(new C)->bindTo(null)());
$st = static function () { return isset($this); };
var_dump($st->bindTo(new C), Closure::bind($st, null, C::class)());
$fake = Closure::fromCallable([new C, 'm']);
var_dump($fake->bindTo(null), $fake->bindTo(new stdClass), $fake->bindTo(new D)());
var_dump(Closure::fromCallable('strlen')->bindTo(null, C::class));
$sc = function () { return [static::class, get_class()]; };
var_dump(Closure::bind($sc, new D, 'static')());
var_dump(Closure::bind(fn() => $this->p, new C, C::class)());
$noThis = function () { return $this->n; };
try { $noThis(); } catch (Error $e) { echo $e->getMessage(), "\n"; }
$noThis2 = function () { $this->n = 2; };
try { $noThis2(); } catch (Error $e) { echo $e->getMessage(), "\n"; }
$noThis3 = function () { return $this->m(); };
try { $noThis3(); } catch (Error $e) { echo $e->getMessage(), "\n"; }
var_dump(strlen(...) == strlen(...), $plain == $plain, $plain == function () { return 1; }, [new C, 'm'] == [new C, 'm']);
$o = new C;
var_dump(Closure::fromCallable([$o, 'm']) == $o->m(...), Closure::fromCallable([$o, 'm']) == (new C)->m(...));
class Str { function __toString(): string { return 'str!'; } }
var_dump(strlen(new Str), str_repeat(new Str, 2), get_debug_type(new Str), get_debug_type(new class {}), get_debug_type(1.5));
try { strlen(new C); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { str_pad(new C, 3); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
$ee = new ErrorException('m', 3, E_NOTICE, 'f.php', 7);
var_dump($ee->getSeverity(), $ee->getCode(), $ee->getFile(), $ee->getLine(), (new ErrorException('x'))->getSeverity());
$ee2 = new ErrorException('m', 0, E_WARNING, 'g.php');
var_dump($ee2->getLine(), (new ErrorException('p', 0, 1, null, null, $ee))->getPrevious() === $ee);
class Vis { private function hid() {} }
class VisKid extends Vis { function t() { return $this->hid(); } }
try { (new VisKid)->t(); } catch (Error $e) { echo $e->getMessage(), "\n"; }
