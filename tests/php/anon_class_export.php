<?php
$o = new class { private $p = 1; public function m() {} };
var_export($o); echo "\n"; var_dump($o); $o->nope();