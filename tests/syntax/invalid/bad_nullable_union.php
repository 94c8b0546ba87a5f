<?php
function f(?int|string $a) {}
