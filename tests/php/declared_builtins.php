<?php
var_dump(intdiv(7, 2), abs(-5), abs(-2.5), abs("-3"), time() > 0, is_float(microtime(true)), is_string(microtime()));
try { intdiv(1); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { intdiv(1, 2, 3); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { intdiv("x", 2); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { intdiv(1, 0); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
try { abs([]); } catch (Error $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
var_dump(intdiv(null, 3));
var_dump(intdiv(7.0, 2), intdiv("8", true));
var_dump(intdiv(7.5, 2));
var_dump(intdiv(num2: 2, num1: 9));
var_dump(count(hrtime()), microtime(as_float: true) > 1);
var_dump(min(3, 1, 2), max([4, 9, 2]), min("a", "b"), max(1, 2.5));
try { min([]); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { min(5); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { min(); } catch (ArgumentCountError $e) { echo $e->getMessage(), "\n"; }
var_dump(sqrt(16), sqrt("2"), log(M_E), log(8, 2), log(100, 10), log(27, 3), pi(), is_nan(NAN), floor(5), ceil("4.2"), round(2.5), round(-1.555, 2), round(1234, -2), pow(2, 10), pow("2", 0.5), fmod(10, 3), fdiv(1, 0), atan2(1, 1), hypot(3, 4));
try { log(1, 0); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { sqrt("abc"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
var_dump(sqrt(null));
var_dump(round(num: 3.14159, precision: 3));
try { round(1.5, mode: 99, precision: "x"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
var_dump(deg2rad(180), rad2deg(M_PI), is_finite(INF), is_infinite(-INF), exp(1), expm1(0), log10(1000), log1p(0));
