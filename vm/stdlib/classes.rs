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
    // An enum is a class too.
    *r = exists_kind(vm, a, |f| f & (CLASS_INTERFACE | CLASS_TRAIT) == 0);
    Ok(())
}
pub fn interface_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = exists_kind(vm, a, |f| f & CLASS_INTERFACE != 0);
    Ok(())
}
pub fn trait_exists(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = exists_kind(vm, a, |f| f & CLASS_TRAIT != 0);
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
                (*out).update_symtable(k, val.copy_deref());
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

/// The class argument of `class_parents`/`class_implements`/`class_uses`:
/// an object or a class name; a missing class warns and gives `None`.
fn spl_class_arg(vm: &mut Vm, fname: &str, a: &[Zval]) -> Result<Option<*const Class>, Thrown> {
    let v = a.first().map_or(Zval::NULL, |v| *v.deref());
    if !v.is_object() && !v.is_string() {
        let t = super::type_name(&v);
        return Err(vm.throw_error("TypeError", &format!("{fname}(): Argument #1 ($object_or_class) must be of type object|string, {t} given")));
    }
    let c = arg_class(vm, &v);
    if c.is_none() {
        let autoload = a.get(1).map_or(true, crate::value::convert::to_bool);
        let name = String::from_utf8_lossy(&bytes(&v)).into_owned();
        let tail = if autoload { " and could not be loaded" } else { "" };
        vm.warning(&format!("{fname}(): Class {name} does not exist{tail}"));
    }
    Ok(c)
}

/// `[name => name, …]` of the given classes.
fn name_map(classes: impl Iterator<Item = *const Class>) -> Zval {
    let out = ZArray::new();
    for c in classes {
        // SAFETY: bound classes; `out` is a fresh array.
        unsafe {
            let k = ZString::new(&(*c).name);
            (*out).update_str(k, ret_str(&(*c).name));
            Zval::string(k).ptr_dtor();
        }
    }
    Zval::array(out)
}

pub fn class_parents(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = match spl_class_arg(vm, "class_parents", a)? {
        Some(c) => {
            let mut chain = Vec::new();
            // SAFETY: bound classes and their parents.
            let mut p = unsafe { (*c).parent };
            while !p.is_null() {
                chain.push(p);
                // SAFETY: as above.
                p = unsafe { (*p).parent };
            }
            name_map(chain.into_iter())
        }
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn class_implements(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = match spl_class_arg(vm, "class_implements", a)? {
        // SAFETY: a bound class; its interface list is in Zend's order.
        Some(c) => name_map(unsafe { (*c).interfaces.clone() }.into_iter()),
        None => Zval::FALSE,
    };
    Ok(())
}

pub fn class_uses(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    *r = match spl_class_arg(vm, "class_uses", a)? {
        Some(c) => {
            let mut traits: Vec<*const Class> = Vec::new();
            // SAFETY: a bound class keeps its declaration.
            unsafe {
                if !(*c).def.is_null() {
                    for tn in &(*(*c).def).traits {
                        if let Some(t) = find_class(vm, tn) {
                            if !traits.iter().any(|&x| core::ptr::eq(x, t)) {
                                traits.push(t);
                            }
                        }
                    }
                }
            }
            name_map(traits.into_iter())
        }
        None => Zval::FALSE,
    };
    Ok(())
}

/// Zend's `properties_info` order of `c`'s declarations: its own, then its
/// parent's (recursively), then those of the traits it uses; a name is
/// listed once, where it first appears.
unsafe fn props_info_order(vm: &Vm, c: *const Class, order: &mut Vec<(*const Class, *const crate::runtime::class::PropDef)>) {
    if (*c).def.is_null() {
        return;
    }
    let add = |order: &mut Vec<_>, decl: *const Class, d: *const crate::runtime::class::ClassDef| {
        for pd in &(*d).props {
            if !order.iter().any(|&(_, p): &(_, *const crate::runtime::class::PropDef)| (*p).name == pd.name) {
                order.push((decl, pd as *const _));
            }
        }
    };
    add(order, c, (*c).def);
    if !(*c).parent.is_null() {
        props_info_order(vm, (*c).parent, order);
    }
    for tn in &(*(*c).def).traits {
        if let Some(t) = find_class(vm, tn) {
            if !(*t).def.is_null() {
                add(order, c, (*t).def);
            }
        }
    }
}

/// `get_class_vars()`: the default values of the properties visible from
/// the caller, instance ones then static ones, each in Zend's
/// `properties_info` order (a class's own declarations, then inherited ones).
pub fn get_class_vars(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let name = match a.first().map(|v| *v.deref()) {
        Some(v) if v.is_string() => bytes(&v),
        v => {
            let t = v.as_ref().map_or("null", super::type_name);
            return Err(vm.throw_error("TypeError", &format!("get_class_vars(): Argument #1 ($class) must be of type string, {t} given")));
        }
    };
    let Some(c) = find_class(vm, &name) else {
        let n = String::from_utf8_lossy(&name).into_owned();
        return Err(vm.throw_error("TypeError", &format!("get_class_vars(): Argument #1 ($class) must be a valid class name, {n} given")));
    };
    use crate::runtime::class::{PropDef, ACC_STATIC};
    // SAFETY: bound classes, their declarations and static cells; the
    // caller's frame is live.
    unsafe {
        crate::exec::slow::object::ensure_defaults(vm, c)?;
        let scope = crate::exec::slow::object::scope_of_caller(vm);
        let mut order: Vec<(*const Class, *const PropDef)> = Vec::new();
        props_info_order(vm, c, &mut order);
        let out = ZArray::new();
        *r = Zval::array(out);
        for statics in [false, true] {
            for &(decl, pd) in &order {
                let pd = &*pd;
                if (pd.flags & ACC_STATIC != 0) != statics || !crate::exec::slow::object::can_see(pd.flags, decl, scope) {
                    continue;
                }
                let v = if statics {
                    match &pd.default {
                        Some(crate::runtime::class::Init::Lit(v)) => v.copy_value(),
                        Some(crate::runtime::class::Init::Code(f)) => crate::exec::slow::object::run_init(vm, &**f, decl)?,
                        None => Zval::NULL,
                    }
                } else {
                    match (*c).find_prop(&pd.name).filter(|p| core::ptr::eq(p.scope, decl)).or_else(|| (*c).props.iter().find(|p| p.name == pd.name && core::ptr::eq(p.scope, decl))) {
                        Some(pi) => {
                            let d = &(&*(*c).defaults.get())[pi.slot as usize];
                            if d.is_undef() { Zval::NULL } else { d.copy_value() }
                        }
                        None => continue,
                    }
                };
                let ks = ZString::new(&pd.name);
                (*out).update_str(ks, v);
                Zval::string(ks).ptr_dtor();
            }
        }
    }
    Ok(())
}
