<?php
declare(ticks=1) {
    echo "in declare\n";
}
const A = 1, B = A + 1;
const S = 'str' . B;
echo A, B, S, "\n";
const A = 3;
echo A, "\n";
$i = 0;
loop:
$i++;
if ($i < 3) goto loop;
echo $i, "\n";
foreach ([1, 2, 3] as $v) {
    foreach ([10, 20] as $w) {
        if ($v == 2) goto done;
        echo $v * $w, ' ';
    }
}
done:
echo "\n";
function g($n) {
    for ($i = 0; $i < $n; $i++) {
        if ($i == 2) goto out;
    }
    return 'none';
    out:
    return "out at $i";
}
echo g(5), ' ', g(1), "\n";
if (true):
    echo "alt if\n";
elseif (false):
else:
endif;
for ($j = 0; $j < 2; $j++): echo $j; endfor;
while ($j > 0): $j--; endwhile;
foreach ([1, 2] as $x): echo $x; endforeach;
switch ($j): case 0: echo "zero"; break; endswitch;
echo "\n";
var_dump(is_int(1), is_int('1'), is_null(null), is_null($undef), is_bool(false), is_float(1.5), is_string('s'), is_array([]), is_long(2), is_integer(3), is_double(1));
