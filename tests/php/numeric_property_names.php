<?php
$o = new stdClass;
$o->{'123'} = 'a';
$o->{7} = 'b';
$o->x = 'c';
var_dump($o, isset($o->{'123'}), $o->{123}, property_exists($o, '7'));
$arr = (array)$o;
var_dump($arr, array_keys($arr));
$back = (object)[5 => 'five', '06' => 'six', 'k' => [1]];
var_dump($back, $back->{'5'}, get_object_vars($back));
foreach ($back as $k => $v) { var_dump($k); }
unset($back->{5});
var_dump($back);
$j = json_decode('{"0": "zero", "1": {"2": 3}}');
var_dump($j, $j->{'0'}, $j->{1}->{2}, json_decode('{"0": 1}', true));
var_dump((object)['a' => 1] == (object)['a' => 1], json_encode((object)[3 => 'x']));
