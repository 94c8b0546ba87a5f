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

// ------------------------------------------------- declared builtins (#[builtin])
//
// The conversions `#[builtin("stub")]` wrappers call, one per stub type:
// Zend's `zend_parse_arg_*` (coercive mode, `zend_parse_arg_*_weak`) or,
// when the calling code declared `strict_types=1`, exact kinds only (an
// int still widens to float). Messages name the called function as the
// frame has it (an alias by its own name, a method as `Class::name`).

pub use crate::runtime::function::BuiltinArg;

/// Kinds a union-typed parameter accepts (`array|string`: ARRAY | STRING).
pub const ACCEPT_NULL: u32 = 1 << IS_NULL;
pub const ACCEPT_FALSE: u32 = 1 << IS_FALSE;
pub const ACCEPT_TRUE: u32 = 1 << IS_TRUE;
pub const ACCEPT_BOOL: u32 = ACCEPT_FALSE | ACCEPT_TRUE;
pub const ACCEPT_INT: u32 = 1 << IS_LONG;
pub const ACCEPT_FLOAT: u32 = 1 << IS_DOUBLE;
pub const ACCEPT_STRING: u32 = 1 << IS_STRING;
pub const ACCEPT_ARRAY: u32 = 1 << IS_ARRAY;
pub const ACCEPT_OBJECT: u32 = 1 << crate::value::IS_OBJECT;

/// Whether the code calling the running builtin declared `strict_types=1`
/// (Zend's `ZEND_ARG_USES_STRICT_TYPES()`: the caller's op array; a
/// builtin called back from another builtin is always coercive).
pub fn caller_strict(vm: &Vm) -> bool {
    let cur = vm.cur;
    if cur.is_null() {
        return false;
    }
    // SAFETY: `vm.cur` is the running builtin's frame; its `prev` is null
    // or a live frame whose `func` is null or a live function.
    unsafe {
        let prev = (*cur).prev;
        !prev.is_null() && !(*prev).func.is_null() && (*(*prev).func).op.strict_types
    }
}

/// The running builtin's name as PHP's messages print it
/// (`get_active_function_name`, with `Class::` for methods).
pub fn active_function_name(vm: &Vm) -> String {
    let cur = vm.cur;
    if cur.is_null() || unsafe { (*cur).func.is_null() } {
        return "unknown".into();
    }
    // SAFETY: checked above: a live frame with a live function; its entry
    // is null or live, and a method's scope is a bound class.
    unsafe {
        let op = &(*(*cur).func).op;
        let name = String::from_utf8_lossy(&op.name);
        let entry = (*cur).entry;
        let scope = if entry.is_null() { core::ptr::null() } else { (*entry).scope };
        if !scope.is_null() {
            format!("{}::{}", (*scope).name_str(), name)
        } else if !op.scope_name.is_empty() {
            format!("{}::{}", String::from_utf8_lossy(&op.scope_name), name)
        } else {
            name.into_owned()
        }
    }
}

/// `f() expects exactly 2 arguments, 1 given` (ArgumentCountError).
#[cold]
#[inline(never)]
pub fn arity_error(vm: &mut Vm, given: usize, min: usize, max: usize) -> Thrown {
    let name = active_function_name(vm);
    let (how, want) = if min == max {
        ("exactly", min)
    } else if given < min {
        ("at least", min)
    } else {
        ("at most", max)
    };
    let msg = format!("{}() expects {} {} argument{}, {} given", name, how, want, if want == 1 { "" } else { "s" }, given);
    vm.throw_error("ArgumentCountError", &msg)
}

/// `f(): Argument #n ($p) must be of type T, U given` (TypeError).
#[cold]
#[inline(never)]
pub fn arg_type_error(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Thrown {
    let want = if a.ty.is_empty() { "mixed" } else { a.ty };
    let msg = format!("{}(): Argument #{} (${}) must be of type {}, {} given", active_function_name(vm), n, a.name, want, crate::exec::slow::call::zend_type_name(v));
    vm.throw_error("TypeError", &msg)
}

/// A `null` for a scalar parameter: deprecated in coercive mode, an
/// error in strict mode. `Ok` lets the caller use the type's zero value.
#[cold]
#[inline(never)]
fn null_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<(), Thrown> {
    if caller_strict(vm) {
        return Err(arg_type_error(vm, n, a, v));
    }
    let msg = format!("{}(): Passing null to parameter #{} (${}) of type {} is deprecated", active_function_name(vm), n, a.name, a.ty.trim_start_matches('?'));
    vm.deprecated(&msg);
    Ok(())
}

/// An `int` parameter.
#[inline]
pub fn int_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<i64, Thrown> {
    if v.kind() == IS_LONG {
        return Ok(v.lval());
    }
    int_arg_slow(vm, n, a, v)
}

#[cold]
#[inline(never)]
fn int_arg_slow(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<i64, Thrown> {
    let v = v.deref();
    if v.kind() == IS_LONG {
        return Ok(v.lval());
    }
    if v.kind() == IS_NULL {
        return null_arg(vm, n, a, v).map(|()| 0);
    }
    if caller_strict(vm) {
        return Err(arg_type_error(vm, n, a, v));
    }
    match v.kind() {
        IS_DOUBLE => float_to_long(vm, v.dval()).ok_or_else(|| arg_type_error(vm, n, a, v)),
        IS_FALSE | IS_TRUE => Ok((v.kind() == IS_TRUE) as i64),
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let p = convert::parse_numeric(unsafe { (*v.str()).bytes() });
            if let Some(i) = p.as_int_exact() {
                return Ok(i);
            }
            if let Some(d) = p.as_number_exact() {
                return float_to_long(vm, d).ok_or_else(|| arg_type_error(vm, n, a, v));
            }
            Err(arg_type_error(vm, n, a, v))
        }
        _ => Err(arg_type_error(vm, n, a, v)),
    }
}

/// A `float` parameter (an int widens in both modes).
#[inline]
pub fn float_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<f64, Thrown> {
    match v.kind() {
        IS_DOUBLE => Ok(v.dval()),
        IS_LONG => Ok(v.lval() as f64),
        _ => float_arg_slow(vm, n, a, v),
    }
}

#[cold]
#[inline(never)]
fn float_arg_slow(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<f64, Thrown> {
    let v = v.deref();
    match v.kind() {
        IS_DOUBLE => return Ok(v.dval()),
        IS_LONG => return Ok(v.lval() as f64),
        IS_NULL => return null_arg(vm, n, a, v).map(|()| 0.0),
        _ => {}
    }
    if caller_strict(vm) {
        return Err(arg_type_error(vm, n, a, v));
    }
    match v.kind() {
        IS_FALSE | IS_TRUE => Ok((v.kind() == IS_TRUE) as i64 as f64),
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let p = convert::parse_numeric(unsafe { (*v.str()).bytes() });
            p.as_number_exact().ok_or_else(|| arg_type_error(vm, n, a, v))
        }
        _ => Err(arg_type_error(vm, n, a, v)),
    }
}

/// An `int|float` parameter: an int or float value.
#[inline]
pub fn number_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<Zval, Thrown> {
    if matches!(v.kind(), IS_LONG | IS_DOUBLE) {
        return Ok(*v);
    }
    number_arg_slow(vm, n, a, v)
}

#[cold]
#[inline(never)]
fn number_arg_slow(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<Zval, Thrown> {
    let v = v.deref();
    match v.kind() {
        IS_LONG | IS_DOUBLE => return Ok(*v),
        IS_NULL => return null_arg(vm, n, a, v).map(|()| Zval::long(0)),
        _ => {}
    }
    if caller_strict(vm) {
        return Err(arg_type_error(vm, n, a, v));
    }
    match v.kind() {
        IS_FALSE | IS_TRUE => Ok(Zval::long((v.kind() == IS_TRUE) as i64)),
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let p = convert::parse_numeric(unsafe { (*v.str()).bytes() });
            if let Some(i) = p.as_int_exact() {
                return Ok(Zval::long(i));
            }
            p.as_number_exact().map(Zval::double).ok_or_else(|| arg_type_error(vm, n, a, v))
        }
        _ => Err(arg_type_error(vm, n, a, v)),
    }
}

/// A `string` parameter: borrowed when the argument is a string.
#[inline]
pub fn str_arg<'v>(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &'v Zval) -> Result<std::borrow::Cow<'v, [u8]>, Thrown> {
    let d = v.deref();
    if d.kind() == IS_STRING {
        // SAFETY: string-kind values hold a live string; the argument keeps
        // it alive for the builtin's call.
        return Ok(std::borrow::Cow::Borrowed(unsafe { (*d.str()).bytes() }));
    }
    str_arg_slow(vm, n, a, d).map(std::borrow::Cow::Owned)
}

#[cold]
#[inline(never)]
fn str_arg_slow(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<Vec<u8>, Thrown> {
    if v.kind() == IS_NULL {
        return null_arg(vm, n, a, v).map(|()| Vec::new());
    }
    if caller_strict(vm) {
        return Err(arg_type_error(vm, n, a, v));
    }
    match v.kind() {
        IS_LONG | IS_DOUBLE | IS_FALSE | IS_TRUE => {
            let mut b = Vec::new();
            convert::append_string(v, &mut b);
            Ok(b)
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
        _ => Err(arg_type_error(vm, n, a, v)),
    }
}

/// A `bool` parameter.
#[inline]
pub fn bool_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<bool, Thrown> {
    match v.kind() {
        IS_TRUE => Ok(true),
        IS_FALSE => Ok(false),
        _ => bool_arg_slow(vm, n, a, v),
    }
}

#[cold]
#[inline(never)]
fn bool_arg_slow(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<bool, Thrown> {
    let v = v.deref();
    match v.kind() {
        IS_TRUE => return Ok(true),
        IS_FALSE => return Ok(false),
        IS_NULL => return null_arg(vm, n, a, v).map(|()| false),
        _ => {}
    }
    if caller_strict(vm) || !matches!(v.kind(), IS_LONG | IS_DOUBLE | IS_STRING) {
        return Err(arg_type_error(vm, n, a, v));
    }
    Ok(convert::to_bool(v))
}

/// An `array` parameter.
#[inline]
pub fn array_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<*mut ZArray, Thrown> {
    let d = v.deref();
    if d.kind() == IS_ARRAY {
        return Ok(d.arr());
    }
    Err(arg_type_error(vm, n, a, d))
}

/// An `object` parameter.
pub fn object_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<*mut crate::value::object::ZObject, Thrown> {
    let d = v.deref();
    if d.kind() == crate::value::IS_OBJECT {
        return Ok(d.obj());
    }
    Err(arg_type_error(vm, n, a, d))
}

/// A parameter of a class or interface type (`Closure $callback`).
pub fn class_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<*mut crate::value::object::ZObject, Thrown> {
    let d = v.deref();
    if d.kind() == crate::value::IS_OBJECT {
        let want = a.ty.trim_start_matches('?').as_bytes().to_ascii_lowercase();
        // SAFETY: object-kind values hold a live object with a bound class.
        if unsafe { crate::value::object::ZObject::class(d.obj()).is_subclass_of_name(&want) } {
            return Ok(d.obj());
        }
    }
    Err(arg_type_error(vm, n, a, d))
}

/// A `callable` parameter, checked: `must be a valid callback, …`.
pub fn callable_arg<'v>(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &'v Zval) -> Result<&'v Zval, Thrown> {
    callable_resolved_arg(vm, n, a, v)?;
    Ok(v)
}

/// A `callable` parameter, resolved.
pub fn callable_resolved_arg(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &Zval) -> Result<super::callback::Callable, Thrown> {
    let name = active_function_name(vm);
    super::callback::arg(vm, &name, n, a.name, v.deref(), a.ty.starts_with('?'))
}

/// A `mixed` (or untyped) parameter.
#[inline(always)]
pub fn mixed_arg<'v>(_vm: &mut Vm, _n: usize, _a: &BuiltinArg, v: &'v Zval) -> Result<&'v Zval, Thrown> {
    Ok(v)
}

/// A parameter typed as a union of plain kinds (`array|string`): the value
/// as given when its kind is in `accept`; otherwise, in coercive mode, the
/// scalar conversions Zend's `zend_verify_scalar_type_hint` tries (int,
/// then float, then string, then bool) can't be applied to a borrowed
/// argument, so the body receives the value and converts it itself; only
/// kinds no scalar conversion reaches are refused here.
pub fn union_arg<'v>(vm: &mut Vm, n: usize, a: &BuiltinArg, v: &'v Zval, accept: u32) -> Result<&'v Zval, Thrown> {
    let d = v.deref();
    let k = d.kind();
    if accept & (1 << k) != 0 {
        return Ok(v);
    }
    let scalar_target = accept & (ACCEPT_INT | ACCEPT_FLOAT | ACCEPT_STRING | ACCEPT_BOOL) != 0;
    let scalar_source = matches!(k, IS_LONG | IS_DOUBLE | IS_STRING | IS_FALSE | IS_TRUE | IS_NULL)
        || (k == crate::value::IS_OBJECT && accept & ACCEPT_STRING != 0);
    if scalar_target && scalar_source && !caller_strict(vm) {
        if k == IS_NULL {
            null_arg(vm, n, a, d)?;
        }
        return Ok(v);
    }
    Err(arg_type_error(vm, n, a, d))
}

/// A default written as PHP source in a stub (`STR_PAD_RIGHT`,
/// `ENT_QUOTES | ENT_SUBSTITUTE`, `PHP_INT_MAX`, `[]`, `-1`, `"x"`),
/// evaluated when the argument was not passed.
#[cold]
#[inline(never)]
pub fn default_value(_vm: &mut Vm, src: &str) -> Zval {
    eval_default(src.trim()).unwrap_or(Zval::NULL)
}

fn eval_default(src: &str) -> Option<Zval> {
    let lc = src.to_ascii_lowercase();
    match lc.as_str() {
        "null" => return Some(Zval::NULL),
        "true" => return Some(Zval::TRUE),
        "false" => return Some(Zval::FALSE),
        "[]" => return Some(Zval::array(ZArray::new())),
        _ => {}
    }
    if let Some(parts) = split_top(src, '|') {
        let mut bits = 0;
        for p in parts {
            bits |= eval_default(p.trim())?.lval();
        }
        return Some(Zval::long(bits));
    }
    if let Some(parts) = split_top(src, '&') {
        let mut bits = -1;
        for p in parts {
            bits &= eval_default(p.trim())?.lval();
        }
        return Some(Zval::long(bits));
    }
    if let Some(rest) = src.strip_prefix('~') {
        return Some(Zval::long(!eval_default(rest.trim())?.lval()));
    }
    if let Some(rest) = src.strip_prefix('-') {
        let v = eval_default(rest.trim())?;
        return Some(if v.kind() == IS_DOUBLE { Zval::double(-v.dval()) } else { Zval::long(v.lval().wrapping_neg()) });
    }
    if let Ok(n) = src.parse::<i64>() {
        return Some(Zval::long(n));
    }
    if let Ok(f) = src.parse::<f64>() {
        return Some(Zval::double(f));
    }
    if src.starts_with('"') || src.starts_with('\'') {
        return Some(Zval::string(crate::value::ZString::new(&unquote(src))));
    }
    super::constant(src.trim_start_matches('\\').as_bytes())
}

/// `a | b | c` split at top level (outside quotes), or `None` with one part.
fn split_top(src: &str, sep: char) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quote = None;
    for (i, c) in src.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, c) if c == sep => {
                parts.push(&src[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if parts.is_empty() {
        return None;
    }
    parts.push(&src[start..]);
    Some(parts)
}

/// A quoted default's bytes (PHP's double-quoted escapes).
fn unquote(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let (q, body) = (b[0], &b[1..b.len().saturating_sub(1).max(1)]);
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\\' && i + 1 < body.len() && q == b'"' {
            let e = body[i + 1];
            i += 2;
            let c = match e {
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'v' => 0x0b,
                b'f' => 0x0c,
                b'0' => 0,
                b'\\' | b'"' | b'$' => e,
                _ => {
                    out.push(b'\\');
                    e
                }
            };
            out.push(c);
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

/// Releases a default made by `default_value` (after the body ran).
#[inline(always)]
pub fn free_default(v: Zval) {
    // SAFETY: `v` is UNDEF or the owned value `default_value` made.
    unsafe { v.ptr_dtor() }
}

/// How a converted argument is lent to a body that takes a reference.
pub trait Borrow<'a> {
    type Out: ?Sized;
    fn borrow_arg(&'a self) -> &'a Self::Out;
}

impl<'a> Borrow<'a> for std::borrow::Cow<'_, [u8]> {
    type Out = [u8];
    fn borrow_arg(&'a self) -> &'a [u8] {
        self
    }
}

impl<'a> Borrow<'a> for &Zval {
    type Out = Zval;
    fn borrow_arg(&'a self) -> &'a Zval {
        self
    }
}

impl<'a> Borrow<'a> for *mut ZArray {
    type Out = ZArray;
    fn borrow_arg(&'a self) -> &'a ZArray {
        // SAFETY: the pointer came from an argument (or a default the
        // wrapper holds), which stays alive until the body returns.
        unsafe { &**self }
    }
}

/// How a converted argument is given to a body that takes it owned.
pub trait Owned {
    type Out;
    fn owned_arg(self) -> Self::Out;
}

impl Owned for std::borrow::Cow<'_, [u8]> {
    type Out = Vec<u8>;
    fn owned_arg(self) -> Vec<u8> {
        self.into_owned()
    }
}

/// A body's result, stored into the return slot.
pub trait IntoRet {
    fn into_ret(self, ret: &mut Zval);
}

impl IntoRet for () {
    #[inline(always)]
    fn into_ret(self, _ret: &mut Zval) {}
}

impl IntoRet for Zval {
    #[inline(always)]
    fn into_ret(self, ret: &mut Zval) {
        *ret = self;
    }
}

impl IntoRet for i64 {
    #[inline(always)]
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::long(self);
    }
}

impl IntoRet for f64 {
    #[inline(always)]
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::double(self);
    }
}

impl IntoRet for bool {
    #[inline(always)]
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::bool(self);
    }
}

impl IntoRet for Vec<u8> {
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::string(crate::value::ZString::new(&self));
    }
}

impl IntoRet for &[u8] {
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::string(crate::value::ZString::new(self));
    }
}

impl IntoRet for String {
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::string(crate::value::ZString::new(self.as_bytes()));
    }
}

impl IntoRet for *mut crate::value::ZString {
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::string(self);
    }
}

impl IntoRet for *mut ZArray {
    fn into_ret(self, ret: &mut Zval) {
        *ret = Zval::array(self);
    }
}

impl<T: IntoRet> IntoRet for Option<T> {
    #[inline(always)]
    fn into_ret(self, ret: &mut Zval) {
        match self {
            Some(v) => v.into_ret(ret),
            None => *ret = Zval::NULL,
        }
    }
}

/// `T|false` results: `Err(False)` is PHP's `false`.
#[derive(Clone, Copy, Debug)]
pub struct False;

impl<T: IntoRet> IntoRet for Result<T, False> {
    #[inline(always)]
    fn into_ret(self, ret: &mut Zval) {
        match self {
            Ok(v) => v.into_ret(ret),
            Err(False) => *ret = Zval::FALSE,
        }
    }
}
