<?php
// Arguments to callees the compiler does not know (methods, functions
// declared later, new): element and property paths are fetched for
// writing when the parameter is by reference, for reading otherwise.
class C {
    public $list = [];
    public $inner;
    function add(&$arr, $v) { $arr[] = $v; }
    function val($v) { return $v; }
    static function inc(&$n) { $n++; }
    function __construct(&$init = null) { $init = 'constructed'; }
}
$c = new C;
$a = ['k' => [1]];
$c->add($a['k'], 2);
C::inc($a['n']);
$c->add($c->list, 3);
$c->inner = new C;
$c->add($c->inner->list, 4);
$c->add($a['deep']['er'], 5);
var_dump($a, $c->list, $c->inner->list);
var_dump($c->val($a['k'][0]), $c->val($a['missing'] ?? 'dflt'));
echo $c->val($a['nope']), "|\n";
echo $c->val($c->nothing), "|\n";
later($a['k']);
function later(&$x) { $x = 'changed'; }
var_dump($a['k']);
$cfg = ['x' => null];
new C($cfg['x']);
var_dump($cfg);
$s = 'str';
try { $c->add($s[0], 1); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
