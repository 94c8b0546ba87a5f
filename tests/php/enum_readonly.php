<?php
enum Status { case Active; }
$s = Status::Active;
var_dump($s->name, isset($s->name), isset($s->value));
$s->name = 'x';
