<?php
trait T { abstract public function need(); public function run() { return $this->need(); } }
class C { use T; }
