//! PHP 8.2 comparison (`zend_compare`, `==`, `===`, `<=>`).
//!
//! Results are normalized to -1, 0, 1. "Uncomparable" pairs (NaN, arrays
//! with different keys) give 1 in both directions, as in Zend, so `<`, `>`
//! and `==` are all false for them.
//!
//! Objects compare property by property with objects of their class; with
//! a string through `__toString()`; otherwise an object is greater (null
//! and bools compare by truth).

use core::cmp::Ordering;

use super::array::{KeyRef, ZArray};
use super::convert::{scan_numeric, to_bool, Number};
use super::number;
use super::string::ZString;
use super::zval::*;

/// Comparing arrays that contain themselves: Zend stops with the fatal error
/// "Nesting level too deep - recursive dependency?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NestingError;

pub const NESTING_MESSAGE: &str = "Nesting level too deep - recursive dependency?";

#[inline(always)]
fn ord(o: Ordering) -> i32 {
    o as i32
}

/// `ZEND_THREEWAY_COMPARE` on doubles: NaN on either side gives 1.
#[inline(always)]
fn threeway_f(a: f64, b: f64) -> i32 {
    if a == b {
        0
    } else if a < b {
        -1
    } else {
        1
    }
}

/// `ZEND_NORMALIZE_BOOL` of a double difference (NaN gives 0).
#[inline(always)]
fn normalize_f(d: f64) -> i32 {
    if d > 0.0 {
        1
    } else if d < 0.0 {
        -1
    } else {
        0
    }
}

/// `zend_binary_strcmp`, normalized: bytes, then length.
#[inline]
pub fn binary_strcmp(a: &[u8], b: &[u8]) -> i32 {
    ord(a.cmp(b))
}

/// `zendi_smart_strcmp`: numeric strings compare as numbers, others bytewise.
pub fn smart_str_compare(a: &[u8], b: &[u8]) -> i32 {
    if let (Some(s1), Some(s2)) = (scan_numeric(a, false), scan_numeric(b, false)) {
        match (s1.num, s2.num) {
            (Number::Int(x), Number::Int(y)) => return ord(x.cmp(&y)),
            (n1, n2) => {
                let d1 = match n1 {
                    Number::Float(f) => f,
                    Number::Int(x) => x as f64,
                };
                let d2 = match n2 {
                    Number::Float(f) => f,
                    Number::Int(x) => x as f64,
                };
                // Integers overflowed to the same side with equal float values:
                // the float compare would be lossy, compare the text instead.
                let same_oflow = s1.oflow != 0 && s1.oflow == s2.oflow && d1 - d2 == 0.0;
                if !same_oflow {
                    match (n1, n2) {
                        (Number::Int(_), _) if s2.oflow != 0 => return -(s2.oflow as i32),
                        (_, Number::Int(_)) if s1.oflow != 0 => return s1.oflow as i32,
                        (Number::Float(_), Number::Float(_)) if d1 == d2 && !d1.is_finite() => {}
                        _ => return normalize_f(d1 - d2),
                    }
                }
            }
        }
    }
    binary_strcmp(a, b)
}

/// `zend_fast_equal_strings` / `zendi_smart_streq`: `"1" == "01"`,
/// `"10" == "1e1"`, `"abc" == "ABC"` is false.
#[inline]
pub fn smart_str_equals(a: &ZString, b: &ZString) -> bool {
    if core::ptr::eq(a, b) {
        return true;
    }
    let (x, y) = (a.bytes(), b.bytes());
    // A string starting with a byte above '9' cannot be numeric, so the
    // smart comparison would fall back to the bytes anyway.
    if x.first().map_or(false, |&c| c > b'9') || y.first().map_or(false, |&c| c > b'9') {
        return x == y;
    }
    smart_str_compare(x, y) == 0
}

fn compare_long_to_string(l: i64, s: &[u8]) -> i32 {
    match scan_numeric(s, false) {
        Some(sc) => match sc.num {
            Number::Int(x) => ord(l.cmp(&x)),
            Number::Float(f) => threeway_f(l as f64, f),
        },
        None => {
            let mut buf = [0u8; 20];
            binary_strcmp(number::fmt_i64(l, &mut buf), s)
        }
    }
}

fn compare_double_to_string(d: f64, s: &[u8]) -> i32 {
    match scan_numeric(s, false) {
        Some(sc) => match sc.num {
            Number::Int(x) => normalize_f(d - x as f64),
            Number::Float(f) => {
                if d == f {
                    0
                } else {
                    normalize_f(d - f)
                }
            }
        },
        None => {
            let mut out = Vec::with_capacity(24);
            number::fmt_precision(d, 14, &mut out);
            binary_strcmp(&out, s)
        }
    }
}

#[inline(always)]
fn sbytes(z: &Zval) -> &[u8] {
    // SAFETY: callers checked the kind is IS_STRING, which holds a live string.
    unsafe { (*z.str()).bytes() }
}

/// `zend_compare` (`<=>`), with a cycle reported as an error.
pub fn try_compare(a: &Zval, b: &Zval) -> Result<i32, NestingError> {
    let (a, b) = (a.deref(), b.deref());
    let (ka, kb) = (a.kind(), b.kind());
    Ok(match (ka, kb) {
        (IS_LONG, IS_LONG) => ord(a.lval().cmp(&b.lval())),
        (IS_LONG, IS_DOUBLE) => threeway_f(a.lval() as f64, b.dval()),
        (IS_DOUBLE, IS_LONG) => threeway_f(a.dval(), b.lval() as f64),
        (IS_DOUBLE, IS_DOUBLE) => threeway_f(a.dval(), b.dval()),
        (IS_ARRAY, IS_ARRAY) => compare_arrays(a.arr(), b.arr())?,
        (IS_STRING, IS_STRING) => {
            if a.str() == b.str() {
                0
            } else {
                smart_str_compare(sbytes(a), sbytes(b))
            }
        }
        (IS_UNDEF | IS_NULL, IS_STRING) => -((!sbytes(b).is_empty()) as i32),
        (IS_STRING, IS_UNDEF | IS_NULL) => (!sbytes(a).is_empty()) as i32,
        (IS_LONG, IS_STRING) => compare_long_to_string(a.lval(), sbytes(b)),
        (IS_STRING, IS_LONG) => -compare_long_to_string(b.lval(), sbytes(a)),
        (IS_DOUBLE, IS_STRING) => {
            if a.dval().is_nan() {
                1
            } else {
                compare_double_to_string(a.dval(), sbytes(b))
            }
        }
        (IS_STRING, IS_DOUBLE) => {
            if b.dval().is_nan() {
                1
            } else {
                -compare_double_to_string(b.dval(), sbytes(a))
            }
        }
        _ => {
            // null/false/true against anything: compare truth values.
            if ka <= IS_FALSE {
                -(to_bool(b) as i32)
            } else if ka == IS_TRUE {
                (!to_bool(b)) as i32
            } else if kb <= IS_FALSE {
                to_bool(a) as i32
            } else if kb == IS_TRUE {
                -((!to_bool(a)) as i32)
            } else if ka == IS_OBJECT && kb == IS_OBJECT {
                compare_objects(a.obj(), b.obj())?
            } else if ka == IS_OBJECT && kb == IS_STRING {
                // zend_std_compare_objects: the object cast to the other
                // operand's kind (`__toString()`), else uncomparable.
                match crate::exec::slow::object::string_for_compare(a.obj()) {
                    // SAFETY: a string we own one reference to; `b` holds a live string.
                    Some(s) => unsafe {
                        let r = smart_str_compare((*s).bytes(), sbytes(b));
                        Zval::string(s).ptr_dtor();
                        r
                    },
                    None => 1,
                }
            } else if ka == IS_STRING && kb == IS_OBJECT {
                match crate::exec::slow::object::string_for_compare(b.obj()) {
                    // SAFETY: as above.
                    Some(s) => unsafe {
                        let r = smart_str_compare(sbytes(a), (*s).bytes());
                        Zval::string(s).ptr_dtor();
                        r
                    },
                    None => -1,
                }
            } else if ka == IS_OBJECT {
                1
            } else if kb == IS_OBJECT {
                -1
            } else if ka == IS_ARRAY {
                1
            } else if kb == IS_ARRAY {
                -1
            } else {
                // Pending kinds (objects vs scalars, resources): uncomparable.
                1
            }
        }
    })
}

/// `zend_compare` (`<=>`). A cycle (Zend's fatal "Nesting level too deep")
/// compares as 1; the VM should use `try_compare` to report it.
#[inline]
pub fn compare(a: &Zval, b: &Zval) -> i32 {
    try_compare(a, b).unwrap_or(1)
}

/// `==`.
#[inline]
pub fn is_equal(a: &Zval, b: &Zval) -> bool {
    try_is_equal(a, b).unwrap_or(false)
}

pub fn try_is_equal(a: &Zval, b: &Zval) -> Result<bool, NestingError> {
    let (a, b) = (a.deref(), b.deref());
    match (a.kind(), b.kind()) {
        (IS_LONG, IS_LONG) => Ok(a.lval() == b.lval()),
        (IS_DOUBLE, IS_DOUBLE) => Ok(a.dval() == b.dval()),
        // SAFETY: both are string-kind zvals holding live strings.
        (IS_STRING, IS_STRING) => Ok(unsafe { smart_str_equals(&*a.str(), &*b.str()) }),
        _ => Ok(try_compare(a, b)? == 0),
    }
}

/// `zend_std_compare_objects`: the same object is equal; objects of
/// different classes are uncomparable (1); else property by property, in
/// slot order, then the dynamic properties as arrays.
fn compare_objects(x: *mut super::object::ZObject, y: *mut super::object::ZObject) -> Result<i32, NestingError> {
    use super::object::ZObject;
    super::guard::check();
    if x == y {
        return Ok(0);
    }
    // SAFETY: object-kind zvals hold live objects; the guard is released on
    // every path below.
    unsafe {
        // Enum cases are singletons and compare only by identity
        // (`zend_objects_not_comparable`).
        if (*x).class != (*y).class || (*(*x).class).flags & crate::runtime::class::CLASS_ENUM != 0 {
            return Ok(1);
        }
        if let Some(r) = crate::exec::slow::closure::compare(x, y) {
            return Ok(r);
        }
        if (*x).header.is_protected() {
            return Err(NestingError);
        }
        (*x).header.type_info |= GC_PROTECTED;
        let r = (|| {
            for i in 0..(*x).num_slots {
                let (a, b) = (&*ZObject::slot(x, i), &*ZObject::slot(y, i));
                match (a.is_undef(), b.is_undef()) {
                    (true, true) => continue,
                    (true, false) | (false, true) => return Ok(1),
                    _ => {}
                }
                let r = try_compare(a, b)?;
                if r != 0 {
                    return Ok(r);
                }
            }
            let (dx, dy) = ((*x).dynamic, (*y).dynamic);
            let nx = if dx.is_null() { 0 } else { (*dx).len() };
            let ny = if dy.is_null() { 0 } else { (*dy).len() };
            if nx == 0 && ny == 0 {
                return Ok(0);
            }
            if nx == 0 || ny == 0 {
                return Ok(if nx > ny { 1 } else { -1 });
            }
            compare_arrays(dx, dy)
        })();
        (*x).header.type_info &= !GC_PROTECTED;
        r
    }
}

/// `zend_hash_compare(.., ordered = false)` with `zend_compare` on values.
fn compare_arrays(x: *mut ZArray, y: *mut ZArray) -> Result<i32, NestingError> {
    super::guard::check();
    if x == y {
        return Ok(0);
    }
    // SAFETY: array-kind zvals hold live arrays; the guard is released on
    // every path below.
    unsafe {
        if !ZArray::enter_recursion(x) {
            return Err(NestingError);
        }
        let r = compare_arrays_inner(&*x, &*y);
        ZArray::leave_recursion(x);
        r
    }
}

fn compare_arrays_inner(x: &ZArray, y: &ZArray) -> Result<i32, NestingError> {
    if x.len() != y.len() {
        return Ok(if x.len() > y.len() { 1 } else { -1 });
    }
    for (k, v1) in x.iter() {
        let v2 = match k {
            KeyRef::Int(i) => y.find_int(i),
            KeyRef::Str(s) => y.find_str(s),
        };
        let Some(v2) = v2 else { return Ok(1) };
        // SAFETY: `find_*` returns a live slot of `y`.
        let r = try_compare(v1, unsafe { &*v2 })?;
        if r != 0 {
            return Ok(r);
        }
    }
    Ok(0)
}

/// `===`: same kind and value; arrays need the same key/value pairs in the
/// same order with identical values. References are looked through.
pub fn is_identical(a: &Zval, b: &Zval) -> bool {
    try_is_identical(a, b).unwrap_or(false)
}

pub fn try_is_identical(a: &Zval, b: &Zval) -> Result<bool, NestingError> {
    let (a, b) = (a.deref(), b.deref());
    if a.kind() != b.kind() {
        return Ok(false);
    }
    Ok(match a.kind() {
        IS_UNDEF | IS_NULL | IS_FALSE | IS_TRUE => true,
        IS_LONG => a.lval() == b.lval(),
        IS_DOUBLE => a.dval() == b.dval(),
        // SAFETY: both are string-kind zvals holding live strings.
        IS_STRING => unsafe { (*a.str()).equals(&*b.str()) },
        IS_ARRAY => a.arr() == b.arr() || identical_arrays(a.arr(), b.arr())?,
        IS_OBJECT => a.obj() == b.obj(),
        _ => a.lval() == b.lval(),
    })
}

fn identical_arrays(x: *mut ZArray, y: *mut ZArray) -> Result<bool, NestingError> {
    super::guard::check();
    // SAFETY: live arrays; the guard is released on every path.
    unsafe {
        if !ZArray::enter_recursion(x) {
            return Err(NestingError);
        }
        let r = identical_arrays_inner(&*x, &*y);
        ZArray::leave_recursion(x);
        r
    }
}

fn identical_arrays_inner(x: &ZArray, y: &ZArray) -> Result<bool, NestingError> {
    if x.len() != y.len() {
        return Ok(false);
    }
    for ((k1, v1), (k2, v2)) in x.iter().zip(y.iter()) {
        let same_key = match (k1, k2) {
            (KeyRef::Int(i), KeyRef::Int(j)) => i == j,
            (KeyRef::Str(s), KeyRef::Str(t)) => s.bytes() == t.bytes(),
            _ => false,
        };
        if !same_key || !try_is_identical(v1, v2)? {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ZRef;

    fn s(b: &str) -> Zval {
        Zval::string(ZString::new(b.as_bytes()))
    }
    fn arr(items: &[(Option<&str>, i64)]) -> Zval {
        let a = ZArray::new();
        for &(k, v) in items {
            // SAFETY: fresh array.
            unsafe {
                match k {
                    None => {
                        (*a).append(Zval::long(v));
                    }
                    Some(k) => {
                        let ks = ZString::new(k.as_bytes());
                        (*a).update_str(ks, Zval::long(v));
                        (*ks).header.refcount -= 1; // the array is now its only owner
                    }
                }
            }
        }
        Zval::array(a)
    }

    fn values() -> Vec<Zval> {
        vec![
            Zval::NULL,
            Zval::FALSE,
            Zval::TRUE,
            Zval::long(0),
            Zval::long(1),
            Zval::long(-1),
            Zval::double(0.0),
            Zval::double(1.5),
            Zval::double(f64::NAN),
            Zval::double(f64::INFINITY),
            s(""),
            s("0"),
            s("1"),
            s("01"),
            s("1e1"),
            s("10"),
            s("abc"),
            s("abd"),
            s(" 1"),
            s("1 "),
            s("1abc"),
            s("0.0"),
            s("-0"),
            s("1e1000"),
            arr(&[]),
            arr(&[(None, 0)]),
            arr(&[(None, 1)]),
            arr(&[(Some("a"), 1)]),
            arr(&[(None, 1), (None, 2)]),
        ]
    }

    /// Row i, pair j: `$a <=> $b` as < = >, then `$a == $b` as e/n.
    /// Recorded with php 8.2 -n over the same 29 values.
    const TABLE: &[&str] = &[
        "=e=e<n=e<n<n=e<n<n<n=e<n<n<n<n<n<n<n<n<n<n<n<n<n=e<n<n<n<n",
        "=e=e<n=e<n<n=e<n<n<n=e=e<n<n<n<n<n<n<n<n<n<n<n<n=e<n<n<n<n",
        ">n>n=e>n=e=e>n=e=e=e>n>n=e=e=e=e=e=e=e=e=e=e=e=e>n=e=e=e=e",
        "=e=e<n=e<n>n=e<n>n<n>n=e<n<n<n<n<n<n<n<n<n=e=e<n<n<n<n<n<n",
        ">n>n=e>n=e>n>n<n>n<n>n>n=e=e<n<n<n<n=e=e<n>n>n<n<n<n<n<n<n",
        ">n>n=e<n<n=e<n<n>n<n>n<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n",
        "=e=e<n=e<n>n=e<n>n<n>n=e<n<n<n<n<n<n<n<n<n=e=e<n<n<n<n<n<n",
        ">n>n=e>n>n>n>n=e>n<n>n>n>n>n<n<n<n<n>n>n<n>n>n<n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n=e>n>n>n>n>n>n<n<n>n>n>n>n>n=e<n<n<n<n<n",
        "=e=e<n<n<n<n<n<n>n<n=e<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n<n",
        ">n=e<n=e<n>n=e<n>n<n>n=e<n<n<n<n<n<n<n<n<n=e=e<n<n<n<n<n<n",
        ">n>n=e>n=e>n>n<n>n<n>n>n=e=e<n<n<n<n=e=e<n>n>n<n<n<n<n<n<n",
        ">n>n=e>n=e>n>n<n>n<n>n>n=e=e<n<n<n<n=e=e<n>n>n<n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n<n>n>n>n>n=e=e<n<n>n>n>n>n>n<n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n<n>n>n>n>n=e=e<n<n>n>n<n>n>n<n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n>n>n>n>n>n>n>n=e<n>n>n>n>n>n>n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n>n>n>n>n>n>n>n>n=e>n>n>n>n>n>n<n<n<n<n<n",
        ">n>n=e>n=e>n>n<n>n<n>n>n=e=e<n<n<n<n=e=e<n>n>n<n<n<n<n<n<n",
        ">n>n=e>n=e>n>n<n>n<n>n>n=e=e<n<n<n<n=e=e<n>n>n<n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n<n>n>n>n>n<n>n<n<n>n>n=e>n>n<n<n<n<n<n<n",
        ">n>n=e=e<n>n=e<n>n<n>n=e<n<n<n<n<n<n<n<n<n=e=e<n<n<n<n<n<n",
        ">n>n=e=e<n>n=e<n>n<n>n=e<n<n<n<n<n<n<n<n<n=e=e<n<n<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n=e>n>n>n>n>n>n<n<n>n>n>n>n>n=e<n<n<n<n<n",
        "=e=e<n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n=e<n<n<n<n",
        ">n>n=e>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n=e<n>n<n",
        ">n>n=e>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n=e>n<n",
        ">n>n=e>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n=e<n",
        ">n>n=e>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n>n=e",
    ];

    #[test]
    fn comparison_table_matches_php() {
        let _leaks = crate::value::LeakCheck::new();
        let vs = values();
        assert_eq!(vs.len(), TABLE.len());
        for (i, a) in vs.iter().enumerate() {
            let mut row = String::new();
            for b in vs.iter() {
                let c = compare(a, b);
                row.push(match c {
                    -1 => '<',
                    0 => '=',
                    1 => '>',
                    _ => '?',
                });
                row.push(if is_equal(a, b) { 'e' } else { 'n' });
            }
            assert_eq!(row, TABLE[i], "row {i}");
        }
        for v in vs {
            unsafe { v.ptr_dtor() };
        }
    }

    #[test]
    fn smart_strings() {
        let _leaks = crate::value::LeakCheck::new();
        let cases: &[(&str, &str, i32)] = &[
            ("1", "01", 0),
            ("10", "1e1", 0),
            ("abc", "abd", -1),
            ("abc", "ab", 1),
            ("1e1000", "1e1000", 0),
            ("1e1000", "2e1000", -1), // both INF: compared as text
            ("99999999999999999999", "99999999999999999998", 1), // same overflow side
            ("9223372036854775808", "1", 1),
            ("1", "9223372036854775808", -1),
            (" 1", "1", 0),
            ("1.0", "1", 0),
            ("-0", "0", 0),
            ("0x10", "16", -1),
        ];
        for &(a, b, want) in cases {
            assert_eq!(smart_str_compare(a.as_bytes(), b.as_bytes()), want, "{a:?} <=> {b:?}");
        }
    }

    #[test]
    fn identity() {
        let _leaks = crate::value::LeakCheck::new();
        let a = arr(&[(Some("x"), 1), (Some("y"), 2)]);
        let b = arr(&[(Some("y"), 2), (Some("x"), 1)]);
        let c = arr(&[(Some("x"), 1), (Some("y"), 2)]);
        assert!(is_equal(&a, &b));
        assert!(!is_identical(&a, &b));
        assert!(is_identical(&a, &c));
        assert!(!is_identical(&Zval::long(1), &Zval::double(1.0)));
        assert!(is_identical(&Zval::double(0.0), &Zval::double(-0.0)));
        assert!(!is_identical(&Zval::double(f64::NAN), &Zval::double(f64::NAN)));
        let (s1, s2) = (s("a"), s("a"));
        assert!(is_identical(&s1, &s2));
        let one = arr(&[(None, 1)]);
        let onef = {
            let a = ZArray::new();
            unsafe { (*a).append(Zval::double(1.0)) };
            Zval::array(a)
        };
        assert!(is_equal(&one, &onef));
        assert!(!is_identical(&one, &onef));
        for v in [a, b, c, s1, s2, one, onef] {
            unsafe { v.ptr_dtor() };
        }
    }

    /// `$x = [&$x]`-shaped cycle: returns the array and the reference box,
    /// with one extra owner of the box for the caller.
    unsafe fn cycle() -> (*mut ZArray, *mut ZRef) {
        let a = ZArray::new();
        let r = ZRef::new(Zval::array(a));
        (*a).append(Zval::reference(r));
        (*r).header.refcount += 1;
        (a, r)
    }

    #[test]
    fn recursive_arrays_report_nesting() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            let (x, rx) = cycle();
            let (y, ry) = cycle();
            let (zx, zy) = (Zval::array(x), Zval::array(y));
            assert_eq!(try_compare(&zx, &zy), Err(NestingError));
            assert_eq!(try_is_identical(&zx, &zy), Err(NestingError));
            assert_eq!(try_compare(&zx, &zx), Ok(0));
            assert!(!(*x).header.is_protected() && !(*y).header.is_protected());
            for (a, r) in [(x, rx), (y, ry)] {
                (*a).remove_int(0);
                Zval::reference(r).ptr_dtor();
            }
        }
    }
}
