<?php
function f() { const A = 1; }
