//! The native-stack guard for recursive value operations (comparison and
//! printing of nested arrays): PHP data can nest far deeper than any Rust
//! stack, so recursion checks how much stack is left and, near the end,
//! unwinds with `StackExhausted` (caught by the run and reported as a fatal
//! error) instead of overflowing. Freeing nested arrays is iterative (see
//! `ZArray::free`) and needs no guard.

use core::cell::Cell;

thread_local! {
    /// Lowest stack address recursion may reach on this thread (0: no guard).
    static FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// Unwinding payload: a recursive value operation ran out of native stack.
pub struct StackExhausted {
    /// Size of the thread's stack in bytes.
    pub stack_size: usize,
}

/// Stack kept free below the floor for the unwinder, the fatal-error report
/// and whatever the recursion calls between two checks.
const MARGIN: usize = 256 * 1024;

/// Bounds `(lowest address, size)` of the current thread's stack.
fn thread_stack() -> Option<(usize, usize)> {
    // SAFETY: `attr` is initialised by pthread_getattr_np before use and
    // destroyed after; the out-pointers point at locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = core::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = core::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let r = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if r != 0 {
            return None;
        }
        Some((addr as usize, size))
    }
}

/// Arms the guard for this thread; returns the previous floor for `disarm`.
pub fn arm() -> usize {
    let floor = match thread_stack() {
        Some((low, size)) if size > 2 * MARGIN => low + MARGIN,
        _ => 0,
    };
    FLOOR.with(|f| f.replace(floor))
}

/// Restores the floor `arm` returned.
pub fn disarm(previous: usize) {
    FLOOR.with(|f| f.set(previous));
}

/// Call at every level of a recursion over PHP data.
#[inline]
pub fn check() {
    let here = 0u8;
    let sp = &here as *const u8 as usize;
    if sp < FLOOR.with(Cell::get) {
        exhausted();
    }
}

#[cold]
#[inline(never)]
fn exhausted() -> ! {
    let stack_size = thread_stack().map_or(0, |(_, s)| s);
    std::panic::resume_unwind(Box::new(StackExhausted { stack_size }))
}
