<?php
interface I1 {} interface I2 extends I1 {} interface I3 {}
trait T1 { public $tp = 't'; } trait T2 {}
class P implements I3 { use T2; public $a = 1; protected $b = 2; private $c = 3; public static $s = 's'; public int $typed; }
class K extends P implements I2 { use T1, T2; public $d = [4]; private $e = 5; public static $ks = 'k'; }
var_dump(class_parents(new K), class_parents('P'), class_implements('K'), class_implements(new P));
var_dump(class_uses('K'), class_uses(new P), trait_exists('T1'), trait_exists('P'), class_exists('T1'));
var_dump(class_parents('Nope'), class_implements('Nope', false));
try { class_uses(5); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
var_dump(get_class_vars('K'), get_class_vars('P'));
try { get_class_vars('Nope'); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
class Inside extends K { static function vars() { return get_class_vars('P'); } }
var_dump(Inside::vars());
var_dump(class_parents(new ValueError), class_implements(new class implements Countable, Stringable { function count(): int { return 0; } function __toString(): string { return ''; } }));
class LA { public static function who() { return static::class; } }
class LB extends LA { public static function test() {
    return [forward_static_call(['LA', 'who']), forward_static_call_array('LA::who', []), call_user_func('LA::who')]; } }
class LC extends LB {}
var_dump(LB::test(), LC::test());
try { forward_static_call('strlen', 'x'); } catch (Error $e) { echo $e->getMessage(), "\n"; }
