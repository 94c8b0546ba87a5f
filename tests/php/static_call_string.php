<?php
class Math { static function square($x) { return $x*$x; } }
var_dump('Math::square'(5));
