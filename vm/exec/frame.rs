//! The call frame header that sits in front of every frame's slots.

use crate::ops::{Op, FRAME_HEADER};
use crate::runtime::function::{FuncEntry, Function};
use crate::value::Zval;

/// Frame header (Zend's `zend_execute_data`). A frame pointer `fp` points at
/// it; slot `n` lives at `fp + FRAME_HEADER + 16 n`.
#[repr(C)]
pub struct Frame {
    /// The opline being executed (saved before anything that may warn,
    /// throw or call); the caller's resume point while a callee runs.
    pub opline: *const Op,
    /// Innermost call being prepared (pushed by INIT_*, not yet made).
    pub call: *mut Frame,
    /// Where RETURN stores the value; null when the caller ignores it.
    pub return_value: *mut Zval,
    pub func: *const Function,
    /// This context's record of the function (runtime cache, statics).
    pub entry: *mut FuncEntry,
    /// `$this` (later); `u2` holds the number of arguments passed.
    pub this: Zval,
    /// While being prepared: the next outer call being prepared. Once
    /// running: the caller's frame.
    pub prev: *mut Frame,
    pub rt_cache: *mut usize,
    /// The called scope of a method (`static::`), written only by method
    /// calls: read it only in frames of methods.
    pub scope: *const crate::runtime::class::Class,
}

const _: () = assert!(core::mem::size_of::<Frame>() == FRAME_HEADER as usize);

impl Frame {
    #[inline(always)]
    pub fn num_args(&self) -> u32 {
        self.this.u2
    }
    /// `$this`, or null.
    #[inline(always)]
    pub fn this_obj(&self) -> *mut crate::value::object::ZObject {
        if self.this.kind() == crate::value::IS_OBJECT {
            self.this.obj()
        } else {
            core::ptr::null_mut()
        }
    }
    /// Slot `n` of the frame at `fp`.
    #[inline(always)]
    pub unsafe fn slot(fp: *mut Frame, n: u32) -> *mut Zval {
        (fp as *mut u8).add(crate::ops::slot_offset(n) as usize) as *mut Zval
    }
}
