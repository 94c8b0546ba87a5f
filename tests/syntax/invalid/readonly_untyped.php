<?php
class A { public readonly $a; }
