<?php
var_dump(preg_match('/(\d+)-(\d+)/', 'abc 12-34 x', $m), $m);
var_dump(preg_match('/(?<year>\d{4})-(?<mon>\d\d)/', 'on 2024-05-01', $m), $m);
var_dump(preg_match('/(a)(b)?(c)?/', 'a', $m), $m);
var_dump(preg_match('/(a)(b)?(c)/', 'ac', $m, PREG_OFFSET_CAPTURE), $m);
var_dump(preg_match('/(a)(b)?/', 'a', $m, PREG_UNMATCHED_AS_NULL), $m);
var_dump(preg_match('/^hello$/i', 'HELLO'), preg_match('/x/', 'abc'), preg_match('/b/', 'abcb', $m, 0, 2), $m);
var_dump(preg_match_all('/\d+/', 'a1b22c333', $m), $m);
var_dump(preg_match_all('/(\w)(\d)/', 'a1 b2 c3', $m, PREG_SET_ORDER), $m);
var_dump(preg_match_all('/a*/', 'baaa', $m), $m);
var_dump(preg_replace('/\s+/', ' ', "a  b \n\t c"), preg_replace('/(\w+) (\w+)/', '$2 ${1}!\1', 'hello world'), preg_replace(['/a/', '/b/'], ['b', 'c'], 'ab'), preg_replace('/x/', 'y', ['ax', 'bx']), preg_replace('/a/', 'b', 'aaaa', 2, $cnt), $cnt);
var_dump(preg_replace('/[^a-z0-9]+/i', '-', '  Hello, World! '), preg_replace('//', '-', 'abc'), preg_replace('/e/u', 'é', 'hello'));
function up($m) { return strtoupper($m[0]); }
var_dump(preg_replace_callback('/\b\w/', 'up', 'hello big world'));
var_dump(preg_split('/[\s,]+/', "a, b  c,d"), preg_split('//', 'abc', -1, PREG_SPLIT_NO_EMPTY), preg_split('/(-)/', 'a-b-c', -1, PREG_SPLIT_DELIM_CAPTURE), preg_split('/,/', 'a,b,c', 2), preg_split('/ /', 'a b', -1, PREG_SPLIT_OFFSET_CAPTURE));
var_dump(preg_quote("Hello.World?(1+1=2)[ok]{3}^$|\\/#", "/"), preg_grep('/^\d+$/', ['1', 'a', '22', 'b3']), preg_grep('/^\d+$/', ['1', 'a'], PREG_GREP_INVERT));
var_dump(preg_match('/[[:alpha:]]+/', '123abc456', $m), $m, preg_match('/[]a]+/', 'x]a]y', $m), $m, preg_match('/\//', 'a/b'), preg_match('#^/usr/(\w+)#', '/usr/bin', $m), $m);
var_dump(preg_match('/^\p{Lu}/u', 'Émile'), preg_match('/./u', "\xff"), preg_last_error(), preg_last_error_msg(), preg_match('/^.$/', 'é'), preg_match('/^.{2}$/', 'é'));
var_dump(preg_match('/a', 'a'), preg_match('abc', 'a'), preg_match('/a/k', 'a'), preg_match('', 'a'));
var_dump(preg_match('/(\w+)@(\w+)\.com/', 'mail joe@site.com now', $m), $m, preg_match('/colou?r/', 'The color'), preg_replace('/(?<w>\w+)/', '[$1]', 'a b'));
var_dump(preg_split('/\d/', 'a1b2c3'), preg_split('/x/', ''), preg_split('/x/', '', -1, PREG_SPLIT_NO_EMPTY));
var_dump(preg_match('/^\s*$/', "   \n"), preg_match('/a.c/s', "a\nc"), preg_match('/^b/m', "a\nb"), preg_match('/a b/x', "ab"));
