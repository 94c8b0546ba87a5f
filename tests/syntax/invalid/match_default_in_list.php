<?php
$r = match ($v) { 1, default => 2 };
