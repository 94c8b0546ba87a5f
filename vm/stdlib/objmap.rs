//! Maps keyed by objects: `SplObjectStorage` (holds its objects) and
//! `WeakMap` (does not: an entry goes away when its key object is
//! destroyed). Both keep their entries in insertion order as the object's
//! native state. A WeakMap registers itself in `Vm::weak_refs` under each
//! key object, which is flagged `OBJ_WEAKLY_REFERENCED`; releasing such an
//! object calls `object_freed`.

use crate::exec::vm::{new_map, FastMap};
use crate::exec::{Thrown, Vm};
use crate::runtime::class::*;
use crate::runtime::function::BuiltinFn;
use crate::value::object::{ZObject, OBJ_WEAKLY_REFERENCED};
use crate::value::Zval;

type R = Result<(), Thrown>;

/// The entries of an object-keyed map.
struct ObjMap {
    /// Key object address → index in `entries`.
    index: FastMap<usize, usize>,
    /// (key, value) in insertion order; `None` once removed.
    entries: Vec<Option<(*mut ZObject, Zval)>>,
    /// The map owns a reference to each key (SplObjectStorage).
    strong: bool,
    /// The map object itself (WeakMap: what `Vm::weak_refs` lists).
    owner: *mut ZObject,
    /// Iteration position (SplObjectStorage).
    pos: usize,
}

impl ObjMap {
    fn len(&self) -> usize {
        self.index.len()
    }

    fn get(&self, k: *mut ZObject) -> Option<&Zval> {
        self.index.get(&(k as usize)).and_then(|&i| self.entries[i].as_ref()).map(|e| &e.1)
    }

    /// Inserts or replaces (the value is owned).
    unsafe fn set(&mut self, vm: &mut Vm, k: *mut ZObject, v: Zval) {
        if let Some(&i) = self.index.get(&(k as usize)) {
            if let Some(e) = self.entries[i].as_mut() {
                let old = core::mem::replace(&mut e.1, v);
                old.ptr_dtor();
                return;
            }
        }
        if self.strong {
            (*k).header.refcount += 1;
        } else {
            (*k).flags |= OBJ_WEAKLY_REFERENCED;
            vm.weak_refs.entry(k as usize).or_default().push(self.owner);
        }
        self.index.insert(k as usize, self.entries.len());
        self.entries.push(Some((k, v)));
    }

    /// Removes `k`'s entry; returns what the caller must release (the
    /// value, and the key for a strong map) so that no destructor runs
    /// while the map is borrowed.
    fn take(&mut self, k: *mut ZObject) -> Option<(Zval, Option<Zval>)> {
        let i = self.index.remove(&(k as usize))?;
        let (k, v) = self.entries[i].take()?;
        Some((v, self.strong.then(|| Zval::object(k))))
    }
}

impl Drop for ObjMap {
    fn drop(&mut self) {
        let vm = crate::exec::vm::current();
        for (k, v) in self.entries.drain(..).flatten() {
            // SAFETY: the map owns its values (and its keys when strong); a
            // weak key is live while it is listed (its release removes it).
            unsafe {
                if self.strong {
                    Zval::object(k).ptr_dtor();
                } else if !vm.is_null() {
                    if let Some(maps) = (*vm).weak_refs.get_mut(&(k as usize)) {
                        maps.retain(|&m| m != self.owner);
                    }
                }
                v.ptr_dtor();
            }
        }
    }
}

/// `o` (flagged weakly referenced) is being freed: its entries leave every
/// WeakMap that has it.
///
/// # Safety
/// `o` is an object being released.
pub unsafe fn object_freed(vm: &mut Vm, o: *mut ZObject) {
    let Some(maps) = vm.weak_refs.remove(&(o as usize)) else { return };
    for m in maps {
        let taken = map_of(m).and_then(|mp| mp.take(o));
        if let Some((v, _)) = taken {
            v.ptr_dtor();
        }
    }
}

unsafe fn map_of<'a>(o: *mut ZObject) -> Option<&'a mut ObjMap> {
    (*o).internal.as_mut().and_then(|b| b.downcast_mut::<ObjMap>())
}

/// The running method's `$this` and its map (made on first use).
fn this_map<'a>(vm: &Vm) -> (*mut ZObject, &'a mut ObjMap) {
    // SAFETY: a builtin method runs in its own frame, `$this` is live.
    unsafe {
        let o = (*vm.cur).this_obj();
        if map_of(o).is_none() {
            let strong = (*(*o).class).is_subclass_of_name(b"splobjectstorage");
            (*o).internal = Some(Box::new(ObjMap { index: new_map(), entries: Vec::new(), strong, owner: o, pos: 0 }));
        }
        (o, map_of(o).expect("just made"))
    }
}

/// The object argument `n` (1-based) of `Class::method()`.
fn key_arg(vm: &mut Vm, a: &[Zval], method: &str, weak: bool) -> Result<*mut ZObject, Thrown> {
    let v = a.first().map_or(Zval::NULL, |v| *v.deref());
    if v.is_object() {
        return Ok(v.obj());
    }
    if weak {
        return Err(vm.throw_error("TypeError", "WeakMap key must be an object"));
    }
    let given = crate::exec::slow::call::zend_type_name(&v);
    Err(vm.throw_error("TypeError", &format!("SplObjectStorage::{method}(): Argument #1 ($object) must be of type object, {given} given")))
}

fn release(taken: Option<(Zval, Option<Zval>)>) {
    if let Some((v, k)) = taken {
        // SAFETY: values the map no longer holds.
        unsafe {
            v.ptr_dtor();
            if let Some(k) = k {
                k.ptr_dtor();
            }
        }
    }
}

// ------------------------------------------------------------ WeakMap

fn weak_get(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let k = key_arg(vm, a, "offsetGet", true)?;
    let (_, m) = this_map(vm);
    match m.get(k) {
        Some(v) => *r = v.copy_deref(),
        None => {
            // SAFETY: a live object.
            let msg = unsafe { format!("Object {}#{} not contained in WeakMap", (*(*k).class).name_str(), (*k).handle) };
            return Err(vm.throw_error("Error", &msg));
        }
    }
    Ok(())
}

fn weak_set(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let k = key_arg(vm, a, "offsetSet", true)?;
    let v = a.get(1).map_or(Zval::NULL, |v| v.copy_deref());
    let (_, m) = this_map(vm);
    // SAFETY: a live key object.
    unsafe { m.set(vm, k, v) };
    Ok(())
}

fn weak_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let k = key_arg(vm, a, "offsetExists", true)?;
    let (_, m) = this_map(vm);
    *r = Zval::bool(m.get(k).is_some_and(|v| v.deref().kind() != crate::value::IS_NULL));
    Ok(())
}

fn unset(vm: &mut Vm, a: &[Zval], weak: bool) -> R {
    let k = key_arg(vm, a, "detach", weak)?;
    let (_, m) = this_map(vm);
    release(m.take(k));
    Ok(())
}

fn weak_unset(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    unset(vm, a, true)
}

fn count(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let (_, m) = this_map(vm);
    *r = Zval::long(m.len() as i64);
    Ok(())
}

// ------------------------------------------------------------ SplObjectStorage

fn attach(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let k = key_arg(vm, a, "attach", false)?;
    let v = a.get(1).map_or(Zval::NULL, |v| v.copy_deref());
    let (_, m) = this_map(vm);
    // SAFETY: a live key object.
    unsafe { m.set(vm, k, v) };
    Ok(())
}

fn detach(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    unset(vm, a, false)
}

fn contains(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let k = key_arg(vm, a, "contains", false)?;
    let (_, m) = this_map(vm);
    *r = Zval::bool(m.get(k).is_some());
    Ok(())
}

fn storage_get(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let k = key_arg(vm, a, "offsetGet", false)?;
    let (_, m) = this_map(vm);
    match m.get(k) {
        Some(v) => *r = v.copy_deref(),
        None => return Err(vm.throw_error("UnexpectedValueException", "Object not found")),
    }
    Ok(())
}

/// The live entry at or after the iteration position.
fn current_entry(m: &mut ObjMap) -> Option<&mut (*mut ZObject, Zval)> {
    while m.pos < m.entries.len() && m.entries[m.pos].is_none() {
        m.pos += 1;
    }
    m.entries.get_mut(m.pos).and_then(|e| e.as_mut())
}

fn rewind(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    this_map(vm).1.pos = 0;
    Ok(())
}

fn valid(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    *r = Zval::bool(current_entry(this_map(vm).1).is_some());
    Ok(())
}

fn key(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let m = this_map(vm).1;
    current_entry(m);
    // The key is the entry's ordinal among the live ones.
    let n = m.entries[..m.pos.min(m.entries.len())].iter().filter(|e| e.is_some()).count();
    *r = Zval::long(n as i64);
    Ok(())
}

fn current(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(e) = current_entry(this_map(vm).1) {
        // SAFETY: the map holds the key object.
        unsafe { (*e.0).header.refcount += 1 };
        *r = Zval::object(e.0);
    }
    Ok(())
}

fn next(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    let m = this_map(vm).1;
    if current_entry(m).is_some() {
        m.pos += 1;
    }
    Ok(())
}

fn get_info(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(e) = current_entry(this_map(vm).1) {
        *r = e.1.copy_deref();
    }
    Ok(())
}

fn set_info(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let v = a.first().map_or(Zval::NULL, |v| v.copy_deref());
    match current_entry(this_map(vm).1) {
        Some(e) => {
            let old = core::mem::replace(&mut e.1, v);
            // SAFETY: the old value was the map's.
            unsafe { old.ptr_dtor() };
        }
        // SAFETY: `v` is ours.
        None => unsafe { v.ptr_dtor() },
    }
    Ok(())
}

/// The iterator `WeakMap::getIterator()` gives (an `InternalIterator`): a
/// position in the live map, which it keeps alive.
struct WeakMapIter {
    map: *mut ZObject,
    pos: usize,
}

impl Drop for WeakMapIter {
    fn drop(&mut self) {
        // SAFETY: the iterator owns one reference to its map.
        unsafe { Zval::object(self.map).ptr_dtor() };
    }
}

fn weak_get_iterator(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let (o, _) = this_map(vm);
    // SAFETY: a live map object; the new iterator owns a reference to it.
    unsafe {
        let c = crate::exec::slow::object::lookup_class(vm, b"InternalIterator")?;
        let it = crate::exec::slow::object::instantiate(vm, c)?;
        (*o).header.refcount += 1;
        (*it).internal = Some(Box::new(WeakMapIter { map: o, pos: 0 }));
        *r = Zval::object(it);
    }
    Ok(())
}

/// The running InternalIterator's map entry at its position (skipping
/// entries removed meanwhile).
fn iter_entry<'a>(vm: &Vm) -> Option<&'a (*mut ZObject, Zval)> {
    // SAFETY: `$this` is live; its map is kept alive by the iterator.
    unsafe {
        let it = (*(*vm.cur).this_obj()).internal.as_mut()?.downcast_mut::<WeakMapIter>()?;
        let m = map_of(it.map)?;
        while it.pos < m.entries.len() && m.entries[it.pos].is_none() {
            it.pos += 1;
        }
        m.entries.get(it.pos).and_then(|e| e.as_ref())
    }
}

fn it_current(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(e) = iter_entry(vm) {
        *r = e.1.copy_deref();
    }
    Ok(())
}

fn it_key(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(e) = iter_entry(vm) {
        // SAFETY: a live key object (its release removes the entry).
        unsafe { (*e.0).header.refcount += 1 };
        *r = Zval::object(e.0);
    }
    Ok(())
}

fn it_valid(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    *r = Zval::bool(iter_entry(vm).is_some());
    Ok(())
}

fn it_move(vm: &Vm, next: bool) {
    let found = iter_entry(vm).is_some();
    // SAFETY: `$this` is live.
    if let Some(it) = unsafe { (*(*vm.cur).this_obj()).internal.as_mut().and_then(|b| b.downcast_mut::<WeakMapIter>()) } {
        if !next {
            it.pos = 0;
        } else if found {
            it.pos += 1;
        }
    }
}

fn it_next(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    it_move(vm, true);
    Ok(())
}

fn it_rewind(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    it_move(vm, false);
    Ok(())
}

/// `SplObjectStorage`, `WeakMap` and `InternalIterator`.
pub fn definitions(method: impl Fn(&str, &[&str], u32, BuiltinFn, u32) -> MethodDef) -> Vec<ClassDef> {
    let p = ACC_PUBLIC;
    let mut s = ClassDef::new(b"SplObjectStorage", CLASS_INTERNAL, 0);
    s.interfaces = ["Countable", "Iterator", "ArrayAccess"].iter().map(|i| i.as_bytes().to_vec()).collect();
    let sm: &[(&str, &[&str], u32, BuiltinFn)] = &[
        ("attach", &["object", "info"], 1, attach),
        ("detach", &["object"], 1, detach),
        ("contains", &["object"], 1, contains),
        ("count", &["mode"], 0, count),
        ("offsetExists", &["object"], 1, contains),
        ("offsetGet", &["object"], 1, storage_get),
        ("offsetSet", &["object", "info"], 1, attach),
        ("offsetUnset", &["object"], 1, detach),
        ("getInfo", &[], 0, get_info),
        ("setInfo", &["info"], 1, set_info),
        ("rewind", &[], 0, rewind),
        ("valid", &[], 0, valid),
        ("key", &[], 0, key),
        ("current", &[], 0, current),
        ("next", &[], 0, next),
    ];
    for &(n, ps, req, f) in sm {
        s.methods.push(method(n, ps, req, f, p));
    }
    let mut w = ClassDef::new(b"WeakMap", CLASS_INTERNAL | CLASS_FINAL, 0);
    w.interfaces = ["ArrayAccess", "Countable", "IteratorAggregate"].iter().map(|i| i.as_bytes().to_vec()).collect();
    let wm: &[(&str, &[&str], u32, BuiltinFn)] = &[
        ("offsetGet", &["object"], 1, weak_get),
        ("offsetSet", &["object", "value"], 2, weak_set),
        ("offsetExists", &["object"], 1, weak_exists),
        ("offsetUnset", &["object"], 1, weak_unset),
        ("count", &[], 0, count),
        ("getIterator", &[], 0, weak_get_iterator),
    ];
    for &(n, ps, req, f) in wm {
        w.methods.push(method(n, ps, req, f, p));
    }
    let mut it = ClassDef::new(b"InternalIterator", CLASS_INTERNAL | CLASS_FINAL, 0);
    it.interfaces = vec![b"Iterator".to_vec()];
    let im: &[(&str, &[&str], u32, BuiltinFn)] = &[
        ("current", &[], 0, it_current),
        ("key", &[], 0, it_key),
        ("next", &[], 0, it_next),
        ("valid", &[], 0, it_valid),
        ("rewind", &[], 0, it_rewind),
    ];
    for &(n, ps, req, f) in im {
        it.methods.push(method(n, ps, req, f, p));
    }
    vec![s, w, it]
}
