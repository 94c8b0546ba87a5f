<?php
['a' => $x, $y] = $a;
