<?php
#[A(f(...))] function f() {}
