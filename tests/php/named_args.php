<?php
function make($name, $age = 0, $city = 'unknown', $active = true) { return "$name/$age/$city/" . var_export($active, true); }
function refNamed(&$ref = null, $val = 0) { $ref = $val * 2; }
function v($a, ...$rest) { var_dump($a, $rest); }
echo make('Ann', city: 'Paris'), "\n";
$f = 'make';
echo $f(1, city: $f), "\n";
var_dump(str_pad('x', 5, pad_type: STR_PAD_LEFT));
refNamed(val: 21, ref: $out); var_dump($out);
refNamed(val: 21, ref: $o[1]); var_dump($o);
v(1, 2, x: 3, y: 4);
v(...['a' => 1, 'b' => 2]);
v(...[1, 2], ...['q' => 3]);
try { v(...['a' => 1, 2]); } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { make(...['name' => 1, 'name2' => 2]); } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { v(1, a: 2); } catch (Error $e) { echo $e->getMessage(), "\n"; }
class C { function __construct(public $a = 1, public $b = 2) {} function m($x, $y = 5) { return "$x,$y"; } static function s($p, $q = 'q') { return "$p$q"; } 
  function __call($n, $a) { var_dump($n, $a); } }
var_dump(new C(b: 9));
$c = new C; echo $c->m(y: 1, x: 2), "\n"; echo C::s(q: 'Q', p: 'P'), "\n";
$c->magic(1, k: 2);
$cl = function ($a, $b = 'B') { return $a . $b; };
echo $cl(b: 'x', a: 'y'), "\n";
echo call_user_func_array([$c, 'm'], ['y' => 3, 'x' => 4]), "\n";
echo call_user_func_array('v', [1, 'z' => 3]), "\n";
try { echo str_pad(string: 'x', pad_type: 1, length: 3), "\n"; } catch (Error $e) { echo get_class($e), $e->getMessage(), "\n"; }
try { make(age: 1); } catch (Error $e) { echo get_class($e), $e->getMessage(), "\n"; }
try { $c->m(y: 1); } catch (Error $e) { echo get_class($e), $e->getMessage(), "\n"; }
try { strlen(str: 1); } catch (Error $e) { echo get_class($e), $e->getMessage(), "\n"; }
try { array_slice([1,2,3], 1, preserve_keys: true); } catch (Error $e) { echo get_class($e), $e->getMessage(), "\n"; }
function byref(&$r) { $r = 5; }
try { byref(r: 1); } catch (Error $e) { echo get_class($e), $e->getMessage(), "\n"; }
var_dump(trim(" x\n"), wordwrap("aaaa bbbb", cut_long_words: true), str_getcsv('a,"b c"', escape: "\\"), htmlspecialchars("<a href='x'>", double_encode: false));
var_dump(json_decode('{"a":1}', flags: 0), array_slice([1,2,3], 1, preserve_keys: true), round(2.5, mode: PHP_ROUND_HALF_DOWN));
try { array_keys([1,2], strict: true); } catch (Error $e) { echo get_class($e), $e->getMessage(), "\n"; }
