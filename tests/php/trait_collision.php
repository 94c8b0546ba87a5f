<?php
trait T1 { public function hi() { return 1; } }
trait T2 { public function hi() { return 2; } }
class C { use T1, T2; }
