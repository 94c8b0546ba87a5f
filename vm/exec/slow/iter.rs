//! foreach: FE_RESET_R / FE_FETCH_R. The iterator is a VAR holding a copy
//! of the array (one more owner, so writes to the variable separate) with
//! the position in its `u2` word.

use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, IS_CV, IS_UNUSED};
use crate::value::array::KeyRef;
use crate::value::{ZString, Zval};

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
