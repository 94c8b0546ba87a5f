//! Slow paths: `#[cold]` helpers reached from handlers through `slow!`.
//! Each takes `(vm, fp, ip, …)`, re-reads its operands by their run-time
//! kinds, reports notices and raises throws; written once for every
//! operand-kind instance.

pub mod arith;
pub mod assign;
pub mod call;
pub mod closure;
pub mod compare;
pub mod dim;
pub mod exception;
pub mod iter;
pub mod misc;
pub mod named;
pub mod object;

use crate::exec::operand;
use crate::exec::{Thrown, Vm};
use crate::ops::{Op, IS_CONST, IS_CV, IS_TMP_VAR, IS_VAR};
use crate::value::arith::{Level as DiagLevel, Throw};
use crate::value::Zval;

/// Op1 for reading: an undefined CV warns; references are followed.
#[inline]
pub(crate) unsafe fn read1(vm: *mut Vm, fp: *mut Zval, ip: *const Op) -> *const Zval {
    operand::any_read_1(ip, fp, vm)
}
#[inline]
pub(crate) unsafe fn read2(vm: *mut Vm, fp: *mut Zval, ip: *const Op) -> *const Zval {
    operand::any_read_2(ip, fp, vm)
}

/// Takes an operand as an owned value: a TMP is moved, a VAR copied and
/// released, a CV or CONST copied.
pub(crate) unsafe fn take(vm: *mut Vm, fp: *mut Zval, ip: *const Op, which: u8) -> Zval {
    let (kind, slot) = match which {
        1 => ((*ip).op1_type, operand::any_raw_1(ip, fp)),
        2 => ((*ip).op2_type, operand::any_raw_2(ip, fp)),
        _ => ((*ip.add(1)).op1_type, operand::any_raw_od(ip, fp)),
    };
    match kind {
        IS_TMP_VAR => *slot,
        IS_VAR => {
            let v = (*slot).copy_deref();
            (*slot).ptr_dtor();
            v
        }
        IS_CV => {
            let p = match which {
                1 => operand::cv_read_1(ip, fp, vm),
                2 => operand::cv_read_2(ip, fp, vm),
                _ => operand::cv_read_od(ip, fp, vm),
            };
            (*p).copy_value()
        }
        IS_CONST => (*slot).copy_value(),
        _ => Zval::NULL,
    }
}

/// Releases op1/op2 if they are TMP/VAR.
pub(crate) unsafe fn free_op(fp: *mut Zval, ip: *const Op, which: u8) {
    match which {
        1 => operand::free_tmpvar_1(ip, fp),
        2 => operand::free_tmpvar_2(ip, fp),
        _ => operand::free_tmpvar_od(ip, fp),
    }
}

/// Sends a value-layer diagnostic to the context.
pub(crate) fn diag(vm: &mut Vm) -> impl FnMut(DiagLevel, &str) + '_ {
    move |lvl, msg| match lvl {
        DiagLevel::Warning => vm.warning(msg),
        DiagLevel::Notice => vm.notice(msg),
        DiagLevel::Deprecated => vm.deprecated(msg),
    }
}

/// Raises a value-layer throw as a PHP exception.
pub(crate) fn raise(vm: &mut Vm, t: Throw) -> Thrown {
    match t {
        Throw::TypeError(m) => vm.throw_error("TypeError", &m),
        Throw::DivisionByZero(m) => vm.throw_error("DivisionByZeroError", &m),
        Throw::ArithmeticError(m) => vm.throw_error("ArithmeticError", &m),
        Throw::ValueError(m) => vm.throw_error("ValueError", &m),
    }
}

/// The current frame becomes `fp` with opline `ip` (for locations in messages).
#[inline(always)]
pub(crate) unsafe fn enter(vm: &mut Vm, fp: *mut Zval, ip: *const Op) {
    let f = fp as *mut crate::exec::Frame;
    (*f).opline = ip;
    vm.cur = f;
}

impl crate::value::convert::NumericParse {
    /// The integer of a fully numeric string that is an integer.
    pub fn as_int_exact(self) -> Option<i64> {
        match self {
            crate::value::convert::NumericParse::Numeric(crate::value::convert::Number::Int(i)) => Some(i),
            _ => None,
        }
    }
    /// The value of a fully numeric string, as a float.
    pub fn as_number_exact(self) -> Option<f64> {
        use crate::value::convert::{Number, NumericParse};
        match self {
            NumericParse::Numeric(Number::Int(i)) => Some(i as f64),
            NumericParse::Numeric(Number::Float(d)) => Some(d),
            _ => None,
        }
    }
    /// A fully numeric float string.
    pub fn as_float_whole(self) -> Option<f64> {
        use crate::value::convert::{Number, NumericParse};
        match self {
            NumericParse::Numeric(Number::Float(d)) => Some(d),
            _ => None,
        }
    }
}
