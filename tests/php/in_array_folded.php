<?php
$vals = ['a', '5', 5, 0, null, false, true, 5.0, '', ' ', [], 'A', '05', new stdClass];
foreach ($vals as $x) {
    echo json_encode(in_array($x, ['a', 'b', ''])), json_encode(in_array($x, ['5', 'a'], true)), json_encode(in_array($x, [5, 'a'], true)),
         json_encode(in_array($x, ['abc', ' '])), json_encode(in_array($x, [])), json_encode(in_array($x, ['1e1', 'x'])), "\n";
}
if (in_array($vals[0], ['q', 'a'])) echo "branch\n";
echo in_array($undef, ['']) ? "y\n" : "n\n";
class S { function __toString(): string { return 'a'; } }
var_dump(in_array(new S, ['a', 'b']), in_array('b', ['a', 'b'], TRUE));
$s = new S;
var_dump($s == 'a', 'a' == $s, $s < 'b', 'b' > $s, in_array($s, [$s]), in_array('a', [$s]), $s == [], [] == $s, $s <=> [], [] <=> $s);
var_dump(1 | 2, "ab" | "  ", ~"ab" === "\x9e\x9d", 1 << 64, -8 >> 70, 7.0 % 2, [1] + [5, 6], [0] == [false], [1, 2] === [1, 2], ['a' => [true ? 1 : 2, null ?? 3, false ?: 4, 1 && 0]]);
