//! PHP 8.2 arithmetic, bitwise and string operators on any two values,
//! independent of the VM.
//!
//! Operands are already dereferenced and defined (no UNDEF, no REFERENCE).
//! Results are new owned values. Diagnostics that do not stop the operation
//! (warnings, deprecations) go to the `diag` callback in the order PHP
//! raises them; errors that do are returned as `Throw`.

use super::array::ZArray;
use super::convert::{dval_to_lval, dval_to_lval_cap, is_long_compatible, parse_numeric, scan_numeric, to_bool, Number, NumericParse};
use super::number;
use super::string::ZString;
use super::zval::*;

/// An exception the operation throws (class and message).
#[derive(Clone, Debug, PartialEq)]
pub enum Throw {
    TypeError(String),
    DivisionByZero(String),
    ArithmeticError(String),
    ValueError(String),
}

impl Throw {
    pub fn message(&self) -> &str {
        match self {
            Throw::TypeError(m) | Throw::DivisionByZero(m) | Throw::ArithmeticError(m) | Throw::ValueError(m) => m,
        }
    }
    /// The PHP class name of the exception.
    pub fn class_name(&self) -> &'static str {
        match self {
            Throw::TypeError(_) => "TypeError",
            Throw::DivisionByZero(_) => "DivisionByZeroError",
            Throw::ArithmeticError(_) => "ArithmeticError",
            Throw::ValueError(_) => "ValueError",
        }
    }
}

/// Severity of a non-fatal diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Warning,
    Notice,
    Deprecated,
}

pub type Diag<'a> = &'a mut dyn FnMut(Level, &str);

pub const NON_NUMERIC: &str = "A non-numeric value encountered";
pub const ARRAY_TO_STRING: &str = "Array to string conversion";

/// `zend_zval_type_name` (objects pending: their class name).
/// `zend_zval_type_name`: an object's class name, else the kind's name.
pub fn class_or_type_name(z: &Zval) -> String {
    let z = z.deref();
    if z.kind() == IS_OBJECT {
        // SAFETY: object-kind values hold a live object.
        return unsafe { super::object::ZObject::class(z.obj()).name_str() };
    }
    type_name(z).to_string()
}

pub fn type_name(z: &Zval) -> &'static str {
    match z.deref().kind() {
        IS_UNDEF | IS_NULL => "null",
        IS_FALSE | IS_TRUE => "bool",
        IS_LONG => "int",
        IS_DOUBLE => "float",
        IS_STRING => "string",
        IS_ARRAY => "array",
        IS_OBJECT => "object",
        IS_RESOURCE => "resource",
        _ => "mixed",
    }
}

#[cold]
fn binop_error(op: &str, a: &Zval, b: &Zval) -> Throw {
    Throw::TypeError(format!("Unsupported operand types: {} {} {}", class_or_type_name(a), op, class_or_type_name(b)))
}

#[derive(Clone, Copy)]
enum Num {
    L(i64),
    D(f64),
}

#[inline(always)]
fn sbytes(z: &Zval) -> &[u8] {
    // SAFETY: callers checked IS_STRING; a string zval holds a live string.
    unsafe { (*z.str()).bytes() }
}

/// `zendi_try_convert_scalar_to_number`: None means "unsupported operand".
#[inline]
fn num_operand(z: &Zval, diag: Diag) -> Option<Num> {
    match z.kind() {
        IS_LONG => Some(Num::L(z.lval())),
        IS_DOUBLE => Some(Num::D(z.dval())),
        IS_UNDEF | IS_NULL | IS_FALSE => Some(Num::L(0)),
        IS_TRUE => Some(Num::L(1)),
        IS_STRING => {
            let n = match parse_numeric(sbytes(z)) {
                NumericParse::None => return None,
                NumericParse::Numeric(n) => n,
                NumericParse::Leading(n) => {
                    diag(Level::Warning, NON_NUMERIC);
                    n
                }
            };
            Some(match n {
                Number::Int(i) => Num::L(i),
                Number::Float(f) => Num::D(f),
            })
        }
        _ => None,
    }
}

fn float_repr(d: f64) -> String {
    let mut o = Vec::new();
    number::fmt_repr(d, &mut o);
    String::from_utf8_lossy(&o).into_owned()
}

/// `zendi_try_get_long`: integer operand of `%`, `<<`, `>>`, `&`, `|`, `^`, `~`.
fn long_operand(z: &Zval, diag: Diag) -> Option<i64> {
    match z.kind() {
        IS_LONG => Some(z.lval()),
        IS_UNDEF | IS_NULL | IS_FALSE => Some(0),
        IS_TRUE => Some(1),
        IS_DOUBLE => Some(double_to_long_op(z.dval(), diag)),
        IS_STRING => {
            let b = sbytes(z);
            let sc = scan_numeric(b, true)?;
            if sc.trailing {
                diag(Level::Warning, NON_NUMERIC);
            }
            match sc.num {
                Number::Int(i) => Some(i),
                Number::Float(f) => {
                    let l = dval_to_lval_cap(f);
                    if !is_long_compatible(f, l) {
                        let msg = format!(
                            "Implicit conversion from float-string \"{}\" to int loses precision",
                            String::from_utf8_lossy(b)
                        );
                        diag(Level::Deprecated, &msg);
                    }
                    Some(l)
                }
            }
        }
        _ => None,
    }
}

#[inline]
fn double_to_long_op(d: f64, diag: Diag) -> i64 {
    let l = dval_to_lval(d);
    if !is_long_compatible(d, l) {
        let msg = format!("Implicit conversion from float {} to int loses precision", float_repr(d));
        diag(Level::Deprecated, &msg);
    }
    l
}

/// int + int, overflowing to float.
#[inline(always)]
pub fn add_int(a: i64, b: i64) -> Zval {
    match a.checked_add(b) {
        Some(r) => Zval::long(r),
        None => Zval::double(a as f64 + b as f64),
    }
}
#[inline(always)]
pub fn sub_int(a: i64, b: i64) -> Zval {
    match a.checked_sub(b) {
        Some(r) => Zval::long(r),
        None => Zval::double(a as f64 - b as f64),
    }
}
#[inline(always)]
pub fn mul_int(a: i64, b: i64) -> Zval {
    match a.checked_mul(b) {
        Some(r) => Zval::long(r),
        None => Zval::double(a as f64 * b as f64),
    }
}

/// Converts both operands (op1 first, so its warning comes first).
#[inline]
fn numbers(op: &str, a: &Zval, b: &Zval, diag: Diag) -> Result<(Num, Num), Throw> {
    let Some(x) = num_operand(a, diag) else { return Err(binop_error(op, a, b)) };
    let Some(y) = num_operand(b, diag) else { return Err(binop_error(op, a, b)) };
    Ok((x, y))
}

#[inline]
fn longs(op: &str, a: &Zval, b: &Zval, diag: Diag) -> Result<(i64, i64), Throw> {
    let Some(x) = long_operand(a, diag) else { return Err(binop_error(op, a, b)) };
    let Some(y) = long_operand(b, diag) else { return Err(binop_error(op, a, b)) };
    Ok((x, y))
}

/// `a + b`; arrays give their union (keys of `a` win).
pub fn add(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    if a.is_array() && b.is_array() {
        return Ok(array_union(a.arr(), b.arr()));
    }
    Ok(match numbers("+", a, b, diag)? {
        (Num::L(x), Num::L(y)) => add_int(x, y),
        (Num::L(x), Num::D(y)) => Zval::double(x as f64 + y),
        (Num::D(x), Num::L(y)) => Zval::double(x + y as f64),
        (Num::D(x), Num::D(y)) => Zval::double(x + y),
    })
}

fn array_union(x: *mut ZArray, y: *mut ZArray) -> Zval {
    // SAFETY: both are live arrays (from array zvals); the dup is ours.
    unsafe {
        let r = ZArray::dup(x);
        if x != y {
            for (k, v) in (*y).iter() {
                let present = match k {
                    super::array::KeyRef::Int(i) => (*r).find_int(i).is_some(),
                    super::array::KeyRef::Str(s) => (*r).find_str(s).is_some(),
                };
                if present {
                    continue;
                }
                // zval_add_ref: a reference only `y` holds is copied as its value.
                let c = if v.is_reference() && (*v.zref()).header.refcount == 1 { (*v.zref()).val.copy_value() } else { v.copy_value() };
                match k {
                    super::array::KeyRef::Int(i) => {
                        (*r).update_int(i, c);
                    }
                    super::array::KeyRef::Str(s) => {
                        (*r).update_str(s as *const ZString as *mut ZString, c);
                    }
                }
            }
        }
        Zval::array(r)
    }
}

/// `a - b`.
pub fn sub(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    Ok(match numbers("-", a, b, diag)? {
        (Num::L(x), Num::L(y)) => sub_int(x, y),
        (Num::L(x), Num::D(y)) => Zval::double(x as f64 - y),
        (Num::D(x), Num::L(y)) => Zval::double(x - y as f64),
        (Num::D(x), Num::D(y)) => Zval::double(x - y),
    })
}

/// `a * b`.
pub fn mul(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    Ok(match numbers("*", a, b, diag)? {
        (Num::L(x), Num::L(y)) => mul_int(x, y),
        (Num::L(x), Num::D(y)) => Zval::double(x as f64 * y),
        (Num::D(x), Num::L(y)) => Zval::double(x * y as f64),
        (Num::D(x), Num::D(y)) => Zval::double(x * y),
    })
}

/// `a / b`: int when exact, else float; zero divisor throws.
pub fn div(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    let (x, y) = numbers("/", a, b, diag)?;
    let zero = match y {
        Num::L(l) => l == 0,
        Num::D(d) => d == 0.0,
    };
    if zero {
        return Err(Throw::DivisionByZero("Division by zero".into()));
    }
    Ok(match (x, y) {
        (Num::L(x), Num::L(y)) => {
            if y == -1 && x == i64::MIN {
                Zval::double(x as f64 / -1.0)
            } else if x % y == 0 {
                Zval::long(x / y)
            } else {
                Zval::double(x as f64 / y as f64)
            }
        }
        (Num::L(x), Num::D(y)) => Zval::double(x as f64 / y),
        (Num::D(x), Num::L(y)) => Zval::double(x / y as f64),
        (Num::D(x), Num::D(y)) => Zval::double(x / y),
    })
}

/// `a % b` on integers (sign of the dividend).
pub fn modulo(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    let (x, y) = longs("%", a, b, diag)?;
    if y == 0 {
        return Err(Throw::DivisionByZero("Modulo by zero".into()));
    }
    if y == -1 {
        // PHP_INT_MIN % -1 would trap.
        return Ok(Zval::long(0));
    }
    Ok(Zval::long(x % y))
}

/// `intdiv()`.
pub fn intdiv(a: i64, b: i64) -> Result<i64, Throw> {
    if b == 0 {
        return Err(Throw::DivisionByZero("Division by zero".into()));
    }
    if b == -1 && a == i64::MIN {
        return Err(Throw::ArithmeticError("Division of PHP_INT_MIN by -1 is not an integer".into()));
    }
    Ok(a / b)
}

/// `zend_pow` on two ints, squaring with overflow detection exactly as Zend
/// does so that overflowing results carry the same rounding.
/// `zend_pow` of two ints: square-and-multiply, float on overflow.
pub fn pow_long(base: i64, exp: i64) -> Zval {
    if exp < 0 {
        return Zval::double((base as f64).powf(exp as f64));
    }
    if exp == 0 {
        return Zval::long(1);
    }
    if base == 0 {
        return Zval::long(0);
    }
    let (mut i, mut l1, mut l2) = (exp, 1i64, base);
    while i >= 1 {
        if i % 2 != 0 {
            i -= 1;
            match l1.checked_mul(l2) {
                Some(r) => l1 = r,
                None => {
                    let d = l1 as f64 * l2 as f64;
                    return Zval::double(d * (l2 as f64).powf(i as f64));
                }
            }
        } else {
            i /= 2;
            match l2.checked_mul(l2) {
                Some(r) => l2 = r,
                None => {
                    let d = l2 as f64 * l2 as f64;
                    return Zval::double(l1 as f64 * d.powf(i as f64));
                }
            }
        }
    }
    Zval::long(l1)
}

/// `a ** b`.
pub fn pow(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    Ok(match numbers("**", a, b, diag)? {
        (Num::L(x), Num::L(y)) => pow_long(x, y),
        (Num::L(x), Num::D(y)) => Zval::double((x as f64).powf(y)),
        (Num::D(x), Num::L(y)) => Zval::double(x.powf(y as f64)),
        (Num::D(x), Num::D(y)) => Zval::double(x.powf(y)),
    })
}

/// `a << b`.
pub fn shl(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    let (x, y) = longs("<<", a, b, diag)?;
    if y < 0 {
        return Err(Throw::ArithmeticError("Bit shift by negative number".into()));
    }
    Ok(Zval::long(if y >= 64 { 0 } else { x.wrapping_shl(y as u32) }))
}

/// `a >> b` (arithmetic).
pub fn shr(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    let (x, y) = longs(">>", a, b, diag)?;
    if y < 0 {
        return Err(Throw::ArithmeticError("Bit shift by negative number".into()));
    }
    Ok(Zval::long(if y >= 64 { if x < 0 { -1 } else { 0 } } else { x >> y }))
}

/// Bytewise op on two strings; `longest` keeps the longer tail (`|`).
fn str_bitwise(x: &[u8], y: &[u8], longest: bool, f: impl Fn(u8, u8) -> u8) -> Zval {
    let (long, short) = if x.len() >= y.len() { (x, y) } else { (y, x) };
    let n = if longest { long.len() } else { short.len() };
    let s = ZString::with_capacity(n);
    // SAFETY: `s` is fresh with capacity n; we write exactly n bytes.
    unsafe {
        let d = (*s).data_ptr();
        for i in 0..n {
            let v = if i < short.len() { f(long[i], short[i]) } else { long[i] };
            *d.add(i) = v;
        }
        ZString::set_len(s, n);
    }
    Zval::string(s)
}

/// `a | b` (bytewise when both are strings).
pub fn bw_or(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    if a.is_string() && b.is_string() {
        return Ok(str_bitwise(sbytes(a), sbytes(b), true, |p, q| p | q));
    }
    let (x, y) = longs("|", a, b, diag)?;
    Ok(Zval::long(x | y))
}

/// `a & b`.
pub fn bw_and(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    if a.is_string() && b.is_string() {
        return Ok(str_bitwise(sbytes(a), sbytes(b), false, |p, q| p & q));
    }
    let (x, y) = longs("&", a, b, diag)?;
    Ok(Zval::long(x & y))
}

/// `a ^ b`.
pub fn bw_xor(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    if a.is_string() && b.is_string() {
        return Ok(str_bitwise(sbytes(a), sbytes(b), false, |p, q| p ^ q));
    }
    let (x, y) = longs("^", a, b, diag)?;
    Ok(Zval::long(x ^ y))
}

/// `~a`.
pub fn bw_not(a: &Zval, diag: Diag) -> Result<Zval, Throw> {
    match a.kind() {
        IS_LONG => Ok(Zval::long(!a.lval())),
        IS_DOUBLE => Ok(Zval::long(!double_to_long_op(a.dval(), diag))),
        IS_STRING => {
            let src = sbytes(a);
            let s = ZString::with_capacity(src.len());
            // SAFETY: fresh string with capacity src.len().
            unsafe {
                let d = (*s).data_ptr();
                for (i, &c) in src.iter().enumerate() {
                    *d.add(i) = !c;
                }
                ZString::set_len(s, src.len());
            }
            Ok(Zval::string(s))
        }
        _ => Err(Throw::TypeError(format!("Cannot perform bitwise not on {}", type_name(a)))),
    }
}

/// `a xor b`.
#[inline]
pub fn bool_xor(a: &Zval, b: &Zval) -> Zval {
    Zval::bool(to_bool(a) != to_bool(b))
}

/// The bytes of `(string)z` for concatenation: strings are borrowed,
/// others are written into `tmp`. Arrays warn.
fn concat_operand<'a>(z: &'a Zval, tmp: &'a mut Vec<u8>, diag: Diag) -> &'a [u8] {
    match z.kind() {
        IS_STRING => sbytes(z),
        k => {
            if k == IS_ARRAY {
                diag(Level::Warning, ARRAY_TO_STRING);
            }
            super::convert::append_string(z, tmp);
            tmp
        }
    }
}

/// `a . b` as a new string.
pub fn concat(a: &Zval, b: &Zval, diag: Diag) -> Result<Zval, Throw> {
    let (mut t1, mut t2) = (Vec::new(), Vec::new());
    let x = concat_operand(a, &mut t1, diag);
    let y = concat_operand(b, &mut t2, diag);
    if x.is_empty() && b.is_string() {
        return Ok(b.copy_value());
    }
    if y.is_empty() && a.is_string() {
        return Ok(a.copy_value());
    }
    Ok(Zval::string(ZString::concat(x, y)))
}

/// `$a .= b`: appends in place when `*target` is a string this slot owns
/// alone, else replaces it with the concatenation.
///
/// # Safety
/// `target` is an owned, dereferenced, defined slot.
pub unsafe fn assign_concat(target: &mut Zval, b: &Zval, diag: Diag) -> Result<(), Throw> {
    if target.is_string() && target.is_refcounted() && (*target.str()).refcount() == 1 {
        let mut t2 = Vec::new();
        let y = concat_operand(b, &mut t2, diag);
        // `y` may view the target's own bytes: ZString::append handles that.
        let ns = ZString::append(target.str(), y);
        target.value.str = ns;
        return Ok(());
    }
    let r = concat(target, b, diag)?;
    let old = *target;
    let u2 = target.u2;
    *target = r;
    target.u2 = u2;
    old.ptr_dtor();
    Ok(())
}

/// Perl-style string increment ("a" → "b", "Az" → "Ba", "zz" → "aaa").
fn increment_string(src: &[u8]) -> Vec<u8> {
    let mut s = src.to_vec();
    let mut last = 0u8; // 1 lower, 2 upper, 3 digit
    let mut carry = false;
    let mut pos = s.len();
    while pos > 0 {
        pos -= 1;
        let c = s[pos];
        let (lo, hi, kind) = match c {
            b'a'..=b'z' => (b'a', b'z', 1),
            b'A'..=b'Z' => (b'A', b'Z', 2),
            b'0'..=b'9' => (b'0', b'9', 3),
            _ => {
                carry = false;
                break;
            }
        };
        last = kind;
        if c == hi {
            s[pos] = lo;
            carry = true;
        } else {
            s[pos] = c + 1;
            carry = false;
            break;
        }
    }
    if carry {
        let first = match last {
            1 => b'a',
            2 => b'A',
            _ => b'1',
        };
        s.insert(0, first);
    }
    s
}

fn replace(z: &mut Zval, v: Zval) {
    let old = *z;
    let u2 = z.u2;
    *z = v;
    z.u2 = u2;
    // SAFETY: the slot owned `old`; it is no longer reachable from it.
    unsafe { old.ptr_dtor() };
}

/// `$a++` in place (PHP 8.2 rules: null → 1, bools unchanged, numeric
/// strings become numbers, other strings increment Perl-style).
pub fn increment(z: &mut Zval) -> Result<(), Throw> {
    match z.kind() {
        IS_LONG => {
            let l = z.lval();
            *z = if l == i64::MAX { Zval::double(l as f64 + 1.0) } else { Zval::long(l + 1) };
        }
        IS_DOUBLE => z.value.dval = z.dval() + 1.0,
        IS_NULL | IS_UNDEF => *z = Zval::long(1),
        IS_FALSE | IS_TRUE => {}
        IS_STRING => {
            let b = sbytes(z);
            let v = if b.is_empty() {
                Zval::string(ZString::new(b"1"))
            } else {
                match super::convert::is_numeric_str(b) {
                    Some(Number::Int(l)) => {
                        if l == i64::MAX {
                            Zval::double(l as f64 + 1.0)
                        } else {
                            Zval::long(l + 1)
                        }
                    }
                    Some(Number::Float(d)) => Zval::double(d + 1.0),
                    None => Zval::string(ZString::new(&increment_string(b))),
                }
            };
            replace(z, v);
        }
        _ => return Err(Throw::TypeError(format!("Cannot increment {}", class_or_type_name(z)))),
    }
    Ok(())
}

/// `$a--` in place (null stays null, "" becomes -1, non-numeric strings
/// are unchanged).
pub fn decrement(z: &mut Zval) -> Result<(), Throw> {
    match z.kind() {
        IS_LONG => {
            let l = z.lval();
            *z = if l == i64::MIN { Zval::double(l as f64 - 1.0) } else { Zval::long(l - 1) };
        }
        IS_DOUBLE => z.value.dval = z.dval() - 1.0,
        IS_NULL | IS_UNDEF | IS_FALSE | IS_TRUE => {}
        IS_STRING => {
            let b = sbytes(z);
            let v = if b.is_empty() {
                Zval::long(-1)
            } else {
                match super::convert::is_numeric_str(b) {
                    Some(Number::Int(l)) => {
                        if l == i64::MIN {
                            Zval::double(l as f64 - 1.0)
                        } else {
                            Zval::long(l - 1)
                        }
                    }
                    Some(Number::Float(d)) => Zval::double(d - 1.0),
                    None => return Ok(()),
                }
            };
            replace(z, v);
        }
        _ => return Err(Throw::TypeError(format!("Cannot decrement {}", class_or_type_name(z)))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::print;

    /// Runs `f` and renders the result like `var_dump` (or the throw), with
    /// diagnostics prefixed, e.g. "W:A non-numeric value encountered|int(6)".
    fn run(f: impl FnOnce(Diag) -> Result<Zval, Throw>) -> String {
        let mut log = String::new();
        let r = {
            let mut d = |l: Level, m: &str| {
                log.push_str(match l {
                    Level::Warning => "W:",
                    Level::Notice => "N:",
                    Level::Deprecated => "D:",
                });
                log.push_str(m);
                log.push('|');
            };
            f(&mut d)
        };
        match r {
            Ok(v) => {
                let mut o = Vec::new();
                print::var_dump(&v, &mut o);
                unsafe { v.ptr_dtor() };
                log + String::from_utf8(o).unwrap().trim_end()
            }
            Err(t) => format!("{}{}: {}", log, t.class_name(), t.message()),
        }
    }

    fn s(b: &str) -> Zval {
        Zval::string(ZString::new(b.as_bytes()))
    }

    #[derive(Clone, Copy)]
    enum V {
        N,
        B(bool),
        I(i64),
        F(f64),
        S(&'static str),
        A,
    }
    fn mk(v: V) -> Zval {
        match v {
            V::N => Zval::NULL,
            V::B(b) => Zval::bool(b),
            V::I(i) => Zval::long(i),
            V::F(f) => Zval::double(f),
            V::S(t) => s(t),
            V::A => Zval::array(ZArray::new()),
        }
    }

    type Op = fn(&Zval, &Zval, Diag) -> Result<Zval, Throw>;

    fn bin(op: Op, a: V, b: V) -> String {
        let (x, y) = (mk(a), mk(b));
        let r = run(|d| op(&x, &y, d));
        unsafe {
            x.ptr_dtor();
            y.ptr_dtor();
        }
        r
    }

    const MIN: i64 = i64::MIN;
    const MAX: i64 = i64::MAX;

    #[test]
    fn binary_ops_match_php() {
        let _leaks = crate::value::LeakCheck::new();
        use V::*;
        // Each expected string recorded with php 8.2 -n -r 'var_dump(EXPR);'.
        let cases: &[(Op, V, V, &str)] = &[
            (add, S("abc"), I(1), "TypeError: Unsupported operand types: string + int"),
            (add, S("5abc"), I(1), "W:A non-numeric value encountered|int(6)"),
            (add, A, I(1), "TypeError: Unsupported operand types: array + int"),
            (add, I(1), A, "TypeError: Unsupported operand types: int + array"),
            (add, N, I(1), "int(1)"),
            (add, B(true), I(1), "int(2)"),
            (add, S("1.5"), I(1), "float(2.5)"),
            (add, S(" 1"), I(1), "int(2)"),
            (add, S("1 "), I(1), "int(2)"),
            (add, S(""), I(1), "TypeError: Unsupported operand types: string + int"),
            (add, I(MAX), I(1), "float(9.223372036854776E+18)"),
            (add, S("0x10"), I(1), "W:A non-numeric value encountered|int(1)"),
            (add, I(1), S("1e3"), "float(1001)"),
            (add, S("abc"), S("5x"), "TypeError: Unsupported operand types: string + string"),
            (add, S("5x"), S("abc"), "W:A non-numeric value encountered|TypeError: Unsupported operand types: string + string"),
            (add, S("5x"), S("6y"), "W:A non-numeric value encountered|W:A non-numeric value encountered|int(11)"),
            (add, N, A, "TypeError: Unsupported operand types: null + array"),
            (add, B(true), A, "TypeError: Unsupported operand types: bool + array"),
            (add, F(1.5), A, "TypeError: Unsupported operand types: float + array"),
            (add, S("1e400"), I(0), "float(INF)"),
            (sub, A, N, "TypeError: Unsupported operand types: array - null"),
            (sub, S(""), I(1), "TypeError: Unsupported operand types: string - int"),
            (sub, I(MIN), I(1), "float(-9.223372036854776E+18)"),
            (sub, I(-MAX), I(2), "float(-9.223372036854776E+18)"),
            (mul, S("abc"), F(1.5), "TypeError: Unsupported operand types: string * float"),
            (mul, I(MAX), I(2), "float(1.8446744073709552E+19)"),
            (mul, I(MIN), I(-1), "float(9.223372036854776E+18)"),
            (mul, S("2.5"), I(2), "float(5)"),
            (mul, A, I(1), "TypeError: Unsupported operand types: array * int"),
            (div, I(1), I(0), "DivisionByZeroError: Division by zero"),
            (div, I(1), F(-0.0), "DivisionByZeroError: Division by zero"),
            (div, B(true), B(false), "DivisionByZeroError: Division by zero"),
            (div, S("5"), S("0"), "DivisionByZeroError: Division by zero"),
            (div, I(7), I(2), "float(3.5)"),
            (div, I(6), I(2), "int(3)"),
            (div, F(6.0), I(2), "float(3)"),
            (div, I(MIN), I(-1), "float(9.223372036854776E+18)"),
            (div, F(-0.0), I(1), "float(-0)"),
            (div, I(0), I(-1), "int(0)"),
            (modulo, I(1), I(0), "DivisionByZeroError: Modulo by zero"),
            (modulo, F(1.5), I(2), "D:Implicit conversion from float 1.5 to int loses precision|int(1)"),
            (modulo, S("abc"), I(2), "TypeError: Unsupported operand types: string % int"),
            (modulo, I(MIN), I(-1), "int(0)"),
            (modulo, N, I(1), "int(0)"),
            (modulo, F(1e20), I(7), "D:Implicit conversion from float 1.0E+20 to int loses precision|int(6)"),
            (modulo, S("1e20"), I(7), "D:Implicit conversion from float-string \"1e20\" to int loses precision|int(0)"),
            (modulo, S("1.5"), I(2), "D:Implicit conversion from float-string \"1.5\" to int loses precision|int(1)"),
            (modulo, F(f64::INFINITY), I(5), "D:Implicit conversion from float INF to int loses precision|int(0)"),
            (modulo, I(5), F(0.5), "D:Implicit conversion from float 0.5 to int loses precision|DivisionByZeroError: Modulo by zero"),
            (modulo, I(5), S("0.5"), "D:Implicit conversion from float-string \"0.5\" to int loses precision|DivisionByZeroError: Modulo by zero"),
            (modulo, I(-7), I(3), "int(-1)"),
            (modulo, I(7), I(-3), "int(1)"),
            (modulo, F(1e25), I(3), "D:Implicit conversion from float 1.0E+25 to int loses precision|int(0)"),
            (modulo, F(3.0), I(2), "int(1)"),
            (modulo, B(true), I(2), "int(1)"),
            (shl, I(1), I(-1), "ArithmeticError: Bit shift by negative number"),
            (shl, I(1), I(64), "int(0)"),
            (shr, I(-1), I(64), "int(-1)"),
            (shl, I(1), I(63), "int(-9223372036854775808)"),
            (shr, I(MIN), I(63), "int(-1)"),
            (shl, S("abc"), I(1), "TypeError: Unsupported operand types: string << int"),
            (shl, F(1.5), I(1), "D:Implicit conversion from float 1.5 to int loses precision|int(2)"),
            (shl, S("1.5"), I(1), "D:Implicit conversion from float-string \"1.5\" to int loses precision|int(2)"),
            (pow, I(2), I(63), "float(9.223372036854776E+18)"),
            (pow, I(2), I(-1), "float(0.5)"),
            (pow, I(-2), I(63), "int(-9223372036854775808)"),
            (pow, I(0), I(-1), "float(INF)"),
            (pow, I(3), I(40), "float(1.2157665459056929E+19)"),
            (pow, I(-3), I(41), "float(-3.647299637717079E+19)"),
            (pow, I(2), I(62), "int(4611686018427387904)"),
            (pow, I(-2), I(64), "float(1.8446744073709552E+19)"),
            (pow, I(10), I(-1), "float(0.1)"),
            (pow, S("abc"), I(2), "TypeError: Unsupported operand types: string ** int"),
            (pow, A, I(2), "TypeError: Unsupported operand types: array ** int"),
            (pow, N, I(-1), "float(INF)"),
            (pow, I(0), I(0), "int(1)"),
            (pow, F(0.0), I(0), "float(1)"),
            (pow, I(-1), F(0.5), "float(NAN)"),
            (pow, S("5"), S("2"), "int(25)"),
            (pow, B(true), I(2), "int(1)"),
            (pow, I(2), F(0.5), "float(1.4142135623730951)"),
            (bw_or, S("a"), S("b"), "string(1) \"c\""),
            (bw_or, S("ab"), S("abc"), "string(3) \"abc\""),
            (bw_and, S("ab"), S("abc"), "string(2) \"ab\""),
            (bw_and, S("12"), I(5), "int(4)"),
            (bw_and, S("12"), S("5"), "string(1) \"1\""),
            (bw_or, F(1.5), I(1), "D:Implicit conversion from float 1.5 to int loses precision|int(1)"),
            (bw_or, S("abc"), I(1), "TypeError: Unsupported operand types: string | int"),
            (bw_or, S("1e3"), I(0), "int(1000)"),
            (bw_or, F(1e20), I(0), "D:Implicit conversion from float 1.0E+20 to int loses precision|int(7766279631452241920)"),
            (bw_or, F(f64::NAN), I(0), "D:Implicit conversion from float NAN to int loses precision|int(0)"),
            (bw_or, S("1e400"), I(0), "D:Implicit conversion from float-string \"1e400\" to int loses precision|int(0)"),
            (bw_or, F(-1e20), I(0), "D:Implicit conversion from float -1.0E+20 to int loses precision|int(-7766279631452241920)"),
            (bw_or, F(1.0), I(0), "int(1)"),
            (bw_and, N, I(1), "int(0)"),
            (bw_and, S(""), I(1), "TypeError: Unsupported operand types: string & int"),
            (concat, S("abc"), A, "W:Array to string conversion|string(8) \"abcArray\""),
            (concat, A, S("x"), "W:Array to string conversion|string(6) \"Arrayx\""),
            (concat, A, A, "W:Array to string conversion|W:Array to string conversion|string(10) \"ArrayArray\""),
            (concat, N, N, "string(0) \"\""),
            (concat, F(1.0), S(""), "string(1) \"1\""),
            (concat, F(-0.0), S(""), "string(2) \"-0\""),
            (concat, S(" "), F(1.0), "string(2) \" 1\""),
            (concat, F(1e15), S(""), "string(7) \"1.0E+15\""),
            (concat, I(-5), B(true), "string(3) \"-51\""),
        ];
        for (i, &(op, a, b, want)) in cases.iter().enumerate() {
            assert_eq!(bin(op, a, b), want, "case {i}");
        }
    }

    #[test]
    fn xor_not_intdiv() {
        let _leaks = crate::value::LeakCheck::new();
        let (t, one, arr) = (Zval::TRUE, Zval::long(1), Zval::array(ZArray::new()));
        assert!(!to_bool(&bool_xor(&t, &t)));
        assert!(to_bool(&bool_xor(&arr, &one)));
        assert_eq!(run(|d| bw_not(&Zval::NULL, d)), "TypeError: Cannot perform bitwise not on null");
        assert_eq!(run(|d| bw_not(&Zval::TRUE, d)), "TypeError: Cannot perform bitwise not on bool");
        assert_eq!(run(|d| bw_not(&arr, d)), "TypeError: Cannot perform bitwise not on array");
        assert_eq!(run(|d| bw_not(&Zval::double(1.5), d)), "D:Implicit conversion from float 1.5 to int loses precision|int(-2)");
        assert_eq!(run(|d| bw_not(&Zval::long(0), d)), "int(-1)");
        let ab = s("ab");
        let r = bw_not(&ab, &mut |_, _| {}).unwrap();
        unsafe {
            assert_eq!((*r.str()).bytes(), &[!b'a', !b'b']);
            r.ptr_dtor();
            ab.ptr_dtor();
            arr.ptr_dtor();
        }
        assert_eq!(intdiv(7, 2), Ok(3));
        assert_eq!(intdiv(-7, 2), Ok(-3));
        assert_eq!(intdiv(1, 0), Err(Throw::DivisionByZero("Division by zero".into())));
        assert_eq!(intdiv(MIN, -1), Err(Throw::ArithmeticError("Division of PHP_INT_MIN by -1 is not an integer".into())));
    }

    #[test]
    fn array_union() {
        let _leaks = crate::value::LeakCheck::new();
        // [1] + [2, 3] → [1, 3]
        let a = ZArray::new();
        let b = ZArray::new();
        unsafe {
            (*a).append(Zval::long(1));
            (*b).append(Zval::long(2));
            (*b).append(Zval::long(3));
        }
        let (x, y) = (Zval::array(a), Zval::array(b));
        assert_eq!(
            run(|d| add(&x, &y, d)),
            "array(2) {\n  [0]=>\n  int(1)\n  [1]=>\n  int(3)\n}"
        );
        unsafe {
            x.ptr_dtor();
            y.ptr_dtor();
        }
    }

    fn step(f: fn(&mut Zval) -> Result<(), Throw>, v: V) -> String {
        let mut z = mk(v);
        match f(&mut z) {
            Ok(()) => run(|_| Ok(z)),
            Err(t) => {
                unsafe { z.ptr_dtor() };
                format!("{}: {}", t.class_name(), t.message())
            }
        }
    }

    #[test]
    fn increment_decrement_match_php() {
        let _leaks = crate::value::LeakCheck::new();
        use V::*;
        let inc: &[(V, &str)] = &[
            (S("abc"), "string(3) \"abd\""),
            (S("z"), "string(2) \"aa\""),
            (S("Az"), "string(2) \"Ba\""),
            (S("zz"), "string(3) \"aaa\""),
            (S("a9"), "string(2) \"b0\""),
            (S("Zz"), "string(3) \"AAa\""),
            (S("9"), "int(10)"),
            (S("9.5"), "float(10.5)"),
            (S(""), "string(1) \"1\""),
            (N, "int(1)"),
            (I(MAX), "float(9.223372036854776E+18)"),
            (B(true), "bool(true)"),
            (F(1.5), "float(2.5)"),
            (A, "TypeError: Cannot increment array"),
            (S("1e2"), "float(101)"),
            (S(" 1"), "int(2)"),
            (S("1 "), "int(2)"),
            (S("a "), "string(2) \"a \""),
            (S("-"), "string(1) \"-\""),
            (S("5abc"), "string(4) \"5abd\""),
            (S(" "), "string(1) \" \""),
            (S("9223372036854775807"), "float(9.223372036854776E+18)"),
            (S("99"), "int(100)"),
        ];
        for &(v, want) in inc {
            assert_eq!(step(increment, v), want);
        }
        assert_eq!(step(increment, S("a99")), "string(3) \"b00\"");
        assert_eq!(step(increment, S("zZ9")), "string(4) \"aaA0\"");
        let dec: &[(V, &str)] = &[
            (S(""), "int(-1)"),
            (N, "NULL"),
            (S("abc"), "string(3) \"abc\""),
            (S("5"), "int(4)"),
            (I(MIN), "float(-9.223372036854776E+18)"),
            (B(false), "bool(false)"),
            (S("5abc"), "string(4) \"5abc\""),
            (F(0.5), "float(-0.5)"),
            (A, "TypeError: Cannot decrement array"),
        ];
        for &(v, want) in dec {
            assert_eq!(step(decrement, v), want);
        }
    }

    #[test]
    fn assign_concat_appends_in_place() {
        let _leaks = crate::value::LeakCheck::new();
        let mut z = s("ab");
        let lit = Zval::string(ZString::new_immutable(b"cd"));
        unsafe {
            for _ in 0..10 {
                assign_concat(&mut z, &lit, &mut |_, _| {}).unwrap();
            }
            assert_eq!((*z.str()).len(), 22);
            // $a .= $a
            let alias = z;
            assign_concat(&mut z, &alias, &mut |_, _| {}).unwrap();
            assert_eq!((*z.str()).len(), 44);
            let b = (*z.str()).bytes();
            assert!(b.starts_with(b"abcdcd") && b[..22] == b[22..]);
            // shared target: copy, original untouched
            let mut w = z.copy_value();
            assign_concat(&mut w, &Zval::long(5), &mut |_, _| {}).unwrap();
            assert_eq!((*z.str()).len(), 44);
            assert_eq!((*w.str()).len(), 45);
            w.ptr_dtor();
            z.ptr_dtor();
            ZString::free_immutable(lit.str());
        }
    }
}
