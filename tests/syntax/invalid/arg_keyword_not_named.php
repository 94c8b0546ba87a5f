<?php
var_dump(1, array;
