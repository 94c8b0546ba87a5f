//! Values: the 16-byte `Zval`, refcounted strings, ordered arrays,
//! references, and PHP's conversion and comparison rules.
//!
//! Depends on nothing else in Tusk. Diagnostics are not raised here:
//! conversions return what happened, `arith` reports warnings and
//! deprecations through a callback and returns throws as `arith::Throw`, and
//! the executor's slow paths turn them into PHP diagnostics and exceptions.

pub mod zval;
pub mod heap;
pub mod guard;
pub mod string;
pub mod array;
pub mod refs;
pub mod object;
pub mod convert;
pub mod compare;
pub mod number;
pub mod arith;
pub mod print;

pub use array::{Key, KeyRef, ZArray};
pub use refs::ZRef;
pub use string::ZString;
pub use zval::*;

/// Live heap boxes (strings, arrays, references) created by this thread,
/// counted in debug builds so tests can assert nothing leaked.
#[cfg(any(debug_assertions, test))]
pub mod live {
    use core::cell::Cell;
    thread_local! {
        static LIVE: Cell<isize> = const { Cell::new(0) };
    }
    #[inline]
    pub fn inc() {
        LIVE.with(|c| c.set(c.get() + 1));
    }
    #[inline]
    pub fn dec() {
        LIVE.with(|c| c.set(c.get() - 1));
    }
    /// Boxes allocated and not yet freed on this thread.
    pub fn count() -> isize {
        LIVE.with(|c| c.get())
    }
}

/// Test guard: asserts on drop that the thread's live box count is back to
/// where it was when the guard was made.
#[cfg(test)]
pub(crate) struct LeakCheck(isize);

#[cfg(test)]
impl LeakCheck {
    pub(crate) fn new() -> LeakCheck {
        LeakCheck(live::count())
    }
}

#[cfg(test)]
impl Drop for LeakCheck {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert_eq!(live::count(), self.0, "heap boxes leaked");
        }
    }
}

/// Frees a heap box whose refcount reached zero, by its kind.
///
/// # Safety
/// `h` points at a live box with refcount 0 that nothing else references.
#[cold]
pub unsafe fn free_box(h: *mut GcHeader) {
    match (*h).type_info as u8 {
        IS_STRING => ZString::free(h as *mut ZString),
        IS_ARRAY => ZArray::free(h as *mut ZArray),
        IS_REFERENCE => ZRef::free(h as *mut ZRef),
        IS_OBJECT => crate::exec::slow::object::release(h as *mut object::ZObject),
        _ => {}
    }
}

/// Releases a literal the compiler built (refcounted, not yet immutable).
///
/// # Safety
/// `v` owns one reference to its payload.
pub unsafe fn free_literal(v: Zval) {
    v.ptr_dtor();
}
