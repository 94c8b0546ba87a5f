<?php
function f(...$a = []) {}
