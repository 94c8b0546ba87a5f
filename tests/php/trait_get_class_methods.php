<?php
trait A { public function small() { echo "a small\n"; } }
class T { use A { small as public aSmall; } public function own() {} }
print_r(get_class_methods("T"));
