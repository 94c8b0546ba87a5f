//! PHP 8.2 conversions between kinds: `(bool)`, `(int)`, `(float)`,
//! `(string)`, and numeric-string recognition (`is_numeric_string_ex`).
//!
//! These functions never warn: those that can lose information in ways PHP
//! reports (leading-numeric strings, float to int) report it through their
//! return value and the caller (arith, the VM's slow paths) raises it.

use super::number;
use super::string::ZString;
use super::zval::*;

/// A number found in a string.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

/// What `parse_numeric` found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumericParse {
    /// Not numeric at all ("abc", "", " ", "0x1A").
    None,
    /// A numeric string: optional leading and trailing whitespace only.
    Numeric(Number),
    /// A leading-numeric string with trailing garbage ("5 apples"): PHP 8
    /// uses the number and warns "A non-numeric value encountered".
    Leading(Number),
}

/// The full result of Zend's `_is_numeric_string_ex`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scan {
    pub num: Number,
    /// +1 / -1 when an integer literal overflowed to a float, else 0.
    pub oflow: i8,
    /// Non-whitespace bytes follow the number.
    pub trailing: bool,
}

#[inline(always)]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

#[inline(always)]
fn digit_at(b: &[u8], i: usize) -> bool {
    matches!(b.get(i), Some(c) if c.is_ascii_digit())
}

/// End of the `zend_strtod` syntax starting at `i` (sign, digits, `.`,
/// digits, exponent with at least one digit).
fn float_extent(b: &[u8], mut i: usize) -> usize {
    if matches!(b.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    while digit_at(b, i) {
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while digit_at(b, i) {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut e = i + 1;
        if matches!(b.get(e), Some(b'-' | b'+')) {
            e += 1;
        }
        if digit_at(b, e) {
            while digit_at(b, e) {
                e += 1;
            }
            i = e;
        }
    }
    i
}

/// Correctly rounded decimal → double, like `zend_strtod` on `b[start..end]`
/// (which `float_extent` validated).
fn strtod(b: &[u8], start: usize, end: usize) -> f64 {
    let s = b.get(start..end).unwrap_or(&[]);
    // The extent is ASCII; Rust's parser accepts "1.", ".5" and "1.e3".
    match core::str::from_utf8(s).ok().and_then(|t| t.parse::<f64>().ok()) {
        Some(v) => v,
        None => strtod_slow(s),
    }
}

/// Fallback for forms Rust's parser rejects: rebuild as "[-]d.dEx".
#[cold]
fn strtod_slow(s: &[u8]) -> f64 {
    let mut t = String::with_capacity(s.len() + 2);
    let mut seen_digit = false;
    for &c in s {
        if c == b'.' && !seen_digit {
            t.push('0');
        }
        if c.is_ascii_digit() {
            seen_digit = true;
        }
        t.push(c as char);
    }
    t.parse::<f64>().unwrap_or(0.0)
}

/// Zend's `_is_numeric_string_ex`. With `allow_errors` false, trailing
/// garbage makes the string non-numeric.
pub(crate) fn scan_numeric(b: &[u8], allow_errors: bool) -> Option<Scan> {
    let mut i = 0;
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    let start = i;
    let mut p = i;
    let neg = match b.get(p) {
        Some(b'-') => {
            p += 1;
            true
        }
        Some(b'+') => {
            p += 1;
            false
        }
        _ => false,
    };
    let num;
    let mut oflow = 0i8;
    let end;
    if digit_at(b, p) {
        while b.get(p) == Some(&b'0') {
            p += 1;
        }
        let dstart = p;
        while digit_at(b, p) {
            p += 1;
        }
        let digits = p - dstart;
        let is_double = digits < 20
            && match b.get(p) {
                Some(b'.') => true,
                Some(b'e' | b'E') => {
                    let e = if matches!(b.get(p + 1), Some(b'-' | b'+')) { p + 2 } else { p + 1 };
                    digit_at(b, e)
                }
                _ => false,
            };
        let overflow = digits >= 20 || (digits == 19 && {
            let d = &b[dstart..p];
            match d.cmp(&b"9223372036854775808"[..]) {
                core::cmp::Ordering::Less => false,
                core::cmp::Ordering::Equal => !neg,
                core::cmp::Ordering::Greater => true,
            }
        });
        if is_double || overflow {
            end = float_extent(b, start);
            num = Number::Float(strtod(b, start, end));
            if !is_double {
                oflow = if neg { -1 } else { 1 };
            }
        } else {
            let mut v: u64 = 0;
            for &c in &b[dstart..p] {
                v = v.wrapping_mul(10).wrapping_add((c - b'0') as u64);
            }
            let v = if neg { (v as i64).wrapping_neg() } else { v as i64 };
            num = Number::Int(v);
            end = p;
        }
    } else if b.get(p) == Some(&b'.') && digit_at(b, p + 1) {
        end = float_extent(b, start);
        num = Number::Float(strtod(b, start, end));
    } else {
        return None;
    }
    let mut q = end;
    while q < b.len() && is_ws(b[q]) {
        q += 1;
    }
    let trailing = q != b.len();
    if trailing && !allow_errors {
        return None;
    }
    Some(Scan { num, oflow, trailing })
}

/// Numeric-string analysis as PHP 8 arithmetic sees a string operand.
pub fn parse_numeric(b: &[u8]) -> NumericParse {
    match scan_numeric(b, true) {
        None => NumericParse::None,
        Some(Scan { num, trailing: false, .. }) => NumericParse::Numeric(num),
        Some(Scan { num, trailing: true, .. }) => NumericParse::Leading(num),
    }
}

/// `is_numeric()`: the number when `b` is wholly numeric (whitespace allowed
/// around it).
#[inline]
pub fn is_numeric_str(b: &[u8]) -> Option<Number> {
    scan_numeric(b, false).map(|s| s.num)
}

/// `zend_dval_to_lval` (PHP 8.2, 64-bit): out-of-range finite doubles wrap
/// modulo 2^64; NaN and infinities give 0.
#[inline]
pub fn dval_to_lval(d: f64) -> i64 {
    if !d.is_finite() {
        return 0;
    }
    if d >= 9.223_372_036_854_775_808e18 || d < -9.223_372_036_854_775_808e18 {
        return dval_to_lval_slow(d);
    }
    d as i64
}

#[cold]
fn dval_to_lval_slow(d: f64) -> i64 {
    let two64 = 18_446_744_073_709_551_616.0f64;
    let mut dmod = d % two64;
    if dmod < 0.0 {
        // Make it positive; -2^63 stays representable either way.
        if dmod < -9.223_372_036_854_775_808e18 {
            dmod += two64;
        }
    } else if dmod >= 9.223_372_036_854_775_808e18 {
        dmod -= two64;
    }
    dmod as i64
}

/// `zend_dval_to_lval_cap`: saturating; NaN and infinities give 0. Used for
/// float strings (`(int)"1e20"` is PHP_INT_MAX).
#[inline]
pub fn dval_to_lval_cap(d: f64) -> i64 {
    if !d.is_finite() {
        return 0;
    }
    if d >= 9.223_372_036_854_775_808e18 {
        return i64::MAX;
    }
    if d < -9.223_372_036_854_775_808e18 {
        return i64::MIN;
    }
    d as i64
}

/// `zend_is_long_compatible`: the float survives the trip to int unchanged.
#[inline]
pub fn is_long_compatible(d: f64, l: i64) -> bool {
    l as f64 == d
}

/// `(bool)$v`.
#[inline]
pub fn to_bool(v: &Zval) -> bool {
    match v.kind() {
        IS_TRUE => true,
        IS_UNDEF | IS_NULL | IS_FALSE => false,
        IS_LONG => v.lval() != 0,
        IS_DOUBLE => v.dval() != 0.0,
        IS_STRING => {
            // SAFETY: a string-kind zval holds a live ZString.
            let b = unsafe { (*v.str()).bytes() };
            !(b.is_empty() || b == b"0")
        }
        // SAFETY: an array-kind zval holds a live ZArray.
        IS_ARRAY => unsafe { (*v.arr()).len() != 0 },
        IS_REFERENCE => to_bool(v.deref()),
        _ => true,
    }
}

/// `(int)` of a string: leading numeric part, floats saturate, else 0.
#[inline]
pub fn str_to_long(b: &[u8]) -> i64 {
    match scan_numeric(b, true) {
        Some(Scan { num: Number::Int(i), .. }) => i,
        Some(Scan { num: Number::Float(f), .. }) => dval_to_lval_cap(f),
        None => 0,
    }
}

/// `(float)` of a string (`zend_strtod` on the leading part, else 0).
#[inline]
pub fn str_to_double(b: &[u8]) -> f64 {
    let mut i = 0;
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    let end = float_extent(b, i);
    let mut p = i;
    if matches!(b.get(p), Some(b'-' | b'+')) {
        p += 1;
    }
    // At least one mantissa digit is needed ("-", ".", "e5" are 0).
    if !(digit_at(b, p) || (b.get(p) == Some(&b'.') && digit_at(b, p + 1))) {
        return 0.0;
    }
    strtod(b, i, end)
}

/// `(int)$v` (PHP 8.2, 64-bit).
pub fn to_long(v: &Zval) -> i64 {
    match v.kind() {
        IS_LONG => v.lval(),
        IS_TRUE => 1,
        IS_UNDEF | IS_NULL | IS_FALSE => 0,
        IS_DOUBLE => dval_to_lval(v.dval()),
        // SAFETY: a string-kind zval holds a live ZString.
        IS_STRING => str_to_long(unsafe { (*v.str()).bytes() }),
        // SAFETY: an array-kind zval holds a live ZArray.
        IS_ARRAY => unsafe { ((*v.arr()).len() != 0) as i64 },
        IS_REFERENCE => to_long(v.deref()),
        // Objects (pending): PHP warns and gives 1.
        _ => 1,
    }
}

/// `(float)$v`.
pub fn to_double(v: &Zval) -> f64 {
    match v.kind() {
        IS_DOUBLE => v.dval(),
        IS_LONG => v.lval() as f64,
        IS_TRUE => 1.0,
        IS_UNDEF | IS_NULL | IS_FALSE => 0.0,
        // SAFETY: a string-kind zval holds a live ZString.
        IS_STRING => str_to_double(unsafe { (*v.str()).bytes() }),
        // SAFETY: an array-kind zval holds a live ZArray.
        IS_ARRAY => unsafe { ((*v.arr()).len() != 0) as i64 as f64 },
        IS_REFERENCE => to_double(v.deref()),
        _ => 1.0,
    }
}

/// Appends `(string)$v`. Arrays give "Array" (the caller warns "Array to
/// string conversion"); objects are pending and give "Object".
pub fn append_string(v: &Zval, out: &mut Vec<u8>) {
    match v.kind() {
        IS_UNDEF | IS_NULL | IS_FALSE => {}
        IS_TRUE => out.push(b'1'),
        IS_LONG => number::push_i64(v.lval(), out),
        IS_DOUBLE => number::fmt_precision(v.dval(), 14, out),
        // SAFETY: a string-kind zval holds a live ZString.
        IS_STRING => out.extend_from_slice(unsafe { (*v.str()).bytes() }),
        IS_ARRAY => out.extend_from_slice(b"Array"),
        IS_REFERENCE => append_string(v.deref(), out),
        _ => out.extend_from_slice(b"Object"),
    }
}

/// `(string)$v` as a string the caller owns one reference to (a string
/// value is shared, not copied).
pub fn to_zstring(v: &Zval) -> *mut ZString {
    let v = v.deref();
    match v.kind() {
        IS_STRING => {
            v.addref();
            v.str()
        }
        IS_LONG => ZString::from_i64(v.lval()),
        _ => {
            let mut out = Vec::new();
            append_string(v, &mut out);
            ZString::new(&out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ZArray;

    fn s(b: &str) -> Zval {
        Zval::string(ZString::new(b.as_bytes()))
    }

    #[test]
    fn numeric_strings() {
        let _leaks = crate::value::LeakCheck::new();
        use Number::*;
        use NumericParse as P;
        let cases: &[(&str, NumericParse)] = &[
            ("123", P::Numeric(Int(123))),
            (" 12", P::Numeric(Int(12))),
            ("12 ", P::Numeric(Int(12))),
            ("\n1\n", P::Numeric(Int(1))),
            ("\x0b1", P::Numeric(Int(1))),
            ("1e3", P::Numeric(Float(1000.0))),
            (" 1e3 ", P::Numeric(Float(1000.0))),
            ("1.", P::Numeric(Float(1.0))),
            ("1.e3", P::Numeric(Float(1000.0))),
            (".5", P::Numeric(Float(0.5))),
            ("+.5", P::Numeric(Float(0.5))),
            ("-.5e1", P::Numeric(Float(-5.0))),
            ("000000000000000000000001", P::Numeric(Int(1))),
            ("-9223372036854775808", P::Numeric(Int(i64::MIN))),
            ("9223372036854775807", P::Numeric(Int(i64::MAX))),
            ("9223372036854775808", P::Numeric(Float(9.223372036854775808e18))),
            ("-9223372036854775809", P::Numeric(Float(-9.223372036854775809e18))),
            ("99999999999999999999", P::Numeric(Float(1e20))),
            ("1e400", P::Numeric(Float(f64::INFINITY))),
            ("5abc", P::Leading(Int(5))),
            ("5 apples", P::Leading(Int(5))),
            ("1e+", P::Leading(Int(1))),
            ("1e", P::Leading(Int(1))),
            ("1\0", P::Leading(Int(1))),
            ("1 2", P::Leading(Int(1))),
            ("1_000", P::Leading(Int(1))),
            ("1e3abc", P::Leading(Float(1000.0))),
            ("abc", P::None),
            ("", P::None),
            (" ", P::None),
            ("\x001", P::None),
            ("0x1A", P::Leading(Int(0))),
            ("-", P::None),
            ("+-1", P::None),
            (".", P::None),
            ("inf", P::None),
            ("nan", P::None),
        ];
        for (src, want) in cases {
            assert_eq!(parse_numeric(src.as_bytes()), *want, "{src:?}");
        }
        assert_eq!(is_numeric_str(b"5abc"), None);
        assert_eq!(is_numeric_str(b" 5 "), Some(Int(5)));
        let sc = scan_numeric(b"-99999999999999999999", false).unwrap();
        assert_eq!(sc.oflow, -1);
    }

    #[test]
    fn int_casts_match_php() {
        let _leaks = crate::value::LeakCheck::new();
        // php -n -r 'var_dump((int)1e20, (int)-1e20, (int)NAN, (int)INF, (int)"1e3", ...);'
        assert_eq!(dval_to_lval(1e20), 7766279631452241920);
        assert_eq!(dval_to_lval(-1e20), -7766279631452241920);
        assert_eq!(dval_to_lval(f64::NAN), 0);
        assert_eq!(dval_to_lval(f64::INFINITY), 0);
        assert_eq!(dval_to_lval(1.9e19), 553255926290448384);
        assert_eq!(dval_to_lval(-9.3e18), 9146744073709551616u64 as i64);
        assert_eq!(dval_to_lval(9.2e18), 9200000000000000000);
        assert_eq!(dval_to_lval(-1.5), -1);
        assert_eq!(dval_to_lval(2.9999999999999996), 2);
        assert_eq!(dval_to_lval(-9.223372036854775808e18), i64::MIN);
        let cases: &[(&str, i64)] = &[
            ("1e3", 1000),
            (" 12abc", 12),
            ("12abc ", 12),
            (" 12 ", 12),
            ("0x1A", 0),
            ("9999999999999999999", i64::MAX),
            ("-9999999999999999999", i64::MIN),
            ("1.9e3", 1900),
            ("\n\t 5", 5),
            (".5", 0),
            ("1.", 1),
            ("1e", 1),
            ("+5", 5),
            ("++5", 0),
            ("-", 0),
            ("1e400", 0),
            ("1e19", i64::MAX),
            ("-1e20", i64::MIN),
            ("  0012", 12),
            ("-0012.9", -12),
            ("0b11", 0),
            ("1_000", 1),
            ("  +1", 1),
            ("+-1", 0),
        ];
        for &(src, want) in cases {
            let z = s(src);
            assert_eq!(to_long(&z), want, "{src:?}");
            unsafe { z.ptr_dtor() };
        }
    }

    #[test]
    fn double_and_bool_casts_match_php() {
        let _leaks = crate::value::LeakCheck::new();
        let cases: &[(&str, f64)] = &[
            (" 1.5", 1.5),
            ("0x1A", 0.0),
            ("1e3abc", 1000.0),
            ("abc", 0.0),
            (".5", 0.5),
            ("  -.5e1x", -5.0),
            ("inf", 0.0),
            ("1e400", f64::INFINITY),
            ("1.e3", 1000.0),
            ("1.", 1.0),
            ("-", 0.0),
            ("1e", 1.0),
            ("1e+", 1.0),
            ("+.5", 0.5),
            ("9999999999999999999", 1e19),
        ];
        for &(src, want) in cases {
            let z = s(src);
            assert_eq!(to_double(&z), want, "{src:?}");
            unsafe { z.ptr_dtor() };
        }
        for (src, want) in [("0", false), ("0.0", true), (" ", true), ("", false), ("a", true)] {
            let z = s(src);
            assert_eq!(to_bool(&z), want, "{src:?}");
            unsafe { z.ptr_dtor() };
        }
        assert!(!to_bool(&Zval::double(0.0)));
        assert!(!to_bool(&Zval::double(-0.0)));
        assert!(to_bool(&Zval::double(f64::NAN)));
        assert!(!to_bool(&Zval::NULL));
        let a = ZArray::new();
        let za = Zval::array(a);
        assert!(!to_bool(&za));
        unsafe {
            (*a).append(Zval::long(0));
        }
        assert!(to_bool(&za));
        assert_eq!(to_long(&za), 1);
        unsafe { za.ptr_dtor() };
    }

    #[test]
    fn string_conversion() {
        let _leaks = crate::value::LeakCheck::new();
        let mut o = Vec::new();
        for v in [Zval::NULL, Zval::FALSE, Zval::TRUE, Zval::long(-42), Zval::double(1.0), Zval::double(-0.0)] {
            append_string(&v, &mut o);
            o.push(b'|');
        }
        assert_eq!(o, b"||1|-42|1|-0|");
        let a = Zval::array(ZArray::new());
        let zs = to_zstring(&a);
        let zi = to_zstring(&Zval::long(7));
        let lit = ZString::new_immutable(b"lit");
        let zl = to_zstring(&Zval::string(lit));
        unsafe {
            assert_eq!((*zs).bytes(), b"Array");
            assert_eq!((*zi).bytes(), b"7");
            assert_eq!(zl, lit);
            ZString::free(zs);
            ZString::free(zi);
            ZString::free_immutable(lit);
            a.ptr_dtor();
        }
    }
}
