<?php
function make($name, $age = 0, $city = 'unknown', $active = true) { return 1; }
function refNamed(&$ref = null, $val = 0) { $ref = $val * 2; }
make('Ann', city: 'Paris');
make(name: 'Ann', age: 3);
$f = 'make';
$f(1, city: $f);
str_pad(string: 'x', length: 5);
str_pad('x', 5, pad_type: STR_PAD_LEFT);
refNamed(val: 21, ref: $out);
refNamed(val: 21, ref: $o[1]);
make(name: make(1), city: make(2));
make(...[1], city: 3);
undef_fn(a: $x, b: 1);
