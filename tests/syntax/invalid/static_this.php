<?php
function f() { static $this; }
