<?php
$v = isset(1);
