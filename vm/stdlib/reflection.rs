//! A small part of ext/reflection: `ReflectionClass` (and `ReflectionEnum`),
//! `ReflectionMethod`, `ReflectionProperty`, `ReflectionFunction`,
//! `ReflectionNamedType` and the enum case reflectors, with the methods
//! that ask about names, modifiers, constants, parameter counts and enum
//! backing. Each object keeps what it reflects as native state and shows
//! its public `name` (and `class`) property as PHP's do. Parameters,
//! attributes, doc comments and the rest of the extension are not here.

use crate::exec::{Thrown, Vm};
use crate::runtime::builtin_classes::prop_slot;
use crate::runtime::class::*;
use crate::runtime::classes::find_class;
use crate::runtime::function::{BuiltinFn, FuncEntry};
use crate::value::object::ZObject;
use crate::value::{ZArray, ZString, Zval};

type R = Result<(), Thrown>;

/// What a reflection object reflects.
enum Target {
    Class(*const Class),
    Method(Method),
    Property { flags: u32 },
    /// A function or closure; `closure` holds one reference (the entry
    /// belongs to it).
    Function { entry: *mut FuncEntry, closure: *mut ZObject },
    /// A ReflectionNamedType: the type's name.
    Type(Vec<u8>),
    /// An enum case: its class and name.
    Case(*const Class, Vec<u8>),
}

struct Reflected(Target);

impl Drop for Reflected {
    fn drop(&mut self) {
        if let Target::Function { closure, .. } = self.0 {
            if !closure.is_null() {
                // SAFETY: the reflector owns one reference to the closure.
                unsafe { Zval::object(closure).ptr_dtor() };
            }
        }
    }
}

fn this(vm: &Vm) -> *mut ZObject {
    // SAFETY: a builtin method runs in its own frame (`vm.cur`).
    unsafe { (*vm.cur).this_obj() }
}

fn target<'a>(vm: &Vm) -> Option<&'a Target> {
    // SAFETY: `$this` is live while its method runs.
    unsafe { (*this(vm)).internal.as_ref().and_then(|b| b.downcast_ref::<Reflected>()).map(|r| &r.0) }
}

fn text(v: &Zval) -> Option<Vec<u8>> {
    let v = v.deref();
    // SAFETY: string-kind values hold a live string.
    v.is_string().then(|| unsafe { (*v.str()).bytes().to_vec() })
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn str_val(b: &[u8]) -> Zval {
    Zval::string(ZString::new(b))
}

/// Stores what `o` reflects and its `name` (and `class`) properties.
unsafe fn init(o: *mut ZObject, t: Target, name: &[u8], class: Option<&[u8]>) {
    for (k, v) in [(&b"name"[..], Some(name)), (&b"class"[..], class)] {
        let (p, Some(v)) = (prop_slot(o, k), v) else { continue };
        if !p.is_null() {
            let old = *p;
            *p = str_val(v);
            old.ptr_dtor();
        }
    }
    (*o).internal = Some(Box::new(Reflected(t)));
}

/// A new reflector of class `cname` for `t`.
unsafe fn make(vm: &mut Vm, cname: &[u8], t: Target, name: &[u8], class: Option<&[u8]>) -> Result<Zval, Thrown> {
    let c = crate::exec::slow::object::lookup_class(vm, cname)?;
    let o = crate::exec::slow::object::instantiate(vm, c)?;
    init(o, t, name, class);
    Ok(Zval::object(o))
}

/// The class named by an object or a string argument, or ReflectionException.
unsafe fn class_arg(vm: &mut Vm, v: Option<&Zval>) -> Result<*const Class, Thrown> {
    let v = v.map_or(Zval::NULL, |v| *v.deref());
    if v.is_object() {
        return Ok((*v.obj()).class);
    }
    let name = text(&v).unwrap_or_default();
    find_class(vm, &name).ok_or_else(|| vm.throw_error("ReflectionException", &format!("Class \"{}\" does not exist", s(&name))))
}

fn ret_bool(r: &mut Zval, b: bool) -> R {
    *r = Zval::bool(b);
    Ok(())
}

// ------------------------------------------------------------ ReflectionClass

fn class_construct(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    // SAFETY: bound classes; `$this` is live.
    unsafe {
        let c = class_arg(vm, a.first())?;
        init(this(vm), Target::Class(c), &(*c).name, None);
    }
    Ok(())
}

fn enum_construct(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    class_construct(vm, a, r)?;
    if let Some(Target::Class(c)) = target(vm) {
        // SAFETY: a bound class.
        unsafe {
            if (**c).flags & CLASS_ENUM == 0 {
                return Err(vm.throw_error("ReflectionException", &format!("Class \"{}\" is not an enum", (**c).name_str())));
            }
        }
    }
    Ok(())
}

fn the_class(vm: &Vm) -> *const Class {
    match target(vm) {
        Some(Target::Class(c)) => *c,
        _ => core::ptr::null(),
    }
}

fn class_flag(vm: &Vm, r: &mut Zval, f: impl Fn(&Class) -> bool) -> R {
    let c = the_class(vm);
    // SAFETY: a bound class.
    ret_bool(r, !c.is_null() && f(unsafe { &*c }))
}

fn class_get_name(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let c = the_class(vm);
    if !c.is_null() {
        // SAFETY: a bound class.
        *r = str_val(unsafe { &(*c).name });
    }
    Ok(())
}

fn class_is_abstract(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    // Zend: explicitly abstract, or implicitly (an interface, a class with
    // abstract methods).
    class_flag(vm, r, |c| c.flags & (CLASS_ABSTRACT | CLASS_INTERFACE) != 0 || c.methods.values().any(|m| m.flags & ACC_ABSTRACT != 0))
}
fn class_is_interface(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    class_flag(vm, r, |c| c.flags & CLASS_INTERFACE != 0)
}
fn class_is_final(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    class_flag(vm, r, |c| c.flags & CLASS_FINAL != 0)
}
fn class_is_readonly(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    class_flag(vm, r, |c| c.flags & CLASS_READONLY != 0)
}
fn class_is_enum(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    class_flag(vm, r, |c| c.flags & CLASS_ENUM != 0)
}

/// The constant names of `c` in Zend's table order: its own declarations,
/// then the inherited ones (a parent's non-private ones, then interfaces').
unsafe fn const_order(c: *const Class, out: &mut Vec<Vec<u8>>) {
    if !(*c).def.is_null() {
        for cd in &(*(*c).def).consts {
            if !out.contains(&cd.name) {
                out.push(cd.name.clone());
            }
        }
    }
    let mut inherited = Vec::new();
    if !(*c).parent.is_null() {
        const_order((*c).parent, &mut inherited);
    }
    for &i in &(*c).interfaces {
        const_order(i, &mut inherited);
    }
    for n in inherited {
        let visible = (*c).consts.get(&n).is_some_and(|&cell| (*cell).flags & ACC_PRIVATE == 0 || core::ptr::eq((*cell).scope, c));
        if visible && !out.contains(&n) {
            out.push(n);
        }
    }
}

fn class_get_constants(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let c = the_class(vm);
    let out = ZArray::new();
    *r = Zval::array(out);
    if c.is_null() {
        return Ok(());
    }
    // SAFETY: a bound class; `out` is the fresh result array.
    unsafe {
        let mut names = Vec::new();
        const_order(c, &mut names);
        for n in names {
            let v = crate::exec::slow::object::class_constant_in(vm, c, &n, c)?;
            let k = ZString::new(&n);
            (*out).update_str(k, v);
            Zval::string(k).ptr_dtor();
        }
    }
    Ok(())
}

fn class_new_instance(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let c = the_class(vm);
    if c.is_null() {
        return Ok(());
    }
    // SAFETY: a bound class; the new object is owned by `r`.
    unsafe {
        let o = crate::exec::slow::object::instantiate(vm, c)?;
        *r = Zval::object(o);
        match (*c).magic.construct {
            Some(m) => {
                if m.flags & ACC_PUBLIC == 0 {
                    return Err(vm.throw_error("ReflectionException", &format!("Access to non-public constructor of class {}", (*c).name_str())));
                }
                crate::exec::slow::object::call_method(vm, o, m, a)?.ptr_dtor();
            }
            None if !a.is_empty() => {
                let msg = format!("Class {} does not have a constructor, so you cannot pass any constructor arguments", (*c).name_str());
                return Err(vm.throw_error("ReflectionException", &msg));
            }
            None => {}
        }
    }
    Ok(())
}

fn class_get_constructor(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let c = the_class(vm);
    // SAFETY: a bound class.
    unsafe {
        if let Some(m) = (!c.is_null()).then(|| (*c).magic.construct).flatten() {
            *r = make(vm, b"ReflectionMethod", Target::Method(m), (*m.entry).name(), Some(&(*m.scope).name))?;
        }
    }
    Ok(())
}

fn enum_is_backed(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    class_flag(vm, r, |c| c.flags & (CLASS_ENUM_INT | CLASS_ENUM_STRING) != 0)
}

fn enum_get_backing_type(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let c = the_class(vm);
    // SAFETY: a bound class.
    let name: &[u8] = match unsafe { c.as_ref().map(|c| c.flags) } {
        Some(f) if f & CLASS_ENUM_INT != 0 => b"int",
        Some(f) if f & CLASS_ENUM_STRING != 0 => b"string",
        _ => return Ok(()),
    };
    // SAFETY: making a builtin object.
    *r = unsafe { make(vm, b"ReflectionNamedType", Target::Type(name.to_vec()), b"", None)? };
    Ok(())
}

fn enum_get_cases(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let c = the_class(vm);
    let out = ZArray::new();
    *r = Zval::array(out);
    if c.is_null() {
        return Ok(());
    }
    // SAFETY: a bound enum; `out` is the fresh result array.
    unsafe {
        let backed = (*c).flags & (CLASS_ENUM_INT | CLASS_ENUM_STRING) != 0;
        let rc: &[u8] = if backed { b"ReflectionEnumBackedCase" } else { b"ReflectionEnumUnitCase" };
        for n in (*c).cases.clone() {
            let v = make(vm, rc, Target::Case(c, n.clone()), &n, Some(&(*c).name))?;
            (*out).append(v);
        }
    }
    Ok(())
}

// ------------------------------------------------------------ cases and types

fn case_get_value(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(Target::Case(c, n)) = target(vm) {
        let (c, n) = (*c, n.clone());
        // SAFETY: a bound enum.
        *r = unsafe { crate::exec::slow::object::class_constant_in(vm, c, &n, c)? };
    }
    Ok(())
}

fn case_get_backing_value(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let mut case = Zval::NULL;
    case_get_value(vm, a, &mut case)?;
    if case.is_object() {
        // SAFETY: an enum case object; `case` is ours.
        unsafe {
            let p = prop_slot(case.obj(), b"value");
            if !p.is_null() {
                *r = (*p).copy_deref();
            }
            case.ptr_dtor();
        }
    }
    Ok(())
}

fn type_name(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(Target::Type(n)) = target(vm) {
        *r = str_val(n);
    }
    Ok(())
}

fn type_allows_null(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let nullable = matches!(target(vm), Some(Target::Type(n)) if n.starts_with(b"?") || n == b"mixed" || n == b"null");
    ret_bool(r, nullable)
}

fn type_is_builtin(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    const BUILTIN: &[&[u8]] = &[b"int", b"float", b"string", b"bool", b"array", b"mixed", b"void", b"null", b"callable", b"iterable", b"object", b"never", b"false", b"true"];
    let b = matches!(target(vm), Some(Target::Type(n)) if BUILTIN.contains(&n.strip_prefix(b"?").unwrap_or(n)));
    ret_bool(r, b)
}

// ------------------------------------------------------------ methods and properties

fn method_construct(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    // SAFETY: bound classes and their methods; `$this` is live.
    unsafe {
        let (c, name) = match a.get(1) {
            Some(n) => (class_arg(vm, a.first())?, text(n).unwrap_or_default()),
            None => {
                let full = a.first().and_then(text).unwrap_or_default();
                let Some(p) = full.windows(2).position(|w| w == b"::") else {
                    let msg = "ReflectionMethod::__construct(): Argument #1 ($objectOrMethod) must be a valid method name";
                    return Err(vm.throw_error("ReflectionException", msg));
                };
                let cn = Zval::string(ZString::new(&full[..p]));
                let c = class_arg(vm, Some(&cn));
                cn.ptr_dtor();
                (c?, full[p + 2..].to_vec())
            }
        };
        let Some(m) = (*c).find_method(&name.to_ascii_lowercase()) else {
            return Err(vm.throw_error("ReflectionException", &format!("Method {}::{}() does not exist", (*c).name_str(), s(&name))));
        };
        init(this(vm), Target::Method(m), (*m.entry).name(), Some(&(*m.scope).name));
    }
    Ok(())
}

fn member_flags(vm: &Vm) -> u32 {
    match target(vm) {
        Some(Target::Method(m)) => m.flags,
        Some(Target::Property { flags }) => *flags,
        _ => 0,
    }
}

fn is_abstract(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    ret_bool(r, member_flags(vm) & ACC_ABSTRACT != 0)
}
fn is_final(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    ret_bool(r, member_flags(vm) & ACC_FINAL != 0)
}
fn is_public(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    ret_bool(r, member_flags(vm) & (ACC_PRIVATE | ACC_PROTECTED) == 0)
}
fn is_protected(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    ret_bool(r, member_flags(vm) & ACC_PROTECTED != 0)
}
fn is_private(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    ret_bool(r, member_flags(vm) & ACC_PRIVATE != 0)
}
fn is_readonly(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    ret_bool(r, member_flags(vm) & ACC_READONLY != 0)
}

fn prop_construct(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    // SAFETY: bound classes; `$this` is live.
    unsafe {
        let c = class_arg(vm, a.first())?;
        let name = a.get(1).and_then(text).unwrap_or_default();
        let (flags, decl) = match ((*c).find_prop(&name), (*c).statics.get(&name)) {
            (Some(pi), _) => (pi.flags, pi.scope),
            (None, Some(&cell)) => ((*cell).flags | ACC_STATIC, (*cell).scope),
            (None, None) => {
                // A dynamic property of the object given.
                let o = a.first().map(|v| *v.deref()).filter(|v| v.is_object());
                let dynamic = o.is_some_and(|o| !(*o.obj()).dynamic.is_null() && (*(*o.obj()).dynamic).find_bytes(&name).is_some());
                if !dynamic {
                    return Err(vm.throw_error("ReflectionException", &format!("Property {}::${} does not exist", (*c).name_str(), s(&name))));
                }
                (ACC_PUBLIC, c)
            }
        };
        init(this(vm), Target::Property { flags }, &name, Some(&(*decl).name));
    }
    Ok(())
}

// ------------------------------------------------------------ functions (and methods)

fn function_construct(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let v = a.first().map_or(Zval::NULL, |v| *v.deref());
    // SAFETY: a live closure or a function entry of this context; `$this` is live.
    unsafe {
        if v.is_object() {
            if let Some(d) = crate::exec::slow::closure::data(v.obj()) {
                let entry: *mut FuncEntry = &mut *d.entry;
                (*v.obj()).header.refcount += 1;
                init(this(vm), Target::Function { entry, closure: v.obj() }, (*entry).name(), None);
                return Ok(());
            }
        }
        let name = text(&v).unwrap_or_default();
        let Some(entry) = vm.find_function(name.strip_prefix(b"\\").unwrap_or(&name)) else {
            return Err(vm.throw_error("ReflectionException", &format!("Function {}() does not exist", s(&name))));
        };
        init(this(vm), Target::Function { entry, closure: core::ptr::null_mut() }, (*entry).name(), None);
    }
    Ok(())
}

/// The function a ReflectionFunction or ReflectionMethod reflects.
fn entry(vm: &Vm) -> Option<*mut FuncEntry> {
    match target(vm) {
        Some(Target::Function { entry, .. }) => Some(*entry),
        Some(Target::Method(m)) => Some(m.entry),
        _ => None,
    }
}

fn op_info(vm: &Vm) -> Option<&crate::ops::OpArray> {
    // SAFETY: entries point at functions that outlive their reflectors.
    entry(vm).map(|e| unsafe { &(*(*e).func).op })
}

fn function_get_name(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(e) = entry(vm) {
        // SAFETY: as in `op_info`.
        *r = str_val(unsafe { (*e).name() });
    }
    Ok(())
}

fn num_params(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    // The variadic parameter counts too.
    let n = op_info(vm).map_or(0, |op| op.arg_info.len());
    *r = Zval::long(n as i64);
    Ok(())
}

fn num_required(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    *r = Zval::long(op_info(vm).map_or(0, |op| op.required_args) as i64);
    Ok(())
}

fn is_variadic(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let v = op_info(vm).is_some_and(|op| op.arg_info.last().is_some_and(|a| a.variadic));
    ret_bool(r, v)
}

fn is_static(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let st = match target(vm) {
        // SAFETY: the reflector holds the closure.
        Some(Target::Function { closure, .. }) if !closure.is_null() => unsafe { crate::exec::slow::closure::data(*closure).is_some_and(|d| d.is_static) },
        Some(Target::Method(m)) => m.flags & ACC_STATIC != 0,
        _ => false,
    };
    ret_bool(r, st)
}

fn is_closure(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let c = matches!(target(vm), Some(Target::Function { closure, .. }) if !closure.is_null());
    ret_bool(r, c)
}

fn get_closure_this(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    if let Some(Target::Function { closure, .. }) = target(vm) {
        // SAFETY: the reflector holds the closure; its bound object is live.
        unsafe {
            if let Some(d) = (!closure.is_null()).then(|| crate::exec::slow::closure::data(*closure)).flatten() {
                if !d.this.is_null() {
                    (*d.this).header.refcount += 1;
                    *r = Zval::object(d.this);
                }
            }
        }
    }
    Ok(())
}

/// The reflection classes, in binding order.
pub fn definitions(method: impl Fn(&str, &[&str], u32, BuiltinFn, u32) -> MethodDef, prop: impl Fn(&str) -> PropDef) -> Vec<ClassDef> {
    let p = ACC_PUBLIC;
    let class = |name: &str, parent: Option<&str>, props: &[&str], methods: &[(&str, &[&str], u32, BuiltinFn)]| {
        let mut d = ClassDef::new(name.as_bytes(), CLASS_INTERNAL, 0);
        d.parent = parent.map(|p| p.as_bytes().to_vec());
        for n in props {
            d.props.push(prop(n));
        }
        for &(n, params, req, f) in methods {
            d.methods.push(method(n, params, req, f, p));
        }
        d
    };
    let mut exc = ClassDef::new(b"ReflectionException", CLASS_INTERNAL, 0);
    exc.parent = Some(b"Exception".to_vec());
    let member: &[(&str, &[&str], u32, BuiltinFn)] = &[
        ("isPublic", &[], 0, is_public),
        ("isProtected", &[], 0, is_protected),
        ("isPrivate", &[], 0, is_private),
        ("isFinal", &[], 0, is_final),
    ];
    let function: &[(&str, &[&str], u32, BuiltinFn)] = &[
        ("getName", &[], 0, function_get_name),
        ("getNumberOfParameters", &[], 0, num_params),
        ("getNumberOfRequiredParameters", &[], 0, num_required),
        ("isVariadic", &[], 0, is_variadic),
        ("isStatic", &[], 0, is_static),
    ];
    let reflection_class: &[(&str, &[&str], u32, BuiltinFn)] = &[
        ("__construct", &["objectOrClass"], 1, class_construct),
        ("getName", &[], 0, class_get_name),
        ("isAbstract", &[], 0, class_is_abstract),
        ("isInterface", &[], 0, class_is_interface),
        ("isFinal", &[], 0, class_is_final),
        ("isReadOnly", &[], 0, class_is_readonly),
        ("isEnum", &[], 0, class_is_enum),
        ("getConstants", &[], 0, class_get_constants),
        ("getConstructor", &[], 0, class_get_constructor),
        ("newInstance", &["args"], 0, class_new_instance),
    ];
    let mut rc = class("ReflectionClass", None, &["name"], reflection_class);
    if let Some(m) = rc.methods.iter_mut().find(|m| m.func.op.name == b"newInstance") {
        if let Some(a) = m.func.op.arg_info.last_mut() {
            a.variadic = true;
        }
        m.func.op.num_args = 0;
    }
    let mut rm = class("ReflectionMethod", None, &["name", "class"], &[("__construct", &["objectOrMethod", "method"], 1, method_construct), ("isAbstract", &[], 0, is_abstract)]);
    rm.methods.extend(member.iter().chain(function).map(|&(n, ps, req, f)| method(n, ps, req, f, p)));
    let mut rp = class("ReflectionProperty", None, &["name", "class"], &[("__construct", &["class", "property"], 2, prop_construct), ("isReadOnly", &[], 0, is_readonly)]);
    rp.methods.extend(member.iter().map(|&(n, ps, req, f)| method(n, ps, req, f, p)));
    rp.methods.push(method("getName", &[], 0, |vm, _a, r| {
        // SAFETY: `$this` is live; `name` is a declared property.
        unsafe {
            let p = prop_slot(this(vm), b"name");
            if !p.is_null() {
                *r = (*p).copy_deref();
            }
        }
        Ok(())
    }, p));
    let mut rf = class("ReflectionFunction", None, &["name"], &[
        ("__construct", &["function"], 1, function_construct),
        ("isClosure", &[], 0, is_closure),
        ("getClosureThis", &[], 0, get_closure_this),
    ]);
    rf.methods.extend(function.iter().map(|&(n, ps, req, f)| method(n, ps, req, f, p)));
    vec![
        exc,
        rc,
        class("ReflectionEnum", Some("ReflectionClass"), &[], &[
            ("__construct", &["objectOrClass"], 1, enum_construct),
            ("isBacked", &[], 0, enum_is_backed),
            ("getBackingType", &[], 0, enum_get_backing_type),
            ("getCases", &[], 0, enum_get_cases),
        ]),
        rm,
        rp,
        rf,
        class("ReflectionNamedType", None, &[], &[
            ("getName", &[], 0, type_name),
            ("__toString", &[], 0, type_name),
            ("allowsNull", &[], 0, type_allows_null),
            ("isBuiltin", &[], 0, type_is_builtin),
        ]),
        class("ReflectionEnumUnitCase", None, &["name", "class"], &[("getValue", &[], 0, case_get_value)]),
        class("ReflectionEnumBackedCase", Some("ReflectionEnumUnitCase"), &[], &[("getBackingValue", &[], 0, case_get_backing_value)]),
    ]
}
