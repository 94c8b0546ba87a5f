<?php
$ao = new ArrayObject(['b' => 2, 'a' => 1]);
var_dump($ao, count($ao), $ao['a'], isset($ao['b']), isset($ao['zz']));
$ao['c'] = 3; $ao[] = 4; unset($ao['b']);
foreach ($ao as $k => $v) echo "$k=$v ";
echo "\n";
var_dump($ao->getArrayCopy(), $ao instanceof Traversable, $ao instanceof Countable);
$c = clone $ao; $c['x'] = 9; var_dump(count($ao), count($c));
$it = new ArrayIterator([10, 20, 30]);
foreach ($it as $k => $v) echo "$k:$v ";
echo "\n", count($it), "\n";
$it->rewind(); var_dump($it->valid(), $it->current(), $it->key()); $it->next(); var_dump($it->current());
echo $ao['missing'] ?? 'dflt', "\n";
echo $ao['missing'];
echo "\n";
$e = new ArrayObject();
var_dump(count($e), $e);
