//! foreach: FE_RESET_R / FE_FETCH_R. The iterator is a VAR holding a copy
//! of the array (one more owner, so writes to the variable separate) with
//! the position in its `u2` word.

use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, IS_CV, IS_TMP_VAR, IS_UNUSED, IS_VAR};
use crate::value::array::KeyRef;
use crate::value::refs::make_ref;
use crate::value::{ZArray, ZString, Zval, IS_INDIRECT};

/// Sets up the iterator in the result slot; true when there is nothing to visit.
#[inline(never)]
pub unsafe fn fe_reset_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*operand::any_read_1(ip, fp, vm)).deref();
    let res = operand::result(ip, fp);
    if v.is_array() {
        let mut it = v.copy_value();
        it.u2 = 0;
        *res = it;
        return Ok((*v.arr()).len() == 0);
    }
    let t = crate::stdlib::type_name(v);
    vm.warning(&format!("foreach() argument must be of type array|object, {} given", t));
    *res = Zval::NULL;
    Ok(true)
}

/// Advances the iterator op1: assigns the value to op2 and the key to the
/// result; false at the end.
#[inline(never)]
pub unsafe fn fe_fetch_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    let it = operand::slot_1(ip, fp);
    if !(*it).is_array() {
        return Ok(false);
    }
    let a = &*(*it).arr();
    let pos = match a.pos_valid_from((*it).u2) {
        Some(p) => p,
        None => return Ok(false),
    };
    (*it).u2 = pos + 1;
    let Some((key, val)) = a.entry_at(pos) else { return Ok(false) };
    let val = (*val).copy_deref();
    if (*ip).op2_type == IS_CV {
        super::assign::assign(operand::slot_2(ip, fp), val);
    } else if (*ip).op2_type != IS_UNUSED {
        *operand::slot_2(ip, fp) = val;
    } else {
        val.ptr_dtor();
    }
    if (*ip).result_type != IS_UNUSED {
        let k = match key {
            KeyRef::Int(i) => Zval::long(i),
            KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
        };
        *operand::result(ip, fp) = k;
    }
    let _ = vm;
    Ok(true)
}

/// Where FE_FETCH_R goes when the iteration is over (extended_value, run form).
#[inline(always)]
pub unsafe fn fe_end(ip: *const Op) -> *const Op {
    (ip as *const u8).offset((*ip).extended_value as i32 as isize) as *const Op
}

// ---------------------------------------------------------------- by reference

/// FE_RESET_RW: the iterator is a VAR holding a reference to the array
/// (the variable itself becomes that reference), position in `u2`. An
/// array is visited even when empty (FE_FETCH_RW exits at once), as in Zend.
#[inline(never)]
pub unsafe fn fe_reset_rw(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let kind = (*ip).op1_type;
    let raw = operand::any_raw_1(ip, fp) as *mut Zval;
    let target = if kind == IS_VAR && (*raw).kind() == IS_INDIRECT { (*raw).zv_ptr() } else { raw };
    let res = operand::result(ip, fp);
    if (*target).deref().is_array() {
        let r = super::assign::take_ref(fp, ip, 1);
        // SAFETY: take_ref returned an owned reference-kind value.
        ZArray::separate(&mut (*r.zref()).val);
        let mut it = r;
        it.u2 = 0;
        *res = it;
        return Ok(false);
    }
    if kind == IS_CV && (*target).is_undef() {
        operand::cv_read_1(ip, fp, vm);
    }
    let t = crate::stdlib::type_name((*target).deref());
    vm.warning(&format!("foreach() argument must be of type array|object, {} given", t));
    if kind & (IS_TMP_VAR | IS_VAR) != 0 && (*raw).kind() != IS_INDIRECT {
        (*raw).ptr_dtor();
    }
    *res = Zval::NULL;
    Ok(true)
}

/// FE_FETCH_RW: binds op2 by reference to the next element of the array
/// the iterator op1 refers to, the key to the result; false at the end.
/// Like Zend, a shared array is not separated (the elements become
/// references in place, which every holder reads through); an immutable
/// one (a literal assigned to the variable inside the loop) is separated
/// and iterated from its start, as Zend's iterator does when the array
/// behind it changed.
#[inline(never)]
pub unsafe fn fe_fetch_rw(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    let it = operand::slot_1(ip, fp);
    if !(*it).is_reference() {
        return Ok(false);
    }
    let holder: *mut Zval = &mut (*(*it).zref()).val;
    if !(*holder).is_array() {
        // The loop body replaced the array with something else.
        super::enter(vm, fp, ip);
        let t = crate::stdlib::type_name(&*holder);
        vm.warning(&format!("foreach() argument must be of type array|object, {} given", t));
        return Ok(false);
    }
    if (*(*holder).arr()).is_immutable() {
        ZArray::separate(holder);
        (*it).u2 = 0;
    }
    let a = (*holder).arr();
    let pos = match (*a).pos_valid_from((*it).u2) {
        Some(p) => p,
        None => return Ok(false),
    };
    let Some((key, val)) = (*a).entry_at(pos) else { return Ok(false) };
    (*it).u2 = pos + 1;
    make_ref(val);
    let r = (*val).copy_value();
    match (*ip).op2_type {
        IS_CV => super::assign::bind_ref(operand::slot_2(ip, fp), r),
        IS_UNUSED => r.ptr_dtor(),
        _ => *operand::slot_2(ip, fp) = r,
    }
    if (*ip).result_type != IS_UNUSED {
        let k = match key {
            KeyRef::Int(i) => Zval::long(i),
            KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
        };
        *operand::result(ip, fp) = k;
    }
    let _ = vm;
    Ok(true)
}
