<?php
$v = $a->;
