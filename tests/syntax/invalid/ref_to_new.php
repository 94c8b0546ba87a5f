<?php
$a = &new A;
