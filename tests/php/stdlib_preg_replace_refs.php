<?php
// preg_replace's references, arrays, limit and count; preg_filter;
// preg_replace_callback(_array); preg_grep; preg_quote.
$s = 'John Smith, Jane Doe';
foreach ([
    '$2 $1', '${2}1 $1', '\2 \1', '\\\\2', '\$1', '$12', '${12}', '$', '$a', '\\', '${1', '${1}0', '$0|\0', '\\\\\\1', 'x\\$1y', '$99', '${99}',
] as $rep) {
    echo json_encode($rep), ' => ', json_encode(preg_replace('/(\w+) (\w+)/', $rep, $s)), "\n";
}
var_dump(preg_replace('/(a)|(b)/', '[$1|$2]', 'ab'));
var_dump(preg_replace('/o/', '0', 'foo boo', 2, $c), $c);
var_dump(preg_replace('/o/', '0', 'foo boo', 0, $c), $c);
var_dump(preg_replace('/o/', '0', 'foo boo', -5, $c), $c);
var_dump(preg_replace(['/a/', '/b/', '/c/'], ['b', 'c'], 'abc', -1, $c), $c);
var_dump(preg_replace(['/a/', '/b/'], 'x', ['k' => 'ab', 5 => 'cd', 'ba'], -1, $c), $c);
var_dump(preg_replace(['x' => '/a/', 'y' => '/b/'], [9 => 'B', 3 => 'A'], 'ab'));
var_dump(preg_replace('/\s+/', ' ', ['a  b', 42, 1.5, null, true]));
var_dump(preg_replace('//', '-', 'abc'));
var_dump(preg_replace('/x*/', '-', 'abc'));
var_dump(preg_replace('/x*/u', '-', 'aéb'));
var_dump(preg_replace('/^/m', '> ', "a\nb\n"));
var_dump(preg_replace('/(?=b)/', '^', 'abab'));
try {
    preg_replace('/a/', ['x'], 'a');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    preg_replace(new stdClass, 'x', 'a');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(preg_replace('/a/u', 'b', "a\xff"), preg_last_error_msg());
var_dump(preg_replace('/a/u', 'b', ["a", "a\xff", "aa"]), preg_last_error_msg());
var_dump(preg_replace(['/a/', '/(/'], 'x', 'abc'));
var_dump(preg_filter(['/\d/', '/[a-z]/'], ['#', '@'], ['1', 'a', '#', 'k' => 'z9']));
var_dump(preg_filter('/\d/', '#', 'abc'), preg_filter('/\d/', '#', 'a1c'));

// Callbacks.
var_dump(preg_replace_callback('/\d+/', fn($m) => $m[0] * 2, 'a1b22c', -1, $c), $c);
var_dump(preg_replace_callback('/(?<w>\w)(\d)?/', function ($m) { return json_encode($m); }, 'a1b', 1));
var_dump(preg_replace_callback('/(?<w>\w)(\d)?/', fn($m) => json_encode($m), 'a1b', -1, $c, PREG_UNMATCHED_AS_NULL | PREG_OFFSET_CAPTURE), $c);
var_dump(preg_replace_callback(['/a/', '/b/'], fn($m) => strtoupper($m[0]), ['ab', 'x' => 'ba']));
var_dump(preg_replace_callback('/./', fn($m) => [$m[0]], 'ab'));
var_dump(preg_replace_callback('/./', fn($m) => null, 'ab'));
var_dump(preg_replace_callback('/./', fn($m) => 1.5, 'ab'));
var_dump(preg_replace_callback('/x*/', fn($m) => '-', 'abc'));
class Up { function __invoke($m) { return strtoupper($m[0]); } static function low($m) { return strtolower($m[0]); } }
var_dump(preg_replace_callback('/[a-z]/', new Up, 'a1b'));
var_dump(preg_replace_callback('/[A-Z]/', 'Up::low', 'A1B'));
var_dump(preg_replace_callback('/[A-Z]/', [new Up, 'low'], 'A1B'));
try {
    preg_replace_callback('/a/', 'nope', 'a');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    preg_replace_callback('/a/', function ($m) { throw new Exception('inner'); }, 'aaa', -1, $c);
} catch (Exception $e) {
    echo $e->getMessage(), "\n";
}
// Nested preg calls inside a callback.
var_dump(preg_replace_callback('/\w+/', fn($m) => preg_replace_callback('/./', fn($n) => ord($n[0]) . ',', $m[0]), 'ab cd'));
var_dump(preg_replace_callback_array([
    '/\d+/' => fn($m) => '<' . $m[0] . '>',
    '/[aeiou]/' => fn($m) => strtoupper($m[0]),
], ['x' => 'abc 123', 'y' => 'def'], -1, $c), $c);
var_dump(preg_replace_callback_array(['/a/' => fn($m) => 'b', '/b/' => fn($m) => 'c'], 'ab', 1, $c), $c);
var_dump(preg_replace_callback_array(['/a/' => fn($m) => 'b', '/(/' => fn($m) => 'c'], 'ab', -1, $c), $c);
var_dump(preg_replace_callback_array(['/a/' => fn($m) => json_encode($m)], 'a', -1, $c, PREG_OFFSET_CAPTURE));
try {
    preg_replace_callback_array(['/a/' => 'nope'], 'a');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    preg_replace_callback_array([fn($m) => 'x'], 'a');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}

// preg_grep.
$in = ['1', 'a', 'x' => '22', 5 => 3.5, 6 => 7, 'n' => null];
var_dump(preg_grep('/^\d+$/', $in));
var_dump(preg_grep('/^\d+$/', $in, PREG_GREP_INVERT));
var_dump(preg_grep('/a/u', ['a', "a\xff", 'ba']), preg_last_error());
var_dump(preg_grep('/(/', ['a']));

// preg_quote.
var_dump(PCRE_VERSION, PCRE_VERSION_MAJOR, PCRE_VERSION_MINOR, PCRE_JIT_SUPPORT);
var_dump(preg_quote('Hello.World?(#)/[x]{1,2}^$|+*-:=!<>\\'));
var_dump(preg_quote('a/b#c', '/'), preg_quote('a/b#c', '#'), preg_quote("a\0b", ''), preg_quote('', '/'));
var_dump(preg_match('/^' . preg_quote('1+1=2?', '/') . '$/', '1+1=2?'));
