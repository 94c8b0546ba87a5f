//! Argument checks and coercions for builtins, with PHP 8's messages
//! (coercive mode: numeric strings convert, `null` is deprecated, a float
//! with a fraction to an int parameter is deprecated).

use crate::exec::{Thrown, Vm};
use crate::value::{convert, number, ZArray, Zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE};

/// `name() expects exactly 1 argument, 0 given` and friends.
#[inline]
pub fn count(vm: &mut Vm, name: &str, args: &[Zval], min: usize, max: usize) -> Result<(), Thrown> {
    let n = args.len();
    if n >= min && n <= max {
        return Ok(());
    }
    Err(count_error(vm, name, n, min, max))
}

#[cold]
#[inline(never)]
fn count_error(vm: &mut Vm, name: &str, n: usize, min: usize, max: usize) -> Thrown {
    let (how, want) = if min == max {
        ("exactly", min)
    } else if n < min {
        ("at least", min)
    } else {
        ("at most", max)
    };
    let msg = format!("{}() expects {} {} argument{}, {} given", name, how, want, if want == 1 { "" } else { "s" }, n);
    vm.throw_error("ArgumentCountError", &msg)
}

fn type_error(vm: &mut Vm, name: &str, n: usize, param: &str, want: &str, v: &Zval) -> Thrown {
    let msg = format!("{}(): Argument #{} (${}) must be of type {}, {} given", name, n, param, want, crate::exec::slow::call::zend_type_name(v));
    vm.throw_error("TypeError", &msg)
}

fn null_deprecated(vm: &mut Vm, name: &str, n: usize, param: &str, ty: &str) {
    vm.deprecated(&format!("{}(): Passing null to parameter #{} (${}) of type {} is deprecated", name, n, param, ty));
}

/// An `int` parameter.
#[inline]
pub fn long(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<i64, Thrown> {
    if v.kind() == IS_LONG {
        return Ok(v.lval());
    }
    long_slow(vm, name, n, param, v)
}

#[inline(never)]
fn long_slow(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<i64, Thrown> {
    let v = v.deref();
    match v.kind() {
        IS_LONG => Ok(v.lval()),
        IS_DOUBLE => float_to_long(vm, v.dval()).ok_or_else(|| type_error(vm, name, n, param, "int", v)),
        IS_FALSE | IS_TRUE => Ok((v.kind() == IS_TRUE) as i64),
        IS_NULL => {
            null_deprecated(vm, name, n, param, "int");
            Ok(0)
        }
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let p = convert::parse_numeric(unsafe { (*v.str()).bytes() });
            if let Some(i) = p.as_int_exact() {
                return Ok(i);
            }
            if let Some(d) = p.as_number_exact() {
                return float_to_long(vm, d).ok_or_else(|| type_error(vm, name, n, param, "int", v));
            }
            Err(type_error(vm, name, n, param, "int", v))
        }
        _ => Err(type_error(vm, name, n, param, "int", v)),
    }
}

fn float_to_long(vm: &mut Vm, d: f64) -> Option<i64> {
    if !d.is_finite() || d >= 9.223372036854775808e18 || d < -9.223372036854775808e18 {
        return None;
    }
    if d.fract() != 0.0 {
        let mut s = Vec::new();
        number::fmt_repr(d, &mut s);
        vm.deprecated(&format!("Implicit conversion from float {} to int loses precision", String::from_utf8_lossy(&s)));
    }
    Some(d as i64)
}

/// A `float` parameter.
pub fn double(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<f64, Thrown> {
    let v = v.deref();
    match v.kind() {
        IS_DOUBLE => Ok(v.dval()),
        IS_LONG => Ok(v.lval() as f64),
        IS_FALSE | IS_TRUE => Ok((v.kind() == IS_TRUE) as i64 as f64),
        IS_NULL => {
            null_deprecated(vm, name, n, param, "float");
            Ok(0.0)
        }
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let p = convert::parse_numeric(unsafe { (*v.str()).bytes() });
            p.as_number_exact().ok_or_else(|| type_error(vm, name, n, param, "float", v))
        }
        _ => Err(type_error(vm, name, n, param, "float", v)),
    }
}

/// An `int|float` parameter: the value as a number Zval.
#[inline]
pub fn number(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<Zval, Thrown> {
    if matches!(v.kind(), IS_LONG | IS_DOUBLE) {
        return Ok(*v);
    }
    number_slow(vm, name, n, param, v)
}

#[inline(never)]
fn number_slow(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<Zval, Thrown> {
    let v = v.deref();
    match v.kind() {
        IS_LONG | IS_DOUBLE => Ok(*v),
        IS_FALSE | IS_TRUE => Ok(Zval::long((v.kind() == IS_TRUE) as i64)),
        IS_NULL => {
            null_deprecated(vm, name, n, param, "int|float");
            Ok(Zval::long(0))
        }
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let p = convert::parse_numeric(unsafe { (*v.str()).bytes() });
            if let Some(i) = p.as_int_exact() {
                return Ok(Zval::long(i));
            }
            match p.as_number_exact() {
                Some(d) => Ok(Zval::double(d)),
                None => Err(type_error(vm, name, n, param, "int|float", v)),
            }
        }
        _ => Err(type_error(vm, name, n, param, "int|float", v)),
    }
}

/// A `string` parameter, as bytes.
pub fn string(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<Vec<u8>, Thrown> {
    let v = v.deref();
    match v.kind() {
        // SAFETY: string-kind values hold a live string.
        IS_STRING => Ok(unsafe { (*v.str()).bytes() }.to_vec()),
        IS_LONG | IS_DOUBLE | IS_FALSE | IS_TRUE => {
            let mut b = Vec::new();
            convert::append_string(v, &mut b);
            Ok(b)
        }
        IS_NULL => {
            null_deprecated(vm, name, n, param, "string");
            Ok(Vec::new())
        }
        // A Stringable object is its `__toString()` (Zend's
        // `zend_parse_arg_str_weak`); an exception it throws propagates.
        // SAFETY: object-kind values hold a live object.
        crate::value::IS_OBJECT if unsafe { (*(*v.obj()).class).magic.tostring.is_some() } => {
            // SAFETY: as above; the new string is ours.
            unsafe {
                let s = crate::exec::slow::object::object_to_string(vm, v.obj())?;
                let b = (*s).bytes().to_vec();
                Zval::string(s).ptr_dtor();
                Ok(b)
            }
        }
        _ => Err(type_error(vm, name, n, param, "string", v)),
    }
}

/// An `array` parameter.
pub fn array(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<*mut ZArray, Thrown> {
    let v = v.deref();
    if v.kind() == IS_ARRAY {
        return Ok(v.arr());
    }
    Err(type_error(vm, name, n, param, "array", v))
}

/// A `bool` parameter.
pub fn boolean(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Result<bool, Thrown> {
    let v = v.deref();
    match v.kind() {
        IS_ARRAY => Err(type_error(vm, name, n, param, "bool", v)),
        IS_NULL => {
            null_deprecated(vm, name, n, param, "bool");
            Ok(false)
        }
        _ => Ok(convert::to_bool(v)),
    }
}

/// A `string` parameter, borrowed when it is a string already (no copy).
pub fn str_ref<'a>(vm: &mut Vm, name: &str, n: usize, param: &str, v: &'a Zval) -> Result<std::borrow::Cow<'a, [u8]>, Thrown> {
    let d = v.deref();
    if d.kind() == IS_STRING {
        // SAFETY: string-kind values hold a live string; the argument keeps
        // it alive for the builtin's call.
        return Ok(std::borrow::Cow::Borrowed(unsafe { (*d.str()).bytes() }));
    }
    string(vm, name, n, param, v).map(std::borrow::Cow::Owned)
}
