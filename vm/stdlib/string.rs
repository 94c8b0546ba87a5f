//! ext/standard string functions.

use super::{args, ret_str, set_ref};
use crate::exec::{Thrown, Vm};
use crate::value::{ZArray, ZString, Zval};

type R = Result<(), Thrown>;

/// `name(): Argument #n ($param) …` as a ValueError.
pub(crate) fn value_error(vm: &mut Vm, name: &str, n: usize, param: &str, what: &str) -> Thrown {
    vm.throw_error("ValueError", &format!("{}(): Argument #{} (${}) {}", name, n, param, what))
}

fn opt_long(vm: &mut Vm, name: &str, a: &[Zval], i: usize, param: &str, default: i64) -> Result<i64, Thrown> {
    match a.get(i) {
        Some(v) => args::long(vm, name, i + 1, param, v),
        None => Ok(default),
    }
}

/// An `?int` parameter: `None` when absent or null.
fn opt_long_null(vm: &mut Vm, name: &str, a: &[Zval], i: usize, param: &str) -> Result<Option<i64>, Thrown> {
    match a.get(i) {
        Some(v) if v.deref().kind() == crate::value::IS_NULL => Ok(None),
        Some(v) => args::long(vm, name, i + 1, param, v).map(Some),
        None => Ok(None),
    }
}

fn opt_str(vm: &mut Vm, name: &str, a: &[Zval], i: usize, param: &str, default: &[u8]) -> Result<Vec<u8>, Thrown> {
    match a.get(i) {
        Some(v) => args::string(vm, name, i + 1, param, v),
        None => Ok(default.to_vec()),
    }
}

fn find(h: &[u8], n: &[u8]) -> Option<usize> {
    memchr::memmem::find(h, n)
}

fn rfind(h: &[u8], n: &[u8]) -> Option<usize> {
    memchr::memmem::rfind(h, n)
}

pub fn strlen(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strlen", a, 1, 1)?;
    let s = args::string(vm, "strlen", 1, "string", &a[0])?;
    *r = Zval::long(s.len() as i64);
    Ok(())
}

pub fn str_repeat(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_repeat", a, 2, 2)?;
    let s = args::string(vm, "str_repeat", 1, "string", &a[0])?;
    let n = args::long(vm, "str_repeat", 2, "times", &a[1])?;
    if n < 0 {
        return Err(vm.throw_error("ValueError", "str_repeat(): Argument #2 ($times) must be greater than or equal to 0"));
    }
    let total = s.len().saturating_mul(n as usize);
    if total > vm.memory_limit {
        vm.memory_exhausted(total);
        return Err(Thrown);
    }
    *r = Zval::string(ZString::new(&s.repeat(n as usize)));
    Ok(())
}

pub fn implode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "implode", a, 1, 2)?;
    let (sep, arr) = if a.len() == 1 {
        let arr = a[0].deref();
        if !arr.is_array() {
            return Err(vm.throw_error("TypeError", &format!("implode(): Argument #1 ($pieces) must be of type array, {} given", super::type_name(arr))));
        }
        (Vec::new(), arr.arr())
    } else if a[0].deref().is_array() {
        let sep = args::string(vm, "implode", 2, "array", &a[1])?;
        (sep, a[0].deref().arr())
    } else {
        let sep = args::string(vm, "implode", 1, "separator", &a[0])?;
        let arr = a[1].deref();
        if !arr.is_array() {
            return Err(vm.throw_error("TypeError", &format!("implode(): Argument #2 ($array) must be of type ?array, {} given", super::type_name(arr))));
        }
        (sep, arr.arr())
    };
    let mut out = Vec::new();
    let mut first = true;
    // SAFETY: the array is alive for the duration of the call (held by the argument).
    for (_, v) in unsafe { (*arr).iter() } {
        if !first {
            out.extend_from_slice(&sep);
        }
        first = false;
        crate::exec::slow::arith::to_string_into(vm, v, &mut out);
    }
    *r = Zval::string(ZString::new(&out));
    Ok(())
}

pub fn ord(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "ord", a, 1, 1)?;
    let s = args::string(vm, "ord", 1, "character", &a[0])?;
    *r = Zval::long(s.first().copied().unwrap_or(0) as i64);
    Ok(())
}

pub fn chr(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "chr", a, 1, 1)?;
    let n = args::long(vm, "chr", 1, "codepoint", &a[0])?;
    *r = Zval::string(ZString::new(&[n.rem_euclid(256) as u8]));
    Ok(())
}

pub fn dechex(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "dechex", a, 1, 1)?;
    let n = args::long(vm, "dechex", 1, "num", &a[0])?;
    *r = Zval::string(ZString::from_u64_radix_pow2(n as u64, 4));
    Ok(())
}

pub fn substr(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "substr", a, 2, 3)?;
    let s = args::str_ref(vm, "substr", 1, "string", &a[0])?;
    let f = args::long(vm, "substr", 2, "offset", &a[1])?;
    let l = opt_long_null(vm, "substr", a, 2, "length")?;
    let len = s.len() as i64;
    if f > len {
        *r = ret_str(b"");
        return Ok(());
    }
    let f = if f < 0 { if -f > len { 0 } else { len + f } } else { f };
    let l = match l {
        Some(l) if l < 0 => {
            if -l > len - f {
                0
            } else {
                len - f + l
            }
        }
        Some(l) => l.min(len - f),
        None => len - f,
    };
    *r = ret_str(&s[f as usize..(f + l) as usize]);
    Ok(())
}

/// The `$offset` of strpos and friends, resolved against the haystack.
fn search_offset(vm: &mut Vm, name: &str, hay_len: usize, off: i64) -> Result<usize, Thrown> {
    let len = hay_len as i64;
    let o = if off < 0 { off + len } else { off };
    if o < 0 || o > len {
        return Err(value_error(vm, name, 3, "offset", "must be contained in argument #1 ($haystack)"));
    }
    Ok(o as usize)
}

fn strpos_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, ci: bool) -> R {
    args::count(vm, name, a, 2, 3)?;
    let mut h = args::string(vm, name, 1, "haystack", &a[0])?;
    let mut n = args::string(vm, name, 2, "needle", &a[1])?;
    let off = opt_long(vm, name, a, 2, "offset", 0)?;
    let o = search_offset(vm, name, h.len(), off)?;
    if ci {
        h.make_ascii_lowercase();
        n.make_ascii_lowercase();
    }
    *r = match find(&h[o..], &n) {
        Some(p) => Zval::long((p + o) as i64),
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn strpos(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strpos_impl(vm, "strpos", a, r, false)
}

pub fn stripos(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strpos_impl(vm, "stripos", a, r, true)
}

fn strrpos_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, ci: bool) -> R {
    args::count(vm, name, a, 2, 3)?;
    let mut h = args::string(vm, name, 1, "haystack", &a[0])?;
    let mut n = args::string(vm, name, 2, "needle", &a[1])?;
    let off = opt_long(vm, name, a, 2, "offset", 0)?;
    if ci {
        h.make_ascii_lowercase();
        n.make_ascii_lowercase();
    }
    let len = h.len();
    let (p, e) = if off >= 0 {
        if off as u64 > len as u64 {
            return Err(value_error(vm, name, 3, "offset", "must be contained in argument #1 ($haystack)"));
        }
        (off as usize, len)
    } else {
        if off == i64::MIN || (-off) as u64 > len as u64 {
            return Err(value_error(vm, name, 3, "offset", "must be contained in argument #1 ($haystack)"));
        }
        let neg = (-off) as usize;
        (0, if neg < n.len() { len } else { len - neg + n.len() })
    };
    *r = match rfind(&h[p..e.max(p)], &n) {
        Some(i) => Zval::long((i + p) as i64),
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn strrpos(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strrpos_impl(vm, "strrpos", a, r, false)
}

pub fn strripos(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strrpos_impl(vm, "strripos", a, r, true)
}

fn strstr_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, ci: bool) -> R {
    args::count(vm, name, a, 2, 3)?;
    let h = args::str_ref(vm, name, 1, "haystack", &a[0])?;
    let n = args::str_ref(vm, name, 2, "needle", &a[1])?;
    let before = match a.get(2) {
        Some(v) => args::boolean(vm, name, 3, "before_needle", v)?,
        None => false,
    };
    let pos = if ci { find(&h.to_ascii_lowercase(), &n.to_ascii_lowercase()) } else { find(&h, &n) };
    *r = match pos {
        Some(p) if before => ret_str(&h[..p]),
        Some(p) => ret_str(&h[p..]),
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn strstr(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strstr_impl(vm, "strstr", a, r, false)
}

pub fn stristr(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strstr_impl(vm, "stristr", a, r, true)
}

pub fn strrchr(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strrchr", a, 2, 2)?;
    let h = args::str_ref(vm, "strrchr", 1, "haystack", &a[0])?;
    let n = args::str_ref(vm, "strrchr", 2, "needle", &a[1])?;
    let c = n.first().copied().unwrap_or(0);
    *r = match h.iter().rposition(|&x| x == c) {
        Some(p) => ret_str(&h[p..]),
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn str_contains(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_contains", a, 2, 2)?;
    let h = args::str_ref(vm, "str_contains", 1, "haystack", &a[0])?;
    let n = args::str_ref(vm, "str_contains", 2, "needle", &a[1])?;
    *r = Zval::bool(find(&h, &n).is_some());
    Ok(())
}

pub fn str_starts_with(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_starts_with", a, 2, 2)?;
    let h = args::str_ref(vm, "str_starts_with", 1, "haystack", &a[0])?;
    let n = args::str_ref(vm, "str_starts_with", 2, "needle", &a[1])?;
    *r = Zval::bool(h.starts_with(&n));
    Ok(())
}

pub fn str_ends_with(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_ends_with", a, 2, 2)?;
    let h = args::str_ref(vm, "str_ends_with", 1, "haystack", &a[0])?;
    let n = args::str_ref(vm, "str_ends_with", 2, "needle", &a[1])?;
    *r = Zval::bool(h.ends_with(&n));
    Ok(())
}

/// `php_charmask`: the byte set of a `$characters` argument with `a..z` ranges.
pub(crate) fn charmask(vm: &mut Vm, name: &str, input: &[u8]) -> [bool; 256] {
    let mut mask = [false; 256];
    let end = input.len();
    let mut i = 0;
    while i < end {
        let c = input[i];
        if i + 3 < end && input[i + 1] == b'.' && input[i + 2] == b'.' && input[i + 3] >= c {
            for x in c..=input[i + 3] {
                mask[x as usize] = true;
            }
            i += 4;
            continue;
        } else if i + 1 < end && input[i] == b'.' && input[i + 1] == b'.' {
            let msg = if i == 0 {
                "Invalid '..'-range, no character to the left of '..'"
            } else if i + 2 >= end {
                "Invalid '..'-range, no character to the right of '..'"
            } else if input[i - 1] > input[i + 2] {
                "Invalid '..'-range, '..'-range needs to be incrementing"
            } else {
                "Invalid '..'-range"
            };
            vm.warning(&format!("{}(): {}", name, msg));
        } else {
            mask[c as usize] = true;
        }
        i += 1;
    }
    mask
}

/// mode: 1 left, 2 right, 3 both.
fn trim_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, mode: u8) -> R {
    args::count(vm, name, a, 1, 2)?;
    let s = args::str_ref(vm, name, 1, "string", &a[0])?;
    let mask = match a.get(1) {
        Some(v) => {
            let chars = args::str_ref(vm, name, 2, "characters", v)?;
            charmask(vm, name, &chars)
        }
        None => {
            let mut m = [false; 256];
            for &c in b" \n\r\t\x0b\0" {
                m[c as usize] = true;
            }
            m
        }
    };
    let mut start = 0;
    let mut end = s.len();
    if mode & 1 != 0 {
        while start < end && mask[s[start] as usize] {
            start += 1;
        }
    }
    if mode & 2 != 0 {
        while end > start && mask[s[end - 1] as usize] {
            end -= 1;
        }
    }
    *r = ret_str(&s[start..end]);
    Ok(())
}

pub fn trim(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    trim_impl(vm, "trim", a, r, 3)
}

pub fn ltrim(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    trim_impl(vm, "ltrim", a, r, 1)
}

pub fn rtrim(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    trim_impl(vm, "rtrim", a, r, 2)
}

pub fn chop(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    trim_impl(vm, "chop", a, r, 2)
}

fn map_str(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, f: fn(&mut Vec<u8>)) -> R {
    args::count(vm, name, a, 1, 1)?;
    let mut s = args::string(vm, name, 1, "string", &a[0])?;
    f(&mut s);
    *r = ret_str(&s);
    Ok(())
}

pub fn strtoupper(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    map_str(vm, "strtoupper", a, r, |s| s.make_ascii_uppercase())
}

pub fn strtolower(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    map_str(vm, "strtolower", a, r, |s| s.make_ascii_lowercase())
}

pub fn ucfirst(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    map_str(vm, "ucfirst", a, r, |s| {
        if let Some(c) = s.first_mut() {
            c.make_ascii_uppercase();
        }
    })
}

pub fn lcfirst(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    map_str(vm, "lcfirst", a, r, |s| {
        if let Some(c) = s.first_mut() {
            c.make_ascii_lowercase();
        }
    })
}

pub fn strrev(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    map_str(vm, "strrev", a, r, |s| s.reverse())
}

pub fn str_rot13(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    map_str(vm, "str_rot13", a, r, |s| {
        for c in s.iter_mut() {
            *c = match *c {
                b'a'..=b'z' => (*c - b'a' + 13) % 26 + b'a',
                b'A'..=b'Z' => (*c - b'A' + 13) % 26 + b'A',
                x => x,
            }
        }
    })
}

pub fn ucwords(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "ucwords", a, 1, 2)?;
    let mut s = args::string(vm, "ucwords", 1, "string", &a[0])?;
    let delims = opt_str(vm, "ucwords", a, 1, "separators", b" \t\r\n\x0c\x0b")?;
    let mask = charmask(vm, "ucwords", &delims);
    let mut up = true;
    for c in s.iter_mut() {
        if up {
            c.make_ascii_uppercase();
        }
        up = mask[*c as usize];
    }
    *r = ret_str(&s);
    Ok(())
}

pub fn str_pad(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_pad", a, 2, 4)?;
    let s = args::str_ref(vm, "str_pad", 1, "string", &a[0])?;
    let len = args::long(vm, "str_pad", 2, "length", &a[1])?;
    let pad = opt_str(vm, "str_pad", a, 2, "pad_string", b" ")?;
    let ty = opt_long(vm, "str_pad", a, 3, "pad_type", 1)?;
    if len < 0 || len as u64 <= s.len() as u64 {
        *r = ret_str(&s);
        return Ok(());
    }
    if pad.is_empty() {
        return Err(value_error(vm, "str_pad", 3, "pad_string", "must be a non-empty string"));
    }
    if !(0..=2).contains(&ty) {
        return Err(value_error(vm, "str_pad", 4, "pad_type", "must be STR_PAD_LEFT, STR_PAD_RIGHT, or STR_PAD_BOTH"));
    }
    let num = len as usize - s.len();
    if len as usize > vm.memory_limit {
        vm.memory_exhausted(len as usize);
        return Err(Thrown);
    }
    let (left, right) = match ty {
        0 => (num, 0),
        1 => (0, num),
        _ => (num / 2, num - num / 2),
    };
    let mut out = Vec::with_capacity(len as usize);
    out.extend((0..left).map(|i| pad[i % pad.len()]));
    out.extend_from_slice(&s);
    out.extend((0..right).map(|i| pad[i % pad.len()]));
    *r = ret_str(&out);
    Ok(())
}

pub fn explode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "explode", a, 2, 3)?;
    let sep = args::str_ref(vm, "explode", 1, "separator", &a[0])?;
    let s = args::str_ref(vm, "explode", 2, "string", &a[1])?;
    let limit = opt_long(vm, "explode", a, 2, "limit", i64::MAX)?;
    if sep.is_empty() {
        return Err(value_error(vm, "explode", 1, "separator", "cannot be empty"));
    }
    let arr = ZArray::new();
    // SAFETY: `arr` is new and unshared.
    let out = unsafe { &mut *arr };
    if s.is_empty() {
        if limit >= 0 {
            out.append(ret_str(b""));
        }
        *r = Zval::array(arr);
        return Ok(());
    }
    let mut parts: Vec<&[u8]> = Vec::new();
    let mut rest: &[u8] = &s;
    let limit = if limit == 0 { 1 } else { limit };
    let finder = memchr::memmem::Finder::new(&sep);
    loop {
        if limit > 0 && parts.len() as i64 == limit - 1 {
            parts.push(rest);
            break;
        }
        match finder.find(rest) {
            Some(p) => {
                parts.push(&rest[..p]);
                rest = &rest[p + sep.len()..];
            }
            None => {
                parts.push(rest);
                break;
            }
        }
    }
    if limit < 0 {
        let keep = parts.len() as i64 + limit;
        parts.truncate(keep.max(0) as usize);
    }
    for p in parts {
        out.append(ret_str(p));
    }
    *r = Zval::array(arr);
    Ok(())
}

pub fn str_split(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_split", a, 1, 2)?;
    let s = args::str_ref(vm, "str_split", 1, "string", &a[0])?;
    let n = opt_long(vm, "str_split", a, 1, "length", 1)?;
    if n < 1 {
        return Err(value_error(vm, "str_split", 2, "length", "must be greater than 0"));
    }
    let arr = ZArray::new();
    // SAFETY: `arr` is new and unshared.
    unsafe {
        for c in s.chunks(n.min(i32::MAX as i64) as usize) {
            (*arr).append(ret_str(c));
        }
    }
    *r = Zval::array(arr);
    Ok(())
}

/// One search/replace pass of str_replace over a subject string.
fn replace_one(subject: &[u8], search: &[u8], rep: &[u8], ci: bool, count: &mut i64) -> Vec<u8> {
    if search.is_empty() || search.len() > subject.len() {
        return subject.to_vec();
    }
    let lower_subject;
    let lower_search;
    let (hs, ns): (&[u8], &[u8]) = if ci {
        lower_subject = subject.to_ascii_lowercase();
        lower_search = search.to_ascii_lowercase();
        (&lower_subject, &lower_search)
    } else {
        (subject, search)
    };
    let mut out = Vec::with_capacity(subject.len());
    let mut i = 0;
    let finder = memchr::memmem::Finder::new(ns);
    while let Some(p) = finder.find(&hs[i..]) {
        out.extend_from_slice(&subject[i..i + p]);
        out.extend_from_slice(rep);
        i += p + ns.len();
        *count += 1;
    }
    out.extend_from_slice(&subject[i..]);
    out
}

fn str_replace_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, ci: bool) -> R {
    args::count(vm, name, a, 3, 4)?;
    let search = a[0].deref();
    let replace = a[1].deref();
    let subject = a[2].deref();
    // (search, replacement) pairs.
    let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    if search.is_array() {
        let rep_list: Option<Vec<Vec<u8>>> = if replace.is_array() {
            let mut v = Vec::new();
            // SAFETY: the argument keeps the array alive.
            for (_, x) in unsafe { (*replace.arr()).iter() } {
                let mut b = Vec::new();
                crate::exec::slow::arith::to_string_into(vm, x, &mut b);
                v.push(b);
            }
            Some(v)
        } else {
            None
        };
        let rep_str = if replace.is_array() { Vec::new() } else { args::string(vm, name, 2, "replace", replace)? };
        // SAFETY: the argument keeps the array alive.
        for (i, (_, x)) in unsafe { (*search.arr()).iter() }.enumerate() {
            let mut s = Vec::new();
            crate::exec::slow::arith::to_string_into(vm, x, &mut s);
            let rep = match &rep_list {
                Some(l) => l.get(i).cloned().unwrap_or_default(),
                None => rep_str.clone(),
            };
            pairs.push((s, rep));
        }
    } else {
        let s = args::string(vm, name, 1, "search", search)?;
        if replace.is_array() {
            let msg = format!("{}(): Argument #2 ($replace) must be of type string when argument #1 ($search) is a string", name);
            return Err(vm.throw_error("TypeError", &msg));
        }
        let rep = args::string(vm, name, 2, "replace", replace)?;
        pairs.push((s, rep));
    }
    let mut count = 0i64;
    let apply = |vm: &mut Vm, subj: &Zval, count: &mut i64| -> Zval {
        let mut s = Vec::new();
        crate::exec::slow::arith::to_string_into(vm, subj, &mut s);
        for (se, re) in &pairs {
            if s.is_empty() {
                break;
            }
            s = replace_one(&s, se, re, ci, count);
        }
        ret_str(&s)
    };
    if subject.is_array() {
        let out = ZArray::new();
        // SAFETY: the argument keeps the array alive; `out` is new.
        unsafe {
            for (k, v) in (*subject.arr()).iter() {
                let nv = if v.deref().is_array() { v.copy_deref() } else { apply(vm, v, &mut count) };
                super::array::insert_keyref(&mut *out, k, nv);
            }
        }
        *r = Zval::array(out);
    } else {
        if !matches!(subject.kind(), crate::value::IS_STRING | crate::value::IS_LONG | crate::value::IS_DOUBLE | crate::value::IS_TRUE | crate::value::IS_FALSE | crate::value::IS_NULL) {
            let msg = format!("{}(): Argument #3 ($subject) must be of type array|string, {} given", name, super::type_name(subject));
            return Err(vm.throw_error("TypeError", &msg));
        }
        if subject.kind() == crate::value::IS_NULL {
            vm.deprecated(&format!("{}(): Passing null to parameter #3 ($subject) of type array|string is deprecated", name));
        }
        *r = apply(vm, subject, &mut count);
    }
    if let Some(c) = a.get(3) {
        set_ref(c, Zval::long(count));
    }
    Ok(())
}

pub fn str_replace(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    str_replace_impl(vm, "str_replace", a, r, false)
}

pub fn str_ireplace(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    str_replace_impl(vm, "str_ireplace", a, r, true)
}

fn cmp_result(o: std::cmp::Ordering) -> Zval {
    Zval::long(o as i64)
}

fn strcmp_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, ci: bool, n: bool) -> R {
    args::count(vm, name, a, if n { 3 } else { 2 }, if n { 3 } else { 2 })?;
    let mut x = args::string(vm, name, 1, "string1", &a[0])?;
    let mut y = args::string(vm, name, 2, "string2", &a[1])?;
    if n {
        let l = args::long(vm, name, 3, "length", &a[2])?;
        if l < 0 {
            return Err(value_error(vm, name, 3, "length", "must be greater than or equal to 0"));
        }
        x.truncate(l as usize);
        y.truncate(l as usize);
    }
    if ci {
        x.make_ascii_lowercase();
        y.make_ascii_lowercase();
    }
    // PHP 8.2 returns the byte difference or the length difference.
    let common = x.len().min(y.len());
    for i in 0..common {
        if x[i] != y[i] {
            *r = Zval::long(x[i] as i64 - y[i] as i64);
            return Ok(());
        }
    }
    *r = Zval::long((x.len() as i64 - y.len() as i64).signum());
    let _ = cmp_result;
    Ok(())
}

pub fn strcmp(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strcmp_impl(vm, "strcmp", a, r, false, false)
}

pub fn strcasecmp(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strcmp_impl(vm, "strcasecmp", a, r, true, false)
}

pub fn strncmp(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strcmp_impl(vm, "strncmp", a, r, false, true)
}

pub fn strncasecmp(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    strcmp_impl(vm, "strncasecmp", a, r, true, true)
}

pub fn strcoll(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strcoll", a, 2, 2)?;
    let x = args::string(vm, "strcoll", 1, "string1", &a[0])?;
    let y = args::string(vm, "strcoll", 2, "string2", &a[1])?;
    *r = cmp_result(x.cmp(&y));
    Ok(())
}

/// `strnatcmp_ex` from ext/standard/strnatcmp.c.
pub(crate) fn natcmp(a: &[u8], b: &[u8], fold: bool) -> i32 {
    let (alen, blen) = (a.len(), b.len());
    if alen == 0 || blen == 0 {
        return if alen == blen { 0 } else if alen > blen { 1 } else { -1 };
    }
    let (mut ai, mut bi) = (0usize, 0usize);
    loop {
        let mut ca = a.get(ai).copied().unwrap_or(0);
        let mut cb = b.get(bi).copied().unwrap_or(0);
        // Skip leading spaces.
        while ca.is_ascii_whitespace() {
            ai += 1;
            ca = a.get(ai).copied().unwrap_or(0);
        }
        while cb.is_ascii_whitespace() {
            bi += 1;
            cb = b.get(bi).copied().unwrap_or(0);
        }
        if ca.is_ascii_digit() && cb.is_ascii_digit() {
            let fractional = ca == b'0' || cb == b'0';
            let res = if fractional { compare_left(a, &mut ai, b, &mut bi) } else { compare_right(a, &mut ai, b, &mut bi) };
            if res != 0 {
                return res;
            }
            if ai >= alen && bi >= blen {
                return 0;
            } else if ai >= alen {
                return -1;
            } else if bi >= blen {
                return 1;
            }
            ca = a[ai];
            cb = b[bi];
        }
        if fold {
            ca = ca.to_ascii_uppercase();
            cb = cb.to_ascii_uppercase();
        }
        if ca < cb {
            return -1;
        } else if ca > cb {
            return 1;
        }
        ai += 1;
        bi += 1;
        if ai >= alen && bi >= blen {
            return 0;
        } else if ai >= alen {
            return -1;
        } else if bi >= blen {
            return 1;
        }
    }
}

fn compare_right(a: &[u8], ai: &mut usize, b: &[u8], bi: &mut usize) -> i32 {
    let mut bias = 0;
    // The longest run of digits wins; else the first difference.
    loop {
        let ca = a.get(*ai).copied().unwrap_or(0);
        let cb = b.get(*bi).copied().unwrap_or(0);
        let (da, db) = (ca.is_ascii_digit(), cb.is_ascii_digit());
        if !da && !db {
            return bias;
        } else if !da {
            return -1;
        } else if !db {
            return 1;
        } else if ca < cb {
            if bias == 0 {
                bias = -1;
            }
        } else if ca > cb {
            if bias == 0 {
                bias = 1;
            }
        }
        *ai += 1;
        *bi += 1;
    }
}

fn compare_left(a: &[u8], ai: &mut usize, b: &[u8], bi: &mut usize) -> i32 {
    loop {
        let ca = a.get(*ai).copied().unwrap_or(0);
        let cb = b.get(*bi).copied().unwrap_or(0);
        let (da, db) = (ca.is_ascii_digit(), cb.is_ascii_digit());
        if !da && !db {
            return 0;
        } else if !da {
            return -1;
        } else if !db {
            return 1;
        } else if ca < cb {
            return -1;
        } else if ca > cb {
            return 1;
        }
        *ai += 1;
        *bi += 1;
    }
}

pub fn strnatcmp(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strnatcmp", a, 2, 2)?;
    let x = args::string(vm, "strnatcmp", 1, "string1", &a[0])?;
    let y = args::string(vm, "strnatcmp", 2, "string2", &a[1])?;
    *r = Zval::long(natcmp(&x, &y, false) as i64);
    Ok(())
}

pub fn strnatcasecmp(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strnatcasecmp", a, 2, 2)?;
    let x = args::string(vm, "strnatcasecmp", 1, "string1", &a[0])?;
    let y = args::string(vm, "strnatcasecmp", 2, "string2", &a[1])?;
    *r = Zval::long(natcmp(&x, &y, true) as i64);
    Ok(())
}

pub fn substr_count(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "substr_count", a, 2, 4)?;
    let h = args::str_ref(vm, "substr_count", 1, "haystack", &a[0])?;
    let n = args::str_ref(vm, "substr_count", 2, "needle", &a[1])?;
    let off = opt_long(vm, "substr_count", a, 2, "offset", 0)?;
    let len = opt_long_null(vm, "substr_count", a, 3, "length")?;
    if n.is_empty() {
        return Err(value_error(vm, "substr_count", 2, "needle", "cannot be empty"));
    }
    let hl = h.len() as i64;
    let o = if off < 0 { off + hl } else { off };
    if o < 0 || o > hl {
        return Err(value_error(vm, "substr_count", 3, "offset", "must be contained in argument #1 ($haystack)"));
    }
    let end = match len {
        Some(l) => {
            let l = if l < 0 { l + (hl - o) } else { l };
            if l < 0 || l > hl - o {
                return Err(value_error(vm, "substr_count", 4, "length", "must be contained in argument #1 ($haystack)"));
            }
            o + l
        }
        None => hl,
    };
    let mut hay = &h[o as usize..end as usize];
    let mut c = 0;
    while let Some(p) = find(hay, &n) {
        c += 1;
        hay = &hay[p + n.len()..];
    }
    *r = Zval::long(c);
    Ok(())
}

pub fn substr_replace(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "substr_replace", a, 3, 4)?;
    let one = |vm: &mut Vm, s: &[u8], rep: &[u8], f: i64, l: Option<i64>| -> Vec<u8> {
        let _ = vm;
        let len = s.len() as i64;
        let mut f = f;
        if f < 0 {
            f += len;
            if f < 0 {
                f = 0;
            }
        } else if f > len {
            f = len;
        }
        let mut l = l.unwrap_or(len);
        if l < 0 {
            l = (len - f) + l;
            if l < 0 {
                l = 0;
            }
        }
        if l > len - f {
            l = len - f;
        }
        let mut out = s[..f as usize].to_vec();
        out.extend_from_slice(rep);
        out.extend_from_slice(&s[(f + l) as usize..]);
        out
    };
    let subj = a[0].deref();
    let rep_v = a[1].deref();
    let off_v = a[2].deref();
    let len_v = a.get(3).map(|v| *v.deref());
    let list = |v: &Zval| -> Option<Vec<Zval>> {
        if v.is_array() {
            // SAFETY: arguments keep their arrays alive.
            Some(unsafe { (*v.arr()).iter().map(|(_, x)| *x.deref()).collect() })
        } else {
            None
        }
    };
    let reps = list(rep_v);
    let offs = list(off_v);
    let lens = len_v.as_ref().and_then(list);
    if !subj.is_array() {
        let s = args::string(vm, "substr_replace", 1, "string", subj)?;
        if offs.is_some() || lens.is_some() {
            if offs.is_some() != lens.is_some() && len_v.is_some_and(|v| v.kind() != crate::value::IS_NULL) {
                let msg = if offs.is_some() { "substr_replace(): Argument #3 ($offset) cannot be an array when working on a single string" } else { "substr_replace(): Argument #4 ($length) cannot be an array when working on a single string" };
                return Err(vm.throw_error("TypeError", msg));
            }
            if offs.is_some() {
                return Err(vm.throw_error("TypeError", "substr_replace(): Argument #3 ($offset) cannot be an array when working on a single string"));
            }
            return Err(vm.throw_error("TypeError", "substr_replace(): Argument #4 ($length) cannot be an array when working on a single string"));
        }
        let rep = match &reps {
            Some(l) => match l.first() {
                Some(x) => args::string(vm, "substr_replace", 2, "replace", x)?,
                None => Vec::new(),
            },
            None => args::string(vm, "substr_replace", 2, "replace", rep_v)?,
        };
        let f = args::long(vm, "substr_replace", 3, "offset", off_v)?;
        let l = match len_v {
            Some(v) if v.kind() != crate::value::IS_NULL => Some(args::long(vm, "substr_replace", 4, "length", &v)?),
            _ => None,
        };
        *r = ret_str(&one(vm, &s, &rep, f, l));
        return Ok(());
    }
    let out = ZArray::new();
    // SAFETY: arguments keep their arrays alive; `out` is new.
    unsafe {
        for (i, (k, v)) in (*subj.arr()).iter().enumerate() {
            let s = args::string(vm, "substr_replace", 1, "string", v)?;
            let rep = match &reps {
                Some(l) => match l.get(i) {
                    Some(x) => args::string(vm, "substr_replace", 2, "replace", x)?,
                    None => Vec::new(),
                },
                None => args::string(vm, "substr_replace", 2, "replace", rep_v)?,
            };
            let f = match &offs {
                Some(l) => match l.get(i) {
                    Some(x) => args::long(vm, "substr_replace", 3, "offset", x)?,
                    None => 0,
                },
                None => args::long(vm, "substr_replace", 3, "offset", off_v)?,
            };
            let l = match (&lens, len_v) {
                (Some(l), _) => match l.get(i) {
                    Some(x) => Some(args::long(vm, "substr_replace", 4, "length", x)?),
                    None => Some(s.len() as i64),
                },
                (None, Some(v)) if v.kind() != crate::value::IS_NULL => Some(args::long(vm, "substr_replace", 4, "length", &v)?),
                _ => None,
            };
            super::array::insert_keyref(&mut *out, k, ret_str(&one(vm, &s, &rep, f, l)));
        }
    }
    *r = Zval::array(out);
    Ok(())
}

pub fn wordwrap(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "wordwrap", a, 1, 4)?;
    let text = args::str_ref(vm, "wordwrap", 1, "string", &a[0])?;
    let width = opt_long(vm, "wordwrap", a, 1, "width", 75)?;
    let brk = opt_str(vm, "wordwrap", a, 2, "break", b"\n")?;
    let cut = match a.get(3) {
        Some(v) => args::boolean(vm, "wordwrap", 4, "cut_long_words", v)?,
        None => false,
    };
    if text.is_empty() {
        *r = ret_str(b"");
        return Ok(());
    }
    if brk.is_empty() {
        return Err(value_error(vm, "wordwrap", 3, "break", "cannot be empty"));
    }
    if width == 0 && cut {
        return Err(value_error(vm, "wordwrap", 2, "width", "cannot be 0 when argument #4 ($cut_long_words) is true"));
    }
    let bl = brk.len();
    let tl = text.len();
    let lw = width;
    let mut out: Vec<u8> = Vec::with_capacity(tl);
    let (mut current, mut laststart, mut lastspace) = (0usize, 0usize, 0usize);
    // The general algorithm of php_wordwrap (multi-byte break or cut).
    while current < tl {
        let c = text[current];
        if c == brk[0] && current + bl < tl && &text[current..current + bl] == &brk[..] {
            out.extend_from_slice(&text[laststart..current + bl]);
            current += bl - 1;
            laststart = current + 1;
            lastspace = laststart;
        } else if c == b' ' {
            if (current - laststart) as i64 >= lw {
                out.extend_from_slice(&text[laststart..current]);
                out.extend_from_slice(&brk);
                laststart = current + 1;
            }
            lastspace = current;
        } else if (current - laststart) as i64 >= lw && cut && laststart >= lastspace {
            out.extend_from_slice(&text[laststart..current]);
            out.extend_from_slice(&brk);
            laststart = current;
            lastspace = current;
        } else if (current - laststart) as i64 >= lw && laststart < lastspace {
            out.extend_from_slice(&text[laststart..lastspace]);
            out.extend_from_slice(&brk);
            laststart = lastspace + 1;
            lastspace = laststart;
        }
        current += 1;
    }
    if laststart != current {
        out.extend_from_slice(&text[laststart..current]);
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn strtr(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strtr", a, 2, 3)?;
    let s = args::string(vm, "strtr", 1, "string", &a[0])?;
    if a.len() == 2 {
        let m = a[1].deref();
        if !m.is_array() {
            return Err(vm.throw_error("ArgumentCountError", "strtr(): Argument #2 ($from) must be of type array, string given"));
        }
        let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        // SAFETY: the argument keeps the array alive.
        for (k, v) in unsafe { (*m.arr()).iter() } {
            let key = match k {
                crate::value::KeyRef::Int(i) => i.to_string().into_bytes(),
                crate::value::KeyRef::Str(z) => z.bytes().to_vec(),
            };
            if key.is_empty() {
                continue;
            }
            let mut val = Vec::new();
            crate::exec::slow::arith::to_string_into(vm, v, &mut val);
            pairs.push((key, val));
        }
        if pairs.is_empty() {
            *r = ret_str(&s);
            return Ok(());
        }
        let maxlen = pairs.iter().map(|p| p.0.len()).max().unwrap_or(0);
        let minlen = pairs.iter().map(|p| p.0.len()).min().unwrap_or(0);
        let map: std::collections::HashMap<&[u8], &[u8]> = pairs.iter().map(|(k, v)| (k.as_slice(), v.as_slice())).collect();
        let mut out = Vec::with_capacity(s.len());
        let mut i = 0;
        'outer: while i < s.len() {
            let mut l = maxlen.min(s.len() - i);
            while l >= minlen && l > 0 {
                if let Some(v) = map.get(&s[i..i + l]) {
                    out.extend_from_slice(v);
                    i += l;
                    continue 'outer;
                }
                l -= 1;
            }
            out.push(s[i]);
            i += 1;
        }
        *r = ret_str(&out);
        return Ok(());
    }
    let from = args::string(vm, "strtr", 2, "from", &a[1])?;
    let to = args::string(vm, "strtr", 3, "to", &a[2])?;
    let n = from.len().min(to.len());
    let mut table: [u8; 256] = core::array::from_fn(|i| i as u8);
    for i in 0..n {
        table[from[i] as usize] = to[i];
    }
    let out: Vec<u8> = s.iter().map(|&c| table[c as usize]).collect();
    *r = ret_str(&out);
    Ok(())
}

pub fn nl2br(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "nl2br", a, 1, 2)?;
    let s = args::str_ref(vm, "nl2br", 1, "string", &a[0])?;
    let xhtml = match a.get(1) {
        Some(v) => args::boolean(vm, "nl2br", 2, "use_xhtml", v)?,
        None => true,
    };
    let br: &[u8] = if xhtml { b"<br />" } else { b"<br>" };
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'\r' || c == b'\n' {
            out.extend_from_slice(br);
            out.push(c);
            if i + 1 < s.len() && (s[i + 1] == b'\r' || s[i + 1] == b'\n') && s[i + 1] != c {
                out.push(s[i + 1]);
                i += 1;
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    *r = ret_str(&out);
    Ok(())
}

const ENT_COMPAT: i64 = 2;
const ENT_QUOTES: i64 = 3;
const ENT_HTML_QUOTE_SINGLE: i64 = 1;

fn html_escape(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, name, a, 1, 4)?;
    let s = args::string(vm, name, 1, "string", &a[0])?;
    let flags = opt_long(vm, name, a, 1, "flags", ENT_QUOTES | 8 | 16)?;
    let double = match a.get(3) {
        Some(v) => args::boolean(vm, name, 4, "double_encode", v)?,
        None => true,
    };
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        match c {
            b'&' => {
                if !double {
                    // An existing entity stays as it is.
                    if let Some(end) = s[i + 1..].iter().position(|&x| x == b';') {
                        let ent = &s[i + 1..i + 1 + end];
                        let ok = !ent.is_empty()
                            && (ent.iter().all(|x| x.is_ascii_alphanumeric())
                                || (ent[0] == b'#' && ent.len() > 1 && (ent[1..].iter().all(|x| x.is_ascii_digit()) || ((ent[1] == b'x' || ent[1] == b'X') && ent.len() > 2 && ent[2..].iter().all(|x| x.is_ascii_hexdigit())))));
                        if ok {
                            out.extend_from_slice(&s[i..i + end + 2]);
                            i += end + 2;
                            continue;
                        }
                    }
                }
                out.extend_from_slice(b"&amp;");
            }
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            b'"' if flags & ENT_COMPAT != 0 => out.extend_from_slice(b"&quot;"),
            b'\'' if flags & ENT_QUOTES == ENT_QUOTES || flags & ENT_HTML_QUOTE_SINGLE != 0 => {
                out.extend_from_slice(if flags & (16 | 32) != 0 && flags & 16 == 0 { b"&apos;" } else { b"&#039;" })
            }
            _ => out.push(c),
        }
        i += 1;
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn htmlspecialchars(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    html_escape(vm, "htmlspecialchars", a, r)
}

pub fn htmlentities(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    html_escape(vm, "htmlentities", a, r)
}

fn html_unescape(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, name, a, 1, 3)?;
    let s = args::string(vm, name, 1, "string", &a[0])?;
    let flags = opt_long(vm, name, a, 1, "flags", ENT_QUOTES | 8 | 16)?;
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    let table: &[(&[u8], &[u8])] = &[
        (b"&amp;", b"&"),
        (b"&lt;", b"<"),
        (b"&gt;", b">"),
        (b"&quot;", b"\""),
        (b"&#039;", b"'"),
        (b"&#39;", b"'"),
        (b"&apos;", b"'"),
        (b"&#x27;", b"'"),
        (b"&nbsp;", "\u{a0}".as_bytes()),
    ];
    'outer: while i < s.len() {
        if s[i] == b'&' {
            for (ent, rep) in table {
                if s[i..].starts_with(ent) {
                    let is_single = rep == b"'";
                    let is_double = rep == b"\"";
                    if (is_single && flags & ENT_QUOTES != ENT_QUOTES) || (is_double && flags & ENT_COMPAT == 0) || (*ent == b"&nbsp;" && name == "htmlspecialchars_decode") {
                        break;
                    }
                    out.extend_from_slice(rep);
                    i += ent.len();
                    continue 'outer;
                }
            }
        }
        out.push(s[i]);
        i += 1;
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn htmlspecialchars_decode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    html_unescape(vm, "htmlspecialchars_decode", a, r)
}

pub fn html_entity_decode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    html_unescape(vm, "html_entity_decode", a, r)
}

pub fn bin2hex(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "bin2hex", a, 1, 1)?;
    let s = args::str_ref(vm, "bin2hex", 1, "string", &a[0])?;
    let mut out = Vec::with_capacity(s.len() * 2);
    for &c in s.iter() {
        out.extend_from_slice(format!("{:02x}", c).as_bytes());
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn hex2bin(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "hex2bin", a, 1, 1)?;
    let s = args::string(vm, "hex2bin", 1, "string", &a[0])?;
    if s.len() % 2 != 0 {
        vm.warning("hex2bin(): Hexadecimal input string must have an even length");
        *r = Zval::FALSE;
        return Ok(());
    }
    let mut out = Vec::with_capacity(s.len() / 2);
    for p in s.chunks(2) {
        let h = (p[0] as char).to_digit(16);
        let l = (p[1] as char).to_digit(16);
        match (h, l) {
            (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
            _ => {
                vm.warning("hex2bin(): Input string must be hexadecimal string");
                *r = Zval::FALSE;
                return Ok(());
            }
        }
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn addslashes(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "addslashes", a, 1, 1)?;
    let s = args::string(vm, "addslashes", 1, "string", &a[0])?;
    let mut out = Vec::with_capacity(s.len());
    for c in s {
        match c {
            b'\'' | b'"' | b'\\' => {
                out.push(b'\\');
                out.push(c);
            }
            0 => out.extend_from_slice(b"\\0"),
            _ => out.push(c),
        }
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn stripslashes(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "stripslashes", a, 1, 1)?;
    let s = args::string(vm, "stripslashes", 1, "string", &a[0])?;
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' {
            i += 1;
            if i < s.len() {
                out.push(if s[i] == b'0' { 0 } else { s[i] });
            }
        } else {
            out.push(s[i]);
        }
        i += 1;
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn addcslashes(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "addcslashes", a, 2, 2)?;
    let s = args::string(vm, "addcslashes", 1, "string", &a[0])?;
    let chars = args::string(vm, "addcslashes", 2, "characters", &a[1])?;
    let mask = charmask(vm, "addcslashes", &chars);
    let mut out = Vec::with_capacity(s.len());
    for c in s {
        if !mask[c as usize] {
            out.push(c);
            continue;
        }
        out.push(b'\\');
        if !(32..127).contains(&c) {
            match c {
                b'\n' => out.push(b'n'),
                b'\t' => out.push(b't'),
                b'\r' => out.push(b'r'),
                7 => out.push(b'a'),
                0x0b => out.push(b'v'),
                8 => out.push(b'b'),
                0x0c => out.push(b'f'),
                _ => out.extend_from_slice(format!("{:03o}", c).as_bytes()),
            }
        } else {
            out.push(c);
        }
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn quotemeta(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "quotemeta", a, 1, 1)?;
    let s = args::string(vm, "quotemeta", 1, "string", &a[0])?;
    if s.is_empty() {
        *r = Zval::FALSE;
        return Ok(());
    }
    let mut out = Vec::with_capacity(s.len());
    for c in s {
        if b".\\+*?[^]$()".contains(&c) {
            out.push(b'\\');
        }
        out.push(c);
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn chunk_split(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "chunk_split", a, 1, 3)?;
    let s = args::str_ref(vm, "chunk_split", 1, "string", &a[0])?;
    let n = opt_long(vm, "chunk_split", a, 1, "length", 76)?;
    let end = opt_str(vm, "chunk_split", a, 2, "separator", b"\r\n")?;
    if n < 1 {
        return Err(value_error(vm, "chunk_split", 2, "length", "must be greater than 0"));
    }
    let mut out = Vec::new();
    if n as u64 > s.len() as u64 {
        out.extend_from_slice(&s);
        out.extend_from_slice(&end);
    } else {
        for c in s.chunks(n as usize) {
            out.extend_from_slice(c);
            out.extend_from_slice(&end);
        }
    }
    *r = ret_str(&out);
    Ok(())
}

fn span(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, accept: bool) -> R {
    args::count(vm, name, a, 2, 4)?;
    let s = args::string(vm, name, 1, "string", &a[0])?;
    let chars = args::string(vm, name, 2, "characters", &a[1])?;
    let off = opt_long(vm, name, a, 2, "offset", 0)?;
    let len = opt_long_null(vm, name, a, 3, "length")?;
    let sl = s.len() as i64;
    let mut o = off;
    if o < 0 {
        o += sl;
        if o < 0 {
            o = 0;
        }
    } else if o > sl {
        *r = Zval::long(0);
        return Ok(());
    }
    let mut l = len.unwrap_or(sl);
    if l < 0 {
        l += sl - o;
        if l < 0 {
            l = 0;
        }
    } else if l > sl - o {
        l = sl - o;
    }
    let part = &s[o as usize..(o + l) as usize];
    let n = part.iter().take_while(|c| chars.contains(c) == accept).count();
    *r = Zval::long(n as i64);
    Ok(())
}

pub fn strspn(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    span(vm, "strspn", a, r, true)
}

pub fn strcspn(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    span(vm, "strcspn", a, r, false)
}

pub fn strpbrk(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strpbrk", a, 2, 2)?;
    let s = args::str_ref(vm, "strpbrk", 1, "string", &a[0])?;
    let chars = args::str_ref(vm, "strpbrk", 2, "characters", &a[1])?;
    if chars.is_empty() {
        return Err(value_error(vm, "strpbrk", 2, "characters", "must be a non-empty string"));
    }
    *r = match s.iter().position(|c| chars.contains(c)) {
        Some(p) => ret_str(&s[p..]),
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn substr_compare(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "substr_compare", a, 3, 5)?;
    let h = args::string(vm, "substr_compare", 1, "haystack", &a[0])?;
    let n = args::string(vm, "substr_compare", 2, "needle", &a[1])?;
    let off = args::long(vm, "substr_compare", 3, "offset", &a[2])?;
    let len = opt_long_null(vm, "substr_compare", a, 3, "length")?;
    let ci = match a.get(4) {
        Some(v) => args::boolean(vm, "substr_compare", 5, "case_insensitive", v)?,
        None => false,
    };
    if let Some(l) = len {
        if l < 0 {
            return Err(value_error(vm, "substr_compare", 4, "length", "must be greater than or equal to 0"));
        }
    }
    let hl = h.len() as i64;
    let mut o = off;
    if o < 0 {
        o += hl;
        if o < 0 {
            o = 0;
        }
    }
    if o > hl {
        return Err(value_error(vm, "substr_compare", 3, "offset", "must be contained in argument #1 ($main_str)"));
    }
    let cmp_len = len.unwrap_or_else(|| (hl - o).max(n.len() as i64)) as usize;
    let mut x = h[o as usize..].to_vec();
    let mut y = n.clone();
    x.truncate(cmp_len);
    y.truncate(cmp_len);
    if ci {
        x.make_ascii_lowercase();
        y.make_ascii_lowercase();
    }
    let common = x.len().min(y.len());
    for i in 0..common {
        if x[i] != y[i] {
            *r = Zval::long(x[i] as i64 - y[i] as i64);
            return Ok(());
        }
    }
    *r = Zval::long((x.len() as i64 - y.len() as i64).signum());
    Ok(())
}

fn similar(a: &[u8], b: &[u8]) -> usize {
    if a.is_empty() || b.is_empty() {
        return 0;
    }
    let (mut max, mut pa, mut pb) = (0, 0, 0);
    for i in 0..a.len() {
        for j in 0..b.len() {
            let mut k = 0;
            while i + k < a.len() && j + k < b.len() && a[i + k] == b[j + k] {
                k += 1;
            }
            if k > max {
                max = k;
                pa = i;
                pb = j;
            }
        }
    }
    if max == 0 {
        return 0;
    }
    max + similar(&a[..pa], &b[..pb]) + similar(&a[pa + max..], &b[pb + max..])
}

pub fn similar_text(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "similar_text", a, 2, 3)?;
    let x = args::string(vm, "similar_text", 1, "string1", &a[0])?;
    let y = args::string(vm, "similar_text", 2, "string2", &a[1])?;
    let sim = similar(&x, &y);
    if let Some(p) = a.get(2) {
        let pct = if x.len() + y.len() == 0 { 0.0 } else { sim as f64 * 2.0 * 100.0 / (x.len() + y.len()) as f64 };
        set_ref(p, Zval::double(pct));
    }
    *r = Zval::long(sim as i64);
    Ok(())
}

pub fn levenshtein(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "levenshtein", a, 2, 5)?;
    let x = args::string(vm, "levenshtein", 1, "string1", &a[0])?;
    let y = args::string(vm, "levenshtein", 2, "string2", &a[1])?;
    let ci = opt_long(vm, "levenshtein", a, 2, "insertion_cost", 1)?;
    let cr = opt_long(vm, "levenshtein", a, 3, "replacement_cost", 1)?;
    let cd = opt_long(vm, "levenshtein", a, 4, "deletion_cost", 1)?;
    if x.is_empty() {
        *r = Zval::long(y.len() as i64 * ci);
        return Ok(());
    }
    if y.is_empty() {
        *r = Zval::long(x.len() as i64 * cd);
        return Ok(());
    }
    let mut p1: Vec<i64> = (0..=y.len() as i64).map(|i| i * ci).collect();
    let mut p2 = vec![0i64; y.len() + 1];
    for (i1, &c1) in x.iter().enumerate() {
        p2[0] = p1[0] + cd;
        for (i2, &c2) in y.iter().enumerate() {
            let mut c0 = p1[i2] + if c1 == c2 { 0 } else { cr };
            let c1v = p1[i2 + 1] + cd;
            if c1v < c0 {
                c0 = c1v;
            }
            let c2v = p2[i2] + ci;
            if c2v < c0 {
                c0 = c2v;
            }
            p2[i2 + 1] = c0;
        }
        std::mem::swap(&mut p1, &mut p2);
        let _ = i1;
    }
    *r = Zval::long(p1[y.len()]);
    Ok(())
}

pub fn soundex(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "soundex", a, 1, 1)?;
    let s = args::string(vm, "soundex", 1, "string", &a[0])?;
    const CODE: &[u8; 26] = b"01230120022455012623010202";
    let mut out = Vec::with_capacity(4);
    let mut last: u8 = 0;
    for &c in &s {
        let u = c.to_ascii_uppercase();
        if !u.is_ascii_uppercase() {
            continue;
        }
        let code = CODE[(u - b'A') as usize];
        if out.is_empty() {
            out.push(u);
            last = code;
        } else {
            if code != last {
                if code != b'0' {
                    out.push(code);
                }
                last = code;
            }
        }
        if out.len() == 4 {
            break;
        }
    }
    if !out.is_empty() {
        while out.len() < 4 {
            out.push(b'0');
        }
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn str_word_count(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_word_count", a, 1, 3)?;
    let s = args::string(vm, "str_word_count", 1, "string", &a[0])?;
    let format = opt_long(vm, "str_word_count", a, 1, "format", 0)?;
    let extra = match a.get(2) {
        Some(v) if v.deref().kind() != crate::value::IS_NULL => {
            let c = args::string(vm, "str_word_count", 3, "characters", v)?;
            charmask(vm, "str_word_count", &c)
        }
        _ => [false; 256],
    };
    if !(0..=2).contains(&format) {
        return Err(value_error(vm, "str_word_count", 2, "format", "must be a valid format value"));
    }
    let is_word = |c: u8| c.is_ascii_alphabetic() || extra[c as usize] || c == b'\'' || c == b'-';
    let mut words: Vec<(usize, &[u8])> = Vec::new();
    let mut p = 0;
    let e = s.len();
    // Leading hyphens and a trailing hyphen are not part of words (unless allowed).
    let mut start_p = 0;
    if e > 0 && s[0] == b'-' && !extra[b'-' as usize] {
        start_p = 1;
    }
    let mut end_e = e;
    if end_e > start_p && s[end_e - 1] == b'-' && !extra[b'-' as usize] {
        end_e -= 1;
    }
    p = p.max(start_p);
    while p < end_e {
        let st = p;
        while p < end_e && (s[p].is_ascii_alphabetic() || extra[s[p] as usize] || s[p] == b'\'' || s[p] == b'-') {
            p += 1;
        }
        if p > st {
            words.push((st, &s[st..p]));
        } else {
            p += 1;
        }
    }
    let _ = is_word;
    match format {
        0 => *r = Zval::long(words.len() as i64),
        _ => {
            let arr = ZArray::new();
            // SAFETY: `arr` is new and unshared.
            unsafe {
                for (pos, w) in words {
                    if format == 1 {
                        (*arr).append(ret_str(w));
                    } else {
                        (*arr).update_int(pos as i64, ret_str(w));
                    }
                }
            }
            *r = Zval::array(arr);
        }
    }
    Ok(())
}

pub fn count_chars(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "count_chars", a, 1, 2)?;
    let s = args::string(vm, "count_chars", 1, "string", &a[0])?;
    let mode = opt_long(vm, "count_chars", a, 1, "mode", 0)?;
    if !(0..=4).contains(&mode) {
        return Err(value_error(vm, "count_chars", 2, "mode", "must be between 0 and 4 (inclusive)"));
    }
    let mut counts = [0i64; 256];
    for &c in &s {
        counts[c as usize] += 1;
    }
    if mode >= 3 {
        let out: Vec<u8> = (0..=255u8).filter(|&c| (counts[c as usize] > 0) == (mode == 3)).collect();
        *r = ret_str(&out);
        return Ok(());
    }
    let arr = ZArray::new();
    // SAFETY: `arr` is new and unshared.
    unsafe {
        for c in 0..256usize {
            let n = counts[c];
            if mode == 0 || (mode == 1 && n > 0) || (mode == 2 && n == 0) {
                (*arr).update_int(c as i64, Zval::long(n));
            }
        }
    }
    *r = Zval::array(arr);
    Ok(())
}

pub fn strip_tags(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strip_tags", a, 1, 2)?;
    let s = args::string(vm, "strip_tags", 1, "string", &a[0])?;
    let allowed: Vec<Vec<u8>> = match a.get(1).map(|v| *v.deref()) {
        Some(v) if v.is_array() => {
            // SAFETY: the argument keeps the array alive.
            unsafe { (*v.arr()).iter().map(|(_, x)| { let mut b = Vec::new(); crate::value::convert::append_string(x.deref(), &mut b); b.make_ascii_lowercase(); b }).collect() }
        }
        Some(v) if v.kind() != crate::value::IS_NULL => {
            let t = args::string(vm, "strip_tags", 2, "allowed_tags", &v)?.to_ascii_lowercase();
            let mut names = Vec::new();
            let mut i = 0;
            while let Some(p) = t[i..].iter().position(|&c| c == b'<') {
                let st = i + p + 1;
                let e = t[st..].iter().position(|&c| c == b'>').map(|x| st + x).unwrap_or(t.len());
                names.push(t[st..e].to_vec());
                i = e.min(t.len());
                if i >= t.len() {
                    break;
                }
            }
            names
        }
        _ => Vec::new(),
    };
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'<' && i + 1 < s.len() && !s[i + 1].is_ascii_whitespace() {
            // Find the end of the tag, honouring quotes.
            let mut j = i + 1;
            let mut q = 0u8;
            while j < s.len() {
                let c = s[j];
                if q != 0 {
                    if c == q {
                        q = 0;
                    }
                } else if c == b'"' || c == b'\'' {
                    q = c;
                } else if c == b'>' {
                    break;
                }
                j += 1;
            }
            let tag = &s[i..(j + 1).min(s.len())];
            let name: Vec<u8> = tag[1..].iter().skip_while(|&&c| c == b'/').take_while(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
            if !name.is_empty() && allowed.iter().any(|x| *x == name) {
                out.extend_from_slice(tag);
            }
            i = j + 1;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    *r = ret_str(&out);
    Ok(())
}

/// The CRC-32 (IEEE) lookup table.
static CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xedb8_8320 } else { c >> 1 };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

pub(crate) fn crc32_of(s: &[u8]) -> u32 {
    let mut crc: u32 = 0xffff_ffff;
    for &b in s {
        crc = CRC_TABLE[((crc ^ b as u32) & 0xff) as usize] ^ (crc >> 8);
    }
    crc ^ 0xffff_ffff
}

pub fn crc32(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "crc32", a, 1, 1)?;
    let s = args::string(vm, "crc32", 1, "string", &a[0])?;
    *r = Zval::long(crc32_of(&s) as i64);
    Ok(())
}

pub fn str_getcsv(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_getcsv", a, 1, 4)?;
    let s = args::string(vm, "str_getcsv", 1, "string", &a[0])?;
    let sep = opt_str(vm, "str_getcsv", a, 1, "separator", b",")?;
    let enc = opt_str(vm, "str_getcsv", a, 2, "enclosure", b"\"")?;
    if sep.len() != 1 {
        return Err(value_error(vm, "str_getcsv", 2, "separator", "must be a single character"));
    }
    if enc.len() != 1 {
        return Err(value_error(vm, "str_getcsv", 3, "enclosure", "must be a single character"));
    }
    let (d, q) = (sep[0], enc[0]);
    let arr = ZArray::new();
    let s = s.strip_suffix(b"\n").unwrap_or(&s);
    let s = s.strip_suffix(b"\r").unwrap_or(s);
    let mut field = Vec::new();
    let mut i = 0;
    let mut fields: Vec<Option<Vec<u8>>> = Vec::new();
    if s.is_empty() {
        fields.push(None);
    }
    while i < s.len() {
        // Leading whitespace before an enclosure is skipped.
        let mut j = i;
        while j < s.len() && (s[j] == b' ' || s[j] == b'\t') && s[j] != d {
            j += 1;
        }
        if j < s.len() && s[j] == q {
            j += 1;
            loop {
                if j >= s.len() {
                    break;
                }
                if s[j] == q {
                    if j + 1 < s.len() && s[j + 1] == q {
                        field.push(q);
                        j += 2;
                        continue;
                    }
                    j += 1;
                    break;
                }
                field.push(s[j]);
                j += 1;
            }
            while j < s.len() && s[j] != d {
                field.push(s[j]);
                j += 1;
            }
        } else {
            j = i;
            while j < s.len() && s[j] != d {
                field.push(s[j]);
                j += 1;
            }
        }
        fields.push(Some(std::mem::take(&mut field)));
        if j < s.len() && s[j] == d {
            j += 1;
            if j == s.len() {
                fields.push(Some(Vec::new()));
            }
        }
        i = j;
    }
    // SAFETY: `arr` is new and unshared.
    unsafe {
        for f in fields {
            (*arr).append(match f {
                Some(b) => ret_str(&b),
                None => Zval::NULL,
            });
        }
    }
    *r = Zval::array(arr);
    Ok(())
}

pub fn dirname(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "dirname", a, 1, 2)?;
    let s = args::string(vm, "dirname", 1, "path", &a[0])?;
    let levels = opt_long(vm, "dirname", a, 1, "levels", 1)?;
    if levels < 1 {
        return Err(value_error(vm, "dirname", 2, "levels", "must be greater than or equal to 1"));
    }
    let mut p = s;
    for _ in 0..levels {
        let mut end = p.len();
        while end > 1 && p[end - 1] == b'/' {
            end -= 1;
        }
        let cut = p[..end].iter().rposition(|&c| c == b'/');
        p = match cut {
            None => b".".to_vec(),
            Some(0) => b"/".to_vec(),
            Some(i) => {
                let mut e = i;
                while e > 1 && p[e - 1] == b'/' {
                    e -= 1;
                }
                p[..e].to_vec()
            }
        };
        if p == b"." || p == b"/" {
            break;
        }
    }
    *r = ret_str(&p);
    Ok(())
}

pub fn basename(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "basename", a, 1, 2)?;
    let s = args::string(vm, "basename", 1, "path", &a[0])?;
    let suffix = opt_str(vm, "basename", a, 1, "suffix", b"")?;
    let mut end = s.len();
    while end > 0 && s[end - 1] == b'/' {
        end -= 1;
    }
    let start = s[..end].iter().rposition(|&c| c == b'/').map(|i| i + 1).unwrap_or(0);
    let mut b = &s[start..end];
    if !suffix.is_empty() && b.len() > suffix.len() && b.ends_with(&suffix) {
        b = &b[..b.len() - suffix.len()];
    }
    *r = ret_str(b);
    Ok(())
}

pub fn lcg_value(_vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    *r = Zval::double(super::math::random_f64());
    Ok(())
}

pub fn str_shuffle(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "str_shuffle", a, 1, 1)?;
    let mut s = args::string(vm, "str_shuffle", 1, "string", &a[0])?;
    let n = s.len();
    for i in (1..n).rev() {
        let j = super::math::random_range(0, i as i64) as usize;
        s.swap(i, j);
    }
    *r = ret_str(&s);
    Ok(())
}

/// `metaphone()` (ext/standard/metaphone.c, traditional mode).
fn metaphone_of(word: &[u8], max: usize) -> Vec<u8> {
    let at = |i: isize| -> u8 { if i < 0 { 0 } else { word.get(i as usize).copied().unwrap_or(0).to_ascii_uppercase() } };
    let code = |c: u8| -> u8 {
        const CODES: [u8; 26] = [1, 16, 4, 16, 9, 2, 4, 16, 9, 2, 0, 2, 2, 2, 1, 4, 0, 2, 4, 4, 1, 0, 0, 0, 8, 0];
        if c.is_ascii_alphabetic() { CODES[(c.to_ascii_uppercase() - b'A') as usize] } else { 0 }
    };
    let is_vowel = |c: u8| code(c) & 1 != 0;
    let affect_h = |c: u8| code(c) & 4 != 0;
    let make_soft = |c: u8| code(c) & 8 != 0;
    let no_gh_to_f = |c: u8| code(c) & 16 != 0;
    // Lookahead stops at the end of the C string.
    let ahead = |w: isize, n: isize| -> u8 {
        let mut k = 0;
        while k < n && at(w + k) != 0 {
            k += 1;
        }
        at(w + k)
    };
    let mut out = Vec::new();
    let mut w: isize = 0;
    while !at(w).is_ascii_alphabetic() {
        if at(w) == 0 {
            return out;
        }
        w += 1;
    }
    let next = |w: isize| at(w + 1);
    let after_next = |w: isize| if at(w + 1) != 0 { at(w + 2) } else { 0 };
    match at(w) {
        b'A' => {
            if next(w) == b'E' {
                out.push(b'E');
                w += 2;
            } else {
                out.push(b'A');
                w += 1;
            }
        }
        b'G' | b'K' | b'P' => {
            if next(w) == b'N' {
                out.push(b'N');
                w += 2;
            }
        }
        b'W' => {
            if next(w) == b'R' {
                out.push(b'R');
                w += 2;
            } else if next(w) == b'H' || is_vowel(next(w)) {
                out.push(b'W');
                w += 2;
            }
        }
        b'X' => {
            out.push(b'S');
            w += 1;
        }
        c @ (b'E' | b'I' | b'O' | b'U') => {
            out.push(c);
            w += 1;
        }
        _ => {}
    }
    while at(w) != 0 && (max == 0 || out.len() < max) {
        let c = at(w);
        let mut skip = 0;
        let prev = at(w - 1);
        if !c.is_ascii_alphabetic() || (c == prev && c != b'C') {
            w += 1;
            continue;
        }
        match c {
            b'B' => {
                if prev != b'M' {
                    out.push(b'B');
                }
            }
            b'C' => {
                if make_soft(next(w)) {
                    if after_next(w) == b'A' && next(w) == b'I' {
                        out.push(b'X');
                    } else if prev != b'S' {
                        out.push(b'S');
                    }
                } else if next(w) == b'H' {
                    out.push(b'X');
                    skip += 1;
                } else {
                    out.push(b'K');
                }
            }
            b'D' => {
                if next(w) == b'G' && make_soft(after_next(w)) {
                    out.push(b'J');
                    skip += 1;
                } else {
                    out.push(b'T');
                }
            }
            b'G' => {
                if next(w) == b'H' {
                    if !(no_gh_to_f(at(w - 3)) || at(w - 4) == b'H') {
                        out.push(b'F');
                        skip += 1;
                    }
                } else if next(w) == b'N' {
                    let an = after_next(w);
                    if !an.is_ascii_alphabetic() || (an == b'E' && ahead(w, 3) == b'D') {
                    } else {
                        out.push(b'K');
                    }
                } else if make_soft(next(w)) && prev != b'G' {
                    out.push(b'J');
                } else {
                    out.push(b'K');
                }
            }
            b'H' => {
                if is_vowel(next(w)) && !affect_h(prev) {
                    out.push(b'H');
                }
            }
            b'K' => {
                if prev != b'C' {
                    out.push(b'K');
                }
            }
            b'P' => out.push(if next(w) == b'H' { b'F' } else { b'P' }),
            b'Q' => out.push(b'K'),
            b'S' => {
                if next(w) == b'I' && (after_next(w) == b'O' || after_next(w) == b'A') {
                    out.push(b'X');
                } else if next(w) == b'H' {
                    out.push(b'X');
                    skip += 1;
                } else {
                    out.push(b'S');
                }
            }
            b'T' => {
                if next(w) == b'I' && (after_next(w) == b'O' || after_next(w) == b'A') {
                    out.push(b'X');
                } else if next(w) == b'H' {
                    out.push(b'0');
                    skip += 1;
                } else if !(next(w) == b'C' && after_next(w) == b'H') {
                    out.push(b'T');
                }
            }
            b'V' => out.push(b'F'),
            b'W' => {
                if is_vowel(next(w)) {
                    out.push(b'W');
                }
            }
            b'X' => out.extend_from_slice(b"KS"),
            b'Y' => {
                if is_vowel(next(w)) {
                    out.push(b'Y');
                }
            }
            b'Z' => out.push(b'S'),
            b'F' | b'J' | b'L' | b'M' | b'N' | b'R' => out.push(c),
            _ => {}
        }
        w += skip + 1;
    }
    out
}

pub fn metaphone(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "metaphone", a, 1, 2)?;
    let s = args::string(vm, "metaphone", 1, "string", &a[0])?;
    let max = opt_long(vm, "metaphone", a, 1, "max_phonemes", 0)?;
    if max < 0 {
        return Err(value_error(vm, "metaphone", 2, "max_phonemes", "must be greater than or equal to 0"));
    }
    *r = ret_str(&metaphone_of(&s, max.min(i32::MAX as i64) as usize));
    Ok(())
}

thread_local! {
    /// strtok()'s string and position.
    static STRTOK: std::cell::RefCell<(Vec<u8>, usize)> = const { std::cell::RefCell::new((Vec::new(), 0)) };
}

pub fn strtok(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "strtok", a, 1, 2)?;
    let first = args::string(vm, "strtok", 1, "string", &a[0])?;
    let token = if a.len() == 2 {
        let t = match a[1].deref().kind() {
            crate::value::IS_NULL => None,
            _ => Some(args::string(vm, "strtok", 2, "token", &a[1])?),
        };
        match t {
            Some(t) => {
                STRTOK.with(|s| *s.borrow_mut() = (first, 0));
                t
            }
            None => first,
        }
    } else {
        first
    };
    *r = STRTOK.with(|st| {
        let mut st = st.borrow_mut();
        let (s, pos) = &mut *st;
        let mut p = *pos;
        while p < s.len() && token.contains(&s[p]) {
            p += 1;
        }
        if p >= s.len() {
            *pos = s.len();
            return Zval::FALSE;
        }
        let start = p;
        while p < s.len() && !token.contains(&s[p]) {
            p += 1;
        }
        let v = ret_str(&s[start..p]);
        *pos = (p + 1).min(s.len());
        if p >= s.len() {
            *pos = s.len();
        }
        v
    });
    Ok(())
}
