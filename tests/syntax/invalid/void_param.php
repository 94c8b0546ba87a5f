<?php
function f(void $a) {}
