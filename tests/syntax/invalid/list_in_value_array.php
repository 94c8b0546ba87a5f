<?php
$x = [list($a)];
