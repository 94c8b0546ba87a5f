//! ext/standard array functions.

use super::callback::{self, Callable};
use super::{args, set_ref};
use crate::exec::{Thrown, Vm};
use crate::value::{compare, convert, KeyRef, ZArray, ZString, Zval, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE};

type R = Result<(), Thrown>;

// ---- small helpers --------------------------------------------------------

/// `$a[k] = v` for a key read from another array (takes `v`).
pub(crate) fn insert_keyref(a: &mut ZArray, k: KeyRef<'_>, v: Zval) {
    match k {
        KeyRef::Int(i) => {
            a.update_int(i, v);
        }
        KeyRef::Str(s) => {
            a.update_str(s as *const ZString as *mut ZString, v);
        }
    }
}

/// The key as a PHP value (a new owner).
pub(crate) fn key_zval(k: KeyRef<'_>) -> Zval {
    match k {
        KeyRef::Int(i) => Zval::long(i),
        KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
    }
}

/// `zend_symtable_update` with a byte-string key ("12" becomes 12).
pub(crate) fn insert_bytes_key(a: &mut ZArray, k: &[u8], v: Zval) {
    if let Some(i) = crate::value::string::numeric_index(k) {
        a.update_int(i, v);
        return;
    }
    let s = ZString::new(k);
    a.update_str(s, v);
    // SAFETY: `s` is ours; the array took its own owner if it kept it.
    unsafe { Zval::string(s).ptr_dtor() };
}

/// A value used as an array key, as array_flip/array_combine/array_column
/// do it: ints stay, everything else by its string form.
fn insert_value_key(a: &mut ZArray, k: &Zval, v: Zval) {
    let k = k.deref();
    match k.kind() {
        IS_LONG => {
            a.update_int(k.lval(), v);
        }
        _ => {
            let mut b = Vec::new();
            convert::append_string(k, &mut b);
            insert_bytes_key(a, &b, v);
        }
    }
}

fn arr_ref<'a>(p: *mut ZArray) -> &'a ZArray {
    // SAFETY: callers pass arrays kept alive by their arguments.
    unsafe { &*p }
}

fn new_array() -> (*mut ZArray, &'static mut ZArray) {
    let p = ZArray::new();
    // SAFETY: a new array, uniquely owned until it is returned.
    (p, unsafe { &mut *p })
}

/// The array behind a by-reference argument, separated for writing.
fn ref_array(vm: &mut Vm, name: &str, n: usize, param: &str, arg: &Zval) -> Result<*mut ZArray, Thrown> {
    let inner: *mut Zval = if arg.is_reference() {
        // SAFETY: a reference-kind value holds a live reference box.
        unsafe { &mut (*arg.zref()).val as *mut Zval }
    } else {
        return Err(vm.throw_error("Error", &format!("{}(): Argument #{} (${}) cannot be passed by reference", name, n, param)));
    };
    // SAFETY: `inner` is the live slot of the reference.
    unsafe {
        if !(*inner).is_array() {
            let msg = format!("{}(): Argument #{} (${}) must be of type array, {} given", name, n, param, super::type_name(&*inner));
            return Err(vm.throw_error("TypeError", &msg));
        }
        Ok(ZArray::separate(inner))
    }
}

/// Replaces the array behind a by-reference argument.
fn replace_ref_array(arg: &Zval, new: *mut ZArray) {
    set_ref(arg, Zval::array(new));
}

fn entries(a: &ZArray) -> Vec<(KeyRef<'_>, Zval)> {
    a.iter().map(|(k, v)| (k, *v)).collect()
}

// ---- counting, keys, values -------------------------------------------------

pub fn count(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "count", a, 1, 2)?;
    let v = a[0].deref();
    if !v.is_array() {
        *r = count_value(vm, v)?;
        return Ok(());
    }
    let recursive = match a.get(1) {
        Some(m) => {
            let m = args::long(vm, "count", 2, "mode", m)?;
            if m != 0 && m != 1 {
                return Err(vm.throw_error("ValueError", "count(): Argument #2 ($mode) must be either COUNT_NORMAL or COUNT_RECURSIVE"));
            }
            m == 1
        }
        None => false,
    };
    // SAFETY: the argument keeps the array alive.
    let n = unsafe { if recursive { count_recursive(v.arr()) } else { (*v.arr()).len() as i64 } };
    *r = Zval::long(n);
    Ok(())
}

/// `count()` of a non-array: a Countable object's `count()` as an int, or
/// PHP's TypeError.
pub fn count_value(vm: &mut Vm, v: &Zval) -> Result<Zval, Thrown> {
    let v = v.deref();
    if v.is_object() {
        let o = v.obj();
        // SAFETY: an object-kind value holds a live object (kept alive by the caller).
        unsafe {
            let c = (*o).class;
            if (*c).is_subclass_of_name(b"countable") {
                if let Some(m) = (*c).find_method(b"count") {
                    let n = crate::exec::slow::object::call_method(vm, o, m, &[])?;
                    let i = crate::value::convert::to_long(&n);
                    n.ptr_dtor();
                    return Ok(Zval::long(i));
                }
            }
            let msg = format!("count(): Argument #1 ($value) must be of type Countable|array, {} given", (*c).name_str());
            return Err(vm.throw_error("TypeError", &msg));
        }
    }
    let msg = format!("count(): Argument #1 ($value) must be of type Countable|array, {} given", super::type_name(v));
    Err(vm.throw_error("TypeError", &msg))
}

unsafe fn count_recursive(a: *mut ZArray) -> i64 {
    let mut n = 0;
    if !ZArray::enter_recursion(a) {
        return 0;
    }
    for (_, v) in (*a).iter() {
        n += 1;
        let v = v.deref();
        if v.is_array() {
            n += count_recursive(v.arr());
        }
    }
    ZArray::leave_recursion(a);
    n
}

pub fn array_keys(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_keys", a, 1, 3)?;
    let arr = args::array(vm, "array_keys", 1, "array", &a[0])?;
    let strict = match a.get(2) {
        Some(v) => args::boolean(vm, "array_keys", 3, "strict", v)?,
        None => false,
    };
    let (p, out) = new_array();
    for (k, v) in arr_ref(arr).iter() {
        if let Some(s) = a.get(1) {
            let eq = if strict { compare::is_identical(v, s) } else { compare::is_equal(v, s) };
            if !eq {
                continue;
            }
        }
        out.append(key_zval(k));
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_values(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_values", a, 1, 1)?;
    let arr = args::array(vm, "array_values", 1, "array", &a[0])?;
    let (p, out) = new_array();
    for (_, v) in arr_ref(arr).iter() {
        out.append(v.copy_deref());
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_key_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_key_exists", a, 2, 2)?;
    let arr = args::array(vm, "array_key_exists", 2, "array", &a[1])?;
    let k = a[0].deref();
    let a = arr_ref(arr);
    let found = match k.kind() {
        IS_LONG => a.find_int(k.lval()).is_some(),
        // SAFETY: string-kind values hold a live string.
        IS_STRING => match unsafe { (*k.str()).numeric_index() } {
            Some(i) => a.find_int(i).is_some(),
            None => a.find_bytes(unsafe { (*k.str()).bytes() }).is_some(),
        },
        IS_NULL => a.find_bytes(b"").is_some(),
        IS_FALSE => a.find_int(0).is_some(),
        IS_TRUE => a.find_int(1).is_some(),
        IS_DOUBLE => a.find_int(convert::dval_to_lval(k.dval())).is_some(),
        _ => {
            return Err(vm.throw_error("TypeError", "array_key_exists(): Argument #1 ($key) must be a valid array offset type"));
        }
    };
    *r = Zval::bool(found);
    Ok(())
}

fn search(vm: &mut Vm, name: &str, a: &[Zval]) -> Result<Option<Zval>, Thrown> {
    args::count(vm, name, a, 2, 3)?;
    let arr = args::array(vm, name, 2, "haystack", &a[1])?;
    let strict = match a.get(2) {
        Some(v) => args::boolean(vm, name, 3, "strict", v)?,
        None => false,
    };
    let needle = a[0].deref();
    for (k, v) in arr_ref(arr).iter() {
        let eq = if strict { compare::is_identical(v, needle) } else { compare::is_equal(v, needle) };
        if eq {
            return Ok(Some(key_zval(k)));
        }
    }
    Ok(None)
}

pub fn in_array(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let f = search(vm, "in_array", a)?;
    *r = Zval::bool(f.is_some());
    if let Some(k) = f {
        // SAFETY: `k` is owned.
        unsafe { k.ptr_dtor() };
    }
    Ok(())
}

pub fn array_search(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    *r = search(vm, "array_search", a)?.unwrap_or(Zval::FALSE);
    Ok(())
}

pub fn array_key_first(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_key_first", a, 1, 1)?;
    let arr = args::array(vm, "array_key_first", 1, "array", &a[0])?;
    *r = arr_ref(arr).iter().next().map(|(k, _)| key_zval(k)).unwrap_or(Zval::NULL);
    Ok(())
}

pub fn array_key_last(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_key_last", a, 1, 1)?;
    let arr = args::array(vm, "array_key_last", 1, "array", &a[0])?;
    *r = arr_ref(arr).iter().last().map(|(k, _)| key_zval(k)).unwrap_or(Zval::NULL);
    Ok(())
}

pub fn array_is_list(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_is_list", a, 1, 1)?;
    let arr = args::array(vm, "array_is_list", 1, "array", &a[0])?;
    let ok = arr_ref(arr).iter().enumerate().all(|(i, (k, _))| matches!(k, KeyRef::Int(x) if x == i as i64));
    *r = Zval::bool(ok);
    Ok(())
}

// ---- stack and queue ---------------------------------------------------------

pub fn array_push(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_push", a, 1, usize::MAX)?;
    let arr = ref_array(vm, "array_push", 1, "array", &a[0])?;
    // SAFETY: separated above.
    let out = unsafe { &mut *arr };
    for v in &a[1..] {
        if out.append(v.copy_deref()).is_none() {
            return Err(vm.throw_error("Error", "Cannot add element to the array as the next element is already occupied"));
        }
    }
    *r = Zval::long(out.len() as i64);
    Ok(())
}

pub fn array_pop(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_pop", a, 1, 1)?;
    let arr = ref_array(vm, "array_pop", 1, "array", &a[0])?;
    // SAFETY: separated above.
    let out = unsafe { &mut *arr };
    let last = out.iter().last().map(|(k, v)| (match k { KeyRef::Int(i) => Ok(i), KeyRef::Str(s) => Err(s as *const ZString as *mut ZString) }, v.copy_deref()));
    let Some((k, v)) = last else {
        return Ok(());
    };
    match k {
        Ok(i) => {
            out.remove_int(i);
            if i == out.next_free_element() - 1 {
                out.set_next_free_element(i);
            }
        }
        Err(s) => {
            // SAFETY: the key string lives while the element does.
            out.remove_str(unsafe { &*s });
        }
    }
    *r = v;
    Ok(())
}

/// Rebuilds `src` with integer keys renumbered from 0 (string keys kept).
fn renumbered(src: &ZArray, skip_first: usize, prepend: &[Zval]) -> *mut ZArray {
    let (p, out) = new_array();
    for v in prepend {
        out.append(v.copy_deref());
    }
    for (k, v) in src.iter().skip(skip_first) {
        match k {
            KeyRef::Int(_) => {
                out.append(v.copy_value());
            }
            KeyRef::Str(_) => insert_keyref(out, k, v.copy_value()),
        }
    }
    p
}

pub fn array_shift(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_shift", a, 1, 1)?;
    let arr = ref_array(vm, "array_shift", 1, "array", &a[0])?;
    let src = arr_ref(arr);
    let Some((_, first)) = src.iter().next() else {
        return Ok(());
    };
    *r = first.copy_deref();
    let n = renumbered(src, 1, &[]);
    replace_ref_array(&a[0], n);
    Ok(())
}

pub fn array_unshift(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_unshift", a, 1, usize::MAX)?;
    let arr = ref_array(vm, "array_unshift", 1, "array", &a[0])?;
    let n = renumbered(arr_ref(arr), 0, &a[1..]);
    *r = Zval::long(arr_ref(n).len() as i64);
    replace_ref_array(&a[0], n);
    Ok(())
}

// ---- building arrays -------------------------------------------------------------

fn arrays_from(vm: &mut Vm, name: &str, a: &[Zval], first: usize) -> Result<Vec<*mut ZArray>, Thrown> {
    let mut v = Vec::with_capacity(a.len());
    for (i, x) in a.iter().enumerate().skip(first) {
        let d = x.deref();
        if !d.is_array() {
            let msg = format!("{}(): Argument #{} must be of type array, {} given", name, i + 1, super::type_name(d));
            return Err(vm.throw_error("TypeError", &msg));
        }
        v.push(d.arr());
    }
    Ok(v)
}

pub fn array_merge(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let arrs = arrays_from(vm, "array_merge", a, 0)?;
    let (p, out) = new_array();
    for arr in arrs {
        for (k, v) in arr_ref(arr).iter() {
            let v = if v.is_reference() && unsafe { (*v.zref()).header.refcount } == 1 { v.copy_deref() } else { v.copy_value() };
            match k {
                KeyRef::Int(_) => {
                    out.append(v);
                }
                KeyRef::Str(_) => insert_keyref(out, k, v),
            }
        }
    }
    *r = Zval::array(p);
    Ok(())
}

unsafe fn merge_recursive(vm: &mut Vm, dest: &mut ZArray, src: &ZArray) -> R {
    for (k, v) in src.iter() {
        match k {
            KeyRef::Int(_) => {
                dest.append(v.copy_deref());
            }
            KeyRef::Str(s) => {
                if let Some(slot) = dest.find_str(s) {
                    // Both have the key: merge into an array.
                    let slot = (*slot).deref_mut() as *mut Zval;
                    if !(*slot).is_array() {
                        let old = *slot;
                        let na = ZArray::new();
                        (*na).append(old);
                        *slot = Zval::array(na);
                    }
                    let da = ZArray::separate(slot);
                    let v = v.deref();
                    if v.is_array() {
                        if !ZArray::enter_recursion(v.arr()) {
                            return Err(vm.throw_error("Error", "Recursion detected"));
                        }
                        let res = merge_recursive(vm, &mut *da, &*v.arr());
                        ZArray::leave_recursion(v.arr());
                        res?;
                    } else {
                        (*da).append(v.copy_value());
                    }
                } else {
                    insert_keyref(dest, k, v.copy_deref());
                }
            }
        }
    }
    Ok(())
}

pub fn array_merge_recursive(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let arrs = arrays_from(vm, "array_merge_recursive", a, 0)?;
    let (p, out) = new_array();
    for arr in arrs {
        // SAFETY: the arguments keep the arrays alive; `out` is new.
        if let Err(t) = unsafe { merge_recursive(vm, out, arr_ref(arr)) } {
            // SAFETY: `p` is ours.
            unsafe { Zval::array(p).ptr_dtor() };
            return Err(t);
        }
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_replace(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_replace", a, 1, usize::MAX)?;
    let arrs = arrays_from(vm, "array_replace", a, 0)?;
    // SAFETY: the first argument keeps its array alive.
    let p = unsafe { ZArray::dup(arrs[0]) };
    for arr in &arrs[1..] {
        for (k, v) in arr_ref(*arr).iter() {
            // SAFETY: `p` is new and unshared.
            insert_keyref(unsafe { &mut *p }, k, v.copy_deref());
        }
    }
    *r = Zval::array(p);
    Ok(())
}

unsafe fn replace_recursive(dest: &mut ZArray, src: &ZArray) {
    for (k, v) in src.iter() {
        let v = v.deref();
        let existing = match k {
            KeyRef::Int(i) => dest.find_int(i),
            KeyRef::Str(s) => dest.find_str(s),
        };
        match existing {
            Some(slot) if v.is_array() && (*slot).deref().is_array() => {
                let slot = (*slot).deref_mut() as *mut Zval;
                let da = ZArray::separate(slot);
                if !ZArray::enter_recursion(v.arr()) {
                    continue;
                }
                replace_recursive(&mut *da, &*v.arr());
                ZArray::leave_recursion(v.arr());
            }
            _ => insert_keyref(dest, k, v.copy_value()),
        }
    }
}

pub fn array_replace_recursive(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_replace_recursive", a, 1, usize::MAX)?;
    let arrs = arrays_from(vm, "array_replace_recursive", a, 0)?;
    // SAFETY: the arguments keep their arrays alive; `p` is new.
    unsafe {
        let p = ZArray::dup(arrs[0]);
        for arr in &arrs[1..] {
            replace_recursive(&mut *p, arr_ref(*arr));
        }
        *r = Zval::array(p);
    }
    Ok(())
}

pub fn array_combine(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_combine", a, 2, 2)?;
    let ks = args::array(vm, "array_combine", 1, "keys", &a[0])?;
    let vs = args::array(vm, "array_combine", 2, "values", &a[1])?;
    if arr_ref(ks).len() != arr_ref(vs).len() {
        return Err(vm.throw_error("ValueError", "array_combine(): Argument #1 ($keys) and argument #2 ($values) must have the same number of elements"));
    }
    let (p, out) = new_array();
    for ((_, k), (_, v)) in arr_ref(ks).iter().zip(arr_ref(vs).iter()) {
        insert_value_key(out, k, v.copy_deref());
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_fill(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_fill", a, 3, 3)?;
    let start = args::long(vm, "array_fill", 1, "start_index", &a[0])?;
    let n = args::long(vm, "array_fill", 2, "count", &a[1])?;
    if n < 0 {
        return Err(vm.throw_error("ValueError", "array_fill(): Argument #2 ($count) must be greater than or equal to 0"));
    }
    if n as u64 >= (1u64 << 31) {
        return Err(vm.throw_error("ValueError", "array_fill(): Argument #2 ($count) is too large"));
    }
    if n as usize > vm.memory_limit / 16 {
        vm.memory_exhausted(n as usize * 16);
        return Err(Thrown);
    }
    let (p, out) = new_array();
    for i in 0..n {
        out.update_int(start.wrapping_add(i), a[2].copy_deref());
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_fill_keys(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_fill_keys", a, 2, 2)?;
    let ks = args::array(vm, "array_fill_keys", 1, "keys", &a[0])?;
    let (p, out) = new_array();
    for (_, k) in arr_ref(ks).iter() {
        insert_value_key(out, k, a[1].copy_deref());
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_flip(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_flip", a, 1, 1)?;
    let arr = args::array(vm, "array_flip", 1, "array", &a[0])?;
    let (p, out) = new_array();
    for (k, v) in arr_ref(arr).iter() {
        let v = v.deref();
        match v.kind() {
            IS_LONG => {
                out.update_int(v.lval(), key_zval(k));
            }
            // SAFETY: string-kind values hold a live string.
            IS_STRING => insert_bytes_key(out, unsafe { (*v.str()).bytes() }, key_zval(k)),
            _ => vm.warning("array_flip(): Can only flip string and integer values, entry skipped"),
        }
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_pad(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_pad", a, 3, 3)?;
    let arr = args::array(vm, "array_pad", 1, "array", &a[0])?;
    let size = args::long(vm, "array_pad", 2, "length", &a[1])?;
    let src = arr_ref(arr);
    let n = src.len() as i64;
    let want = size.unsigned_abs();
    if want > n as u64 && want - n as u64 > 1048576 {
        return Err(vm.throw_error("ValueError", "array_pad(): Argument #2 ($length) must be less than or equal to 1048576"));
    }
    if want as i64 <= n {
        *r = a[0].copy_deref();
        return Ok(());
    }
    let pad = want as i64 - n;
    let (p, out) = new_array();
    if size < 0 {
        for _ in 0..pad {
            out.append(a[2].copy_deref());
        }
    }
    for (k, v) in src.iter() {
        match k {
            KeyRef::Int(_) => {
                out.append(v.copy_value());
            }
            KeyRef::Str(_) => insert_keyref(out, k, v.copy_value()),
        }
    }
    if size > 0 {
        for _ in 0..pad {
            out.append(a[2].copy_deref());
        }
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_chunk(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_chunk", a, 2, 3)?;
    let arr = args::array(vm, "array_chunk", 1, "array", &a[0])?;
    let size = args::long(vm, "array_chunk", 2, "length", &a[1])?;
    let keep = match a.get(2) {
        Some(v) => args::boolean(vm, "array_chunk", 3, "preserve_keys", v)?,
        None => false,
    };
    if size < 1 {
        return Err(vm.throw_error("ValueError", "array_chunk(): Argument #2 ($length) must be greater than 0"));
    }
    let (p, out) = new_array();
    let mut cur: Option<*mut ZArray> = None;
    for (k, v) in arr_ref(arr).iter() {
        let c = *cur.get_or_insert_with(ZArray::new);
        // SAFETY: `c` is a new chunk we own.
        let ca = unsafe { &mut *c };
        if keep {
            insert_keyref(ca, k, v.copy_deref());
        } else {
            ca.append(v.copy_deref());
        }
        if ca.len() as i64 == size {
            out.append(Zval::array(c));
            cur = None;
        }
    }
    if let Some(c) = cur {
        out.append(Zval::array(c));
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_slice(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_slice", a, 2, 4)?;
    let arr = args::array(vm, "array_slice", 1, "array", &a[0])?;
    let off = args::long(vm, "array_slice", 2, "offset", &a[1])?;
    let len = match a.get(2) {
        Some(v) if v.deref().kind() != IS_NULL => Some(args::long(vm, "array_slice", 3, "length", v)?),
        _ => None,
    };
    let keep = match a.get(3) {
        Some(v) => args::boolean(vm, "array_slice", 4, "preserve_keys", v)?,
        None => false,
    };
    let src = arr_ref(arr);
    let n = src.len() as i64;
    let (start, count) = slice_range(n, off, len);
    let (p, out) = new_array();
    for (k, v) in src.iter().skip(start as usize).take(count as usize) {
        let v = v.copy_deref();
        match k {
            KeyRef::Int(_) if !keep => {
                out.append(v);
            }
            _ => insert_keyref(out, k, v),
        }
    }
    *r = Zval::array(p);
    Ok(())
}

/// Offset and length of array_slice/array_splice, clamped: (start, count).
fn slice_range(n: i64, off: i64, len: Option<i64>) -> (i64, i64) {
    let mut off = off;
    if off > n {
        return (n, 0);
    }
    if off < 0 {
        off = (n + off).max(0);
    }
    let mut len = len.unwrap_or(n);
    if len < 0 {
        len = (n - off + len).max(0);
    } else if off + len > n {
        len = n - off;
    }
    (off, len.max(0))
}

pub fn array_splice(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_splice", a, 2, 4)?;
    let arr = ref_array(vm, "array_splice", 1, "array", &a[0])?;
    let off = args::long(vm, "array_splice", 2, "offset", &a[1])?;
    let len = match a.get(2) {
        Some(v) if v.deref().kind() != IS_NULL => Some(args::long(vm, "array_splice", 3, "length", v)?),
        _ => None,
    };
    let repl: Vec<Zval> = match a.get(3).map(|v| v.deref()) {
        // SAFETY: the argument keeps the array alive.
        Some(v) if v.is_array() => unsafe { (*v.arr()).iter().map(|(_, x)| *x).collect() },
        Some(v) => vec![*v],
        None => Vec::new(),
    };
    let src = arr_ref(arr);
    let n = src.len() as i64;
    let (start, count) = slice_range(n, off, len);
    let (rp, removed) = new_array();
    let (np, out) = new_array();
    for (i, (k, v)) in src.iter().enumerate() {
        let i = i as i64;
        if i == start {
            for x in &repl {
                out.append(x.copy_deref());
            }
        }
        let target = if i >= start && i < start + count { &mut *removed } else { &mut *out };
        match k {
            KeyRef::Int(_) => {
                target.append(v.copy_value());
            }
            KeyRef::Str(_) => insert_keyref(target, k, v.copy_value()),
        }
    }
    if start >= n {
        for x in &repl {
            out.append(x.copy_deref());
        }
    }
    replace_ref_array(&a[0], np);
    *r = Zval::array(rp);
    Ok(())
}

pub fn array_reverse(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_reverse", a, 1, 2)?;
    let arr = args::array(vm, "array_reverse", 1, "array", &a[0])?;
    let keep = match a.get(1) {
        Some(v) => args::boolean(vm, "array_reverse", 2, "preserve_keys", v)?,
        None => false,
    };
    let list = entries(arr_ref(arr));
    let (p, out) = new_array();
    for (k, v) in list.into_iter().rev() {
        match k {
            KeyRef::Int(_) if !keep => {
                out.append(v.copy_value());
            }
            _ => insert_keyref(out, k, v.copy_value()),
        }
    }
    *r = Zval::array(p);
    Ok(())
}

/// array_sum/array_product's operand: a number, or None to skip it.
fn as_number(v: &Zval) -> Option<Zval> {
    let v = v.deref();
    Some(match v.kind() {
        IS_LONG | IS_DOUBLE => *v,
        IS_NULL | IS_FALSE => Zval::long(0),
        IS_TRUE => Zval::long(1),
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            match convert::parse_numeric(unsafe { (*v.str()).bytes() }) {
                convert::NumericParse::Numeric(n) | convert::NumericParse::Leading(n) => match n {
                    convert::Number::Int(i) => Zval::long(i),
                    convert::Number::Float(d) => Zval::double(d),
                },
                convert::NumericParse::None => Zval::long(0),
            }
        }
        _ => return None,
    })
}

/// array_sum / array_product: `op` over the numeric values, from `start`.
fn fold_numbers(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, start: i64, op: crate::ops::Opcode) -> R {
    args::count(vm, name, a, 1, 1)?;
    let arr = args::array(vm, name, 1, "array", &a[0])?;
    let mut acc = Zval::long(start);
    for (_, v) in arr_ref(arr).iter() {
        if let Some(n) = as_number(v) {
            acc = crate::exec::slow::arith::apply(vm, op, &acc, &n)?;
        }
    }
    *r = acc;
    Ok(())
}

pub fn array_sum(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    fold_numbers(vm, "array_sum", a, r, 0, crate::ops::Opcode::Add)
}

pub fn array_product(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    fold_numbers(vm, "array_product", a, r, 1, crate::ops::Opcode::Mul)
}

pub fn array_count_values(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_count_values", a, 1, 1)?;
    let arr = args::array(vm, "array_count_values", 1, "array", &a[0])?;
    let (p, out) = new_array();
    for (_, v) in arr_ref(arr).iter() {
        let v = v.deref();
        let slot = match v.kind() {
            IS_LONG => out.lookup_int_ex(v.lval()),
            IS_STRING => {
                // SAFETY: string-kind values hold a live string.
                match unsafe { (*v.str()).numeric_index() } {
                    Some(i) => out.lookup_int_ex(i),
                    None => out.lookup_str_ex(v.str()),
                }
            }
            _ => {
                vm.warning("array_count_values(): Can only count string and integer values, entry skipped");
                continue;
            }
        };
        // SAFETY: the slot was just returned by the array.
        unsafe {
            let z = slot.0;
            *z = Zval::long(if slot.1 { 1 } else { (*z).lval() + 1 });
        }
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_change_key_case(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_change_key_case", a, 1, 2)?;
    let arr = args::array(vm, "array_change_key_case", 1, "array", &a[0])?;
    let upper = match a.get(1) {
        Some(v) => args::long(vm, "array_change_key_case", 2, "case", v)? != 0,
        None => false,
    };
    let (p, out) = new_array();
    for (k, v) in arr_ref(arr).iter() {
        match k {
            KeyRef::Int(i) => {
                out.update_int(i, v.copy_value());
            }
            KeyRef::Str(s) => {
                let b = if upper { s.bytes().to_ascii_uppercase() } else { s.bytes().to_ascii_lowercase() };
                insert_bytes_key(out, &b, v.copy_value());
            }
        }
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_column(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_column", a, 2, 3)?;
    let arr = args::array(vm, "array_column", 1, "array", &a[0])?;
    let col = *a[1].deref();
    let idx = a.get(2).map(|v| *v.deref()).filter(|v| v.kind() != IS_NULL);
    let fetch = |row: &ZArray, k: &Zval| -> Option<Zval> {
        let k = k.deref();
        let found = match k.kind() {
            IS_LONG => row.find_int(k.lval()),
            // SAFETY: string-kind values hold a live string.
            IS_STRING => match unsafe { (*k.str()).numeric_index() } {
                Some(i) => row.find_int(i),
                None => row.find_bytes(unsafe { (*k.str()).bytes() }),
            },
            _ => None,
        };
        // SAFETY: slots returned by find are live.
        found.map(|z| unsafe { *(*z).deref() })
    };
    let (p, out) = new_array();
    for (_, row) in arr_ref(arr).iter() {
        let row = row.deref();
        if row.is_object() {
            // Objects give their public properties (`array_column` on objects).
            // SAFETY: object-kind values hold a live object.
            let (val, key) = unsafe { (object_column(row, &col), idx.as_ref().and_then(|i| object_column(row, i))) };
            let Some(val) = val else { continue };
            let val = val.copy_value();
            match key {
                Some(k) if matches!(k.kind(), IS_LONG | IS_STRING) => insert_value_key(out, &k, val),
                _ => {
                    out.append(val);
                }
            }
            continue;
        }
        if !row.is_array() {
            continue;
        }
        let row = arr_ref(row.arr());
        let val = if col.kind() == IS_NULL { Some(Zval::array(row as *const ZArray as *mut ZArray)) } else { fetch(row, &col) };
        let Some(val) = val else { continue };
        let val = val.copy_value();
        match idx.as_ref().and_then(|i| fetch(row, i)) {
            Some(k) if matches!(k.kind(), IS_LONG | IS_STRING) => insert_value_key(out, &k, val),
            _ => {
                out.append(val);
            }
        }
    }
    *r = Zval::array(p);
    Ok(())
}

/// Column `k` of an object row: the object itself for a null column, else
/// a public, initialized property (declared or dynamic). Borrowed.
unsafe fn object_column(row: &Zval, k: &Zval) -> Option<Zval> {
    use crate::value::object::ZObject;
    let k = k.deref();
    if k.kind() == IS_NULL {
        return Some(*row);
    }
    let o = row.obj();
    let name: Vec<u8> = match k.kind() {
        IS_STRING => (*k.str()).bytes().to_vec(),
        IS_LONG => k.lval().to_string().into_bytes(),
        _ => return None,
    };
    let c = ZObject::class(o);
    if let Some(pi) = c.find_prop(&name) {
        if pi.flags & crate::runtime::class::ACC_PUBLIC == 0 {
            return None;
        }
        let v = &*ZObject::slot(o, pi.slot);
        return if v.is_undef() { None } else { Some(*v.deref()) };
    }
    let d = (*o).dynamic;
    if d.is_null() {
        return None;
    }
    (*d).find_bytes(&name).map(|z| *(*z).deref())
}

// ---- set operations --------------------------------------------------------------

fn str_of(v: &Zval) -> Vec<u8> {
    let mut b = Vec::new();
    convert::append_string(v.deref(), &mut b);
    b
}

/// String conversion with PHP's "Array to string conversion" warning.
fn str_of_w(vm: &mut Vm, v: &Zval) -> Vec<u8> {
    let mut b = Vec::new();
    crate::exec::slow::arith::to_string_into(vm, v, &mut b);
    b
}

fn key_eq(a: KeyRef<'_>, b: KeyRef<'_>) -> bool {
    match (a, b) {
        (KeyRef::Int(x), KeyRef::Int(y)) => x == y,
        (KeyRef::Str(x), KeyRef::Str(y)) => x.bytes() == y.bytes(),
        _ => false,
    }
}

fn has_key(arr: &ZArray, k: KeyRef<'_>) -> Option<*mut Zval> {
    match k {
        KeyRef::Int(i) => arr.find_int(i),
        KeyRef::Str(s) => arr.find_str(s),
    }
}

/// What the set operations compare: values as strings, keys, or both.
#[derive(Clone, Copy, PartialEq)]
enum SetBy {
    Value,
    Key,
    Assoc,
}

fn set_op(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, by: SetBy, intersect: bool, vcb: Option<Callable>, kcb: Option<Callable>, nargs: usize) -> R {
    let arrs = arrays_from(vm, name, &a[..nargs], 0)?;
    let first = arr_ref(arrs[0]);
    let others: Vec<&ZArray> = arrs[1..].iter().map(|&p| arr_ref(p)).collect();
    // String sets of the other arrays' values for plain value comparison.
    let value_sets: Vec<std::collections::HashSet<Vec<u8>>> =
        if by == SetBy::Value && vcb.is_none() { others.iter().map(|o| o.iter().map(|(_, v)| str_of_w(vm, v)).collect()).collect() } else { Vec::new() };
    let (p, out) = new_array();
    for (k, v) in first.iter() {
        let vs = if vcb.is_none() { str_of_w(vm, v) } else { Vec::new() };
        let mut in_all = true;
        let mut in_any = false;
        for (oi, o) in others.iter().enumerate() {
            let found = match by {
                SetBy::Value => match vcb {
                    None => value_sets[oi].contains(&vs),
                    Some(cb) => {
                        let mut f = false;
                        for (_, ov) in o.iter() {
                            let res = cb.call(vm, &[*v, *ov])?;
                            let n = convert::to_long(&res);
                            // SAFETY: `res` is owned.
                            unsafe { res.ptr_dtor() };
                            if n == 0 {
                                f = true;
                                break;
                            }
                        }
                        f
                    }
                },
                SetBy::Key | SetBy::Assoc => {
                    let slot = match kcb {
                        None => has_key(o, k),
                        Some(cb) => {
                            let mut f = None;
                            for (ok, ov) in o.iter() {
                                let (kz, okz) = (key_zval(k), key_zval(ok));
                                let res = cb.call(vm, &[kz, okz]);
                                // SAFETY: the key values are owned.
                                unsafe {
                                    kz.ptr_dtor();
                                    okz.ptr_dtor();
                                }
                                let res = res?;
                                let n = convert::to_long(&res);
                                // SAFETY: `res` is owned.
                                unsafe { res.ptr_dtor() };
                                if n == 0 {
                                    f = Some(ov as *const Zval as *mut Zval);
                                    break;
                                }
                            }
                            f
                        }
                    };
                    match slot {
                        None => false,
                        Some(_) if by == SetBy::Key => true,
                        // SAFETY: slots returned by find are live.
                        Some(z) => match vcb {
                            None => str_of(unsafe { &*z }) == vs,
                            Some(cb) => {
                                let res = cb.call(vm, &[*v, unsafe { *z }])?;
                                let n = convert::to_long(&res);
                                // SAFETY: `res` is owned.
                                unsafe { res.ptr_dtor() };
                                n == 0
                            }
                        },
                    }
                }
            };
            in_all &= found;
            in_any |= found;
        }
        let keep = if intersect { in_all } else { !in_any };
        if keep {
            insert_keyref(out, k, v.copy_value());
        }
    }
    let _ = key_eq;
    *r = Zval::array(p);
    Ok(())
}

fn trailing_callbacks(vm: &mut Vm, name: &str, a: &[Zval], n: usize) -> Result<(usize, Vec<Callable>), Thrown> {
    if a.len() < n + 1 {
        let msg = format!("{}() expects at least {} arguments, {} given", name, n + 1, a.len());
        return Err(vm.throw_error("ArgumentCountError", &msg));
    }
    let mut cbs = Vec::new();
    for i in 0..n {
        let idx = a.len() - n + i;
        cbs.push(callback::arg(vm, name, idx + 1, if n == 2 && i == 0 { "value_compare_func" } else { "key_compare_func" }, &a[idx], false)?);
    }
    Ok((a.len() - n, cbs))
}

macro_rules! set_fn {
    ($fn:ident, $name:literal, $by:expr, $inter:expr) => {
        pub fn $fn(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
            args::count(vm, $name, a, 1, usize::MAX)?;
            set_op(vm, $name, a, r, $by, $inter, None, None, a.len())
        }
    };
}

set_fn!(array_diff, "array_diff", SetBy::Value, false);
set_fn!(array_diff_key, "array_diff_key", SetBy::Key, false);
set_fn!(array_diff_assoc, "array_diff_assoc", SetBy::Assoc, false);
set_fn!(array_intersect, "array_intersect", SetBy::Value, true);
set_fn!(array_intersect_key, "array_intersect_key", SetBy::Key, true);
set_fn!(array_intersect_assoc, "array_intersect_assoc", SetBy::Assoc, true);

pub fn array_udiff(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_udiff", a, 1)?;
    set_op(vm, "array_udiff", a, r, SetBy::Value, false, Some(cb[0]), None, n)
}

pub fn array_uintersect(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_uintersect", a, 1)?;
    set_op(vm, "array_uintersect", a, r, SetBy::Value, true, Some(cb[0]), None, n)
}

pub fn array_diff_ukey(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_diff_ukey", a, 1)?;
    set_op(vm, "array_diff_ukey", a, r, SetBy::Key, false, None, Some(cb[0]), n)
}

pub fn array_intersect_ukey(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_intersect_ukey", a, 1)?;
    set_op(vm, "array_intersect_ukey", a, r, SetBy::Key, true, None, Some(cb[0]), n)
}

pub fn array_diff_uassoc(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_diff_uassoc", a, 1)?;
    set_op(vm, "array_diff_uassoc", a, r, SetBy::Assoc, false, None, Some(cb[0]), n)
}

pub fn array_udiff_assoc(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_udiff_assoc", a, 1)?;
    set_op(vm, "array_udiff_assoc", a, r, SetBy::Assoc, false, Some(cb[0]), None, n)
}

pub fn array_uintersect_assoc(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_uintersect_assoc", a, 1)?;
    set_op(vm, "array_uintersect_assoc", a, r, SetBy::Assoc, true, Some(cb[0]), None, n)
}

pub fn array_intersect_uassoc(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let (n, cb) = trailing_callbacks(vm, "array_intersect_uassoc", a, 1)?;
    set_op(vm, "array_intersect_uassoc", a, r, SetBy::Assoc, true, None, Some(cb[0]), n)
}

pub fn array_unique(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_unique", a, 1, 2)?;
    let arr = args::array(vm, "array_unique", 1, "array", &a[0])?;
    let flags = match a.get(1) {
        Some(v) => args::long(vm, "array_unique", 2, "flags", v)?,
        None => 2,
    };
    let src = arr_ref(arr);
    let (p, out) = new_array();
    if flags == 2 {
        let mut seen = std::collections::HashSet::new();
        for (k, v) in src.iter() {
            if seen.insert(str_of_w(vm, v)) {
                insert_keyref(out, k, v.copy_value());
            }
        }
        *r = Zval::array(p);
        return Ok(());
    }
    let list = entries(src);
    let cmp = data_compare(flags);
    let mut idx: Vec<usize> = (0..list.len()).collect();
    zend_sort(&mut idx, &mut |&x: &usize, &y: &usize| {
        let c = cmp(vm, &list[x].1, &list[y].1);
        if c != 0 {
            c
        } else {
            (x as i64 - y as i64).signum() as i32
        }
    });
    let mut keep = vec![true; list.len()];
    if !idx.is_empty() {
        let mut last = idx[0];
        for &c in &idx[1..] {
            if cmp(vm, &list[last].1, &list[c].1) != 0 {
                last = c;
            } else if last > c {
                keep[last] = false;
                last = c;
            } else {
                keep[c] = false;
            }
        }
    }
    for (i, (k, v)) in list.iter().enumerate() {
        if keep[i] {
            insert_keyref(out, *k, v.copy_value());
        }
    }
    *r = Zval::array(p);
    Ok(())
}

// ---- callbacks -----------------------------------------------------------------------

pub fn array_map(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_map", a, 2, usize::MAX)?;
    let cb = if a[0].deref().kind() == IS_NULL { None } else { Some(callback::arg(vm, "array_map", 1, "callback", &a[0], true)?) };
    let mut arrs = Vec::new();
    for (i, x) in a.iter().enumerate().skip(1) {
        let d = x.deref();
        if !d.is_array() {
            let msg = if i == 1 {
                format!("array_map(): Argument #2 ($array) must be of type array, {} given", super::type_name(d))
            } else {
                format!("array_map(): Argument #{} must be of type array, {} given", i + 1, super::type_name(d))
            };
            return Err(vm.throw_error("TypeError", &msg));
        }
        arrs.push(d.arr());
    }
    let (p, out) = new_array();
    let fail = |t: Thrown| {
        // SAFETY: `p` is ours.
        unsafe { Zval::array(p).ptr_dtor() };
        Err(t)
    };
    if arrs.len() == 1 {
        let src = arr_ref(arrs[0]);
        let Some(cb) = cb else {
            *r = a[1].copy_deref();
            // SAFETY: `p` is ours and unused.
            unsafe { Zval::array(p).ptr_dtor() };
            return Ok(());
        };
        // Keep the source alive while callbacks run.
        let hold = a[1].copy_deref();
        for (k, v) in entries(src) {
            match cb.call(vm, &[v]) {
                Ok(res) => insert_keyref(out, k, res),
                Err(t) => {
                    // SAFETY: `hold` is ours.
                    unsafe { hold.ptr_dtor() };
                    return fail(t);
                }
            }
        }
        // SAFETY: `hold` is ours.
        unsafe { hold.ptr_dtor() };
        *r = Zval::array(p);
        return Ok(());
    }
    let lists: Vec<Vec<Zval>> = arrs.iter().map(|&x| arr_ref(x).iter().map(|(_, v)| *v).collect()).collect();
    let maxlen = lists.iter().map(|l| l.len()).max().unwrap_or(0);
    for i in 0..maxlen {
        let row: Vec<Zval> = lists.iter().map(|l| l.get(i).copied().unwrap_or(Zval::NULL)).collect();
        match cb {
            None => {
                let (rp, ra) = new_array();
                for v in &row {
                    ra.append(v.copy_deref());
                }
                out.append(Zval::array(rp));
            }
            Some(cb) => match cb.call(vm, &row) {
                Ok(res) => {
                    out.append(res);
                }
                Err(t) => return fail(t),
            },
        }
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn array_filter(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_filter", a, 1, 3)?;
    let arr = args::array(vm, "array_filter", 1, "array", &a[0])?;
    let cb = match a.get(1) {
        Some(v) if v.deref().kind() != IS_NULL => Some(callback::arg(vm, "array_filter", 2, "callback", v, true)?),
        _ => None,
    };
    let mode = match a.get(2) {
        Some(v) => args::long(vm, "array_filter", 3, "mode", v)?,
        None => 0,
    };
    let hold = a[0].copy_deref();
    let (p, out) = new_array();
    for (k, v) in entries(arr_ref(arr)) {
        let keep = match cb {
            None => convert::to_bool(v.deref()),
            Some(cb) => {
                let kz = key_zval(k);
                let res = match mode {
                    2 => cb.call(vm, &[kz]),
                    1 => cb.call(vm, &[v, kz]),
                    _ => cb.call(vm, &[v]),
                };
                // SAFETY: the key value is owned.
                unsafe { kz.ptr_dtor() };
                match res {
                    Ok(res) => {
                        let b = convert::to_bool(res.deref());
                        // SAFETY: `res` is owned.
                        unsafe { res.ptr_dtor() };
                        b
                    }
                    Err(t) => {
                        // SAFETY: both are ours.
                        unsafe {
                            Zval::array(p).ptr_dtor();
                            hold.ptr_dtor();
                        }
                        return Err(t);
                    }
                }
            }
        };
        if keep {
            insert_keyref(out, k, v.copy_value());
        }
    }
    // SAFETY: `hold` is ours.
    unsafe { hold.ptr_dtor() };
    *r = Zval::array(p);
    Ok(())
}

pub fn array_reduce(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_reduce", a, 2, 3)?;
    let arr = args::array(vm, "array_reduce", 1, "array", &a[0])?;
    let cb = callback::arg(vm, "array_reduce", 2, "callback", &a[1], false)?;
    let mut acc = a.get(2).map(|v| v.copy_deref()).unwrap_or(Zval::NULL);
    let hold = a[0].copy_deref();
    for (_, v) in entries(arr_ref(arr)) {
        let res = cb.call(vm, &[acc, v]);
        // SAFETY: `acc` is owned.
        unsafe { acc.ptr_dtor() };
        match res {
            Ok(x) => acc = x,
            Err(t) => {
                // SAFETY: `hold` is ours.
                unsafe { hold.ptr_dtor() };
                return Err(t);
            }
        }
    }
    // SAFETY: `hold` is ours.
    unsafe { hold.ptr_dtor() };
    *r = acc;
    Ok(())
}

unsafe fn walk(vm: &mut Vm, slot: *mut Zval, cb: Callable, extra: Option<&Zval>, recursive: bool) -> R {
    let mut pos = 0u32;
    loop {
        let inner = (*slot).deref_mut() as *mut Zval;
        if !(*inner).is_array() {
            return Ok(());
        }
        let arr = ZArray::separate(inner);
        let Some(p) = (*arr).pos_valid_from(pos) else { return Ok(()) };
        pos = p + 1;
        let Some((k, z)) = (*arr).entry_at(p) else { continue };
        let kz = key_zval(k);
        if recursive && (*z).deref().is_array() {
            crate::exec::slow::call::make_ref(z);
            let r = (*z).copy_value();
            let inner = (*r.zref()).val.arr();
            if !ZArray::enter_recursion(inner) {
                r.ptr_dtor();
                kz.ptr_dtor();
                return Err(vm.throw_error("Error", "Recursion detected"));
            }
            let res = walk(vm, &r as *const Zval as *mut Zval, cb, extra, true);
            // The walk may have separated the inner array: release the mark
            // on the one it entered if it is still alive through `r`.
            let now = (*r.zref()).val;
            if now.is_array() && now.arr() == inner {
                ZArray::leave_recursion(inner);
            }
            r.ptr_dtor();
            kz.ptr_dtor();
            res?;
            continue;
        }
        if cb.by_ref(0) {
            crate::exec::slow::call::make_ref(z);
        }
        let v = (*z).copy_value();
        let res = match extra {
            Some(e) => cb.call(vm, &[v, kz, *e]),
            None => cb.call(vm, &[v, kz]),
        };
        v.ptr_dtor();
        kz.ptr_dtor();
        res?.ptr_dtor();
    }
}

fn walk_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, recursive: bool) -> R {
    args::count(vm, name, a, 2, 3)?;
    ref_array(vm, name, 1, "array", &a[0])?;
    let cb = callback::arg(vm, name, 2, "callback", &a[1], false)?;
    // SAFETY: `a[0]` is a live reference to an array.
    unsafe { walk(vm, &a[0] as *const Zval as *mut Zval, cb, a.get(2), recursive)? };
    *r = Zval::TRUE;
    Ok(())
}

pub fn array_walk(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    walk_impl(vm, "array_walk", a, r, false)
}

pub fn array_walk_recursive(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    walk_impl(vm, "array_walk_recursive", a, r, true)
}

// ---- sorting -------------------------------------------------------------------

/// `zend_sort`: hybrid insertion sort / quicksort, exactly as Zend orders
/// comparisons (so inconsistent comparators give PHP's results).
pub fn zend_sort<T: Copy>(v: &mut [T], cmp: &mut dyn FnMut(&T, &T) -> i32) {
    let mut base = 0usize;
    let mut n = v.len();
    loop {
        if n <= 16 {
            insert_sort(&mut v[base..base + n], cmp);
            return;
        }
        let start = base;
        let end = base + n;
        let offset = n >> 1;
        let pivot = start + offset;
        if n >> 10 != 0 {
            let delta = offset >> 1;
            sort5(v, start, start + delta, pivot, pivot + delta, end - 1, cmp);
        } else {
            sort3(v, start, pivot, end - 1, cmp);
        }
        v.swap(start + 1, pivot);
        let pivot = start + 1;
        let mut i = pivot + 1;
        let mut j = end - 1;
        'done: loop {
            while cmp(&v[pivot], &v[i]) > 0 {
                i += 1;
                if i == j {
                    break 'done;
                }
            }
            j -= 1;
            if j == i {
                break 'done;
            }
            while cmp(&v[j], &v[pivot]) > 0 {
                j -= 1;
                if j == i {
                    break 'done;
                }
            }
            v.swap(i, j);
            i += 1;
            if i == j {
                break 'done;
            }
        }
        v.swap(pivot, i - 1);
        if (i - 1) - start < end - i {
            zend_sort(&mut v[start..i - 1], cmp);
            base = i;
            n = end - i;
        } else {
            zend_sort(&mut v[i..end], cmp);
            base = start;
            n = (i - start) - 1;
        }
    }
}

fn sort2<T: Copy>(v: &mut [T], a: usize, b: usize, cmp: &mut dyn FnMut(&T, &T) -> i32) {
    if cmp(&v[a], &v[b]) > 0 {
        v.swap(a, b);
    }
}

fn sort3<T: Copy>(v: &mut [T], a: usize, b: usize, c: usize, cmp: &mut dyn FnMut(&T, &T) -> i32) {
    if cmp(&v[a], &v[b]) <= 0 {
        if cmp(&v[b], &v[c]) <= 0 {
            return;
        }
        v.swap(b, c);
        if cmp(&v[a], &v[b]) > 0 {
            v.swap(a, b);
        }
        return;
    }
    if cmp(&v[c], &v[b]) <= 0 {
        v.swap(a, c);
        return;
    }
    v.swap(a, b);
    if cmp(&v[b], &v[c]) > 0 {
        v.swap(b, c);
    }
}

fn sort4<T: Copy>(v: &mut [T], a: usize, b: usize, c: usize, d: usize, cmp: &mut dyn FnMut(&T, &T) -> i32) {
    sort3(v, a, b, c, cmp);
    if cmp(&v[c], &v[d]) > 0 {
        v.swap(c, d);
        if cmp(&v[b], &v[c]) > 0 {
            v.swap(b, c);
            if cmp(&v[a], &v[b]) > 0 {
                v.swap(a, b);
            }
        }
    }
}

fn sort5<T: Copy>(v: &mut [T], a: usize, b: usize, c: usize, d: usize, e: usize, cmp: &mut dyn FnMut(&T, &T) -> i32) {
    sort4(v, a, b, c, d, cmp);
    if cmp(&v[d], &v[e]) > 0 {
        v.swap(d, e);
        if cmp(&v[c], &v[d]) > 0 {
            v.swap(c, d);
            if cmp(&v[b], &v[c]) > 0 {
                v.swap(b, c);
                if cmp(&v[a], &v[b]) > 0 {
                    v.swap(a, b);
                }
            }
        }
    }
}

fn insert_sort<T: Copy>(v: &mut [T], cmp: &mut dyn FnMut(&T, &T) -> i32) {
    let n = v.len();
    match n {
        0 | 1 => {}
        2 => sort2(v, 0, 1, cmp),
        3 => sort3(v, 0, 1, 2, cmp),
        4 => sort4(v, 0, 1, 2, 3, cmp),
        5 => sort5(v, 0, 1, 2, 3, 4, cmp),
        _ => {
            let sentry = 6.min(n);
            for i in 1..sentry {
                let mut j = i - 1;
                if cmp(&v[j], &v[i]) <= 0 {
                    continue;
                }
                while j != 0 {
                    j -= 1;
                    if cmp(&v[j], &v[i]) <= 0 {
                        j += 1;
                        break;
                    }
                }
                let mut k = i;
                while k > j {
                    v.swap(k, k - 1);
                    k -= 1;
                }
            }
            for i in sentry..n {
                let mut j = i - 1;
                if cmp(&v[j], &v[i]) <= 0 {
                    continue;
                }
                loop {
                    j -= 2;
                    if cmp(&v[j], &v[i]) <= 0 {
                        j += 1;
                        if cmp(&v[j], &v[i]) <= 0 {
                            j += 1;
                        }
                        break;
                    }
                    if j == 0 {
                        break;
                    }
                    if j == 1 {
                        j -= 1;
                        if cmp(&v[i], &v[j]) > 0 {
                            j += 1;
                        }
                        break;
                    }
                }
                let mut k = i;
                while k > j {
                    v.swap(k, k - 1);
                    k -= 1;
                }
            }
        }
    }
}

const SORT_REGULAR: i64 = 0;
const SORT_NUMERIC: i64 = 1;
const SORT_STRING: i64 = 2;
const SORT_LOCALE_STRING: i64 = 5;
const SORT_NATURAL: i64 = 6;
const SORT_FLAG_CASE: i64 = 8;

fn cmp_f(x: f64, y: f64) -> i32 {
    if x < y {
        -1
    } else if x > y {
        1
    } else {
        0
    }
}

/// The value comparison for a sort flag.
fn data_compare(flags: i64) -> Box<dyn Fn(&mut Vm, &Zval, &Zval) -> i32> {
    let case = flags & SORT_FLAG_CASE != 0;
    match flags & !SORT_FLAG_CASE {
        SORT_NUMERIC => Box::new(|_, a, b| cmp_f(convert::to_double(a.deref()), convert::to_double(b.deref()))),
        SORT_STRING | SORT_LOCALE_STRING => Box::new(move |vm, a, b| {
            let (mut x, mut y) = (str_of_w(vm, a), str_of_w(vm, b));
            if case {
                x.make_ascii_lowercase();
                y.make_ascii_lowercase();
            }
            x.cmp(&y) as i32
        }),
        SORT_NATURAL => Box::new(move |vm, a, b| {
            let (x, y) = (str_of_w(vm, a), str_of_w(vm, b));
            super::string::natcmp(&x, &y, case)
        }),
        _ => Box::new(|_, a, b| compare::compare(a, b)),
    }
}

/// The key comparison for a sort flag.
fn key_compare(flags: i64) -> Box<dyn Fn(&mut Vm, KeyRef<'_>, KeyRef<'_>) -> i32> {
    match flags & !SORT_FLAG_CASE {
        SORT_REGULAR => Box::new(|_, a, b| match (a, b) {
            (KeyRef::Int(x), KeyRef::Int(y)) => {
                if x > y {
                    1
                } else {
                    -1
                }
            }
            (KeyRef::Str(x), KeyRef::Str(y)) => compare::smart_str_compare(x.bytes(), y.bytes()),
            _ => {
                let (x, y) = (key_zval(a), key_zval(b));
                let c = compare::compare(&x, &y);
                // SAFETY: both are owned.
                unsafe {
                    x.ptr_dtor();
                    y.ptr_dtor();
                }
                c
            }
        }),
        _ => {
            let dc = data_compare(flags);
            Box::new(move |vm, a, b| {
                let (x, y) = (key_zval(a), key_zval(b));
                let c = dc(vm, &x, &y);
                // SAFETY: both are owned.
                unsafe {
                    x.ptr_dtor();
                    y.ptr_dtor();
                }
                c
            })
        }
    }
}

/// Sorts the array behind argument 0 by `cmp` over (key, value) entries,
/// stable (ties keep their order, as PHP 8 guarantees).
fn sort_by(
    vm: &mut Vm,
    name: &str,
    a: &[Zval],
    renumber: bool,
    cmp: &mut dyn FnMut(&mut Vm, (KeyRef<'_>, &Zval), (KeyRef<'_>, &Zval)) -> Result<i32, Thrown>,
) -> R {
    let arr = ref_array(vm, name, 1, "array", &a[0])?;
    // Hold the array while user comparators run.
    // SAFETY: `arr` is live.
    let hold = Zval::array(arr).copy_value();
    let list = entries(arr_ref(arr));
    let mut idx: Vec<usize> = (0..list.len()).collect();
    let mut err: Option<Thrown> = None;
    zend_sort(&mut idx, &mut |&x: &usize, &y: &usize| {
        if err.is_none() {
            match cmp(vm, (list[x].0, &list[x].1), (list[y].0, &list[y].1)) {
                Ok(c) if c != 0 => return c,
                Ok(_) => {}
                Err(t) => err = Some(t),
            }
        }
        (x as i64 - y as i64).signum() as i32
    });
    let (p, out) = new_array();
    for &i in &idx {
        let (k, v) = list[i];
        if renumber {
            out.append(v.copy_value());
        } else {
            insert_keyref(out, k, v.copy_value());
        }
    }
    replace_ref_array(&a[0], p);
    // SAFETY: `hold` is ours.
    unsafe { hold.ptr_dtor() };
    match err {
        Some(t) => Err(t),
        None => Ok(()),
    }
}

fn flag_arg(vm: &mut Vm, name: &str, a: &[Zval]) -> Result<i64, Thrown> {
    match a.get(1) {
        Some(v) => args::long(vm, name, 2, "flags", v),
        None => Ok(SORT_REGULAR),
    }
}

macro_rules! value_sort {
    ($fn:ident, $name:literal, $renumber:expr, $sign:expr) => {
        pub fn $fn(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
            args::count(vm, $name, a, 1, 2)?;
            let flags = flag_arg(vm, $name, a)?;
            let dc = data_compare(flags);
            sort_by(vm, $name, a, $renumber, &mut |vm, x, y| Ok($sign * dc(vm, x.1, y.1)))?;
            *r = Zval::TRUE;
            Ok(())
        }
    };
}

value_sort!(sort, "sort", true, 1);
value_sort!(rsort, "rsort", true, -1);
value_sort!(asort, "asort", false, 1);
value_sort!(arsort, "arsort", false, -1);

macro_rules! key_sort {
    ($fn:ident, $name:literal, $sign:expr) => {
        pub fn $fn(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
            args::count(vm, $name, a, 1, 2)?;
            let flags = flag_arg(vm, $name, a)?;
            let kc = key_compare(flags);
            sort_by(vm, $name, a, false, &mut |vm, x, y| Ok($sign * kc(vm, x.0, y.0)))?;
            *r = Zval::TRUE;
            Ok(())
        }
    };
}

key_sort!(ksort, "ksort", 1);
key_sort!(krsort, "krsort", -1);

pub fn natsort(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "natsort", a, 1, 1)?;
    sort_by(vm, "natsort", a, false, &mut |vm, x, y| Ok(super::string::natcmp(&str_of_w(vm, x.1), &str_of_w(vm, y.1), false)))?;
    *r = Zval::TRUE;
    Ok(())
}

pub fn natcasesort(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "natcasesort", a, 1, 1)?;
    sort_by(vm, "natcasesort", a, false, &mut |vm, x, y| Ok(super::string::natcmp(&str_of_w(vm, x.1), &str_of_w(vm, y.1), true)))?;
    *r = Zval::TRUE;
    Ok(())
}

/// A user comparator's result (`php_get_long`), with PHP 8's handling of
/// boolean results (deprecated; `false` retries with swapped operands).
fn user_compare(vm: &mut Vm, cb: Callable, x: &Zval, y: &Zval, warned: &mut bool) -> Result<i32, Thrown> {
    let res = cb.call(vm, &[*x, *y])?;
    let d = *res.deref();
    let n = if d.kind() == IS_FALSE || d.kind() == IS_TRUE {
        if !*warned {
            *warned = true;
            vm.deprecated(&format!("{}(): Returning bool from comparison function is deprecated, return an integer less than, equal to, or greater than zero", vm_func_name(vm)));
        }
        if d.kind() == IS_FALSE {
            let again = cb.call(vm, &[*y, *x])?;
            let t = convert::to_bool(again.deref());
            // SAFETY: `again` is owned.
            unsafe { again.ptr_dtor() };
            if t {
                -1
            } else {
                0
            }
        } else {
            1
        }
    } else {
        convert::to_long(&d).signum()
    };
    // SAFETY: `res` is owned.
    unsafe { res.ptr_dtor() };
    Ok(n as i32)
}

/// The name of the running builtin.
fn vm_func_name(vm: &Vm) -> String {
    // SAFETY: `cur` is the running builtin's frame.
    unsafe {
        let f = vm.cur;
        if f.is_null() || (*f).func.is_null() {
            return String::new();
        }
        String::from_utf8_lossy((*(*f).func).name()).into_owned()
    }
}

macro_rules! user_sort {
    ($fn:ident, $name:literal, $renumber:expr, $keys:expr) => {
        pub fn $fn(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
            args::count(vm, $name, a, 2, 2)?;
            let cb = callback::arg(vm, $name, 2, "callback", &a[1], false)?;
            let mut warned = false;
            sort_by(vm, $name, a, $renumber, &mut |vm, x, y| {
                if $keys {
                    let (kx, ky) = (key_zval(x.0), key_zval(y.0));
                    let res = user_compare(vm, cb, &kx, &ky, &mut warned);
                    // SAFETY: both are owned.
                    unsafe {
                        kx.ptr_dtor();
                        ky.ptr_dtor();
                    }
                    res
                } else {
                    user_compare(vm, cb, x.1, y.1, &mut warned)
                }
            })?;
            *r = Zval::TRUE;
            Ok(())
        }
    };
}

user_sort!(usort, "usort", true, false);
user_sort!(uasort, "uasort", false, false);
user_sort!(uksort, "uksort", false, true);

pub fn shuffle(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "shuffle", a, 1, 1)?;
    let arr = ref_array(vm, "shuffle", 1, "array", &a[0])?;
    let mut list: Vec<Zval> = arr_ref(arr).iter().map(|(_, v)| *v).collect();
    for i in (1..list.len()).rev() {
        let j = super::math::random_range(0, i as i64) as usize;
        list.swap(i, j);
    }
    let (p, out) = new_array();
    for v in list {
        out.append(v.copy_value());
    }
    replace_ref_array(&a[0], p);
    *r = Zval::TRUE;
    Ok(())
}

pub fn array_rand(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "array_rand", a, 1, 2)?;
    let arr = args::array(vm, "array_rand", 1, "array", &a[0])?;
    let n = match a.get(1) {
        Some(v) => args::long(vm, "array_rand", 2, "num", v)?,
        None => 1,
    };
    let src = arr_ref(arr);
    if src.is_empty() {
        return Err(vm.throw_error("ValueError", "array_rand(): Argument #1 ($array) cannot be empty"));
    }
    if n < 1 || n as usize > src.len() {
        return Err(vm.throw_error("ValueError", "array_rand(): Argument #2 ($num) must be between 1 and the number of elements in argument #1 ($array)"));
    }
    let keys: Vec<KeyRef<'_>> = src.iter().map(|(k, _)| k).collect();
    if n == 1 {
        let i = super::math::random_range(0, keys.len() as i64 - 1) as usize;
        *r = key_zval(keys[i]);
        return Ok(());
    }
    // Choose n keys, keeping their order.
    let mut chosen = vec![false; keys.len()];
    let mut left = n as usize;
    while left > 0 {
        let i = super::math::random_range(0, keys.len() as i64 - 1) as usize;
        if !chosen[i] {
            chosen[i] = true;
            left -= 1;
        }
    }
    let (p, out) = new_array();
    for (i, k) in keys.iter().enumerate() {
        if chosen[i] {
            out.append(key_zval(*k));
        }
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn range(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "range", a, 2, 3)?;
    let (s, e) = (a[0].deref(), a[1].deref());
    let arr = ZArray::new();
    // Single-character strings give a range of characters.
    // SAFETY: string-kind values hold live strings; `arr` is new and unshared.
    unsafe {
        if s.kind() == IS_STRING && e.kind() == IS_STRING && (*s.str()).len() >= 1 && (*e.str()).len() >= 1
            && !(*s.str()).bytes()[0].is_ascii_digit() && !(*e.str()).bytes()[0].is_ascii_digit() {
            let (x, y) = ((*s.str()).bytes()[0] as i64, (*e.str()).bytes()[0] as i64);
            let step = match a.get(2) { Some(v) => args::long(vm, "range", 3, "step", v)?.abs().max(1), None => 1 };
            let mut i = x;
            loop {
                (*arr).append(Zval::string(ZString::new(&[i as u8])));
                if x <= y { i += step; if i > y { break; } } else { i -= step; if i < y { break; } }
            }
            *r = Zval::array(arr);
            return Ok(());
        }
    }
    let sn = args::number(vm, "range", 1, "start", s)?;
    let en = args::number(vm, "range", 2, "end", e)?;
    let stepv = match a.get(2) { Some(v) => args::number(vm, "range", 3, "step", v)?, None => Zval::long(1) };
    let is_float = sn.kind() == IS_DOUBLE || en.kind() == IS_DOUBLE || (stepv.kind() == IS_DOUBLE && stepv.dval().fract() != 0.0);
    // SAFETY: `arr` is new and unshared.
    unsafe {
        if is_float {
            let f = |z: Zval| if z.kind() == IS_LONG { z.lval() as f64 } else { z.dval() };
            let (x, y, st) = (f(sn), f(en), f(stepv).abs());
            if st == 0.0 || !st.is_finite() {
                ZArray::free(arr);
                return Err(vm.throw_error("ValueError", "range(): Argument #3 ($step) must not exceed the specified range"));
            }
            let n = ((y - x).abs() / st).floor() as i64;
            if n as usize > vm.memory_limit / 16 {
                ZArray::free(arr);
                vm.memory_exhausted(n as usize * 16);
                return Err(Thrown);
            }
            for k in 0..=n {
                let v = if x <= y { x + k as f64 * st } else { x - k as f64 * st };
                (*arr).append(Zval::double(v));
            }
        } else {
            let g = |z: Zval| if z.kind() == IS_LONG { z.lval() } else { z.dval() as i64 };
            let (x, y, st) = (g(sn), g(en), g(stepv).unsigned_abs());
            if st == 0 || (x != y && st as u128 > (x as i128 - y as i128).unsigned_abs()) {
                ZArray::free(arr);
                return Err(vm.throw_error("ValueError", "range(): Argument #3 ($step) must not exceed the specified range"));
            }
            let span = (x as i128 - y as i128).unsigned_abs() / st as u128;
            if span as usize > vm.memory_limit / 16 {
                ZArray::free(arr);
                vm.memory_exhausted(span as usize * 16);
                return Err(Thrown);
            }
            for k in 0..=span as i128 {
                let v = if x <= y { x as i128 + k * st as i128 } else { x as i128 - k * st as i128 };
                (*arr).append(Zval::long(v as i64));
            }
        }
    }
    *r = Zval::array(arr);
    Ok(())
}

// ---- variables of the calling frame ---------------------------------------------

/// The calling user frame's CV slot named `name`.
/// The calling frame's variable `name` (possibly UNDEF), if it has one.
fn caller_var(vm: &mut Vm, name: &[u8]) -> Option<*mut Zval> {
    let f = super::var::caller_frame(vm)?;
    // SAFETY: `f` is the live user frame that called the running builtin.
    let p = unsafe { crate::exec::symtab::find(vm, f, name) };
    (!p.is_null()).then_some(p)
}

/// The calling frame's variable `name` for writing (made if missing).
fn caller_var_w(vm: &mut Vm, name: &[u8]) -> Option<*mut Zval> {
    let f = super::var::caller_frame(vm)?;
    // SAFETY: `f` is the live user frame that called the running builtin.
    Some(unsafe { crate::exec::symtab::find_or_add(vm, f, name) })
}

unsafe fn compact_add(vm: &mut Vm, out: &mut ZArray, v: &Zval) {
    let v = v.deref();
    if v.is_array() {
        if !ZArray::enter_recursion(v.arr()) {
            vm.throw_error("Error", "Recursion detected");
            return;
        }
        for (_, x) in (*v.arr()).iter() {
            compact_add(vm, out, x);
        }
        ZArray::leave_recursion(v.arr());
        return;
    }
    let name = str_of(v);
    match caller_var(vm, &name) {
        Some(slot) if !(*slot).is_undef() => insert_bytes_key(out, &name, (*slot).copy_deref()),
        _ => vm.warning(&format!("compact(): Undefined variable ${}", String::from_utf8_lossy(&name))),
    }
}

pub fn compact(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "compact", a, 1, usize::MAX)?;
    let (p, out) = new_array();
    for v in a {
        // SAFETY: arguments are live values.
        unsafe { compact_add(vm, out, v) };
    }
    if vm.exception.is_some() {
        // SAFETY: `p` is ours.
        unsafe { Zval::array(p).ptr_dtor() };
        return Err(Thrown);
    }
    *r = Zval::array(p);
    Ok(())
}

fn valid_var_name(b: &[u8]) -> bool {
    !b.is_empty() && (b[0].is_ascii_alphabetic() || b[0] == b'_' || b[0] >= 0x80) && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80)
}

pub fn extract(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "extract", a, 1, 3)?;
    let arr = args::array(vm, "extract", 1, "array", &a[0])?;
    let flags = match a.get(1) {
        Some(v) => args::long(vm, "extract", 2, "flags", v)?,
        None => 0,
    };
    let prefix = match a.get(2) {
        Some(v) => Some(args::string(vm, "extract", 3, "prefix", v)?),
        None => None,
    };
    let mode = flags & 255;
    if !(0..=6).contains(&mode) {
        return Err(vm.throw_error("ValueError", "extract(): Argument #2 ($flags) must be a valid extract type"));
    }
    if mode > 1 && mode != 6 && prefix.is_none() {
        return Err(vm.throw_error("ValueError", "extract(): Argument #3 ($prefix) is required when using this extract type"));
    }
    let hold = a[0].copy_deref();
    let mut n = 0;
    for (k, v) in entries(arr_ref(arr)) {
        let KeyRef::Str(s) = k else {
            if mode == 3 || mode == 5 {
                // EXTR_PREFIX_ALL / PREFIX_INVALID name numeric keys too.
                let name = [prefix.clone().unwrap_or_default(), b"_".to_vec(), match k { KeyRef::Int(i) => i.to_string().into_bytes(), _ => Vec::new() }].concat();
                if valid_var_name(&name) {
                    if let Some(slot) = caller_var_w(vm, &name) {
                        // SAFETY: the caller's CV slot is live.
                        unsafe { crate::exec::slow::assign::assign(slot, v.copy_deref()) };
                        n += 1;
                    }
                }
            }
            continue;
        };
        let key = s.bytes().to_vec();
        let exists = caller_var(vm, &key).is_some_and(|s| unsafe { !(*s).is_undef() });
        let name = match mode {
            0 => key.clone(),
            1 if exists => continue,
            1 => key.clone(),
            2 if exists => [prefix.clone().unwrap_or_default(), b"_".to_vec(), key.clone()].concat(),
            2 => key.clone(),
            3 => [prefix.clone().unwrap_or_default(), b"_".to_vec(), key.clone()].concat(),
            4 if !valid_var_name(&key) => [prefix.clone().unwrap_or_default(), b"_".to_vec(), key.clone()].concat(),
            4 => key.clone(),
            5 if exists => key.clone(),
            5 => continue,
            _ if exists => continue,
            _ => key.clone(),
        };
        if !valid_var_name(&name) || name == b"this" || name == b"GLOBALS" {
            continue;
        }
        if let Some(slot) = caller_var_w(vm, &name) {
            // SAFETY: the caller's CV slot is live.
            unsafe { crate::exec::slow::assign::assign(slot, v.copy_deref()) };
            n += 1;
        }
    }
    // SAFETY: `hold` is ours.
    unsafe { hold.ptr_dtor() };
    *r = Zval::long(n);
    Ok(())
}

// ---- the internal pointer -----------------------------------------------------------

/// The array a pointer function reads: a by-value argument, or the array
/// behind a by-reference one (separated when `write`).
fn pointer_array(vm: &mut Vm, name: &str, arg: &Zval, write: bool) -> Result<*mut ZArray, Thrown> {
    if write && arg.is_reference() {
        return ref_array(vm, name, 1, "array", arg);
    }
    let v = arg.deref();
    if !v.is_array() {
        let msg = format!("{}(): Argument #1 ($array) must be of type array, {} given", name, super::type_name(v));
        return Err(vm.throw_error("TypeError", &msg));
    }
    Ok(v.arr())
}

/// The element at the internal pointer (the next live one at or after it).
fn at_pointer(a: &ZArray) -> Option<(KeyRef<'_>, *mut Zval)> {
    let p = a.pos_valid_from(a.internal_pos())?;
    a.entry_at(p)
}

fn current_value(a: &ZArray) -> Zval {
    // SAFETY: slots returned by entry_at are live.
    at_pointer(a).map(|(_, z)| unsafe { (*z).copy_deref() }).unwrap_or(Zval::FALSE)
}

pub fn current(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "current", a, 1, 1)?;
    let arr = pointer_array(vm, "current", &a[0], false)?;
    *r = current_value(arr_ref(arr));
    Ok(())
}

pub fn pos(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "pos", a, 1, 1)?;
    let arr = pointer_array(vm, "pos", &a[0], false)?;
    *r = current_value(arr_ref(arr));
    Ok(())
}

pub fn key(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "key", a, 1, 1)?;
    let arr = pointer_array(vm, "key", &a[0], false)?;
    *r = at_pointer(arr_ref(arr)).map(|(k, _)| key_zval(k)).unwrap_or(Zval::NULL);
    Ok(())
}

pub fn next(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "next", a, 1, 1)?;
    let arr = pointer_array(vm, "next", &a[0], true)?;
    // SAFETY: separated (or a by-value copy we only read).
    let t = unsafe { &mut *arr };
    if let Some(p) = t.pos_valid_from(t.internal_pos()) {
        let np = t.pos_valid_from(p + 1).unwrap_or(t.num_used());
        t.set_internal_pos(np);
    }
    *r = current_value(t);
    Ok(())
}

pub fn prev(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "prev", a, 1, 1)?;
    let arr = pointer_array(vm, "prev", &a[0], true)?;
    // SAFETY: as in `next`.
    let t = unsafe { &mut *arr };
    let mut p = t.internal_pos();
    if p < t.num_used() {
        let mut found = None;
        while p > 0 {
            p -= 1;
            if t.entry_at(p).is_some() {
                found = Some(p);
                break;
            }
        }
        t.set_internal_pos(found.unwrap_or(t.num_used()));
    }
    *r = current_value(t);
    Ok(())
}

pub fn reset(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "reset", a, 1, 1)?;
    let arr = pointer_array(vm, "reset", &a[0], true)?;
    // SAFETY: as in `next`.
    let t = unsafe { &mut *arr };
    let p = t.pos_valid_from(0).unwrap_or(t.num_used());
    t.set_internal_pos(p);
    *r = current_value(t);
    Ok(())
}

pub fn end(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "end", a, 1, 1)?;
    let arr = pointer_array(vm, "end", &a[0], true)?;
    // SAFETY: as in `next`.
    let t = unsafe { &mut *arr };
    let mut p = t.num_used();
    let mut found = None;
    while p > 0 {
        p -= 1;
        if t.entry_at(p).is_some() {
            found = Some(p);
            break;
        }
    }
    t.set_internal_pos(found.unwrap_or(t.num_used()));
    *r = current_value(t);
    Ok(())
}

/// iterator_to_array()/iterator_count() on arrays (PHP 8.2 accepts them;
/// Traversable objects arrive with classes).
fn iterable_arg(vm: &mut Vm, name: &str, v: &Zval) -> Result<*mut ZArray, Thrown> {
    let d = v.deref();
    if d.is_array() {
        return Ok(d.arr());
    }
    let msg = format!("{}(): Argument #1 ($iterator) must be of type Traversable|array, {} given", name, super::type_name(d));
    Err(vm.throw_error("TypeError", &msg))
}

/// Whether `v` is a Traversable object.
fn is_traversable(v: &Zval) -> bool {
    let v = v.deref();
    // SAFETY: an object-kind value holds a live object.
    v.is_object() && unsafe { (*(*v.obj()).class).is_subclass_of_name(b"traversable") }
}

pub fn iterator_to_array(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "iterator_to_array", a, 1, 2)?;
    let keep = match a.get(1) {
        Some(v) => args::boolean(vm, "iterator_to_array", 2, "preserve_keys", v)?,
        None => true,
    };
    if is_traversable(&a[0]) {
        let (p, out) = new_array();
        *r = Zval::array(p);
        let mut bad = None;
        // SAFETY: the argument keeps the object alive; `out` is the fresh
        // array `r` owns.
        unsafe {
            crate::exec::slow::iter::walk_traversable(vm, a[0].deref(), keep, &mut |k, v| {
                if !keep {
                    out.append(v);
                    return;
                }
                match k.kind() {
                    IS_LONG => {
                        let slot = out.lookup_int(k.lval());
                        crate::exec::slow::assign::assign(slot, v);
                    }
                    IS_STRING => {
                        let key = crate::value::array::Key::normalize(k.str());
                        let (slot, _) = out.lookup(&key);
                        crate::exec::slow::assign::assign(slot, v);
                    }
                    IS_NULL => {
                        let e = ZString::new(b"");
                        let (slot, _) = out.lookup(&crate::value::array::Key::normalize(e));
                        crate::exec::slow::assign::assign(slot, v);
                        Zval::string(e).ptr_dtor();
                    }
                    _ => {
                        bad.get_or_insert(super::type_name(&k));
                        v.ptr_dtor();
                    }
                }
                k.ptr_dtor();
            })?;
        }
        if let Some(t) = bad {
            return Err(vm.throw_error("TypeError", &format!("Cannot access offset of type {t} on array")));
        }
        return Ok(());
    }
    let arr = iterable_arg(vm, "iterator_to_array", &a[0])?;
    if keep {
        *r = a[0].copy_deref();
        return Ok(());
    }
    let (p, out) = new_array();
    for (_, v) in arr_ref(arr).iter() {
        out.append(v.copy_deref());
    }
    *r = Zval::array(p);
    Ok(())
}

pub fn iterator_count(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "iterator_count", a, 1, 1)?;
    if is_traversable(&a[0]) {
        let mut n = 0i64;
        // SAFETY: the argument keeps the object alive.
        unsafe {
            crate::exec::slow::iter::walk_traversable(vm, a[0].deref(), false, &mut |k, v| {
                n += 1;
                k.ptr_dtor();
                v.ptr_dtor();
            })?;
        }
        *r = Zval::long(n);
        return Ok(());
    }
    let arr = iterable_arg(vm, "iterator_count", &a[0])?;
    *r = Zval::long(arr_ref(arr).len() as i64);
    Ok(())
}
