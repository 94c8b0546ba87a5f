<?php
// Delimiters, modifiers and compile errors with PHP's warnings; matching
// errors and preg_last_error(); the pcre.* limits.
foreach ([
    '', '   ', 'abc', '\\abc\\', "\0abc\0", '/abc', '(abc', '{abc', '[abc', '<abc', '/abc/k', '/abc/e', '/abc/ie',
    '/abc/ek', "/abc/\0", '/abc/ i', "/abc/\n", '(a(b)c)', '{a{1}}', '[a]]', '<a<b>>', '#a#i', '~a~', '%a%', '!a!', '@a@',
    "\t\n /a/", '/a\/b/', '(a\)b)', '/(/', '/)/', '/[a/', '/a{2,1}/', '/\\', '/?/', '/(?<n>a)(?<n>b)/', '/(?<1a>x)/',
    '/\k<nope>/', '/(?P<n>a)(?P=m)/', '/\p{Nope}/u', '/[z-a]/', '/a**/', '/(?z)/', '/\g{9}/', '/(?<=a+)b/', '/\xfffff/u',
    "/\xff/u", '/\c/', '/x{2,1}/x', '/(?(1)a|b|c)/', '/(?(?=a)b)/', '/(*FOO)/',
] as $re) {
    echo json_encode($re), "\n";
    var_dump(preg_match($re, 'abc a/b a)b aa ab', $m));
    echo preg_last_error(), ' ', preg_last_error_msg(), "\n";
}

// Invalid UTF-8.
var_dump(preg_match('/./u', "\xff"), preg_last_error(), preg_last_error_msg());
var_dump(preg_match('/./u', "a\xc3"), preg_last_error());
var_dump(preg_match('/./u', "é", $m, 0, 1), preg_last_error(), preg_last_error_msg());
var_dump(preg_match('/./u', "é", $m, 0, 2), preg_last_error());
var_dump(preg_match('/./u', "aé", $m), preg_last_error(), $m);
var_dump(preg_match_all('/./u', "aé\xff", $m), preg_last_error(), $m);
var_dump(preg_split('/,/u', "a,\xff"), preg_last_error());
var_dump(preg_match('/./', "\xff"), preg_last_error());
var_dump(preg_match('/(?:\D+|<\d+>)*[!?]/', 'foobar foobar foobar'), preg_last_error(), preg_last_error_msg());
var_dump(preg_match('/a/', 'a'), preg_last_error());

// The limits.
var_dump(ini_get('pcre.backtrack_limit'), ini_get('pcre.recursion_limit'), ini_get('pcre.jit'));
ini_set('pcre.jit', '0');
var_dump(preg_match('/(?:\D+|<\d+>)*[!?]/', 'foobar foobar foobar'), preg_last_error_msg());
ini_set('pcre.backtrack_limit', '2');
var_dump(preg_match_all('/.*\p{N}/', '0123456789', $m), preg_last_error_msg());
ini_set('pcre.backtrack_limit', '1000000');
var_dump(preg_match_all('/.*\p{N}/', '0123456789', $m), preg_last_error_msg());
ini_set('pcre.recursion_limit', '2');
var_dump(preg_match_all('/\p{Ll}(\p{L}((\p{Ll}\p{Ll})))/', 'aeiou', $m), preg_last_error_msg());
var_dump(preg_replace('/\p{Ll}(\p{L}((\p{Ll}\p{Ll})))/', 'x', 'aeiou'), preg_last_error_msg());
var_dump(preg_split('/\p{Ll}(\p{L}((\p{Ll}\p{Ll})))/', 'aeiou'), preg_last_error_msg());
var_dump(preg_grep('/\p{Ll}(\p{L}((\p{Ll}\p{Ll})))/', ['aeiou', 'b']), preg_last_error_msg());
ini_set('pcre.recursion_limit', '100000');
var_dump(preg_match_all('/\p{Ll}(\p{L}((\p{Ll}\p{Ll})))/', 'aeiou', $m), preg_last_error_msg());
ini_set('pcre.jit', '1');
var_dump(preg_match('/(a+)+$/', str_repeat('a', 40) . 'b'), preg_last_error_msg());
ini_set('pcre.jit', '0');
var_dump(preg_match('/(a+)+$/', str_repeat('a', 40) . 'b'), preg_last_error_msg());
var_dump(preg_match('/(?:a|b)*c/', str_repeat('ab', 2000) . 'c'), preg_last_error_msg());
var_dump(preg_match('/^(a(?1)?b)$/', str_repeat('a', 500) . str_repeat('b', 500)), preg_last_error_msg());

// Argument errors.
try {
    preg_match([], 'a');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    preg_grep('/a/', 'a');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(preg_match('/a/', null));
var_dump(preg_split('/,/', 'a,b', null));
