<?php
class Registry {
    private array $items = ['a' => 1];
    public static $store = [];
    public function &get(string $k) { return $this->items[$k]; }
    public function &items(): array { return $this->items; }
    public static function &store() { return self::$store; }
    public function all() { return $this->items; }
}
$r = new Registry;
$a = &$r->get('a'); $a = 100;
$i = &$r->items(); $i['z'] = 26;
$s = &Registry::store(); $s[] = 'x';
var_dump($r->all(), Registry::$store);
