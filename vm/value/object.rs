//! Objects (Zend's `zend_object`): a refcounted box with an identity (the
//! handle `var_dump` prints as `#N`), a class, a fixed slot table for the
//! declared properties (in the class's slot order, inline after the header)
//! and an optional ordered hash of dynamic properties.
//!
//! Objects are the one kind whose release runs PHP code (`__destruct`), and
//! whose identity is numbered per context: both need the running `Vm`, which
//! the executor registers per thread (`exec::vm::current`). The value layer
//! reaches the executor only through the two hooks below.

use core::alloc::Layout;

use super::array::ZArray;
use super::zval::{GcHeader, Zval, IS_OBJECT};
use crate::runtime::class::Class;

/// The destructor has run (or was skipped at shutdown): never run it again.
pub const OBJ_DESTRUCTOR_CALLED: u32 = 1;
/// The object is being freed (its slots are being released).
pub const OBJ_FREEING: u32 = 2;
/// Some WeakMap has this object as a key (`Vm::weak_refs`).
pub const OBJ_WEAKLY_REFERENCED: u32 = 4;

#[repr(C)]
pub struct ZObject {
    pub header: GcHeader,
    /// Identity within its context, from 1; reused after the object is freed.
    pub handle: u32,
    pub flags: u32,
    pub class: *const Class,
    /// Dynamic properties (null until the first one is added).
    pub dynamic: *mut ZArray,
    /// Native state of builtin classes (a closure's function and bindings),
    /// dropped with the object.
    pub internal: Option<Box<dyn core::any::Any>>,
    pub num_slots: u32,
    _pad: u32,
    // followed by `num_slots` Zvals
}

/// Bytes of an object with `n` property slots.
fn layout(n: u32) -> Layout {
    let size = core::mem::size_of::<ZObject>() + n as usize * core::mem::size_of::<Zval>();
    // SAFETY: the size is small and the alignment a power of two.
    unsafe { Layout::from_size_align_unchecked(size, core::mem::align_of::<ZObject>()) }
}

const _: () = assert!(core::mem::size_of::<ZObject>() % 8 == 0);

impl ZObject {
    /// A new object of `class` with refcount 1, its slots initialized to
    /// `defaults` (copied), and no handle yet (the store assigns it).
    ///
    /// # Safety
    /// `class` outlives the object; `defaults` are valid values.
    pub unsafe fn alloc(class: *const Class, defaults: &[Zval]) -> *mut ZObject {
        let n = defaults.len() as u32;
        let p = super::heap::alloc(layout(n)) as *mut ZObject;
        #[cfg(any(debug_assertions, test))]
        super::live::inc();
        core::ptr::write(
            p,
            ZObject {
                header: GcHeader::new(IS_OBJECT),
                handle: 0,
                flags: 0,
                class,
                dynamic: core::ptr::null_mut(),
                internal: None,
                num_slots: n,
                _pad: 0,
            },
        );
        let slots = ZObject::slots_ptr(p);
        for (i, d) in defaults.iter().enumerate() {
            *slots.add(i) = d.copy_value();
        }
        p
    }

    /// The first property slot.
    #[inline(always)]
    pub unsafe fn slots_ptr(o: *mut ZObject) -> *mut Zval {
        (o as *mut u8).add(core::mem::size_of::<ZObject>()) as *mut Zval
    }

    #[inline(always)]
    pub unsafe fn slot(o: *mut ZObject, i: u32) -> *mut Zval {
        ZObject::slots_ptr(o).add(i as usize)
    }

    #[inline(always)]
    pub unsafe fn class<'a>(o: *const ZObject) -> &'a Class {
        &*(*o).class
    }

    /// Releases the object's properties and memory (the destructor, if
    /// any, has run or been skipped). Called by `free_box` through the
    /// executor's hook, which also frees the handle.
    ///
    /// # Safety
    /// `o` came from `alloc`, nothing references it any more.
    pub unsafe fn destroy(o: *mut ZObject) {
        (*o).flags |= OBJ_FREEING;
        let n = (*o).num_slots;
        for i in 0..n {
            let s = ZObject::slot(o, i);
            let v = *s;
            *s = Zval::UNDEF;
            v.ptr_dtor();
        }
        let d = (*o).dynamic;
        if !d.is_null() {
            (*o).dynamic = core::ptr::null_mut();
            Zval::array(d).ptr_dtor();
        }
        (*o).internal = None;
        #[cfg(any(debug_assertions, test))]
        super::live::dec();
        core::ptr::drop_in_place(o);
        super::heap::dealloc(o as *mut u8, layout(n));
    }
}

impl Zval {
    /// Takes ownership of one reference to `o`.
    #[inline(always)]
    pub fn object(o: *mut ZObject) -> Zval {
        Zval { value: super::zval::Payload { ptr: o as *mut u8 }, type_info: super::zval::TI_OBJECT, u2: 0 }
    }
    #[inline(always)]
    pub fn obj(&self) -> *mut ZObject {
        // SAFETY: reading the pointer member of the payload union is always defined.
        unsafe { self.value.ptr as *mut ZObject }
    }
    #[inline(always)]
    pub fn is_object(&self) -> bool {
        self.kind() == IS_OBJECT
    }
}
