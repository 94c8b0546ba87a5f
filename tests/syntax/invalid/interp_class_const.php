<?php
echo "{$a::B}";
