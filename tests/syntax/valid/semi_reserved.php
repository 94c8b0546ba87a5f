<?php
class Reserved
{
    const CLASS_ = 1;
    const LIST = 1, ARRAY = 2, FUNCTION = 3, PRINT = 4, ECHO = 5, NEW = 6, DEFAULT = 7;
    const IF = 8, FOREACH = 9, MATCH = 10, FN = 11, ENUM = 12, READONLY = 13, NULL = 14;
    public $list, $array, $function, $class;
    public function list() {}
    public function array() {}
    public function new() {}
    public function print() {}
    public function echo() {}
    public function include() {}
    public function foreach() {}
    public function match() {}
    public function fn() {}
    public function enum() {}
    public function readonly() {}
    public static function default() {}
    public function and() {}
    public function exit() {}
    public function static() {}
}
$r = new Reserved;
$r->list(); $r->new(); $r->class; $r->function; $r->array();
Reserved::default();
Reserved::LIST; Reserved::NEW; Reserved::IF; Reserved::ENUM; Reserved::READONLY;
$r->if; $r->while; $r->foreach; $r->exit; $r->static;
$r?->match;
$o->{'class'};
function readonly() {}
readonly();
$enum = 1;
enum_exists('x');

interface enum_like {}
$mixed = mixed::class;
$never = never::class;
class Mixed_ {}
function match_() {}
