<?php
$a (int) 1;
