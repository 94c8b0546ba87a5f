<?php
class P { protected $name; private $secret = 's'; public static $count = 0;
  function __construct($n) { $this->name = $n; self::$count++; static::$count += 0; }
  function hello() { return "Hello, " . $this->name . "!"; }
  function __destruct() { echo "bye {$this->name}\n"; }
  static function make($n) { return new static($n); }
}
class C extends P { function hello() { return parent::hello() . " (child)"; } }
$p = new P("a");
echo $p->hello(), "\n";
$c = C::make("b");
echo $c->hello(), "\n";
echo P::$count, "\n";
var_dump($c instanceof P, $p instanceof C);
$p = null;
echo "end\n";
try_it();
function try_it() { $o = new stdClass; $o->x = 1; $o->y = [1,2]; $o->y[] = 3; echo count($o->y), "\n"; }
