<?php
$v = isset();
