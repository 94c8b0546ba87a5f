<?php
class C {}
echo count([1, 2]), "\n";
echo count(new C);
