<?php
trait T { public function secret() { return 's'; } }
class C { use T { secret as private hidden; } }
$c = new C;
echo $c->secret(), "\n";
echo $c->hidden(), "\n";
