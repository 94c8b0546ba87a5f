<?php
class A { public private $a; }
