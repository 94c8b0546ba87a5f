<?php
$f = static $x;
