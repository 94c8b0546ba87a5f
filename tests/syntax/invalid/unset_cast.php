<?php
$v = (unset) $a;
