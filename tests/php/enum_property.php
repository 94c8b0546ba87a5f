<?php
enum E { case A; public $x; }
