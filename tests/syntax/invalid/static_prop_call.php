<?php
$v = A::$b::$c::;
