<?php
echo 1, 2, 3;
echo(1);
echo 'a' , 'b' ;
function outer() {
    function inner() {}
    class InnerClass {}
    if (true) { function conditional() {} }
}
if (true) {
    class Conditional {}
    interface CondI {}
}
{
    const_like();
}
$a = function () { static $n = 0; return ++$n; };
$o = new class {
    public function m() { return static function () {}; }
};
label: 
if (0) goto label;
