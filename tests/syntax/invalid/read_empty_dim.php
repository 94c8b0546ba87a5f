<?php
$v = $a[];
