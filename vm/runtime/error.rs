//! Diagnostics levels, pending exceptions and why a script stopped.


use crate::exec::{Frame, Vm};

pub const E_ERROR: i64 = 1;
pub const E_WARNING: i64 = 2;
pub const E_PARSE: i64 = 4;
pub const E_NOTICE: i64 = 8;
pub const E_COMPILE_ERROR: i64 = 64;
pub const E_DEPRECATED: i64 = 8192;
pub const E_ALL: i64 = 32767;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Fatal,
    Warning,
    Notice,
    Deprecated,
    Parse,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::Fatal => "Fatal error",
            Level::Warning => "Warning",
            Level::Notice => "Notice",
            Level::Deprecated => "Deprecated",
            Level::Parse => "Parse error",
        }
    }
    pub fn bit(self) -> i64 {
        match self {
            Level::Fatal => E_ERROR,
            Level::Warning => E_WARNING,
            Level::Notice => E_NOTICE,
            Level::Deprecated => E_DEPRECATED,
            Level::Parse => E_PARSE,
        }
    }
}

/// A thrown PHP exception: one owned reference to a Throwable object.
#[derive(Debug)]
pub struct Exception(pub *mut crate::value::object::ZObject);

impl Exception {
    /// Takes ownership of one reference to `o`.
    pub fn new(o: *mut crate::value::object::ZObject) -> Exception {
        Exception(o)
    }
    /// Gives up the reference as a value (the caller owns it).
    pub fn into_value(self) -> crate::value::Zval {
        let v = crate::value::Zval::object(self.0);
        core::mem::forget(self);
        v
    }
    /// The raw pointer, giving up ownership (see `from_raw`).
    pub fn into_raw(self) -> *mut crate::value::object::ZObject {
        let p = self.0;
        core::mem::forget(self);
        p
    }
    /// # Safety
    /// `p` came from `into_raw` (one owned reference).
    pub unsafe fn from_raw(p: *mut crate::value::object::ZObject) -> Exception {
        Exception(p)
    }
    pub fn class(&self) -> &crate::runtime::class::Class {
        // SAFETY: the exception owns a reference to a live object.
        unsafe { crate::value::object::ZObject::class(self.0) }
    }
}

impl Drop for Exception {
    fn drop(&mut self) {
        // SAFETY: the exception owns one reference.
        unsafe { crate::value::Zval::object(self.0).ptr_dtor() };
    }
}

/// Why a run ended before its end.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    Fatal(String),
    Exit(i32),
    Cancelled,
}

/// The calls in progress as PHP's trace array (`getTrace()`): per frame
/// `file`, `line` (absent when a builtin made the call), `function`,
/// `class` and `type` for methods, `args`.
pub fn backtrace_array(vm: &Vm) -> crate::value::Zval {
    /// Sets string key `k` of `a` (which copies the key).
    unsafe fn put(a: *mut crate::value::ZArray, k: &[u8], v: crate::value::Zval) {
        let key = crate::value::ZString::new(k);
        (*a).update_str(key, v);
        crate::value::Zval::string(key).ptr_dtor();
    }
    use crate::value::{ZArray, ZString, Zval};
    let out = ZArray::new();
    let str_val = |b: &[u8]| Zval::string(ZString::new(b));
    // SAFETY: `vm.cur` and its `prev` chain are live running frames.
    unsafe {
        let mut f: *mut Frame = vm.cur;
        while !f.is_null() {
            let prev = (*f).prev;
            if prev.is_null() || (*f).func.is_null() {
                break;
            }
            let func = &*(*f).func;
            let pf = (*prev).func;
            let fr = ZArray::new();
            if !pf.is_null() && (*pf).is_user() && !(*prev).opline.is_null() {
                put(fr, b"file", str_val((*pf).op.filename.as_bytes()));
                put(fr, b"line", Zval::long((*(*prev).opline).lineno as i64));
            } else if pf.is_null() || (*pf).is_user() {
                Zval::array(fr).ptr_dtor();
                f = prev;
                continue;
            }
            // The name the function was called by (a trait alias, say).
            let fname = if (*f).entry.is_null() { func.name() } else { (*(*f).entry).name() };
            put(fr, b"function", str_val(fname));
            let scope = if (*f).entry.is_null() { core::ptr::null() } else { (*(*f).entry).scope };
            if !scope.is_null() {
                put(fr, b"class", str_val(&(*scope).name));
                let ty: &[u8] = if (*f).this_obj().is_null() { b"::" } else { b"->" };
                put(fr, b"type", str_val(ty));
            }
            let args = ZArray::new();
            let n = (*f).num_args();
            let declared = if func.is_user() { func.op.num_args.min(n) } else { n };
            for i in 0..declared {
                let v = &*Frame::slot(f, i);
                (*args).append(if v.is_undef() { Zval::NULL } else { v.copy_deref() });
            }
            if func.is_user() && n > func.op.num_args {
                let (p, extra) = crate::exec::slow::call::extra_args(f);
                for i in 0..extra as usize {
                    (*args).append((*p.add(i)).copy_deref());
                }
            }
            put(fr, b"args", Zval::array(args));
            (*out).append(Zval::array(fr));
            f = prev;
        }
    }
    Zval::array(out)
}

/// One argument as PHP's trace prints it.
pub fn trace_arg(v: &crate::value::Zval) -> String {
    use crate::value::*;
    let v = v.deref();
    match v.kind() {
        IS_NULL | IS_UNDEF => "NULL".into(),
        IS_FALSE => "false".into(),
        IS_TRUE => "true".into(),
        IS_LONG => v.lval().to_string(),
        IS_DOUBLE => {
            let mut b = Vec::new();
            number::fmt_repr(v.dval(), &mut b);
            String::from_utf8_lossy(&b).into_owned()
        }
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let b = unsafe { (*v.str()).bytes() };
            let shown = &b[..b.len().min(15)];
            format!("'{}{}'", escaped(shown), if b.len() > 15 { "..." } else { "" })
        }
        IS_ARRAY => "Array".into(),
        // SAFETY: object-kind values hold a live object.
        IS_OBJECT => format!("Object({})", unsafe { crate::value::object::ZObject::class(v.obj()).name_str() }),
        _ => "Object".into(),
    }
}

/// `smart_str_append_escaped`: control bytes, backslashes and bytes above
/// 126 as `\n`-style or `\xHH` escapes (trace arguments).
pub fn escaped(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for &c in b {
        if c >= 32 && c != b'\\' && c <= 126 {
            out.push(c as char);
            continue;
        }
        out.push('\\');
        match c {
            b'\n' => out.push('n'),
            b'\r' => out.push('r'),
            b'\t' => out.push('t'),
            0x0c => out.push('f'),
            0x0b => out.push('v'),
            b'\\' => out.push('\\'),
            0x1b => out.push('e'),
            _ => out.push_str(&format!("x{c:02X}")),
        }
    }
    out
}
