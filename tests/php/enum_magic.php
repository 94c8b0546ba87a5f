<?php
enum E { case A; public function __get($n) { return 1; } }
