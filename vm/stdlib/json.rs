//! ext/json: json_encode, json_decode, json_last_error(_msg).
//! Objects (and decoding to stdClass) arrive with classes.

use std::cell::Cell;

use super::args;
use crate::exec::{Thrown, Vm};
use crate::value::{number, KeyRef, ZArray, ZString, Zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE};

type R = Result<(), Thrown>;

const HEX_TAG: i64 = 1;
const HEX_AMP: i64 = 2;
const HEX_APOS: i64 = 4;
const HEX_QUOT: i64 = 8;
const FORCE_OBJECT: i64 = 16;
const NUMERIC_CHECK: i64 = 32;
const UNESCAPED_SLASHES: i64 = 64;
const PRETTY_PRINT: i64 = 128;
const UNESCAPED_UNICODE: i64 = 256;
const PARTIAL_OUTPUT_ON_ERROR: i64 = 512;
const PRESERVE_ZERO_FRACTION: i64 = 1024;
const UNESCAPED_LINE_TERMINATORS: i64 = 2048;
const OBJECT_AS_ARRAY: i64 = 1;
const BIGINT_AS_STRING: i64 = 2;
const INVALID_UTF8_IGNORE: i64 = 1048576;
const INVALID_UTF8_SUBSTITUTE: i64 = 2097152;
const THROW_ON_ERROR: i64 = 4194304;

thread_local! {
    /// `JSON_G(error_code)` of this thread's last json_encode/json_decode.
    static LAST_ERROR: Cell<i64> = const { Cell::new(0) };
}

fn error_msg(code: i64) -> &'static str {
    match code {
        0 => "No error",
        1 => "Maximum stack depth exceeded",
        2 => "State mismatch (invalid or malformed JSON)",
        3 => "Control character error, possibly incorrectly encoded",
        4 => "Syntax error",
        5 => "Malformed UTF-8 characters, possibly incorrectly encoded",
        6 => "Recursion detected",
        7 => "Inf and NaN cannot be JSON encoded",
        8 => "Type is not supported",
        9 => "The decoded property name is invalid",
        10 => "Single unpaired UTF-16 surrogate in unicode escape",
        11 => "Non-backed enums have no default serialization",
        _ => "Unknown error",
    }
}

struct Encoder {
    vm: *mut Vm,
    flags: i64,
    depth: i64,
    max_depth: i64,
    error: i64,
}

impl Encoder {
    fn pretty_nl(&self, out: &mut Vec<u8>) {
        if self.flags & PRETTY_PRINT != 0 {
            out.push(b'\n');
            for _ in 0..self.depth {
                out.extend_from_slice(b"    ");
            }
        }
    }

    fn value(&mut self, v: &Zval, out: &mut Vec<u8>) {
        let v = v.deref();
        match v.kind() {
            IS_NULL => out.extend_from_slice(b"null"),
            IS_TRUE => out.extend_from_slice(b"true"),
            IS_FALSE => out.extend_from_slice(b"false"),
            IS_LONG => number::push_i64(v.lval(), out),
            IS_DOUBLE => self.double(v.dval(), out),
            // SAFETY: string-kind values hold a live string.
            IS_STRING => self.string(unsafe { (*v.str()).bytes() }, out),
            IS_ARRAY => self.array(v.arr(), out),
            // SAFETY: object-kind values hold a live object.
            crate::value::IS_OBJECT if unsafe { (*(*v.obj()).class).flags } & crate::runtime::class::CLASS_ENUM != 0 => {
                // An enum case encodes as its backing value.
                // SAFETY: as above.
                let p = unsafe { crate::runtime::builtin_classes::prop_slot(v.obj(), b"value") };
                if p.is_null() {
                    self.error = 11;
                    out.extend_from_slice(b"0");
                } else {
                    // SAFETY: a declared property slot of a live object.
                    let b = unsafe { (*p).copy_value() };
                    self.value(&b, out);
                    // SAFETY: `b` is our copy.
                    unsafe { b.ptr_dtor() };
                }
            }
            crate::value::IS_OBJECT => unsafe { self.object(v.obj(), out) },
            _ => {
                self.error = 8;
                out.extend_from_slice(b"null");
            }
        }
    }

    /// An object: `jsonSerialize()`'s value for a JsonSerializable, else
    /// its public properties as a JSON object.
    unsafe fn object(&mut self, o: *mut crate::value::object::ZObject, out: &mut Vec<u8>) {
        use crate::value::object::ZObject;
        let c = ZObject::class(o);
        if c.is_subclass_of_name(b"jsonserializable") {
            let Some(m) = c.find_method(b"jsonserialize") else { return };
            let vm = &mut *self.vm;
            if vm.exception.is_some() {
                return;
            }
            (*o).header.refcount += 1;
            let r = crate::exec::slow::object::call_method(vm, o, m, &[]);
            Zval::object(o).ptr_dtor();
            match r {
                Ok(v) => {
                    self.value(&v, out);
                    v.ptr_dtor();
                }
                Err(_) => out.extend_from_slice(b"null"),
            }
            return;
        }
        let a = ZArray::new();
        for p in crate::value::print::object_props(o) {
            if p.val.is_undef() || !matches!(p.vis, crate::value::print::Vis::Public) {
                continue;
            }
            match p.key {
                crate::value::print::PropKey::Int(i) => {
                    (*a).update_int(i, p.val.copy_value());
                }
                crate::value::print::PropKey::Str(n) => super::array::insert_bytes_key(&mut *a, n, p.val.copy_value()),
            }
        }
        if !crate::value::print::enter_object(o) {
            self.error = 6;
            out.extend_from_slice(b"null");
            Zval::array(a).ptr_dtor();
            return;
        }
        if (*a).is_empty() {
            out.extend_from_slice(b"{}");
        } else {
            self.array_inner(a, out, true);
        }
        crate::value::print::leave_object(o);
        Zval::array(a).ptr_dtor();
    }

    fn double(&mut self, d: f64, out: &mut Vec<u8>) {
        if !d.is_finite() {
            self.error = 7;
            out.push(b'0');
            return;
        }
        let start = out.len();
        number::fmt_repr(d, out);
        for c in &mut out[start..] {
            if *c == b'E' {
                *c = b'e';
            }
        }
        if self.flags & PRESERVE_ZERO_FRACTION != 0 && !out[start..].iter().any(|&c| c == b'.' || c == b'e') {
            out.extend_from_slice(b".0");
        }
    }

    fn string(&mut self, s: &[u8], out: &mut Vec<u8>) {
        if s.is_empty() {
            out.extend_from_slice(b"\"\"");
            return;
        }
        if self.flags & NUMERIC_CHECK != 0 {
            match crate::value::convert::is_numeric_str(s) {
                Some(crate::value::convert::Number::Int(i)) => {
                    number::push_i64(i, out);
                    return;
                }
                Some(crate::value::convert::Number::Float(d)) => {
                    self.double(d, out);
                    return;
                }
                None => {}
            }
        }
        let start = out.len();
        out.push(b'"');
        let mut i = 0;
        while i < s.len() {
            let c = s[i];
            if c >= 0x80 {
                let (cp, len) = match decode_utf8(&s[i..]) {
                    Some(x) => x,
                    None => {
                        if self.flags & INVALID_UTF8_IGNORE != 0 {
                            i += 1;
                            continue;
                        }
                        if self.flags & INVALID_UTF8_SUBSTITUTE != 0 {
                            if self.flags & UNESCAPED_UNICODE != 0 {
                                out.extend_from_slice("\u{fffd}".as_bytes());
                            } else {
                                out.extend_from_slice(b"\\ufffd");
                            }
                            i += 1;
                            continue;
                        }
                        self.error = 5;
                        out.truncate(start);
                        out.extend_from_slice(b"null");
                        return;
                    }
                };
                let line_term = cp == 0x2028 || cp == 0x2029;
                if self.flags & UNESCAPED_UNICODE != 0 && !(line_term && self.flags & UNESCAPED_LINE_TERMINATORS == 0) {
                    out.extend_from_slice(&s[i..i + len]);
                } else if cp >= 0x10000 {
                    let v = cp - 0x10000;
                    out.extend_from_slice(format!("\\u{:04x}\\u{:04x}", 0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff)).as_bytes());
                } else {
                    out.extend_from_slice(format!("\\u{:04x}", cp).as_bytes());
                }
                i += len;
                continue;
            }
            match c {
                b'"' if self.flags & HEX_QUOT != 0 => out.extend_from_slice(b"\\u0022"),
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'/' if self.flags & UNESCAPED_SLASHES == 0 => out.extend_from_slice(b"\\/"),
                8 => out.extend_from_slice(b"\\b"),
                12 => out.extend_from_slice(b"\\f"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'<' if self.flags & HEX_TAG != 0 => out.extend_from_slice(b"\\u003C"),
                b'>' if self.flags & HEX_TAG != 0 => out.extend_from_slice(b"\\u003E"),
                b'&' if self.flags & HEX_AMP != 0 => out.extend_from_slice(b"\\u0026"),
                b'\'' if self.flags & HEX_APOS != 0 => out.extend_from_slice(b"\\u0027"),
                c if c < 0x20 => out.extend_from_slice(format!("\\u{:04x}", c).as_bytes()),
                c => out.push(c),
            }
            i += 1;
        }
        out.push(b'"');
    }

    fn array(&mut self, a: *mut ZArray, out: &mut Vec<u8>) {
        self.array_inner(a, out, false)
    }

    /// `as_object`: the properties of an object (nested arrays keep the
    /// caller's FORCE_OBJECT choice).
    fn array_inner(&mut self, a: *mut ZArray, out: &mut Vec<u8>, as_object: bool) {
        // SAFETY: `a` is a live array held by the value being encoded.
        let arr = unsafe { &*a };
        let is_list = !as_object && self.flags & FORCE_OBJECT == 0 && arr.iter().enumerate().all(|(i, (k, _))| matches!(k, KeyRef::Int(x) if x == i as i64));
        if arr.is_empty() {
            out.extend_from_slice(if is_list { b"[]" } else { b"{}" });
            return;
        }
        // SAFETY: paired with leave_recursion below.
        if !unsafe { ZArray::enter_recursion(a) } {
            self.error = 6;
            out.extend_from_slice(b"null");
            return;
        }
        if self.depth >= self.max_depth || self.depth >= 10_000 {
            // Deeper levels are not walked: the result is an error anyway.
            self.error = 1;
            out.extend_from_slice(b"null");
            // SAFETY: entered above.
            unsafe { ZArray::leave_recursion(a) };
            return;
        }
        self.depth += 1;
        out.push(if is_list { b'[' } else { b'{' });
        let mut first = true;
        for (k, v) in arr.iter() {
            if !first {
                out.push(b',');
            }
            first = false;
            self.pretty_nl(out);
            if !is_list {
                match k {
                    KeyRef::Int(i) => {
                        out.push(b'"');
                        number::push_i64(i, out);
                        out.push(b'"');
                    }
                    KeyRef::Str(s) => {
                        let saved = self.flags;
                        self.flags &= !NUMERIC_CHECK;
                        self.string(s.bytes(), out);
                        self.flags = saved;
                    }
                }
                out.push(b':');
                if self.flags & PRETTY_PRINT != 0 {
                    out.push(b' ');
                }
            }
            self.value(v, out);
        }
        self.depth -= 1;
        self.pretty_nl(out);
        out.push(if is_list { b']' } else { b'}' });
        // SAFETY: entered above.
        unsafe { ZArray::leave_recursion(a) };
    }
}

/// One UTF-8 sequence: (code point, length), None when malformed.
fn decode_utf8(s: &[u8]) -> Option<(u32, usize)> {
    let c = s[0];
    let (len, min, init) = match c {
        0xc2..=0xdf => (2, 0x80, (c & 0x1f) as u32),
        0xe0..=0xef => (3, 0x800, (c & 0x0f) as u32),
        0xf0..=0xf4 => (4, 0x10000, (c & 0x07) as u32),
        _ => return None,
    };
    if s.len() < len {
        return None;
    }
    let mut cp = init;
    for &b in &s[1..len] {
        if b & 0xc0 != 0x80 {
            return None;
        }
        cp = (cp << 6) | (b & 0x3f) as u32;
    }
    if cp < min || cp > 0x10ffff || (0xd800..=0xdfff).contains(&cp) {
        return None;
    }
    Some((cp, len))
}

fn json_error(vm: &mut Vm, code: i64, throw: bool) -> Result<(), Thrown> {
    if throw {
        return Err(vm.throw_error("JsonException", error_msg(code)));
    }
    LAST_ERROR.with(|e| e.set(code));
    Ok(())
}

pub fn json_encode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "json_encode", a, 1, 3)?;
    let flags = match a.get(1) {
        Some(v) => args::long(vm, "json_encode", 2, "flags", v)?,
        None => 0,
    };
    let depth = match a.get(2) {
        Some(v) => args::long(vm, "json_encode", 3, "depth", v)?,
        None => 512,
    };
    if depth <= 0 {
        return Err(vm.throw_error("ValueError", "json_encode(): Argument #3 ($depth) must be greater than 0"));
    }
    let mut enc = Encoder { vm, flags, depth: 0, max_depth: depth, error: 0 };
    let mut out = Vec::new();
    enc.value(&a[0], &mut out);
    let throw = flags & THROW_ON_ERROR != 0;
    if !throw {
        LAST_ERROR.with(|e| e.set(0));
    }
    if enc.error != 0 {
        if flags & PARTIAL_OUTPUT_ON_ERROR != 0 && !throw {
            LAST_ERROR.with(|e| e.set(enc.error));
            *r = Zval::string(ZString::new(&out));
            return Ok(());
        }
        json_error(vm, enc.error, throw)?;
        *r = Zval::FALSE;
        return Ok(());
    }
    *r = Zval::string(ZString::new(&out));
    Ok(())
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    assoc: bool,
    bigint_string: bool,
    max_depth: i64,
    error: i64,
    objects_unsupported: bool,
    /// Makes stdClass objects for JSON objects when not `assoc`.
    vm: *mut Vm,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && matches!(self.s[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn fail(&mut self, code: i64) -> Option<Zval> {
        if self.error == 0 {
            self.error = code;
        }
        None
    }

    fn value(&mut self, depth: i64) -> Option<Zval> {
        self.ws();
        let Some(&c) = self.s.get(self.pos) else { return self.fail(4) };
        match c {
            b'{' | b'[' => {
                // The parser recurses per level: deeper than 10000 counts as
                // too deep whatever $depth says.
                if depth >= 10_000 {
                    // PHP's parser stack overflows as a syntax error.
                    return self.fail(4);
                }
                if depth >= self.max_depth {
                    return self.fail(1);
                }
                self.pos += 1;
                let obj = c == b'{';
                // PHP's parser makes the object once its first member is
                // parsed (or at `}` when empty): handles follow that order.
                let mut pre: *mut crate::value::object::ZObject = core::ptr::null_mut();
                let want_obj = obj && !self.assoc;
                let arr = ZArray::new();
                let close = if obj { b'}' } else { b']' };
                self.ws();
                if self.s.get(self.pos) == Some(&close) {
                    self.pos += 1;
                    if want_obj {
                        pre = self.new_object();
                    }
                    return Some(self.finish(arr, pre));
                }
                loop {
                    self.ws();
                    let key = if obj {
                        if self.s.get(self.pos) != Some(&b'"') {
                            self.drop_partial(arr, pre);
                            return self.fail(4);
                        }
                        let Some(k) = self.string() else {
                            self.drop_partial(arr, pre);
                            return None;
                        };
                        self.ws();
                        if self.s.get(self.pos) != Some(&b':') {
                            self.drop_partial(arr, pre);
                            return self.fail(4);
                        }
                        self.pos += 1;
                        Some(k)
                    } else {
                        None
                    };
                    let Some(v) = self.value(depth + 1) else {
                        self.drop_partial(arr, pre);
                        return None;
                    };
                    if want_obj && pre.is_null() {
                        pre = self.new_object();
                    }
                    // SAFETY: `arr` is new and unshared.
                    unsafe {
                        match key {
                            // A property table keeps numeric names as strings.
                            Some(k) if want_obj => {
                                let ks = ZString::new(&k);
                                (*arr).update_str(ks, v);
                                Zval::string(ks).ptr_dtor();
                            }
                            Some(k) => super::array::insert_bytes_key(&mut *arr, &k, v),
                            None => {
                                (*arr).append(v);
                            }
                        }
                    }
                    self.ws();
                    match self.s.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(&x) if x == close => {
                            self.pos += 1;
                            return Some(self.finish(arr, pre));
                        }
                        _ => {
                            self.drop_partial(arr, pre);
                            return self.fail(4);
                        }
                    }
                }
            }
            b'"' => {
                let s = self.string()?;
                Some(Zval::string(ZString::new(&s)))
            }
            b't' if self.s[self.pos..].starts_with(b"true") => {
                self.pos += 4;
                Some(Zval::TRUE)
            }
            b'f' if self.s[self.pos..].starts_with(b"false") => {
                self.pos += 5;
                Some(Zval::FALSE)
            }
            b'n' if self.s[self.pos..].starts_with(b"null") => {
                self.pos += 4;
                Some(Zval::NULL)
            }
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.fail(4),
        }
    }

    /// A new stdClass for a JSON object (null if it can't be made).
    fn new_object(&mut self) -> *mut crate::value::object::ZObject {
        // SAFETY: the context outlives the builtin call; stdClass is bound.
        unsafe {
            let vm = &mut *self.vm;
            match crate::runtime::classes::find_class(vm, b"stdclass") {
                Some(c) => crate::exec::slow::object::instantiate(vm, c).unwrap_or(core::ptr::null_mut()),
                None => core::ptr::null_mut(),
            }
        }
    }

    /// A decoded JSON object or array: the array, or the object `pre` made
    /// for it with the members as its properties.
    fn finish(&mut self, arr: *mut ZArray, pre: *mut crate::value::object::ZObject) -> Zval {
        if pre.is_null() {
            return Zval::array(arr);
        }
        // SAFETY: `pre` is the new object made for this JSON object, owned here.
        unsafe {
            (*pre).dynamic = arr;
        }
        Zval::object(pre)
    }

    /// Frees what a failed JSON object or array had built.
    fn drop_partial(&mut self, arr: *mut ZArray, pre: *mut crate::value::object::ZObject) {
        // SAFETY: both are owned here.
        unsafe {
            Zval::array(arr).ptr_dtor();
            if !pre.is_null() {
                Zval::object(pre).ptr_dtor();
            }
        }
    }

    fn number(&mut self) -> Option<Zval> {
        let start = self.pos;
        let s = self.s;
        let mut p = self.pos;
        if s.get(p) == Some(&b'-') {
            p += 1;
        }
        match s.get(p) {
            Some(b'0') => p += 1,
            Some(b'1'..=b'9') => {
                while s.get(p).is_some_and(|c| c.is_ascii_digit()) {
                    p += 1;
                }
            }
            _ => return self.fail(4),
        }
        let mut is_float = false;
        if s.get(p) == Some(&b'.') {
            p += 1;
            if !s.get(p).is_some_and(|c| c.is_ascii_digit()) {
                return self.fail(4);
            }
            while s.get(p).is_some_and(|c| c.is_ascii_digit()) {
                p += 1;
            }
            is_float = true;
        }
        if matches!(s.get(p), Some(b'e' | b'E')) {
            p += 1;
            if matches!(s.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if !s.get(p).is_some_and(|c| c.is_ascii_digit()) {
                return self.fail(4);
            }
            while s.get(p).is_some_and(|c| c.is_ascii_digit()) {
                p += 1;
            }
            is_float = true;
        }
        self.pos = p;
        let text = std::str::from_utf8(&s[start..p]).ok()?;
        if !is_float {
            if let Ok(i) = text.parse::<i64>() {
                return Some(Zval::long(i));
            }
            if self.bigint_string {
                return Some(Zval::string(ZString::new(text.as_bytes())));
            }
        }
        text.parse::<f64>().ok().map(Zval::double)
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.s.get(self.pos..self.pos + 4)?;
        let v = u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()?;
        self.pos += 4;
        Some(v)
    }

    fn string(&mut self) -> Option<Vec<u8>> {
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.pos) else {
                self.fail(4);
                return None;
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.pos += 1;
                    let Some(&e) = self.s.get(self.pos) else {
                        self.fail(4);
                        return None;
                    };
                    self.pos += 1;
                    match e {
                        b'"' => out.push(b'"'),
                        b'\\' => out.push(b'\\'),
                        b'/' => out.push(b'/'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let Some(mut cp) = self.hex4() else {
                                self.fail(4);
                                return None;
                            };
                            if (0xd800..0xdc00).contains(&cp) {
                                if self.s.get(self.pos..self.pos + 2) == Some(b"\\u") {
                                    self.pos += 2;
                                    let Some(lo) = self.hex4() else {
                                        self.fail(4);
                                        return None;
                                    };
                                    if !(0xdc00..0xe000).contains(&lo) {
                                        self.fail(10);
                                        return None;
                                    }
                                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                                } else {
                                    self.fail(10);
                                    return None;
                                }
                            } else if (0xdc00..0xe000).contains(&cp) {
                                self.fail(10);
                                return None;
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => {
                            self.fail(4);
                            return None;
                        }
                    }
                }
                c if c < 0x20 => {
                    self.fail(3);
                    return None;
                }
                c if c >= 0x80 => match decode_utf8(&self.s[self.pos..]) {
                    Some((_, len)) => {
                        out.extend_from_slice(&self.s[self.pos..self.pos + len]);
                        self.pos += len;
                    }
                    None => {
                        self.fail(5);
                        return None;
                    }
                },
                c => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
    }
}

pub fn json_decode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "json_decode", a, 1, 4)?;
    let s = args::string(vm, "json_decode", 1, "json", &a[0])?;
    let assoc = match a.get(1) {
        Some(v) if v.deref().kind() != IS_NULL => Some(args::boolean(vm, "json_decode", 2, "associative", v)?),
        _ => None,
    };
    let depth = match a.get(2) {
        Some(v) => args::long(vm, "json_decode", 3, "depth", v)?,
        None => 512,
    };
    let flags = match a.get(3) {
        Some(v) => args::long(vm, "json_decode", 4, "flags", v)?,
        None => 0,
    };
    if depth <= 0 {
        return Err(vm.throw_error("ValueError", "json_decode(): Argument #3 ($depth) must be greater than 0"));
    }
    if depth > i32::MAX as i64 {
        return Err(vm.throw_error("ValueError", "json_decode(): Argument #3 ($depth) must be less than 2147483647"));
    }
    let throw = flags & THROW_ON_ERROR != 0;
    if !throw {
        LAST_ERROR.with(|e| e.set(0));
    }
    if s.is_empty() {
        json_error(vm, 4, throw)?;
        *r = Zval::NULL;
        return Ok(());
    }
    let assoc = assoc.unwrap_or(flags & OBJECT_AS_ARRAY != 0);
    let mut p = Parser { s: &s, pos: 0, assoc, bigint_string: flags & BIGINT_AS_STRING != 0, max_depth: depth, error: 0, objects_unsupported: false, vm };
    let v = p.value(0);
    p.ws();
    match v {
        Some(v) if p.pos == s.len() => {
            *r = v;
            Ok(())
        }
        v => {
            if let Some(v) = v {
                // SAFETY: `v` is owned.
                unsafe { v.ptr_dtor() };
            }
            if p.objects_unsupported {
                vm.fatal_internal("json_decode() into objects is not supported yet (pass true as argument #2)");
                return Err(Thrown);
            }
            let code = if p.error == 0 { 4 } else { p.error };
            json_error(vm, code, throw)?;
            *r = Zval::NULL;
            Ok(())
        }
    }
}

pub fn json_last_error(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "json_last_error", a, 0, 0)?;
    *r = Zval::long(LAST_ERROR.with(|e| e.get()));
    Ok(())
}

pub fn json_last_error_msg(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "json_last_error_msg", a, 0, 0)?;
    *r = Zval::string(ZString::new(error_msg(LAST_ERROR.with(|e| e.get())).as_bytes()));
    Ok(())
}
