<?php
$v = empty();
