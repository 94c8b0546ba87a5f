<?php
var_dump(empty($arr[]));
