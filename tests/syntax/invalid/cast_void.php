<?php
$v = (void) 1;
