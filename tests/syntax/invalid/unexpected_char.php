<?php
$a = 1 ;
