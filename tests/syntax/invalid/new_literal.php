<?php
$v = new 'A';
