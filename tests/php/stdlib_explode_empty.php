<?php
var_dump(explode("", "abc"));
