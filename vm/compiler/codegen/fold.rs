//! Compile-time evaluation of constant sub-expressions, where Zend's
//! `zend_try_ct_eval_*` would fold them (and only where the result cannot
//! raise a diagnostic: those are left to run time, as Zend does).

use super::emit::{normalize_key, Key, Lit};
use crate::ops::Opcode;
use crate::value::compare;

/// PHP's string conversion of a constant (`precision=14` for floats).
pub fn to_str(l: &Lit) -> Option<Vec<u8>> {
    Some(match l {
        Lit::Null | Lit::Bool(false) => Vec::new(),
        Lit::Bool(true) => b"1".to_vec(),
        Lit::Long(i) => i.to_string().into_bytes(),
        Lit::Double(d) => double_to_str(*d)?,
        Lit::Str(s) => s.clone(),
        Lit::Array(_) => return None,
    })
}

/// `%.14G` as PHP prints floats in string context.
fn double_to_str(d: f64) -> Option<Vec<u8>> {
    if d.is_nan() {
        return Some(b"NAN".to_vec());
    }
    if d.is_infinite() {
        return Some(if d > 0.0 { b"INF".to_vec() } else { b"-INF".to_vec() });
    }
    if d == 0.0 {
        return Some(if d.is_sign_negative() { b"-0".to_vec() } else { b"0".to_vec() });
    }
    let sci = format!("{:.13e}", d);
    let (mant, exp) = sci.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    let s = if exp < -4 || exp >= 14 {
        let sign = if exp < 0 { '-' } else { '+' };
        let mut m = strip(mant);
        if !m.contains('.') {
            m.push_str(".0");
        }
        format!("{m}E{sign}{}", exp.abs())
    } else {
        strip(&format!("{:.*}", (13 - exp).max(0) as usize, d))
    };
    Some(s.into_bytes())
}

fn num(l: &Lit) -> Option<Lit> {
    match l {
        Lit::Long(_) | Lit::Double(_) => Some(l.clone()),
        Lit::Null | Lit::Bool(false) => Some(Lit::Long(0)),
        Lit::Bool(true) => Some(Lit::Long(1)),
        // A fully numeric string converts silently (Zend folds "1" + "1").
        Lit::Str(s) => match crate::value::convert::parse_numeric(s) {
            crate::value::convert::NumericParse::Numeric(crate::value::convert::Number::Int(i)) => Some(Lit::Long(i)),
            crate::value::convert::NumericParse::Numeric(crate::value::convert::Number::Float(d)) => Some(Lit::Double(d)),
            _ => None,
        },
        _ => None,
    }
}

fn as_f(l: &Lit) -> f64 {
    match l {
        Lit::Long(i) => *i as f64,
        Lit::Double(d) => *d,
        _ => 0.0,
    }
}

/// `zend_try_ct_eval_binary_op`: folds unless `zend_binary_op_produces_error`
/// says the operation may warn or throw (left to run time, as Zend does).
pub fn binary(op: Opcode, a: &Lit, b: &Lit) -> Option<Lit> {
    use Opcode::*;
    match op {
        Concat | FastConcat => {
            let mut s = to_str(a)?;
            s.extend(to_str(b)?);
            return Some(Lit::Str(s));
        }
        // Comparisons never produce errors on constants, arrays included.
        IsIdentical => return Some(Lit::Bool(identical(a, b))),
        IsNotIdentical => return Some(Lit::Bool(!identical(a, b))),
        BoolXor => return Some(Lit::Bool(a.truthy() ^ b.truthy())),
        IsEqual | IsNotEqual | IsSmaller | IsSmallerOrEqual | Spaceship => {
            let c = loose_compare(a, b);
            return Some(match op {
                IsEqual => Lit::Bool(c == 0),
                IsNotEqual => Lit::Bool(c != 0),
                IsSmaller => Lit::Bool(c < 0),
                IsSmallerOrEqual => Lit::Bool(c <= 0),
                _ => Lit::Long(c.signum() as i64),
            });
        }
        _ => {}
    }
    match (a, b) {
        // Array union.
        (Lit::Array(x), Lit::Array(y)) if op == Add => {
            let mut out = x.clone();
            for (k, v) in y {
                if !out.iter().any(|(key, _)| key == k) {
                    out.push((k.clone(), v.clone()));
                }
            }
            return Some(Lit::Array(out));
        }
        (Lit::Array(_), _) | (_, Lit::Array(_)) => return None,
        // Two strings under | & ^ are a bytewise operation, not numbers.
        (Lit::Str(x), Lit::Str(y)) if matches!(op, BwOr | BwAnd | BwXor) => return Some(Lit::Str(bytewise(op, x, y))),
        _ => {}
    }
    // Only numbers (and null/bool and numeric strings, which convert
    // silently) from here on.
    let (mut x, mut y) = (num(a)?, num(b)?);
    if matches!(op, Sl | Sr | BwOr | BwAnd | BwXor | Mod) {
        // Operations on integers: a float must convert without loss.
        x = long_compatible(&x)?;
        y = long_compatible(&y)?;
    }
    Some(match op {
        Add | Sub | Mul => match (&x, &y) {
            (Lit::Long(i), Lit::Long(j)) => {
                let r = match op {
                    Add => i.checked_add(*j),
                    Sub => i.checked_sub(*j),
                    _ => i.checked_mul(*j),
                };
                match r {
                    Some(r) => Lit::Long(r),
                    None => Lit::Double(match op {
                        Add => *i as f64 + *j as f64,
                        Sub => *i as f64 - *j as f64,
                        _ => *i as f64 * *j as f64,
                    }),
                }
            }
            _ => {
                let (p, q) = (as_f(&x), as_f(&y));
                Lit::Double(match op {
                    Add => p + q,
                    Sub => p - q,
                    _ => p * q,
                })
            }
        },
        Div => {
            if as_f(&y) == 0.0 {
                return None;
            }
            match (&x, &y) {
                (Lit::Long(i), Lit::Long(j)) if !(*j == -1 && *i == i64::MIN) && i % j == 0 => Lit::Long(i / j),
                _ => Lit::Double(as_f(&x) / as_f(&y)),
            }
        }
        Mod => match (&x, &y) {
            (Lit::Long(i), Lit::Long(j)) if *j != 0 => Lit::Long(if *j == -1 { 0 } else { i % j }),
            _ => return None,
        },
        Pow => match (&x, &y) {
            // PHP's square-and-multiply, with its float fallback on overflow.
            (Lit::Long(i), Lit::Long(j)) => {
                let z = crate::value::arith::pow_long(*i, *j);
                if z.is_long() {
                    Lit::Long(z.lval())
                } else {
                    Lit::Double(z.dval())
                }
            }
            _ => Lit::Double(as_f(&x).powf(as_f(&y))),
        },
        Sl | Sr | BwOr | BwAnd | BwXor => match (&x, &y) {
            (Lit::Long(i), Lit::Long(j)) => Lit::Long(match op {
                // A negative shift throws ArithmeticError at run time.
                Sl | Sr if *j < 0 => return None,
                Sl if *j >= 64 => 0,
                Sr if *j >= 64 => {
                    if *i < 0 {
                        -1
                    } else {
                        0
                    }
                }
                Sl => i.wrapping_shl(*j as u32),
                Sr => i >> j,
                BwOr => i | j,
                BwAnd => i & j,
                _ => i ^ j,
            }),
            _ => return None,
        },
        _ => return None,
    })
}

/// `zend_is_op_long_compatible`: an integer, or a float that is one.
fn long_compatible(l: &Lit) -> Option<Lit> {
    match l {
        Lit::Long(_) => Some(l.clone()),
        Lit::Double(d) if d.is_finite() && d.fract() == 0.0 && *d >= -9.223_372_036_854_775_808e18 && *d < 9.223_372_036_854_775_808e18 => Some(Lit::Long(*d as i64)),
        _ => None,
    }
}

/// `|`, `&`, `^` of two strings, byte by byte (`|` keeps the longer tail).
fn bytewise(op: Opcode, x: &[u8], y: &[u8]) -> Vec<u8> {
    let (long, short) = if x.len() >= y.len() { (x, y) } else { (y, x) };
    match op {
        Opcode::BwOr => long.iter().enumerate().map(|(i, &c)| c | short.get(i).copied().unwrap_or(0)).collect(),
        Opcode::BwAnd => short.iter().zip(long).map(|(a, b)| a & b).collect(),
        _ => short.iter().zip(long).map(|(a, b)| a ^ b).collect(),
    }
}

/// `a <=> b` for constants, as the executor compares them.
fn loose_compare(a: &Lit, b: &Lit) -> i32 {
    let (x, y) = (a.to_zval(), b.to_zval());
    let c = compare::compare(&x, &y);
    // SAFETY: both values were made above and are owned here.
    unsafe {
        x.ptr_dtor();
        y.ptr_dtor();
    }
    c
}

/// `===` of constants: same kind and value; arrays with the same pairs in
/// the same order.
fn identical(a: &Lit, b: &Lit) -> bool {
    match (a, b) {
        (Lit::Array(x), Lit::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|((k, v), (l, w))| k == l && identical(v, w)),
        (Lit::Double(x), Lit::Double(y)) => x == y,
        _ => a == b,
    }
}

/// `zval_get_long` of a scalar constant (arrays: none).
pub fn num_of(l: &Lit) -> Option<i64> {
    Some(match l {
        Lit::Null | Lit::Bool(false) => 0,
        Lit::Bool(true) => 1,
        Lit::Long(i) => *i,
        Lit::Double(d) => crate::value::convert::dval_to_lval(*d),
        Lit::Str(s) => crate::value::convert::str_to_long(s),
        Lit::Array(_) => return None,
    })
}

/// `-c` / `+c` (Zend multiplies by -1 / 1).
pub fn unary_pm(minus: bool, a: &Lit) -> Option<Lit> {
    binary(Opcode::Mul, a, &Lit::Long(if minus { -1 } else { 1 }))
}

/// `~c` (`zend_unary_op_produces_error`: a string is negated byte by
/// byte; a float must be an integer; null, bools and arrays throw).
pub fn bw_not(a: &Lit) -> Option<Lit> {
    match a {
        Lit::Str(s) => Some(Lit::Str(s.iter().map(|c| !c).collect())),
        Lit::Long(_) | Lit::Double(_) => match long_compatible(a)? {
            Lit::Long(i) => Some(Lit::Long(!i)),
            _ => None,
        },
        _ => None,
    }
}

/// An array key from a constant, as `zend_handle_numeric_op` / array literals normalize it.
pub fn key_of(l: &Lit) -> Option<Key> {
    Some(match l {
        Lit::Long(i) => Key::Int(*i),
        Lit::Str(s) => normalize_key(s),
        Lit::Bool(b) => Key::Int(*b as i64),
        Lit::Null => Key::Str(Vec::new()),
        Lit::Double(d) if d.is_finite() && d.fract() == 0.0 => Key::Int(*d as i64),
        _ => return None,
    })
}

/// Appends `(key, value)` to a constant array with PHP's next-index rule.
pub fn array_add(items: &mut Vec<(Key, Lit)>, key: Option<Key>, v: Lit) -> Option<()> {
    let key = match key {
        Some(k) => k,
        None => {
            let next = items
                .iter()
                .filter_map(|(k, _)| if let Key::Int(i) = k { Some(*i) } else { None })
                .max()
                .map_or(Some(0), |m| m.checked_add(1))?;
            Key::Int(next)
        }
    };
    if let Some(slot) = items.iter_mut().find(|(k, _)| *k == key) {
        slot.1 = v;
    } else {
        items.push((key, v));
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_loose_comparisons_of_mixed_kinds() {
        let s = |b: &str| Lit::Str(b.as_bytes().to_vec());
        assert_eq!(binary(Opcode::IsEqual, &Lit::Long(0), &s("")), Some(Lit::Bool(false)));
        assert_eq!(binary(Opcode::IsEqual, &Lit::Null, &Lit::Bool(false)), Some(Lit::Bool(true)));
        assert_eq!(binary(Opcode::IsEqual, &s("1e3"), &s("1000")), Some(Lit::Bool(true)));
        assert_eq!(binary(Opcode::IsSmaller, &s("abc"), &Lit::Long(1)), Some(Lit::Bool(false)));
        assert_eq!(binary(Opcode::Spaceship, &s("a"), &s("b")), Some(Lit::Long(-1)));
    }

    #[test]
    fn folds_like_zend() {
        assert_eq!(binary(Opcode::Add, &Lit::Long(1), &Lit::Long(6)), Some(Lit::Long(7)));
        assert_eq!(binary(Opcode::Pow, &Lit::Long(2), &Lit::Long(3)), Some(Lit::Long(8)));
        assert_eq!(binary(Opcode::Div, &Lit::Long(1), &Lit::Long(0)), None);
        assert_eq!(binary(Opcode::Div, &Lit::Long(6), &Lit::Long(4)), Some(Lit::Double(1.5)));
        assert_eq!(binary(Opcode::Concat, &Lit::Str(b"a".to_vec()), &Lit::Long(1)), Some(Lit::Str(b"a1".to_vec())));
        assert_eq!(to_str(&Lit::Double(0.1 + 0.2)), Some(b"0.3".to_vec()));
        assert_eq!(to_str(&Lit::Double(1e20)), Some(b"1.0E+20".to_vec()));
        assert_eq!(to_str(&Lit::Double(1.5e-7)), Some(b"1.5E-7".to_vec()));
    }
}
