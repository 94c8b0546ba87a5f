<?php
$a = ["a", b"x" "y"];
