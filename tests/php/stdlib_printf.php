<?php
foreach ([0.25, 0.35, 1.005, 2.5, 0.125, 1e20, 123456789.125, -0.5, 1.45, 5.55] as $x) {
  echo sprintf("%.1f %.2f %.0f %e %.3e %g %G %.10g", $x, $x, $x, $x, $x, $x, $x, $x), " | ", number_format($x, 1), " ", round($x, 1), " ", round($x,2), "\n";
}
printf("[%5d] [%-5d] [%05d] [%+d] [%x] [%X] [%o] [%b] [%c] [%%] [%'*10s] [%-10s|] [%u]\n", 42, 42, 42, 42, 255, 255, 8, 5, 65, "hi", "left", -1);
printf("[%1\$s %2\$s %1\$s]\n", "a", "b");
printf("[%10.4f] [%-10.2f] [%010.3f] [%.3s]\n", 3.14159, 2.5, -1.5, "abcdef");
echo sprintf("%s", 1.0), sprintf("%d", "12abc"), sprintf("%s", true), "\n";
echo sprintf("%5.1e", 12345.678), "\n";
printf("[%-05d] [%05s] [%-'x8.3f] [%+05d] [%+.2e] [%05.1f] [%5s] [%-5s]\n", 42, "ab", 3.14159, -3, 12345.678, -2.345, "abcdefg", "a");
printf("[%e] [%.0e] [%E] [%g] [%g] [%g] [%G] [%.3g]\n", 0, 12345, 0.00012, 0.00001234, 123456789, 100000, 1e-10, 3.14159);
printf("[%5.2s] [%-8b] [%08.3f] [%'#10d] [%u]\n", "hello", 5, -1.5, 7, 3);
printf("[%*d] [%.*f] [%-*s|]\n", 5, 42, 2, 3.14159, 6, "ab");
printf("[%f] [%F] [%.1f] [%d] [%d]\n", INF, -INF, NAN, "1e3", 3.99);
printf("%s %s %s\n", null, false, 1.5e20);
echo sprintf('%06.2f', 3.14159), "|", sprintf("%'.10d|%-10s|%10.4f", 42, "left", M_PI), "\n";
echo sprintf("%c%c", 72, 105), sprintf("%5c|", 65), sprintf("%x %X %o", -1, 255, -1), "\n";
echo number_format(1234567.891), " ", number_format(1234567.891, 2), " ", number_format(1234567.891, 2, ',', '.'), " ", number_format(0.5), " ", number_format(-1234.567, 2), " ", number_format(-0.4), " ", number_format(1234.5678, 3, '.', ' '), " ", number_format(12345, -2), "\n";
echo vsprintf("%04d-%02d-%02d", [2024, 1, 5]), "\n";
