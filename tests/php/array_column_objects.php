<?php
class E { public $id; public $name; protected $h = 1; function __construct($i, $n) { $this->id = $i; $this->name = $n; } }
$rows = [new E(1, "a"), new E(2, "b"), ["id" => 3, "name" => "c"]];
var_dump(array_column($rows, "name", "id"), array_column($rows, "h"), array_column($rows, null, "id"));
