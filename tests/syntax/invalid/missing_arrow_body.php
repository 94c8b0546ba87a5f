<?php
$f = fn($a) =>;
