<?php
class P implements JsonSerializable { public $a = 1; protected $b = 2; function jsonSerialize(): mixed { return ['a' => $this->a, 'x' => [1,2]]; } }
class Q { public $a = 1; protected $b = 2; private $c = 3; public $list = [1, 2]; public $o; }
$q = new Q; $q->o = new stdClass; $q->dyn = "d";
echo json_encode([new P, $q, new stdClass, []]), "\n";
echo json_encode($q, JSON_PRETTY_PRINT), "\n";
$d = json_decode('{"a":1,"b":{"c":[1,2,{"d":null}]},"e":[]}');
var_dump($d); echo $d->b->c[2]->d ?? 'null', "\n";
var_dump(json_decode('{}'), json_decode('[{"x":1}]', true));
