<?php
enum E { public $a; }
