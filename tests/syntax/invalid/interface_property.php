<?php
interface I { public $a; }
