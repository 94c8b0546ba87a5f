<?php
function f($a) {
    foreach ($a as $v) {
        switch ($v . '') {
            case 'a': goto out;
            case 'b': goto inner;
        }
        inner:
        foreach ($a as $w) { if ($w) goto next; }
        next:
        echo $v;
    }
    out:
    echo 'done';
    $x ??= 1;
    $y[$a[0]][] = 2;
    return $x;
}
