//! ext/pcre's functions: preg_match, preg_match_all, preg_replace,
//! preg_filter, preg_replace_callback(_array), preg_split, preg_quote,
//! preg_grep, preg_last_error(_msg). They run on PCRE2 (see `pcre.rs`)
//! and follow php_pcre.c's loops: after an empty match the next attempt
//! is anchored at the same place and must not be empty
//! (`PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED`); when that fails the search
//! moves on by one character.

use std::borrow::Cow;

use super::callback::{self, Callable};
use super::pcre::{self, Matcher, Pattern, NOMATCH, NOTEMPTY_RETRY, NO_UTF_CHECK, UNSET};
use super::{args, ret_str, set_ref};
use crate::exec::{Thrown, Vm};
use crate::value::{KeyRef, ZArray, ZString, Zval, IS_ARRAY, IS_NULL, IS_OBJECT, IS_STRING};

type R = Result<(), Thrown>;

const PATTERN_ORDER: i64 = 1;
const SET_ORDER: i64 = 2;
const OFFSET_CAPTURE: i64 = 1 << 8;
const UNMATCHED_AS_NULL: i64 = 1 << 9;
const SPLIT_NO_EMPTY: i64 = 1;
const SPLIT_DELIM_CAPTURE: i64 = 2;
const SPLIT_OFFSET_CAPTURE: i64 = 4;
const GREP_INVERT: i64 = 1;

// ---- building the matches arrays ----

/// `s[start..end]`; empty where `\K` in a lookaround left `end < start`
/// (PCRE2 allows it; the whole match is checked before use).
fn span(s: &[u8], start: usize, end: usize) -> &[u8] {
    s.get(start..end).unwrap_or(&[])
}

/// A new `[value, offset]` pair.
fn new_pair(v: Zval, offset: i64) -> Zval {
    let pair = ZArray::with_capacity(2);
    // SAFETY: `pair` is new and unshared.
    unsafe {
        (*pair).append(v);
        (*pair).append(Zval::long(offset));
    }
    Zval::array(pair)
}

/// `populate_match_value`: the group's text, or "" / null when unset.
fn match_value(s: &[u8], start: usize, end: usize, unmatched_as_null: bool) -> Zval {
    if start == UNSET {
        if unmatched_as_null {
            Zval::NULL
        } else {
            ret_str(b"")
        }
    } else {
        ret_str(span(s, start, end))
    }
}

/// `add_named`: under J several groups share a name, and the one that
/// matched wins.
fn add_named(arr: &mut ZArray, name: *mut ZString, v: &Zval, unmatched: bool) {
    if !unmatched {
        arr.update_str(name, v.copy_value());
    } else {
        let (slot, inserted) = arr.lookup_str_ex(name);
        if inserted {
            // SAFETY: the slot was just inserted (NULL) and is ours to set.
            unsafe { *slot = v.copy_value() };
        }
    }
}

/// `add_offset_pair`: `[text, offset]` (or `[""/null, -1]` when unset),
/// under its name too when it has one.
fn add_offset_pair(arr: &mut ZArray, s: &[u8], start: usize, end: usize, name: *mut ZString, unmatched_as_null: bool) {
    let pair = if start == UNSET {
        new_pair(if unmatched_as_null { Zval::NULL } else { ret_str(b"") }, -1)
    } else {
        new_pair(ret_str(span(s, start, end)), start as i64)
    };
    if !name.is_null() {
        add_named(arr, name, &pair, start == UNSET);
    }
    arr.append(pair);
}

fn name_of(names: Option<&[*mut ZString]>, i: usize) -> *mut ZString {
    names.and_then(|n| n.get(i).copied()).unwrap_or(std::ptr::null_mut())
}

/// `populate_subpat_array`: one match's groups (the first `count`, then
/// the rest as null under PREG_UNMATCHED_AS_NULL), names first, and MARK.
fn populate_subpats(arr: &mut ZArray, s: &[u8], ov: &[usize], names: Option<&[*mut ZString]>, num_subpats: usize, count: usize, mark: Option<&[u8]>, flags: i64) {
    let offset_capture = flags & OFFSET_CAPTURE != 0;
    let unmatched_as_null = flags & UNMATCHED_AS_NULL != 0;
    for i in 0..count {
        let name = name_of(names, i);
        if offset_capture {
            add_offset_pair(arr, s, ov[2 * i], ov[2 * i + 1], name, unmatched_as_null);
        } else {
            let v = match_value(s, ov[2 * i], ov[2 * i + 1], unmatched_as_null);
            if !name.is_null() {
                add_named(arr, name, &v, ov[2 * i] == UNSET);
            }
            arr.append(v);
        }
    }
    if unmatched_as_null {
        for i in count..num_subpats {
            let name = name_of(names, i);
            if offset_capture {
                add_offset_pair(arr, s, UNSET, UNSET, name, true);
            } else {
                if !name.is_null() {
                    // zend_hash_add: NULL under the name unless it is set.
                    arr.lookup_str_ex(name);
                }
                arr.append(Zval::NULL);
            }
        }
    }
    if let Some(m) = mark {
        super::array::insert_bytes_key(arr, b"MARK", ret_str(m));
    }
}

// ---- arguments ----

/// A `string` argument, borrowed when it is one. A value held for the
/// call keeps it alive.
fn str_arg<'a>(vm: &mut Vm, name: &str, n: usize, param: &str, v: &'a Zval) -> Result<Cow<'a, [u8]>, Thrown> {
    args::str_ref(vm, name, n, param, v)
}

/// An `array|string` argument (`Z_PARAM_ARRAY_HT_OR_STR`).
enum ArrOrStr<'a> {
    Arr(*mut ZArray),
    Str(Cow<'a, [u8]>),
}

fn arr_or_str<'a>(vm: &mut Vm, name: &str, n: usize, param: &str, v: &'a Zval) -> Result<ArrOrStr<'a>, Thrown> {
    let d = v.deref();
    match d.kind() {
        IS_ARRAY => Ok(ArrOrStr::Arr(d.arr())),
        // SAFETY: string-kind values hold a live string, kept by the argument.
        IS_STRING => Ok(ArrOrStr::Str(Cow::Borrowed(unsafe { (*d.str()).bytes() }))),
        IS_NULL => {
            vm.deprecated(&format!("{}(): Passing null to parameter #{} (${}) of type array|string is deprecated", name, n, param));
            Ok(ArrOrStr::Str(Cow::Borrowed(b"")))
        }
        // SAFETY: object-kind values hold a live object.
        IS_OBJECT if unsafe { (*(*d.obj()).class).magic.tostring.is_none() } => Err(arr_or_str_error(vm, name, n, param, d)),
        k if k > IS_OBJECT => Err(arr_or_str_error(vm, name, n, param, d)),
        _ => Ok(ArrOrStr::Str(Cow::Owned(args::string(vm, name, n, param, d)?))),
    }
}

fn arr_or_str_error(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval) -> Thrown {
    let msg = format!("{}(): Argument #{} (${}) must be of type array|string, {} given", name, n, param, crate::exec::slow::call::zend_type_name(v));
    vm.throw_error("TypeError", &msg)
}

/// `zval_get_tmp_string`: a value as a string ("Array" with a warning; a
/// `__toString()` that throws leaves the exception pending → Err).
fn value_string(vm: &mut Vm, v: &Zval) -> Result<Vec<u8>, Thrown> {
    let mut b = Vec::new();
    crate::exec::slow::arith::to_string_into(vm, v, &mut b);
    if vm.exception.is_some() {
        return Err(Thrown);
    }
    Ok(b)
}

/// An array's entries (the caller holds the array alive).
fn entries<'a>(a: *mut ZArray) -> Vec<(KeyRef<'a>, Zval)> {
    // SAFETY: the caller keeps the array alive and unmodified (it holds a
    // reference, so writes elsewhere separate it).
    unsafe { (*a).iter().map(|(k, v)| (k, *v)).collect() }
}

fn insert_key(out: *mut ZArray, k: KeyRef<'_>, v: Zval) {
    // SAFETY: `out` is a new array owned by the caller.
    unsafe { super::array::insert_keyref(&mut *out, k, v) };
}

fn hold_array(a: *mut ZArray) -> Zval {
    Zval::array(a).copy_value()
}

fn release(v: Zval) {
    // SAFETY: the caller owns `v`.
    unsafe { v.ptr_dtor() };
}

// ---- preg_match, preg_match_all ----

pub fn preg_match(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    match_impl(vm, "preg_match", a, r, false)
}

pub fn preg_match_all(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    match_impl(vm, "preg_match_all", a, r, true)
}

fn match_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, global: bool) -> R {
    args::count(vm, name, a, 2, 5)?;
    let regex = str_arg(vm, name, 1, "pattern", &a[0])?;
    let hold = a[1].copy_deref();
    let subject = str_arg(vm, name, 2, "subject", &hold);
    let subject = match subject {
        Ok(s) => s,
        Err(t) => {
            release(hold);
            return Err(t);
        }
    };
    let res = (|| {
        let flags = match a.get(3) {
            Some(v) => args::long(vm, name, 4, "flags", v)?,
            None => 0,
        };
        let offset = match a.get(4) {
            Some(v) => args::long(vm, name, 5, "offset", v)?,
            None => 0,
        };
        let Some(pce) = vm.pcre_compile(name, &regex) else {
            *r = Zval::FALSE;
            return Ok(());
        };
        let zs = if hold.kind() == IS_STRING { Some(hold.str()) } else { None };
        match_run(vm, name, &pce, &subject, zs, a.get(2), r, global, a.len() >= 4, flags, offset)
    })();
    drop(subject);
    release(hold);
    res
}

/// `php_pcre_match_impl`.
#[allow(clippy::too_many_arguments)]
fn match_run(vm: &mut Vm, name: &str, pce: &Pattern, s: &[u8], zs: Option<*mut ZString>, subpats_arg: Option<&Zval>, r: &mut Zval, global: bool, use_flags: bool, flags: i64, start_offset: i64) -> R {
    let subpats = subpats_arg.map(|_| ZArray::new());
    // The matches array is the caller's variable from here on (PHP
    // empties it before checking the flags).
    let finish = |arr: Option<*mut ZArray>| {
        if let (Some(m), Some(arr)) = (subpats_arg, arr) {
            set_ref(m, Zval::array(arr));
        }
    };
    let mut order = if global { PATTERN_ORDER } else { 0 };
    let (offset_capture, unmatched_as_null) = if use_flags {
        if flags & 0xff != 0 {
            order = flags & 0xff;
        }
        if (global && !(PATTERN_ORDER..=SET_ORDER).contains(&order)) || (!global && order != 0) {
            finish(subpats);
            return Err(vm.throw_error("ValueError", &format!("{}(): Argument #4 ($flags) must be a PREG_* constant", name)));
        }
        (flags & OFFSET_CAPTURE != 0, flags & UNMATCHED_AS_NULL != 0)
    } else {
        (false, false)
    };
    let len = s.len();
    let mut start = if start_offset < 0 {
        if start_offset.unsigned_abs() <= len as u64 {
            len - start_offset.unsigned_abs() as usize
        } else {
            0
        }
    } else {
        start_offset as u64 as usize
    };
    if start > len {
        vm.pcre.error_code = pcre::INTERNAL_ERROR;
        finish(subpats);
        *r = Zval::FALSE;
        return Ok(());
    }
    let num_subpats = pce.capture_count as usize + 1;
    let names = if subpats.is_some() { pce.names.as_deref() } else { None };
    let match_sets: Vec<*mut ZArray> = if global && subpats.is_some() && order == PATTERN_ORDER { (0..num_subpats).map(|_| ZArray::new()).collect() } else { Vec::new() };
    let mut marks: Option<*mut ZArray> = None;
    let mut matched = 0i64;
    vm.pcre.error_code = pcre::NO_ERROR;
    let Some(mut md) = vm.pcre_match_data(pce) else {
        vm.pcre.error_code = pcre::INTERNAL_ERROR;
        for m in match_sets {
            release(Zval::array(m));
        }
        finish(subpats);
        *r = Zval::FALSE;
        return Ok(());
    };
    let m = vm.pcre_matcher();
    // SAFETY: the caller holds the subject string alive.
    let known_valid = zs.is_some_and(|z| unsafe { (*z).is_valid_utf8() });
    let orig_start = start;
    let mut count = m.exec_first_known(pce, s, start, known_valid, &mut md);
    let mut error = None;
    loop {
        if count >= 0 {
            matched += 1;
            let count_u = count as usize;
            let ov = md.ovector();
            if let Some(out) = subpats {
                if ov[1] < ov[0] {
                    vm.warning(&format!("{}(): Get subpatterns list failed", name));
                    vm.pcre_release(md);
                    for m in match_sets {
                        release(Zval::array(m));
                    }
                    if let Some(marks) = marks {
                        release(Zval::array(marks));
                    }
                    finish(subpats);
                    *r = Zval::FALSE;
                    return Ok(());
                }
                // SAFETY: `out` and the match sets are new arrays owned here.
                let out = unsafe { &mut *out };
                if global {
                    if order == PATTERN_ORDER {
                        for (i, set) in match_sets.iter().enumerate().take(count_u) {
                            // SAFETY: as above.
                            let set = unsafe { &mut **set };
                            if offset_capture {
                                add_offset_pair(set, s, ov[2 * i], ov[2 * i + 1], std::ptr::null_mut(), unmatched_as_null);
                            } else {
                                set.append(match_value(s, ov[2 * i], ov[2 * i + 1], unmatched_as_null));
                            }
                        }
                        if let Some(mark) = md.mark() {
                            let marks = *marks.get_or_insert_with(ZArray::new);
                            // SAFETY: `marks` is new and owned here.
                            unsafe { (*marks).update_int(matched - 1, ret_str(mark)) };
                        }
                        for set in match_sets.iter().skip(count_u) {
                            // SAFETY: as above.
                            let set = unsafe { &mut **set };
                            if offset_capture {
                                add_offset_pair(set, s, UNSET, UNSET, std::ptr::null_mut(), unmatched_as_null);
                            } else if unmatched_as_null {
                                set.append(Zval::NULL);
                            } else {
                                set.append(ret_str(b""));
                            }
                        }
                    } else {
                        let set = ZArray::new();
                        // SAFETY: `set` is new and owned here.
                        populate_subpats(unsafe { &mut *set }, s, ov, names, num_subpats, count_u, md.mark(), flags);
                        out.append(Zval::array(set));
                    }
                } else {
                    populate_subpats(out, s, ov, names, num_subpats, count_u, md.mark(), flags);
                    break;
                }
            }
            let (m0, m1) = (ov[0], ov[1]);
            start = m1;
            if start == m0 {
                count = m.exec(pce, s, start, NOTEMPTY_RETRY, &mut md);
                if count >= 0 {
                    if global {
                        continue;
                    }
                    break;
                } else if count == NOMATCH {
                    if start < len {
                        start += pce.unit_len(s, start);
                    } else {
                        break;
                    }
                } else {
                    error = Some(count);
                    break;
                }
            }
        } else if count == NOMATCH {
            break;
        } else {
            error = Some(count);
            break;
        }
        if !global {
            break;
        }
        count = m.exec(pce, s, start, NO_UTF_CHECK, &mut md);
    }
    vm.pcre_release(md);
    if let Some(e) = error {
        vm.pcre.error_code = pcre::exec_error_code(e);
    }
    if let Some(out) = subpats {
        if global && order == PATTERN_ORDER {
            // SAFETY: `out` and the sets are new arrays owned here.
            let out = unsafe { &mut *out };
            for (i, set) in match_sets.into_iter().enumerate() {
                let v = Zval::array(set);
                let n = name_of(names, i);
                if !n.is_null() {
                    out.update_str(n, v.copy_value());
                }
                out.append(v);
            }
            if let Some(marks) = marks {
                super::array::insert_bytes_key(out, b"MARK", Zval::array(marks));
            }
        }
    }
    finish(subpats);
    if vm.pcre.error_code == pcre::NO_ERROR {
        // Under /u a subject matched from its start without error is valid
        // UTF-8: later calls skip the check (Bug #72685: a long subject
        // matched at each offset in turn).
        if let (true, 0, Some(z)) = (pce.utf(), orig_start, zs) {
            // SAFETY: the caller holds the subject string alive; PCRE2 or
            // `exec_first` validated all of it.
            unsafe { ZString::set_valid_utf8(z) };
        }
        *r = Zval::long(matched);
    } else {
        *r = Zval::FALSE;
    }
    Ok(())
}

// ---- replacing ----

/// `preg_get_backref`: `\n`, `$n`, `${n}` (one or two digits) at `i`;
/// the group number and where the reference ends.
fn backref(rep: &[u8], i: usize) -> Option<(usize, usize)> {
    let at = |k: usize| rep.get(k).copied().unwrap_or(0);
    if at(i + 1) == 0 {
        return None;
    }
    let mut walk = i;
    let in_brace = rep[i] == b'$' && at(i + 1) == b'{';
    if in_brace {
        walk += 1;
    }
    walk += 1;
    let mut n;
    if at(walk).is_ascii_digit() {
        n = (at(walk) - b'0') as usize;
        walk += 1;
    } else {
        return None;
    }
    if at(walk).is_ascii_digit() {
        n = n * 10 + (at(walk) - b'0') as usize;
        walk += 1;
    }
    if in_brace {
        if at(walk) != b'}' {
            return None;
        }
        walk += 1;
    }
    Some((n, walk))
}

/// Appends the replacement with its references expanded, as
/// `php_pcre_replace_impl` walks it (`\\` and `\$` give the second
/// character).
fn expand(rep: &[u8], s: &[u8], ov: &[usize], count: usize, out: &mut Vec<u8>) {
    let mut i = 0;
    let mut last = 0u8;
    while i < rep.len() {
        let c = rep[i];
        if c == b'\\' || c == b'$' {
            if last == b'\\' {
                if let Some(l) = out.last_mut() {
                    *l = c;
                }
                i += 1;
                last = 0;
                continue;
            }
            if let Some((n, end)) = backref(rep, i) {
                if n < count && ov[2 * n] != UNSET {
                    out.extend_from_slice(span(s, ov[2 * n], ov[2 * n + 1]));
                }
                i = end;
                continue;
            }
        }
        out.push(c);
        i += 1;
        last = c;
    }
}

/// How matches are replaced.
enum Rep<'a> {
    Text(&'a [u8]),
    Call(Callable, i64),
}

/// A replacement's outcome.
enum Replaced {
    /// Nothing matched: the subject as it was.
    Same,
    New(Vec<u8>),
    /// A matching error (`preg_last_error()` says which): null.
    Failed,
}

/// `php_pcre_replace_impl` / `php_pcre_replace_func_impl`: one pattern
/// over one subject.
fn replace_run(vm: &mut Vm, pce: &Pattern, s: &[u8], rep: &Rep<'_>, mut limit: usize, replace_count: &mut usize) -> Result<Replaced, Thrown> {
    let num_subpats = pce.capture_count as usize + 1;
    vm.pcre.error_code = pcre::NO_ERROR;
    let Some(mut md) = vm.pcre_match_data(pce) else {
        vm.pcre.error_code = pcre::INTERNAL_ERROR;
        return Ok(Replaced::Failed);
    };
    let m: Matcher = vm.pcre_matcher();
    let len = s.len();
    let mut result: Option<Vec<u8>> = None;
    let mut start = 0usize;
    let mut last_end = 0usize;
    let mut count = m.exec_first(pce, s, start, &mut md);
    let outcome = loop {
        let piece = last_end;
        let mut not_matched = false;
        if count >= 0 && limit > 0 {
            let ov = md.ovector();
            if ov[1] < ov[0] {
                vm.pcre.error_code = pcre::INTERNAL_ERROR;
                break Replaced::Failed;
            }
            *replace_count += 1;
            let out = result.get_or_insert_with(|| Vec::with_capacity(len));
            out.extend_from_slice(span(s, piece, ov[0]));
            match rep {
                Rep::Text(t) => expand(t, s, ov, count as usize, out),
                Rep::Call(cb, flags) => {
                    let arr = ZArray::new();
                    // SAFETY: `arr` is new and owned here.
                    populate_subpats(unsafe { &mut *arr }, s, ov, pce.names.as_deref(), num_subpats, count as usize, md.mark(), *flags);
                    let arg = Zval::array(arr);
                    let res = cb.call(vm, &[arg]);
                    release(arg);
                    let res = match res {
                        Ok(v) => v,
                        Err(t) => {
                            vm.pcre_release(md);
                            return Err(t);
                        }
                    };
                    crate::exec::slow::arith::to_string_into(vm, &res, out);
                    release(res);
                    if vm.exception.is_some() {
                        vm.pcre_release(md);
                        return Err(Thrown);
                    }
                }
            }
            let (m0, m1) = (ov[0], ov[1]);
            limit -= 1;
            start = m1;
            last_end = m1;
            if start == m0 {
                count = m.exec(pce, s, start, NOTEMPTY_RETRY, &mut md);
                if count >= 0 && limit > 0 {
                    continue;
                } else if count == NOMATCH || limit == 0 {
                    if start < len {
                        start += pce.unit_len(s, start);
                    } else {
                        not_matched = true;
                    }
                } else {
                    vm.pcre.error_code = pcre::exec_error_code(count);
                    break Replaced::Failed;
                }
            }
        } else if count == NOMATCH || limit == 0 {
            not_matched = true;
        } else {
            vm.pcre.error_code = pcre::exec_error_code(count);
            break Replaced::Failed;
        }
        if not_matched {
            break match result.take() {
                None => Replaced::Same,
                Some(mut out) => {
                    out.extend_from_slice(&s[last_end..]);
                    Replaced::New(out)
                }
            };
        }
        count = m.exec(pce, s, start, NO_UTF_CHECK, &mut md);
    };
    vm.pcre_release(md);
    Ok(outcome)
}

/// Compiles `regex` and replaces in `subject` (`php_pcre_replace`): the
/// new subject, or None on failure (warning given or error code set).
fn replace_one(vm: &mut Vm, name: &str, regex: &[u8], subject: Vec<u8>, rep: &Rep<'_>, limit: usize, replace_count: &mut usize) -> Result<Option<Vec<u8>>, Thrown> {
    let Some(pce) = vm.pcre_compile(name, regex) else { return Ok(None) };
    Ok(match replace_run(vm, &pce, &subject, rep, limit, replace_count)? {
        Replaced::Same => Some(subject),
        Replaced::New(v) => Some(v),
        Replaced::Failed => None,
    })
}

/// The patterns side of a replacement: one pattern, or an array of them
/// with the replacement each takes.
enum Patterns<'a> {
    One(&'a [u8]),
    Many(*mut ZArray),
}

enum Replacements<'a> {
    Str(&'a [u8]),
    Arr(*mut ZArray),
    Call(Callable, i64),
}

/// `php_replace_in_subject(_func)`: every pattern in turn over one subject.
fn replace_in_subject(vm: &mut Vm, name: &str, pats: &Patterns<'_>, reps: &Replacements<'_>, subject: Vec<u8>, limit: usize, replace_count: &mut usize) -> Result<Option<Vec<u8>>, Thrown> {
    fn single_rep<'r>(reps: &Replacements<'r>) -> Option<Rep<'r>> {
        match reps {
            Replacements::Str(s) => Some(Rep::Text(s)),
            Replacements::Call(c, f) => Some(Rep::Call(*c, *f)),
            Replacements::Arr(_) => None,
        }
    }
    match pats {
        Patterns::One(p) => {
            let rep = single_rep(reps).unwrap_or(Rep::Text(b""));
            replace_one(vm, name, p, subject, &rep, limit, replace_count)
        }
        Patterns::Many(arr) => {
            let regexes = entries(*arr);
            let rep_list: Option<Vec<Zval>> = match reps {
                Replacements::Arr(ra) => Some(entries(*ra).into_iter().map(|(_, v)| v).collect()),
                _ => None,
            };
            let mut subject = subject;
            for (idx, (_, rv)) in regexes.iter().enumerate() {
                let regex = value_string(vm, rv)?;
                let res = match &rep_list {
                    Some(list) => {
                        let rep = match list.get(idx) {
                            Some(v) => value_string(vm, v)?,
                            None => Vec::new(),
                        };
                        replace_one(vm, name, &regex, subject, &Rep::Text(&rep), limit, replace_count)?
                    }
                    None => {
                        let rep = single_rep(reps).unwrap_or(Rep::Text(b""));
                        replace_one(vm, name, &regex, subject, &rep, limit, replace_count)?
                    }
                };
                match res {
                    Some(v) => subject = v,
                    None => return Ok(None),
                }
            }
            Ok(Some(subject))
        }
    }
}

/// `preg_replace_common` / `preg_replace_func_impl` over a string or an
/// array of subjects; `filter` keeps only subjects that changed.
fn replace_subjects(vm: &mut Vm, name: &str, pats: &Patterns<'_>, reps: &Replacements<'_>, subject: &ArrOrStr<'_>, limit: usize, filter: bool, replace_count: &mut usize) -> Result<Zval, Thrown> {
    match subject {
        ArrOrStr::Str(s) => {
            let before = *replace_count;
            Ok(match replace_in_subject(vm, name, pats, reps, s.to_vec(), limit, replace_count)? {
                Some(v) if !filter || *replace_count > before => ret_str(&v),
                _ => Zval::NULL,
            })
        }
        ArrOrStr::Arr(arr) => {
            let hold = hold_array(*arr);
            let out = ZArray::new();
            let res = (|| {
                for (k, v) in entries(*arr) {
                    let before = *replace_count;
                    let text = value_string(vm, &v)?;
                    if let Some(new) = replace_in_subject(vm, name, pats, reps, text, limit, replace_count)? {
                        if !filter || *replace_count > before {
                            insert_key(out, k, ret_str(&new));
                        }
                    }
                }
                Ok(())
            })();
            release(hold);
            match res {
                Ok(()) => Ok(Zval::array(out)),
                Err(t) => {
                    release(Zval::array(out));
                    Err(t)
                }
            }
        }
    }
}

/// `limit` as php_pcre.c takes it: a size_t, so -1 is no limit.
fn limit_of(l: i64) -> usize {
    l as u64 as usize
}

fn replace_common(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, filter: bool) -> R {
    args::count(vm, name, a, 3, 5)?;
    let pats = arr_or_str(vm, name, 1, "pattern", &a[0])?;
    let reps = arr_or_str(vm, name, 2, "replacement", &a[1])?;
    let subject = arr_or_str(vm, name, 3, "subject", &a[2])?;
    let limit = match a.get(3) {
        Some(v) => args::long(vm, name, 4, "limit", v)?,
        None => -1,
    };
    if matches!(reps, ArrOrStr::Arr(_)) && !matches!(pats, ArrOrStr::Arr(_)) {
        return Err(vm.throw_error("TypeError", &format!("{}(): Argument #1 ($pattern) must be of type array when argument #2 ($replacement) is an array, string given", name)));
    }
    let p = match &pats {
        ArrOrStr::Arr(x) => Patterns::Many(*x),
        ArrOrStr::Str(s) => Patterns::One(s),
    };
    let rp = match &reps {
        ArrOrStr::Arr(x) => Replacements::Arr(*x),
        ArrOrStr::Str(s) => Replacements::Str(s),
    };
    let mut n = 0usize;
    *r = replace_subjects(vm, name, &p, &rp, &subject, limit_of(limit), filter, &mut n)?;
    if let Some(c) = a.get(4) {
        set_ref(c, Zval::long(n as i64));
    }
    Ok(())
}

pub fn preg_replace(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    replace_common(vm, "preg_replace", a, r, false)
}

pub fn preg_filter(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    replace_common(vm, "preg_filter", a, r, true)
}

pub fn preg_replace_callback(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let name = "preg_replace_callback";
    args::count(vm, name, a, 3, 6)?;
    let pats = arr_or_str(vm, name, 1, "pattern", &a[0])?;
    let cb = callback::arg(vm, name, 2, "callback", &a[1], false)?;
    let subject = arr_or_str(vm, name, 3, "subject", &a[2])?;
    let limit = match a.get(3) {
        Some(v) => args::long(vm, name, 4, "limit", v)?,
        None => -1,
    };
    let flags = match a.get(5) {
        Some(v) => args::long(vm, name, 6, "flags", v)?,
        None => 0,
    };
    let p = match &pats {
        ArrOrStr::Arr(x) => Patterns::Many(*x),
        ArrOrStr::Str(s) => Patterns::One(s),
    };
    let mut n = 0usize;
    *r = replace_subjects(vm, name, &p, &Replacements::Call(cb, flags), &subject, limit_of(limit), false, &mut n)?;
    if let Some(c) = a.get(4) {
        set_ref(c, Zval::long(n as i64));
    }
    Ok(())
}

pub fn preg_replace_callback_array(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let name = "preg_replace_callback_array";
    args::count(vm, name, a, 2, 5)?;
    let map = args::array(vm, name, 1, "pattern", &a[0])?;
    let subject = arr_or_str(vm, name, 2, "subject", &a[1])?;
    let limit = match a.get(2) {
        Some(v) => args::long(vm, name, 3, "limit", v)?,
        None => -1,
    };
    let flags = match a.get(4) {
        Some(v) => args::long(vm, name, 5, "flags", v)?,
        None => 0,
    };
    let hold_map = hold_array(map);
    // The subject as it stands after each pattern: a string or an array.
    let mut cur: Zval = match &subject {
        ArrOrStr::Arr(x) => hold_array(*x),
        ArrOrStr::Str(s) => ret_str(s),
    };
    let mut n = 0usize;
    let res = (|| {
        for (k, cbv) in entries(map) {
            let cb = match callback::resolve(vm, &cbv) {
                Ok(c) => c,
                Err(_) => return Err(vm.throw_error("TypeError", &format!("{}(): Argument #1 ($pattern) must contain only valid callbacks", name))),
            };
            let KeyRef::Str(regex) = k else {
                return Err(vm.throw_error("TypeError", &format!("{}(): Argument #1 ($pattern) must contain only string patterns as keys", name)));
            };
            let subj = if cur.kind() == IS_ARRAY {
                ArrOrStr::Arr(cur.arr())
            } else {
                // SAFETY: `cur` is a string value owned here.
                ArrOrStr::Str(Cow::Owned(unsafe { (*cur.str()).bytes() }.to_vec()))
            };
            let next = replace_subjects(vm, name, &Patterns::One(regex.bytes()), &Replacements::Call(cb, flags), &subj, limit_of(limit), false, &mut n)?;
            if next.kind() == IS_NULL {
                return Ok(false);
            }
            release(std::mem::replace(&mut cur, next));
        }
        Ok(true)
    })();
    release(hold_map);
    match res {
        Ok(true) => {
            if let Some(c) = a.get(3) {
                set_ref(c, Zval::long(n as i64));
            }
            *r = cur;
            Ok(())
        }
        Ok(false) => {
            release(cur);
            *r = Zval::NULL;
            Ok(())
        }
        Err(t) => {
            release(cur);
            Err(t)
        }
    }
}

// ---- preg_split ----

pub fn preg_split(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let name = "preg_split";
    args::count(vm, name, a, 2, 4)?;
    let regex = str_arg(vm, name, 1, "pattern", &a[0])?;
    let hold = a[1].copy_deref();
    let res = (|| {
        let s = str_arg(vm, name, 2, "subject", &hold)?;
        let limit = match a.get(2) {
            Some(v) => args::long(vm, name, 3, "limit", v)?,
            None => -1,
        };
        let flags = match a.get(3) {
            Some(v) => args::long(vm, name, 4, "flags", v)?,
            None => 0,
        };
        let Some(pce) = vm.pcre_compile(name, &regex) else {
            *r = Zval::FALSE;
            return Ok(());
        };
        *r = split_run(vm, &pce, &s, limit, flags);
        Ok(())
    })();
    release(hold);
    res
}

/// `php_pcre_split_impl`.
fn split_run(vm: &mut Vm, pce: &Pattern, s: &[u8], mut limit: i64, flags: i64) -> Zval {
    let no_empty = flags & SPLIT_NO_EMPTY != 0;
    let delim_capture = flags & SPLIT_DELIM_CAPTURE != 0;
    let offset_capture = flags & SPLIT_OFFSET_CAPTURE != 0;
    let arr = ZArray::new();
    // SAFETY: `arr` is new and owned here.
    let out = unsafe { &mut *arr };
    let add = |out: &mut ZArray, from: usize, to: usize| {
        if offset_capture {
            add_offset_pair(out, s, from, to, std::ptr::null_mut(), false);
        } else {
            out.append(ret_str(span(s, from, to)));
        }
    };
    let len = s.len();
    let mut start;
    let mut last_match = 0usize;
    vm.pcre.error_code = pcre::NO_ERROR;
    let mut go = true;
    if limit == -1 {
    } else if limit == 0 {
        limit = -1;
    } else if limit <= 1 {
        go = false;
    }
    if go {
        let Some(mut md) = vm.pcre_match_data(pce) else {
            vm.pcre.error_code = pcre::INTERNAL_ERROR;
            release(Zval::array(arr));
            return Zval::FALSE;
        };
        let m = vm.pcre_matcher();
        start = 0;
        let mut count = m.exec_first(pce, s, start, &mut md);
        loop {
            if count >= 0 {
                let ov = md.ovector();
                if ov[1] < ov[0] {
                    vm.pcre.error_code = pcre::INTERNAL_ERROR;
                    break;
                }
                if !no_empty || ov[0] != last_match {
                    add(out, last_match, ov[0]);
                    if limit != -1 {
                        limit -= 1;
                    }
                }
                if delim_capture {
                    for i in 1..count as usize {
                        if !no_empty || ov[2 * i] != ov[2 * i + 1] {
                            if offset_capture {
                                add_offset_pair(out, s, ov[2 * i], ov[2 * i + 1], std::ptr::null_mut(), false);
                            } else {
                                out.append(match_value(s, ov[2 * i], ov[2 * i + 1], false));
                            }
                        }
                    }
                }
                let m0 = ov[0];
                start = ov[1];
                last_match = ov[1];
                if start == m0 {
                    if limit != -1 && limit <= 1 {
                        break;
                    }
                    count = m.exec(pce, s, start, NOTEMPTY_RETRY, &mut md);
                    if count >= 0 {
                        continue;
                    } else if count == NOMATCH {
                        if start < len {
                            start += pce.unit_len(s, start);
                        } else {
                            break;
                        }
                    } else {
                        vm.pcre.error_code = pcre::exec_error_code(count);
                        break;
                    }
                }
            } else if count == NOMATCH {
                break;
            } else {
                vm.pcre.error_code = pcre::exec_error_code(count);
                break;
            }
            if limit != -1 && limit <= 1 {
                break;
            }
            count = m.exec(pce, s, start, NO_UTF_CHECK, &mut md);
        }
        vm.pcre_release(md);
        if vm.pcre.error_code != pcre::NO_ERROR {
            release(Zval::array(arr));
            return Zval::FALSE;
        }
    }
    if !no_empty || last_match < len {
        add(out, last_match, len);
    }
    Zval::array(arr)
}

// ---- preg_quote, preg_grep, errors ----

pub fn preg_quote(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_quote", a, 1, 2)?;
    let s = str_arg(vm, "preg_quote", 1, "str", &a[0])?;
    let delim = match a.get(1) {
        Some(v) if v.deref().kind() != IS_NULL => args::string(vm, "preg_quote", 2, "delimiter", v)?.first().copied().unwrap_or(0),
        _ => 0,
    };
    let mut out = Vec::with_capacity(s.len() + 8);
    for &c in s.iter() {
        match c {
            b'.' | b'\\' | b'+' | b'*' | b'?' | b'[' | b'^' | b']' | b'$' | b'(' | b')' | b'{' | b'}' | b'=' | b'!' | b'>' | b'<' | b'|' | b':' | b'-' | b'#' => {
                out.push(b'\\');
                out.push(c);
            }
            0 => out.extend_from_slice(b"\\000"),
            _ => {
                if c == delim {
                    out.push(b'\\');
                }
                out.push(c);
            }
        }
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn preg_grep(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let name = "preg_grep";
    args::count(vm, name, a, 2, 3)?;
    let regex = str_arg(vm, name, 1, "pattern", &a[0])?;
    let input = args::array(vm, name, 2, "array", &a[1])?;
    let flags = match a.get(2) {
        Some(v) => args::long(vm, name, 3, "flags", v)?,
        None => 0,
    };
    let Some(pce) = vm.pcre_compile(name, &regex) else {
        *r = Zval::FALSE;
        return Ok(());
    };
    let invert = flags & GREP_INVERT != 0;
    let out = ZArray::new();
    vm.pcre.error_code = pcre::NO_ERROR;
    let Some(mut md) = vm.pcre_match_data(&pce) else {
        vm.pcre.error_code = pcre::INTERNAL_ERROR;
        *r = Zval::array(out);
        return Ok(());
    };
    let m = vm.pcre_matcher();
    let hold = hold_array(input);
    let mut res = Ok(());
    for (k, v) in entries(input) {
        let text = match value_string(vm, &v) {
            Ok(t) => t,
            Err(t) => {
                res = Err(t);
                break;
            }
        };
        let count = m.exec_first(&pce, &text, 0, &mut md);
        let keep = if count >= 0 {
            !invert
        } else if count == NOMATCH {
            invert
        } else {
            vm.pcre.error_code = pcre::exec_error_code(count);
            break;
        };
        if keep {
            insert_key(out, k, v.copy_value());
        }
    }
    release(hold);
    vm.pcre_release(md);
    match res {
        Ok(()) => {
            *r = Zval::array(out);
            Ok(())
        }
        Err(t) => {
            release(Zval::array(out));
            Err(t)
        }
    }
}

pub fn preg_last_error(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_last_error", a, 0, 0)?;
    *r = Zval::long(vm.pcre.error_code);
    Ok(())
}

pub fn preg_last_error_msg(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "preg_last_error_msg", a, 0, 0)?;
    let msg: &[u8] = match vm.pcre.error_code {
        pcre::NO_ERROR => b"No error",
        pcre::INTERNAL_ERROR => b"Internal error",
        pcre::BAD_UTF8_ERROR => b"Malformed UTF-8 characters, possibly incorrectly encoded",
        pcre::BAD_UTF8_OFFSET_ERROR => b"The offset did not correspond to the beginning of a valid UTF-8 code point",
        pcre::BACKTRACK_LIMIT_ERROR => b"Backtrack limit exhausted",
        pcre::RECURSION_LIMIT_ERROR => b"Recursion limit exhausted",
        pcre::JIT_STACKLIMIT_ERROR => b"JIT stack limit exhausted",
        _ => b"Unknown error",
    };
    *r = ret_str(msg);
    Ok(())
}
