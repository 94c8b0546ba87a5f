<?php
interface Greeter { public function greet(): string; }
class Base { public function __construct(public int $n = 0) {} }
function make($n) {
    return new class($n) extends Base implements Greeter {
        public $extra = 'x';
        public function greet(): string { return "hi {$this->n}"; }
    };
}
$a = make(1); $b = make(2);
echo $a->greet(), " ", $b->greet(), "\n";
var_dump($a instanceof Greeter, $a instanceof Base, get_class($a) === get_class($b));
var_dump($a);
echo strlen(get_class($a)) > 0 ? "named\n" : "";
echo str_replace("\0", "\\0", get_class($a)), "\n";
$o = new class { public $p = 1; };
var_dump($o);
print_r($o); echo "\n";
echo (new class { public function __toString(): string { return static::class === self::class ? "same" : "diff"; } }), "\n";
class Outer {
    private $secret = 's';
    public function make() {
        return new class($this) {
            public function __construct(private Outer $o) {}
            public function cls() { return self::class === static::class; }
        };
    }
}
$x = (new Outer)->make();
var_dump($x->cls(), get_parent_class($x));
$objs = [];
for ($i = 0; $i < 3; $i++) { $objs[] = new class { public static $n = 0; public function __construct() { self::$n++; } }; }
var_dump(get_class($objs[0]) === get_class($objs[2]), $objs[0]::$n);
$s = new class implements Countable { public function count(): int { return 7; } };
var_dump($s instanceof Countable, str_contains(get_class($s), "Countable@anonymous"));
$t = new class { private $p = 1; };
var_dump($t);
$t->nope();
