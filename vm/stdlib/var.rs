//! ext/standard var functions: var_dump, print_r, var_export, type tests.

use super::args;
use crate::exec::{Thrown, Vm};
use crate::value::{convert, print, ZString, Zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE};
use crate::value::object::ZObject;

pub fn var_dump(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "var_dump", a, 1, usize::MAX)?;
    let mut out = Vec::new();
    for v in a {
        print::var_dump(v, &mut out);
    }
    vm.echo(&out);
    Ok(())
}

fn print_or_return(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, f: fn(&Zval, &mut Vec<u8>)) -> Result<(), Thrown> {
    args::count(vm, name, a, 1, 2)?;
    let ret = match a.get(1) {
        Some(v) => args::boolean(vm, name, 2, "return", v)?,
        None => false,
    };
    let mut out = Vec::new();
    f(&a[0], &mut out);
    if ret {
        *r = Zval::string(ZString::new(&out));
    } else {
        vm.echo(&out);
        *r = Zval::TRUE;
    }
    Ok(())
}

pub fn print_r(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    print_or_return(vm, "print_r", a, r, print::print_r)
}

pub fn var_export(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    print_or_return(vm, "var_export", a, r, |v, out| {
        print::var_export(v, out);
    })?;
    if r.kind() == IS_TRUE {
        *r = Zval::NULL;
    }
    Ok(())
}

pub fn gettype(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "gettype", a, 1, 1)?;
    let t: &[u8] = match a[0].deref().kind() {
        IS_NULL => b"NULL",
        IS_FALSE | IS_TRUE => b"boolean",
        IS_LONG => b"integer",
        IS_DOUBLE => b"double",
        IS_STRING => b"string",
        IS_ARRAY => b"array",
        _ => b"object",
    };
    *r = Zval::string(ZString::new(t));
    Ok(())
}

macro_rules! is_kind {
    ($name:ident, $php:literal, $test:expr) => {
        pub fn $name(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
            args::count(vm, $php, a, 1, 1)?;
            let k = a[0].deref().kind();
            *r = Zval::bool($test(k));
            Ok(())
        }
    };
}

is_kind!(is_int, "is_int", |k| k == IS_LONG);
is_kind!(is_float, "is_float", |k| k == IS_DOUBLE);
is_kind!(is_string, "is_string", |k| k == IS_STRING);
is_kind!(is_bool, "is_bool", |k| k == IS_TRUE || k == IS_FALSE);
is_kind!(is_array, "is_array", |k| k == IS_ARRAY);
is_kind!(is_null, "is_null", |k| k == IS_NULL);

pub fn is_numeric(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "is_numeric", a, 1, 1)?;
    let v = a[0].deref();
    *r = Zval::bool(match v.kind() {
        IS_LONG | IS_DOUBLE => true,
        // SAFETY: string-kind values hold a live string.
        IS_STRING => convert::parse_numeric(unsafe { (*v.str()).bytes() }).as_number_exact().is_some(),
        _ => false,
    });
    Ok(())
}

pub fn intval(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "intval", a, 1, 2)?;
    let base = match a.get(1) {
        Some(b) => args::long(vm, "intval", 2, "base", b)?,
        None => 10,
    };
    let v = a[0].deref();
    if base == 10 || v.kind() != IS_STRING {
        *r = Zval::long(convert::to_long(v));
        return Ok(());
    }
    // SAFETY: string-kind values hold a live string.
    let s = unsafe { (*v.str()).bytes() };
    *r = Zval::long(strtol(s, base));
    Ok(())
}

/// C's `strtol` as `intval($s, $base)` uses it (base 0 detects 0x/0o/0b/0 prefixes).
fn strtol(s: &[u8], base: i64) -> i64 {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let mut base = base;
    let rest = &s[i..];
    let lower = |k: usize| rest.get(k).map(|c| c.to_ascii_lowercase());
    if (base == 0 || base == 16) && rest.first() == Some(&b'0') && lower(1) == Some(b'x') {
        i += 2;
        base = 16;
    } else if (base == 0 || base == 2) && rest.first() == Some(&b'0') && lower(1) == Some(b'b') {
        i += 2;
        base = 2;
    } else if base == 0 {
        base = if rest.first() == Some(&b'0') { 8 } else { 10 };
    }
    if !(2..=36).contains(&base) {
        return 0;
    }
    let mut acc: i64 = 0;
    let mut overflow = false;
    while i < s.len() {
        let d = match (s[i] as char).to_digit(36) {
            Some(d) if (d as i64) < base => d as i64,
            _ => break,
        };
        match acc.checked_mul(base).and_then(|x| if neg { x.checked_sub(d) } else { x.checked_add(d) }) {
            Some(x) => acc = x,
            None => overflow = true,
        }
        i += 1;
    }
    if overflow {
        return if neg { i64::MIN } else { i64::MAX };
    }
    acc
}

pub fn floatval(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "floatval", a, 1, 1)?;
    *r = Zval::double(convert::to_double(a[0].deref()));
    Ok(())
}

pub fn strval(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "strval", a, 1, 1)?;
    let mut b = Vec::new();
    crate::exec::slow::arith::to_string_into(vm, &a[0], &mut b);
    *r = Zval::string(ZString::new(&b));
    Ok(())
}

pub fn boolval(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "boolval", a, 1, 1)?;
    *r = Zval::bool(convert::to_bool(a[0].deref()));
    Ok(())
}

/// The value a constant may hold: scalars, null and arrays of them.
fn constant_value_ok(v: &Zval) -> bool {
    !matches!(v.deref().kind(), crate::value::IS_OBJECT)
}

pub fn define(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "define", a, 2, 3)?;
    let name = args::string(vm, "define", 1, "constant_name", &a[0])?;
    if let Some(ci) = a.get(2) {
        if args::boolean(vm, "define", 3, "case_insensitive", ci)? {
            vm.warning("define(): Argument #3 ($case_insensitive) is ignored since declaration of case-insensitive constants is no longer supported");
        }
    }
    let name = name.strip_prefix(b"\\").map(<[u8]>::to_vec).unwrap_or(name);
    if vm.constants.contains_key(&name) || crate::stdlib::constant(&name).is_some() {
        vm.warning(&format!("Constant {} already defined", String::from_utf8_lossy(&name)));
        *r = Zval::FALSE;
        return Ok(());
    }
    if !constant_value_ok(&a[1]) {
        return Err(vm.throw_error("TypeError", "define(): Argument #2 ($value) cannot be an object, stdClass given"));
    }
    vm.constants.insert(name, a[1].copy_deref());
    *r = Zval::TRUE;
    Ok(())
}

pub fn defined(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "defined", a, 1, 1)?;
    let name = args::string(vm, "defined", 1, "constant_name", &a[0])?;
    let name = name.strip_prefix(b"\\").unwrap_or(&name);
    if let Some(p) = name.windows(2).position(|w| w == b"::") {
        // A class constant, looked up silently from the caller's scope.
        let (cn, k) = (&name[..p], &name[p + 2..]);
        // SAFETY: classes are bound for the request; the caller's frame is live.
        *r = Zval::bool(unsafe {
            let scope = crate::exec::slow::object::scope_of_caller(vm);
            crate::runtime::classes::find_class(vm, cn).and_then(|c| (*c).consts.get(k).copied()).is_some_and(|cell| crate::exec::slow::object::can_see((*cell).flags, (*cell).scope, scope))
        });
        return Ok(());
    }
    *r = Zval::bool(vm.constants.contains_key(name) || crate::stdlib::constant(name).is_some());
    Ok(())
}

pub fn constant(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "constant", a, 1, 1)?;
    let name = args::string(vm, "constant", 1, "name", &a[0])?;
    let name = name.strip_prefix(b"\\").unwrap_or(&name);
    if let Some(p) = name.windows(2).position(|w| w == b"::") {
        let (cn, k) = (&name[..p], &name[p + 2..]);
        // SAFETY: classes are bound for the request; the caller's frame is live.
        unsafe {
            let c = crate::exec::slow::object::lookup_class(vm, cn)?;
            let scope = crate::exec::slow::object::scope_of_caller(vm);
            *r = crate::exec::slow::object::class_constant_in(vm, c, k, scope)?;
        }
        return Ok(());
    }
    if let Some(v) = vm.constants.get(name) {
        *r = v.copy_value();
        return Ok(());
    }
    if let Some(v) = crate::stdlib::constant(name) {
        *r = v;
        return Ok(());
    }
    let msg = format!("Undefined constant \"{}\"", String::from_utf8_lossy(name));
    Err(vm.throw_error("Error", &msg))
}

is_kind!(is_object, "is_object", |k| k == crate::value::IS_OBJECT);
is_kind!(is_resource, "is_resource", |k| k == crate::value::IS_RESOURCE);
is_kind!(is_scalar, "is_scalar", |k| matches!(k, IS_LONG | IS_DOUBLE | IS_STRING | IS_TRUE | IS_FALSE));
/// `is_iterable`/`is_countable`: arrays, and objects of classes
/// implementing the interface.
fn array_or_instance(vm: &mut Vm, name: &str, iface: &[u8], a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, name, a, 1, 1)?;
    let v = a[0].deref();
    // SAFETY: an object-kind value holds a live object.
    let ok = v.is_array() || (v.is_object() && unsafe { (*(*v.obj()).class).is_subclass_of_name(iface) });
    *r = Zval::bool(ok);
    Ok(())
}

pub fn is_iterable(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    array_or_instance(vm, "is_iterable", b"traversable", a, r)
}

pub fn is_countable(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    array_or_instance(vm, "is_countable", b"countable", a, r)
}

pub fn is_callable(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "is_callable", a, 1, 3)?;
    let ok = super::callback::resolve(vm, &a[0]).is_ok();
    if let Some(name) = a.get(2) {
        let v = a[0].deref();
        let mut b = Vec::new();
        if v.kind() == IS_STRING {
            convert::append_string(v, &mut b);
        } else if v.is_array() {
            b.extend_from_slice(b"Array");
        }
        super::set_ref(name, Zval::string(ZString::new(&b)));
    }
    *r = Zval::bool(ok);
    Ok(())
}

pub fn function_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "function_exists", a, 1, 1)?;
    let name = args::string(vm, "function_exists", 1, "function", &a[0])?;
    *r = Zval::bool(!name.is_empty() && vm.find_function(&name).is_some());
    Ok(())
}

pub fn get_debug_type(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "get_debug_type", a, 1, 1)?;
    let v = a[0].deref();
    // An object's type is its class (an anonymous one as `P@anonymous`).
    // SAFETY: object-kind values hold a live object of a bound class.
    let name = if v.is_object() { unsafe { ZObject::class(v.obj()).display_name() } } else { super::type_name(v).as_bytes() };
    *r = Zval::string(ZString::new(name));
    Ok(())
}

pub fn settype(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "settype", a, 2, 2)?;
    let ty = args::string(vm, "settype", 2, "type", &a[1])?;
    let kind = match ty.to_ascii_lowercase().as_slice() {
        b"int" | b"integer" => 4,
        b"float" | b"double" => 5,
        b"string" => 6,
        b"bool" | b"boolean" => 3,
        b"array" => 7,
        b"null" => 1,
        _ => return Err(vm.throw_error("ValueError", "settype(): Argument #2 ($type) must be a valid type")),
    };
    let cur = a[0].copy_deref();
    let new = if kind == 1 {
        Zval::NULL
    } else if kind == 3 {
        Zval::bool(convert::to_bool(&cur))
    } else {
        crate::exec::slow::misc::cast_value(vm, &cur, kind)
    };
    // SAFETY: `cur` is owned.
    unsafe { cur.ptr_dtor() };
    super::set_ref(&a[0], new);
    *r = Zval::TRUE;
    Ok(())
}

pub fn call_user_func(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "call_user_func", a, 1, usize::MAX)?;
    let cb = super::callback::arg(vm, "call_user_func", 1, "callback", &a[0], false)?;
    // Named arguments pass through to the callback.
    // SAFETY: `vm.cur` is this builtin's frame.
    let extra = unsafe { crate::exec::slow::named::take_extra(vm, vm.cur) };
    let Some(extra) = extra else {
        *r = cb.call(vm, &a[1..])?;
        return Ok(());
    };
    // SAFETY: `extra` is an array owned here, released after the call.
    let named = unsafe { crate::exec::slow::named::named_pairs(extra.arr()) };
    let res = cb.call_named(vm, &a[1..], &named);
    // SAFETY: as above.
    unsafe { extra.ptr_dtor() };
    *r = res?;
    Ok(())
}

pub fn call_user_func_array(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "call_user_func_array", a, 2, 2)?;
    let cb = super::callback::arg(vm, "call_user_func_array", 1, "callback", &a[0], false)?;
    call_with_array(vm, "call_user_func_array", cb, &a[1], r)
}

/// `forward_static_call()` / `forward_static_call_array()`: the callable,
/// with the calling method's `static` forwarded.
fn forwarded_callable(vm: &mut Vm, name: &str, cb: &Zval) -> Result<super::callback::Callable, Thrown> {
    let mut c = super::callback::arg(vm, name, 1, "callback", cb, false)?;
    // SAFETY: the builtin's frame and its live caller.
    let caller_static = unsafe {
        let f = vm.cur;
        let prev = if f.is_null() { f } else { (*f).prev };
        if prev.is_null() || (*prev).entry.is_null() || (*(*prev).entry).scope.is_null() {
            return Err(vm.throw_error("Error", &format!("Cannot call {name}() when no class scope is active")));
        }
        let this = (*prev).this_obj();
        if !this.is_null() {
            (*this).class as *const crate::runtime::class::Class
        } else if !(*prev).scope.is_null() {
            (*prev).scope
        } else {
            (*(*prev).entry).scope
        }
    };
    c.forward_static(caller_static);
    Ok(c)
}

pub fn forward_static_call(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "forward_static_call", a, 1, usize::MAX)?;
    let cb = forwarded_callable(vm, "forward_static_call", &a[0])?;
    *r = cb.call(vm, &a[1..])?;
    Ok(())
}

pub fn forward_static_call_array(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "forward_static_call_array", a, 2, 2)?;
    let cb = forwarded_callable(vm, "forward_static_call_array", &a[0])?;
    call_with_array(vm, "forward_static_call_array", cb, &a[1], r)
}

/// Calls `cb` with the elements of array argument #2.
fn call_with_array(vm: &mut Vm, name: &str, cb: super::callback::Callable, args_v: &Zval, r: &mut Zval) -> Result<(), Thrown> {
    let arr = args::array(vm, name, 2, "args", args_v)?;
    let hold = args_v.copy_deref();
    // SAFETY: `hold` keeps the array alive.
    let mut list: Vec<Zval> = Vec::new();
    let mut named: Vec<(Vec<u8>, Zval)> = Vec::new();
    // SAFETY: as above.
    for (k, v) in unsafe { (*arr).iter() } {
        match k {
            crate::value::KeyRef::Str(k) => named.push((k.bytes().to_vec(), *v)),
            _ if !named.is_empty() => {
                // SAFETY: `hold` is ours.
                unsafe { hold.ptr_dtor() };
                return Err(vm.throw_error("Error", "Cannot use positional argument after named argument during unpacking"));
            }
            _ => list.push(*v),
        }
    }
    let res = cb.call_named(vm, &list, &named);
    // SAFETY: `hold` is ours.
    unsafe { hold.ptr_dtor() };
    *r = res?;
    Ok(())
}

/// The calling user function's frame.
pub(crate) fn caller_frame(vm: &Vm) -> Option<*mut crate::exec::Frame> {
    // SAFETY: `cur` is the running builtin's frame; `prev` its live caller.
    unsafe {
        let f = vm.cur;
        if f.is_null() {
            return None;
        }
        let prev = (*f).prev;
        if prev.is_null() || (*prev).func.is_null() || !(*(*prev).func).is_user() {
            return None;
        }
        Some(prev)
    }
}

/// The caller's arguments (current values of its parameters, then extras).
fn caller_args(vm: &mut Vm, name: &str) -> Result<Vec<Zval>, Thrown> {
    let Some(f) = caller_frame(vm) else {
        return Err(vm.throw_error("Error", &format!("{}() cannot be called from the global scope", name)));
    };
    // SAFETY: `f` is a live user frame.
    unsafe {
        let op = &(*(*f).func).op;
        if op.name.is_empty() || (*f).prev.is_null() && op.name.as_slice() == b"{main}" {
            return Err(vm.throw_error("Error", &format!("{}() cannot be called from the global scope", name)));
        }
        let n = (*f).num_args();
        let mut out = Vec::new();
        for i in 0..n.min(op.num_args) {
            let v = crate::exec::Frame::slot(f, i);
            out.push(if (*v).is_undef() { Zval::NULL } else { *(*v).deref() });
        }
        let (p, extra) = crate::exec::slow::call::extra_args(f);
        for i in 0..extra as usize {
            out.push(*(*p.add(i)).deref());
        }
        Ok(out)
    }
}

/// `register_tick_function(callable, ...args)`: runs at every tick of a
/// `declare(ticks=N)` region.
pub fn register_tick_function(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "register_tick_function", a, 1, usize::MAX)?;
    super::callback::arg(vm, "register_tick_function", 1, "callback", &a[0], false)?;
    vm.tick_ids += 1;
    let id = vm.tick_ids;
    vm.tick_functions.push(crate::exec::vm::TickFunction { id, call: a.iter().map(|v| v.copy_deref()).collect(), calling: false });
    *r = Zval::TRUE;
    Ok(())
}

/// `unregister_tick_function(callable)`: forgets every registration of it.
pub fn unregister_tick_function(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "unregister_tick_function", a, 1, 1)?;
    super::callback::arg(vm, "unregister_tick_function", 1, "callback", &a[0], false)?;
    let mut kept = Vec::new();
    for f in core::mem::take(&mut vm.tick_functions) {
        if crate::value::compare::is_equal(&f.call[0], a[0].deref()) {
            for v in f.call {
                // SAFETY: the list owned these values.
                unsafe { v.ptr_dtor() };
            }
        } else {
            kept.push(f);
        }
    }
    vm.tick_functions = kept;
    *r = Zval::NULL;
    Ok(())
}

pub fn get_defined_vars(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "get_defined_vars", a, 0, 0)?;
    let arr = crate::value::ZArray::new();
    if let Some(f) = caller_frame(vm) {
        // SAFETY: `f` is the live calling frame; its variables are valid values.
        unsafe {
            for (name, p) in crate::exec::symtab::defined(vm, f) {
                let k = crate::value::ZString::new(&name);
                // A reference held once is copied as its value (zend_array_dup).
                let v = if (*p).is_reference() && (*(*p).zref()).header.refcount == 1 { (*p).copy_deref() } else { (*p).copy_value() };
                (*arr).update(&crate::value::array::Key::Str(k), v);
                Zval::string(k).ptr_dtor();
            }
        }
    }
    *r = Zval::array(arr);
    Ok(())
}

pub fn func_get_args(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "func_get_args", a, 0, 0)?;
    let list = caller_args(vm, "func_get_args")?;
    let arr = crate::value::ZArray::new();
    for v in list {
        // SAFETY: `arr` is new and unshared.
        unsafe { (*arr).append(v.copy_value()) };
    }
    *r = Zval::array(arr);
    Ok(())
}

pub fn func_num_args(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "func_num_args", a, 0, 0)?;
    let list = caller_args(vm, "func_num_args")?;
    *r = Zval::long(list.len() as i64);
    Ok(())
}

pub fn func_get_arg(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "func_get_arg", a, 1, 1)?;
    let n = args::long(vm, "func_get_arg", 1, "position", &a[0])?;
    let list = caller_args(vm, "func_get_arg")?;
    if n < 0 {
        return Err(vm.throw_error("ValueError", "func_get_arg(): Argument #1 ($position) must be greater than or equal to 0"));
    }
    match list.get(n as usize) {
        Some(v) => *r = v.copy_value(),
        None => return Err(vm.throw_error("ValueError", "func_get_arg(): Argument #1 ($position) must be less than the number of the arguments passed to the currently executed function")),
    }
    Ok(())
}

pub fn error_reporting(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "error_reporting", a, 0, 1)?;
    *r = Zval::long(vm.error_reporting);
    if let Some(v) = a.first() {
        if v.deref().kind() != IS_NULL {
            vm.error_reporting = args::long(vm, "error_reporting", 1, "error_level", v)?;
        }
    }
    Ok(())
}

pub fn trigger_error(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "trigger_error", a, 1, 2)?;
    let msg = args::string(vm, "trigger_error", 1, "message", &a[0])?;
    let level = match a.get(1) {
        Some(v) => args::long(vm, "trigger_error", 2, "error_level", v)?,
        None => 1024,
    };
    use crate::runtime::error::Level;
    match level {
        256 => {
            vm.report(Level::Fatal, &msg);
            vm.stop = Some(crate::runtime::error::Stop::Fatal(String::from_utf8_lossy(&msg).into_owned()));
            return Err(Thrown);
        }
        512 => vm.warning_bytes(&msg),
        1024 => vm.report(Level::Notice, &msg),
        16384 => vm.report(Level::Deprecated, &msg),
        _ => return Err(vm.throw_error("ValueError", "trigger_error(): Argument #2 ($error_level) must be one of E_USER_ERROR, E_USER_WARNING, E_USER_NOTICE, or E_USER_DEPRECATED")),
    }
    *r = Zval::TRUE;
    Ok(())
}

pub fn serialize(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "serialize", a, 1, 1)?;
    let mut out = Vec::new();
    serialize_into(&a[0], &mut out);
    *r = Zval::string(ZString::new(&out));
    Ok(())
}

fn serialize_into(v: &Zval, out: &mut Vec<u8>) {
    let v = v.deref();
    match v.kind() {
        IS_NULL => out.extend_from_slice(b"N;"),
        IS_FALSE => out.extend_from_slice(b"b:0;"),
        IS_TRUE => out.extend_from_slice(b"b:1;"),
        IS_LONG => out.extend_from_slice(format!("i:{};", v.lval()).as_bytes()),
        IS_DOUBLE => {
            out.extend_from_slice(b"d:");
            crate::value::number::fmt_repr(v.dval(), out);
            out.push(b';');
        }
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let b = unsafe { (*v.str()).bytes() };
            out.extend_from_slice(format!("s:{}:\"", b.len()).as_bytes());
            out.extend_from_slice(b);
            out.extend_from_slice(b"\";");
        }
        IS_ARRAY => {
            // SAFETY: array-kind values hold a live array.
            let arr = unsafe { &*v.arr() };
            out.extend_from_slice(format!("a:{}:{{", arr.len()).as_bytes());
            for (k, x) in arr.iter() {
                match k {
                    crate::value::KeyRef::Int(i) => out.extend_from_slice(format!("i:{};", i).as_bytes()),
                    crate::value::KeyRef::Str(s) => {
                        out.extend_from_slice(format!("s:{}:\"", s.len()).as_bytes());
                        out.extend_from_slice(s.bytes());
                        out.extend_from_slice(b"\";");
                    }
                }
                serialize_into(x, out);
            }
            out.push(b'}');
        }
        // An enum case: `E:len:"Class:Case";`.
        // SAFETY: object-kind values hold a live object of a bound class.
        crate::value::IS_OBJECT if unsafe { ZObject::class(v.obj()).flags & crate::runtime::class::CLASS_ENUM != 0 } => unsafe {
            let o = v.obj();
            let mut id = ZObject::class(o).name.clone();
            id.push(b':');
            let p = crate::runtime::builtin_classes::prop_slot(o, b"name");
            if !p.is_null() && (*p).deref().is_string() {
                id.extend_from_slice((*(*p).deref().str()).bytes());
            }
            out.extend_from_slice(format!("E:{}:\"", id.len()).as_bytes());
            out.extend_from_slice(&id);
            out.extend_from_slice(b"\";");
        },
        _ => out.extend_from_slice(b"N;"),
    }
}

pub fn unserialize(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "unserialize", a, 1, 2)?;
    let s = args::string(vm, "unserialize", 1, "data", &a[0])?;
    let mut pos = 0;
    match unserialize_at(vm, &s, &mut pos, 0) {
        Some(v) if pos == s.len() || true => {
            if pos < s.len() && false {
                // SAFETY: `v` is owned.
                unsafe { v.ptr_dtor() };
            }
            *r = v;
        }
        _ => {
            if !s.is_empty() {
                vm.notice(&format!("unserialize(): Error at offset {} of {} bytes", pos.min(s.len()), s.len()));
            }
            *r = Zval::FALSE;
        }
    }
    Ok(())
}

fn read_until(s: &[u8], pos: &mut usize, end: u8) -> Option<Vec<u8>> {
    let start = *pos;
    let rel = s.get(start..)?.iter().position(|&c| c == end)?;
    *pos = start + rel + 1;
    Some(s[start..start + rel].to_vec())
}

/// The `len:"bytes";` of a serialized string or enum: where the bytes
/// start and end (`pos` is left at the opening quote).
fn read_quoted(s: &[u8], pos: &mut usize) -> Option<(usize, usize)> {
    let n: usize = std::str::from_utf8(&read_until(s, pos, b':')?).ok()?.parse().ok()?;
    if s.get(*pos) != Some(&b'"') {
        return None;
    }
    let start = *pos + 1;
    let end = start.checked_add(n)?;
    if s.get(end..end + 2) != Some(b"\";") {
        return None;
    }
    Some((start, end))
}

fn unserialize_at(vm: &mut Vm, s: &[u8], pos: &mut usize, depth: u32) -> Option<Zval> {
    if depth > 4096 {
        return None;
    }
    let t = *s.get(*pos)?;
    if t == b'N' {
        if s.get(*pos + 1) != Some(&b';') {
            return None;
        }
        *pos += 2;
        return Some(Zval::NULL);
    }
    if s.get(*pos + 1) != Some(&b':') {
        return None;
    }
    *pos += 2;
    match t {
        b'b' => {
            let v = read_until(s, pos, b';')?;
            match v.as_slice() {
                b"0" => Some(Zval::FALSE),
                b"1" => Some(Zval::TRUE),
                _ => None,
            }
        }
        b'i' => {
            let v = read_until(s, pos, b';')?;
            std::str::from_utf8(&v).ok()?.parse::<i64>().ok().map(Zval::long)
        }
        b'd' => {
            let v = read_until(s, pos, b';')?;
            let t = std::str::from_utf8(&v).ok()?;
            let d = match t {
                "INF" => f64::INFINITY,
                "-INF" => f64::NEG_INFINITY,
                "NAN" => f64::NAN,
                _ => t.parse::<f64>().ok()?,
            };
            Some(Zval::double(d))
        }
        b's' => {
            let (start, end) = read_quoted(s, pos)?;
            *pos = end + 2;
            Some(Zval::string(ZString::new(&s[start..end])))
        }
        b'E' => {
            let tok = *pos - 2;
            let (start, end) = read_quoted(s, pos)?;
            let id = &s[start..end];
            let colon = id.iter().position(|&b| b == b':')?;
            let (cn, case) = (&id[..colon], &id[colon + 1..]);
            let Some(c) = crate::runtime::classes::find_class(vm, cn) else {
                vm.warning(&format!("unserialize(): Class '{}' not found", String::from_utf8_lossy(cn)));
                *pos = tok;
                return None;
            };
            // Zend reports a bad case at the end of the token.
            *pos = end + 2;
            // SAFETY: a bound class and its constant cells.
            unsafe {
                if (*c).flags & crate::runtime::class::CLASS_ENUM == 0 {
                    vm.warning(&format!("unserialize(): Class '{}' is not an enum", (*c).name_str()));
                    *pos = tok;
                    return None;
                }
                let case_name = String::from_utf8_lossy(case);
                match (*c).consts.get(case) {
                    None => {
                        vm.warning(&format!("unserialize(): Undefined constant {}::{case_name}", (*c).name_str()));
                        return None;
                    }
                    Some(&cell) if (*cell).flags & crate::runtime::class::CONST_CASE == 0 => {
                        vm.warning(&format!("unserialize(): {}::{case_name} is not an enum case", (*c).name_str()));
                        return None;
                    }
                    Some(_) => {}
                }
                crate::exec::slow::object::class_constant(vm, c, case).ok()
            }
        }
        b'a' => {
            let n: usize = std::str::from_utf8(&read_until(s, pos, b':')?).ok()?.parse().ok()?;
            if s.get(*pos) != Some(&b'{') {
                return None;
            }
            *pos += 1;
            let arr = crate::value::ZArray::new();
            let fail = |arr| {
                // SAFETY: `arr` is ours.
                unsafe { Zval::array(arr).ptr_dtor() };
                None
            };
            for _ in 0..n {
                let Some(k) = unserialize_at(vm, s, pos, depth + 1) else { return fail(arr) };
                let Some(v) = unserialize_at(vm, s, pos, depth + 1) else {
                    // SAFETY: `k` is owned.
                    unsafe { k.ptr_dtor() };
                    return fail(arr);
                };
                // SAFETY: `arr` is new and unshared; `k` is owned.
                unsafe {
                    match k.kind() {
                        IS_LONG => {
                            (*arr).update_int(k.lval(), v);
                        }
                        IS_STRING => super::array::insert_bytes_key(&mut *arr, (*k.str()).bytes(), v),
                        _ => {
                            v.ptr_dtor();
                            return fail(arr);
                        }
                    }
                    k.ptr_dtor();
                }
            }
            if s.get(*pos) != Some(&b'}') {
                return fail(arr);
            }
            *pos += 1;
            Some(Zval::array(arr))
        }
        _ => None,
    }
}

pub fn get_defined_functions(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "get_defined_functions", a, 0, 1)?;
    let internal = crate::value::ZArray::new();
    let user = crate::value::ZArray::new();
    // SAFETY: both arrays are new and unshared.
    unsafe {
        for b in super::BUILTINS.iter().chain(super::DECLARED.iter().copied()).chain(super::DECLARED_ALIASES.iter().flat_map(|a| a.iter())) {
            (*internal).append(Zval::string(ZString::new(b.name.as_bytes())));
        }
        // Declaration order: each program's top-level functions, then the
        // ones declared at run time.
        let mut seen = std::collections::HashSet::new();
        for p in &vm.programs {
            for f in &p.functions {
                let lc = f.op.name.to_ascii_lowercase();
                if vm.functions.get(&lc).is_some_and(|e| core::ptr::eq(e.func, &**f)) && seen.insert(lc.clone()) {
                    (*user).append(Zval::string(ZString::new(&lc)));
                }
            }
        }
        let mut rest: Vec<Vec<u8>> = vm.functions.iter().filter(|(k, e)| (*e.func).is_user() && !seen.contains(*k)).map(|(k, _)| k.clone()).collect();
        rest.sort();
        for k in rest {
            (*user).append(Zval::string(ZString::new(&k)));
        }
        let out = crate::value::ZArray::new();
        super::array::insert_bytes_key(&mut *out, b"internal", Zval::array(internal));
        super::array::insert_bytes_key(&mut *out, b"user", Zval::array(user));
        *r = Zval::array(out);
    }
    Ok(())
}

thread_local! {
    /// ini settings changed by ini_set() (the rest have php -n's defaults).
    static INI: std::cell::RefCell<std::collections::HashMap<Vec<u8>, Vec<u8>>> = std::cell::RefCell::new(std::collections::HashMap::new());
    /// Bumped by every change to `INI`: readers cache what they derived.
    static INI_GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A number that changes whenever an ini setting does.
pub(crate) fn ini_generation() -> u64 {
    INI_GENERATION.with(|g| g.get())
}

fn ini_changed() {
    INI_GENERATION.with(|g| g.set(g.get() + 1));
}

/// php -n's value of a known ini setting.
fn ini_default(name: &[u8]) -> Option<&'static [u8]> {
    Some(match name {
        b"display_errors" => b"1",
        b"error_reporting" => b"",
        b"memory_limit" => b"128M",
        b"precision" => b"14",
        b"serialize_precision" => b"-1",
        b"max_execution_time" => b"0",
        b"date.timezone" => b"UTC",
        b"default_charset" => b"UTF-8",
        b"zend.assertions" => b"1",
        b"html_errors" => b"0",
        b"log_errors" => b"0",
        b"error_log" => b"",
        b"short_open_tag" => b"1",
        b"display_startup_errors" => b"1",
        b"implicit_flush" => b"1",
        b"output_buffering" => b"0",
        b"max_input_time" => b"-1",
        b"assert.active" => b"1",
        b"assert.exception" => b"1",
        b"pcre.backtrack_limit" => b"1000000",
        b"pcre.recursion_limit" => b"100000",
        b"pcre.jit" => b"1",
        b"arg_separator.output" => b"&",
        b"auto_detect_line_endings" => b"0",
        b"default_socket_timeout" => b"60",
        b"mbstring.language" => return None,
        _ => return None,
    })
}

/// An ini setting's current value (None: not a setting Tusk knows).
pub(crate) fn ini_value(name: &[u8]) -> Option<Vec<u8>> {
    ini_current(name)
}

fn ini_current(name: &[u8]) -> Option<Vec<u8>> {
    let d = ini_default(name)?;
    Some(INI.with(|m| m.borrow().get(name).cloned()).unwrap_or_else(|| d.to_vec()))
}

/// "128M" → bytes (`zend_atol`).
fn ini_bytes(v: &[u8]) -> i64 {
    let t = String::from_utf8_lossy(v);
    let t = t.trim();
    let (num, mul) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1024),
        Some('m' | 'M') => (&t[..t.len() - 1], 1024 * 1024),
        Some('g' | 'G') => (&t[..t.len() - 1], 1024 * 1024 * 1024),
        _ => (t, 1),
    };
    num.trim().parse::<i64>().unwrap_or(0).saturating_mul(mul)
}

pub fn ini_get(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "ini_get", a, 1, 1)?;
    let name = args::string(vm, "ini_get", 1, "option", &a[0])?;
    *r = match ini_current(&name) {
        Some(v) => Zval::string(ZString::new(&v)),
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn ini_set(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "ini_set", a, 2, 2)?;
    let name = args::string(vm, "ini_set", 1, "option", &a[0])?;
    let v = a[1].deref();
    let val = match v.kind() {
        IS_NULL => Vec::new(),
        IS_FALSE => b"0".to_vec(),
        IS_TRUE => b"1".to_vec(),
        _ => args::string(vm, "ini_set", 2, "value", &a[1])?,
    };
    let Some(old) = ini_current(&name) else {
        *r = Zval::FALSE;
        return Ok(());
    };
    match name.as_slice() {
        b"memory_limit" => {
            let n = ini_bytes(&val);
            vm.memory_limit = if n <= 0 { usize::MAX / 2 } else { n as usize };
        }
        b"error_reporting" => vm.error_reporting = crate::value::convert::str_to_long(&val),
        _ => {}
    }
    INI.with(|m| m.borrow_mut().insert(name, val));
    ini_changed();
    *r = Zval::string(ZString::new(&old));
    Ok(())
}

pub fn set_time_limit(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "set_time_limit", a, 1, 1)?;
    let s = args::long(vm, "set_time_limit", 1, "seconds", &a[0])?;
    INI.with(|m| m.borrow_mut().insert(b"max_execution_time".to_vec(), s.to_string().into_bytes()));
    ini_changed();
    *r = Zval::TRUE;
    Ok(())
}
