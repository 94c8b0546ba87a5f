<?php
class A { function f(public $a) {} }
