//! Refcounted byte strings (Zend's `zend_string`): header, cached hash,
//! length and capacity in one allocation with the bytes right after them.
//!
//! A `ZString` is only ever handled through a raw pointer obtained from one
//! of the constructors here; it is never moved or built on the stack.

use core::cell::UnsafeCell;
use core::ptr;
use std::alloc::Layout;

use super::zval::{GcHeader, GC_IMMUTABLE, GC_PERSISTENT, GC_VALID_UTF8, IS_STRING};

#[repr(C)]
pub struct ZString {
    pub header: GcHeader,
    /// 0 until computed; a computed hash is never 0.
    hash: UnsafeCell<u64>,
    len: usize,
    cap: usize,
    // `cap` bytes follow, inside the same allocation.
}

const HEADER: usize = core::mem::size_of::<ZString>();
const ALIGN: usize = core::mem::align_of::<ZString>();

/// The hash PHP string keys use: Zend's DJBX33A (`h = h * 33 + byte` from
/// 5381), with the top bit set so that it is never 0 (0 marks "not
/// computed"), as `zend_inline_hash_func` does on 64-bit hosts.
///
/// Not a keyed hash: like PHP's, its tables can be flooded by chosen keys.
/// (The fixed-seed ahash used before was no better: its seeds are public.)
/// What it buys is locality: keys that differ in their last bytes ("k1",
/// "k2", dechex() of a counter) hash to neighbouring chain heads, so tables
/// filled and probed in key order touch memory in order, as in PHP.
#[inline]
pub fn hash_bytes(b: &[u8]) -> u64 {
    let mut h: u64 = 5381;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        // 33^8 .. 33^1 applied one byte at a time, unrolled (Zend unrolls
        // the same way); the compiler keeps it in registers.
        for &x in c {
            h = h.wrapping_mul(33).wrapping_add(x as u64);
        }
    }
    for &x in chunks.remainder() {
        h = h.wrapping_mul(33).wrapping_add(x as u64);
    }
    h | 0x8000_0000_0000_0000
}

#[inline]
fn layout_for(cap: usize) -> Layout {
    // A capacity this large can never fit the memory limit: refuse it as
    // the limit would.
    match Layout::from_size_align(HEADER.saturating_add(cap), ALIGN) {
        Ok(l) => l,
        Err(_) => super::heap::exhausted(HEADER.saturating_add(cap)),
    }
}

impl ZString {
    /// An empty string with room for `cap` bytes, refcount 1.
    pub fn with_capacity(cap: usize) -> *mut ZString {
        let layout = layout_for(cap);
        // SAFETY: the layout has non-zero size (HEADER > 0).
        let p = unsafe { super::heap::alloc(layout) } as *mut ZString;
        #[cfg(any(debug_assertions, test))]
        super::live::inc();
        // SAFETY: `p` is a fresh allocation large and aligned enough for the
        // header fields; we initialise them all before anyone reads them.
        unsafe {
            ptr::write(
                p,
                ZString { header: GcHeader::new(IS_STRING), hash: UnsafeCell::new(0), len: 0, cap },
            );
        }
        p
    }

    /// A copy of `b` with refcount 1.
    pub fn new(b: &[u8]) -> *mut ZString {
        let p = ZString::with_capacity(b.len());
        // SAFETY: `p` has capacity for `b.len()` bytes; regions are disjoint.
        unsafe {
            ptr::copy_nonoverlapping(b.as_ptr(), (*p).data_ptr(), b.len());
            (*p).len = b.len();
        }
        p
    }

    /// An immutable, persistent copy of `b` (a literal): hash precomputed,
    /// never refcounted, never freed by a refcount; `free_immutable` frees it.
    pub fn new_immutable(b: &[u8]) -> *mut ZString {
        let p = ZString::new(b);
        // SAFETY: `p` is fresh and exclusively ours.
        unsafe {
            (*p).header.type_info |= GC_IMMUTABLE | GC_PERSISTENT;
            (*p).header.refcount = 2;
            *(*p).hash.get() = hash_bytes(b);
        }
        p
    }

    /// Decimal form of `v`, written straight into the new string.
    pub fn from_i64(v: i64) -> *mut ZString {
        let len = super::number::i64_len(v);
        let p = ZString::with_capacity(len);
        // SAFETY: `p` is fresh with capacity `len`; the digits fill exactly
        // `len` bytes before the length is set.
        unsafe {
            super::number::write_i64(v, core::slice::from_raw_parts_mut((*p).data_ptr(), len));
            (*p).len = len;
        }
        p
    }

    /// `v` in base `1 << bits` (1 to 4: binary to hex) with lowercase
    /// digits, as an unsigned number (dechex(-1) is 16 f's), written
    /// straight into the new string.
    pub fn from_u64_radix_pow2(v: u64, bits: u32) -> *mut ZString {
        debug_assert!((1..=4).contains(&bits));
        let used = (64 - v.leading_zeros()).max(1);
        let len = used.div_ceil(bits) as usize;
        let p = ZString::with_capacity(len);
        let mask = (1u64 << bits) - 1;
        // SAFETY: `p` is fresh with capacity `len`, and `len` digits are
        // written (indexes len-1 down to 0) before the length is set.
        unsafe {
            let d = (*p).data_ptr();
            let mut u = v;
            for i in (0..len).rev() {
                *d.add(i) = b"0123456789abcdef"[(u & mask) as usize];
                u >>= bits;
            }
            (*p).len = len;
        }
        p
    }

    /// String form of `v` as `(string)` gives it (precision 14).
    pub fn from_f64(v: f64) -> *mut ZString {
        let mut out = Vec::with_capacity(24);
        super::number::fmt_precision(v, 14, &mut out);
        ZString::new(&out)
    }

    /// `a . b` in one allocation.
    pub fn concat(a: &[u8], b: &[u8]) -> *mut ZString {
        let p = ZString::with_capacity(a.len().saturating_add(b.len()));
        // SAFETY: capacity is a.len() + b.len(); the sources cannot overlap a
        // fresh allocation.
        unsafe {
            let d = (*p).data_ptr();
            ptr::copy_nonoverlapping(a.as_ptr(), d, a.len());
            ptr::copy_nonoverlapping(b.as_ptr(), d.add(a.len()), b.len());
            (*p).len = a.len() + b.len();
        }
        p
    }

    /// Frees a refcounted string.
    ///
    /// # Safety
    /// `p` came from a constructor here, is not immutable, and nothing uses
    /// it afterwards.
    pub unsafe fn free(p: *mut ZString) {
        debug_assert!(!(*p).header.is_immutable());
        #[cfg(any(debug_assertions, test))]
        super::live::dec();
        super::heap::dealloc(p as *mut u8, layout_for((*p).cap));
    }

    /// Frees an immutable string at program teardown.
    ///
    /// # Safety
    /// `p` came from `new_immutable` and no value refers to it any more.
    pub unsafe fn free_immutable(p: *mut ZString) {
        #[cfg(any(debug_assertions, test))]
        super::live::dec();
        super::heap::dealloc(p as *mut u8, layout_for((*p).cap));
    }

    /// Appends `b` to `s` in place, growing geometrically; returns the
    /// (possibly moved) string.
    ///
    /// # Safety
    /// `s` is live, has refcount 1, is not immutable, and `b` does not point
    /// into `s` itself unless it lies inside `s`'s current bytes (handled).
    pub unsafe fn append(s: *mut ZString, b: &[u8]) -> *mut ZString {
        debug_assert!((*s).header.refcount == 1 && !(*s).header.is_immutable());
        let len = (*s).len;
        let need = len.saturating_add(b.len());
        let mut s = s;
        if need > (*s).cap {
            // `b` may be a view of `s` (`$a .= $a`): remember its offset.
            let base = (*s).data_ptr() as usize;
            let inside = (b.as_ptr() as usize) >= base && (b.as_ptr() as usize) < base + len;
            let off = (b.as_ptr() as usize).wrapping_sub(base);
            let new_cap = need.max((*s).cap.saturating_mul(2)).max(16);
            let np = super::heap::realloc(s as *mut u8, layout_for((*s).cap), layout_for(new_cap).size());
            s = np as *mut ZString;
            (*s).cap = new_cap;
            let src = if inside { (*s).data_ptr().add(off) as *const u8 } else { b.as_ptr() };
            ptr::copy(src, (*s).data_ptr().add(len), b.len());
        } else {
            ptr::copy(b.as_ptr(), (*s).data_ptr().add(len), b.len());
        }
        (*s).len = need;
        *(*s).hash.get() = 0;
        (*s).header.type_info &= !GC_VALID_UTF8;
        s
    }

    /// Sets the length after writing bytes through `data_ptr`.
    ///
    /// # Safety
    /// `len <= capacity()`, the bytes up to `len` are initialised, and the
    /// string is uniquely owned (its cached hash is reset).
    #[inline]
    pub unsafe fn set_len(s: *mut ZString, len: usize) {
        debug_assert!(len <= (*s).cap);
        (*s).len = len;
        *(*s).hash.get() = 0;
        (*s).header.type_info &= !GC_VALID_UTF8;
    }

    #[inline(always)]
    pub fn data_ptr(&self) -> *mut u8 {
        // SAFETY: the bytes start right after the header inside the same
        // allocation; computing the address is in bounds (one-past at worst).
        unsafe { (self as *const ZString as *mut u8).add(HEADER) }
    }

    #[inline(always)]
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `len` bytes after the header are initialised and live as
        // long as `self`.
        unsafe { core::slice::from_raw_parts(self.data_ptr(), self.len) }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn capacity(&self) -> usize {
        self.cap
    }
    #[inline(always)]
    pub fn refcount(&self) -> u32 {
        self.header.refcount
    }
    #[inline(always)]
    pub fn is_immutable(&self) -> bool {
        self.header.is_immutable()
    }

    /// Known to be valid UTF-8 (see `GC_VALID_UTF8`).
    #[inline(always)]
    pub fn is_valid_utf8(&self) -> bool {
        self.header.type_info & GC_VALID_UTF8 != 0
    }

    /// Records that the bytes are valid UTF-8 (not on immutable strings,
    /// which other threads may read).
    ///
    /// # Safety
    /// `s` is a live string and the caller verified its bytes.
    #[inline]
    pub unsafe fn set_valid_utf8(s: *mut ZString) {
        if !(*s).is_immutable() {
            (*s).header.type_info |= GC_VALID_UTF8;
        }
    }

    /// The string's hash, computed once and cached.
    #[inline]
    pub fn hash(&self) -> u64 {
        // SAFETY: see `compute_hash`.
        let h = unsafe { *self.hash.get() };
        if h != 0 {
            return h;
        }
        self.compute_hash()
    }

    /// Out of line, so that lookups with a cached hash stay small.
    #[cold]
    #[inline(never)]
    fn compute_hash(&self) -> u64 {
        // SAFETY: immutable strings (the only ones shared across threads)
        // have their hash set at creation, so this cell is only written for
        // thread-local refcounted strings, never concurrently.
        unsafe {
            let h = hash_bytes(self.bytes());
            *self.hash.get() = h;
            h
        }
    }

    /// The cached hash or 0 if not computed yet.
    #[inline(always)]
    pub fn cached_hash(&self) -> u64 {
        // SAFETY: see `hash`.
        unsafe { *self.hash.get() }
    }

    #[inline]
    pub fn eq_bytes(&self, b: &[u8]) -> bool {
        self.bytes() == b
    }

    /// Equality of two strings, using cached hashes to reject early.
    #[inline]
    pub fn equals(&self, other: &ZString) -> bool {
        if ptr::eq(self, other) {
            return true;
        }
        if self.len != other.len {
            return false;
        }
        let (h1, h2) = (self.cached_hash(), other.cached_hash());
        if h1 != 0 && h2 != 0 && h1 != h2 {
            return false;
        }
        self.bytes() == other.bytes()
    }

    /// Zend's `ZEND_HANDLE_NUMERIC_STR`: the integer this string stands for as
    /// an array key ("123", "-5"), or None ("0123", "-0", " 1", overflow).
    #[inline]
    pub fn numeric_index(&self) -> Option<i64> {
        numeric_index(self.bytes())
    }
}

impl core::fmt::Debug for ZString {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(self.bytes()))
    }
}

/// See [`ZString::numeric_index`].
#[inline]
pub fn numeric_index(b: &[u8]) -> Option<i64> {
    let first = *b.first()?;
    if first > b'9' || (first < b'0' && first != b'-') {
        return None;
    }
    numeric_index_slow(b)
}

fn numeric_index_slow(b: &[u8]) -> Option<i64> {
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    if digits[0] == b'0' && (digits.len() > 1 || neg) {
        return None;
    }
    // Accumulate negatively so that i64::MIN is representable.
    let mut acc: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        acc = acc.checked_mul(10)?.checked_sub((c - b'0') as i64)?;
    }
    if neg {
        Some(acc)
    } else {
        acc.checked_neg()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_one_allocation_with_inline_bytes() {
        let _leaks = crate::value::LeakCheck::new();
        assert_eq!(HEADER, 32);
        let s = ZString::new(b"hello");
        unsafe {
            assert_eq!((*s).bytes(), b"hello");
            assert_eq!((*s).len(), 5);
            assert_eq!((*s).header.refcount, 1);
            assert_eq!((*s).data_ptr() as usize - s as usize, 32);
            ZString::free(s);
        }
    }

    #[test]
    fn hash_is_cached_nonzero_and_stable() {
        let _leaks = crate::value::LeakCheck::new();
        let a = ZString::new(b"key");
        let b = ZString::new_immutable(b"key");
        unsafe {
            assert_eq!((*a).cached_hash(), 0);
            let h = (*a).hash();
            assert_ne!(h, 0);
            assert_eq!((*a).cached_hash(), h);
            assert_eq!((*b).cached_hash(), h);
            assert!((*b).is_immutable());
            assert!((*a).equals(&*b));
            assert_eq!(hash_bytes(b"key"), h);
            ZString::free(a);
            ZString::free_immutable(b);
        }
    }

    #[test]
    fn hash_is_zend_djbx33a_with_the_top_bit() {
        const TOP: u64 = 0x8000_0000_0000_0000;
        assert_eq!(hash_bytes(b""), 5381 | TOP);
        assert_eq!(hash_bytes(b"a"), (5381 * 33 + 97) | TOP);
        // Longer than one unrolled block of 8: same as the plain loop.
        let long = b"the quick brown fox jumps";
        let plain = long.iter().fold(5381u64, |h, &c| h.wrapping_mul(33).wrapping_add(c as u64));
        assert_eq!(hash_bytes(long), plain | TOP);
        // Neighbouring keys get neighbouring hashes (chain-head locality).
        assert_eq!(hash_bytes(b"k2") - hash_bytes(b"k1"), 1);
    }

    #[test]
    fn append_grows_and_moves() {
        let _leaks = crate::value::LeakCheck::new();
        let mut s = ZString::new(b"ab");
        unsafe {
            for _ in 0..100 {
                s = ZString::append(s, b"xyz");
            }
            assert_eq!((*s).len(), 302);
            assert!((*s).bytes().starts_with(b"abxyzxyz"));
            // self-append
            let view: &[u8] = core::slice::from_raw_parts((*s).data_ptr(), 2);
            let cap = (*s).capacity();
            let mut t = s;
            while (*t).len() + 2 <= cap {
                t = ZString::append(t, b"..");
            }
            let view2: &[u8] = core::slice::from_raw_parts((*t).data_ptr(), (*t).len());
            let before = view2.to_vec();
            let _ = view;
            t = ZString::append(t, view2);
            assert_eq!((*t).len(), before.len() * 2);
            assert_eq!(&(*t).bytes()[before.len()..], &before[..]);
            ZString::free(t);
        }
    }

    #[test]
    fn concat_and_conversions() {
        let _leaks = crate::value::LeakCheck::new();
        let s = ZString::concat(b"foo", b"bar");
        let i = ZString::from_i64(i64::MIN);
        let f = ZString::from_f64(0.1 + 0.2);
        unsafe {
            assert_eq!((*s).bytes(), b"foobar");
            assert_eq!((*i).bytes(), b"-9223372036854775808");
            assert_eq!((*f).bytes(), b"0.3");
            ZString::free(s);
            ZString::free(i);
            ZString::free(f);
        }
    }

    #[test]
    fn direct_number_strings_match_std() {
        let _leaks = crate::value::LeakCheck::new();
        for v in [0i64, 1, 9, 10, 99, 100, 12345, -1, -10, -99, -100, i64::MAX, i64::MIN] {
            let s = ZString::from_i64(v);
            unsafe {
                assert_eq!((*s).bytes(), v.to_string().as_bytes());
                ZString::free(s);
            }
        }
        for v in [0u64, 1, 15, 16, 255, 0xc350, u64::MAX] {
            for (bits, want) in [(4, format!("{v:x}")), (3, format!("{v:o}")), (1, format!("{v:b}"))] {
                let s = ZString::from_u64_radix_pow2(v, bits);
                unsafe {
                    assert_eq!((*s).bytes(), want.as_bytes());
                    ZString::free(s);
                }
            }
        }
    }

    #[test]
    fn numeric_index_follows_zend_handle_numeric_str() {
        let _leaks = crate::value::LeakCheck::new();
        // php -n -r 'var_dump(["-9223372036854775808"=>1, "9223372036854775808"=>1, "-0"=>1, ...]);'
        assert_eq!(numeric_index(b"123"), Some(123));
        assert_eq!(numeric_index(b"-5"), Some(-5));
        assert_eq!(numeric_index(b"0"), Some(0));
        assert_eq!(numeric_index(b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(numeric_index(b"-9223372036854775808"), Some(i64::MIN));
        for s in [
            &b"0123"[..], b"-0", b" 1", b"1 ", b"9223372036854775808", b"-9223372036854775809", b"00",
            b"-01", b"1.0", b"-", b"", b"1e3", b"+1", b"12a", b"99999999999999999999",
        ] {
            assert_eq!(numeric_index(s), None, "{:?}", core::str::from_utf8(s));
        }
    }
}
