//! Output, casts, constants, ropes, exit.

use super::read1;
use crate::exec::{operand, Thrown, Vm};
use crate::ops::Op;
use crate::runtime::error::Stop;
use crate::value::{convert, ZArray, ZString, Zval, IS_ARRAY, IS_DOUBLE, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING};

/// `(bool)` cast kind (Zend's `_IS_BOOL`).
pub const CAST_BOOL: u32 = 18;

/// echo of a non-string op1.
#[cold]
#[inline(never)]
pub unsafe fn echo(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let v = read1(vm, fp, ip);
    let mut buf = Vec::new();
    super::arith::to_string_into(vm, &*v, &mut buf);
    vm.echo(&buf);
    Ok(())
}

#[cold]
#[inline(never)]
pub unsafe fn cast(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = &*read1(vm, fp, ip);
    Ok(cast_value(vm, v, (*ip).extended_value))
}

pub fn cast_value(vm: &mut Vm, v: &Zval, kind: u32) -> Zval {
    let v = v.deref();
    match kind {
        k if k == IS_LONG as u32 => Zval::long(convert::to_long(v)),
        k if k == IS_DOUBLE as u32 => Zval::double(convert::to_double(v)),
        k if k == IS_STRING as u32 => {
            if v.is_string() {
                return v.copy_value();
            }
            let mut buf = Vec::new();
            super::arith::to_string_into(vm, v, &mut buf);
            Zval::string(ZString::new(&buf))
        }
        CAST_BOOL => Zval::bool(convert::to_bool(v)),
        k if k == IS_ARRAY as u32 => {
            if v.is_array() {
                return v.copy_value();
            }
            let a = ZArray::new();
            if v.kind() != IS_NULL && !v.is_undef() {
                // SAFETY: `a` is new and unshared.
                unsafe { (*a).append(v.copy_value()) };
            }
            Zval::array(a)
        }
        k if k == IS_NULL as u32 => Zval::NULL,
        k if k == IS_OBJECT as u32 => {
            vm.fatal_internal("(object) casts are not supported yet");
            Zval::NULL
        }
        _ => Zval::NULL,
    }
}

/// A constant by name: user constants first, then the builtin ones.
#[cold]
#[inline(never)]
pub unsafe fn fetch_constant(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let name = &*operand::const_2(ip);
    let bytes = (*name.str()).bytes();
    let bytes = bytes.strip_prefix(b"\\").unwrap_or(bytes);
    if let Some(v) = vm.constants.get(bytes) {
        return Ok(v.copy_value());
    }
    if let Some(v) = crate::stdlib::constant(bytes) {
        return Ok(v);
    }
    let msg = format!("Undefined constant \"{}\"", String::from_utf8_lossy(bytes));
    Err(vm.throw_error("Error", &msg))
}

/// exit/die: prints a string argument, or takes an int as the exit status.
#[cold]
#[inline(never)]
pub unsafe fn exit(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let mut status = 0;
    if (*ip).op1_type != crate::ops::IS_UNUSED {
        let v = (*read1(vm, fp, ip)).deref();
        if v.is_long() {
            status = v.lval() as i32;
        } else {
            let mut buf = Vec::new();
            super::arith::to_string_into(vm, v, &mut buf);
            vm.echo(&buf);
        }
    }
    vm.stop = Some(Stop::Exit(status));
    Ok(())
}

#[cold]
#[inline(never)]
pub unsafe fn count(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*read1(vm, fp, ip)).deref();
    if v.is_array() {
        return Ok(Zval::long((*v.arr()).len() as i64));
    }
    let msg = format!("count(): Argument #1 ($value) must be of type Countable|array, {} given", crate::stdlib::type_name(v));
    Err(vm.throw_error("TypeError", &msg))
}

#[cold]
#[inline(never)]
pub unsafe fn strlen(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*read1(vm, fp, ip)).deref();
    match v.kind() {
        IS_STRING => Ok(Zval::long((*v.str()).len() as i64)),
        k if k == IS_ARRAY || k == IS_OBJECT => {
            let msg = format!("strlen(): Argument #1 ($string) must be of type string, {} given", crate::stdlib::type_name(v));
            Err(vm.throw_error("TypeError", &msg))
        }
        _ => {
            if v.kind() == crate::value::IS_NULL || v.kind() == crate::value::IS_UNDEF {
                vm.deprecated("strlen(): Passing null to parameter #1 ($string) of type string is deprecated");
            }
            let mut buf = Vec::new();
            convert::append_string(v, &mut buf);
            Ok(Zval::long(buf.len() as i64))
        }
    }
}

/// Rope part `extended_value` := string(op2). ROPE_INIT writes at the
/// result slot, ROPE_ADD at op1's; parts are owned string pointers, two per
/// slot, as in Zend.
#[inline(never)]
pub unsafe fn rope_add(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let init = (*ip).op1_type == crate::ops::IS_UNUSED;
    let base = if init { operand::result(ip, fp) } else { operand::slot_1(ip, fp) } as *mut *mut ZString;
    let idx = if init { 0 } else { (*ip).extended_value as usize };
    *base.add(idx) = rope_part(vm, fp, ip);
    Ok(())
}

/// The string of op2, owned.
unsafe fn rope_part(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> *mut ZString {
    let v = (*operand::any_read_2(ip, fp, vm)).deref();
    if v.is_string() {
        return v.copy_value().str();
    }
    let mut buf = Vec::new();
    super::arith::to_string_into(vm, v, &mut buf);
    ZString::new(&buf)
}

/// Joins rope parts 0..extended_value plus op2 into one string; frees the parts.
#[inline(never)]
pub unsafe fn rope_end(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let base = operand::slot_1(ip, fp) as *mut *mut ZString;
    let n = (*ip).extended_value as usize;
    *base.add(n) = rope_part(vm, fp, ip);
    let len: usize = (0..=n).map(|i| (**base.add(i)).len()).sum();
    let mut s = ZString::with_capacity(len);
    for i in 0..=n {
        s = ZString::append(s, (**base.add(i)).bytes());
    }
    free_rope(base as *mut Zval, n + 1);
    Ok(Zval::string(s))
}

/// Releases rope parts 0..n.
pub unsafe fn free_rope(base: *mut Zval, n: usize) {
    let parts = base as *mut *mut ZString;
    for i in 0..n {
        Zval::string(*parts.add(i)).ptr_dtor();
    }
}
