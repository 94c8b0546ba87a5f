<?php
$v = $a == $b != $c;
