<?php
function f($a, $a) {}
