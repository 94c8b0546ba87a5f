<?php
$a = &1;
