//! ext/pcre: preg_match, preg_match_all, preg_replace(_callback),
//! preg_split, preg_quote, preg_grep.
//!
//! Patterns run on the `regex` crate (byte-oriented; Unicode with `/u`).
//! PCRE features it lacks (backreferences, lookaround, atomic groups,
//! recursion) fail to compile with PHP's "Compilation failed" warning.
//! Matching iterates as PHP does: after an empty match the next attempt
//! must be non-empty at the same place, else it moves on by one character.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use regex::bytes::{Captures, Regex, RegexBuilder};

use super::callback::{self, Callable};
use super::{args, ret_str, set_ref};
use crate::exec::{Thrown, Vm};
use crate::value::{ZArray, ZString, Zval, IS_ARRAY, IS_NULL};

type R = Result<(), Thrown>;

const PATTERN_ORDER: i64 = 1;
const SET_ORDER: i64 = 2;
const OFFSET_CAPTURE: i64 = 256;
const UNMATCHED_AS_NULL: i64 = 512;
const SPLIT_NO_EMPTY: i64 = 1;
const SPLIT_DELIM_CAPTURE: i64 = 2;
const SPLIT_OFFSET_CAPTURE: i64 = 4;
const GREP_INVERT: i64 = 1;
const BAD_UTF8_ERROR: i64 = 4;

/// A compiled pattern.
struct Pattern {
    re: Regex,
    utf8: bool,
    /// Group names by index (None for unnamed groups).
    names: Vec<Option<String>>,
}

thread_local! {
    static CACHE: RefCell<HashMap<Vec<u8>, Rc<Pattern>>> = RefCell::new(HashMap::new());
    static LAST_ERROR: Cell<i64> = const { Cell::new(0) };
}

fn set_error(code: i64) {
    LAST_ERROR.with(|e| e.set(code));
}

/// Translates a PCRE pattern body to the `regex` crate's syntax, or the
/// compile error text.
fn translate(body: &[u8], utf8: bool, extended: bool) -> Result<String, String> {
    let mut out = String::with_capacity(body.len() + 8);
    let push_byte = |out: &mut String, b: u8| {
        if b < 0x80 {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{:02X}", b));
        }
    };
    let mut i = 0;
    let mut in_class = false;
    let mut class_start = 0usize;
    let text: Vec<char>;
    // Work on chars in UTF-8 mode, on bytes (as Latin-1 chars) otherwise.
    if utf8 {
        text = std::str::from_utf8(body).map_err(|_| "UTF-8 error: invalid pattern".to_string())?.chars().collect();
    } else {
        text = body.iter().map(|&b| b as char).collect();
    }
    let emit = |out: &mut String, c: char| {
        if utf8 || (c as u32) < 0x80 {
            out.push(c);
        } else {
            push_byte(out, c as u32 as u8);
        }
    };
    while i < text.len() {
        let c = text[i];
        if c == '\\' {
            let Some(&n) = text.get(i + 1) else {
                return Err(format!("\\ at end of pattern at offset {}", i + 1));
            };
            i += 2;
            match n {
                '0' => {
                    // \0 and octal \0dd.
                    let mut v = 0u32;
                    let mut k = 0;
                    while k < 2 && text.get(i).is_some_and(|d| ('0'..='7').contains(d)) {
                        v = v * 8 + (text[i] as u32 - '0' as u32);
                        i += 1;
                        k += 1;
                    }
                    out.push_str(&format!("\\x{{{:X}}}", v));
                }
                '1'..='9' => return Err(format!("back references are not supported at offset {}", i - 1)),
                'Z' => out.push_str("\\z"),
                'h' => out.push_str(if in_class { " \\t" } else { "[ \\t]" }),
                'H' => out.push_str("[^ \\t]"),
                'R' => out.push_str("(?:\\r\\n|\\n|\\r)"),
                'e' => out.push_str("\\x1B"),
                'a' => out.push_str("\\x07"),
                'K' | 'G' | 'X' | 'C' | 'g' | 'k' => return Err(format!("unsupported escape sequence at offset {}", i - 1)),
                'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' | 'A' | 'z' | 'n' | 'r' | 't' | 'f' | 'v' | 'x' | 'p' | 'P' => {
                    out.push('\\');
                    out.push(n);
                }
                c if c.is_ascii_alphanumeric() => return Err(format!("unrecognized character follows \\ at offset {}", i - 1)),
                c if "\\.+*?()|[]{}^$#&-~".contains(c) => {
                    out.push('\\');
                    out.push(c);
                }
                ' ' if extended => out.push_str("\\ "),
                c => emit(&mut out, c),
            }
            continue;
        }
        if in_class {
            match c {
                ']' if i > class_start => {
                    in_class = false;
                    out.push(']');
                }
                '[' if text.get(i + 1) == Some(&':') => {
                    // A POSIX class [:name:].
                    let rest: String = text[i..].iter().collect();
                    match rest.find(":]") {
                        Some(e) => {
                            out.push_str(&rest[..e + 2]);
                            i += rest[..e + 2].chars().count();
                            continue;
                        }
                        None => out.push_str("\\["),
                    }
                }
                '[' => out.push_str("\\["),
                '&' => out.push_str("\\&"),
                '~' => out.push_str("\\~"),
                '-' if out.ends_with('-') => out.push_str("\\-"),
                c => emit(&mut out, c),
            }
            i += 1;
            continue;
        }
        match c {
            '[' => {
                in_class = true;
                out.push('[');
                i += 1;
                if text.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                // A leading ']' is literal.
                if text.get(i) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
                class_start = i;
                continue;
            }
            '(' if text.get(i + 1) == Some(&'?') => {
                let next = text.get(i + 2).copied().unwrap_or('\0');
                let next2 = text.get(i + 3).copied().unwrap_or('\0');
                if matches!(next, '=' | '!' | '>' | '|' | 'R' | '&' | '(' | '+') || next.is_ascii_digit() || (next == '<' && matches!(next2, '=' | '!')) || (next == 'P' && matches!(next2, '>' | '=')) {
                    return Err(format!("unsupported group syntax at offset {}", i + 2));
                }
                out.push('(');
            }
            c => emit(&mut out, c),
        }
        i += 1;
    }
    if in_class {
        return Err(format!("missing terminating ] for character class at offset {}", text.len()));
    }
    Ok(out)
}

/// `pcre_get_compiled_regex_cache`: parses delimiters and modifiers,
/// warning as PHP does; None after a warning.
fn compile(vm: &mut Vm, name: &str, pat: &[u8]) -> Option<Rc<Pattern>> {
    if let Some(p) = CACHE.with(|c| c.borrow().get(pat).cloned()) {
        return Some(p);
    }
    let mut p = 0;
    while p < pat.len() && pat[p].is_ascii_whitespace() {
        p += 1;
    }
    if p >= pat.len() {
        vm.warning(&format!("{}(): Empty regular expression", name));
        return None;
    }
    let delim = pat[p];
    if delim.is_ascii_alphanumeric() || delim == b'\\' || delim == 0 {
        vm.warning(&format!("{}(): Delimiter must not be alphanumeric, backslash, or NUL", name));
        return None;
    }
    p += 1;
    let start = p;
    let end_delim = match delim {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        b'<' => b'>',
        d => d,
    };
    let mut end = None;
    if end_delim == delim {
        while p < pat.len() {
            if pat[p] == b'\\' && p + 1 < pat.len() {
                p += 2;
                continue;
            }
            if pat[p] == delim {
                end = Some(p);
                break;
            }
            p += 1;
        }
    } else {
        let mut depth = 1;
        while p < pat.len() {
            if pat[p] == b'\\' && p + 1 < pat.len() {
                p += 2;
                continue;
            }
            if pat[p] == end_delim {
                depth -= 1;
                if depth == 0 {
                    end = Some(p);
                    break;
                }
            } else if pat[p] == delim {
                depth += 1;
            }
            p += 1;
        }
    }
    let Some(end) = end else {
        if end_delim == delim {
            vm.warning(&format!("{}(): No ending delimiter '{}' found", name, delim as char));
        } else {
            vm.warning(&format!("{}(): No ending matching delimiter '{}' found", name, end_delim as char));
        }
        return None;
    };
    let body = &pat[start..end];
    let (mut ci, mut ml, mut dot, mut ext, mut utf8, mut ungreedy, mut anchored, mut dollar_end) = (false, false, false, false, false, false, false, false);
    for &m in &pat[end + 1..] {
        match m {
            b'i' => ci = true,
            b'm' => ml = true,
            b's' => dot = true,
            b'x' => ext = true,
            b'u' => utf8 = true,
            b'U' => ungreedy = true,
            b'A' => anchored = true,
            b'D' => dollar_end = true,
            b'S' | b'X' | b'J' | b'n' | b' ' | b'\n' | b'\r' => {}
            b'e' => {
                vm.warning(&format!("{}(): Unknown modifier 'e'", name));
                return None;
            }
            c => {
                if c == 0 {
                    vm.warning(&format!("{}(): NUL is not a valid modifier", name));
                } else {
                    vm.warning(&format!("{}(): Unknown modifier '{}'", name, c as char));
                }
                return None;
            }
        }
    }
    let _ = dollar_end;
    let translated = match translate(body, utf8, ext) {
        Ok(t) => t,
        Err(e) => {
            vm.warning(&format!("{}(): Compilation failed: {}", name, e));
            return None;
        }
    };
    let full = if anchored { format!("\\A(?:{})", translated) } else { translated };
    let re = match RegexBuilder::new(&full)
        .unicode(utf8)
        .case_insensitive(ci)
        .multi_line(ml)
        .dot_matches_new_line(dot)
        .ignore_whitespace(ext)
        .swap_greed(ungreedy)
        .size_limit(1 << 24)
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            let msg = e.to_string();
            let last = msg.lines().rev().find(|l| l.starts_with("error:")).unwrap_or("error: invalid pattern");
            vm.warning(&format!("{}(): Compilation failed: {} at offset {}", name, last.trim_start_matches("error: "), 0));
            return None;
        }
    };
    let names = re.capture_names().map(|n| n.map(str::to_string)).collect();
    let pattern = Rc::new(Pattern { re, utf8, names });
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 4096 {
            c.clear();
        }
        c.insert(pat.to_vec(), pattern.clone());
    });
    Some(pattern)
}

/// The next match at or after `pos`; with `notempty_at`, a match must be
/// non-empty and start exactly at `pos` (PCRE2_NOTEMPTY_ATSTART|ANCHORED).
fn next_match<'s>(p: &Pattern, s: &'s [u8], pos: usize, notempty_at: bool) -> Option<Captures<'s>> {
    if pos > s.len() {
        return None;
    }
    let c = p.re.captures_at(s, pos)?;
    let m = c.get(0)?;
    if notempty_at && (m.start() != pos || m.start() == m.end()) {
        return None;
    }
    Some(c)
}

/// One character on (a UTF-8 sequence in /u mode).
fn char_len(p: &Pattern, s: &[u8], pos: usize) -> usize {
    if p.utf8 {
        let mut n = 1;
        while pos + n < s.len() && s[pos + n] & 0xc0 == 0x80 {
            n += 1;
        }
        n
    } else {
        1
    }
}

/// The match list of PHP's matches arrays (value or [value, offset]).
fn group_value(s: &[u8], m: Option<regex::bytes::Match<'_>>, flags: i64) -> Zval {
    let v = match m {
        Some(m) => ret_str(&s[m.start()..m.end()]),
        None if flags & UNMATCHED_AS_NULL != 0 => Zval::NULL,
        None => ret_str(b""),
    };
    if flags & OFFSET_CAPTURE != 0 {
        let pair = ZArray::new();
        // SAFETY: `pair` is new and unshared.
        unsafe {
            (*pair).append(v);
            (*pair).append(Zval::long(m.map(|m| m.start() as i64).unwrap_or(-1)));
        }
        return Zval::array(pair);
    }
    v
}

/// Adds `v` under group `i` (its name first, then its number).
fn add_group(out: &mut ZArray, p: &Pattern, i: usize, v: Zval) {
    if let Some(Some(n)) = p.names.get(i) {
        super::array::insert_bytes_key(out, n.as_bytes(), v.copy_value());
    }
    out.update_int(i as i64, v);
}

/// The matches array of one match (trailing unmatched groups dropped
/// unless PREG_UNMATCHED_AS_NULL).
fn match_array(p: &Pattern, s: &[u8], c: &Captures<'_>, flags: i64) -> *mut ZArray {
    let arr = ZArray::new();
    let n = c.len();
    let count = if flags & UNMATCHED_AS_NULL != 0 { n } else { (0..n).rev().find(|&i| c.get(i).is_some()).map(|i| i + 1).unwrap_or(1) };
    // SAFETY: `arr` is new and unshared.
    let out = unsafe { &mut *arr };
    for i in 0..count {
        add_group(out, p, i, group_value(s, c.get(i), flags));
    }
    arr
}

fn check_utf8(p: &Pattern, s: &[u8]) -> bool {
    if p.utf8 && std::str::from_utf8(s).is_err() {
        set_error(BAD_UTF8_ERROR);
        return false;
    }
    true
}

fn preg_match_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, all: bool) -> R {
    args::count(vm, name, a, 2, 5)?;
    let pat = args::string(vm, name, 1, "pattern", &a[0])?;
    let subj = args::string(vm, name, 2, "subject", &a[1])?;
    let flags = match a.get(3) {
        Some(v) => args::long(vm, name, 4, "flags", v)?,
        None => 0,
    };
    let offset = match a.get(4) {
        Some(v) => args::long(vm, name, 5, "offset", v)?,
        None => 0,
    };
    set_error(0);
    let Some(p) = compile(vm, name, &pat) else {
        *r = Zval::FALSE;
        return Ok(());
    };
    if all && flags & (PATTERN_ORDER | SET_ORDER) == (PATTERN_ORDER | SET_ORDER) {
        return Err(vm.throw_error("ValueError", &format!("{}(): Argument #4 ($flags) must be a PREG_* constant", name)));
    }
    if !check_utf8(&p, &subj) {
        *r = Zval::FALSE;
        return Ok(());
    }
    let len = subj.len() as i64;
    let mut pos = if offset < 0 { (len + offset).max(0) } else { offset };
    if pos > len {
        set_error(1);
        if let Some(m) = a.get(2) {
            set_ref(m, Zval::array(ZArray::new()));
        }
        *r = Zval::FALSE;
        return Ok(());
    }
    if !all {
        let c = next_match(&p, &subj, pos as usize, false);
        if let Some(m) = a.get(2) {
            let arr = match &c {
                Some(c) => match_array(&p, &subj, c, flags),
                None => ZArray::new(),
            };
            set_ref(m, Zval::array(arr));
        }
        *r = Zval::long(c.is_some() as i64);
        return Ok(());
    }
    let set_order = flags & SET_ORDER != 0;
    let ngroups = p.re.captures_len();
    let mut sets: Vec<*mut ZArray> = Vec::new();
    let mut columns: Vec<*mut ZArray> = (0..if set_order { 0 } else { ngroups }).map(|_| ZArray::new()).collect();
    let mut n = 0i64;
    let mut notempty = false;
    loop {
        let c = next_match(&p, &subj, pos as usize, notempty);
        let Some(c) = c else {
            if notempty && (pos as usize) < subj.len() {
                pos += char_len(&p, &subj, pos as usize) as i64;
                notempty = false;
                continue;
            }
            break;
        };
        n += 1;
        let m0 = c.get(0).map(|m| (m.start(), m.end())).unwrap_or((0, 0));
        if set_order {
            sets.push(match_array(&p, &subj, &c, flags));
        } else {
            for (i, col) in columns.iter().enumerate() {
                let v = group_value(&subj, c.get(i), flags);
                // SAFETY: the columns are new arrays we own.
                unsafe { (**col).append(v) };
            }
        }
        pos = m0.1 as i64;
        notempty = m0.0 == m0.1;
    }
    if let Some(m) = a.get(2) {
        let out = ZArray::new();
        // SAFETY: `out` is new; the parts are owned arrays.
        unsafe {
            if set_order {
                for s in sets {
                    (*out).append(Zval::array(s));
                }
            } else {
                for (i, col) in columns.drain(..).enumerate() {
                    add_group(&mut *out, &p, i, Zval::array(col));
                }
            }
        }
        set_ref(m, Zval::array(out));
    } else {
        for s in sets.into_iter().chain(columns) {
            // SAFETY: owned arrays nobody else saw.
            unsafe { Zval::array(s).ptr_dtor() };
        }
    }
    *r = Zval::long(n);
    Ok(())
}

pub fn preg_match(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    preg_match_impl(vm, "preg_match", a, r, false)
}

pub fn preg_match_all(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    preg_match_impl(vm, "preg_match_all", a, r, true)
}

/// Expands `$1`, `\1`, `${1}` in a replacement.
fn expand(rep: &[u8], s: &[u8], c: &Captures<'_>, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < rep.len() {
        let ch = rep[i];
        if (ch == b'\\' || ch == b'$') && i + 1 < rep.len() {
            let mut j = i + 1;
            let braced = ch == b'$' && rep[j] == b'{';
            if braced {
                j += 1;
            }
            let ds = j;
            while j < rep.len() && j - ds < 2 && rep[j].is_ascii_digit() {
                j += 1;
            }
            if j > ds && (!braced || rep.get(j) == Some(&b'}')) {
                let n: usize = std::str::from_utf8(&rep[ds..j]).ok().and_then(|t| t.parse().ok()).unwrap_or(0);
                if let Some(m) = c.get(n) {
                    out.extend_from_slice(&s[m.start()..m.end()]);
                }
                i = if braced { j + 1 } else { j };
                continue;
            }
            if ch == b'\\' && rep[i + 1] == b'\\' {
                out.push(b'\\');
                i += 2;
                continue;
            }
        }
        out.push(ch);
        i += 1;
    }
}

enum Replacement<'a> {
    Text(&'a [u8]),
    Call(Callable, i64),
}

/// One pattern over one subject; None after a matching error.
fn replace_one(vm: &mut Vm, p: &Pattern, s: &[u8], rep: &Replacement<'_>, limit: i64, count: &mut i64) -> Result<Option<Vec<u8>>, Thrown> {
    if !check_utf8(p, s) {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(s.len());
    let mut pos = 0usize;
    let mut copied = 0usize;
    let mut left = limit;
    let mut notempty = false;
    while left != 0 {
        let Some(c) = next_match(p, s, pos, notempty) else {
            if notempty && pos < s.len() {
                pos += char_len(p, s, pos);
                notempty = false;
                continue;
            }
            break;
        };
        let Some(m) = c.get(0) else { break };
        out.extend_from_slice(&s[copied..m.start()]);
        match rep {
            Replacement::Text(t) => expand(t, s, &c, &mut out),
            Replacement::Call(cb, flags) => {
                let arr = Zval::array(match_array(p, s, &c, *flags));
                let res = cb.call(vm, &[arr]);
                // SAFETY: `arr` is owned.
                unsafe { arr.ptr_dtor() };
                let res = res?;
                crate::exec::slow::arith::to_string_into(vm, &res, &mut out);
                // SAFETY: `res` is owned.
                unsafe { res.ptr_dtor() };
            }
        }
        *count += 1;
        if left > 0 {
            left -= 1;
        }
        copied = m.end();
        pos = m.end();
        notempty = m.start() == m.end();
    }
    out.extend_from_slice(&s[copied.min(s.len())..]);
    Ok(Some(out))
}

fn replace_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, is_cb: bool) -> R {
    args::count(vm, name, a, 3, if is_cb { 6 } else { 5 })?;
    let limit = match a.get(3) {
        Some(v) => args::long(vm, name, 4, "limit", v)?,
        None => -1,
    };
    let cb_flags = if is_cb {
        match a.get(5) {
            Some(v) => args::long(vm, name, 6, "flags", v)?,
            None => 0,
        }
    } else {
        0
    };
    set_error(0);
    // (pattern, replacement) pairs.
    let pats = a[0].deref();
    let reps = a[1].deref();
    let cb = if is_cb { Some(callback::arg(vm, name, 2, "callback", &a[1], false)?) } else { None };
    let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    if pats.kind() == IS_ARRAY {
        let rep_list: Option<Vec<Vec<u8>>> = if !is_cb && reps.kind() == IS_ARRAY {
            // SAFETY: the argument keeps the array alive.
            Some(unsafe { (*reps.arr()).iter().map(|(_, v)| { let mut b = Vec::new(); crate::value::convert::append_string(v.deref(), &mut b); b }).collect() })
        } else {
            None
        };
        let rep_str = if !is_cb && reps.kind() != IS_ARRAY { args::string(vm, name, 2, "replacement", reps)? } else { Vec::new() };
        // SAFETY: the argument keeps the array alive.
        let list: Vec<Zval> = unsafe { (*pats.arr()).iter().map(|(_, v)| *v).collect() };
        for (i, pv) in list.iter().enumerate() {
            let mut pb = Vec::new();
            crate::exec::slow::arith::to_string_into(vm, pv, &mut pb);
            let rb = match &rep_list {
                Some(l) => l.get(i).cloned().unwrap_or_default(),
                None => rep_str.clone(),
            };
            pairs.push((pb, rb));
        }
    } else {
        let pb = args::string(vm, name, 1, "pattern", pats)?;
        if !is_cb && reps.kind() == IS_ARRAY {
            return Err(vm.throw_error("TypeError", &format!("{}(): Argument #1 ($pattern) must be of type array when argument #2 ($replacement) is an array, string given", name)));
        }
        let rb = if is_cb { Vec::new() } else { args::string(vm, name, 2, "replacement", reps)? };
        pairs.push((pb, rb));
    }
    let mut count = 0i64;
    let do_subject = |vm: &mut Vm, s: &Zval, count: &mut i64| -> Result<Zval, Thrown> {
        let mut cur = Vec::new();
        crate::exec::slow::arith::to_string_into(vm, s, &mut cur);
        for (pb, rb) in &pairs {
            let Some(p) = compile(vm, name, pb) else { return Ok(Zval::NULL) };
            let rep = match cb {
                Some(c) => Replacement::Call(c, cb_flags),
                None => Replacement::Text(rb),
            };
            match replace_one(vm, &p, &cur, &rep, limit, count)? {
                Some(n) => cur = n,
                None => return Ok(Zval::NULL),
            }
        }
        Ok(ret_str(&cur))
    };
    let subj = a[2].deref();
    if subj.kind() == IS_ARRAY {
        let out = ZArray::new();
        // SAFETY: the argument keeps the array alive; `out` is new.
        let list: Vec<(crate::value::KeyRef<'_>, Zval)> = unsafe { (*subj.arr()).iter().map(|(k, v)| (k, *v)).collect() };
        let hold = subj.copy_value();
        for (k, v) in list {
            match do_subject(vm, &v, &mut count) {
                Ok(z) if z.kind() == IS_NULL => {}
                // SAFETY: `out` is new and unshared.
                Ok(z) => unsafe { super::array::insert_keyref(&mut *out, k, z) },
                Err(t) => {
                    // SAFETY: both are ours.
                    unsafe {
                        Zval::array(out).ptr_dtor();
                        hold.ptr_dtor();
                    }
                    return Err(t);
                }
            }
        }
        // SAFETY: `hold` is ours.
        unsafe { hold.ptr_dtor() };
        *r = Zval::array(out);
    } else {
        *r = do_subject(vm, subj, &mut count)?;
    }
    let count_arg = a.get(4);
    if let Some(c) = count_arg {
        set_ref(c, Zval::long(count));
    }
    Ok(())
}

pub fn preg_replace(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    replace_impl(vm, "preg_replace", a, r, false)
}

pub fn preg_replace_callback(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    replace_impl(vm, "preg_replace_callback", a, r, true)
}

pub fn preg_split(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_split", a, 2, 4)?;
    let pat = args::string(vm, "preg_split", 1, "pattern", &a[0])?;
    let s = args::string(vm, "preg_split", 2, "subject", &a[1])?;
    let mut limit = match a.get(2) {
        Some(v) if v.deref().kind() != IS_NULL => args::long(vm, "preg_split", 3, "limit", v)?,
        _ => -1,
    };
    let flags = match a.get(3) {
        Some(v) => args::long(vm, "preg_split", 4, "flags", v)?,
        None => 0,
    };
    set_error(0);
    let Some(p) = compile(vm, "preg_split", &pat) else {
        *r = Zval::FALSE;
        return Ok(());
    };
    if !check_utf8(&p, &s) {
        *r = Zval::FALSE;
        return Ok(());
    }
    if limit == 0 {
        limit = -1;
    }
    let no_empty = flags & SPLIT_NO_EMPTY != 0;
    let delim = flags & SPLIT_DELIM_CAPTURE != 0;
    let offs = flags & SPLIT_OFFSET_CAPTURE != 0;
    let arr = ZArray::new();
    // SAFETY: `arr` is new and unshared.
    let out = unsafe { &mut *arr };
    let add = |out: &mut ZArray, from: usize, to: usize| {
        let v = ret_str(&s[from..to]);
        if offs {
            let pair = ZArray::new();
            // SAFETY: `pair` is new and unshared.
            unsafe {
                (*pair).append(v);
                (*pair).append(Zval::long(from as i64));
            }
            out.append(Zval::array(pair));
        } else {
            out.append(v);
        }
    };
    let mut last = 0usize;
    let mut pos = 0usize;
    let mut notempty = false;
    while limit == -1 || limit > 1 {
        let Some(c) = next_match(&p, &s, pos, notempty) else {
            if notempty && pos < s.len() {
                pos += char_len(&p, &s, pos);
                notempty = false;
                continue;
            }
            break;
        };
        let Some(m) = c.get(0) else { break };
        if !no_empty || m.start() != last {
            add(out, last, m.start());
            if limit != -1 {
                limit -= 1;
            }
        }
        if delim {
            for i in 1..c.len() {
                if let Some(g) = c.get(i) {
                    if !no_empty || g.start() != g.end() {
                        add(out, g.start(), g.end());
                    }
                } else if !no_empty && (i..c.len()).any(|k| c.get(k).is_some()) {
                    add(out, 0, 0);
                }
            }
        }
        last = m.end();
        pos = m.end();
        notempty = m.start() == m.end();
    }
    if !no_empty || last < s.len() {
        add(out, last, s.len());
    }
    *r = Zval::array(arr);
    Ok(())
}

pub fn preg_quote(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_quote", a, 1, 2)?;
    let s = args::string(vm, "preg_quote", 1, "str", &a[0])?;
    let d = match a.get(1) {
        Some(v) if v.deref().kind() != IS_NULL => args::string(vm, "preg_quote", 2, "delimiter", v)?.first().copied(),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len());
    for c in s {
        if c == 0 {
            out.extend_from_slice(b"\\000");
            continue;
        }
        if b".\\+*?[^]$(){}=!<>|:-#/".contains(&c) && (c != b'/' || d == Some(b'/')) || Some(c) == d {
            out.push(b'\\');
        }
        out.push(c);
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn preg_grep(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_grep", a, 2, 3)?;
    let pat = args::string(vm, "preg_grep", 1, "pattern", &a[0])?;
    let arr = args::array(vm, "preg_grep", 2, "array", &a[1])?;
    let flags = match a.get(2) {
        Some(v) => args::long(vm, "preg_grep", 3, "flags", v)?,
        None => 0,
    };
    set_error(0);
    let Some(p) = compile(vm, "preg_grep", &pat) else {
        *r = Zval::FALSE;
        return Ok(());
    };
    let out = ZArray::new();
    // SAFETY: the argument keeps the array alive; `out` is new.
    unsafe {
        for (k, v) in (*arr).iter() {
            let mut b = Vec::new();
            crate::value::convert::append_string(v.deref(), &mut b);
            let hit = check_utf8(&p, &b) && p.re.is_match(&b);
            if hit != (flags & GREP_INVERT != 0) {
                super::array::insert_keyref(&mut *out, k, v.copy_deref());
            }
        }
    }
    *r = Zval::array(out);
    Ok(())
}

pub fn preg_last_error(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_last_error", a, 0, 0)?;
    *r = Zval::long(LAST_ERROR.with(|e| e.get()));
    Ok(())
}

pub fn preg_last_error_msg(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_last_error_msg", a, 0, 0)?;
    let msg: &[u8] = match LAST_ERROR.with(|e| e.get()) {
        0 => b"No error",
        1 => b"Internal error",
        2 => b"Backtrack limit exhausted",
        3 => b"Recursion limit exhausted",
        4 => b"Malformed UTF-8 characters, possibly incorrectly encoded",
        5 => b"The offset did not correspond to the beginning of a valid UTF-8 code point",
        _ => b"JIT stack limit exhausted",
    };
    *r = Zval::string(ZString::new(msg));
    Ok(())
}
