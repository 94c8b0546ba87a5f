<?php
function f() { $a yield from $b; }
