<?php
trait T { public function f() {} }
new T;
