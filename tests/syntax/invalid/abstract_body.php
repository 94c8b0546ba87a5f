<?php
abstract class A { abstract function f() {} }
