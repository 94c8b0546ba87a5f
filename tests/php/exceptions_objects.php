<?php
class MyEx extends Exception { }
function f($x) { if ($x > 1) throw new MyEx("bad $x", 42); return $x; }
try { f(5); } catch (MyEx $e) { echo get_class($e), ": ", $e->getMessage(), " ", $e->getCode(), " line ", $e->getLine(), "\n"; }
try { intdiv(1, 0); } catch (DivisionByZeroError $e) { echo $e->getMessage(), "\n"; }
try { echo 1 % 0; } catch (Error $e) { echo get_class($e), ":", $e->getMessage(), "\n"; } finally { echo "fin\n"; }
try { try { throw new RuntimeException("inner"); } finally { echo "cleanup\n"; } } catch (Exception $e) { echo "outer caught ", $e->getMessage(), "\n"; }
$e = new LogicException("x", 1, new Exception("prev"));
echo $e->getPrevious()->getMessage(), "\n";
echo $e->getTraceAsString(), "\n";
function g() { throw new InvalidArgumentException("deep"); }
function h() { g(); }
try { h(); } catch (Exception $e) { echo $e->getTraceAsString(), "\n"; }
throw new MyEx("uncaught!");
