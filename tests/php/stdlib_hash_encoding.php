<?php
foreach (["", "a", "abc", "The quick brown fox jumps over the lazy dog", str_repeat("x", 1000), "\x00\xff\n"] as $s) {
  echo md5($s), " ", sha1($s), " ", hash('sha256', $s), " ", hash('crc32b', $s), " ", crc32($s), " ", strlen(md5($s, true)), "\n";
  echo base64_encode($s) === '' ? '(empty)' : substr(base64_encode($s), 0, 60), " ", base64_decode(base64_encode($s)) === $s ? "rt" : "BAD", "\n";
}
var_dump(base64_decode("aGVsbG8=", true), base64_decode("aGVs!bG8=", true), base64_decode("aGVs bG8"), base64_decode("aGVsbG8"));
var_dump(urlencode("a b&c=d/é~"), rawurlencode("a b&c=d/é~"), urldecode("a+b%20c%zz%4"), rawurldecode("a+b%20c"));
var_dump(md5("hello") === hash("md5", "hello"));
