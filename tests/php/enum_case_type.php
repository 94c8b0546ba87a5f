<?php
enum E: int { case A = 1; case B = "x"; }
echo "declared\n";
var_dump(E::A);
