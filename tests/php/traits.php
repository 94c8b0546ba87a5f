<?php
trait Hello {
    public $greeting = 'Hello';
    protected static $count = 0;
    public static $shared = [];
    public function sayHello() { return $this->greeting . ' from ' . __CLASS__ . ' (' . __TRAIT__ . ', ' . __METHOD__ . ', ' . self::class . ', ' . static::class . ')'; }
    public static function inc() { return ++static::$count; }
    public function counter() { static $n = 0; return ++$n; }
    abstract public function name(): string;
    public function who() { return 'Hello::who ' . $this->name(); }
}
trait World {
    private $w = 'World';
    public function sayWorld() { return $this->w; }
    public function who() { return 'World::who'; }
    const T_CONST = 42;
}
class Base { public function sayHello() { return 'Base'; } public function base() { return 'base'; } }
class A extends Base {
    use Hello, World {
        Hello::who insteadof World;
        World::who as protected worldWho;
        sayWorld as public sw;
    }
    public function name(): string { return 'A'; }
    public function callWorldWho() { return $this->worldWho(); }
}
class B { use Hello; public function name(): string { return 'B'; } public function sayHello() { return 'B own'; } }
class C extends A {}
$a = new A;
echo $a->sayHello(), "\n", $a->sayWorld(), " ", $a->sw(), "\n", $a->who(), "\n", $a->callWorldWho(), "\n";
echo A::inc(), A::inc(), B::inc(), C::inc(), "\n";
echo $a->counter(), $a->counter(), (new B)->counter(), (new C)->counter(), "\n";
echo (new B)->sayHello(), "\n";
echo A::T_CONST, "\n";
var_dump($a);
print_r(new B); echo "\n";
var_dump($a instanceof Hello, method_exists($a, 'sayWorld'), method_exists($a, 'worldWho'));
var_dump(get_class_methods('B'));
A::$shared[] = 1; B::$shared[] = 2; var_dump(A::$shared, B::$shared, C::$shared);
trait Counter { private int $c = 0; public function bump(): static { $this->c++; return $this; } public function get(): int { return $this->c; } }
trait Both { use Counter; public function twice() { return $this->bump()->bump(); } }
class D { use Both; }
echo (new D)->twice()->get(), "\n";
trait StaticT { public static function create(): static { return new static(); } }
class E { use StaticT; } class F extends E {}
echo get_class(E::create()), get_class(F::create()), "\n";
