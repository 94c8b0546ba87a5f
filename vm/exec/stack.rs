//! The VM stack: frames live in large pages; a PHP call pushes a frame and a
//! return pops it, with no Rust recursion. Pages count against the memory
//! limit, so unbounded PHP recursion ends with PHP's memory-exhausted error.

use crate::value::{heap, Zval};

/// Page size, as Zend's (ZEND_VM_STACK_PAGE_SIZE is 256 KiB on 64-bit).
pub const PAGE_BYTES: usize = 256 * 1024;
/// Zend MM's chunk size: what a failed allocation reports having tried.
pub const CHUNK_BYTES: usize = 2 * 1024 * 1024;

pub struct Stack {
    /// Pages in use, innermost last. Each is a zeroed block of Zvals.
    pages: Vec<Box<[Zval]>>,
    /// A spare page kept after popping back, so a loop that calls across a
    /// page boundary doesn't allocate every time.
    spare: Option<Box<[Zval]>>,
    pub top: *mut u8,
    pub end: *mut u8,
    /// Start of the innermost page: popping the frame there returns to the
    /// previous page (cached so that `free` tests one pointer).
    base: *mut u8,
}

/// The stack could not grow: `bytes` more would pass the memory limit.
pub struct Exhausted {
    pub tried: usize,
}

impl Stack {
    pub fn new() -> Stack {
        let mut s = Stack {
            pages: Vec::new(),
            spare: None,
            top: core::ptr::null_mut(),
            end: core::ptr::null_mut(),
            base: core::ptr::null_mut(),
        };
        // Outside a run there is no limit to refuse the first page.
        let _ = s.push_page(PAGE_BYTES);
        s
    }

    pub fn bytes_reserved(&self) -> usize {
        self.pages.iter().map(|p| p.len() * 16).sum()
    }

    /// Makes a page of at least `min` bytes current; false if a new page
    /// would pass the memory limit.
    fn push_page(&mut self, min: usize) -> bool {
        let bytes = min.max(PAGE_BYTES);
        let page = match self.spare.take() {
            Some(p) if p.len() * 16 >= bytes => p,
            other => {
                if !heap::try_charge(bytes) {
                    self.spare = other;
                    return false;
                }
                if let Some(p) = other {
                    heap::release(p.len() * 16);
                }
                vec![Zval::UNDEF; bytes / 16].into_boxed_slice()
            }
        };
        self.top = page.as_ptr() as *mut u8;
        self.base = self.top;
        // SAFETY: one past the end of the page's allocation.
        self.end = unsafe { self.top.add(page.len() * 16) };
        self.pages.push(page);
        true
    }

    /// Pops every frame (after a run was abandoned mid-way).
    pub fn reset(&mut self) {
        while self.pages.len() > 1 {
            self.pop_page();
        }
        if let Some(p) = self.pages.last() {
            self.top = p.as_ptr() as *mut u8;
        }
    }

    /// Reserves `bytes` (a multiple of 16) for a frame; slots are not initialized.
    #[inline(always)]
    pub fn alloc(&mut self, bytes: usize, limit: usize) -> Result<*mut Zval, Exhausted> {
        // SAFETY: pointer comparison within/one past the current page.
        if (self.end as usize) - (self.top as usize) >= bytes {
            let p = self.top;
            self.top = unsafe { p.add(bytes) };
            return Ok(p as *mut Zval);
        }
        self.alloc_slow(bytes, limit)
    }

    #[cold]
    fn alloc_slow(&mut self, bytes: usize, limit: usize) -> Result<*mut Zval, Exhausted> {
        let want = bytes.max(PAGE_BYTES);
        if self.bytes_reserved() + want > limit || !self.push_page(bytes) {
            // Zend's allocator takes memory from the system in 2 MiB chunks,
            // and that is the request its limit error names.
            return Err(Exhausted { tried: CHUNK_BYTES });
        }
        let p = self.top;
        // SAFETY: the new page has at least `bytes` bytes.
        self.top = unsafe { p.add(bytes) };
        Ok(p as *mut Zval)
    }

    /// Pops the frame that starts at `frame` (the most recently pushed).
    #[inline(always)]
    pub fn free(&mut self, frame: *mut Zval) {
        let f = frame as *mut u8;
        self.top = f;
        // Popping the first frame of a page returns to the previous page.
        if f == self.base {
            self.pop_page();
        }
    }

    /// Whether popping the frame at `frame` leaves the innermost page (so
    /// `free` would call out to switch pages).
    #[inline(always)]
    pub fn starts_page(&self, frame: *mut Zval) -> bool {
        frame as *mut u8 == self.base
    }

    /// Whether `p` lies in the innermost page.
    pub fn in_top_page(&self, p: *mut u8) -> bool {
        p >= self.base && p < self.end
    }

    /// Pops everything above `mark` (an earlier `top`), leaving pages
    /// entered since then (frames left behind by a generator that resumed
    /// above its caller's frames).
    pub fn release_to(&mut self, mark: *mut u8) {
        while self.pages.len() > 1 && !(mark >= self.base && mark <= self.end) {
            self.pop_page();
        }
        self.top = mark;
    }

    #[cold]
    fn pop_page(&mut self) {
        if self.pages.len() <= 1 {
            return;
        }
        if let Some(p) = self.pages.pop() {
            if let Some(old) = self.spare.replace(p) {
                heap::release(old.len() * 16);
            }
        }
        let last = self.pages.last().expect("stack keeps its first page");
        let start = last.as_ptr() as *mut u8;
        self.base = start;
        // SAFETY: end of the previous page; `top` is where its last frame ended,
        // which is that page's end or earlier. We don't know exactly, so we
        // leave the rest of the page unused: frames never span pages.
        self.end = unsafe { start.add(last.len() * 16) };
        self.top = self.end;
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        let bytes = self.bytes_reserved() + self.spare.as_ref().map_or(0, |p| p.len() * 16);
        heap::release(bytes);
    }
}

impl Default for Stack {
    fn default() -> Self {
        Stack::new()
    }
}
