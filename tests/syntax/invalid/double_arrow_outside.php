<?php
$a => $b;
