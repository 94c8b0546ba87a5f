<?php
trait T { public $x = 1; public function getX() { return $this->x; } }
class C { public $x = 1; use T; }
var_dump((new C)->getX());
