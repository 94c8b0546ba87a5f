<?php
// array_key_exists() compiles to ARRAY_KEY_EXISTS: same keys and errors as the builtin.
$a = ['x' => null, 1 => 'one', '' => 'empty', 5 => 5];
var_dump(array_key_exists('x', $a), array_key_exists('1', $a), array_key_exists(1.7, $a));
var_dump(array_key_exists(null, $a), array_key_exists(true, $a), array_key_exists('y', $a));
var_dump(array_key_exists(5, [5 => 1]), array_key_exists('n', ['n' => 1]));
$k = 'x'; $r = &$a; var_dump(array_key_exists($k, $r));
function f() { return ['a' => 1]; }
var_dump(array_key_exists('a', f()));
var_dump(array_key_exists($undef, $a));
try_it();
function try_it() { var_dump(array_key_exists([], [])); }
