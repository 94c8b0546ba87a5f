<?php
$a = class;
