<?php
class A implements IteratorAggregate { function getIterator(): Traversable { return $this->it; } public $it; }
class B implements IteratorAggregate { #[\ReturnTypeWillChange] function getIterator() { return [1]; } }
foreach (new B as $v) echo $v;
