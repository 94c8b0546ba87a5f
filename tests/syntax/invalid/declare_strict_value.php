<?php
declare(strict_types=2);
