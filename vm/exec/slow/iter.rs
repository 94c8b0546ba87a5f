//! foreach: FE_RESET_R / FE_FETCH_R. The iterator is a VAR holding a copy
//! of the array (one more owner, so writes to the variable separate) with
//! the position in its `u2` word.

use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, IS_CV, IS_TMP_VAR, IS_UNUSED, IS_VAR};
use crate::value::array::KeyRef;
use crate::value::refs::make_ref;
use crate::value::{ZArray, ZString, Zval, IS_INDIRECT};

/// Sets up the iterator in the result slot; true when there is nothing to visit.
#[inline(never)]
pub unsafe fn fe_reset_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*operand::any_read_1(ip, fp, vm)).deref();
    let res = operand::result(ip, fp);
    if v.is_array() {
        let mut it = v.copy_value();
        it.u2 = 0;
        *res = it;
        return Ok((*v.arr()).len() == 0);
    }
    if v.is_object() {
        *res = Zval::NULL;
        let r = object_reset(vm, v.copy_value(), res);
        if r.is_err() {
            // The loop never starts: its iterator goes (Zend's FE_RESET frees it too).
            let it = core::mem::replace(&mut *res, Zval::NULL);
            it.ptr_dtor();
        }
        return r;
    }
    let t = crate::stdlib::type_name(v);
    vm.warning(&format!("foreach() argument must be of type array|object, {} given", t));
    *res = Zval::NULL;
    Ok(true)
}

/// Advances the iterator op1: assigns the value to op2 and the key to the
/// result; false at the end.
#[inline(never)]
pub unsafe fn fe_fetch_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    let it = operand::slot_1(ip, fp);
    if (*it).is_object() {
        super::enter(vm, fp, ip);
        return object_fetch(vm, fp, ip, it);
    }
    if !(*it).is_array() {
        return Ok(false);
    }
    let a = &*(*it).arr();
    let pos = match a.pos_valid_from((*it).u2) {
        Some(p) => p,
        None => return Ok(false),
    };
    (*it).u2 = pos + 1;
    let Some((key, val)) = a.entry_at(pos) else { return Ok(false) };
    let val = (*val).copy_deref();
    if (*ip).op2_type == IS_CV {
        super::assign::assign(operand::slot_2(ip, fp), val);
    } else if (*ip).op2_type != IS_UNUSED {
        *operand::slot_2(ip, fp) = val;
    } else {
        val.ptr_dtor();
    }
    if (*ip).result_type != IS_UNUSED {
        let k = match key {
            KeyRef::Int(i) => Zval::long(i),
            KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
        };
        *operand::result(ip, fp) = k;
    }
    let _ = vm;
    Ok(true)
}

/// Where FE_FETCH_R goes when the iteration is over (extended_value, run form).
#[inline(always)]
pub unsafe fn fe_end(ip: *const Op) -> *const Op {
    (ip as *const u8).offset((*ip).extended_value as i32 as isize) as *const Op
}

// ---------------------------------------------------------------- by reference

/// FE_RESET_RW: the iterator is a VAR holding a reference to the array
/// (the variable itself becomes that reference), position in `u2`. An
/// array is visited even when empty (FE_FETCH_RW exits at once), as in Zend.
#[inline(never)]
pub unsafe fn fe_reset_rw(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let kind = (*ip).op1_type;
    let raw = operand::any_raw_1(ip, fp) as *mut Zval;
    let target = if kind == IS_VAR && (*raw).kind() == IS_INDIRECT { (*raw).zv_ptr() } else { raw };
    let res = operand::result(ip, fp);
    if (*target).deref().is_array() {
        let r = super::assign::take_ref(fp, ip, 1);
        // SAFETY: take_ref returned an owned reference-kind value.
        ZArray::separate(&mut (*r.zref()).val);
        let mut it = r;
        it.u2 = 0;
        *res = it;
        return Ok(false);
    }
    if (*target).deref().is_object() {
        let obj = (*target).deref().copy_value();
        if kind & (IS_TMP_VAR | IS_VAR) != 0 && (*raw).kind() != IS_INDIRECT {
            (*raw).ptr_dtor();
        }
        *res = Zval::NULL;
        if (*(*obj.obj()).class).is_subclass_of_name(b"traversable") {
            let gen = crate::exec::generator::of(obj.obj()).is_some();
            obj.ptr_dtor();
            if gen {
                return Err(vm.throw_error("Exception", "You can only iterate a generator by-reference if it declared that it yields by-reference"));
            }
            return Err(vm.throw_error("Error", "An iterator cannot be used with foreach by reference"));
        }
        let o = obj.obj();
        *res = obj;
        (*res).u2 = 0;
        return Ok(next_visible_prop(vm, o, 0).is_none());
    }
    if kind == IS_CV && (*target).is_undef() {
        operand::cv_read_1(ip, fp, vm);
    }
    let t = crate::stdlib::type_name((*target).deref());
    vm.warning(&format!("foreach() argument must be of type array|object, {} given", t));
    if kind & (IS_TMP_VAR | IS_VAR) != 0 && (*raw).kind() != IS_INDIRECT {
        (*raw).ptr_dtor();
    }
    *res = Zval::NULL;
    Ok(true)
}

/// FE_FETCH_RW: binds op2 by reference to the next element of the array
/// the iterator op1 refers to, the key to the result; false at the end.
/// Like Zend, a shared array is not separated (the elements become
/// references in place, which every holder reads through); an immutable
/// one (a literal assigned to the variable inside the loop) is separated
/// and iterated from its start, as Zend's iterator does when the array
/// behind it changed.
#[inline(never)]
pub unsafe fn fe_fetch_rw(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    let it = operand::slot_1(ip, fp);
    if (*it).is_object() {
        super::enter(vm, fp, ip);
        return object_fetch_rw(vm, fp, ip, it);
    }
    if !(*it).is_reference() {
        return Ok(false);
    }
    let holder: *mut Zval = &mut (*(*it).zref()).val;
    if !(*holder).is_array() {
        // The loop body replaced the array with something else.
        super::enter(vm, fp, ip);
        let t = crate::stdlib::type_name(&*holder);
        vm.warning(&format!("foreach() argument must be of type array|object, {} given", t));
        return Ok(false);
    }
    if (*(*holder).arr()).is_immutable() {
        ZArray::separate(holder);
        (*it).u2 = 0;
    }
    let a = (*holder).arr();
    let pos = match (*a).pos_valid_from((*it).u2) {
        Some(p) => p,
        None => return Ok(false),
    };
    let Some((key, val)) = (*a).entry_at(pos) else { return Ok(false) };
    (*it).u2 = pos + 1;
    make_ref(val);
    let r = (*val).copy_value();
    match (*ip).op2_type {
        IS_CV => super::assign::bind_ref(operand::slot_2(ip, fp), r),
        IS_UNUSED => r.ptr_dtor(),
        _ => *operand::slot_2(ip, fp) = r,
    }
    if (*ip).result_type != IS_UNUSED {
        let k = match key {
            KeyRef::Int(i) => Zval::long(i),
            KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
        };
        *operand::result(ip, fp) = k;
    }
    let _ = vm;
    Ok(true)
}

// ---------------------------------------------------------------- objects

use crate::runtime::class::Class;
use crate::value::object::ZObject;

/// Whether objects of `c` iterate by the Iterator protocol.
unsafe fn is_iterator(c: *const Class) -> bool {
    (*c).is_subclass_of_name(b"iterator")
}

/// Calls method `name` (lowercase) of `o` with no arguments.
pub(crate) unsafe fn call0(vm: &mut Vm, o: *mut ZObject, name: &[u8]) -> Result<Zval, Thrown> {
    match (*(*o).class).find_method(name) {
        Some(m) => crate::exec::slow::object::call_method(vm, o, m, &[]),
        None => Ok(Zval::NULL),
    }
}

/// `$it->valid()` of an Iterator, as a bool.
pub(crate) unsafe fn iter_valid(vm: &mut Vm, o: *mut ZObject) -> Result<bool, Thrown> {
    let valid = call0(vm, o, b"valid")?;
    let ok = crate::value::convert::to_bool(&valid);
    valid.ptr_dtor();
    Ok(ok)
}

/// `$it->current()` of an Iterator and, with `with_key`, `$it->key()`
/// (else NULL); nothing is left held when `key()` throws.
pub(crate) unsafe fn iter_entry(vm: &mut Vm, o: *mut ZObject, with_key: bool) -> Result<(Zval, Zval), Thrown> {
    let v = call0(vm, o, b"current")?;
    if !with_key {
        return Ok((v, Zval::NULL));
    }
    match call0(vm, o, b"key") {
        Ok(k) => Ok((v, k)),
        Err(t) => {
            v.ptr_dtor();
            Err(t)
        }
    }
}

/// `$it = $agg->getIterator()` until it is an Iterator (Zend's
/// `zend_user_it_get_new_iterator`).
pub(crate) unsafe fn aggregate_iterator(vm: &mut Vm, mut obj: Zval) -> Result<Zval, Thrown> {
    loop {
        let c = (*obj.obj()).class;
        if is_iterator(c) || !(*c).is_subclass_of_name(b"iteratoraggregate") {
            return Ok(obj);
        }
        let r = call0(vm, obj.obj(), b"getiterator");
        let cname = (*c).name_str();
        obj.ptr_dtor();
        let r = r?;
        if !r.is_object() || !(*(*r.obj()).class).is_subclass_of_name(b"traversable") {
            r.ptr_dtor();
            let msg = format!("Objects returned by {cname}::getIterator() must be traversable or implement interface Iterator");
            return Err(vm.throw_error("Exception", &msg));
        }
        obj = r;
    }
}

/// FE_RESET_R on an object: an Iterator (or the one an IteratorAggregate
/// gives) is rewound and asked `valid()`; other objects iterate their
/// visible properties. `obj` is owned; the iterator goes to `res`.
unsafe fn object_reset(vm: &mut Vm, obj: Zval, res: *mut Zval) -> Result<bool, Thrown> {
    if let Some(g) = crate::exec::generator::of(obj.obj()) {
        *res = obj;
        (*res).u2 = 0;
        return crate::exec::generator::fe_reset(vm, g);
    }
    let obj = aggregate_iterator(vm, obj)?;
    let o = obj.obj();
    *res = obj;
    (*res).u2 = 0;
    if !is_iterator((*o).class) {
        return Ok(next_visible_prop(vm, o, 0).is_none());
    }
    call0(vm, o, b"rewind")?.ptr_dtor();
    Ok(!iter_valid(vm, o)?)
}

/// The first property position at or after `pos` that the running scope
/// can see: declared slots first (initialized ones), then the dynamic
/// properties' positions after them.
unsafe fn next_visible_prop(vm: &Vm, o: *mut ZObject, mut pos: u32) -> Option<u32> {
    let c = &*(*o).class;
    let scope = crate::exec::slow::object::scope_of(vm);
    while pos < (*o).num_slots {
        let pi = &c.props[pos as usize];
        if !(*ZObject::slot(o, pos)).is_undef() && crate::exec::slow::object::can_see(pi.flags, pi.scope, scope) {
            return Some(pos);
        }
        pos += 1;
    }
    let d = (*o).dynamic;
    if d.is_null() {
        return None;
    }
    (*d).pos_valid_from(pos - (*o).num_slots).map(|p| p + (*o).num_slots)
}

/// FE_FETCH_R on an object iterator.
unsafe fn object_fetch(vm: &mut Vm, fp: *mut Zval, ip: *const Op, it: *mut Zval) -> Result<bool, Thrown> {
    let o = (*it).obj();
    let (val, key) = if let Some(g) = crate::exec::generator::of(o) {
        let first = (*it).u2 == 0;
        (*it).u2 = 1;
        match crate::exec::generator::fe_fetch(vm, g, first)? {
            Some(vk) => vk,
            None => return Ok(false),
        }
    } else if is_iterator((*o).class) {
        if (*it).u2 != 0 {
            call0(vm, o, b"next")?.ptr_dtor();
            if !iter_valid(vm, o)? {
                return Ok(false);
            }
        }
        (*it).u2 = 1;
        iter_entry(vm, o, (*ip).result_type != IS_UNUSED)?
    } else {
        let Some(pos) = next_visible_prop(vm, o, (*it).u2) else { return Ok(false) };
        (*it).u2 = pos + 1;
        if pos < (*o).num_slots {
            let pi = &(&(*(*o).class).props)[pos as usize];
            ((*ZObject::slot(o, pos)).copy_deref(), Zval::string(ZString::new(&pi.name)))
        } else {
            let Some((key, val)) = (*(*o).dynamic).entry_at(pos - (*o).num_slots) else { return Ok(false) };
            let k = match key {
                KeyRef::Int(i) => Zval::long(i),
                KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
            };
            ((*val).copy_deref(), k)
        }
    };
    if (*ip).op2_type == IS_CV {
        super::assign::assign(operand::slot_2(ip, fp), val);
    } else if (*ip).op2_type != IS_UNUSED {
        *operand::slot_2(ip, fp) = val;
    } else {
        val.ptr_dtor();
    }
    if (*ip).result_type != IS_UNUSED {
        *operand::result(ip, fp) = key;
    } else {
        key.ptr_dtor();
    }
    Ok(true)
}

/// FE_FETCH_RW on a plain object: binds op2 to the next visible property,
/// which becomes a reference in place (Zend's by-reference property walk).
unsafe fn object_fetch_rw(vm: &mut Vm, fp: *mut Zval, ip: *const Op, it: *mut Zval) -> Result<bool, Thrown> {
    let o = (*it).obj();
    let Some(pos) = next_visible_prop(vm, o, (*it).u2) else { return Ok(false) };
    (*it).u2 = pos + 1;
    let (slot, key) = if pos < (*o).num_slots {
        let pi = &(&(*(*o).class).props)[pos as usize];
        (ZObject::slot(o, pos), Zval::string(ZString::new(&pi.name)))
    } else {
        if (*(*o).dynamic).header.refcount > 1 {
            let mut z = Zval::array((*o).dynamic);
            (*o).dynamic = ZArray::separate(&mut z);
        }
        let Some((key, val)) = (*(*o).dynamic).entry_at(pos - (*o).num_slots) else { return Ok(false) };
        let k = match key {
            KeyRef::Int(i) => Zval::long(i),
            KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
        };
        (val, k)
    };
    make_ref(slot);
    let r = (*slot).copy_value();
    match (*ip).op2_type {
        IS_CV => super::assign::bind_ref(operand::slot_2(ip, fp), r),
        IS_UNUSED => r.ptr_dtor(),
        _ => *operand::slot_2(ip, fp) = r,
    }
    if (*ip).result_type != IS_UNUSED {
        *operand::result(ip, fp) = key;
    } else {
        key.ptr_dtor();
    }
    Ok(true)
}

/// Walks a Traversable object from Rust (`iterator_to_array` and friends,
/// Zend's `spl_iterator_apply`): rewind, then valid/current/key/next; `f`
/// gets each key and value (owned) when `keys` is set, else NULL keys.
pub unsafe fn walk_traversable(vm: &mut Vm, obj: &Zval, keys: bool, f: &mut dyn FnMut(Zval, Zval)) -> Result<(), Thrown> {
    if let Some(g) = crate::exec::generator::of(obj.obj()) {
        // Hold the generator while it runs (the callback may drop the caller's copy).
        let held = obj.copy_value();
        let r = (|| {
            if crate::exec::generator::fe_reset(vm, g)? {
                return Ok(());
            }
            let mut first = true;
            while let Some((v, k)) = crate::exec::generator::fe_fetch(vm, g, first)? {
                first = false;
                if keys {
                    f(k, v);
                } else {
                    k.ptr_dtor();
                    f(Zval::NULL, v);
                }
            }
            Ok(())
        })();
        held.ptr_dtor();
        return r;
    }
    let it = aggregate_iterator(vm, obj.copy_value())?;
    let o = it.obj();
    let r = (|| {
        call0(vm, o, b"rewind")?.ptr_dtor();
        loop {
            if !iter_valid(vm, o)? {
                return Ok(());
            }
            let (v, k) = iter_entry(vm, o, keys)?;
            f(k, v);
            call0(vm, o, b"next")?.ptr_dtor();
        }
    })();
    it.ptr_dtor();
    r
}
