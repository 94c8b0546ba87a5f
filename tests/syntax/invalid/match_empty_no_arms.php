<?php
$v = match ($a) { , };
