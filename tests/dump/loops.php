<?php
$s = 0;
for ($i = 0; $i < 10; $i++) {
    if ($i == 3) continue;
    $s += $i;
}
while ($i > 0) {
    $i--;
    if ($i == 5) break;
}
do {
    $i++;
} while ($i < 8);
echo $s, " ", $i, "\n";
