//! ext/standard var functions: var_dump, print_r, var_export, type tests.

use super::args;
use crate::exec::{Thrown, Vm};
use crate::value::{convert, print, ZString, Zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE};

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
    *r = Zval::long(convert::to_long(a[0].deref()));
    Ok(())
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
    *r = Zval::bool(vm.constants.contains_key(name) || crate::stdlib::constant(name).is_some());
    Ok(())
}

pub fn constant(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "constant", a, 1, 1)?;
    let name = args::string(vm, "constant", 1, "name", &a[0])?;
    let name = name.strip_prefix(b"\\").unwrap_or(&name);
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
