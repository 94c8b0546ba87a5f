<?php
var_dump(iterator_to_array(['a' => 1, 5 => 2]), iterator_to_array(['a' => 1, 5 => 2], false), iterator_count([1, 2, 3]));
var_dump(iterator_count(5));
