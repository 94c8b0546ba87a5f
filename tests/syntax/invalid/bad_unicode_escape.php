<?php
echo "\u{110000}";
