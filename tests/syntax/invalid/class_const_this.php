<?php
class A { const B = $this; }
