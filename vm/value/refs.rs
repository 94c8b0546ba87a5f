//! PHP references (`&`): a refcounted box holding one value.

use super::zval::{GcHeader, Zval, IS_REFERENCE};

#[repr(C)]
pub struct ZRef {
    pub header: GcHeader,
    pub val: Zval,
}

impl ZRef {
    /// A new reference box with refcount 1 that owns `val`.
    pub fn new(val: Zval) -> *mut ZRef {
        #[cfg(any(debug_assertions, test))]
        super::live::inc();
        Box::into_raw(Box::new(ZRef { header: GcHeader::new(IS_REFERENCE), val }))
    }

    /// # Safety
    /// `r` came from `ZRef::new` and its refcount reached zero.
    pub unsafe fn free(r: *mut ZRef) {
        #[cfg(any(debug_assertions, test))]
        super::live::dec();
        let b = Box::from_raw(r);
        b.val.ptr_dtor();
    }
}

/// Turns the value in `slot` into a reference holding it (an undefined
/// value becomes a reference to NULL); no-op when it already is one.
///
/// # Safety
/// `slot` is a live, owned value slot (a CV, an array element, a VAR).
pub unsafe fn make_ref(slot: *mut Zval) {
    if !(*slot).is_reference() {
        let v = if (*slot).is_undef() { Zval::NULL } else { *slot };
        *slot = Zval::reference(ZRef::new(v));
    }
}
