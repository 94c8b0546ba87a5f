<?php
$v = new A(...);
