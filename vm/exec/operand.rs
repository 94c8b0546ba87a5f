//! Operand primitives: how a handler reaches op1, op2, OP_DATA and result for
//! each operand kind. vm-gen's operand table emits calls to exactly these;
//! they are the fast path, so all are `#[inline(always)]`.
//!
//! Run-form operands (see `ops`): TMP/VAR/CV are byte offsets from `fp`;
//! CONST and jump targets are byte offsets from the opline itself.

#![allow(clippy::missing_safety_doc)]

use super::frame::Frame;
use super::vm::Vm;
use crate::ops::{Op, IS_CONST, IS_CV, IS_TMP_VAR, IS_VAR};
use crate::value::{Zval, IS_INDIRECT};

/// A NULL that read fetches may return for undefined CVs.
pub struct StaticNull(pub Zval);
// SAFETY: the value is NULL (no pointer payload) and never written.
unsafe impl Sync for StaticNull {}
pub static NULL: StaticNull = StaticNull(Zval::NULL);

#[inline(always)]
pub fn null_ptr() -> *const Zval {
    &NULL.0
}

macro_rules! operand_fns {
    ($field:ident, $kind:ident, $const_:ident, $tmp:ident, $slot:ident, $var_deref:ident,
     $cv_read:ident, $cv_deref:ident, $cv_or_null:ident, $tmpvarcv_read:ident, $any_read:ident, $any_raw:ident,
     $any_deref:ident, $any_write:ident, $var_ptr:ident, $free:ident, $free_tmpvar:ident,
     $free_any:ident, $jmp:ident, $base:expr) => {
        /// CONST operand: the literal.
        #[inline(always)]
        pub unsafe fn $const_(ip: *const Op) -> *const Zval {
            let ip = $base(ip);
            // SAFETY: run-form CONST operands are offsets from the opline into
            // the same allocation (OpArray::finalize).
            (ip as *const u8).offset((*ip).$field as i32 as isize) as *const Zval
        }
        /// The slot of a TMP/VAR/CV operand.
        #[inline(always)]
        pub unsafe fn $slot(ip: *const Op, fp: *mut Zval) -> *mut Zval {
            let ip = $base(ip);
            // SAFETY: slot operands are offsets within the frame at fp.
            frame_cell(fp, (*ip).$field)
        }
        /// TMP operand: never a reference, never undefined.
        #[inline(always)]
        pub unsafe fn $tmp(ip: *const Op, fp: *mut Zval) -> *const Zval {
            $slot(ip, fp)
        }
        /// VAR (or TMP) operand for reading: dereferenced.
        #[inline(always)]
        pub unsafe fn $var_deref(ip: *const Op, fp: *mut Zval) -> *const Zval {
            (*$slot(ip, fp)).deref()
        }
        /// CV operand for reading: an undefined CV warns and reads as NULL.
        #[inline(always)]
        pub unsafe fn $cv_read(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> *const Zval {
            let p = $slot(ip, fp);
            if (*p).is_undef() {
                return undef_cv(vm, fp, $base(ip), (*$base(ip)).$field);
            }
            (*p).deref()
        }
        /// CV operand without the undef check, dereferenced.
        #[inline(always)]
        pub unsafe fn $cv_deref(ip: *const Op, fp: *mut Zval) -> *const Zval {
            (*$slot(ip, fp)).deref()
        }
        /// CV operand for reading, dereferenced; null when undefined (the
        /// hot copy of an `#[outline_slow]` handler leaves the warning to
        /// its cold copy).
        #[inline(always)]
        pub unsafe fn $cv_or_null(ip: *const Op, fp: *mut Zval) -> *const Zval {
            let p = $slot(ip, fp);
            if (*p).is_undef() {
                return core::ptr::null();
            }
            (*p).deref()
        }
        /// TMP, VAR or CV operand for reading (kind checked at run time).
        #[inline(always)]
        pub unsafe fn $tmpvarcv_read(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> *const Zval {
            if (*$base(ip)).$kind == IS_CV {
                $cv_read(ip, fp, vm)
            } else {
                $var_deref(ip, fp)
            }
        }
        /// Any operand kind for reading (kind checked at run time).
        #[inline(always)]
        pub unsafe fn $any_read(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> *const Zval {
            match (*$base(ip)).$kind {
                IS_CONST => $const_(ip),
                IS_CV => $cv_read(ip, fp, vm),
                IS_TMP_VAR | IS_VAR => $var_deref(ip, fp),
                _ => null_ptr(),
            }
        }
        #[inline(always)]
        pub unsafe fn $any_raw(ip: *const Op, fp: *mut Zval) -> *const Zval {
            match (*$base(ip)).$kind {
                IS_CONST => $const_(ip),
                IS_CV | IS_TMP_VAR | IS_VAR => $slot(ip, fp),
                _ => null_ptr(),
            }
        }
        #[inline(always)]
        pub unsafe fn $any_deref(ip: *const Op, fp: *mut Zval) -> *const Zval {
            (*$any_raw(ip, fp)).deref()
        }
        /// VAR/CV operand for writing: the slot, or the element a VAR's
        /// INDIRECT points at.
        #[inline(always)]
        pub unsafe fn $any_write(ip: *const Op, fp: *mut Zval) -> *mut Zval {
            if (*$base(ip)).$kind == IS_VAR {
                $var_ptr(ip, fp)
            } else {
                $slot(ip, fp)
            }
        }
        #[inline(always)]
        pub unsafe fn $var_ptr(ip: *const Op, fp: *mut Zval) -> *mut Zval {
            let p = $slot(ip, fp);
            if (*p).kind() == IS_INDIRECT {
                (*p).zv_ptr()
            } else {
                p
            }
        }
        /// Releases a TMP/VAR operand.
        #[inline(always)]
        pub unsafe fn $free(ip: *const Op, fp: *mut Zval) {
            let p = $slot(ip, fp);
            // SAFETY: the TMP/VAR slot owns its value until its consumer frees it.
            (*p).ptr_dtor();
        }
        #[inline(always)]
        pub unsafe fn $free_tmpvar(ip: *const Op, fp: *mut Zval) {
            if (*$base(ip)).$kind & (IS_TMP_VAR | IS_VAR) != 0 {
                $free(ip, fp)
            }
        }
        #[inline(always)]
        pub unsafe fn $free_any(ip: *const Op, fp: *mut Zval) {
            $free_tmpvar(ip, fp)
        }
        /// JMP_ADDR operand: the target opline.
        #[inline(always)]
        pub unsafe fn $jmp(ip: *const Op) -> *const Op {
            let ip = $base(ip);
            (ip as *const u8).offset((*ip).$field as i32 as isize) as *const Op
        }
    };
}

#[inline(always)]
unsafe fn this_op(ip: *const Op) -> *const Op {
    ip
}
#[inline(always)]
unsafe fn data_op(ip: *const Op) -> *const Op {
    ip.add(1)
}

operand_fns!(op1, op1_type, const_1, tmp_1, slot_1, var_deref_1, cv_read_1, cv_deref_1, cv_or_null_1,
    tmpvarcv_read_1, any_read_1, any_raw_1, any_deref_1, any_write_1, var_ptr_1, free_1,
    free_tmpvar_1, free_any_1, jmp_addr_1, this_op);
operand_fns!(op2, op2_type, const_2, tmp_2, slot_2, var_deref_2, cv_read_2, cv_deref_2, cv_or_null_2,
    tmpvarcv_read_2, any_read_2, any_raw_2, any_deref_2, any_write_2, var_ptr_2, free_2,
    free_tmpvar_2, free_any_2, jmp_addr_2, this_op);
operand_fns!(op1, op1_type, const_od, tmp_od, slot_od, var_deref_od, cv_read_od, cv_deref_od, cv_or_null_od,
    tmpvarcv_read_od, any_read_od, any_raw_od, any_deref_od, any_write_od, var_ptr_od, free_od,
    free_tmpvar_od, free_any_od, jmp_addr_od, data_op);

/// The result slot.
#[inline(always)]
pub unsafe fn result(ip: *const Op, fp: *mut Zval) -> *mut Zval {
    frame_cell(fp, (*ip).result)
}

/// The cell at byte offset `off` in the frame at `fp`, with its address in a
/// register of its own.
///
/// Recent x86 cores (measured here on a Sapphire Rapids class Xeon) forward
/// a store to a later load of the same cell with no latency ("memory
/// renaming") only when both address it as register + displacement; with
/// an index register (`[fp + off]`, LLVM's natural fold of the add) every
/// hop costs a full store-forwarding latency, ~5 cycles. A value that goes
/// TMP -> TMP -> CV -> next iteration pays that at each handler boundary.
/// The empty `asm!` hides the sum from the addressing-mode fold, as Zend's
/// `EX_VAR` (a pointer add, then `[reg]`) ends up compiled.
#[inline(always)]
pub unsafe fn frame_cell(fp: *mut Zval, off: u32) -> *mut Zval {
    // SAFETY (of the add): callers pass offsets within the frame at fp.
    #[allow(unused_mut)]
    let mut p = (fp as *mut u8).add(off as usize);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an empty asm block that only passes the pointer through a
    // register; it reads and writes no memory.
    core::arch::asm!("/* {0} */", inout(reg) p, options(pure, nomem, nostack, preserves_flags));
    p as *mut Zval
}

/// Warns `Undefined variable $name` for the CV at byte offset `off`.
#[cold]
#[inline(never)]
pub unsafe fn undef_cv(vm: *mut Vm, fp: *mut Zval, ip: *const Op, off: u32) -> *const Zval {
    let frame = fp as *mut Frame;
    (*frame).opline = ip;
    let idx = crate::ops::offset_slot(off) as usize;
    let func = &*(*frame).func;
    let name = func.op.cv_names.get(idx).cloned().unwrap_or_default();
    let mut msg = b"Undefined variable $".to_vec();
    msg.extend_from_slice(&name);
    (*vm).warning_bytes(&msg);
    null_ptr()
}
