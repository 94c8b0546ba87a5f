<?php
class A { public static readonly int $a; }
