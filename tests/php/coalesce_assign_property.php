<?php $o=new stdClass; $o->list ??= []; $o->list[] = 1; $o->q["r"] ??= 4; $o->q["r"] ??= 5; class S { static $x; } S::$x ??= 5; S::$x ??= 6; var_dump($o, S::$x);

var_dump($undefined->prop ?? 'undef-prop');
class T { public $p; public static $s; function f() { $this->p ??= 'first'; $this->p ??= 'second'; return $this->p; } }
echo (new T)->f(), "\n";
T::$s['k'] ??= 1; T::$s['k'] ??= 2; var_dump(T::$s);
