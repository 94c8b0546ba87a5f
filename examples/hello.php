<?php
// A small tour of what Tusk runs today: functions, recursion, loops, arrays
// and string interpolation.
function fib(int $n): int
{
    return $n < 2 ? $n : fib($n - 1) + fib($n - 2);
}

$squares = [];
for ($i = 1; $i <= 5; $i++) {
    $squares[] = $i * $i;
}

echo "Hello from Tusk!\n";
echo "fib(20) = ", fib(20), "\n";
echo "squares: ", implode(", ", $squares), "\n";
foreach (['php' => 8.2, 'tusk' => 0.1] as $name => $version) {
    echo "$name is at version $version\n";
}
