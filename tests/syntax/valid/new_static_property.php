<?php
class A { public static $cls = "stdClass"; }
$o = new A::$cls;
$p = new A::$cls();
$q = new static_like;
