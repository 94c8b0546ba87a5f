<?php
interface I { public function f() = 1; }
