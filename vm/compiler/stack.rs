//! Stack room for the recursive passes of the compiler (parser, codegen).
//!
//! PHP bounds a parse by its bison stack (10,000 entries: `memory exhausted`),
//! not by the C stack, and Tusk must accept what PHP accepts on any thread an
//! embedder compiles on, including threads with small stacks, and never
//! overflow. So: the parser checks the stack pointer against a floor taken
//! from the thread's real stack bounds and stops cleanly before it; `compile`
//! runs on the caller's thread when the input is shallow enough for the room
//! left there, and otherwise on a helper thread with a big stack
//! (`with_big_stack`). See docs/architecture.md, "Deep nesting".

use std::cell::Cell;

/// Stack reserved for a compile that moves to a helper thread. Only the pages
/// a deep input touches are ever committed.
pub const BIG_STACK: usize = 1 << 30;

/// Room left below the parser's floor: for the frames between two checks and
/// for whatever the caller does after a failed parse.
const MARGIN: usize = 64 * 1024;

thread_local! {
    /// The lowest usable address of this thread's stack (0: not known yet;
    /// usize::MAX: cannot be known on this platform).
    static LOW: Cell<usize> = const { Cell::new(0) };
}

/// An address inside the current frame: the stack pointer, give or take a frame.
#[inline(always)]
pub fn sp() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// The lowest address of the current thread's stack, if the platform says.
fn low_bound() -> Option<usize> {
    let cached = LOW.with(|l| l.get());
    if cached == usize::MAX {
        return None;
    }
    if cached != 0 {
        return Some(cached);
    }
    let found = query_low_bound();
    LOW.with(|l| l.set(found.unwrap_or(usize::MAX)));
    found
}

#[cfg(target_os = "linux")]
fn query_low_bound() -> Option<usize> {
    // SAFETY: `attr` is initialized by pthread_getattr_np before it is read and
    // destroyed once; the out-pointers point at live locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        // The guard page(s) sit at the bottom of the reported range.
        ok.then(|| addr as usize + 2 * 4096)
    }
}

#[cfg(not(target_os = "linux"))]
fn query_low_bound() -> Option<usize> {
    None
}

/// Bytes of stack left on the current thread (`None`: unknown).
pub fn remaining() -> Option<usize> {
    low_bound().map(|low| sp().saturating_sub(low))
}

/// The address below which the parser stops with `memory exhausted`. Where
/// the bounds are unknown, assumes the 2 MiB Rust gives a spawned thread.
pub fn floor() -> usize {
    match low_bound() {
        Some(low) => low + MARGIN,
        None => sp().saturating_sub(2 * 1024 * 1024 - MARGIN),
    }
}

/// Runs `f` on a helper thread with a `BIG_STACK` stack and waits for it;
/// `None` if no thread could be started. A panic in `f` is resumed here.
pub fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new().name("tusk-compile".into()).stack_size(BIG_STACK).spawn_scoped(s, f);
        match handle.ok()?.join() {
            Ok(v) => Some(v),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
