<?php
class A {}
class B {}
interface X {}
interface Y {}

function scalars(int $i, float $f, string $s, bool $b): void {}
function special(array $a, callable $c, iterable $it, object $o, mixed $m): mixed { return null; }
function nullable(?int $a, ?A $b = null): ?string { return null; }
function unions(int|string $a, A|B|null $b, int|false $c, array|bool $d): int|float { return 1; }
function intersections(X&Y $a): X&Y { return $a; }
function dnf((X&Y)|null $a, (X&Y)|B $b): (X&Y)|null { return null; }
function standalone(null $n, false $f, true $t): true { return true; }
function nothing(): never { throw new Exception(); }
function qualified(\A $a, namespace\B $b): \X { return $a; }
function byRefTyped(int &$a, A&B ...$rest): void {}
function intersectionThenRef(X&Y &$a): void {}
function variadicTyped(string ...$names): ?int { return null; }

class C
{
    public self $me;
    public ?C $nullable;
    public int|string|null $union;
    public X&Y $inter;
    public (X&Y)|null $dnf;
    public static iterable $it;
    public function ret(): static { return $this; }
    public function parentType(): ?self { return null; }
    public function arr(): array { return []; }
}

$f = function (int|string $x): int|string { return $x; };
$g = fn(?array $a = null): ?array => $a;
$h = fn(X&Y $v): X&Y => $v;
