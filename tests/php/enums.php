<?php
interface HasColor { public function color(): string; }
enum Suit: string implements HasColor {
    case Hearts = 'H';
    case Diamonds = 'D';
    case Clubs = 'C';
    case Spades = 'S';
    const Wild = self::Spades;
    public function color(): string {
        return match($this) {
            Suit::Hearts, Suit::Diamonds => 'Red',
            Suit::Clubs, Suit::Spades => 'Black',
        };
    }
    public static function fromChar(string $c): self { return self::from($c); }
    public function label(): string { return ucfirst(strtolower($this->name)) . " of " . static::class; }
}
enum Status { case Active; case Inactive; }
enum Num: int { case One = 1; case Two = 2; case Big = 1 << 4; }
var_dump(Suit::Hearts);
var_dump(Suit::Hearts === Suit::Hearts, Suit::Hearts == Suit::Spades, Suit::Hearts < Suit::Spades, Suit::Hearts > Suit::Spades);
var_dump(Suit::Hearts->name, Suit::Hearts->value, Suit::Wild);
print_r(Suit::Clubs); echo "\n";
print_r(Status::Active); echo "\n";
var_export(Suit::Clubs); echo "\n";
var_export([Status::Active, 'x' => Num::Two]); echo "\n";
var_dump(Suit::cases());
var_dump(Status::cases());
var_dump(Suit::from('D'), Suit::tryFrom('X'), Num::from(2), Num::tryFrom(16), Num::from('1'));
echo Suit::Hearts->color(), " ", Suit::fromChar('S')->color(), " ", Suit::Diamonds->label(), "\n";
var_dump(Suit::Hearts instanceof UnitEnum, Suit::Hearts instanceof BackedEnum, Status::Active instanceof BackedEnum, Suit::Hearts instanceof HasColor);
var_dump(Status::Active instanceof Status);
var_dump(get_class(Num::One), gettype(Num::One));
var_dump([Status::Active]);
$x = Status::Inactive;
echo match($x) { Status::Active => "on", Status::Inactive => "off" }, "\n";
var_dump(Status::Active->name);
class C { const D = Suit::Diamonds; const E = [Num::One]; public $p = Status::Active; }
var_dump(C::D, C::E, (new C)->p);
var_dump(constant('Suit::Hearts'));
var_dump(Suit::Hearts ? 1 : 0, (bool)Status::Active);
$arr = [Suit::Hearts, Suit::Hearts];
var_dump(in_array(Suit::Clubs, $arr), in_array(Suit::Hearts, $arr, true));
var_dump(Num::tryFrom(0) ?? 'none');
var_dump(Suit::Hearts instanceof Suit, Status::Active == Status::Active, Status::Active != Status::Inactive);
var_dump(Num::Big->value + 1);
echo json_encode(Num::Two), json_encode(Suit::Hearts), "\n";
