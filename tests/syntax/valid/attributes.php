<?php
namespace Attr;

use Attribute;

#[Attribute]
class Plain {}

#[Attribute(Attribute::TARGET_CLASS | Attribute::TARGET_METHOD)]
final class WithArgs
{
    public function __construct(public string $name = '', public array $opts = []) {}
}

#[Plain, WithArgs('x', opts: ['a' => 1])]
#[\Attr\Plain()]
#[WithArgs(name: 'y',)]
class Target
{
    #[Plain]
    public const C = 1;

    #[Plain]
    public int $prop = 0;

    #[Plain]
    public function method(#[Plain] int $a, #[WithArgs('p')] $b = null): void {}

    public function __construct(#[Plain] public int $promoted = 0) {}
}

#[Plain]
function fn_with_attr(#[Plain] $x) {}

#[Plain]
interface I {}

#[Plain]
trait T {}

#[Plain]
enum E
{
    #[Plain]
    case A;
}

$closure = #[Plain] function () {};
$arrow = #[Plain] fn() => 1;
$static = #[Plain] static fn() => 2;
$anon = new #[Plain] class {};
$nested = #[WithArgs(new Plain)] fn() => 3;
