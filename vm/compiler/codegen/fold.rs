//! Compile-time evaluation of constant sub-expressions, where Zend's
//! `zend_try_ct_eval_*` would fold them (and only where the result cannot
//! raise a diagnostic: those are left to run time, as Zend does).

use super::emit::{normalize_key, Key, Lit};
use crate::ops::Opcode;
use crate::value::{compare, ZString, Zval};

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

/// `zend_try_ct_eval_binary_op` for the cases that cannot warn or throw.
pub fn binary(op: Opcode, a: &Lit, b: &Lit) -> Option<Lit> {
    use Opcode::*;
    match op {
        Concat | FastConcat => {
            let mut s = to_str(a)?;
            s.extend(to_str(b)?);
            return Some(Lit::Str(s));
        }
        IsIdentical => return Some(Lit::Bool(identical(a, b)?)),
        IsNotIdentical => return Some(Lit::Bool(!identical(a, b)?)),
        BoolXor => return Some(Lit::Bool(a.truthy() ^ b.truthy())),
        IsEqual | IsNotEqual | IsSmaller | IsSmallerOrEqual | Spaceship
            if !matches!((a, b), (Lit::Long(_) | Lit::Double(_), Lit::Long(_) | Lit::Double(_))) =>
        {
            // Mixed scalar kinds: PHP 8's loose comparison, by the run-time
            // rules (it never warns or throws on scalars).
            let c = loose_compare(a, b)?;
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
    // Two strings under | & ^ are a bytewise operation, not numbers.
    if matches!(op, BwOr | BwAnd | BwXor) && matches!((a, b), (Lit::Str(_), Lit::Str(_))) {
        return None;
    }
    // Only numbers (and null/bool and numeric strings, which convert
    // silently) from here on.
    let (x, y) = (num(a)?, num(b)?);
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
                Sl if (0..64).contains(j) => i.wrapping_shl(*j as u32),
                Sr if (0..64).contains(j) => i >> j,
                Sl | Sr => return None,
                BwOr => i | j,
                BwAnd => i & j,
                _ => i ^ j,
            }),
            _ => return None,
        },
        IsEqual | IsNotEqual | IsSmaller | IsSmallerOrEqual | Spaceship => {
            if !matches!((a, b), (Lit::Long(_) | Lit::Double(_), Lit::Long(_) | Lit::Double(_))) {
                return None;
            }
            let (p, q) = (as_f(&x), as_f(&y));
            let c = match (&x, &y) {
                (Lit::Long(i), Lit::Long(j)) => i.cmp(j),
                _ => match p.partial_cmp(&q) {
                    Some(c) => c,
                    // NAN: every comparison is false, <=> says 1 (ZEND_UNCOMPARABLE).
                    None => {
                        return Some(match op {
                            IsNotEqual => Lit::Bool(true),
                            Spaceship => Lit::Long(1),
                            _ => Lit::Bool(false),
                        })
                    }
                },
            };
            match op {
                IsEqual => Lit::Bool(c.is_eq()),
                IsNotEqual => Lit::Bool(!c.is_eq()),
                IsSmaller => Lit::Bool(c.is_lt()),
                IsSmallerOrEqual => Lit::Bool(c.is_le()),
                _ => Lit::Long(c as i64),
            }
        }
        _ => return None,
    })
}

/// `a <=> b` for scalar constants, as the executor compares them.
fn loose_compare(a: &Lit, b: &Lit) -> Option<i32> {
    fn zval(l: &Lit) -> Option<Zval> {
        Some(match l {
            Lit::Null => Zval::NULL,
            Lit::Bool(b) => Zval::bool(*b),
            Lit::Long(i) => Zval::long(*i),
            Lit::Double(d) => Zval::double(*d),
            Lit::Str(s) => Zval::string(ZString::new(s)),
            Lit::Array(_) => return None,
        })
    }
    let x = zval(a)?;
    let Some(y) = zval(b) else {
        // SAFETY: `x` is a value made above, owned here.
        unsafe { x.ptr_dtor() };
        return None;
    };
    let c = compare::compare(&x, &y);
    // SAFETY: both values were made above and are owned here.
    unsafe {
        x.ptr_dtor();
        y.ptr_dtor();
    }
    Some(c)
}

fn identical(a: &Lit, b: &Lit) -> Option<bool> {
    Some(match (a, b) {
        (Lit::Array(_), _) | (_, Lit::Array(_)) => return None,
        (Lit::Double(x), Lit::Double(y)) => x == y,
        _ => a == b,
    })
}

/// `-c` / `+c` (Zend multiplies by -1 / 1).
pub fn unary_pm(minus: bool, a: &Lit) -> Option<Lit> {
    binary(Opcode::Mul, a, &Lit::Long(if minus { -1 } else { 1 }))
}

pub fn bw_not(a: &Lit) -> Option<Lit> {
    match a {
        Lit::Long(i) => Some(Lit::Long(!i)),
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
