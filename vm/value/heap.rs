//! Memory accounting for PHP values: every string, array and stack-page
//! allocation goes through here, so a running script can be held to its
//! `memory_limit`.
//!
//! The count is per thread (a context runs on one thread at a time). Outside
//! a run the limit is infinite; `Vm::run_program` sets it for the run. When
//! an allocation would pass it, the allocation does not happen: the thread
//! unwinds with a `MemoryExhausted` payload (without the panic hook, so
//! nothing is printed), which the run catches and reports as PHP's fatal
//! error — Zend's `zend_bailout()`. Every caller charges *before* touching
//! its data structure, so what unwinds past is left consistent; values owned
//! only by abandoned frames are leaked, as the request ends there.

use core::cell::Cell;
use std::alloc::{self, Layout};

struct Account {
    used: Cell<usize>,
    limit: Cell<usize>,
}

thread_local! {
    static ACCOUNT: Account = const { Account { used: Cell::new(0), limit: Cell::new(usize::MAX) } };
}

/// Unwinding payload of an allocation refused by the memory limit.
pub struct MemoryExhausted {
    /// The request, as Zend's allocator would report it.
    pub tried: usize,
}

/// Bytes this thread has charged and not released.
pub fn used() -> usize {
    ACCOUNT.with(|a| a.used.get())
}

/// Sets the total `used()` may reach; returns the previous limit.
pub fn set_limit(limit: usize) -> usize {
    ACCOUNT.with(|a| a.limit.replace(limit))
}

/// Zend's allocator serves large requests in whole pages: the size its
/// limit error names.
fn reported(n: usize) -> usize {
    if n > 3072 {
        n.saturating_add(4095) & !4095
    } else {
        n
    }
}

/// Counts `n` more bytes, or unwinds with `MemoryExhausted` if that passes
/// the limit (counting nothing).
#[inline]
pub fn charge(n: usize) {
    if !try_charge(n) {
        exhausted(n);
    }
}

/// Counts `n` more bytes if that stays within the limit.
#[inline]
pub fn try_charge(n: usize) -> bool {
    ACCOUNT.with(|a| {
        let v = a.used.get().saturating_add(n);
        if v > a.limit.get() {
            return false;
        }
        a.used.set(v);
        true
    })
}

/// For output built in a Rust buffer (not counted): refuses to let it
/// grow past what the limit leaves, as Zend's would-be string would.
#[inline]
pub fn check_buffer(len: usize) {
    ACCOUNT.with(|a| {
        if a.used.get().saturating_add(len) > a.limit.get() {
            exhausted(len);
        }
    })
}

/// Gives back `n` counted bytes.
#[inline]
pub fn release(n: usize) {
    ACCOUNT.with(|a| a.used.set(a.used.get().saturating_sub(n)));
}

/// Refuses an allocation of `n` bytes: unwinds to the running script's
/// catch point.
#[cold]
#[inline(never)]
pub fn exhausted(n: usize) -> ! {
    std::panic::resume_unwind(Box::new(MemoryExhausted { tried: reported(n) }))
}

/// `alloc` with accounting; never returns null.
///
/// # Safety
/// As `std::alloc::alloc`: `l` has non-zero size.
#[inline]
pub unsafe fn alloc(l: Layout) -> *mut u8 {
    charge(l.size());
    let p = alloc::alloc(l);
    if p.is_null() {
        alloc::handle_alloc_error(l);
    }
    p
}

/// `dealloc` with accounting.
///
/// # Safety
/// As `std::alloc::dealloc`: `p` came from `alloc`/`realloc` here with layout `l`.
#[inline]
pub unsafe fn dealloc(p: *mut u8, l: Layout) {
    release(l.size());
    alloc::dealloc(p, l);
}

/// `realloc` with accounting; never returns null. On a refused growth the
/// old block is untouched.
///
/// # Safety
/// As `std::alloc::realloc`: `p` came from here with layout `l`; `new_size`
/// is non-zero and, rounded to `l.align()`, does not overflow `isize`.
#[inline]
pub unsafe fn realloc(p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
    if new_size > l.size() {
        charge(new_size - l.size());
    } else {
        release(l.size() - new_size);
    }
    let np = alloc::realloc(p, l, new_size);
    if np.is_null() {
        alloc::handle_alloc_error(Layout::from_size_align_unchecked(new_size, l.align()));
    }
    np
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_the_limit_and_unwinds_with_the_payload() {
        let old = set_limit(used() + 1000);
        let ok = std::panic::catch_unwind(|| {
            charge(600);
            release(600);
        });
        assert!(ok.is_ok());
        let r = std::panic::catch_unwind(|| charge(5000));
        set_limit(old);
        let payload = r.expect_err("must unwind");
        let m = payload.downcast_ref::<MemoryExhausted>().expect("payload");
        assert_eq!(m.tried, 8192);
    }
}
