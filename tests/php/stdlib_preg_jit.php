<?php
// The JIT stack (192 KiB, as PHP sizes it) and what pcre.jit=0 changes:
// new patterns run on the interpreter, cached ones keep their JIT code.
var_dump(preg_match('/(a|b)*c/', str_repeat('ab', 100000) . 'c'), preg_last_error_msg());
var_dump(preg_match('/(?:a|b)*c/', str_repeat('ab', 100000) . 'c'), preg_last_error_msg());
var_dump(preg_match('/^(\((?1)*\))$/', str_repeat('(', 5000) . str_repeat(')', 5000)), preg_last_error_msg());
ini_set('pcre.jit', 0);
var_dump(preg_match('/(a|b)*c/', str_repeat('ab', 100000) . 'c'), preg_last_error_msg());
var_dump(preg_match('/^(\((?1)*\))$/', str_repeat('(', 50000) . str_repeat(')', 50000)), preg_last_error_msg());
var_dump(preg_match('/^(\((?1)*\))$/D', str_repeat('(', 5000) . str_repeat(')', 5000)), preg_last_error_msg());
var_dump(preg_match('/(a|b)*+c/', str_repeat('ab', 1000) . 'c'), preg_last_error_msg());
