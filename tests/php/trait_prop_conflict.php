<?php
trait T { public $x = 1; }
class C { use T; public $x = 2; }
