<?php
$types = ["int", array", "null"];
