<?php
abstract class Singleton {
    private static array $instances = [];
    public static function get(): static { return self::$instances[static::class] ??= new static(); }
    public static function count(): int { return count(self::$instances); }
}
class A extends Singleton {}
class B extends Singleton {}
var_dump(A::get() === A::get(), B::get() === B::get(), A::get() === B::get(), Singleton::count(), get_class(B::get()));
