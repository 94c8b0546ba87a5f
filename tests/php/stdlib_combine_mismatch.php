<?php
var_dump(array_combine([1, 2], [3]));
