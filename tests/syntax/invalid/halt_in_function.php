<?php
function f() { __halt_compiler(); }
