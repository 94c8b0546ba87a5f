<?php
interface HasV { const V = 'v'; function f(); }
abstract class Base implements HasV { const A = 1; private const P = 2; protected const Q = 3; abstract function g(); static function s() {} final public function fin() {} }
class Kid extends Base { const K = 'k'; public readonly int $ro; protected static $st; private $pv; function f() {} function g() {} function __construct(public $x = 0) {} }
$rc = new ReflectionClass('Kid');
var_dump($rc->getName(), $rc->name, $rc->isAbstract(), (new ReflectionClass('Base'))->isAbstract(), (new ReflectionClass('HasV'))->isAbstract());
var_dump((new ReflectionClass(new Kid))->isInterface(), (new ReflectionClass('HasV'))->isInterface(), $rc->isFinal(), $rc->isReadOnly(), $rc->isEnum());
var_dump($rc->getConstants(), (new ReflectionClass('Base'))->getConstants());
var_dump($rc->newInstance(5)->x, get_class($rc->getConstructor()), $rc->getConstructor()->name);
try { new ReflectionClass('Nope'); } catch (ReflectionException $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
$m = new ReflectionMethod('Base', 'g');
var_dump($m->isAbstract(), $m->isStatic(), $m->name, $m->class, (new ReflectionMethod('Kid::s'))->isStatic(), (new ReflectionMethod(new Kid, 'fin'))->isFinal());
try { new ReflectionMethod('Kid', 'zz'); } catch (ReflectionException $e) { echo $e->getMessage(), "\n"; }
var_dump((new ReflectionProperty('Kid', 'ro'))->isReadOnly(), (new ReflectionProperty('Kid', 'x'))->isReadOnly(), (new ReflectionProperty('Kid', 'pv'))->isPrivate(), (new ReflectionProperty('Kid', 'st'))->isProtected());
try { new ReflectionProperty('Kid', 'zz'); } catch (ReflectionException $e) { echo $e->getMessage(), "\n"; }
function fn3($a, $b = 1, ...$rest) {}
$f = new ReflectionFunction('fn3');
var_dump($f->getName(), $f->getNumberOfParameters(), $f->getNumberOfRequiredParameters(), $f->isVariadic(), $f->isClosure());
$cl = static fn($x) => $x;
$rf = new ReflectionFunction($cl);
var_dump($rf->getName(), $rf->isStatic(), $rf->getClosureThis(), $rf->getNumberOfParameters());
class Holder { function get() { return function () {}; } }
var_dump(get_class((new ReflectionFunction((new Holder)->get()))->getClosureThis()));
try { new ReflectionFunction('nope'); } catch (ReflectionException $e) { echo $e->getMessage(), "\n"; }
enum Suit: string { case H = 'h'; case S = 's'; const X = self::H; }
enum Pure { case A; }
$re = new ReflectionEnum(Suit::class);
var_dump($re->isBacked(), (string)$re->getBackingType(), $re->getBackingType()->isBuiltin(), count($re->getCases()), $re->getCases()[1]->getValue(), $re->getCases()[1]->getBackingValue());
var_dump((new ReflectionEnum('Pure'))->isBacked(), (new ReflectionEnum('Pure'))->getBackingType(), $re->getConstants());
try { new ReflectionEnum('Kid'); } catch (ReflectionException $e) { echo $e->getMessage(), "\n"; }
var_dump(defined('Kid::K'), defined('Kid::P'), defined('Kid::NOPE'), defined('Nope::A'));
