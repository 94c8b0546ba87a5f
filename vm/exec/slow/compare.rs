//! Comparison slow paths.

use super::{read1, read2};
use crate::exec::{Thrown, Vm};
use crate::ops::{Op, Opcode};
use crate::value::{compare as cmp, convert, Zval, IS_FALSE, IS_LONG, IS_NULL, IS_TRUE, IS_UNDEF};

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

/// `==`, `!=`, `<`, `<=` for any kinds.
#[cold]
#[inline(never)]
pub unsafe fn compare(vm: &mut Vm, fp: *mut Zval, ip: *const Op, opcode: Opcode) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let a = &*read1(vm, fp, ip);
    let b = &*read2(vm, fp, ip);
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
