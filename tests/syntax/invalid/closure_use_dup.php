<?php
$f = function ($a) use ($a) {};
