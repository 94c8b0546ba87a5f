<?php
class A { const B = new C; }
