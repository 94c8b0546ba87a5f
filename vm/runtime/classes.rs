//! Binding a class declaration in a context (Zend's `zend_do_inheritance`
//! and `zend_do_link_class`): the parent's members are merged in, interfaces
//! collected, property slots numbered, inheritance rules checked.

use super::class::*;
use crate::exec::Vm;
use crate::runtime::function::FuncEntry;
use crate::value::Zval;

/// Why a class could not be bound: PHP's fatal error text.
pub type BindError = String;

fn lc(b: &[u8]) -> Vec<u8> {
    let b = b.strip_prefix(b"\\").unwrap_or(b);
    b.to_ascii_lowercase()
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The class this context knows as `name` (any case, leading `\` allowed).
pub fn find_class(vm: &Vm, name: &[u8]) -> Option<*const Class> {
    vm.classes.get(&lc(name)).map(|c| &**c as *const Class)
}

/// Whether every class `def` names (parent, interfaces) is bound already.
pub fn can_bind(vm: &Vm, def: &ClassDef) -> bool {
    def.parent.iter().chain(def.interfaces.iter()).all(|n| find_class(vm, n).is_some())
}

/// Binds `def` under its name.
///
/// # Safety
/// `def` outlives the context's classes (it belongs to a program the
/// context keeps, or to the context's builtin definitions).
pub unsafe fn declare_class(vm: &mut Vm, def: *const ClassDef) -> Result<*const Class, BindError> {
    let d = &*def;
    let key = lc(&d.name);
    if vm.classes.contains_key(&key) {
        let what = if d.flags & CLASS_INTERFACE != 0 { "interface" } else if d.flags & CLASS_TRAIT != 0 { "trait" } else { "class" };
        return Err(format!("Cannot declare {what} {}, because the name is already in use", s(&d.name)));
    }
    let mut c = Box::new(Class::new(&d.name, d.flags));
    let me: *const Class = &*c;
    c.def = def;
    if let Some(pn) = &d.parent {
        let Some(p) = find_class(vm, pn) else {
            return Err(format!("Class \"{}\" not found", s(pn)));
        };
        let p = &*p;
        if p.flags & CLASS_INTERFACE != 0 {
            return Err(format!("Class {} cannot extend interface {}", s(&d.name), p.name_str()));
        }
        if p.flags & CLASS_TRAIT != 0 {
            return Err(format!("Class {} cannot extend trait {}", s(&d.name), p.name_str()));
        }
        if p.flags & CLASS_FINAL != 0 {
            return Err(format!("Class {} cannot extend final class {}", s(&d.name), p.name_str()));
        }
        inherit(&mut c, p);
    }
    for iname in &d.interfaces {
        let Some(i) = find_class(vm, iname) else {
            return Err(format!("Interface \"{}\" not found", s(iname)));
        };
        let i = &*i;
        if i.flags & CLASS_INTERFACE == 0 {
            return Err(format!("{} cannot implement {} - it is not an interface", s(&d.name), i.name_str()));
        }
        add_interface(&mut c, i);
    }
    for cd in &d.consts {
        let (mut value, init) = match &cd.value {
            Init::Lit(v) => (v.copy_value(), core::ptr::null()),
            Init::Code(f) => (Zval::UNDEF, &**f as *const _),
        };
        let mut backing = Zval::NULL;
        if cd.flags & CONST_CASE != 0 {
            backing = value;
            value = Zval::UNDEF;
        }
        if let Some(&old) = c.consts.get(&cd.name) {
            if (*old).flags & ACC_FINAL != 0 {
                return Err(format!("{}::{} cannot override final constant {}::{}", s(&d.name), s(&cd.name), (*(*old).scope).name_str(), s(&cd.name)));
            }
        }
        let cell = Box::new(ConstCell { value: value.into(), init, flags: cd.flags, scope: me, busy: false.into(), backing });
        c.consts.insert(cd.name.clone(), &*cell);
        c.own_consts.push(cell);
    }
    for pd in &d.props {
        let (value, init) = match &pd.default {
            Some(Init::Lit(v)) => (v.copy_value(), core::ptr::null()),
            Some(Init::Code(f)) => (Zval::UNDEF, &**f as *const _),
            None if pd.ty.is_some() => (Zval::UNDEF, core::ptr::null()),
            None => (Zval::NULL, core::ptr::null()),
        };
        if pd.flags & ACC_STATIC != 0 {
            let cell = Box::new(StaticCell { value: value.into(), init, flags: pd.flags, scope: me });
            c.statics.insert(pd.name.clone(), &*cell);
            c.own_statics.push(cell);
            continue;
        }
        let slot = match c.prop_map.get(&pd.name).copied() {
            Some(i) => {
                let old = &c.props[i as usize];
                if old.flags & ACC_PRIVATE == 0 && (old.flags & ACC_VISIBILITY) < (pd.flags & ACC_VISIBILITY) {
                    let need = if old.flags & ACC_PUBLIC != 0 { " or weaker" } else { "" };
                    let _ = need;
                    return Err(format!(
                        "Access level to {}::${} must be {} (as in class {}){}",
                        s(&d.name),
                        s(&pd.name),
                        visibility_name(old.flags),
                        (*old.scope).name_str(),
                        if old.flags & ACC_PROTECTED != 0 { " or weaker" } else { "" }
                    ));
                }
                let old = &mut c.props[i as usize];
                old.flags = pd.flags;
                old.scope = me;
                old.ty = pd.ty.clone();
                old.slot
            }
            None => {
                let slot = c.props.len() as u32;
                c.props.push(PropInfo { name: pd.name.clone(), flags: pd.flags, scope: me, slot, ty: pd.ty.clone() });
                c.prop_map.insert(pd.name.clone(), slot);
                c.defaults.get_mut().push(Zval::NULL);
                slot
            }
        };
        let dv = &mut c.defaults.get_mut()[slot as usize];
        dv.ptr_dtor();
        *dv = value;
        c.default_inits.retain(|&(s2, _, _)| s2 != slot);
        if !init.is_null() {
            c.default_inits.push((slot, init, me));
        }
    }
    if !c.default_inits.is_empty() {
        *c.defaults_ready.get_mut() = false;
    }
    for md in &d.methods {
        let name = lc(&md.func.op.name);
        if let Some(old) = c.methods.get(&name) {
            if old.flags & ACC_FINAL != 0 && old.flags & ACC_PRIVATE == 0 {
                return Err(format!("Cannot override final method {}::{}()", (*old.scope).name_str(), s(&old.func().op.name)));
            }
            if old.flags & ACC_STATIC != md.flags & ACC_STATIC && old.flags & ACC_PRIVATE == 0 {
                let (a, b) = if md.flags & ACC_STATIC != 0 { ("static", "non static") } else { ("non static", "static") };
                return Err(format!("Cannot make {} method {}::{}() {} in class {}", b, (*old.scope).name_str(), s(&old.func().op.name), a, s(&d.name)));
            }
        }
        let mut e = FuncEntry::new(&*md.func);
        e.scope = me;
        let m = Method { entry: &mut *e, flags: md.flags, scope: me };
        c.own_entries.push(e);
        c.methods.insert(name, m);
    }
    for (name, _) in &d.cases {
        c.cases.push(name.clone());
    }
    c.magic = Magic {
        construct: c.find_method(b"__construct"),
        destruct: c.find_method(b"__destruct"),
        tostring: c.find_method(b"__tostring"),
        get: c.find_method(b"__get"),
        set: c.find_method(b"__set"),
        isset: c.find_method(b"__isset"),
        unset: c.find_method(b"__unset"),
        call: c.find_method(b"__call"),
        call_static: c.find_method(b"__callstatic"),
        invoke: c.find_method(b"__invoke"),
    };
    if c.magic.tostring.is_some() && !c.is_interface() {
        if let Some(st) = find_class(vm, b"stringable") {
            add_interface(&mut c, &*st);
        }
    }
    if c.flags & (CLASS_ABSTRACT | CLASS_INTERFACE | CLASS_TRAIT) == 0 {
        check_abstract(&c)?;
    }
    vm.classes.insert(key, c);
    Ok(me)
}

/// Copies the parent's members into a new class.
unsafe fn inherit(c: &mut Class, p: &Class) {
    c.parent = p;
    c.interfaces = p.interfaces.clone();
    for (k, v) in &p.consts {
        if (**v).flags & ACC_PRIVATE == 0 {
            c.consts.insert(k.clone(), *v);
        }
    }
    for pi in &p.props {
        c.props.push(PropInfo { name: pi.name.clone(), flags: pi.flags, scope: pi.scope, slot: pi.slot, ty: pi.ty.clone() });
    }
    for (k, &i) in &p.prop_map {
        let pi = &p.props[i as usize];
        if pi.flags & ACC_PRIVATE != 0 && k == &pi.name {
            c.prop_map.insert(mangle(&(*pi.scope).name, &pi.name), i);
        } else {
            c.prop_map.insert(k.clone(), i);
        }
    }
    *c.defaults.get_mut() = (*p.defaults.get()).iter().map(|v| v.copy_value()).collect();
    c.default_inits = p.default_inits.clone();
    for (k, v) in &p.statics {
        c.statics.insert(k.clone(), *v);
    }
    for (k, m) in &p.methods {
        c.methods.insert(k.clone(), *m);
    }
    c.flags |= p.flags & CLASS_ALLOW_DYNAMIC;
    c.create = p.create;
}

/// `"\0Class\0name"`: the key of a private property of an ancestor.
pub fn mangle(class: &[u8], name: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(class.len() + name.len() + 2);
    k.push(0);
    k.extend_from_slice(class);
    k.push(0);
    k.extend_from_slice(name);
    k
}

unsafe fn add_interface(c: &mut Class, i: &Class) {
    let ip: *const Class = i;
    if !c.interfaces.iter().any(|&x| core::ptr::eq(x, ip)) {
        c.interfaces.push(ip);
    }
    for &sub in &i.interfaces {
        if !c.interfaces.iter().any(|&x| core::ptr::eq(x, sub)) {
            c.interfaces.push(sub);
        }
    }
    for (k, v) in &i.consts {
        c.consts.entry(k.clone()).or_insert(*v);
    }
    for (k, m) in &i.methods {
        c.methods.entry(k.clone()).or_insert(*m);
    }
}

/// A concrete class must implement every abstract method it inherits.
unsafe fn check_abstract(c: &Class) -> Result<(), BindError> {
    let mut missing: Vec<(String, String)> = Vec::new();
    for m in c.methods.values() {
        let iface = (*m.scope).flags & CLASS_INTERFACE != 0;
        if m.flags & ACC_ABSTRACT != 0 || iface {
            missing.push(((*m.scope).name_str(), s(&m.func().op.name)));
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    missing.sort();
    let n = missing.len();
    let list: Vec<String> = missing.iter().take(3).map(|(c, m)| format!("{c}::{m}")).collect();
    let more = if n > 3 { ", ..." } else { "" };
    let what = if c.flags & CLASS_ENUM != 0 { "Enum" } else { "Class" };
    Err(format!(
        "{what} {} contains {n} abstract method{} and must therefore be declared abstract or implement the remaining methods ({}{more})",
        c.name_str(),
        if n == 1 { "" } else { "s" },
        list.join(", ")
    ))
}
