<?php
$o = new stdClass;
var_dump(isset($o->x));
$o['x'] = 1;
