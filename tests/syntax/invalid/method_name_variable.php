<?php
class A { public function $x() {} }
