<?php
#[A
function f() {}
