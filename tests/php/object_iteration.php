<?php
class P { public $a = 1; protected $b = 2; private $c = 3; public $d;
  function inside() { foreach ($this as $k => $v) echo "$k=", var_export($v, true), " "; echo "\n"; } }
class Q extends P { public $e = 5; private $f = 6; function inQ() { foreach ($this as $k => $v) echo "$k "; echo "\n"; } }
$p = new P; $p->dyn = 'x';
foreach ($p as $k => $v) { echo "$k => ", var_export($v, true), "\n"; }
$p->inside();
(new Q)->inQ();
foreach (new Q as $v) echo $v, ",";
echo "\n";
class NumIt implements Iterator {
    private $i = 0;
    public function __construct(private array $data) {}
    public function rewind(): void { echo "rewind\n"; $this->i = 0; }
    public function valid(): bool { echo "valid\n"; return $this->i < count($this->data); }
    public function current(): mixed { echo "current\n"; return $this->data[$this->i]; }
    public function key(): mixed { echo "key\n"; return "k{$this->i}"; }
    public function next(): void { echo "next\n"; $this->i++; }
}
foreach (new NumIt([10, 20]) as $k => $v) echo "$k: $v\n";
foreach (new NumIt([7]) as $v) echo "$v\n";
foreach (new NumIt([]) as $v) echo "never\n";
class Agg implements IteratorAggregate { public function getIterator(): Iterator { return new NumIt(['a']); } }
foreach (new Agg as $k => $v) echo "$k=$v\n";
class Agg2 implements IteratorAggregate { public function getIterator(): Traversable { return new Agg; } }
foreach (new Agg2 as $k => $v) echo "$k=$v\n";
class Coll implements Countable, ArrayAccess {
    private $items = [];
    public function count(): int { return count($this->items); }
    public function offsetExists(mixed $o): bool { echo "exists($o) "; return isset($this->items[$o]); }
    public function offsetGet(mixed $o): mixed { echo "get($o) "; return $this->items[$o] ?? null; }
    public function offsetSet(mixed $o, mixed $v): void { echo "set(", var_export($o, true), ") "; if ($o === null) $this->items[] = $v; else $this->items[$o] = $v; }
    public function offsetUnset(mixed $o): void { echo "unset($o) "; unset($this->items[$o]); }
}
$c = new Coll;
$c['a'] = 1; $c[] = 2; $c['n'] = 5;
echo "\n", count($c), " ", $c['a'], "\n";
var_dump(isset($c['a']), isset($c['zz']), empty($c['a']), empty($c['zz']), $c['zz'] ?? 'dflt');
unset($c['a']);
echo count($c), "\n";
$c['n'] += 10; echo $c['n'], "\n";
$c['n'] .= 'x'; echo $c['n'], "\n";
var_dump($x = ($c['q'] = 7));
echo "\n";
