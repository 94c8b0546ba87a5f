<?php
function inner(array $xs, $key) {
    foreach ($xs as &$x) {
        $x .= '!';
        switch ($key . 'k') {
            case 'ak': echo "a\n"; break;
            default:
                return match($key . $x) { 'z' => 1 };
        }
    }
    return 0;
}
$data = ['one', 'two'];
$r = &$data[0];
echo inner($data, 'a'), "\n";
[&$p, $q] = $data;
$w['x'][inner($data, 'a')] ??= str_repeat('y', 3);
echo inner($data, 'b');
echo "not reached\n";
