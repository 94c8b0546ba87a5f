//! The PCRE2 library under `preg_*`, as ext/pcre drives it: delimiter and
//! modifier parsing (`pcre_get_compiled_regex_cache`), compiling (with
//! the JIT when `pcre.jit` is on), the per-context cache of compiled
//! patterns, match data, the match context carrying
//! `pcre.backtrack_limit`/`pcre.recursion_limit`, and `preg_last_error`'s
//! code.
//!
//! A binding of our own over `pcre2-sys` rather than the `pcre2` crate:
//! PHP needs match-time options (`PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED`
//! for the empty-match retry, `PCRE2_NO_UTF_CHECK` after the first
//! match), raw offset vectors with unset groups, match and depth limits
//! with their distinct error codes, the name table, MARK, and compile
//! options the crate does not expose (`A`, `D`, `U`, `J`, `n`).

use std::collections::VecDeque;
use std::rc::Rc;

use pcre2_sys as ffi;

use crate::exec::Vm;
use crate::value::{ZString, Zval};

/// `preg_last_error()` codes.
pub const NO_ERROR: i64 = 0;
pub const INTERNAL_ERROR: i64 = 1;
pub const BACKTRACK_LIMIT_ERROR: i64 = 2;
pub const RECURSION_LIMIT_ERROR: i64 = 3;
pub const BAD_UTF8_ERROR: i64 = 4;
pub const BAD_UTF8_OFFSET_ERROR: i64 = 5;
pub const JIT_STACKLIMIT_ERROR: i64 = 6;

/// PHP's cache bound (`PCRE_CACHE_SIZE`); when full, the oldest eighth
/// not in use is dropped.
const CACHE_SIZE: usize = 4096;
/// The JIT stack's sizes (`PCRE_JIT_STACK_MIN_SIZE`/`MAX_SIZE`).
const JIT_STACK_MIN: usize = 32 * 1024;
const JIT_STACK_MAX: usize = 192 * 1024;

pub const UNSET: usize = ffi::PCRE2_UNSET;

/// A compiled pattern (Zend's `pcre_cache_entry`).
pub struct Pattern {
    code: *mut ffi::pcre2_code_8,
    pub compile_options: u32,
    /// Compiled by the JIT (`PREG_JIT`).
    jit: bool,
    pub capture_count: u32,
    /// Group names by number (null: unnamed), when the pattern has names.
    pub names: Option<Box<[*mut ZString]>>,
}

impl Drop for Pattern {
    fn drop(&mut self) {
        if let Some(names) = &self.names {
            for &n in names.iter() {
                if !n.is_null() {
                    // SAFETY: the table owns one reference to each name.
                    unsafe { Zval::string(n).ptr_dtor() };
                }
            }
        }
        // SAFETY: `code` came from pcre2_compile and is freed once, here.
        unsafe { ffi::pcre2_code_free_8(self.code) };
    }
}

impl Pattern {
    pub fn utf(&self) -> bool {
        self.compile_options & ffi::PCRE2_UTF != 0
    }

    /// The byte length of the character at `pos` (`calculate_unit_length`):
    /// one byte, or a UTF-8 sequence under `/u`.
    pub fn unit_len(&self, s: &[u8], pos: usize) -> usize {
        if !self.utf() {
            return 1;
        }
        let mut end = pos + 1;
        while end < s.len() && s[end] & 0xc0 == 0x80 {
            end += 1;
        }
        end - pos
    }
}

/// Match data sized for a pattern's groups.
pub struct MatchData {
    md: *mut ffi::pcre2_match_data_8,
    pairs: u32,
}

impl Drop for MatchData {
    fn drop(&mut self) {
        // SAFETY: created by pcre2_match_data_create and freed once, here.
        unsafe { ffi::pcre2_match_data_free_8(self.md) };
    }
}

impl MatchData {
    /// The offset vector: `2 * pairs` offsets, `UNSET` for unset groups.
    pub fn ovector(&self) -> &[usize] {
        // SAFETY: the vector has `pairs` pairs and lives as long as `md`.
        unsafe { std::slice::from_raw_parts(ffi::pcre2_get_ovector_pointer_8(self.md), 2 * self.pairs as usize) }
    }

    /// The `(*MARK)` name of the last match, if any.
    pub fn mark(&self) -> Option<&[u8]> {
        // SAFETY: the mark is null or a NUL-terminated name preceded by its
        // length byte, inside the pattern, alive while the pattern is.
        unsafe {
            let m = ffi::pcre2_get_mark_8(self.md);
            if m.is_null() {
                return None;
            }
            let len = *m.sub(1) as usize;
            Some(std::slice::from_raw_parts(m, len))
        }
    }
}

/// The pcre.* ini settings a match runs under.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub backtrack_limit: u32,
    pub recursion_limit: u32,
    pub jit: bool,
}

/// The pcre.* ini settings, read again only after an ini change.
pub fn settings(vm: &mut Vm) -> Settings {
    let generation = super::var::ini_generation();
    if let Some((g, s)) = vm.pcre.settings {
        if g == generation {
            return s;
        }
    }
    let s = read_settings();
    vm.pcre.settings = Some((generation, s));
    s
}

/// The one place that reads the pcre.* ini settings.
fn read_settings() -> Settings {
    let long = |name: &[u8], default: i64| -> u32 {
        match super::var::ini_value(name) {
            Some(v) => ini_long(&v) as u32,
            None => default as u32,
        }
    };
    let jit = match super::var::ini_value(b"pcre.jit") {
        Some(v) => ini_bool(&v),
        None => true,
    };
    Settings { backtrack_limit: long(b"pcre.backtrack_limit", 1_000_000), recursion_limit: long(b"pcre.recursion_limit", 100_000), jit }
}

/// An ini integer with its K/M/G suffix (`zend_ini_parse_quantity`).
fn ini_long(v: &[u8]) -> i64 {
    let t = String::from_utf8_lossy(v);
    let t = t.trim();
    let (num, mul) = match t.as_bytes().last() {
        Some(b'k' | b'K') => (&t[..t.len() - 1], 1024),
        Some(b'm' | b'M') => (&t[..t.len() - 1], 1024 * 1024),
        Some(b'g' | b'G') => (&t[..t.len() - 1], 1024 * 1024 * 1024),
        _ => (t, 1),
    };
    let num = num.trim();
    let digits = num.bytes().enumerate().take_while(|&(i, c)| c.is_ascii_digit() || (i == 0 && (c == b'-' || c == b'+'))).count();
    num[..digits].parse::<i64>().unwrap_or(0).wrapping_mul(mul)
}

/// An ini boolean (`zend_ini_parse_bool`).
fn ini_bool(v: &[u8]) -> bool {
    let l = v.to_ascii_lowercase();
    matches!(l.as_slice(), b"true" | b"yes" | b"on") || ini_long(v) != 0
}

/// A context's PCRE state (Zend's pcre globals).
pub struct PcreState {
    /// `preg_last_error()`.
    pub error_code: i64,
    cache: crate::exec::vm::FastMap<Rc<[u8]>, Rc<Pattern>>,
    /// Cache keys, oldest first.
    order: VecDeque<Rc<[u8]>>,
    cctx: *mut ffi::pcre2_compile_context_8,
    mctx: *mut ffi::pcre2_match_context_8,
    jit_stack: *mut ffi::pcre2_jit_stack_8,
    /// The settings `mctx` was set up with.
    applied: Option<Settings>,
    /// The settings as last read, with the ini generation they were read at.
    settings: Option<(u64, Settings)>,
    /// The heap limit `mctx` has (KiB).
    heap_kib: u32,
    /// JIT memory could not be had: later patterns are not JIT compiled
    /// (PHP turns `PCRE_G(jit)` off).
    jit_failed: bool,
    /// Match data to reuse (a callback may run a nested match, so each
    /// use takes one out and puts it back).
    spare: Vec<MatchData>,
}

impl Default for PcreState {
    fn default() -> Self {
        PcreState {
            error_code: NO_ERROR,
            cache: crate::exec::vm::new_map(),
            order: VecDeque::new(),
            cctx: std::ptr::null_mut(),
            mctx: std::ptr::null_mut(),
            jit_stack: std::ptr::null_mut(),
            applied: None,
            settings: None,
            heap_kib: 0,
            jit_failed: false,
            spare: Vec::new(),
        }
    }
}

impl Drop for PcreState {
    fn drop(&mut self) {
        self.cache.clear();
        self.order.clear();
        self.spare.clear();
        // SAFETY: each context was created here and is freed once; the
        // patterns that used them are gone.
        unsafe {
            if !self.cctx.is_null() {
                ffi::pcre2_compile_context_free_8(self.cctx);
            }
            if !self.mctx.is_null() {
                ffi::pcre2_match_context_free_8(self.mctx);
            }
            if !self.jit_stack.is_null() {
                ffi::pcre2_jit_stack_free_8(self.jit_stack);
            }
        }
    }
}

/// What a match needs, copied out of the state so a callback in between
/// may use the state too.
#[derive(Clone, Copy)]
pub struct Matcher {
    mctx: *mut ffi::pcre2_match_context_8,
}

impl Matcher {
    /// The first match of a call: under `/u` the subject is checked for
    /// UTF-8 first. A valid subject is checked here, with Rust's fast
    /// validator, and matched without PCRE2's slower check; an invalid one
    /// goes to PCRE2, which reports the error exactly as for PHP.
    pub fn exec_first(&self, p: &Pattern, s: &[u8], start: usize, md: &mut MatchData) -> i32 {
        self.exec_first_known(p, s, start, false, md)
    }

    /// `exec_first` for a subject already known to be valid UTF-8 when
    /// `known_valid` (its string's flag, as PHP's `is_known_valid_utf8`).
    pub fn exec_first_known(&self, p: &Pattern, s: &[u8], start: usize, known_valid: bool, md: &mut MatchData) -> i32 {
        if !p.utf() || (known_valid && (start == s.len() || s.get(start).is_some_and(|&b| b & 0xc0 != 0x80))) {
            return self.exec(p, s, start, ffi::PCRE2_NO_UTF_CHECK, md);
        }
        if start <= s.len() && std::str::from_utf8(s).is_ok() {
            if start < s.len() && s[start] & 0xc0 == 0x80 {
                return ffi::PCRE2_ERROR_BADUTFOFFSET;
            }
            return self.exec(p, s, start, ffi::PCRE2_NO_UTF_CHECK, md);
        }
        self.exec(p, s, start, 0, md)
    }

    /// One `pcre2_match` (or `pcre2_jit_match` when the pattern is JIT
    /// compiled and no UTF check is asked for, as PHP does). Returns
    /// PCRE2's code: >0 matched, `PCRE2_ERROR_NOMATCH`, or an error.
    pub fn exec(&self, p: &Pattern, s: &[u8], start: usize, options: u32, md: &mut MatchData) -> i32 {
        if start > s.len() {
            return ffi::PCRE2_ERROR_BADOFFSET;
        }
        // SAFETY: `code` and `md` are live; `s` is valid for `s.len()`
        // bytes and `start <= s.len()` (pcre2_jit_match does not check
        // it); `mctx` is live while the state is.
        unsafe {
            if p.jit && options == ffi::PCRE2_NO_UTF_CHECK {
                ffi::pcre2_jit_match_8(p.code, s.as_ptr(), s.len(), start, options, md.md, self.mctx)
            } else {
                ffi::pcre2_match_8(p.code, s.as_ptr(), s.len(), start, options, md.md, self.mctx)
            }
        }
    }
}

/// The library's version text (`PCRE_VERSION`: "10.42 2022-12-11").
fn version() -> String {
    let mut buf = [0u8; 64];
    // SAFETY: PCRE2_CONFIG_VERSION writes at most 24 code units and a NUL
    // into a buffer of that size or more.
    let n = unsafe { ffi::pcre2_config_8(ffi::PCRE2_CONFIG_VERSION, buf.as_mut_ptr().cast()) };
    let n = if n > 0 { (n as usize - 1).min(buf.len()) } else { 0 };
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// ext/pcre's constants that come from the library.
pub fn constant(name: &[u8]) -> Option<Zval> {
    Some(match name {
        b"PCRE_VERSION" => Zval::string(ZString::new(version().as_bytes())),
        b"PCRE_VERSION_MAJOR" => Zval::long(ffi::PCRE2_MAJOR as i64),
        b"PCRE_VERSION_MINOR" => Zval::long(ffi::PCRE2_MINOR as i64),
        b"PCRE_JIT_SUPPORT" => {
            let mut jit = 0u32;
            // SAFETY: PCRE2_CONFIG_JIT writes a uint32_t.
            unsafe { ffi::pcre2_config_8(ffi::PCRE2_CONFIG_JIT, (&mut jit as *mut u32).cast()) };
            Zval::bool(jit != 0)
        }
        _ => return None,
    })
}

/// `pcre_handle_exec_error`: PCRE2's error code as `preg_last_error()`'s.
pub fn exec_error_code(rc: i32) -> i64 {
    match rc {
        ffi::PCRE2_ERROR_MATCHLIMIT => BACKTRACK_LIMIT_ERROR,
        ffi::PCRE2_ERROR_DEPTHLIMIT => RECURSION_LIMIT_ERROR,
        ffi::PCRE2_ERROR_BADUTFOFFSET => BAD_UTF8_OFFSET_ERROR,
        ffi::PCRE2_ERROR_JIT_STACKLIMIT => JIT_STACKLIMIT_ERROR,
        c if (ffi::PCRE2_ERROR_UTF8_ERR21..=ffi::PCRE2_ERROR_UTF8_ERR1).contains(&c) => BAD_UTF8_ERROR,
        _ => INTERNAL_ERROR,
    }
}

pub const NOMATCH: i32 = ffi::PCRE2_ERROR_NOMATCH;
pub const NO_UTF_CHECK: u32 = ffi::PCRE2_NO_UTF_CHECK;
/// The options of the retry after an empty match.
pub const NOTEMPTY_RETRY: u32 = ffi::PCRE2_NO_UTF_CHECK | ffi::PCRE2_NOTEMPTY_ATSTART | ffi::PCRE2_ANCHORED;

/// PCRE2's text for an error code.
fn error_message(code: i32) -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its length; PCRE2 NUL-terminates.
    let n = unsafe { ffi::pcre2_get_error_message_8(code, buf.as_mut_ptr(), buf.len()) };
    let n = if n < 0 { buf.iter().position(|&b| b == 0).unwrap_or(0) } else { n as usize };
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// C's `isspace` in the C locale.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

impl Vm {
    /// The match context set up with the current pcre.* settings.
    pub fn pcre_matcher(&mut self) -> Matcher {
        let s = settings(self);
        // PCRE2's interpreter keeps its backtracking frames on the heap,
        // by default up to 20 GB; a context bounds it by its memory_limit
        // (at least 64 MiB) so no pattern can exhaust the host. PHP sets
        // no bound; past it a match fails with PREG_INTERNAL_ERROR.
        let heap_kib = (self.memory_limit.max(64 << 20) / 1024).min(u32::MAX as usize) as u32;
        let st = &mut self.pcre;
        if st.mctx.is_null() {
            // SAFETY: a null general context means malloc/free.
            st.mctx = unsafe { ffi::pcre2_match_context_create_8(std::ptr::null_mut()) };
        }
        if (st.applied != Some(s) || st.heap_kib != heap_kib) && !st.mctx.is_null() {
            // SAFETY: `mctx` is live; the JIT stack, when assigned, lives
            // as long as the state (freed after the context).
            unsafe {
                ffi::pcre2_set_match_limit_8(st.mctx, s.backtrack_limit);
                ffi::pcre2_set_depth_limit_8(st.mctx, s.recursion_limit);
                ffi::pcre2_set_heap_limit_8(st.mctx, heap_kib);
                if s.jit && st.jit_stack.is_null() {
                    st.jit_stack = ffi::pcre2_jit_stack_create_8(JIT_STACK_MIN, JIT_STACK_MAX, std::ptr::null_mut());
                }
                let stack = if s.jit { st.jit_stack } else { std::ptr::null_mut() };
                ffi::pcre2_jit_stack_assign_8(st.mctx, None, stack.cast());
            }
            st.applied = Some(s);
            st.heap_kib = heap_kib;
        }
        Matcher { mctx: st.mctx }
    }

    /// Match data for `p` (reused when one is big enough).
    pub fn pcre_match_data(&mut self, p: &Pattern) -> Option<MatchData> {
        let want = p.capture_count + 1;
        if let Some(i) = self.pcre.spare.iter().rposition(|m| m.pairs >= want) {
            return Some(self.pcre.spare.swap_remove(i));
        }
        let pairs = want.max(32);
        // SAFETY: a null general context means malloc/free.
        let md = unsafe { ffi::pcre2_match_data_create_8(pairs, std::ptr::null_mut()) };
        if md.is_null() {
            return None;
        }
        Some(MatchData { md, pairs })
    }

    /// Gives match data back for reuse.
    pub fn pcre_release(&mut self, md: MatchData) {
        if self.pcre.spare.len() < 4 {
            self.pcre.spare.push(md);
        }
    }

    /// `pcre_get_compiled_regex_cache`: the compiled pattern for `regex`
    /// (a delimited pattern with modifiers), from the cache or compiled
    /// now; None after PHP's warning (`func(): …`).
    pub fn pcre_compile(&mut self, func: &str, regex: &[u8]) -> Option<Rc<Pattern>> {
        if let Some(p) = self.pcre.cache.get(regex) {
            return Some(p.clone());
        }
        let fail = |vm: &mut Vm, msg: &str| {
            vm.warning(&format!("{}(): {}", func, msg));
            vm.pcre.error_code = INTERNAL_ERROR;
            None
        };
        let end_p = regex.len();
        let mut p = 0;
        while p < end_p && is_space(regex[p]) {
            p += 1;
        }
        if p >= end_p {
            return fail(self, "Empty regular expression");
        }
        let start_delim = regex[p];
        p += 1;
        if start_delim.is_ascii_alphanumeric() || start_delim == b'\\' || start_delim == 0 {
            return fail(self, "Delimiter must not be alphanumeric, backslash, or NUL");
        }
        let end_delim = match start_delim {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            b'<' => b'>',
            d => d,
        };
        let mut pp = p;
        if start_delim == end_delim {
            while pp < end_p {
                if regex[pp] == b'\\' && pp + 1 < end_p {
                    pp += 1;
                } else if regex[pp] == end_delim {
                    break;
                }
                pp += 1;
            }
        } else {
            let mut brackets = 1;
            while pp < end_p {
                if regex[pp] == b'\\' && pp + 1 < end_p {
                    pp += 1;
                } else if regex[pp] == end_delim {
                    brackets -= 1;
                    if brackets <= 0 {
                        break;
                    }
                } else if regex[pp] == start_delim {
                    brackets += 1;
                }
                pp += 1;
            }
        }
        if pp >= end_p {
            let msg = if start_delim == end_delim {
                format!("No ending delimiter '{}' found", end_delim as char)
            } else {
                format!("No ending matching delimiter '{}' found", end_delim as char)
            };
            return fail(self, &msg);
        }
        let body = &regex[p..pp];
        let mut coptions = 0u32;
        let mut eval = false;
        for &m in &regex[pp + 1..] {
            match m {
                b'i' => coptions |= ffi::PCRE2_CASELESS,
                b'm' => coptions |= ffi::PCRE2_MULTILINE,
                b'n' => coptions |= ffi::PCRE2_NO_AUTO_CAPTURE,
                b's' => coptions |= ffi::PCRE2_DOTALL,
                b'x' => coptions |= ffi::PCRE2_EXTENDED,
                b'A' => coptions |= ffi::PCRE2_ANCHORED,
                b'D' => coptions |= ffi::PCRE2_DOLLAR_ENDONLY,
                b'S' | b'X' => {}
                b'U' => coptions |= ffi::PCRE2_UNGREEDY,
                b'u' => coptions |= ffi::PCRE2_UTF | ffi::PCRE2_UCP,
                b'J' => coptions |= ffi::PCRE2_DUPNAMES,
                b'e' => eval = true,
                b' ' | b'\n' | b'\r' => {}
                0 => return fail(self, "NUL is not a valid modifier"),
                c => {
                    // A byte above 0x7f prints as itself, as C's %c does.
                    let mut msg = b"Unknown modifier '".to_vec();
                    msg.push(c);
                    msg.push(b'\'');
                    let mut full = format!("{}(): ", func).into_bytes();
                    full.extend_from_slice(&msg);
                    self.warning_bytes(&full);
                    self.pcre.error_code = INTERNAL_ERROR;
                    return None;
                }
            }
        }
        if eval {
            return fail(self, "The /e modifier is no longer supported, use preg_replace_callback instead");
        }
        let st = &mut self.pcre;
        if st.cctx.is_null() {
            // SAFETY: a null general context means malloc/free.
            st.cctx = unsafe { ffi::pcre2_compile_context_create_8(std::ptr::null_mut()) };
            if st.cctx.is_null() {
                return fail(self, "Failed to allocate a compile context");
            }
            // SAFETY: `cctx` is live.
            unsafe { ffi::pcre2_set_compile_extra_options_8(st.cctx, ffi::PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK) };
        }
        let mut errnumber = 0;
        let mut erroffset = 0usize;
        // SAFETY: `body` is valid for its length (PCRE2 takes the length, so
        // NUL bytes are part of the pattern); the out-pointers are locals.
        let code = unsafe { ffi::pcre2_compile_8(body.as_ptr(), body.len(), coptions, &mut errnumber, &mut erroffset, st.cctx) };
        if code.is_null() {
            let msg = format!("Compilation failed: {} at offset {}", error_message(errnumber), erroffset);
            return fail(self, &msg);
        }
        let jit_on = settings(self).jit && !self.pcre.jit_failed;
        let mut jit = false;
        if jit_on {
            // SAFETY: `code` is the pattern just compiled.
            let rc = unsafe { ffi::pcre2_jit_compile_8(code, ffi::PCRE2_JIT_COMPLETE) };
            if rc >= 0 {
                let mut size = 0usize;
                // SAFETY: JITSIZE writes a size_t.
                let r = unsafe { ffi::pcre2_pattern_info_8(code, ffi::PCRE2_INFO_JITSIZE, (&mut size as *mut usize).cast()) };
                jit = r == 0 && size > 0;
            } else if rc == ffi::PCRE2_ERROR_NOMEMORY {
                self.warning(&format!(
                    "{}(): Allocation of JIT memory failed, PCRE JIT will be disabled. This is likely caused by security restrictions. Either grant PHP permission to allocate executable memory, or set pcre.jit=0",
                    func
                ));
                self.pcre.jit_failed = true;
            } else if rc != ffi::PCRE2_ERROR_JIT_BADOPTION {
                let msg = format!("JIT compilation failed: {}", error_message(rc));
                self.warning(&format!("{}(): {}", func, msg));
                self.pcre.error_code = INTERNAL_ERROR;
            }
        }
        let mut capture_count = 0u32;
        let mut name_count = 0u32;
        // SAFETY: both infos write a uint32_t.
        unsafe {
            ffi::pcre2_pattern_info_8(code, ffi::PCRE2_INFO_CAPTURECOUNT, (&mut capture_count as *mut u32).cast());
            ffi::pcre2_pattern_info_8(code, ffi::PCRE2_INFO_NAMECOUNT, (&mut name_count as *mut u32).cast());
        }
        let names = if name_count > 0 {
            let mut table: *const u8 = std::ptr::null();
            let mut entry = 0u32;
            // SAFETY: NAMETABLE writes a pointer into the pattern,
            // NAMEENTRYSIZE a uint32_t.
            unsafe {
                ffi::pcre2_pattern_info_8(code, ffi::PCRE2_INFO_NAMETABLE, (&mut table as *mut *const u8).cast());
                ffi::pcre2_pattern_info_8(code, ffi::PCRE2_INFO_NAMEENTRYSIZE, (&mut entry as *mut u32).cast());
            }
            let mut names = vec![std::ptr::null_mut::<ZString>(); capture_count as usize + 1];
            for i in 0..name_count as usize {
                // SAFETY: the table has `name_count` entries of `entry`
                // bytes: a big-endian group number, then the NUL-terminated
                // name.
                unsafe {
                    let e = table.add(i * entry as usize);
                    let idx = ((*e as usize) << 8) | *e.add(1) as usize;
                    let name = std::ffi::CStr::from_ptr(e.add(2).cast()).to_bytes();
                    if let Some(slot) = names.get_mut(idx) {
                        if !slot.is_null() {
                            Zval::string(*slot).ptr_dtor();
                        }
                        *slot = ZString::new(name);
                    }
                }
            }
            Some(names.into_boxed_slice())
        } else {
            None
        };
        let pattern = Rc::new(Pattern { code, compile_options: coptions, jit, capture_count, names });
        let st = &mut self.pcre;
        if st.cache.len() >= CACHE_SIZE {
            let mut clean = CACHE_SIZE / 8;
            let cache = &mut st.cache;
            st.order.retain(|k| {
                if clean > 0 && cache.get(k).is_some_and(|p| Rc::strong_count(p) == 1) {
                    cache.remove(k);
                    clean -= 1;
                    false
                } else {
                    true
                }
            });
        }
        let key: Rc<[u8]> = Rc::from(regex);
        st.order.push_back(key.clone());
        st.cache.insert(key, pattern.clone());
        Some(pattern)
    }
}
