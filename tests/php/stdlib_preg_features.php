<?php
// PCRE2 features the old engine lacked.
$cases = [
    ['/(?<=\$)\d+/', 'cost: $42'],
    ['/(?<!\$)\b\d+/', '$42 and 17'],
    ['/\w+(?=:)/', 'key: value'],
    ['/\w+(?!:)\b/', 'key: value'],
    ['/(["\'])(.*?)\1/', 'say "hi" or \'ho\''],
    ['/(?<q>["\'])(.*?)\k<q>/', 'x \'quoted\' y'],
    ['/(?P<n>a)(?P=n)/', 'baab'],
    ['/\((?:[^()]++|(?R))*\)/', 'f(a(b)c(d(e)))g'],
    ['/^(\w)(?:(?R)|\w?)\1$/', 'racecar'],
    ['/(?<pair>\[(?:[^\[\]]|(?&pair))*\])/', 'x[a[b]c]y'],
    ['/(?>a+)b/', 'aaab'],
    ['/(?>a+)a/', 'aaaa'],
    ['/a++b/', 'aab'],
    ['/(?i)abc(?-i)D/', 'ABCD'],
    ['/(?|(a)|(b))c/', 'bc'],
    ['/(?(?=\d)\d+|[a-z]+)/', '123abc'],
    ['/(a)?(?(1)b|c)/', 'c'],
    ['/x(?#comment)y/', 'xy'],
    ['/a # letter a
      b # letter b
     /x', 'ab'],
    ['/[a b]+/x', 'a b'],
    ['/[\ ]+/x', 'x   y'],
    ['/\d+(?:\.\d+)?\K%/', '12.5%'],
    ['/\R/', "a\r\nb"],
    ['/\h+/', "a \t b"],
    ['/\p{Lu}+/u', 'abcÄÖÜdef'],
    ['/\X/u', "e\u{301}x"],
    ['/^\w+$/u', 'héllo'],
    ['/^\w+$/', 'héllo'],
    ['/./su', "\u{1F600}"],
    ['/(*UTF)é/', 'café'],
    ['/\bfoo\b/i', 'a FOO b'],
    ['/^b/m', "a\nb"],
    ['/a$/', "a\n"],
    ['/a$/D', "a\n"],
    ['/a.c/s', "a\nc"],
    ['/a+?/U', 'aaa'],
    ['/a+/U', 'aaa'],
    ['/(a)(?:b)(c)/n', 'abc'],
    ['/(?<x>a)(b)/n', 'ab'],
    ['/(?<n>a)|(?<n>b)/J', 'b'],
    ['/\x{263A}/u', "smile \u{263A}"],
    ['/[[:alpha:]]+/', '123abc456'],
    ['/[[:^digit:]]+/', '123abc456'],
    ['/\Aabc\z/', 'abc'],
    ['/\Gb/', 'ab'],
    ['/(*MARK:first)a|(*MARK:second)b/', 'b'],
    ['/\Qa.b\E+/', 'a.bbb'],
    ["/a\0b/", "xa\0b"],
    ['/\0/', "a\0b"],
    ['/\x41\101\cA/', "AA\x01"],
];
foreach ($cases as [$re, $s]) {
    $r = preg_match($re, $s, $m);
    echo json_encode($re), ' ', json_encode($s), ' => ', $r, ' ', json_encode($m), "\n";
}

// \G and the A modifier with offsets.
var_dump(preg_match('/\Gb/', 'ab', $m, 0, 1), $m);
var_dump(preg_match('/b/A', 'ab', $m, 0, 1), $m);
var_dump(preg_match('/b/A', 'ab', $m));
var_dump(preg_match('/^b/', 'ab', $m, 0, 1));
var_dump(preg_match('/\d/', 'a1b2', $m, PREG_OFFSET_CAPTURE, -2), $m);
var_dump(preg_match('/\d/', 'a1b2', $m, 0, -10), $m);
var_dump(preg_match('/\d/', 'a1b2', $m, 0, 5), $m, preg_last_error(), preg_last_error_msg());
var_dump(preg_match('/\d/', 'a1b2', $m, 0, 4), $m);
var_dump(preg_match_all('/\G\w/', 'abc def', $m), $m);
var_dump(preg_match_all('/\G\w/', 'abc def', $m, PREG_PATTERN_ORDER, 4), $m);
$pos = 0;
$s = 'int x = 42;';
$tokens = [];
while ($pos < strlen($s)) {
    if (preg_match('/\G(?:(\s+)|(\d+)|(\w+)|(.))/A', $s, $m, 0, $pos)) {
        $tokens[] = $m[0];
        $pos += strlen($m[0]);
    } else {
        break;
    }
}
var_dump($tokens);

// Named groups.
preg_match('/(?<y>\d{4})-(?<m>\d\d)(-(?<d>\d\d))?/', 'on 2024-05', $m);
var_dump($m);
preg_match('/(?<y>\d{4})-(?<m>\d\d)(-(?<d>\d\d))?/', 'on 2024-05', $m, PREG_UNMATCHED_AS_NULL);
var_dump($m);
preg_match('/(?<y>\d{4})-(?<m>\d\d)(-(?<d>\d\d))?/', 'on 2024-05', $m, PREG_OFFSET_CAPTURE | PREG_UNMATCHED_AS_NULL);
var_dump($m);
preg_match('/(?<a>x)|(?<a>y)/J', 'y', $m);
var_dump($m);
preg_match('/(?<a>x)?(?<a>y)?/J', 'x', $m);
var_dump($m);
