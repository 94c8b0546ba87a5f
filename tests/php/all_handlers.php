<?php
// Reaches every opcode that has a handler (checked by tests/all/runtime.rs),
// so that running it on a 64 KiB stack proves every handler's final call is
// a jump. Output recorded from php -n.
function add_typed(int $a, int $b = 2): int { return $a + $b; }
function variadic($first, ...$rest) { return $first . ':' . count($rest); }
function nothing() { static $n = 0; $n++; return $n; }
function by_ref(&$x) { $x .= '!'; }
function later_defined_caller() { $y = 3; return later_defined($y) + later_defined(1); }
function later_defined($x) { return $x * 2; }

$i = 7; $f = 1.5; $s = "abc"; $n = null;
echo $i + 1, ' ', $i - 2, ' ', $i * 3, ' ', $i / 2, ' ', $i % 4, ' ', $i << 2, ' ', $i >> 1, "\n";
echo $i ** 2, ' ', $i | 8, ' ', $i & 3, ' ', $i ^ 5, ' ', ~$i, ' ', -$i, "\n";
echo $f + $i, ' ', $s . $i, ' ', "$s$i", ' ', "$s-$i", ' ', "x{$s}y{$i}z", "\n";
var_dump($i == 7, $i != 7, $i === 7, $i !== 7, $i < 8, $i <= 7, $i <=> 9, !$i, (bool) $i, $i xor $f);
var_dump($i && $f, $i || $f, $n ?? 'dflt', $n ?: 'empty', (int) "12", (float) "1.5", (string) 5, (array) 1);
$j = $i; $j += 3; $j .= 'x'; $k = ++$i; $k = --$i; $k = $i++; $k = $i--;
$arr = [1, 2, 'k' => 3];
$arr[] = 4; $arr['k'] += 10; $arr['m']['n'] = 5; $arr['m']['n'] *= 2;
unset($arr[0]);
var_dump(isset($arr['m']['n']), isset($arr['k']), empty($arr['z']), isset($j), count($arr), strlen($s), $arr['m']['n']);
[$a, $b] = [10, 20];
echo $a + $b, ' ', @$undefined_var ?? 'quiet', "\n";
foreach ($arr as $key => $val) { echo $key, '=', is_array($val) ? 'array' : $val, ' '; }
echo "\n";
if ($i > 100) { echo "no\n"; } elseif ($i > 1) { echo "yes\n"; }
while ($i < 10) { $i++; }
do { $i--; } while ($i > 8);
for ($x = 0; $x < 3; $x++) { if ($x == 1) continue; echo $x; }
echo "\n", add_typed(1), ' ', add_typed($i), ' ', add_typed("5", 6), ' ', variadic('v', 1, 2, 3), ' ', nothing(), nothing(), "\n";
$t = 'hi'; by_ref($t); echo $t, ' ', later_defined_caller(), "\n";
$fn = 'strtoupper_missing'; $fn2 = 'add_typed'; echo $fn2(40), "\n";
echo PHP_INT_MAX, ' ', M_PI > 3 ? 'pi' : 'no', "\n";
$u = 5; unset($u); var_dump(isset($u));
$str = 'hello'; echo $str[1], $str[-1], "\n";
echo max(1, 9, 3), min([4, 2, 8]), abs(-3), intdiv(7, 2), "\n";
define('ANSWER', 42); echo ANSWER, ' ', defined('ANSWER') ? 'def' : 'undef', "\n";
$i + 1;
$arr2 = [$i, 'x' => $s, 7]; echo count($arr2), ' ', $arr2['x'], "\n";
$ra = 1; $rb = &$ra; $rb++; $rl = [1, 2]; $rc = [&$ra, 3]; $rc[0]++; echo $ra, "\n";
$rl[1] = &$rl[0]; [&$p1, $p2] = $rl; $p1 = 9; echo $rl[0], $rl[1], $p2, "\n";
foreach ($rl as $rk => &$rv) { $rv = $rk; } unset($rv); echo implode(',', $rl), "\n";
function &ref_ret(array &$a) { return $a[0]; }
$rr = &ref_ret($rl); $rr = 'r'; echo $rl[0], "\n";
function uses_global() { global $ra; return $ra; }
echo uses_global(), "\n";
$sw = 3; switch ($sw) { case 1: case 2: case 3: case 4: case 5: echo "five\n"; }
switch ($sw . 'x') { case '3x': echo "3x\n"; break; case 'y': break; }
echo match($sw) { 1, 2 => 'a', 3 => 'b', default => 'c' }, match($sw . '') { '3' => 'c', 'no' => 'd' }, "\n";
function never_unmatched($v) { return match($v) { 1 => 'one' }; }
echo never_unmatched(1), is_int($sw) ? 'int' : 'not', is_null($sw) ? 'null' : 'set', "\n";
const TOP_CONST = 7; echo TOP_CONST, "\n";
$sp = [...$rl, ...[8, 9]]; echo count($sp), "\n";
$co['k'] ??= 'set'; $co['k' . $sw] ??= 'x'; echo implode(',', $co), "\n";
echo match($sw + 0) { 3 => "strict", default => "no" }, is_bool(1), is_array($rl), "\n";
function &ref_static() { static $rs = 'rs'; return $rs; }
function take_ref(&$r) { return $r; }
echo take_ref(ref_static()), later_ref(ref_static()), max(...[3, 4]), "\n";
function later_ref(&$r) { return $r; }
function via_globals() { $GLOBALS['vg'] = 1; $GLOBALS['vg'] += 2; unset($GLOBALS['nothing']); return $GLOBALS['vg'] . ($GLOBALS['none'] ?? '-') . (isset($GLOBALS['vg']) ? 'set' : '') . count($GLOBALS) % 1; }
echo via_globals(), "\n";
function via_names($n) { $$n = [1, 2]; $$n[] = 3; unset($$n[0]); $$n .= ""; return isset($$n) . ${$n . ""}; }
echo @via_names("vn"), "\n";
declare(ticks=1) { $tk = in_array($sw, ["a", "b"]) ? "in" : "out"; } echo $tk, "\n";
function sep_src() { return [1, 2]; } foreach (sep_src() as &$sv) { $sv++; echo $sv; } echo "\n";
var_dump(array_key_exists('k', $arr), array_key_exists($i, [$i => 1]));
class HBase { public $p = 1; public static $s = 1; const C = 'c'; public $arr = [];
  function __construct($x = 0) { $this->p += $x; } function get() { return $this->p; }
  static function make() { return new static(1); } function me() { return $this; } }
class HKid extends HBase { function get() { return parent::get() * 10; } function cls() { return static::class . self::C; } }
$ho = new HBase(2); $hk = HKid::make(); $hs = new stdClass;
$ho->p = 5; $ho->p += 1; $ho->p++; --$ho->p; $ho->p--; ++$ho->p; $ho->arr[] = 1; $ho->arr[0] += 1;
echo $ho->get(), $hk->get(), $hk->cls(), HBase::C, HBase::$s, isset($ho->p) ? 'i' : '-', isset(HBase::$s) ? 'I' : '-', "\n";
HBase::$s = 3; HBase::$s += 1; HBase::$s++; ++HBase::$s; HBase::$s--; --HBase::$s; HBase::$arr2 ?? null;
$hr = &HBase::$s; $hr = 9; echo HBase::$s, $ho?->me()?->p, $hs->q ?? 'none', "\n";
$hs->q = 1; unset($hs->q); $hc = clone $ho; var_dump($hc == $ho, $hc instanceof HBase, $hs::class);
if ($sw) { class HLate {} } echo get_class(new HLate), count($ho->arr), "\n";
class HThis { public static $sa = [1]; function t() { $t = $this; return $t; } }
HThis::$sa[0] += 5; echo HThis::$sa[0], get_class((new HThis)->t()), "\n";
$cl_a = 2; $cl_f = function($x) use ($cl_a, &$sw) { return $x * $cl_a; }; $cl_g = fn($y) => $y + $cl_a;
echo $cl_f(3), $cl_g(1), implode(',', array_map($cl_g, [1, 2])), "\n";
$fcc = strlen(...); $fcm = $ho->get(...); $fcs = HBase::make(...); echo $fcc('abc'), $fcm(), get_class($fcs()), "\n";
function finally_ret($v) { try { if ($v) { throw $v; } return "t"; } catch (Error) { return "c"; } finally { foreach ([1] as $fv) { try { intdiv(1, 0); } catch (DivisionByZeroError $e) { echo "dz"; } finally { echo "in"; } } if ($v === 2) { return "f"; } } }
echo finally_ret(0), finally_ret(1), finally_ret(2), "\n";
$un = ['a' => ['b' => 1]]; unset($un['a']['b'], $un['x']['y']); echo count($un), count($un['a']), "\n";
$ha = new class(3) extends HBase {}; $hb = new class { public $q = 2; };
echo $ha->p, $ha instanceof HBase ? "y" : "n", $hb->q, "\n";
echo get_class($ho), gettype($ho), gettype(1.5), "\n"; $ho->p++; HBase::$s--;
$pi1 = $ho->p++; $pi2 = $ho->p--; $pi3 = HBase::$s++; $pi4 = HBase::$s--; echo $pi1, $pi2, $pi3, $pi4, "\n";
class AhLate extends AhLater {} class AhLater {} echo get_parent_class(new AhLate), "\n";
function hgen($n) { $got = yield 'k' => $n; yield; $r = yield from [1, 2]; yield from hgen2(); return $got . $r; }
function hgen2() { yield 3; return 4; }
$hg = hgen(7); foreach ($hg as $hk2 => $hv) { echo $hk2, $hv; } echo $hg->getReturn(), "\n";
$hrv = 7; $ho->p = &$hrv; $hrv = 8; HBase::$s = &$hrv; $hrv = 6; echo $ho->p, HBase::$s, "\n";
echo isset($this) ? "T" : "F", empty($this) ? "E" : "N", "\n";
// VERIFY_NEVER_TYPE
function ah_never(): never { if (false) { echo 1; } }
try { ah_never(); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
class AhFa { function add(&$a, $v) { $a[] = $v; } } $ahf = new AhFa; $ahd = ["k" => []]; $ahf->add($ahd["k"], 1); $ahf->add($ho->arr, 2); echo count($ahd["k"]), count($ho->arr), "\n";
