<?php
$v = A::;
