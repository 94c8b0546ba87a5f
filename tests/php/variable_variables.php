<?php
function f($n) {
    $$n = 5;
    echo $$n, "\n";
    $$n .= "x";
    echo $$n, "\n";
    $m = 'arr';
    $$m[] = 1;
    $$m['k'] = 2;
    var_dump($arr);
    unset($$n);
    var_dump(isset($$n), empty($$n), isset($$m), empty($$m));
    $dyn = 'not_a_cv';
    $$dyn = [1, 2];
    $$dyn[] = 3;
    var_dump(${'not' . '_a_cv'});
    var_dump(get_defined_vars());
    echo $$undefinedname;
    echo ${'nope'};
    $i = 'cnt';
    $$i = 0;
    $$i++;
    ++$$i;
    var_dump($cnt);
    global $$i;
    $$i = 100;
    $r = &$$dyn;
    $r[] = 4;
    var_dump(${'not_a_cv'});
    unset(${'not_a_cv'}[0]);
    var_dump(${'not_a_cv'});
}
$k = 'v';
$$k = 1;
echo ${'k'}, $$k, "\n";
f('x');
var_dump($cnt ?? 'none');
var_dump($GLOBALS['cnt']);
$name = 'g2';
$GLOBALS[$name] = 'made';
var_dump($g2);
$GLOBALS['n' . 'ew'] = 7;
var_dump(isset($GLOBALS['new']), $GLOBALS['new']);
unset($GLOBALS[$name]);
var_dump(isset($g2));
$x = 'this';
var_dump($$x);
function h() { foreach (['a' => 1, 'b' => 2] as $k => $v) { $$k = $v; } return compact('a', 'b'); }
var_dump(h());
function e() { extract(['p' => 1, 'q' => 2]); var_dump(get_defined_vars()); $n = 'p'; return $$n; }
var_dump(e());
// Dynamic variables are freed when their frame leaves, after its CVs.
class D { function __construct(public $n) {} function __destruct() { echo "destruct {$this->n}\n"; } }
function scope_end() { $cv = new D('cv'); $name = 'dyn'; $$name = new D('dyn'); echo "leaving\n"; }
scope_end();
echo "after\n";
// A name that is not a string.
function odd() { $n = 5; $$n = 'five'; var_dump(${'5'}, get_defined_vars()); $a = [1]; echo @$$a, "\n"; }
odd();
// global $$n from nested calls, then read back as globals.
function setg($n, $v) { global $$n; $$n = $v; }
setg('late_global', [1, 2]);
var_dump($GLOBALS['late_global']);
// Many names made and unset.
function churn() { for ($i = 0; $i < 100; $i++) { $n = "v$i"; $$n = $i; if ($i % 3) unset($$n); } $s = 0; for ($i = 0; $i < 100; $i++) { $n = "v$i"; $s += $$n ?? 0; } return $s; }
var_dump(churn());
$obj = new D('global-dyn');
$gn = 'held';
$$gn = $obj;
unset($obj);
echo "end\n";
