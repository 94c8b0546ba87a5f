<?php
class A { public $a = 1; protected $b = [1]; private $c = 'x'; public int $t; }
class B extends A { public $d = null; }
$o = new B; $o->dyn = 5;
var_dump($o); print_r($o); echo "\n"; var_export($o); echo "\n";
$s = new stdClass; $s->x = 1; $s->self = $s; var_dump($s); print_r($s);
var_dump((array)new A);
var_dump(new A == new A, new A == new B, $o === $o);
var_dump((object)['a' => 1]);

