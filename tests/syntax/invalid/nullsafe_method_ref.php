<?php
$v = &$a?->b();
