//! PHP's ordered hash table (Zend's `zend_hash`).
//!
//! Two forms share one header:
//! - **packed**: a plain `Zval` slot array indexed by key `0..n_used`, with
//!   UNDEF holes and no hash index (lists);
//! - **hash**: 32-byte `Bucket`s in insertion order plus a `u32` chained
//!   index of twice the bucket capacity and a `u32` chain-link array of
//!   the bucket capacity, stored in the same allocation just before the
//!   buckets: `[heads: 2·cap][next: cap][buckets: cap]`. Zend keeps the link
//!   in the bucket value's `u2`, which makes every write into an element
//!   slot responsible for preserving it; Tusk keeps links apart, so a slot
//!   is a plain `Zval` any code may overwrite (see docs/architecture.md).
//!
//! Deletes leave tombstones (UNDEF values); a full table whose tombstones
//! outweigh ~1/32 of its elements is compacted instead of grown. A packed
//! array turns into a hash when a key arrives that would break the
//! `0..n` shape (string key, negative or far key, filling a hole).
//!
//! Every `&mut self` operation requires the caller to have separated the
//! array first (refcount 1, not immutable): see `separate`.

use core::ptr;
use std::alloc::Layout;

use super::string::{hash_bytes, ZString};
use super::zval::*;

const MIN_SIZE: u32 = 8;
/// Bucket capacity limit (2^30 buckets = 32 GiB); beyond it allocation fails.
const MAX_SIZE: u32 = 1 << 30;
const INVALID: u32 = u32::MAX;
const FLAG_PACKED: u32 = 1;

/// Arrays whose refcount reached zero while another array was being
/// destroyed, freed by the outermost `ZArray::free` (no recursion).
struct Deferred {
    active: core::cell::Cell<bool>,
    queue: core::cell::RefCell<Vec<*mut ZArray>>,
}

thread_local! {
    static DEFER: Deferred = const { Deferred { active: core::cell::Cell::new(false), queue: core::cell::RefCell::new(Vec::new()) } };
}

/// A hash-form slot: value, hash (the integer key itself for integer
/// keys), and the key string or null. Its chain link is `next[i]`.
#[repr(C)]
pub struct Bucket {
    pub val: Zval,
    pub h: u64,
    pub key: *mut ZString,
}

#[repr(C)]
pub struct ZArray {
    pub header: GcHeader,
    flags: u32,
    /// Slots/buckets in use, tombstones included (`nNumUsed`).
    n_used: u32,
    /// Live elements (`nNumOfElements`).
    n_elements: u32,
    /// Slot/bucket capacity (`nTableSize`), a power of two.
    cap: u32,
    /// Hash index size - 1 (hash form only).
    mask: u32,
    /// The internal pointer (`nInternalPointer`) of current()/next()/reset():
    /// a position; at a tombstone it means the next live element, at or past
    /// `n_used` no element. Compaction keeps it on the same element.
    pos: u32,
    /// Packed: `*mut Zval`; hash: `*mut Bucket` with the index right before
    /// it. Null until the first insert.
    data: *mut u8,
    next_free: i64,
}

/// An owned array key. `Str` keys must be non-numeric strings (the caller
/// normalizes with `Key::normalize`).
#[derive(Clone, Copy, Debug)]
pub enum Key {
    Int(i64),
    Str(*mut ZString),
}

impl Key {
    /// Zend's key normalization: "123" becomes `Int(123)`, other strings
    /// stay strings. Borrows `s` (no refcount change).
    #[inline]
    pub fn normalize(s: *mut ZString) -> Key {
        // SAFETY: the caller passes a live string.
        match unsafe { (*s).numeric_index() } {
            Some(i) => Key::Int(i),
            None => Key::Str(s),
        }
    }
}

/// A borrowed view of a stored key.
#[derive(Clone, Copy, Debug)]
pub enum KeyRef<'a> {
    Int(i64),
    Str(&'a ZString),
}

#[inline]
fn round_cap(n: u32) -> u32 {
    if n <= MIN_SIZE {
        MIN_SIZE
    } else if n >= MAX_SIZE {
        MAX_SIZE
    } else {
        n.next_power_of_two()
    }
}

#[inline]
fn packed_layout(cap: u32) -> Layout {
    match Layout::array::<Zval>(cap as usize) {
        Ok(l) => l,
        Err(_) => super::heap::exhausted(usize::MAX),
    }
}

#[inline]
fn hash_layout(cap: u32) -> Layout {
    let size = cap as usize * 3 * 4 + cap as usize * core::mem::size_of::<Bucket>();
    match Layout::from_size_align(size, 8) {
        Ok(l) => l,
        Err(_) => super::heap::exhausted(usize::MAX),
    }
}

#[inline]
unsafe fn alloc_layout(l: Layout) -> *mut u8 {
    super::heap::alloc(l)
}

/// Byte equality of two key strings, out of line: `find_str` needs it only
/// when hashes collide or the key is another string with the same bytes.
#[inline(never)]
unsafe fn same_bytes(a: *const ZString, b: *const ZString) -> bool {
    bytes_eq((*a).bytes(), (*b).bytes())
}

/// `a == b` without a `memcmp` call for keys of up to 16 bytes (most
/// array keys): two overlapping word loads from each side.
#[inline]
fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // SAFETY: every read below lies within `0..n` of both slices (n >= 8
    // for the u64 reads, n >= 4 for the u32 ones); unaligned reads.
    unsafe {
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        if (8..=16).contains(&n) {
            let lo = ptr::read_unaligned(pa as *const u64) ^ ptr::read_unaligned(pb as *const u64);
            let hi = ptr::read_unaligned(pa.add(n - 8) as *const u64) ^ ptr::read_unaligned(pb.add(n - 8) as *const u64);
            return lo | hi == 0;
        }
        if (4..8).contains(&n) {
            let lo = ptr::read_unaligned(pa as *const u32) ^ ptr::read_unaligned(pb as *const u32);
            let hi = ptr::read_unaligned(pa.add(n - 4) as *const u32) ^ ptr::read_unaligned(pb.add(n - 4) as *const u32);
            return lo | hi == 0;
        }
    }
    a == b
}

/// Adds an owner to a key string (immutable strings are never counted).
#[inline(always)]
unsafe fn key_addref(s: *mut ZString) {
    if !(*s).header.is_immutable() {
        (*s).header.refcount += 1;
    }
}

#[inline(always)]
unsafe fn key_release(s: *mut ZString) {
    if !(*s).header.is_immutable() {
        (*s).header.refcount -= 1;
        if (*s).header.refcount == 0 {
            ZString::free(s);
        }
    }
}

/// Copy of an element for `dup`: a reference only this array holds is
/// copied as its value (Zend's `zend_array_dup_element`).
#[inline]
unsafe fn dup_value(v: &Zval, source: *const ZArray) -> Zval {
    let mut d = v;
    if v.is_reference() {
        let r = v.zref();
        let inner = &(*r).val;
        if (*r).header.refcount == 1 && !(inner.is_array() && inner.arr() as *const ZArray == source) {
            d = inner;
        }
    }
    let mut c = d.copy_value();
    c.u2 = 0;
    c
}

impl ZArray {
    /// An empty array with refcount 1 (no storage until the first insert).
    pub fn new() -> *mut ZArray {
        ZArray::with_capacity(0)
    }

    /// An empty packed array with room for `n` elements before growing.
    pub fn with_capacity(n: u32) -> *mut ZArray {
        super::heap::charge(core::mem::size_of::<ZArray>());
        #[cfg(any(debug_assertions, test))]
        super::live::inc();
        Box::into_raw(Box::new(ZArray {
            header: GcHeader::new(IS_ARRAY),
            flags: FLAG_PACKED,
            n_used: 0,
            n_elements: 0,
            cap: round_cap(n),
            mask: 0,
            pos: 0,
            data: ptr::null_mut(),
            next_free: i64::MIN,
        }))
    }

    /// Releases every value and key and frees the array.
    ///
    /// # Safety
    /// `p` came from this module, its refcount reached zero (or it was never
    /// shared), it is not immutable, and nothing uses it afterwards.
    pub unsafe fn free(p: *mut ZArray) {
        if DEFER.with(|d| d.active.replace(true)) {
            // Inside another array's destruction: queue it, so that freeing
            // data nested a million levels deep never recurses.
            DEFER.with(|d| d.queue.borrow_mut().push(p));
            return;
        }
        Self::free_now(p);
        while let Some(next) = DEFER.with(|d| d.queue.borrow_mut().pop()) {
            Self::free_now(next);
        }
        DEFER.with(|d| d.active.set(false));
    }

    unsafe fn free_now(p: *mut ZArray) {
        let a = &mut *p;
        a.destroy_elements();
        a.free_storage();
        #[cfg(any(debug_assertions, test))]
        super::live::dec();
        super::heap::release(core::mem::size_of::<ZArray>());
        drop(Box::from_raw(p));
    }

    unsafe fn destroy_elements(&mut self) {
        if self.data.is_null() {
            return;
        }
        if self.is_packed() {
            for i in 0..self.n_used {
                (*self.slot(i)).ptr_dtor();
            }
        } else {
            for i in 0..self.n_used {
                let b = self.bucket(i);
                if !(*b).val.is_undef() {
                    (*b).val.ptr_dtor();
                    if !(*b).key.is_null() {
                        key_release((*b).key);
                    }
                }
            }
        }
        self.n_used = 0;
        self.n_elements = 0;
    }

    unsafe fn free_storage(&mut self) {
        if self.data.is_null() {
            return;
        }
        if self.is_packed() {
            super::heap::dealloc(self.data, packed_layout(self.cap));
        } else {
            super::heap::dealloc(self.index_base() as *mut u8, hash_layout(self.cap));
        }
        self.data = ptr::null_mut();
    }

    /// Number of elements (`count()`).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.n_elements as usize
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.n_elements == 0
    }
    /// The key `$a[] = ...` would use.
    #[inline(always)]
    pub fn next_free_element(&self) -> i64 {
        // No integer key yet (`ZEND_LONG_MIN`): the first append is 0. A
        // negative key n makes the next one n + 1, as this PHP does.
        if self.next_free == i64::MIN {
            0
        } else {
            self.next_free
        }
    }
    /// Sets the key the next `$a[] = ...` uses (array_pop gives back the
    /// popped integer key, as Zend does).
    #[inline]
    pub fn set_next_free_element(&mut self, k: i64) {
        self.next_free = k;
    }
    #[inline(always)]
    pub fn is_packed(&self) -> bool {
        self.flags & FLAG_PACKED != 0
    }
    /// One past the last used position (tombstones included).
    #[inline(always)]
    pub fn num_used(&self) -> u32 {
        self.n_used
    }
    #[inline(always)]
    pub fn refcount(&self) -> u32 {
        self.header.refcount
    }
    #[inline(always)]
    pub fn is_immutable(&self) -> bool {
        self.header.is_immutable()
    }

    // ---- raw access -------------------------------------------------------

    /// Packed slot `i`. Caller: packed, storage allocated, `i < cap`.
    #[inline(always)]
    unsafe fn slot(&self, i: u32) -> *mut Zval {
        (self.data as *mut Zval).add(i as usize)
    }
    /// Bucket `i`. Caller: hash form, `i < cap`.
    #[inline(always)]
    unsafe fn bucket(&self, i: u32) -> *mut Bucket {
        (self.data as *mut Bucket).add(i as usize)
    }
    /// Start of the chain index (hash form).
    #[inline(always)]
    unsafe fn index_base(&self) -> *mut u32 {
        (self.data as *mut u32).sub(self.cap as usize * 3)
    }
    /// Chain link of bucket `i` (hash form): the next bucket with the same
    /// head, or INVALID.
    #[inline(always)]
    unsafe fn next(&self, i: u32) -> *mut u32 {
        (self.data as *mut u32).sub(self.cap as usize).add(i as usize)
    }
    /// Chain head for hash `h` (hash form).
    #[inline(always)]
    unsafe fn head(&self, h: u64) -> *mut u32 {
        self.index_base().add((h as u32 & self.mask) as usize)
    }

    // ---- lookup -----------------------------------------------------------

    #[inline]
    unsafe fn find_bucket_int(&self, k: i64) -> u32 {
        let h = k as u64;
        let mut i = *self.head(h);
        while i != INVALID {
            let b = self.bucket(i);
            if (*b).h == h && (*b).key.is_null() {
                return i;
            }
            i = *self.next(i);
        }
        INVALID
    }

    /// `kp` is the key string when known: a stored key that is the very same
    /// string matches without touching its bytes (Zend's first check).
    #[inline]
    unsafe fn find_bucket_str(&self, h: u64, kp: *const ZString, k: &[u8]) -> u32 {
        let mut i = *self.head(h);
        while i != INVALID {
            let b = self.bucket(i);
            if ((*b).key as *const ZString == kp && !kp.is_null())
                || ((*b).h == h && !(*b).key.is_null() && bytes_eq((*(*b).key).bytes(), k))
            {
                return i;
            }
            i = *self.next(i);
        }
        INVALID
    }

    /// The value at integer key `k`.
    #[inline]
    pub fn find_int(&self, k: i64) -> Option<*mut Zval> {
        if self.data.is_null() {
            return None;
        }
        // SAFETY: storage is allocated; packed indexes are bounds-checked
        // against n_used <= cap; hash lookups follow valid chain links.
        unsafe {
            if self.is_packed() {
                if (k as u64) < self.n_used as u64 {
                    let z = self.slot(k as u32);
                    if !(*z).is_undef() {
                        return Some(z);
                    }
                }
                return None;
            }
            let i = self.find_bucket_int(k);
            if i == INVALID {
                None
            } else {
                Some(ptr::addr_of_mut!((*self.bucket(i)).val))
            }
        }
    }

    /// A packed array's next position `k` (`k == num_used`, room left),
    /// claimed for a new element: the caller must write the returned slot
    /// (its content is garbage). Null, and nothing changed, when `k` is not
    /// that position. The handlers' inline append; `update_int`/`append` do
    /// the rest.
    ///
    /// # Safety
    /// The array is separated (refcount 1, not immutable).
    #[inline(always)]
    pub unsafe fn packed_push(&mut self, k: i64) -> *mut Zval {
        if self.is_packed() && !self.data.is_null() && k as u64 == self.n_used as u64 && self.n_used < self.cap {
            let z = self.slot(self.n_used);
            self.n_used += 1;
            self.n_elements += 1;
            self.next_free = k + 1;
            return z;
        }
        ptr::null_mut()
    }

    /// The slot an assignment to integer key `k` overwrites, when that needs
    /// nothing released: a present element holding no refcounted value (nor
    /// a reference), or the next packed position (claimed, see
    /// `packed_push`). Null, and nothing changed, otherwise.
    ///
    /// # Safety
    /// The array is separated (refcount 1, not immutable).
    #[inline(always)]
    pub unsafe fn int_slot_for_write(&mut self, k: i64) -> *mut Zval {
        match self.find_int(k) {
            Some(z) if !(*z).is_refcounted() => z,
            Some(_) => ptr::null_mut(),
            None => self.packed_push(k),
        }
    }

    /// The element at key `k` when `k` is an int or a string (normalized as
    /// `Key::normalize` does: "12" is 12). `Ok(None)`: absent. `Err(())`:
    /// another kind of key; the caller normalizes it (`dim_key`), with its
    /// notices.
    #[inline(always)]
    pub fn find_quick(&self, k: &Zval) -> Result<Option<*mut Zval>, ()> {
        if k.is_long() {
            return Ok(self.find_int(k.lval()));
        }
        if k.is_string() {
            // SAFETY: a string-kind value holds a live string.
            let s = unsafe { &*k.str() };
            return Ok(match s.numeric_index() {
                Some(i) => self.find_int(i),
                None => self.find_str(s),
            });
        }
        Err(())
    }

    /// `find_quick` for handlers' hot copies, which must make no call and
    /// keep few values live: int keys, and string keys whose hash is cached
    /// and that cannot be numeric (first byte no digit nor '-'), found when
    /// the table stores that very string as the key (keys taken from the
    /// table itself, or from foreach over a table holding them) or absent.
    /// `Err(())`: undecided here (the caller asks `find_quick`).
    #[inline(always)]
    pub fn find_nocall(&self, k: &Zval) -> Result<Option<*mut Zval>, ()> {
        if k.is_long() {
            return Ok(self.find_int(k.lval()));
        }
        if !k.is_string() {
            return Err(());
        }
        // SAFETY: a string-kind value holds a live string.
        let ks = unsafe { &*k.str() };
        let h = ks.cached_hash();
        if h == 0 {
            return Err(());
        }
        if let Some(&c) = ks.bytes().first() {
            if c <= b'9' && (c >= b'0' || c == b'-') {
                return Err(());
            }
        }
        if self.data.is_null() || self.is_packed() {
            return Ok(None);
        }
        let kp = ks as *const ZString as *mut ZString;
        // SAFETY: hash form with storage; chain links are valid indexes and
        // every bucket on a chain holds a live key string or null.
        unsafe {
            let mut i = *self.head(h);
            while i != INVALID {
                let b = self.bucket(i);
                // The very same string has the same hash. Another key with
                // that hash (a string, or by chance an int) is left to
                // `find_quick`: comparing bytes takes more registers than
                // the hot copies have to spare.
                if (*b).h == h {
                    if (*b).key == kp {
                        return Ok(Some(ptr::addr_of_mut!((*b).val)));
                    }
                    return Err(());
                }
                i = *self.next(i);
            }
        }
        Ok(None)
    }

    /// foreach's step: the first element at or after position `pos`, as
    /// (its position, value slot, key string or null, int key). `None` when
    /// the next position holds a tombstone or is past the end (the caller's
    /// slow path decides which).
    #[inline(always)]
    pub fn entry_quick(&self, pos: u32) -> Option<(u32, *mut Zval, *mut ZString, i64)> {
        if pos >= self.n_used {
            return None;
        }
        // SAFETY: pos < n_used <= cap, so the storage is allocated.
        unsafe {
            if self.is_packed() {
                let z = self.slot(pos);
                if (*z).is_undef() {
                    return None;
                }
                return Some((pos, z, ptr::null_mut(), pos as i64));
            }
            let b = self.bucket(pos);
            if (*b).val.is_undef() {
                return None;
            }
            Some((pos, ptr::addr_of_mut!((*b).val), (*b).key, (*b).h as i64))
        }
    }

    /// The value at string key `k` (a non-numeric string: the caller has
    /// normalized it).
    #[inline]
    pub fn find_str(&self, k: &ZString) -> Option<*mut Zval> {
        if self.data.is_null() || self.is_packed() {
            return None;
        }
        // SAFETY: hash form with storage; chain links are valid indexes.
        unsafe {
            let h = k.hash();
            let kp = k as *const ZString as *mut ZString;
            let mut i = *self.head(h);
            while i != INVALID {
                let b = self.bucket(i);
                // The very same key string (keys come from the table's own
                // keys more often than not), else equal hash and bytes.
                if (*b).key == kp || ((*b).h == h && !(*b).key.is_null() && same_bytes((*b).key, kp)) {
                    return Some(ptr::addr_of_mut!((*b).val));
                }
                i = *self.next(i);
            }
            None
        }
    }

    /// The value at string key `k` given as bytes (non-numeric; the caller
    /// normalizes).
    #[inline]
    pub fn find_bytes(&self, k: &[u8]) -> Option<*mut Zval> {
        if self.data.is_null() || self.is_packed() {
            return None;
        }
        // SAFETY: hash form with storage.
        unsafe {
            let i = self.find_bucket_str(hash_bytes(k), ptr::null(), k);
            if i == INVALID {
                None
            } else {
                Some(ptr::addr_of_mut!((*self.bucket(i)).val))
            }
        }
    }

    #[inline]
    pub fn find(&self, k: &Key) -> Option<*mut Zval> {
        match *k {
            Key::Int(i) => self.find_int(i),
            // SAFETY: a Key::Str holds a live string.
            Key::Str(s) => self.find_str(unsafe { &*s }),
        }
    }

    // ---- storage management ----------------------------------------------

    /// Allocates packed storage for a table that has none.
    unsafe fn init_packed(&mut self) {
        self.data = alloc_layout(packed_layout(self.cap));
        self.flags |= FLAG_PACKED;
    }

    /// Allocates hash storage of capacity `cap` (heads filled with INVALID;
    /// links are written as buckets are added).
    unsafe fn alloc_hash(cap: u32) -> *mut u8 {
        let base = alloc_layout(hash_layout(cap));
        let nidx = cap as usize * 2;
        ptr::write_bytes(base, 0xff, nidx * 4);
        base.add(cap as usize * 3 * 4)
    }

    fn grow_cap(cap: u32) -> u32 {
        if cap >= MAX_SIZE {
            // Zend: "Possible integer overflow in memory allocation".
            super::heap::exhausted(usize::MAX);
        }
        cap * 2
    }

    unsafe fn grow_packed(&mut self) {
        let new_cap = Self::grow_cap(self.cap);
        let np = super::heap::realloc(self.data, packed_layout(self.cap), packed_layout(new_cap).size());
        self.data = np;
        self.cap = new_cap;
    }

    /// Live elements before position `p`: where the element at (or after)
    /// `p` lands when tombstones are compacted away.
    unsafe fn live_before(&self, p: u32) -> u32 {
        if self.n_used == self.n_elements || self.data.is_null() {
            return p.min(self.n_elements);
        }
        let mut n = 0;
        for i in 0..p.min(self.n_used) {
            let undef = if self.is_packed() { (*self.slot(i)).is_undef() } else { (*self.bucket(i)).val.is_undef() };
            n += (!undef) as u32;
        }
        if p >= self.n_used {
            return self.n_elements;
        }
        n
    }

    /// The internal pointer (see the field).
    #[inline]
    pub fn internal_pos(&self) -> u32 {
        self.pos
    }

    #[inline]
    pub fn set_internal_pos(&mut self, p: u32) {
        self.pos = p;
    }

    /// Rebuilds the chain index of a hash table, compacting tombstones away.
    unsafe fn rehash(&mut self) {
        self.pos = self.live_before(self.pos);
        ptr::write_bytes(self.index_base(), 0xff, self.mask as usize + 1);
        if self.n_used == self.n_elements {
            self.link_all();
            return;
        }
        let mut j = 0u32;
        for i in 0..self.n_used {
            let b = self.bucket(i);
            if (*b).val.is_undef() {
                continue;
            }
            if i != j {
                ptr::copy_nonoverlapping(b, self.bucket(j), 1);
            }
            let nb = self.bucket(j);
            let head = self.head((*nb).h);
            *self.next(j) = *head;
            *head = j;
            j += 1;
        }
        self.n_used = j;
    }

    /// Links every bucket `0..n_used` (no tombstones) into an index whose
    /// heads are all INVALID.
    unsafe fn link_all(&mut self) {
        for j in 0..self.n_used {
            let head = self.head((*self.bucket(j)).h);
            *self.next(j) = *head;
            *head = j;
        }
    }

    /// Moves the buckets into storage of capacity `new_cap` and rehashes.
    unsafe fn realloc_hash(&mut self, new_cap: u32) {
        self.pos = self.live_before(self.pos);
        let nd = Self::alloc_hash(new_cap);
        let mut j = 0u32;
        if self.n_used == self.n_elements {
            // No tombstones (the common growth): one block copy.
            ptr::copy_nonoverlapping(self.bucket(0), nd as *mut Bucket, self.n_used as usize);
            j = self.n_used;
        } else {
            for i in 0..self.n_used {
                let b = self.bucket(i);
                if !(*b).val.is_undef() {
                    ptr::copy_nonoverlapping(b, (nd as *mut Bucket).add(j as usize), 1);
                    j += 1;
                }
            }
        }
        self.free_storage();
        self.data = nd;
        self.cap = new_cap;
        self.mask = new_cap * 2 - 1;
        self.n_used = j;
        // `alloc_hash` left every head INVALID and the buckets compact.
        self.link_all();
    }

    /// Zend's `zend_hash_do_resize`: compact when tombstones are plenty,
    /// else double.
    #[cold]
    unsafe fn resize(&mut self) {
        if self.n_used > self.n_elements + (self.n_elements >> 5) {
            self.rehash();
        } else {
            let c = Self::grow_cap(self.cap);
            self.realloc_hash(c);
        }
    }

    /// Converts to the hash form (or initializes an empty table as hash).
    #[cold]
    unsafe fn packed_to_hash(&mut self) {
        let mut cap = self.cap;
        if self.n_used >= cap {
            cap = Self::grow_cap(cap);
        }
        let nd = Self::alloc_hash(cap);
        let mut j = 0u32;
        if !self.data.is_null() {
            self.pos = self.live_before(self.pos);
            for i in 0..self.n_used {
                let z = self.slot(i);
                if !(*z).is_undef() {
                    ptr::write((nd as *mut Bucket).add(j as usize), Bucket { val: *z, h: i as u64, key: ptr::null_mut() });
                    j += 1;
                }
            }
            super::heap::dealloc(self.data, packed_layout(self.cap));
        }
        self.flags &= !FLAG_PACKED;
        self.data = nd;
        self.cap = cap;
        self.mask = cap * 2 - 1;
        self.n_used = j;
        self.rehash();
    }

    /// Appends a new bucket (key known absent). Returns its value slot.
    #[inline]
    unsafe fn hash_add_new(&mut self, h: u64, key: *mut ZString, v: Zval) -> *mut Zval {
        if self.n_used >= self.cap {
            self.resize();
        }
        let i = self.n_used;
        self.n_used += 1;
        self.n_elements += 1;
        let b = self.bucket(i);
        let head = self.head(h);
        ptr::write(b, Bucket { val: v, h, key });
        *self.next(i) = *head;
        *head = i;
        ptr::addr_of_mut!((*b).val)
    }

    // ---- insertion ---------------------------------------------------------

    /// Zend's `_zend_hash_index_add_or_update_i`. `replace`: overwrite an
    /// existing value (releasing it); otherwise an existing key returns its
    /// slot untouched with `false`. Returns (slot, inserted).
    unsafe fn index_insert(&mut self, k: i64, v: Zval, replace: bool) -> (*mut Zval, bool) {
        if self.is_packed() {
            if self.data.is_null() {
                if (k as u64) < self.cap as u64 {
                    self.init_packed();
                    return (self.add_to_packed(k as u32, v), true);
                }
                self.packed_to_hash();
            } else if (k as u64) < self.n_used as u64 {
                let z = self.slot(k as u32);
                if !(*z).is_undef() {
                    if replace {
                        let old = *z;
                        *z = v;
                        (*z).u2 = 0;
                        old.ptr_dtor();
                    } else {
                        v.ptr_dtor();
                    }
                    return (z, false);
                }
                // Filling a hole would break insertion order: go hash.
                self.packed_to_hash();
            } else if (k as u64) < self.cap as u64 {
                return (self.add_to_packed(k as u32, v), true);
            } else if ((k as u64) >> 1) < self.cap as u64 && (self.cap >> 1) < self.n_elements {
                self.grow_packed();
                return (self.add_to_packed(k as u32, v), true);
            } else {
                self.packed_to_hash();
            }
        } else if self.data.is_null() {
            self.data = Self::alloc_hash(self.cap);
            self.mask = self.cap * 2 - 1;
        }
        let i = self.find_bucket_int(k);
        if i != INVALID {
            let z = ptr::addr_of_mut!((*self.bucket(i)).val);
            if replace {
                let old = *z;
                *z = v;
                old.ptr_dtor();
            } else {
                v.ptr_dtor();
            }
            return (z, false);
        }
        if k >= self.next_free {
            self.next_free = if k < i64::MAX { k + 1 } else { i64::MAX };
        }
        (self.hash_add_new(k as u64, ptr::null_mut(), v), true)
    }

    /// Packed insert at `k >= n_used`, `k < cap` (holes become UNDEF).
    #[inline]
    unsafe fn add_to_packed(&mut self, k: u32, v: Zval) -> *mut Zval {
        for i in self.n_used..k {
            ptr::write(self.slot(i), Zval::UNDEF);
        }
        self.n_used = k + 1;
        self.next_free = k as i64 + 1;
        self.n_elements += 1;
        let z = self.slot(k);
        ptr::write(z, v);
        (*z).u2 = 0;
        z
    }

    unsafe fn str_insert(&mut self, key: *mut ZString, v: Zval, replace: bool) -> (*mut Zval, bool) {
        debug_assert!((*key).numeric_index().is_none(), "numeric string keys must be normalized to Key::Int");
        if self.is_packed() {
            self.packed_to_hash();
        } else if self.data.is_null() {
            self.data = Self::alloc_hash(self.cap);
            self.mask = self.cap * 2 - 1;
        }
        let h = (*key).hash();
        let i = self.find_bucket_str(h, key, (*key).bytes());
        if i != INVALID {
            let z = ptr::addr_of_mut!((*self.bucket(i)).val);
            if replace {
                let old = *z;
                *z = v;
                old.ptr_dtor();
            } else {
                v.ptr_dtor();
            }
            return (z, false);
        }
        key_addref(key);
        (self.hash_add_new(h, key, v), true)
    }

    /// `$a[k] = v`: takes ownership of `v`, releases a replaced value.
    /// Returns the value slot.
    #[inline]
    pub fn update_int(&mut self, k: i64, v: Zval) -> *mut Zval {
        // SAFETY: `&mut self` means the caller separated the array; the
        // helpers keep n_used <= cap and the index consistent.
        unsafe { self.index_insert(k, v, true).0 }
    }

    /// `$a["k"] = v` for a non-numeric key: takes ownership of `v`, adds an
    /// owner to `k` if the key is new. Returns the value slot.
    #[inline]
    pub fn update_str(&mut self, k: *mut ZString, v: Zval) -> *mut Zval {
        // SAFETY: `k` is a live string; see `update_int`.
        unsafe { self.str_insert(k, v, true).0 }
    }

    #[inline]
    pub fn update(&mut self, k: &Key, v: Zval) -> *mut Zval {
        match *k {
            Key::Int(i) => self.update_int(i, v),
            Key::Str(s) => self.update_str(s, v),
        }
    }

    /// Adds `v` at `k` only if absent; `None` (and `v` released) if present.
    pub fn add_int(&mut self, k: i64, v: Zval) -> Option<*mut Zval> {
        // SAFETY: see `update_int`.
        let (z, ins) = unsafe { self.index_insert(k, v, false) };
        ins.then_some(z)
    }

    /// Write fetch: the slot at `k`, inserting NULL if absent. Returns the
    /// slot and whether it was inserted (`$a[k] .= x` warns then).
    #[inline]
    pub fn lookup_int_ex(&mut self, k: i64) -> (*mut Zval, bool) {
        if let Some(z) = self.find_int(k) {
            return (z, false);
        }
        // SAFETY: see `update_int`.
        unsafe { self.index_insert(k, Zval::NULL, false) }
    }

    #[inline]
    pub fn lookup_int(&mut self, k: i64) -> *mut Zval {
        self.lookup_int_ex(k).0
    }

    /// Write fetch by non-numeric string key.
    #[inline]
    pub fn lookup_str_ex(&mut self, k: *mut ZString) -> (*mut Zval, bool) {
        // SAFETY: `k` is a live string; see `update_int`.
        unsafe { self.str_insert(k, Zval::NULL, false) }
    }

    #[inline]
    pub fn lookup_str(&mut self, k: *mut ZString) -> *mut Zval {
        self.lookup_str_ex(k).0
    }

    pub fn lookup(&mut self, k: &Key) -> (*mut Zval, bool) {
        match *k {
            Key::Int(i) => self.lookup_int_ex(i),
            Key::Str(s) => self.lookup_str_ex(s),
        }
    }

    /// `$a[] = v`. `None` (and `v` released) when the next key is already
    /// taken: "Cannot add element to the array as the next element is
    /// already occupied".
    #[inline]
    pub fn append(&mut self, v: Zval) -> Option<*mut Zval> {
        let k = self.next_free_element();
        if self.is_packed() && !self.data.is_null() && k == self.n_used as i64 && self.n_used < self.cap {
            // SAFETY: packed with room for slot n_used.
            unsafe {
                let z = self.slot(self.n_used);
                ptr::write(z, v);
                (*z).u2 = 0;
                self.n_used += 1;
                self.n_elements += 1;
                self.next_free = k + 1;
                return Some(z);
            }
        }
        self.add_int(k, v)
    }

    // ---- removal -----------------------------------------------------------

    /// Drops trailing tombstones from `n_used`.
    #[inline]
    unsafe fn trim_used(&mut self) {
        if self.is_packed() {
            while self.n_used > 0 && (*self.slot(self.n_used - 1)).is_undef() {
                self.n_used -= 1;
            }
        } else {
            while self.n_used > 0 && (*self.bucket(self.n_used - 1)).val.is_undef() {
                self.n_used -= 1;
            }
        }
    }

    /// Unlinks bucket `i` (found under hash `h`), tombstones it, and releases
    /// key and value (value last, as Zend does, in case its destructor looks
    /// at the array).
    unsafe fn del_bucket(&mut self, i: u32) {
        let b = self.bucket(i);
        let head = self.head((*b).h);
        if *head == i {
            *head = *self.next(i);
        } else {
            let mut j = *head;
            while j != INVALID {
                if *self.next(j) == i {
                    *self.next(j) = *self.next(i);
                    break;
                }
                j = *self.next(j);
            }
        }
        let old = (*b).val;
        let key = (*b).key;
        (*b).val = Zval::UNDEF;
        (*b).key = ptr::null_mut();
        self.n_elements -= 1;
        if i + 1 == self.n_used {
            self.trim_used();
        }
        if !key.is_null() {
            key_release(key);
        }
        old.ptr_dtor();
    }

    /// `unset($a[k])`; true if the key existed.
    pub fn remove_int(&mut self, k: i64) -> bool {
        if self.data.is_null() {
            return false;
        }
        // SAFETY: storage allocated; bounds checked against n_used.
        unsafe {
            if self.is_packed() {
                if (k as u64) >= self.n_used as u64 {
                    return false;
                }
                let z = self.slot(k as u32);
                if (*z).is_undef() {
                    return false;
                }
                let old = *z;
                *z = Zval::UNDEF;
                self.n_elements -= 1;
                if k as u32 + 1 == self.n_used {
                    self.trim_used();
                }
                old.ptr_dtor();
                return true;
            }
            let i = self.find_bucket_int(k);
            if i == INVALID {
                return false;
            }
            self.del_bucket(i);
            true
        }
    }

    /// `unset($a["k"])` for a non-numeric key.
    pub fn remove_str(&mut self, k: &ZString) -> bool {
        if self.data.is_null() || self.is_packed() {
            return false;
        }
        // SAFETY: hash form with storage.
        unsafe {
            let i = self.find_bucket_str(k.hash(), k, k.bytes());
            if i == INVALID {
                return false;
            }
            self.del_bucket(i);
            true
        }
    }

    pub fn remove(&mut self, k: &Key) -> bool {
        match *k {
            Key::Int(i) => self.remove_int(i),
            // SAFETY: a Key::Str holds a live string.
            Key::Str(s) => self.remove_str(unsafe { &*s }),
        }
    }

    // ---- iteration ---------------------------------------------------------

    /// The first used position `>= pos` (foreach's next step).
    #[inline]
    pub fn pos_valid_from(&self, mut pos: u32) -> Option<u32> {
        // SAFETY: positions below n_used are inside the storage.
        unsafe {
            while pos < self.n_used {
                let undef = if self.is_packed() { (*self.slot(pos)).is_undef() } else { (*self.bucket(pos)).val.is_undef() };
                if !undef {
                    return Some(pos);
                }
                pos += 1;
            }
        }
        None
    }

    /// Key and value slot at a used position (`None` for a tombstone or a
    /// position past the end).
    #[inline]
    pub fn entry_at(&self, pos: u32) -> Option<(KeyRef<'_>, *mut Zval)> {
        if pos >= self.n_used {
            return None;
        }
        // SAFETY: pos < n_used <= cap, storage allocated.
        unsafe {
            if self.is_packed() {
                let z = self.slot(pos);
                if (*z).is_undef() {
                    return None;
                }
                Some((KeyRef::Int(pos as i64), z))
            } else {
                let b = self.bucket(pos);
                if (*b).val.is_undef() {
                    return None;
                }
                let k = if (*b).key.is_null() { KeyRef::Int((*b).h as i64) } else { KeyRef::Str(&*(*b).key) };
                Some((k, ptr::addr_of_mut!((*b).val)))
            }
        }
    }

    /// Elements in order. The array must not be modified while iterating.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        Iter { a: self, pos: 0 }
    }

    /// Zend's `zend_symtable_to_proptable`: a new table with the elements
    /// of `src` (new owners) where integer keys become strings — an
    /// object's property table has only string keys (`(object)['5' => 1]`
    /// has the property "5").
    ///
    /// # Safety
    /// `src` is a live array.
    pub unsafe fn to_proptable(src: *const ZArray) -> *mut ZArray {
        let out = ZArray::new();
        for (k, v) in (*src).iter() {
            let ks = match k {
                KeyRef::Int(i) => ZString::from_i64(i),
                KeyRef::Str(s) => ZString::new(s.bytes()),
            };
            (*out).update_str(ks, dup_value(v, src));
            Zval::string(ks).ptr_dtor();
        }
        out
    }

    /// Whether some key is an integer (the table is no property table).
    pub fn has_int_keys(&self) -> bool {
        self.iter().any(|(k, _)| matches!(k, KeyRef::Int(_)))
    }

    /// Adds `v` under `k` as an array would (Zend's symtable update:
    /// "123" becomes the integer key 123).
    pub fn update_symtable(&mut self, k: KeyRef<'_>, v: Zval) -> *mut Zval {
        match k {
            KeyRef::Int(i) => self.update_int(i, v),
            // SAFETY: `s` is a live string; the new key string is released
            // after the table took its own reference.
            KeyRef::Str(s) => unsafe {
                let ks = ZString::new(s.bytes());
                let p = self.update(&Key::normalize(ks), v);
                Zval::string(ks).ptr_dtor();
                p
            },
        }
    }

    // ---- copy-on-write -------------------------------------------------------

    /// Zend's `zend_array_dup`: a refcount-1 copy holding new owners of every
    /// value and key; a reference only `src` holds is copied as its value.
    /// Packed arrays stay packed (holes included); hash arrays are compacted.
    ///
    /// # Safety
    /// `src` is a live array.
    pub unsafe fn dup(src: *const ZArray) -> *mut ZArray {
        let s = &*src;
        let n = ZArray::with_capacity(0);
        let d = &mut *n;
        d.next_free = s.next_free;
        d.pos = if s.is_packed() { s.pos } else { s.live_before(s.pos) };
        if s.data.is_null() || s.n_elements == 0 {
            d.flags = s.flags & FLAG_PACKED;
            return n;
        }
        if s.is_packed() {
            d.cap = round_cap(s.n_used);
            d.init_packed();
            for i in 0..s.n_used {
                let z = s.slot(i);
                let v = if (*z).is_undef() { Zval::UNDEF } else { dup_value(&*z, src) };
                ptr::write(d.slot(i), v);
            }
            d.n_used = s.n_used;
            d.n_elements = s.n_elements;
        } else {
            d.flags = 0;
            d.cap = round_cap(s.n_elements);
            d.mask = d.cap * 2 - 1;
            d.data = Self::alloc_hash(d.cap);
            let mut j = 0u32;
            for i in 0..s.n_used {
                let b = s.bucket(i);
                if (*b).val.is_undef() {
                    continue;
                }
                if !(*b).key.is_null() {
                    key_addref((*b).key);
                }
                ptr::write(d.bucket(j), Bucket { val: dup_value(&(*b).val, src), h: (*b).h, key: (*b).key });
                j += 1;
            }
            d.n_used = j;
            d.n_elements = j;
            d.rehash();
        }
        n
    }

    /// `SEPARATE_ARRAY`: makes the array in `*zv` uniquely owned (dup it if
    /// it is immutable or shared, releasing the old owner) and returns it.
    ///
    /// # Safety
    /// `zv` points at an owned array-kind zval.
    #[inline]
    pub unsafe fn separate(zv: *mut Zval) -> *mut ZArray {
        let a = (*zv).arr();
        if (*a).header.refcount == 1 && !(*a).header.is_immutable() {
            return a;
        }
        Self::separate_slow(zv)
    }

    #[cold]
    unsafe fn separate_slow(zv: *mut Zval) -> *mut ZArray {
        let a = (*zv).arr();
        let n = Self::dup(a);
        if !(*a).header.is_immutable() {
            // Shared (refcount > 1): dropping our owner cannot free it.
            (*a).header.refcount -= 1;
        }
        let u2 = (*zv).u2;
        *zv = Zval::array(n);
        (*zv).u2 = u2;
        n
    }

    // ---- recursion guards ------------------------------------------------------

    /// Marks `a` as being walked by a recursive operation; `false` if it
    /// already is (a cycle through references). Immutable arrays cannot be
    /// cyclic and are never marked.
    ///
    /// # Safety
    /// `a` is live; a `true` result must be paired with `leave_recursion`.
    #[inline]
    pub unsafe fn enter_recursion(a: *mut ZArray) -> bool {
        let h = &mut (*a).header;
        if h.is_immutable() {
            return true;
        }
        if h.is_protected() {
            return false;
        }
        h.type_info |= GC_PROTECTED;
        true
    }

    /// # Safety
    /// `a` is live and was entered with `enter_recursion`.
    #[inline]
    pub unsafe fn leave_recursion(a: *mut ZArray) {
        let h = &mut (*a).header;
        if !h.is_immutable() {
            h.type_info &= !GC_PROTECTED;
        }
    }

    // ---- immutable literals --------------------------------------------------

    /// Whether every element can be made immutable (no references, objects).
    unsafe fn can_be_immutable(&self) -> bool {
        self.iter().all(|(_, v)| match v.kind() {
            IS_NULL | IS_FALSE | IS_TRUE | IS_LONG | IS_DOUBLE | IS_STRING => true,
            IS_ARRAY => (*v.arr()).is_immutable() || (*v.arr()).can_be_immutable(),
            _ => false,
        })
    }

    /// Turns a freshly built literal array (refcount 1) into an immutable,
    /// persistent one, shared by every copy with no refcount traffic.
    /// Refcounted strings (values and keys) and nested arrays are replaced
    /// by immutable equivalents. Every box this creates, `a` included, is
    /// pushed onto `pool`, whose owner frees them at teardown with
    /// `free_immutable_box`. `Err(a)` (unchanged) if an element is a
    /// reference or object.
    ///
    /// # Safety
    /// `a` is live, refcount 1, and not referenced by anything else.
    pub unsafe fn into_immutable(a: *mut ZArray, pool: &mut Vec<*mut GcHeader>) -> Result<*mut ZArray, *mut ZArray> {
        if !(*a).can_be_immutable() {
            return Err(a);
        }
        Ok(Self::make_immutable(a, pool))
    }

    unsafe fn make_immutable(a: *mut ZArray, pool: &mut Vec<*mut GcHeader>) -> *mut ZArray {
        let t = &mut *a;
        for pos in 0..t.n_used {
            let z: *mut Zval = if t.is_packed() {
                t.slot(pos)
            } else {
                let b = t.bucket(pos);
                if !(*b).val.is_undef() && !(*b).key.is_null() && !(*(*b).key).is_immutable() {
                    let old = (*b).key;
                    let k = ZString::new_immutable((*old).bytes());
                    pool.push(k as *mut GcHeader);
                    (*b).key = k;
                    key_release(old);
                }
                ptr::addr_of_mut!((*b).val)
            };
            match (*z).kind() {
                IS_STRING if (*z).is_refcounted() => {
                    let old = *z;
                    let s = ZString::new_immutable((*old.str()).bytes());
                    pool.push(s as *mut GcHeader);
                    *z = Zval::string(s);
                    old.ptr_dtor();
                }
                IS_ARRAY if (*z).is_refcounted() => {
                    let old = *z;
                    let inner = old.arr();
                    let fresh = if (*inner).header.refcount == 1 {
                        inner
                    } else {
                        (*inner).header.refcount -= 1;
                        Self::dup(inner)
                    };
                    let imm = Self::make_immutable(fresh, pool);
                    *z = Zval::array(imm);
                }
                _ => {}
            }
        }
        t.header.type_info |= GC_IMMUTABLE | GC_PERSISTENT;
        // A refcount above 1 keeps any "refcount == 1, write in place" check
        // from ever touching it.
        t.header.refcount = 2;
        pool.push(a as *mut GcHeader);
        a
    }

    /// Frees an immutable array's own storage (its keys and values are
    /// immutable boxes owned by the same pool).
    ///
    /// # Safety
    /// `p` came from `into_immutable` and no value refers to it any more.
    pub unsafe fn free_immutable(p: *mut ZArray) {
        (*p).free_storage();
        #[cfg(any(debug_assertions, test))]
        super::live::dec();
        super::heap::release(core::mem::size_of::<ZArray>());
        drop(Box::from_raw(p));
    }
}

/// Frees one immutable box from an `into_immutable` pool.
///
/// # Safety
/// `h` is an immutable string or array from a pool, freed exactly once,
/// after nothing refers to it.
pub unsafe fn free_immutable_box(h: *mut GcHeader) {
    match (*h).type_info as u8 {
        IS_STRING => ZString::free_immutable(h as *mut ZString),
        IS_ARRAY => ZArray::free_immutable(h as *mut ZArray),
        _ => {}
    }
}

pub struct Iter<'a> {
    a: &'a ZArray,
    pos: u32,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (KeyRef<'a>, &'a Zval);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let p = self.a.pos_valid_from(self.pos)?;
        self.pos = p + 1;
        let (k, z) = self.a.entry_at(p)?;
        // SAFETY: the slot lives as long as the array borrow, which the
        // caller does not modify while iterating.
        Some((k, unsafe { &*z }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_nocall_decides_only_what_it_can() {
        let _leaks = crate::value::LeakCheck::new();
        let a = ZArray::new();
        let k1 = ZString::new(b"foo_1");
        let same = ZString::new(b"foo_1");
        let digit = ZString::new(b"1a");
        let absent = ZString::new(b"bar");
        unsafe {
            // Empty table: an int misses; an unhashed string is undecided.
            assert!(matches!((*a).find_nocall(&Zval::long(3)), Ok(None)));
            assert!((*a).find_nocall(&Zval::string(k1)).is_err());
            (*a).update_str(k1, Zval::long(7));
            (*a).update_str(digit, Zval::long(8));
            (*a).update_int(5, Zval::long(9));
            // The stored key string itself: found.
            let f = (*a).find_nocall(&Zval::string(k1)).unwrap().unwrap();
            assert_eq!((*f).lval(), 7);
            // Equal bytes, another string: found by `find_quick`, never
            // wrongly missed here.
            (*same).hash();
            assert!((*a).find_nocall(&Zval::string(same)).is_err());
            assert_eq!((*(*a).find_quick(&Zval::string(same)).unwrap().unwrap()).lval(), 7);
            // Could be numeric: undecided.
            assert!((*a).find_nocall(&Zval::string(digit)).is_err());
            // Hashed and absent: a miss.
            (*absent).hash();
            assert!(matches!((*a).find_nocall(&Zval::string(absent)), Ok(None)));
            assert_eq!((*(*a).find_nocall(&Zval::long(5)).unwrap().unwrap()).lval(), 9);
            assert!((*a).find_nocall(&Zval::NULL).is_err());
            ZArray::free(a);
            ZString::free(k1);
            ZString::free(same);
            ZString::free(digit);
            ZString::free(absent);
        }
    }

    #[test]
    fn bytes_eq_agrees_with_slice_eq() {
        let words: [&[u8]; 12] =
            [b"", b"a", b"ab", b"abc", b"abcd", b"abce", b"abcdefg", b"abcdefh", b"abcdefgh", b"bbcdefgh", b"0123456789abcdef", b"0123456789abcdeg"];
        for a in words {
            for b in words {
                assert_eq!(bytes_eq(a, b), a == b, "{:?} {:?}", a, b);
            }
        }
        let long1 = [7u8; 40];
        let mut long2 = long1;
        assert!(bytes_eq(&long1, &long2));
        long2[20] = 8;
        assert!(!bytes_eq(&long1, &long2));
    }

    fn keys(a: &ZArray) -> String {
        let mut s = String::new();
        for (k, v) in a.iter() {
            match k {
                KeyRef::Int(i) => s.push_str(&i.to_string()),
                KeyRef::Str(z) => s.push_str(core::str::from_utf8(z.bytes()).unwrap()),
            }
            if v.is_long() {
                s.push('=');
                s.push_str(&v.lval().to_string());
            }
            s.push(' ');
        }
        s.pop();
        s
    }

    fn st(b: &str) -> *mut ZString {
        ZString::new(b.as_bytes())
    }

    #[test]
    fn sizes() {
        let _leaks = crate::value::LeakCheck::new();
        assert_eq!(core::mem::size_of::<Zval>(), 16);
        assert_eq!(core::mem::size_of::<Bucket>(), 32);
        assert_eq!(core::mem::size_of::<ZArray>(), 48);
    }

    #[test]
    fn packed_stays_packed_as_list() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            let a = ZArray::new();
            for i in 0..100 {
                assert!((*a).append(Zval::long(i)).is_some());
            }
            assert!((*a).is_packed());
            // $a[count($a)] = x
            let n = (*a).len() as i64;
            (*a).update_int(n, Zval::long(100));
            (*a).update_int(5, Zval::long(-5));
            assert!((*a).is_packed());
            assert_eq!((*a).len(), 101);
            assert_eq!((*(*a).find_int(5).unwrap()).lval(), -5);
            assert_eq!((*(*a).find_int(100).unwrap()).lval(), 100);
            assert!((*a).find_int(101).is_none());
            assert!((*a).find_int(-1).is_none());
            assert_eq!((*a).next_free_element(), 101);
            // $a = []; $a[5] = 1; stays packed with holes (table size 8).
            let b = ZArray::new();
            (*b).update_int(5, Zval::long(1));
            assert!((*b).is_packed());
            assert_eq!(keys(&*b), "5=1");
            assert_eq!((*b).len(), 1);
            ZArray::free(a);
            ZArray::free(b);
        }
    }

    #[test]
    fn packed_to_hash_conversions() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            // string key
            let a = ZArray::new();
            (*a).append(Zval::long(1));
            (*a).append(Zval::long(2));
            let k = st("x");
            (*a).update_str(k, Zval::long(3));
            assert!(!(*a).is_packed());
            assert_eq!(keys(&*a), "0=1 1=2 x=3");
            assert_eq!((*k).refcount(), 2);
            (*a).append(Zval::long(4));
            assert_eq!(keys(&*a), "0=1 1=2 x=3 2=4");
            ZArray::free(a);
            assert_eq!((*k).refcount(), 1);
            ZString::free(k);
            // negative key
            let b = ZArray::new();
            (*b).update_int(-5, Zval::long(1));
            (*b).append(Zval::long(2));
            assert!(!(*b).is_packed());
            assert_eq!(keys(&*b), "-5=1 -4=2"); // the oracle (php -n here): next key after -5 is -4
            ZArray::free(b);
            // filling a hole converts (to keep order): [1,2,3], unset 1, $e[1]=9
            let c = ZArray::new();
            for i in 1..=3 {
                (*c).append(Zval::long(i));
            }
            assert!((*c).remove_int(1));
            assert!((*c).is_packed());
            (*c).update_int(1, Zval::long(9));
            assert!(!(*c).is_packed());
            assert_eq!(keys(&*c), "0=1 2=3 1=9");
            ZArray::free(c);
            // far key
            let d = ZArray::new();
            (*d).append(Zval::long(0));
            (*d).update_int(1000, Zval::long(1));
            assert!(!(*d).is_packed());
            assert_eq!((*d).next_free_element(), 1001);
            ZArray::free(d);
        }
    }

    #[test]
    fn php_packed_next_free_quirk() {
        let _leaks = crate::value::LeakCheck::new();
        // $a=[0,1,2,3]; unset($a[3],$a[2]); $a[2]="x"; $a[]="y"; → keys 0 1 2 3
        unsafe {
            let a = ZArray::new();
            for i in 0..4 {
                (*a).append(Zval::long(i));
            }
            (*a).remove_int(3);
            (*a).remove_int(2);
            assert_eq!((*a).num_used(), 2);
            assert_eq!((*a).next_free_element(), 4);
            (*a).update_int(2, Zval::long(20));
            (*a).append(Zval::long(30));
            assert_eq!(keys(&*a), "0=0 1=1 2=20 3=30");
            // $g=[1,2]; unset both; $g[]=5 → key 2
            let g = ZArray::new();
            (*g).append(Zval::long(1));
            (*g).append(Zval::long(2));
            (*g).remove_int(0);
            (*g).remove_int(1);
            (*g).append(Zval::long(5));
            assert_eq!(keys(&*g), "2=5");
            ZArray::free(a);
            ZArray::free(g);
        }
    }

    #[test]
    fn unset_and_readd_goes_to_the_end() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            // $f=["a"=>1,"b"=>2]; unset($f["a"]); $f["a"]=3; → b, a
            let f = ZArray::new();
            let (ka, kb) = (st("a"), st("b"));
            (*f).update_str(ka, Zval::long(1));
            (*f).update_str(kb, Zval::long(2));
            assert!((*f).remove_str(&*ka));
            assert!(!(*f).remove_str(&*ka));
            (*f).update_str(ka, Zval::long(3));
            assert_eq!(keys(&*f), "b=2 a=3");
            assert!((*f).find_bytes(b"a").is_some());
            assert!((*f).find_bytes(b"c").is_none());
            ZArray::free(f);
            ZString::free(ka);
            ZString::free(kb);
        }
    }

    #[test]
    fn many_keys_grow_rehash_and_compact() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            let a = ZArray::new();
            let mut ks = Vec::new();
            for i in 0..1000 {
                let k = st(&format!("k{i}"));
                (*a).update_str(k, Zval::long(i));
                ks.push(k);
            }
            for i in 0..1000i64 {
                (*a).update_int(i * 7919, Zval::long(i));
            }
            assert_eq!((*a).len(), 2000);
            for (i, k) in ks.iter().enumerate() {
                assert_eq!((*(*a).find_str(&**k).unwrap()).lval(), i as i64);
            }
            // churn: delete and re-add many times; storage must not grow
            // without bound (compaction), order must stay insertion order.
            for round in 0..20 {
                for i in 0..1000 {
                    if i % 2 == round % 2 {
                        assert!((*a).remove_str(&*ks[i]));
                        (*a).update_str(ks[i], Zval::long(i as i64));
                    }
                }
            }
            assert_eq!((*a).len(), 2000);
            assert!((*a).cap <= 4096);
            for i in 0..1000i64 {
                assert_eq!((*(*a).find_int(i * 7919).unwrap()).lval(), i);
                assert!((*a).remove_int(i * 7919));
            }
            assert_eq!((*a).len(), 1000);
            let lookup = (*a).lookup_str_ex(ks[3]);
            assert!(!lookup.1);
            let nk = st("new");
            let (z, ins) = (*a).lookup_str_ex(nk);
            assert!(ins && (*z).kind() == IS_NULL);
            ZArray::free(a);
            for k in ks {
                assert_eq!((*k).refcount(), 1);
                ZString::free(k);
            }
            ZString::free(nk);
        }
    }

    #[test]
    fn key_normalization_and_write_fetch() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            let (n, t) = (st("123"), st("0123"));
            assert!(matches!(Key::normalize(n), Key::Int(123)));
            assert!(matches!(Key::normalize(t), Key::Str(p) if p == t));
            let a = ZArray::new();
            let (z, ins) = (*a).lookup(&Key::normalize(n));
            assert!(ins && (*z).kind() == IS_NULL);
            *z = Zval::long(7);
            let (z2, ins2) = (*a).lookup_int_ex(123);
            assert!(!ins2 && z2 == z);
            (*a).update(&Key::normalize(t), Zval::long(8));
            assert_eq!(keys(&*a), "123=7 0123=8");
            assert!((*a).remove(&Key::Int(123)));
            assert!((*a).remove(&Key::normalize(t)));
            assert!((*a).is_empty());
            ZArray::free(a);
            ZString::free(n);
            ZString::free(t);
        }
    }

    #[test]
    fn append_overflow_fails() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            let a = ZArray::new();
            (*a).update_int(i64::MAX, Zval::long(1));
            assert!((*a).append(Zval::long(2)).is_none());
            let b = ZArray::new();
            (*b).update_int(i64::MAX - 1, Zval::long(1));
            assert!((*b).append(Zval::long(2)).is_some());
            assert!((*b).append(Zval::long(3)).is_none());
            assert_eq!((*b).len(), 2);
            ZArray::free(a);
            ZArray::free(b);
        }
    }

    #[test]
    fn cow_separation_leaves_original_intact() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            let a = ZArray::new();
            let s = st("shared");
            (*a).append(Zval::long(1));
            (*a).append(Zval::string(s));
            let mut zv1 = Zval::array(a);
            let mut zv2 = zv1.copy_value(); // $b = $a
            assert_eq!((*a).refcount(), 2);
            let b = ZArray::separate(&mut zv2);
            assert_ne!(a, b);
            assert!((*b).is_packed());
            assert_eq!((*a).refcount(), 1);
            assert_eq!((*s).refcount(), 2);
            (*b).update_int(0, Zval::long(99));
            assert_eq!((*(*a).find_int(0).unwrap()).lval(), 1);
            assert_eq!((*(*b).find_int(0).unwrap()).lval(), 99);
            // unique: separate is a no-op
            assert_eq!(ZArray::separate(&mut zv1), a);
            zv1.ptr_dtor();
            zv2.ptr_dtor();
        }
    }

    #[test]
    fn dup_unwraps_lonely_references() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            use crate::value::ZRef;
            let a = ZArray::new();
            let k = st("r");
            let r1 = ZRef::new(Zval::long(5)); // rc 1: copied as value
            let r2 = ZRef::new(Zval::long(6));
            (*r2).header.refcount += 1; // shared: stays a reference
            (*a).update_str(k, Zval::reference(r1));
            (*a).append(Zval::reference(r2));
            let d = ZArray::dup(a);
            assert!(!(*d).is_packed());
            let v0 = &*(*d).find_str(&*k).unwrap();
            assert!(v0.is_long() && v0.lval() == 5);
            let v1 = &*(*d).find_int(0).unwrap();
            assert!(v1.is_reference() && v1.zref() == r2);
            assert_eq!((*r2).header.refcount, 3);
            ZArray::free(d);
            ZArray::free(a);
            assert_eq!((*r2).header.refcount, 1);
            ZRef::free(r2);
            ZString::free(k);
        }
    }

    #[test]
    fn immutable_literals() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            let a = ZArray::new();
            let inner = ZArray::new();
            (*inner).append(Zval::string(st("deep")));
            let k = st("key");
            (*a).update_str(k, Zval::string(st("val")));
            (*a).append(Zval::array(inner));
            (*k).header.refcount -= 1; // the array is now the key's only owner
            let mut pool = Vec::new();
            let imm = ZArray::into_immutable(a, &mut pool).ok().unwrap();
            assert!((*imm).is_immutable());
            assert_eq!(pool.len(), 5); // key, "val", "deep", inner, outer
            let zv = Zval::array(imm);
            assert!(!zv.is_refcounted());
            let copy = zv.copy_value();
            for (_, v) in (*imm).iter() {
                assert!(!v.is_refcounted());
            }
            // writing to a copy separates into a refcounted array
            let mut w = copy;
            let m = ZArray::separate(&mut w);
            assert!(!(*m).is_immutable() && w.is_refcounted());
            (*m).append(Zval::long(1));
            assert_eq!((*imm).len(), 2);
            assert_eq!((*m).len(), 3);
            w.ptr_dtor();
            for h in pool {
                free_immutable_box(h);
            }
        }
    }

    #[test]
    fn immutable_rejects_references() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            use crate::value::ZRef;
            let a = ZArray::new();
            (*a).append(Zval::reference(ZRef::new(Zval::long(1))));
            let mut pool = Vec::new();
            let back = ZArray::into_immutable(a, &mut pool).err().unwrap();
            assert!(pool.is_empty());
            ZArray::free(back);
        }
    }
}
