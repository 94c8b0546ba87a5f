<?php
$this = 1;
