<?php
function f(int| $a) {}
