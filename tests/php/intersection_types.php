<?php
interface X {} interface Y {}
class XY implements X, Y {} class JX implements X {}
function f(X&Y $v): X&Y { return $v; }
echo get_class(f(new XY)), "\n";
try { f(new JX); } catch (TypeError $e) { echo explode(', called', $e->getMessage())[0], "\n"; }
function g(Countable&ArrayAccess $c) { return count($c); }
echo g(new ArrayObject([1,2])), "\n";
try { g([1]); } catch (TypeError $e) { echo explode(', called', $e->getMessage())[0], "\n"; }
