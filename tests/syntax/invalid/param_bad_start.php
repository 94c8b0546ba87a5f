<?php
$f = fn($a, ::b) => 1;
