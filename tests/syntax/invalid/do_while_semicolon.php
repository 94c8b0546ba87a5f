<?php
do { } while (0)
echo 1;
