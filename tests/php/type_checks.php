<?php
class A { function me(self $x): static { return $this; } static function mk(): static { return new static; } function bad(): static { return new stdClass; } }
class B extends A { function p(parent $p): A { return $p; } }
interface I {}
class C implements I {}
function f(A|I $o) { return get_class($o); }
function it(iterable $i) { return 'ok'; }
function cb(callable $c) { return 'cb'; }
function r(): A { return new C; }
function nev(): never { throw new RuntimeException("thrown"); }
function nev2(): never { if (false) { echo 1; } }
function i(int $x) { return var_export($x, true); }
function ib(int|bool $x) { return var_export($x, true); }
function two($a, $b) {}
function variadicMin($a, ...$rest) {}
echo f(new B), f(new C), "\n";
$tests = [fn() => f(new stdClass), fn() => it(new ArrayObject([])), fn() => it(new stdClass), fn() => cb('strlen'), fn() => cb('nope'),
  fn() => cb([new A, 'me']), fn() => r(), fn() => (new B)->me(new A), fn() => (new A)->me(new B), fn() => get_class(B::mk()),
  fn() => (new B)->p(new C), fn() => (new B)->p(new A), fn() => (new A)->bad(), fn() => nev(), fn() => nev2(),
  fn() => i("1e2"), fn() => ib("abc"), fn() => i(" 12"), fn() => i("12abc"),
  fn() => two(1), fn() => call_user_func('two', 1), fn() => array_map('two', [1]), fn() => variadicMin()];
foreach ($tests as $t) {
  try { echo $t(), "\n"; } catch (Throwable $e) { echo get_class($e), ": ", explode(', called in', explode(' passed in', $e->getMessage())[0])[0], "\n"; }
}
