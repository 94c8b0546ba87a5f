<?php
$v = (real) $a;
