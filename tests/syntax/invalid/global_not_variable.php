<?php
function f() {
    global counter;
}
