<?php
unset($f[5] = 1);
