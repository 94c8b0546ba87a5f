<?php
class P { public float $f = 1; public int $i = 0; public ?string $s = null; public int|string $u = 0; public bool $b = false; }
$p = new P;
var_dump($p->f);
$p->f = 2; var_dump($p->f);
$p->i = "42"; var_dump($p->i);
$p->i = 3.0; var_dump($p->i);
$p->s = 12; var_dump($p->s);
$p->u = 1.0; var_dump($p->u);
$p->b = "yes"; var_dump($p->b);
foreach (['abc', [], null, new stdClass] as $v) {
    try { $p->i = $v; } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
}
try { $p->s = []; } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
var_dump($p);
