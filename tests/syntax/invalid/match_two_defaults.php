<?php
$v = match ($a) { default => 1, default => 2 };
