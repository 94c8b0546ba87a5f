<?php
function f(int|never $x) {}
