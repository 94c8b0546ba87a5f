<?php
$a[class] = 1;
