<?php
echo 1;
/* never closed
