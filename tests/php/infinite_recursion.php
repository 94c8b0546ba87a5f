<?php
function f($n) {
    return f($n + 1) + 1;
}
echo f(0);
