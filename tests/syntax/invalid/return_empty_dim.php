<?php
function f($m) {
    return $m[];
}
