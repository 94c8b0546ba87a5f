//! Class and object functions: `get_class`, `get_parent_class`,
//! `method_exists`, `property_exists`, `class_exists`, `get_object_vars`,
//! `spl_object_id`, `is_a`, `is_subclass_of`, …

use super::ret_str;
use crate::exec::{Thrown, Vm};
use crate::runtime::class::{Class, CLASS_ENUM, CLASS_INTERFACE, CLASS_TRAIT};
use crate::runtime::classes::find_class;
use crate::value::object::ZObject;
use crate::value::{ZArray, ZString, Zval};

fn arg_class(vm: &Vm, v: &Zval) -> Option<*const Class> {
    let v = v.deref();
    if v.is_object() {
        // SAFETY: object-kind values hold a live object.
        return Some(unsafe { (*v.obj()).class });
    }
    if v.is_string() {
        // SAFETY: string-kind values hold a live string.
        return find_class(vm, unsafe { (*v.str()).bytes() });
    }
    None
}

fn bytes(v: &Zval) -> Vec<u8> {
    let v = v.deref();
    if v.is_string() {
        // SAFETY: string-kind values hold a live string.
        unsafe { (*v.str()).bytes().to_vec() }
    } else {
        Vec::new()
    }
}

pub fn get_class(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    match a.first().map(|v| v.deref()) {
        // SAFETY: object-kind values hold a live object.
        Some(v) if v.is_object() => *r = ret_str(unsafe { &ZObject::class(v.obj()).name }),
        Some(v) => {
            let t = super::type_name(v);
            return Err(vm.throw_error("TypeError", &format!("get_class(): Argument #1 ($object) must be of type object, {t} given")));
        }
        None => {
            // SAFETY: the caller's frame is live while the builtin runs.
            let scope = unsafe { crate::exec::slow::object::scope_of_caller(vm) };
            if scope.is_null() {
                return Err(vm.throw_error("Error", "get_class() without arguments must be called from within a class"));
            }
            // SAFETY: a bound class.
            *r = ret_str(unsafe { &(*scope).name });
        }
    }
    Ok(())
}

pub fn get_parent_class(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = Zval::FALSE;
    let c = match a.first() {
        Some(v) => arg_class(vm, v),
        // SAFETY: the caller's frame is live.
        None => Some(unsafe { crate::exec::slow::object::scope_of_caller(vm) }).filter(|c| !c.is_null()),
    };
    if let Some(c) = c {
        // SAFETY: bound classes.
        unsafe {
            if !(*c).parent.is_null() {
                *r = ret_str(&(*(*c).parent).name);
            }
        }
    }
    Ok(())
}

pub fn method_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let c = a.first().and_then(|v| arg_class(vm, v));
    let m = a.get(1).map(bytes).unwrap_or_default().to_ascii_lowercase();
    // SAFETY: bound class.
    *r = Zval::bool(c.is_some_and(|c| unsafe { (*c).find_method(&m).is_some() }));
    Ok(())
}

pub fn property_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let name = a.get(1).map(bytes).unwrap_or_default();
    let mut found = false;
    if let Some(c) = a.first().and_then(|v| arg_class(vm, v)) {
        // SAFETY: bound class; a live object.
        unsafe {
            found = (*c).props.iter().any(|p| p.name == name) || (*c).statics.contains_key(&name);
            let v = a[0].deref();
            if !found && v.is_object() {
                let d = (*v.obj()).dynamic;
                found = !d.is_null() && (*d).find_bytes(&name).is_some();
            }
        }
    }
    *r = Zval::bool(found);
    Ok(())
}

fn exists_kind(vm: &Vm, a: &[Zval], want: fn(u32) -> bool) -> Zval {
    let name = a.first().map(bytes).unwrap_or_default();
    // SAFETY: bound class.
    Zval::bool(find_class(vm, &name).is_some_and(|c| want(unsafe { (*c).flags })))
}

pub fn class_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = exists_kind(vm, a, |f| f & (CLASS_INTERFACE | CLASS_TRAIT) == 0);
    Ok(())
}
pub fn interface_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = exists_kind(vm, a, |f| f & CLASS_INTERFACE != 0);
    Ok(())
}
pub fn enum_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = exists_kind(vm, a, |f| f & CLASS_ENUM != 0);
    Ok(())
}

pub fn get_object_vars(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let Some(v) = a.first().map(|v| v.deref()).filter(|v| v.is_object()) else {
        let t = a.first().map_or("null", super::type_name);
        return Err(vm.throw_error("TypeError", &format!("get_object_vars(): Argument #1 ($object) must be of type object, {t} given")));
    };
    let o = v.obj();
    let out = ZArray::new();
    // SAFETY: a live object; the caller's frame is live.
    unsafe {
        let scope = crate::exec::slow::object::scope_of_caller(vm);
        let c = ZObject::class(o);
        for pi in &c.props {
            let val = &*ZObject::slot(o, pi.slot);
            if val.is_undef() || !crate::exec::slow::object::can_see(pi.flags, pi.scope, scope) {
                continue;
            }
            let k = ZString::new(&pi.name);
            (*out).update(&crate::value::Key::normalize(k), val.copy_deref());
            Zval::string(k).ptr_dtor();
        }
        let d = (*o).dynamic;
        if !d.is_null() {
            for (k, val) in (*d).iter() {
                match k {
                    crate::value::KeyRef::Int(i) => {
                        (*out).update_int(i, val.copy_deref());
                    }
                    crate::value::KeyRef::Str(s) => {
                        let ks = ZString::new(s.bytes());
                        (*out).update_str(ks, val.copy_deref());
                        Zval::string(ks).ptr_dtor();
                    }
                }
            }
        }
    }
    *r = Zval::array(out);
    Ok(())
}

pub fn get_class_methods(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let out = ZArray::new();
    if let Some(c) = a.first().and_then(|v| arg_class(vm, v)) {
        // SAFETY: bound class and its methods' functions.
        unsafe {
            let mut ms: Vec<(usize, Vec<u8>)> = Vec::new();
            for m in (*c).methods.values() {
                let name = (*m.entry).name().to_vec();
                // Declaration order: own methods first, then inherited ones.
                let mut depth = 0usize;
                let mut k: *const Class = c;
                while !k.is_null() && !core::ptr::eq(k, m.scope) {
                    depth += 1;
                    k = (*k).parent;
                }
                let pos = (*m.scope).own_entries.iter().position(|e| core::ptr::eq(&**e, m.entry)).unwrap_or(0);
                ms.push((depth * 10000 + pos, name));
            }
            ms.sort();
            for (_, n) in ms {
                (*out).append(ret_str(&n));
            }
        }
    }
    *r = Zval::array(out);
    Ok(())
}

pub fn spl_object_id(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    match a.first().map(|v| v.deref()) {
        // SAFETY: object-kind values hold a live object.
        Some(v) if v.is_object() => *r = Zval::long(unsafe { (*v.obj()).handle } as i64),
        Some(v) => {
            let t = super::type_name(v);
            return Err(vm.throw_error("TypeError", &format!("spl_object_id(): Argument #1 ($object) must be of type object, {t} given")));
        }
        None => {}
    }
    Ok(())
}

pub fn spl_object_hash(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    spl_object_id(vm, a, r)?;
    let id = r.lval();
    *r = ret_str(format!("{:032x}", id).as_bytes());
    Ok(())
}

fn is_a_impl(vm: &Vm, a: &[Zval], allow_string: bool, strict_sub: bool) -> bool {
    let Some(v) = a.first().map(|v| v.deref()) else { return false };
    if !v.is_object() && !(allow_string && v.is_string()) {
        return false;
    }
    let Some(c) = arg_class(vm, v) else { return false };
    let Some(target) = find_class(vm, &a.get(1).map(bytes).unwrap_or_default()) else { return false };
    if strict_sub && core::ptr::eq(c, target) {
        return false;
    }
    // SAFETY: bound classes.
    unsafe { (*c).is_subclass_of(target) }
}

pub fn is_a(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let allow = a.get(2).is_some_and(crate::value::convert::to_bool);
    *r = Zval::bool(is_a_impl(vm, a, allow, false));
    Ok(())
}

pub fn is_subclass_of(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let allow = a.get(2).map_or(true, crate::value::convert::to_bool);
    *r = Zval::bool(is_a_impl(vm, a, allow, true));
    Ok(())
}
