<?php
class G implements IteratorAggregate { function getIterator(): Iterator { return new ArrayIterator(['a' => 1, 'b' => 2, 5 => 'x']); } }
var_dump(iterator_to_array(new G), iterator_to_array(new G, false), iterator_count(new G));
var_dump(iterator_to_array(new ArrayIterator([1, 2])), is_iterable(new G), is_iterable(new stdClass), is_countable(new ArrayObject([])), is_countable(new G), is_iterable([1]));
