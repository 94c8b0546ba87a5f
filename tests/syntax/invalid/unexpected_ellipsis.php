<?php
$a = ...;
