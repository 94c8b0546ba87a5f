<?php
namespace Lib\Util {
    const VERSION = '1.2';
    function helper($x) { return "helper($x)"; }
    function strlen($s) { return "ns-strlen"; }
    interface Shape { function area(): float; }
    class Square implements Shape {
        function __construct(private float $s) {}
        function area(): float { return $this->s ** 2; }
        static function make(float $s): static { return new static($s); }
    }
    class Oops extends \RuntimeException {}
}
namespace App {
    use Lib\Util\Square;
    use Lib\Util\Shape as ShapeI;
    use Lib\Util;
    use function Lib\Util\helper;
    use const Lib\Util\VERSION;

    function describe(ShapeI $s): string { return get_class($s) . ' ' . $s->area(); }
    echo describe(new Square(3)), "\n";
    echo describe(Square::make(2)), "\n";
    echo helper(1), ' ', Util\helper(2), ' ', \Lib\Util\helper(3), "\n";
    echo VERSION, ' ', Util\VERSION, ' ', \strlen('abc'), ' ', strlen('abcd'), ' ', Util\strlen('x'), "\n";
    echo PHP_VERSION_ID > 80000 ? "ok" : "old", ' ', M_PI > 3 ? 'pi' : '', ' ', E_ALL, "\n";
    var_dump(Square::class, ShapeI::class, Util\Square::class, namespace\Local::class, __NAMESPACE__);
    var_dump(class_exists('Lib\Util\Square'), class_exists('\Lib\Util\Square'), function_exists('Lib\Util\helper'), function_exists('App\describe'));
    $cls = 'Lib\Util\Square';
    $o = new $cls(4);
    var_dump($o instanceof Square, $o instanceof ShapeI, $o instanceof \Lib\Util\Shape);
    var_dump(call_user_func('Lib\Util\helper', 'cb'), array_map('App\twice', [1, 2]));
    function twice($x) { return $x * 2; }
    try { throw new Util\Oops("bad"); } catch (Util\Oops $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
    try { undefined_fn(); } catch (\Error $e) { echo $e->getMessage(), "\n"; }
    try { echo UNDEFINED_CONST; } catch (\Error $e) { echo $e->getMessage(), "\n"; }
    $f = function () { return __FUNCTION__; };
    echo $f(), ' ', (fn() => __NAMESPACE__)(), "\n";
    class Local { const X = 1; function m() { return __METHOD__; } }
    echo (new Local)->m(), ' ', Local::X, ' ', \App\Local::X, "\n";
    echo json_encode([true, false, null, TRUE, \true]), "\n";
}
namespace {
    echo \App\twice(5), ' ', App\twice(6), ' ', strlen('global'), "\n";
    var_dump(__NAMESPACE__);
}
