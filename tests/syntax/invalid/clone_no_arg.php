<?php
$a = clone;
