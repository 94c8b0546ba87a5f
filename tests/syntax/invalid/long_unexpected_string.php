<?php
$a = 'a very long string literal that goes past thirty chars' 'x';
