<?php
$v = $a instanceof 'A';
