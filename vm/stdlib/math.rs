//! ext/standard math functions.

use std::cell::Cell;

use super::{args, ret_str};
use crate::exec::{Thrown, Vm};
use tusk_macros::builtin;
use crate::value::{compare, Zval, IS_DOUBLE, IS_LONG, IS_NULL};

type R = Result<(), Thrown>;

#[builtin("function microtime(bool $as_float = false): string|float")]
pub fn microtime(vm: &mut Vm, as_float: bool) -> Result<Zval, Thrown> {
    let _ = vm;
    let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    Ok(if as_float {
        Zval::double(d.as_secs_f64())
    } else {
        let s = format!("{:.8} {}", d.subsec_micros() as f64 / 1e6, d.as_secs());
        Zval::string(crate::value::ZString::new(s.as_bytes()))
    })
}

#[builtin("function time(): int")]
pub fn time(vm: &mut Vm) -> Result<i64, Thrown> {
    let _ = vm;
    let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    Ok(d.as_secs() as i64)
}

#[builtin("function hrtime(bool $as_number = false): array|int|float|false")]
pub fn hrtime(vm: &mut Vm, as_number: bool) -> Result<Zval, Thrown> {
    let _ = vm;
    thread_local! {
        static START: std::time::Instant = std::time::Instant::now();
    }
    let ns = START.with(|s| s.elapsed().as_nanos()) as i64 + 1_000_000_000;
    if as_number {
        return Ok(Zval::long(ns));
    }
    let arr = crate::value::ZArray::new();
    // SAFETY: `arr` is new and unshared.
    unsafe {
        (*arr).append(Zval::long(ns / 1_000_000_000));
        (*arr).append(Zval::long(ns % 1_000_000_000));
    }
    Ok(Zval::array(arr))
}

#[builtin("function intdiv(int $num1, int $num2): int")]
pub fn intdiv(vm: &mut Vm, num1: i64, num2: i64) -> Result<i64, Thrown> {
    crate::value::arith::intdiv(num1, num2).map_err(|t| crate::exec::slow::raise(vm, t))
}

#[builtin("function abs(int|float $num): int|float")]
pub fn abs(vm: &mut Vm, num: Zval) -> Result<Zval, Thrown> {
    let _ = vm;
    Ok(match num.kind() {
        IS_LONG => match num.lval().checked_abs() {
            Some(v) => Zval::long(v),
            None => Zval::double(-(num.lval() as f64)),
        },
        _ => Zval::double(num.dval().abs()),
    })
}

/// `min`/`max`: the smallest/largest of the arguments, or of the one array.
fn minmax(vm: &mut Vm, name: &str, value: &Zval, values: &[Zval], want: i32) -> Result<Zval, Thrown> {
    let pick = |vals: &mut dyn Iterator<Item = &Zval>| -> Zval {
        let mut best: Option<&Zval> = None;
        for v in vals {
            let v = v.deref();
            best = match best {
                Some(b) if compare::compare(v, b).signum() != want => Some(b),
                _ => Some(v),
            };
        }
        best.map_or(Zval::NULL, |b| b.copy_value())
    };
    if !values.is_empty() {
        return Ok(pick(&mut std::iter::once(value).chain(values)));
    }
    let v = value.deref();
    if !v.is_array() {
        let msg = format!("{}(): Argument #1 ($value) must be of type array, {} given", name, super::type_name(v));
        return Err(vm.throw_error("TypeError", &msg));
    }
    // SAFETY: the argument keeps the array alive.
    let arr = unsafe { &*v.arr() };
    if arr.len() == 0 {
        return Err(vm.throw_error("ValueError", &format!("{}(): Argument #1 ($value) must contain at least one element", name)));
    }
    Ok(pick(&mut arr.iter().map(|(_, v)| v)))
}

#[builtin("function min(mixed $value, mixed ...$values): mixed")]
pub fn min(vm: &mut Vm, value: &Zval, values: &[Zval]) -> Result<Zval, Thrown> {
    minmax(vm, "min", value, values, -1)
}

#[builtin("function max(mixed $value, mixed ...$values): mixed")]
pub fn max(vm: &mut Vm, value: &Zval, values: &[Zval]) -> Result<Zval, Thrown> {
    minmax(vm, "max", value, values, 1)
}

#[builtin("function sqrt(float $num): float")]
pub fn sqrt(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.sqrt())
}

#[builtin("function exp(float $num): float")]
pub fn exp(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.exp())
}

#[builtin("function expm1(float $num): float")]
pub fn expm1(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.exp_m1())
}

#[builtin("function log10(float $num): float")]
pub fn log10(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.log10())
}

#[builtin("function log1p(float $num): float")]
pub fn log1p(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.ln_1p())
}

#[builtin("function sin(float $num): float")]
pub fn sin(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.sin())
}

#[builtin("function cos(float $num): float")]
pub fn cos(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.cos())
}

#[builtin("function tan(float $num): float")]
pub fn tan(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.tan())
}

#[builtin("function asin(float $num): float")]
pub fn asin(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.asin())
}

#[builtin("function acos(float $num): float")]
pub fn acos(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.acos())
}

#[builtin("function atan(float $num): float")]
pub fn atan(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.atan())
}

#[builtin("function sinh(float $num): float")]
pub fn sinh(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.sinh())
}

#[builtin("function cosh(float $num): float")]
pub fn cosh(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.cosh())
}

#[builtin("function tanh(float $num): float")]
pub fn tanh(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.tanh())
}

#[builtin("function asinh(float $num): float")]
pub fn asinh(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.asinh())
}

#[builtin("function acosh(float $num): float")]
pub fn acosh(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.acosh())
}

#[builtin("function atanh(float $num): float")]
pub fn atanh(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok(num.atanh())
}

#[builtin("function deg2rad(float $num): float")]
pub fn deg2rad(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok((num / 180.0) * std::f64::consts::PI)
}

#[builtin("function rad2deg(float $num): float")]
pub fn rad2deg(_vm: &mut Vm, num: f64) -> Result<f64, Thrown> {
    Ok((num / std::f64::consts::PI) * 180.0)
}

#[builtin("function atan2(float $y, float $x): float")]
pub fn atan2(_vm: &mut Vm, y: f64, x: f64) -> Result<f64, Thrown> {
    Ok(y.atan2(x))
}

#[builtin("function hypot(float $x, float $y): float")]
pub fn hypot(_vm: &mut Vm, x: f64, y: f64) -> Result<f64, Thrown> {
    Ok(x.hypot(y))
}

#[builtin("function fmod(float $num1, float $num2): float")]
pub fn fmod(_vm: &mut Vm, num1: f64, num2: f64) -> Result<f64, Thrown> {
    Ok(num1 % num2)
}

#[builtin("function fdiv(float $num1, float $num2): float")]
pub fn fdiv(_vm: &mut Vm, num1: f64, num2: f64) -> Result<f64, Thrown> {
    Ok(num1 / num2)
}

#[builtin("function log(float $num, float $base = M_E): float")]
pub fn log(vm: &mut Vm, num: f64, base: Option<f64>) -> Result<f64, Thrown> {
    Ok(match base {
        None => num.ln(),
        Some(2.0) => num.log2(),
        Some(10.0) => num.log10(),
        Some(1.0) => f64::NAN,
        Some(b) if b <= 0.0 => return Err(vm.throw_error("ValueError", "log(): Argument #2 ($base) must be greater than 0")),
        Some(b) => num.ln() / b.ln(),
    })
}

#[builtin("function pi(): float")]
pub fn pi(_vm: &mut Vm) -> Result<f64, Thrown> {
    Ok(std::f64::consts::PI)
}

#[builtin("function is_nan(float $num): bool")]
pub fn is_nan(_vm: &mut Vm, num: f64) -> Result<bool, Thrown> {
    Ok(num.is_nan())
}

#[builtin("function is_finite(float $num): bool")]
pub fn is_finite(_vm: &mut Vm, num: f64) -> Result<bool, Thrown> {
    Ok(num.is_finite())
}

#[builtin("function is_infinite(float $num): bool")]
pub fn is_infinite(_vm: &mut Vm, num: f64) -> Result<bool, Thrown> {
    Ok(num.is_infinite())
}

#[builtin("function floor(int|float $num): float")]
pub fn floor(_vm: &mut Vm, num: Zval) -> Result<f64, Thrown> {
    Ok(if num.kind() == IS_LONG { num.lval() as f64 } else { num.dval().floor() })
}

#[builtin("function ceil(int|float $num): float")]
pub fn ceil(_vm: &mut Vm, num: Zval) -> Result<f64, Thrown> {
    Ok(if num.kind() == IS_LONG { num.lval() as f64 } else { num.dval().ceil() })
}

#[builtin("function round(int|float $num, int $precision = 0, int $mode = PHP_ROUND_HALF_UP): float")]
pub fn round(_vm: &mut Vm, num: Zval, precision: i64, mode: i64) -> Result<f64, Thrown> {
    let places = precision.clamp(i32::MIN as i64, i32::MAX as i64);
    if num.kind() == IS_LONG && places >= 0 {
        return Ok(num.lval() as f64);
    }
    let x = if num.kind() == IS_LONG { num.lval() as f64 } else { num.dval() };
    Ok(super::format::php_round(x, places, mode))
}

#[builtin("function pow(mixed $num, mixed $exponent): mixed")]
pub fn pow(vm: &mut Vm, num: &Zval, exponent: &Zval) -> Result<Zval, Thrown> {
    crate::exec::slow::arith::apply(vm, crate::ops::Opcode::Pow, num, exponent)
}

// ---- bases -----------------------------------------------------------------------

/// `_php_math_basetozval`: digits of `base` (invalid ones skipped with a
/// deprecation), an int or, past the int range, a float.
fn base_to_number(vm: &mut Vm, s: &[u8], base: u32) -> Zval {
    let mut s = s;
    // Prefixes are allowed for the matching base.
    if s.len() >= 2 && s[0] == b'0' {
        let p = s[1].to_ascii_lowercase();
        if (base == 16 && p == b'x') || (base == 8 && p == b'o') || (base == 2 && p == b'b') {
            s = &s[2..];
        }
    }
    let mut num: i64 = 0;
    let mut fnum: f64 = 0.0;
    let mut is_float = false;
    let mut invalid = false;
    for &c in s {
        let d = match (c as char).to_digit(36) {
            Some(d) if d < base => d,
            _ => {
                invalid = true;
                continue;
            }
        };
        if is_float {
            fnum = fnum * base as f64 + d as f64;
            continue;
        }
        match num.checked_mul(base as i64).and_then(|x| x.checked_add(d as i64)) {
            Some(x) => num = x,
            None => {
                is_float = true;
                fnum = num as f64 * base as f64 + d as f64;
            }
        }
    }
    if invalid {
        vm.deprecated("Invalid characters passed for attempted conversion, these have been ignored");
    }
    if is_float {
        Zval::double(fnum)
    } else {
        Zval::long(num)
    }
}

const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

fn u64_to_base(n: u64, base: u64) -> Vec<u8> {
    let mut buf = [0u8; 64];
    base_digits(n, base, &mut buf).to_vec()
}

/// The digits of `n` in `base` (2..=36), written at the end of `buf`.
fn base_digits(mut n: u64, base: u64, buf: &mut [u8; 64]) -> &[u8] {
    let mut i = buf.len();
    if base.is_power_of_two() {
        let shift = base.trailing_zeros();
        let mask = base - 1;
        loop {
            i -= 1;
            buf[i] = DIGITS[(n & mask) as usize];
            n >>= shift;
            if n == 0 {
                break;
            }
        }
    } else {
        loop {
            i -= 1;
            buf[i] = DIGITS[(n % base) as usize];
            n /= base;
            if n == 0 {
                break;
            }
        }
    }
    &buf[i..]
}

fn base_string(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, base: u32) -> R {
    args::count(vm, name, a, 1, 1)?;
    let s = args::string(vm, name, 1, if name == "bindec" { "binary_string" } else if name == "hexdec" { "hex_string" } else { "octal_string" }, &a[0])?;
    *r = base_to_number(vm, &s, base);
    Ok(())
}

pub fn bindec(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    base_string(vm, "bindec", a, r, 2)
}

pub fn hexdec(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    base_string(vm, "hexdec", a, r, 16)
}

pub fn octdec(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    base_string(vm, "octdec", a, r, 8)
}

fn dec_to(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, base: u64) -> R {
    args::count(vm, name, a, 1, 1)?;
    let n = args::long(vm, name, 1, "num", &a[0])?;
    let mut buf = [0u8; 64];
    *r = ret_str(base_digits(n as u64, base, &mut buf));
    Ok(())
}

pub fn decbin(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    dec_to(vm, "decbin", a, r, 2)
}

pub fn decoct(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    dec_to(vm, "decoct", a, r, 8)
}


pub fn base_convert(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "base_convert", a, 3, 3)?;
    let s = args::string(vm, "base_convert", 1, "num", &a[0])?;
    let from = args::long(vm, "base_convert", 2, "from_base", &a[1])?;
    let to = args::long(vm, "base_convert", 3, "to_base", &a[2])?;
    if !(2..=36).contains(&from) {
        return Err(vm.throw_error("ValueError", "base_convert(): Argument #2 ($from_base) must be between 2 and 36 (inclusive)"));
    }
    if !(2..=36).contains(&to) {
        return Err(vm.throw_error("ValueError", "base_convert(): Argument #3 ($to_base) must be between 2 and 36 (inclusive)"));
    }
    let lower = s.to_ascii_lowercase();
    let n = base_to_number(vm, &lower, from as u32);
    let out = if n.kind() == IS_DOUBLE {
        // `_php_math_zvaltobase` for floats: digits by repeated fmod.
        let mut f = n.dval().abs().floor();
        if !f.is_finite() {
            vm.warning("base_convert(): Number too large");
            *r = ret_str(b"");
            return Ok(());
        }
        let mut out = Vec::new();
        loop {
            out.push(DIGITS[(f % to as f64) as usize]);
            f /= to as f64;
            if f.abs() < 1.0 {
                break;
            }
        }
        out.reverse();
        out
    } else {
        u64_to_base(n.lval() as u64, to as u64)
    };
    *r = ret_str(&out);
    Ok(())
}

// ---- random numbers --------------------------------------------------------------

thread_local! {
    static RNG: Cell<u64> = Cell::new({
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        (t.as_nanos() as u64) ^ 0x9e37_79b9_7f4a_7c15 ^ (std::process::id() as u64) << 32
    });
}

/// splitmix64 step.
fn next_u64() -> u64 {
    RNG.with(|s| {
        let mut z = s.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
        s.set(z);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

/// PHP's Mersenne Twister (MT19937, `mt_srand`/`mt_rand`/`rand`, and the
/// shuffles), seeded from the clock until mt_srand() seeds it.
struct Mt {
    s: [u32; 624],
    next: usize,
    seeded: bool,
}

impl Mt {
    fn seed(&mut self, seed: u32) {
        self.s[0] = seed;
        for i in 1..624 {
            self.s[i] = 1812433253u32.wrapping_mul(self.s[i - 1] ^ (self.s[i - 1] >> 30)).wrapping_add(i as u32);
        }
        self.reload();
        self.seeded = true;
    }

    fn reload(&mut self) {
        let twist = |m: u32, u: u32, v: u32| m ^ (((u & 0x8000_0000) | (v & 0x7fff_ffff)) >> 1) ^ (0u32.wrapping_sub(v & 1) & 0x9908_b0df);
        for i in 0..624 {
            let m = self.s[(i + 397) % 624];
            self.s[i] = twist(m, self.s[i], self.s[(i + 1) % 624]);
        }
        self.next = 0;
    }

    fn next_u32(&mut self) -> u32 {
        if !self.seeded {
            self.seed(next_u64() as u32);
        }
        if self.next >= 624 {
            self.reload();
        }
        let mut y = self.s[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

thread_local! {
    static MT: std::cell::RefCell<Mt> = const { std::cell::RefCell::new(Mt { s: [0; 624], next: 624, seeded: false }) };
}

fn mt_u32() -> u32 {
    MT.with(|m| m.borrow_mut().next_u32())
}

/// `php_mt_rand_range`: a uniform integer in `lo..=hi` from the twister.
pub fn random_range(lo: i64, hi: i64) -> i64 {
    let umax = hi.wrapping_sub(lo) as u64;
    if umax > u32::MAX as u64 {
        // rand_range64
        // PHP 8.2 (ext/random) fills the low half first.
        let mut r = mt_u32() as u64;
        r |= (mt_u32() as u64) << 32;
        if umax == u64::MAX {
            return lo.wrapping_add(r as i64);
        }
        let um = umax + 1;
        if um & (um - 1) != 0 {
            let limit = u64::MAX - (u64::MAX % um) - 1;
            while r > limit {
                r = mt_u32() as u64;
                r |= (mt_u32() as u64) << 32;
            }
        }
        return lo.wrapping_add((r % um) as i64);
    }
    let umax = umax as u32;
    let mut r = mt_u32();
    if umax == u32::MAX {
        return lo.wrapping_add(r as i64);
    }
    let um = umax + 1;
    if um & (um - 1) != 0 {
        let limit = u32::MAX - (u32::MAX % um) - 1;
        while r > limit {
            r = mt_u32();
        }
    }
    lo.wrapping_add((r % um) as i64)
}

pub fn random_f64() -> f64 {
    (next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn rand_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval) -> R {
    if a.is_empty() {
        *r = Zval::long((mt_u32() >> 1) as i64);
        return Ok(());
    }
    if a.len() == 1 {
        let msg = format!("{}() expects exactly 2 arguments, 1 given", name);
        return Err(vm.throw_error("ArgumentCountError", &msg));
    }
    args::count(vm, name, a, 2, 2)?;
    let lo = args::long(vm, name, 1, "min", &a[0])?;
    let hi = args::long(vm, name, 2, "max", &a[1])?;
    if hi < lo {
        if name == "rand" {
            *r = Zval::long(random_range(hi, lo));
            return Ok(());
        }
        return Err(vm.throw_error("ValueError", &format!("{}(): Argument #2 ($max) must be greater than or equal to argument #1 ($min)", name)));
    }
    *r = Zval::long(random_range(lo, hi));
    Ok(())
}

pub fn rand(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    rand_impl(vm, "rand", a, r)
}

pub fn mt_rand(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    rand_impl(vm, "mt_rand", a, r)
}

pub fn random_int(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "random_int", a, 2, 2)?;
    let lo = args::long(vm, "random_int", 1, "min", &a[0])?;
    let hi = args::long(vm, "random_int", 2, "max", &a[1])?;
    if lo > hi {
        return Err(vm.throw_error("ValueError", "random_int(): Argument #1 ($min) must be less than or equal to argument #2 ($max)"));
    }
    *r = Zval::long(secure_range(lo, hi));
    Ok(())
}

pub fn mt_srand(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    args::count(vm, "mt_srand", a, 0, 2)?;
    if let Some(v) = a.first() {
        if v.deref().kind() != IS_NULL {
            let s = args::long(vm, "mt_srand", 1, "seed", v)?;
            MT.with(|m| m.borrow_mut().seed(s as u32));
            return Ok(());
        }
    }
    MT.with(|m| m.borrow_mut().seed(next_u64() as u32));
    Ok(())
}

/// A uniform integer in `lo..=hi` from the non-twister generator
/// (random_int, random_bytes: PHP's CSPRNG calls).
fn secure_range(lo: i64, hi: i64) -> i64 {
    let span = (hi as i128 - lo as i128) as u128 + 1;
    if span > u64::MAX as u128 {
        return next_u64() as i64;
    }
    let span = span as u64;
    let zone = u64::MAX - (u64::MAX % span);
    loop {
        let x = next_u64();
        if x < zone {
            return (lo as i128 + (x % span) as i128) as i64;
        }
    }
}

pub fn random_bytes(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "random_bytes", a, 1, 1)?;
    let n = args::long(vm, "random_bytes", 1, "length", &a[0])?;
    if n < 1 {
        return Err(vm.throw_error("ValueError", "random_bytes(): Argument #1 ($length) must be greater than 0"));
    }
    if n as u64 > vm.memory_limit as u64 {
        vm.memory_exhausted(n as usize);
        return Err(Thrown);
    }
    let mut out = vec![0u8; n as usize];
    let filled = std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut out)).is_ok();
    if !filled {
        for b in out.iter_mut() {
            *b = next_u64() as u8;
        }
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn mt_getrandmax(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "mt_getrandmax", a, 0, 0)?;
    *r = Zval::long(2147483647);
    Ok(())
}
