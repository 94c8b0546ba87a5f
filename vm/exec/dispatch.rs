//! The dispatch shape: the only file that knows whether handlers thread
//! (each ends by calling the next opline's handler, a jump in optimized
//! builds) or return to a loop (unoptimized builds, where a call per opline
//! would grow the Rust stack). `build.rs` sets `tusk_dispatch="loop"` for
//! opt-level < 2 or when `TUSK_DISPATCH=loop`.

use super::vm::Vm;
use super::Ret;
use crate::ops::Op;
use crate::value::Zval;

/// Continue at `ip` in frame `fp`.
#[cfg(not(tusk_dispatch = "loop"))]
#[inline(always)]
pub unsafe fn next(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> Ret {
    // SAFETY: every run-form opline carries a selected handler.
    ((*ip).handler)(ip, fp, vm)
}

#[cfg(tusk_dispatch = "loop")]
#[inline(always)]
pub unsafe fn next(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> Ret {
    (*vm).ip = ip;
    (*vm).fp = fp;
    Ret::Continue
}

pub const THREADED: bool = cfg!(not(tusk_dispatch = "loop"));

/// Runs from `ip` in `fp` until a handler leaves the chain.
pub unsafe fn run(vm: *mut Vm, mut ip: *const Op, mut fp: *mut Zval) -> Ret {
    loop {
        match ((*ip).handler)(ip, fp, vm) {
            Ret::Continue => {
                ip = (*vm).ip;
                fp = (*vm).fp;
            }
            Ret::Interrupt => {
                if let Some(stop) = (*vm).on_interrupt() {
                    return stop;
                }
                ip = (*vm).ip;
                fp = (*vm).fp;
            }
            other => return other,
        }
    }
}

/// True when a jump from `ip` to `target` must first serve an interrupt.
/// Only backward jumps check, so straight-line code pays nothing.
#[inline(always)]
pub unsafe fn check_interrupt(vm: *mut Vm, ip: *const Op, target: *const Op) -> bool {
    target <= ip && (*vm).interrupt_pending()
}

/// Leaves the chain to serve an interrupt; execution resumes at `ip`.
#[cold]
#[inline(never)]
pub unsafe fn interrupted(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> Ret {
    (*vm).ip = ip;
    (*vm).fp = fp;
    // Opaque, so that LLVM cannot fold the constant into the caller: a
    // caller that knows the result makes a plain call (and so needs a stack
    // frame on its fast path) instead of jumping here.
    core::hint::black_box(Ret::Interrupt)
}

/// The HANDLE_EXCEPTION opline: where a throw continues. The throwing
/// opline is in the frame header.
#[inline(always)]
pub unsafe fn exception_op(vm: *mut Vm) -> *const Op {
    &(*vm).exception_op
}
