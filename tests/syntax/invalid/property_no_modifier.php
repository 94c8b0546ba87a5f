<?php
class A { $a; }
