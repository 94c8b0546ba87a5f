<?php
enum Status { case Active; }
$s = Status::Active;
$s->other = 1;
