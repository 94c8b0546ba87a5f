//! Values: the 16-byte `Zval`, refcounted strings, ordered arrays,
//! references, and PHP's conversion and comparison rules.
//!
//! Depends on nothing else in Tusk. Diagnostics (warnings, TypeErrors) are
//! not raised here: functions that can warn return what happened and the
//! executor's slow paths report it.

pub mod zval;
pub mod string;
pub mod array;
pub mod refs;
pub mod convert;
pub mod compare;
pub mod number;
pub mod arith;
pub mod print;

pub use array::{ZArray, Key};
pub use refs::ZRef;
pub use string::ZString;
pub use zval::*;

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
