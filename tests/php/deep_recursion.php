<?php
function down($n) { return $n == 0 ? 0 : 1 + down($n - 1); }
echo down(50000), "\n";
