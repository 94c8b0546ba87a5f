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
    if !d.traits.is_empty() {
        bind_traits(vm, &mut c, d, me)?;
        if !c.default_inits.is_empty() {
            *c.defaults_ready.get_mut() = false;
        }
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

/// Composes the traits `d` uses into `c` (Zend's `zend_do_bind_traits`):
/// methods (with `insteadof` exclusions and `as` aliases), constants,
/// properties and static properties, all re-scoped to the using class, so
/// `self`, `static` variables and private access work per using class.
unsafe fn bind_traits(vm: &mut Vm, c: &mut Class, d: &ClassDef, me: *const Class) -> Result<(), BindError> {
    let mut traits: Vec<*const Class> = Vec::new();
    for tn in &d.traits {
        let Some(t) = find_class(vm, tn) else {
            return Err(format!("Trait \"{}\" not found", s(tn)));
        };
        if (*t).flags & CLASS_TRAIT == 0 {
            return Err(format!("{} cannot use {} - it is not a trait", s(&d.name), (*t).name_str()));
        }
        if !traits.iter().any(|&x| core::ptr::eq(x, t)) {
            traits.push(t);
        }
    }
    let resolve = |n: &[u8]| -> Result<*const Class, BindError> {
        match find_class(vm, n) {
            Some(t) if traits.iter().any(|&x| core::ptr::eq(x, t)) => Ok(t),
            Some(t) if (*t).flags & CLASS_TRAIT == 0 => {
                Err(format!("Class {} is not a trait, Only traits may be used in 'as' and 'insteadof' statements", (*t).name_str()))
            }
            Some(t) => Err(format!("Required Trait {} wasn't added to {}", (*t).name_str(), s(&d.name))),
            None => Err(format!("Could not find trait {}", s(n))),
        }
    };
    // (trait, lowercase method) pairs excluded by `insteadof`.
    let mut excluded: Vec<(*const Class, Vec<u8>)> = Vec::new();
    // Resolved alias rules: (trait or null, lowercase method, flags, alias).
    let mut aliases: Vec<(*const Class, Vec<u8>, u32, Option<Vec<u8>>)> = Vec::new();
    for r in &d.trait_rules {
        match r {
            TraitRule::Insteadof { trait_, method, instead_of } => {
                let t = resolve(trait_)?;
                let m = lc(method);
                if !(*t).methods.contains_key(&m) {
                    return Err(format!("A precedence rule was defined for {}::{} but this method does not exist", (*t).name_str(), s(method)));
                }
                for other in instead_of {
                    let o = resolve(other)?;
                    if core::ptr::eq(o, t) {
                        return Err(format!(
                            "Inconsistent insteadof definition. The method {} is to be used from {}, but {} is also on the exclude list",
                            s(method),
                            (*t).name_str(),
                            (*t).name_str()
                        ));
                    }
                    excluded.push((o, m.clone()));
                }
            }
            TraitRule::Alias { trait_, method, flags, alias } => {
                let m = lc(method);
                let t = match trait_ {
                    Some(n) => {
                        let t = resolve(n)?;
                        if !(*t).methods.contains_key(&m) {
                            return Err(format!("An alias was defined for {}::{} but this method does not exist", (*t).name_str(), s(method)));
                        }
                        t
                    }
                    None => {
                        let having: Vec<*const Class> = traits.iter().copied().filter(|&t| (*t).methods.contains_key(&m)).collect();
                        if having.len() > 1 {
                            let (a, b) = ((*having[0]).name_str(), (*having[1]).name_str());
                            return Err(format!(
                                "An alias was defined for method {}(), which exists in both {a} and {b}. Use {a}::{} or {b}::{} to resolve the ambiguity",
                                s(method),
                                s(method),
                                s(method)
                            ));
                        }
                        if having.is_empty() {
                            return Err(match alias {
                                Some(a) => format!("An alias ({}) was defined for method {}(), but this method does not exist", s(a), s(method)),
                                None => format!("The modifiers of the trait method {}() are changed, but this method does not exist. Error", s(method)),
                            });
                        }
                        core::ptr::null()
                    }
                };
                aliases.push((t, m, *flags, alias.clone()));
            }
        }
    }
    // Methods taken from a trait, by key: the trait they came from.
    let mut from_trait: Vec<(Vec<u8>, *const Class)> = Vec::new();
    for &t in &traits {
        for (key, m) in trait_methods(t) {
            let matches = |rt: *const Class, rm: &[u8]| (rt.is_null() || core::ptr::eq(rt, t)) && rm == key.as_slice();
            for (rt, rm, flags, alias) in &aliases {
                if let Some(a) = alias {
                    if matches(*rt, rm) {
                        let f = if *flags != 0 { (m.flags & !ACC_VISIBILITY) | flags } else { m.flags };
                        add_trait_method(c, me, t, a, m, f, &mut from_trait)?;
                    }
                }
            }
            if excluded.iter().any(|(et, em)| core::ptr::eq(*et, t) && *em == key) {
                continue;
            }
            let mut f = m.flags;
            for (rt, rm, flags, alias) in &aliases {
                if alias.is_none() && *flags != 0 && matches(*rt, rm) {
                    f = (f & !ACC_VISIBILITY) | flags;
                }
            }
            let name = (*m.entry).name().to_vec();
            add_trait_method(c, me, t, &name, m, f, &mut from_trait)?;
        }
    }
    for &t in &traits {
        let t = &*t;
        // Constants (PHP 8.2).
        let mut names: Vec<&Vec<u8>> = t.consts.keys().filter(|k| core::ptr::eq((*t.consts[*k]).scope, t)).collect();
        names.sort();
        for k in names {
            let cell = &*t.consts[k];
            if let Some(&old) = c.consts.get(k) {
                let same = (*old).flags & ACC_VISIBILITY == cell.flags & ACC_VISIBILITY
                    && crate::value::compare::is_identical(&*(*old).value.get(), &*cell.value.get());
                if !same {
                    return Err(format!(
                        "{} and {} define the same constant ({}) in the composition of {}. However, the definition differs and is considered incompatible. Class was composed",
                        (*(*old).scope).name_str(),
                        t.name_str(),
                        s(k),
                        s(&d.name)
                    ));
                }
                continue;
            }
            let nc = Box::new(ConstCell {
                value: (*cell.value.get()).copy_value().into(),
                init: cell.init,
                flags: cell.flags,
                scope: me,
                busy: false.into(),
                backing: Zval::NULL,
            });
            c.consts.insert(k.clone(), &*nc);
            c.own_consts.push(nc);
        }
        // Instance properties, in the trait's slot order.
        let tdefaults = &*t.defaults.get();
        for pi in t.props.iter().filter(|p| core::ptr::eq(p.scope, t)) {
            let dv = &tdefaults[pi.slot as usize];
            if let Some(&i) = c.prop_map.get(&pi.name) {
                let old = &c.props[i as usize];
                let od = &c.defaults.get_mut()[old.slot as usize];
                let same = old.flags == pi.flags && old.ty.as_ref().map(|x| &x.1) == pi.ty.as_ref().map(|x| &x.1) && crate::value::compare::is_identical(od, dv);
                if !same {
                    return Err(incompatible_prop(&*old.scope, t, &pi.name, &d.name));
                }
                continue;
            }
            let slot = c.props.len() as u32;
            c.props.push(PropInfo { name: pi.name.clone(), flags: pi.flags, scope: me, slot, ty: pi.ty.clone() });
            c.prop_map.insert(pi.name.clone(), slot);
            c.defaults.get_mut().push(dv.copy_value());
            if let Some(&(_, f, _)) = t.default_inits.iter().find(|(sl, _, _)| *sl == pi.slot) {
                c.default_inits.push((slot, f, me));
            }
        }
        // Static properties: each using class gets its own cell.
        let mut names: Vec<&Vec<u8>> = t.statics.keys().filter(|k| core::ptr::eq((*t.statics[*k]).scope, t)).collect();
        names.sort();
        for k in names {
            let cell = &*t.statics[k];
            if let Some(&old) = c.statics.get(k) {
                if core::ptr::eq((*old).scope, me) || (*old).flags & ACC_PRIVATE == 0 {
                    let same = (*old).flags == cell.flags && crate::value::compare::is_identical(&*(*old).value.get(), &*cell.value.get());
                    if !same {
                        return Err(incompatible_prop(&*(*old).scope, t, k, &d.name));
                    }
                    if core::ptr::eq((*old).scope, me) {
                        continue;
                    }
                }
            }
            let nc = Box::new(StaticCell { value: (*cell.value.get()).copy_value().into(), init: cell.init, flags: cell.flags, scope: me });
            c.statics.insert(k.clone(), &*nc);
            c.own_statics.push(nc);
        }
    }
    Ok(())
}

fn incompatible_prop(a: &Class, t: &Class, name: &[u8], class: &[u8]) -> BindError {
    format!(
        "{} and {} define the same property (${}) in the composition of {}. However, the definition differs and is considered incompatible. Class was composed",
        a.name_str(),
        t.name_str(),
        s(name),
        s(class)
    )
}

/// A trait's methods in declaration order (those it took from its own
/// traits after its own, by name).
unsafe fn trait_methods(t: *const Class) -> Vec<(Vec<u8>, Method)> {
    let t = &*t;
    let mut out: Vec<(Vec<u8>, Method)> = Vec::new();
    if !t.def.is_null() {
        for md in &(*t.def).methods {
            let k = lc(&md.func.op.name);
            if let Some(m) = t.methods.get(&k) {
                out.push((k, *m));
            }
        }
    }
    let mut rest: Vec<(Vec<u8>, Method)> = t.methods.iter().filter(|(k, _)| !out.iter().any(|(o, _)| o == *k)).map(|(k, m)| (k.clone(), *m)).collect();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    out.extend(rest);
    out
}

/// Adds trait `t`'s method `m` to `c` under `key` (`zend_add_trait_method`).
unsafe fn add_trait_method(
    c: &mut Class,
    me: *const Class,
    t: *const Class,
    name: &[u8],
    m: Method,
    flags: u32,
    from_trait: &mut Vec<(Vec<u8>, *const Class)>,
) -> Result<(), BindError> {
    let key = lc(name);
    if let Some(old) = c.methods.get(&key).copied() {
        let prev = from_trait.iter().find(|(k, _)| *k == key).map(|(_, t)| *t);
        if let Some(pt) = prev {
            // The same method reached through two traits: no conflict.
            if core::ptr::eq(old.func(), m.func()) && old.flags & ACC_VISIBILITY == flags & ACC_VISIBILITY {
                return Ok(());
            }
            if flags & ACC_ABSTRACT != 0 {
                return Ok(());
            }
            if old.flags & ACC_ABSTRACT == 0 {
                return Err(format!(
                    "Trait method {}::{} has not been applied as {}::{}, because of collision with {}::{}",
                    (*t).name_str(),
                    s(&m.func().op.name),
                    (*me).name_str(),
                    s(&key),
                    (*pt).name_str(),
                    s(&old.func().op.name)
                ));
            }
        } else {
            if flags & ACC_ABSTRACT != 0 {
                return Ok(());
            }
            if core::ptr::eq(old.scope, me) {
                // Members of the class itself override trait methods.
                return Ok(());
            }
            if old.flags & ACC_FINAL != 0 && old.flags & ACC_PRIVATE == 0 {
                return Err(format!("Cannot override final method {}::{}()", (*old.scope).name_str(), s(&old.func().op.name)));
            }
        }
    }
    let mut e = FuncEntry::new((*m.entry).func);
    e.scope = me;
    if name != m.func().name() {
        e.alias = name.to_vec();
    }
    let nm = Method { entry: &mut *e, flags, scope: me };
    c.own_entries.push(e);
    c.methods.insert(key.clone(), nm);
    from_trait.retain(|(k, _)| *k != key);
    from_trait.push((key, t));
    Ok(())
}
