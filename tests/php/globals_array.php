<?php
$counter = 1;
function t() {
    $a = $GLOBALS['counter'];
    $GLOBALS['y'] = 1;
    $GLOBALS['z']['k'] = 2;
    $GLOBALS['w'] .= 's';
    var_dump(isset($GLOBALS['q']), empty($GLOBALS['q']), isset($GLOBALS['counter']));
    unset($GLOBALS['u']);
    $GLOBALS['v']++;
    echo $GLOBALS['nope'] ?? 'dflt', "\n";
    echo $GLOBALS['nope'];
    return $a;
}
$u = 'to unset';
var_dump(t(), $y, $z, $w, isset($u), $v);
$g = $GLOBALS;
var_dump($g['counter'], count($g) > 3);
function r() { $GLOBALS['counter'] = 'set via $GLOBALS'; global $counter; return $counter; }
var_dump(r(), $counter);
