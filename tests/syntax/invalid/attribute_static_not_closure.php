<?php
$f = #[A] static $x;
