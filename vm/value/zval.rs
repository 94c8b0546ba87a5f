//! The 16-byte value cell (Zend's `zval`).
//!
//! A `Zval` is a raw cell: it is `Copy` and has no destructor, exactly like
//! Zend's. Ownership of the refcounted payload is tracked by the code that
//! holds the cell (VM slots, array buckets): copying a value *as a new owner*
//! is `copy_value()` (bit copy + addref), dropping an owned value is
//! `ptr_dtor()`. Handlers never hold a value with a Rust destructor, which is
//! what lets their final call become a jump.

use super::array::ZArray;
use super::refs::ZRef;
use super::string::ZString;

/// Kind bytes, Zend's numbering.
pub const IS_UNDEF: u8 = 0;
pub const IS_NULL: u8 = 1;
pub const IS_FALSE: u8 = 2;
pub const IS_TRUE: u8 = 3;
pub const IS_LONG: u8 = 4;
pub const IS_DOUBLE: u8 = 5;
pub const IS_STRING: u8 = 6;
pub const IS_ARRAY: u8 = 7;
pub const IS_OBJECT: u8 = 8;
pub const IS_RESOURCE: u8 = 9;
pub const IS_REFERENCE: u8 = 10;
/// A constant expression evaluated at run time (a parameter default's
/// literal; the payload is an index into the op array's `default_thunks`).
pub const IS_CONSTANT_AST: u8 = 11;
/// VM-internal: the payload points at another `Zval` (write fetches).
pub const IS_INDIRECT: u8 = 12;
/// VM-internal: an opaque pointer (foreach positions, classes, ...).
pub const IS_PTR: u8 = 13;

/// Flag byte (bits 8..16 of the type word): the payload is a refcounted heap
/// box. Immutable strings and arrays are stored without it, so copying them
/// costs no refcount traffic.
pub const TYPE_REFCOUNTED: u32 = 1 << 8;

pub const TI_STRING_RC: u32 = IS_STRING as u32 | TYPE_REFCOUNTED;
pub const TI_ARRAY_RC: u32 = IS_ARRAY as u32 | TYPE_REFCOUNTED;
pub const TI_REFERENCE: u32 = IS_REFERENCE as u32 | TYPE_REFCOUNTED;
pub const TI_OBJECT: u32 = IS_OBJECT as u32 | TYPE_REFCOUNTED;

/// Header every heap box starts with (Zend's `zend_refcounted_h`).
#[repr(C)]
pub struct GcHeader {
    pub refcount: u32,
    /// Low byte: kind (IS_STRING, IS_ARRAY, ...). Higher bits: `GC_*` flags.
    pub type_info: u32,
}

/// The box is immutable and shared (literals): never refcounted, never freed
/// by a refcount reaching zero.
pub const GC_IMMUTABLE: u32 = 1 << 6 << 8;
/// The box outlives a request (owned by a compiled program).
pub const GC_PERSISTENT: u32 = 1 << 7 << 8;
/// The box is being walked by a recursive operation (comparison, dumping);
/// meeting it again means a cycle (Zend's `GC_PROTECTED`). Never set on
/// immutable boxes.
pub const GC_PROTECTED: u32 = 1 << 5 << 8;
/// A string known to be valid UTF-8 (Zend's `IS_STR_VALID_UTF8`): set by
/// `preg_*` under `/u` after PCRE's check passed, cleared by any change
/// to the bytes (`ZString::append`, `ZString::set_len`). Never set on
/// immutable strings.
pub const GC_VALID_UTF8: u32 = 1 << 4 << 8;

impl GcHeader {
    #[inline(always)]
    pub const fn new(kind: u8) -> GcHeader {
        GcHeader { refcount: 1, type_info: kind as u32 }
    }
    #[inline(always)]
    pub fn is_immutable(&self) -> bool {
        self.type_info & GC_IMMUTABLE != 0
    }
    #[inline(always)]
    pub fn is_protected(&self) -> bool {
        self.type_info & GC_PROTECTED != 0
    }
}

#[derive(Clone, Copy)]
#[repr(C)]
pub union Payload {
    pub lval: i64,
    pub dval: f64,
    pub ptr: *mut u8,
    pub counted: *mut GcHeader,
    pub str: *mut ZString,
    pub arr: *mut ZArray,
    pub r#ref: *mut ZRef,
    pub zv: *mut Zval,
}

#[derive(Clone, Copy)]
#[repr(C)]
pub struct Zval {
    pub value: Payload,
    /// Low byte: kind. Second byte: type flags (`TYPE_REFCOUNTED`).
    pub type_info: u32,
    /// Spare word: hash chains in arrays, foreach positions, argument counts.
    pub u2: u32,
}

const _: () = assert!(core::mem::size_of::<Zval>() == 16);

impl Zval {
    pub const UNDEF: Zval = Zval { value: Payload { lval: 0 }, type_info: IS_UNDEF as u32, u2: 0 };
    pub const NULL: Zval = Zval { value: Payload { lval: 0 }, type_info: IS_NULL as u32, u2: 0 };
    pub const FALSE: Zval = Zval { value: Payload { lval: 0 }, type_info: IS_FALSE as u32, u2: 0 };
    pub const TRUE: Zval = Zval { value: Payload { lval: 0 }, type_info: IS_TRUE as u32, u2: 0 };

    #[inline(always)]
    pub const fn long(v: i64) -> Zval {
        Zval { value: Payload { lval: v }, type_info: IS_LONG as u32, u2: 0 }
    }
    #[inline(always)]
    pub const fn double(v: f64) -> Zval {
        Zval { value: Payload { dval: v }, type_info: IS_DOUBLE as u32, u2: 0 }
    }
    #[inline(always)]
    pub const fn bool(b: bool) -> Zval {
        if b {
            Zval::TRUE
        } else {
            Zval::FALSE
        }
    }
    /// Takes ownership of one reference to `s`. Immutable strings are stored
    /// without the refcounted flag.
    #[inline(always)]
    pub fn string(s: *mut ZString) -> Zval {
        // SAFETY: callers pass a live string box.
        let imm = unsafe { (*s).header.is_immutable() };
        let ti = if imm { IS_STRING as u32 } else { TI_STRING_RC };
        Zval { value: Payload { str: s }, type_info: ti, u2: 0 }
    }
    /// Takes ownership of one reference to `a`.
    #[inline(always)]
    pub fn array(a: *mut ZArray) -> Zval {
        // SAFETY: callers pass a live array box.
        let imm = unsafe { (*a).header.is_immutable() };
        let ti = if imm { IS_ARRAY as u32 } else { TI_ARRAY_RC };
        Zval { value: Payload { arr: a }, type_info: ti, u2: 0 }
    }
    #[inline(always)]
    pub fn reference(r: *mut ZRef) -> Zval {
        Zval { value: Payload { r#ref: r }, type_info: TI_REFERENCE, u2: 0 }
    }
    #[inline(always)]
    pub fn indirect(p: *mut Zval) -> Zval {
        Zval { value: Payload { zv: p }, type_info: IS_INDIRECT as u32, u2: 0 }
    }
    #[inline(always)]
    pub fn ptr(p: *mut u8) -> Zval {
        Zval { value: Payload { ptr: p }, type_info: IS_PTR as u32, u2: 0 }
    }

    #[inline(always)]
    pub fn kind(&self) -> u8 {
        self.type_info as u8
    }
    #[inline(always)]
    pub fn is_undef(&self) -> bool {
        self.kind() == IS_UNDEF
    }
    #[inline(always)]
    pub fn is_long(&self) -> bool {
        self.kind() == IS_LONG
    }
    #[inline(always)]
    pub fn is_double(&self) -> bool {
        self.kind() == IS_DOUBLE
    }
    #[inline(always)]
    pub fn is_string(&self) -> bool {
        self.kind() == IS_STRING
    }
    #[inline(always)]
    pub fn is_array(&self) -> bool {
        self.kind() == IS_ARRAY
    }
    #[inline(always)]
    pub fn is_reference(&self) -> bool {
        self.kind() == IS_REFERENCE
    }
    #[inline(always)]
    pub fn is_refcounted(&self) -> bool {
        self.type_info & TYPE_REFCOUNTED != 0
    }
    #[inline(always)]
    pub fn lval(&self) -> i64 {
        // SAFETY: every payload bit pattern is a valid i64.
        unsafe { self.value.lval }
    }
    #[inline(always)]
    pub fn dval(&self) -> f64 {
        // SAFETY: every payload bit pattern is a valid f64.
        unsafe { self.value.dval }
    }
    /// Caller has checked `is_string()`.
    #[inline(always)]
    pub fn str(&self) -> *mut ZString {
        // SAFETY: reading a pointer-sized payload is always defined.
        unsafe { self.value.str }
    }
    /// Caller has checked `is_array()`.
    #[inline(always)]
    pub fn arr(&self) -> *mut ZArray {
        // SAFETY: reading a pointer-sized payload is always defined.
        unsafe { self.value.arr }
    }
    /// Caller has checked `is_reference()`.
    #[inline(always)]
    pub fn zref(&self) -> *mut ZRef {
        // SAFETY: reading a pointer-sized payload is always defined.
        unsafe { self.value.r#ref }
    }
    #[inline(always)]
    pub fn zv_ptr(&self) -> *mut Zval {
        // SAFETY: reading a pointer-sized payload is always defined.
        unsafe { self.value.zv }
    }

    /// `self` itself, or the value inside it when it is a reference.
    ///
    /// The reference case is marked cold so that LLVM branches instead of
    /// selecting with a `cmov`: a predicted branch lets the loads through
    /// the result start before the type byte is read, a `cmov` waits for it
    /// (on chains of array fetches that cost more than the branch).
    #[inline(always)]
    pub fn deref(&self) -> &Zval {
        if self.is_reference() {
            core::hint::cold_path();
            // SAFETY: a reference-kind zval always holds a live ZRef.
            unsafe { &(*self.zref()).val }
        } else {
            self
        }
    }
    #[inline(always)]
    pub fn deref_mut(&mut self) -> &mut Zval {
        if self.is_reference() {
            core::hint::cold_path();
            // SAFETY: a reference-kind zval always holds a live ZRef.
            unsafe { &mut (*self.zref()).val }
        } else {
            self
        }
    }

    /// Adds one owner to the payload (no-op for scalars and immutables).
    #[inline(always)]
    pub fn addref(&self) {
        if self.is_refcounted() {
            // SAFETY: refcounted kinds always point at a live GcHeader.
            unsafe { (*self.value.counted).refcount += 1 }
        }
    }
    /// Stores `v`'s payload and type word into the cell at `p`, leaving its
    /// spare word as it was (Zend's ZVAL_COPY_VALUE). A plain value's spare
    /// word means nothing (only iterators and frame headers use theirs, and
    /// they write it themselves), so scalar results fresh from arithmetic
    /// are stored with one store fewer.
    ///
    /// # Safety
    /// `p` points at a writable, initialized cell that holds nothing to
    /// release.
    #[inline(always)]
    pub unsafe fn store_value(p: *mut Zval, v: Zval) {
        (*p).value = v.value;
        (*p).type_info = v.type_info;
    }

    /// Moves the payload and type word of the cell at `src` into the cell
    /// at `dst` (`store_value` of `load`, without reading the spare word).
    ///
    /// # Safety
    /// `src` is a readable, initialized cell; `dst` a writable, initialized
    /// cell holding nothing to release. No owner is added.
    #[inline(always)]
    pub unsafe fn move_value(dst: *mut Zval, src: *const Zval) {
        let value = core::ptr::read_volatile(src as *const u64);
        let type_info = core::ptr::read_volatile(core::ptr::addr_of!((*src).type_info));
        *(dst as *mut u64) = value;
        (*dst).type_info = type_info;
    }

    /// Reads the cell at `p` as three words: payload (8 bytes), type word
    /// and spare word (4 bytes each). Zend's ZVAL_COPY_VALUE also copies
    /// payload and type word separately.
    ///
    /// Cells are written in parts: the payload, then the type word and spare
    /// word as one 8-byte store or two 4-byte ones, as LLVM sees fit. A plain
    /// `*p` copy compiles to one 16-byte load, which the CPU cannot forward
    /// from narrower stores still in flight: it stalls until they retire (a
    /// dozen cycles or more, on every TMP moved into a CV or an argument right
    /// after it was computed). Each of these loads lies within any one store
    /// that wrote it. Volatile keeps LLVM from merging them again.
    ///
    /// # Safety
    /// `p` points at a readable, initialized cell.
    #[inline(always)]
    pub unsafe fn load(p: *const Zval) -> Zval {
        let value = core::ptr::read_volatile(p as *const u64);
        let type_info = core::ptr::read_volatile(core::ptr::addr_of!((*p).type_info));
        let u2 = core::ptr::read_volatile(core::ptr::addr_of!((*p).u2));
        // SAFETY: any 8 bytes are a valid payload (a union of plain words).
        Zval { value: core::mem::transmute::<u64, Payload>(value), type_info, u2 }
    }

    /// A bit copy that is a new owner (`ZVAL_COPY`).
    #[inline(always)]
    pub fn copy_value(&self) -> Zval {
        self.addref();
        // SAFETY: `self` is a live cell.
        unsafe { Zval::load(self) }
    }
    /// `ZVAL_COPY_DEREF`: copies the value behind a reference.
    #[inline(always)]
    pub fn copy_deref(&self) -> Zval {
        self.deref().copy_value()
    }

    /// Releases one owner (`zval_ptr_dtor`); frees the box at zero.
    ///
    /// # Safety
    /// `self` must own a reference to its payload.
    #[inline(always)]
    pub unsafe fn ptr_dtor(&self) {
        if self.is_refcounted() {
            let h = self.value.counted;
            (*h).refcount -= 1;
            if (*h).refcount == 0 {
                super::free_box(h);
            }
        }
    }
}

impl Default for Zval {
    fn default() -> Zval {
        Zval::UNDEF
    }
}
