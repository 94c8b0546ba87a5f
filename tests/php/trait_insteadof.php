<?php
trait A { public function small() { echo "a small\n"; } public function big() { echo "A BIG\n"; } }
trait B { public function small() { echo "b small\n"; } public function big() { echo "B BIG\n"; } }
class Talker { use A, B { B::small insteadof A; A::big insteadof B; B::big as talk; A::small as protected; } }
$t = new Talker; $t->small(); $t->big(); $t->talk();
class Sub extends Talker { use A { small as public aSmall; } }
(new Sub)->aSmall(); (new Sub)->small();
