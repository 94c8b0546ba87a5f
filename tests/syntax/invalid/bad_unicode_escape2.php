<?php
echo "\u{zz}";
