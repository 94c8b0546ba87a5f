<?php
echo 1;
declare(strict_types=1);
