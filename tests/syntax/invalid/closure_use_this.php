<?php
$f = function () use ($this) {};
