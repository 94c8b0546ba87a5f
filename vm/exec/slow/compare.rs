//! Comparison slow paths.

use super::{read1, read2};
use crate::exec::{Thrown, Vm};
use crate::ops::{Op, Opcode};
use crate::value::{compare as cmp, convert, Zval, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_TRUE, IS_UNDEF};

/// PHP's boolean conversion. Fast for the kinds conditions usually hold.
#[inline(always)]
pub fn truthy(v: &Zval) -> bool {
    match v.kind() {
        IS_TRUE => true,
        IS_FALSE | IS_NULL | IS_UNDEF => false,
        IS_LONG => v.lval() != 0,
        _ => convert::to_bool(v.deref()),
    }
}

#[inline]
pub fn identical(a: &Zval, b: &Zval) -> bool {
    cmp::is_identical(a.deref(), b.deref())
}

/// An object compared with a number: PHP converts the object (notice
/// "could not be converted to int/float") to 1 and compares the numbers.
fn object_vs_number(vm: &mut Vm, a: &Zval, b: &Zval) -> Option<i32> {
    let (a, b) = (a.deref(), b.deref());
    let (obj, num, flip) = if a.is_object() && matches!(b.kind(), IS_LONG | IS_DOUBLE) {
        (a, b, false)
    } else if b.is_object() && matches!(a.kind(), IS_LONG | IS_DOUBLE) {
        (b, a, true)
    } else {
        return None;
    };
    let ty = if num.kind() == IS_LONG { "int" } else { "float" };
    // SAFETY: object-kind values hold a live object.
    let cname = unsafe { crate::value::object::ZObject::class(obj.obj()).name_str() };
    vm.notice(&format!("Object of class {cname} could not be converted to {ty}"));
    let one = if num.kind() == IS_LONG { Zval::long(1) } else { Zval::double(1.0) };
    let r = cmp::compare(&one, num);
    Some(if flip { -r } else { r })
}

/// `==`, `!=`, `<`, `<=` for any kinds.
#[cold]
#[inline(never)]
pub unsafe fn compare(vm: &mut Vm, fp: *mut Zval, ip: *const Op, opcode: Opcode) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let a = &*read1(vm, fp, ip);
    let b = &*read2(vm, fp, ip);
    if let Some(r) = object_vs_number(vm, a, b) {
        return Ok(match opcode {
            Opcode::IsEqual => r == 0,
            Opcode::IsNotEqual => r != 0,
            Opcode::IsSmaller => r < 0,
            Opcode::IsSmallerOrEqual => r <= 0,
            _ => false,
        });
    }
    Ok(match opcode {
        Opcode::IsEqual => cmp::is_equal(a, b),
        Opcode::IsNotEqual => !cmp::is_equal(a, b),
        Opcode::IsSmaller => cmp::compare(a, b) < 0,
        Opcode::IsSmallerOrEqual => cmp::compare(a, b) <= 0,
        _ => false,
    })
}

#[cold]
#[inline(never)]
pub unsafe fn spaceship(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<i64, Thrown> {
    super::enter(vm, fp, ip);
    let a = &*read1(vm, fp, ip);
    let b = &*read2(vm, fp, ip);
    if let Some(r) = object_vs_number(vm, a, b) {
        return Ok(r.signum() as i64);
    }
    Ok(cmp::compare(a, b).signum() as i64)
}

/// CASE / CASE_STRICT: `op1 == op2` / `op1 === op2` without consuming op1
/// (the switch or match subject stays alive for the next case); frees op2.
#[cold]
#[inline(never)]
pub unsafe fn case(vm: &mut Vm, fp: *mut Zval, ip: *const Op, strict: bool) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let a = &*read1(vm, fp, ip);
    let b = &*read2(vm, fp, ip);
    let r = if strict { identical(a, b) } else { cmp::is_equal(a, b) };
    super::free_op(fp, ip, 2);
    Ok(r)
}
