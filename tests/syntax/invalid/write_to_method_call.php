<?php
$a->m() = 1;
