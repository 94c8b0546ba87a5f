<?php
function f() { global $a->b; }
