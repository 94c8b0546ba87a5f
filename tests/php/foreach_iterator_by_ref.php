<?php
class I implements Iterator { function rewind(): void {} function valid(): bool { return true; } function current(): mixed { return 1; } function key(): mixed { return 1; } function next(): void {} }
foreach (new I as &$v) {}
