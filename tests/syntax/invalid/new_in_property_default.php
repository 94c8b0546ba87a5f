<?php
class A { public $a = new B; }
