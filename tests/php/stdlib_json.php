<?php
$d = ['a' => 1, 'b' => [1, 2, 3], 'c' => null, 'd' => true, 'e' => 1.5, 'f' => "x\"y/z\n\t\u{e9}\u{1F600}", 'g' => [], 'h' => ['k' => 'v'], 'i' => 10.0, 'j' => 0.1 + 0.2, 'k' => 1e25, 'l' => -0.0];
echo json_encode($d), "\n";
echo json_encode($d, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
echo json_encode([1, 2], JSON_FORCE_OBJECT), json_encode([3 => 'a']), json_encode([]), json_encode("<a href='x'>&</a>", JSON_HEX_TAG | JSON_HEX_APOS | JSON_HEX_AMP | JSON_HEX_QUOT), "\n";
echo json_encode(["1", "1.5", "abc"], JSON_NUMERIC_CHECK), json_encode(1.0, JSON_PRESERVE_ZERO_FRACTION), json_encode("\x01"), "\n";
var_dump(json_encode(NAN), json_last_error(), json_last_error_msg(), json_encode("\xff"), json_last_error_msg());
var_dump(json_decode('{"a":1,"b":[1,2,{"c":null}],"d":1.5e2,"e":"\u00e9\ud83d\ude00","f":true,"g":12345678901234567890}', true));
var_dump(json_decode('[1,2'), json_last_error(), json_last_error_msg(), json_decode('"x"'), json_decode('5'), json_decode(''), json_last_error_msg(), json_decode('[[1]]', true, 1), json_last_error_msg());
var_dump(json_decode(' [1, "a\nb"] '), json_last_error_msg());
echo json_encode(['a' => ['b' => ['c' => []]], 'x' => [[]]], JSON_PRETTY_PRINT), "\n";
var_dump(serialize(['a' => 1, 2 => [true, null, 1.5, "s"]]), unserialize(serialize(['a' => 1, 2 => [true, null, 1.5, "s"]])));
