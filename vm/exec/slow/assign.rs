//! Assignment slow paths: references, compound assignment, ++/--.

use super::{raise, take};
use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, Opcode, IS_CV, IS_VAR};
use crate::value::{arith, Zval, ZString};

/// Stores `val` (owned) into the variable slot `var`, through a reference if
/// it holds one; releases the old value afterwards. Returns where it went.
#[inline(always)]
pub unsafe fn assign(var: *mut Zval, val: Zval) -> *mut Zval {
    let target = (*var).deref_mut() as *mut Zval;
    let old = *target;
    *target = val;
    old.ptr_dtor();
    target
}

/// The variable op1 names, for writing, dereferenced.
pub(crate) unsafe fn write_target1(fp: *mut Zval, ip: *const Op) -> *mut Zval {
    let p = if (*ip).op1_type == IS_VAR { operand::var_ptr_1(ip, fp) } else { operand::slot_1(ip, fp) };
    (*p).deref_mut() as *mut Zval
}

/// `op1 op= op2` (extended_value: the binary opcode); returns the new value (owned).
#[cold]
#[inline(never)]
pub unsafe fn assign_op(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let target = write_target1(fp, ip);
    if (*ip).op1_type == IS_CV && (*target).is_undef() {
        operand::cv_read_1(ip, fp, vm);
        *target = Zval::NULL;
    }
    let b = operand::any_read_2(ip, fp, vm);
    let opcode = Opcode::from_u8((*ip).extended_value as u8).unwrap_or(Opcode::Add);
    let v = binary_into(vm, opcode, target, &*b)?;
    Ok(v)
}

/// `*target = *target <op> b`; returns a copy of the result.
pub unsafe fn binary_into(vm: &mut Vm, opcode: Opcode, target: *mut Zval, b: &Zval) -> Result<Zval, Thrown> {
    if opcode == Opcode::Concat {
        let cur = *target;
        if cur.is_string() && cur.is_refcounted() && (*cur.str()).header.refcount == 1 {
            let b = b.deref();
            let s = if b.is_string() {
                ZString::append(cur.str(), (*b.str()).bytes())
            } else {
                let mut buf = Vec::new();
                super::arith::to_string_into(vm, b, &mut buf);
                ZString::append(cur.str(), &buf)
            };
            *target = Zval::string(s);
            return Ok((*target).copy_value());
        }
    }
    let r = super::arith::apply(vm, opcode, &*target, b)?;
    let old = *target;
    *target = r;
    old.ptr_dtor();
    Ok((*target).copy_value())
}

/// `++`/`--` on op1, pre or post; returns the value the expression yields (owned).
#[cold]
#[inline(never)]
pub unsafe fn incdec(vm: &mut Vm, fp: *mut Zval, ip: *const Op, inc: bool, pre: bool) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let target = write_target1(fp, ip);
    if (*ip).op1_type == IS_CV && (*target).is_undef() {
        operand::cv_read_1(ip, fp, vm);
        *target = Zval::NULL;
    }
    let before = if pre { Zval::NULL } else { (*target).copy_value() };
    let r = if inc { arith::increment(&mut *target) } else { arith::decrement(&mut *target) };
    if let Err(t) = r {
        before.ptr_dtor();
        return Err(raise(vm, t));
    }
    Ok(if pre { (*target).copy_value() } else { before })
}

/// Moves op2 into op1 (used by helpers that assign a fetched value).
pub unsafe fn assign_from_op2(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> *mut Zval {
    let v = take(vm, fp, ip, 2);
    assign(write_target1(fp, ip), v)
}
