<?php
echo "abc $x