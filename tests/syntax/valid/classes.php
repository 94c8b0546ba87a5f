<?php
interface Shape extends Countable, \Stringable
{
    const SIDES = 0;
    public const NAME = 'shape';
    final public const FINAL_CONST = 1;
    public function area(): float;
    public static function create(mixed ...$args): static;
}

abstract class Base implements Shape
{
    var $legacy;
    public $untyped = null;
    protected int $count = 0;
    private ?string $name = null;
    public static array $registry = [];
    protected static ?self $instance = null;
    public readonly int $id;
    readonly public string $label;
    public int|float $num = 1, $other = 2.5;
    private const PRIVATE_CONST = 'p';
    protected const PROTECTED_CONST = self::PRIVATE_CONST . 'q';

    public function __construct(
        public readonly int $x = 0,
        protected ?Base $parent = null,
        private array &$ref = [],
        int $plain = 1,
    ) {
        $this->id = $x;
        $this->label = 'l';
    }

    abstract public function area(): float;
    abstract protected function name(): string;
    final public function count(): int { return $this->count; }
    public static function create(mixed ...$args): static { return new static(...$args); }
    public function __toString(): string { return static::class; }
    private function &refReturn(): array { return self::$registry; }
    final protected static function both(): void {}
    static public function staticFirst() {}
    public function __get($name) { return $this->$name; }
    public function __call($name, $args) { return [$name, $args]; }
    public static function __callStatic($name, $args) {}
    public function __destruct() {}
}

final class Square extends Base
{
    use Greets, Logs {
        Greets::hello insteadof Logs;
        Logs::hello as protected logHello;
        hello as public;
        sayHi as private;
    }

    public function area(): float { return 1.0; }
    protected function name(): string { return parent::class . self::class; }
}

abstract class AbstractOnly {}
final class FinalOnly {}
readonly class Point
{
    public function __construct(public int $x, public int $y) {}
}
final readonly class FinalPoint {}
readonly final class FinalPoint2 {}
abstract readonly class AbstractPoint {}

trait Greets
{
    public $greeting = 'hi';
    public static $count = 0;
    abstract public function name(): string;
    public function hello() { return $this->greeting . __TRAIT__ . __CLASS__ . __METHOD__; }
    public function bye() {}
    public function sayHi() {}
    public static function make() { return new static; }
}

trait Logs
{
    use Greets;
    public function hello() {}
}

enum Suit: string implements JsonSerializable
{
    use EnumHelpers;

    case Hearts = 'H';
    case Spades = 'S';

    const Wild = self::Spades;

    public function color(): string
    {
        return match ($this) {
            self::Hearts => 'Red',
            self::Spades => 'Black',
        };
    }

    public static function fromChar(string $c): self { return self::from($c); }
    public function jsonSerialize(): mixed { return $this->value; }
}

enum Status
{
    case Active;
    case Inactive;
}

enum Priority: int
{
    case Low = 1;
    case High = 1 << 4;
}

trait EnumHelpers {}

$enum = enum_exists('Suit');
class enumLike { public function enum() {} }
