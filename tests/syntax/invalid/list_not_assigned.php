<?php
list($a, $b);
