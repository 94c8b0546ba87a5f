//! Assignment slow paths: references, compound assignment, ++/--.

use super::{raise, take};
use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, Opcode, IS_CONST, IS_CV, IS_TMP_VAR, IS_UNUSED, IS_VAR};
use crate::value::refs::make_ref;
use crate::value::{arith, GcHeader, ZRef, Zval, ZString, IS_INDIRECT};

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

/// ASSIGN's end when the variable's old value was a string it alone held
/// (`old`, already replaced): releases it and continues with the next
/// opline. Handler-shaped, so that ASSIGN jumps here and its hot copy makes
/// no call (`$s = f($i)` in a loop frees the previous string every time).
///
/// # Safety
/// Called from ASSIGN only; `old` is the header of a refcounted string
/// whose reference the variable gave up.
#[inline(never)]
pub unsafe fn release_string_next(ip: *const Op, fp: *mut Zval, vm: *mut Vm, old: *mut GcHeader) -> crate::exec::Ret {
    // `$s = $s` copied the string first (refcount 2): a decrement only.
    (*old).refcount -= 1;
    if (*old).refcount == 0 {
        ZString::free(old as *mut ZString);
    }
    crate::exec::dispatch::next(ip.add(1), fp, vm)
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
            } else if b.is_long() {
                let mut buf = [0u8; 20];
                ZString::append(cur.str(), crate::value::number::fmt_i64(b.lval(), &mut buf))
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

/// ASSIGN_OP's `.=` when op1 (dereferenced: `var`) holds a string only it
/// owns and op2 is a string or an int: appends in place and continues with
/// the next opline. Handler-shaped, so that the handler jumps here and its
/// hot copy makes no call (the append copies bytes and may reallocate).
///
/// # Safety
/// Called from ASSIGN_OP only, with the conditions above checked: `var` is
/// op1's (dereferenced) cell holding a refcounted string of refcount 1, and
/// op2 is a string (refcounted or not) or an int.
#[inline(never)]
pub unsafe fn concat_in_place(ip: *const Op, fp: *mut Zval, vm: *mut Vm, var: *mut Zval) -> crate::exec::Ret {
    let b = operand::any_raw_2(ip, fp);
    let s = (*var).str();
    // `$s .= $s`: `append` copies from inside the string correctly.
    let s = if (*b).is_string() { ZString::append(s, (*(*b).str()).bytes()) } else { append_long(s, (*b).lval()) };
    (*var).value.str = s;
    if (*ip).result_type != IS_UNUSED {
        *operand::result(ip, fp) = (*var).copy_value();
    }
    if (*ip).op2_type & (IS_TMP_VAR | IS_VAR) != 0 {
        // A TMP/VAR string is a distinct owner (op1's has refcount 1).
        (*b).ptr_dtor();
    }
    crate::exec::dispatch::next(ip.add(1), fp, vm)
}

/// Appends the decimal form of `v` (out of line: its buffer's address must
/// not escape in `concat_in_place`, whose final call must stay a jump).
#[inline(never)]
unsafe fn append_long(s: *mut ZString, v: i64) -> *mut ZString {
    let mut buf = [0u8; 20];
    ZString::append(s, crate::value::number::fmt_i64(v, &mut buf))
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

// ---------------------------------------------------------------- references

/// Operand `which` (1, 2, or 3 = OP_DATA) as an owned reference: a CV, or
/// the element a VAR's INDIRECT points at, is turned into a reference in
/// place and shared; a VAR holding a value is wrapped and moved out (the VAR
/// is consumed); a CONST/TMP value is wrapped in a new reference.
pub(crate) unsafe fn take_ref(fp: *mut Zval, ip: *const Op, which: u8) -> Zval {
    let (kind, slot) = match which {
        1 => ((*ip).op1_type, operand::any_raw_1(ip, fp) as *mut Zval),
        2 => ((*ip).op2_type, operand::any_raw_2(ip, fp) as *mut Zval),
        _ => ((*ip.add(1)).op1_type, operand::any_raw_od(ip, fp) as *mut Zval),
    };
    match kind {
        IS_CV => {
            make_ref(slot);
            (*slot).copy_value()
        }
        IS_VAR if (*slot).kind() == IS_INDIRECT => {
            // The INDIRECT owns nothing: the element belongs to its array.
            let p = (*slot).zv_ptr();
            make_ref(p);
            (*p).copy_value()
        }
        IS_VAR | IS_TMP_VAR => {
            make_ref(slot);
            let r = *slot;
            *slot = Zval::UNDEF;
            r
        }
        IS_CONST => Zval::reference(ZRef::new((*slot).copy_value())),
        _ => Zval::reference(ZRef::new(Zval::NULL)),
    }
}

/// The slot op1 names for rebinding (not dereferenced: `=&` replaces
/// whatever the slot holds, reference or not).
unsafe fn bind_target1(fp: *mut Zval, ip: *const Op) -> *mut Zval {
    if (*ip).op1_type == IS_VAR {
        operand::var_ptr_1(ip, fp)
    } else {
        operand::slot_1(ip, fp)
    }
}

/// Stores the owned reference `r` into `slot`, releasing what it held.
pub(crate) unsafe fn bind_ref(slot: *mut Zval, r: Zval) {
    let old = *slot;
    *slot = r;
    old.ptr_dtor();
}

/// `op1 =& op2` (extended_value 1: op2 is a function's result, which must
/// itself be a reference); result := the reference.
#[cold]
#[inline(never)]
pub unsafe fn assign_ref(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let src = operand::slot_2(ip, fp);
    if (*ip).op2_type == IS_VAR && (*ip).extended_value == 1 && !(*src).is_reference() && (*src).kind() != IS_INDIRECT {
        vm.notice("Only variables should be assigned by reference");
        if vm.exception.is_some() {
            (*src).ptr_dtor();
            return Err(Thrown);
        }
        let val = *src;
        let stored = assign(bind_target1(fp, ip), val);
        if (*ip).result_type != IS_UNUSED {
            *operand::result(ip, fp) = (*stored).copy_value();
        }
        return Ok(());
    }
    let r = take_ref(fp, ip, 2);
    let target = bind_target1(fp, ip);
    bind_ref(target, r);
    if (*ip).result_type != IS_UNUSED {
        *operand::result(ip, fp) = r.copy_value();
    }
    Ok(())
}

/// result := op1 as a reference (MAKE_REF).
#[cold]
#[inline(never)]
pub unsafe fn make_ref_op(_vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    let s = operand::slot_1(ip, fp);
    if (*ip).op1_type == IS_VAR && (*s).kind() != IS_INDIRECT && !(*s).is_reference() {
        // A call's plain result: nothing to refer to; the consumer decides
        // (ASSIGN_REF's notice, FETCH_LIST_W's notice).
        *operand::result(ip, fp) = *s;
        if operand::result(ip, fp) != s {
            *s = Zval::UNDEF;
        }
        return Ok(());
    }
    let r = take_ref(fp, ip, 1);
    *operand::result(ip, fp) = r;
    Ok(())
}

/// RETURN_BY_REF: the reference to return (owned). A value that is no
/// variable is returned as a plain value with PHP's notice.
#[cold]
#[inline(never)]
pub unsafe fn return_ref(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let kind = (*ip).op1_type;
    let raw = operand::any_raw_1(ip, fp) as *mut Zval;
    let not_var = kind == IS_CONST
        || kind == IS_TMP_VAR
        || (kind == IS_VAR && (*ip).extended_value == 1 && !(*raw).is_reference() && (*raw).kind() != IS_INDIRECT);
    if not_var {
        vm.notice("Only variable references should be returned by reference");
        let v = super::take(vm, fp, ip, 1);
        return Ok(Zval::reference(ZRef::new(v)));
    }
    Ok(take_ref(fp, ip, 1))
}
