<?php
class A { case B; }
