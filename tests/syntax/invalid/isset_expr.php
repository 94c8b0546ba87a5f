<?php
$v = isset($a + 1);
