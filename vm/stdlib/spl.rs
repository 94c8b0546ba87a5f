//! `ArrayObject` and `ArrayIterator` (ext/spl): an array kept in the
//! private property `storage`, reached through the ArrayAccess, Countable
//! and iteration protocols. An ArrayIterator's position lives in the
//! object's native state.

use super::args;
use crate::exec::slow::dim::{dim_key, find, read_dim, DimKey};
use crate::exec::{Thrown, Vm};
use crate::runtime::builtin_classes::prop_slot;
use crate::runtime::class::*;
use crate::value::object::ZObject;
use crate::value::{ZArray, ZString, Zval};

type R = Result<(), Thrown>;

fn this(vm: &Vm) -> *mut ZObject {
    // SAFETY: a builtin method runs in its own frame (`vm.cur`).
    unsafe { (*vm.cur).this_obj() }
}

/// The `storage` slot of `o` (an array once constructed).
unsafe fn storage(o: *mut ZObject) -> *mut Zval {
    prop_slot(o, b"storage")
}

/// The storage array of the running method's object, separated for writing.
unsafe fn storage_for_write(o: *mut ZObject) -> Option<*mut ZArray> {
    let st = storage(o);
    if st.is_null() {
        return None;
    }
    if !(*st).is_array() {
        let old = *st;
        *st = Zval::array(ZArray::new());
        old.ptr_dtor();
    }
    Some(ZArray::separate(st))
}

/// The method's class name for messages (`ArrayObject::__construct`).
unsafe fn cname(o: *mut ZObject) -> String {
    (*(*o).class).name_str()
}

pub fn construct(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: `o` is the live `$this` of the running method.
    unsafe {
        let v = match a.first() {
            None => Zval::array(ZArray::new()),
            Some(v) if v.deref().is_array() => v.deref().copy_value(),
            Some(v) => {
                let name = format!("{}::__construct", cname(o));
                let msg = format!("{name}(): Argument #1 ($array) must be of type array, {} given", super::type_name(v));
                return Err(vm.throw_error("TypeError", &msg));
            }
        };
        let st = storage(o);
        if !st.is_null() {
            let old = *st;
            *st = v;
            old.ptr_dtor();
        } else {
            v.ptr_dtor();
        }
        if let Some(p) = (*o).internal.as_mut().and_then(|b| b.downcast_mut::<u32>()) {
            *p = 0;
        }
    }
    Ok(())
}

pub fn offset_get(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: `o` is live; its storage is an array or null.
    unsafe {
        let st = (*storage(o)).copy_value();
        let res = read_dim(vm, &st, a.first().unwrap_or(&Zval::NULL), false);
        st.ptr_dtor();
        *r = res?;
    }
    Ok(())
}

pub fn offset_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above.
    unsafe {
        let st = *storage(o);
        let mut empty = core::ptr::null_mut();
        let hit = if st.is_array() {
            let k = dim_key(vm, a.first().unwrap_or(&Zval::NULL), &mut empty)?;
            find(&*st.arr(), k).is_some()
        } else {
            false
        };
        if !empty.is_null() {
            Zval::string(empty).ptr_dtor();
        }
        *r = Zval::bool(hit);
    }
    Ok(())
}

pub fn offset_set(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above; the storage array is separated before the write.
    unsafe {
        let k = a.first().copied().unwrap_or(Zval::NULL);
        let v = a.get(1).map(|v| v.copy_deref()).unwrap_or(Zval::NULL);
        let Some(arr) = storage_for_write(o) else {
            v.ptr_dtor();
            return Ok(());
        };
        if k.deref().kind() == crate::value::IS_NULL {
            if (*arr).append(v).is_none() {
                return Err(vm.throw_error("Error", "Cannot add element to the array as the next element is already occupied"));
            }
            return Ok(());
        }
        let mut empty = core::ptr::null_mut();
        let key = match dim_key(vm, &k, &mut empty) {
            Ok(key) => key,
            Err(t) => {
                v.ptr_dtor();
                return Err(t);
            }
        };
        let slot = match key {
            DimKey::Int(i) => (*arr).lookup_int(i),
            DimKey::Str(s) => (*arr).lookup_str(s),
        };
        crate::exec::slow::assign::assign(slot, v);
        if !empty.is_null() {
            Zval::string(empty).ptr_dtor();
        }
    }
    Ok(())
}

pub fn offset_unset(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above.
    unsafe {
        let Some(arr) = storage_for_write(o) else { return Ok(()) };
        let mut empty = core::ptr::null_mut();
        match dim_key(vm, a.first().unwrap_or(&Zval::NULL), &mut empty)? {
            DimKey::Int(i) => {
                (*arr).remove_int(i);
            }
            DimKey::Str(s) => {
                (*arr).remove_str(&*s);
            }
        }
        if !empty.is_null() {
            Zval::string(empty).ptr_dtor();
        }
    }
    Ok(())
}

pub fn append(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let args = [Zval::NULL, a.first().copied().unwrap_or(Zval::NULL)];
    offset_set(vm, &args, r)
}

pub fn count(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above.
    unsafe {
        let st = *storage(o);
        *r = Zval::long(if st.is_array() { (*st.arr()).len() as i64 } else { 0 });
    }
    Ok(())
}

pub fn get_array_copy(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above.
    unsafe {
        let st = *storage(o);
        *r = if st.is_array() { st.copy_value() } else { Zval::array(ZArray::new()) };
    }
    Ok(())
}

/// `ArrayObject::getIterator()`: an ArrayIterator over a copy of the storage.
pub fn get_iterator(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above; the new iterator is a live object.
    unsafe {
        let Some(c) = crate::runtime::classes::find_class(vm, b"ArrayIterator") else { return Ok(()) };
        let it = crate::exec::slow::object::instantiate(vm, c)?;
        let st = *storage(o);
        let dst = storage(it);
        if !dst.is_null() && st.is_array() {
            let old = *dst;
            *dst = st.copy_value();
            old.ptr_dtor();
        }
        *r = Zval::object(it);
    }
    Ok(())
}

/// Gives a new ArrayIterator its position.
pub unsafe fn init_iterator(_vm: &mut Vm, o: *mut ZObject) {
    (*o).internal = Some(Box::new(0u32));
}

unsafe fn pos(o: *mut ZObject) -> *mut u32 {
    if (*o).internal.is_none() {
        (*o).internal = Some(Box::new(0u32));
    }
    match (*o).internal.as_mut().and_then(|b| b.downcast_mut::<u32>()) {
        Some(p) => p,
        None => core::ptr::null_mut(),
    }
}

/// The current (valid) position of the iterator, skipping holes.
unsafe fn current_pos(o: *mut ZObject) -> Option<u32> {
    let st = *storage(o);
    let p = pos(o);
    if !st.is_array() || p.is_null() {
        return None;
    }
    let at = (*st.arr()).pos_valid_from(*p)?;
    *p = at;
    Some(at)
}

pub fn it_rewind(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    // SAFETY: `$this` is live.
    unsafe {
        let p = pos(this(vm));
        if !p.is_null() {
            *p = 0;
        }
    }
    Ok(())
}

pub fn it_valid(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    // SAFETY: `$this` is live.
    *r = Zval::bool(unsafe { current_pos(this(vm)) }.is_some());
    Ok(())
}

pub fn it_current(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: `$this` is live; the position is bounds-checked by entry_at.
    unsafe {
        if let Some(at) = current_pos(o) {
            if let Some((_, v)) = (*(*storage(o)).arr()).entry_at(at) {
                *r = (*v).copy_deref();
            }
        }
    }
    Ok(())
}

pub fn it_key(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above.
    unsafe {
        if let Some(at) = current_pos(o) {
            if let Some((k, _)) = (*(*storage(o)).arr()).entry_at(at) {
                *r = match k {
                    crate::value::KeyRef::Int(i) => Zval::long(i),
                    crate::value::KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
                };
            }
        }
    }
    Ok(())
}

pub fn it_next(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    let o = this(vm);
    // SAFETY: as above.
    unsafe {
        if let Some(at) = current_pos(o) {
            *pos(o) = at + 1;
        }
    }
    Ok(())
}

/// The class definitions (after the core interfaces).
pub fn definitions(method: impl Fn(&str, &[&str], u32, crate::runtime::function::BuiltinFn, u32) -> MethodDef, storage_prop: impl Fn() -> PropDef) -> Vec<ClassDef> {
    let _ = args::count;
    let mut out = Vec::new();
    for (name, ifaces, iter) in [("ArrayObject", &["IteratorAggregate", "ArrayAccess", "Countable"][..], false), ("ArrayIterator", &["Iterator", "ArrayAccess", "Countable"][..], true)] {
        let mut d = ClassDef::new(name.as_bytes(), CLASS_INTERNAL, 0);
        d.interfaces = ifaces.iter().map(|i| i.as_bytes().to_vec()).collect();
        d.props.push(storage_prop());
        let p = ACC_PUBLIC;
        d.methods.push(method("__construct", &["array"], 0, construct, p));
        d.methods.push(method("offsetExists", &["key"], 1, offset_exists, p));
        d.methods.push(method("offsetGet", &["key"], 1, offset_get, p));
        d.methods.push(method("offsetSet", &["key", "value"], 2, offset_set, p));
        d.methods.push(method("offsetUnset", &["key"], 1, offset_unset, p));
        d.methods.push(method("append", &["value"], 1, append, p));
        d.methods.push(method("getArrayCopy", &[], 0, get_array_copy, p));
        d.methods.push(method("count", &[], 0, count, p));
        if iter {
            d.methods.push(method("rewind", &[], 0, it_rewind, p));
            d.methods.push(method("valid", &[], 0, it_valid, p));
            d.methods.push(method("current", &[], 0, it_current, p));
            d.methods.push(method("key", &[], 0, it_key, p));
            d.methods.push(method("next", &[], 0, it_next, p));
        } else {
            d.methods.push(method("getIterator", &[], 0, get_iterator, p));
        }
        out.push(d);
    }
    out
}
