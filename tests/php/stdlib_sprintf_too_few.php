<?php
echo sprintf("%d %d %d", 1, 2), "\n";
