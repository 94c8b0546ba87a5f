<?php
echo "compile error: nothing runs\n";
foreach ([1, 2] as $i) {
    try {
        echo $i;
    } finally {
        break;
    }
}
