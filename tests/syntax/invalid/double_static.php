<?php
class A { static static $a; }
