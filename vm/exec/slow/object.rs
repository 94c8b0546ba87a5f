//! Objects and classes at run time: instantiation and release (with
//! `__destruct`), property access with PHP's visibility rules and magic
//! methods, method and static calls, class constants, static properties,
//! `instanceof`, `clone`.

use crate::exec::frame::Frame;
use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, Opcode, IS_CONST, IS_CV, IS_UNUSED, IS_VAR};
use crate::runtime::class::*;
use crate::runtime::classes::find_class;
use crate::runtime::function::FuncEntry;
use crate::value::object::{ZObject, OBJ_DESTRUCTOR_CALLED};
use crate::value::{ZArray, ZString, Zval, IS_OBJECT, IS_STRING};

/// `self` / `parent` / `static` in op1.num of a class operand that is UNUSED.
pub const FETCH_CLASS_SELF: u32 = 1;
pub const FETCH_CLASS_PARENT: u32 = 2;
pub const FETCH_CLASS_STATIC: u32 = 3;

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// ------------------------------------------------------------ lifetime

/// Frees an object whose refcount reached zero: runs `__destruct` first
/// (once; the object may be resurrected by it), then releases its
/// properties and handle.
///
/// # Safety
/// `o` is a live object with refcount 0.
#[cold]
pub unsafe fn release(o: *mut ZObject) {
    let vm = crate::exec::vm::current();
    if (*o).flags & OBJ_DESTRUCTOR_CALLED == 0 {
        (*o).flags |= OBJ_DESTRUCTOR_CALLED;
        if !vm.is_null() && crate::exec::generator::of(o).is_some() {
            // Zend's zend_generator_dtor_storage: finally blocks run.
            (*o).header.refcount = 1;
            crate::exec::generator::destroy(&mut *vm, o);
            (*o).header.refcount -= 1;
            if (*o).header.refcount > 0 {
                return;
            }
        } else if let Some(d) = ZObject::class(o).magic.destruct {
            if !vm.is_null() && (*vm).stop.is_none() {
                (*o).header.refcount = 1;
                call_destructor(&mut *vm, o, d);
                (*o).header.refcount -= 1;
                if (*o).header.refcount > 0 {
                    return;
                }
            }
        }
    }
    if !vm.is_null() {
        if (*o).flags & crate::value::object::OBJ_WEAKLY_REFERENCED != 0 {
            crate::stdlib::objmap::object_freed(&mut *vm, o);
        }
        (*vm).objects.remove((*o).handle);
    }
    ZObject::destroy(o);
}

/// The end of the main script (Zend's `shutdown_destructors`): global
/// variables holding the only reference to an object are released, the
/// last declared first, pass after pass while a pass frees some; then the
/// destructors of all objects still alive run in creation order (the
/// objects themselves are freed later).
///
/// # Safety
/// `f` is the main script's frame, returning.
#[cold]
#[inline(never)]
pub unsafe fn shutdown_destructors(vm: &mut Vm, f: *mut Frame) {
    let ncv = (*(*f).func).op.cv_names.len() as u32;
    loop {
        let mut freed = false;
        // The globals made by name come last in Zend's symbol table: first
        // here. Looked up by name each time: a destructor may change them.
        for n in crate::exec::symtab::dynamic_names(vm, f).iter().rev() {
            let p = crate::exec::symtab::find(vm, f, n);
            if !p.is_null() && (*p).is_object() && (*(*p).obj()).header.refcount == 1 {
                let v = *p;
                *p = Zval::UNDEF;
                v.ptr_dtor();
                freed = true;
                if vm.exception.is_some() || vm.stop.is_some() {
                    return;
                }
            }
        }
        for i in (0..ncv).rev() {
            let p = Frame::slot(f, i);
            if (*p).is_object() && (*(*p).obj()).header.refcount == 1 {
                let v = *p;
                *p = Zval::UNDEF;
                v.ptr_dtor();
                freed = true;
                if vm.exception.is_some() || vm.stop.is_some() {
                    return;
                }
            }
        }
        if !freed {
            break;
        }
    }
    let mut h = 0;
    while h < vm.objects.objs.len() {
        let o = vm.objects.objs[h];
        h += 1;
        if o.is_null() || (*o).flags & OBJ_DESTRUCTOR_CALLED != 0 {
            continue;
        }
        (*o).flags |= OBJ_DESTRUCTOR_CALLED;
        if let Some(d) = ZObject::class(o).magic.destruct {
            (*o).header.refcount += 1;
            call_destructor(vm, o, d);
            Zval::object(o).ptr_dtor();
            if vm.exception.is_some() || vm.stop.is_some() {
                return;
            }
        }
    }
}

/// Runs `__destruct` on `o`; a pending exception is kept aside meanwhile
/// (one the destructor throws replaces it).
unsafe fn call_destructor(vm: &mut Vm, o: *mut ZObject, d: Method) {
    let saved = vm.exception.take();
    let r = call_method(vm, o, d, &[]);
    match r {
        Ok(v) => {
            v.ptr_dtor();
            if vm.exception.is_none() {
                vm.exception = saved;
            }
        }
        Err(_) => {}
    }
}

/// Calls method `m` on `o` (null: a static call) from Rust; returns its value.
pub unsafe fn call_method(vm: &mut Vm, o: *mut ZObject, m: Method, args: &[Zval]) -> Result<Zval, Thrown> {
    let called = if o.is_null() { m.scope } else { (*o).class };
    let mut ret = Zval::NULL;
    vm.call_function(m.entry, o, called, args, &mut ret)?;
    Ok(ret)
}

/// Computes the defaults that need code, once per class.
pub unsafe fn ensure_defaults(vm: &mut Vm, c: *const Class) -> Result<(), Thrown> {
    if *(*c).defaults_ready.get() {
        return Ok(());
    }
    let inits = (*c).default_inits.clone();
    for (slot, f, scope) in inits {
        let v = run_init(vm, f, scope)?;
        let defaults = &mut *(*c).defaults.get();
        let d = &mut defaults[slot as usize];
        d.ptr_dtor();
        *d = v;
    }
    *(*c).defaults_ready.get() = true;
    Ok(())
}

/// Runs a constant expression's code in `scope`.
pub unsafe fn run_init(vm: &mut Vm, f: *const crate::runtime::function::Function, scope: *const Class) -> Result<Zval, Thrown> {
    let mut e = FuncEntry::new(f);
    e.scope = scope;
    let ep: *mut FuncEntry = &mut *e;
    vm.anon_entries.push(e);
    let mut ret = Zval::NULL;
    vm.call_function(ep, core::ptr::null_mut(), scope, &[], &mut ret)?;
    Ok(ret)
}

/// A new object of `c` (no constructor called).
pub unsafe fn instantiate(vm: &mut Vm, c: *const Class) -> Result<*mut ZObject, Thrown> {
    let cl = &*c;
    if cl.flags & (CLASS_ABSTRACT | CLASS_INTERFACE | CLASS_TRAIT | CLASS_ENUM) != 0 {
        let what = if cl.flags & CLASS_INTERFACE != 0 {
            "interface"
        } else if cl.flags & CLASS_TRAIT != 0 {
            "trait"
        } else if cl.flags & CLASS_ENUM != 0 {
            "enum"
        } else {
            "abstract class"
        };
        return Err(vm.throw_error("Error", &format!("Cannot instantiate {what} {}", cl.name_str())));
    }
    if cl.flags & CLASS_INTERNAL != 0 && cl.name == b"Generator" {
        return Err(vm.throw_error("Error", "The \"Generator\" class is reserved for internal use and cannot be manually instantiated"));
    }
    ensure_defaults(vm, c)?;
    let o = ZObject::alloc(c, &*cl.defaults.get());
    vm.objects.add(o);
    if let Some(create) = cl.create {
        create(vm, o);
    }
    Ok(o)
}

// ------------------------------------------------------------ classes

/// The class whose method is running (`self`), or null.
pub unsafe fn scope_of(vm: &Vm) -> *const Class {
    let f = vm.cur;
    if f.is_null() || (*f).entry.is_null() {
        return core::ptr::null();
    }
    (*(*f).entry).scope
}

/// The class scope of the user code that called the running builtin.
pub unsafe fn scope_of_caller(vm: &Vm) -> *const Class {
    let f = vm.cur;
    if f.is_null() {
        return core::ptr::null();
    }
    let p = (*f).prev;
    if p.is_null() || (*p).entry.is_null() {
        return core::ptr::null();
    }
    (*(*p).entry).scope
}

/// Whether code in `scope` sees a member declared `flags` in `decl`.
pub unsafe fn can_see(flags: u32, decl: *const Class, scope: *const Class) -> bool {
    accessible(flags, decl, scope)
}

/// `static`: the called scope of the running method.
unsafe fn called_scope(vm: &Vm) -> *const Class {
    let f = vm.cur;
    if f.is_null() {
        return core::ptr::null();
    }
    let this = (*f).this_obj();
    if !this.is_null() {
        return (*this).class;
    }
    if (*f).scope.is_null() {
        scope_of(vm)
    } else {
        (*f).scope
    }
}

/// The class named `name`, or `Error: Class "name" not found`.
pub unsafe fn lookup_class(vm: &mut Vm, name: &[u8]) -> Result<*const Class, Thrown> {
    match find_class(vm, name) {
        Some(c) => Ok(c),
        None => {
            let n = name.strip_prefix(b"\\").unwrap_or(name);
            Err(vm.throw_error("Error", &format!("Class \"{}\" not found", s(n))))
        }
    }
}

/// `self`/`parent`/`static` resolved in the running method.
pub unsafe fn special_class(vm: &mut Vm, kind: u32) -> Result<*const Class, Thrown> {
    let scope = scope_of(vm);
    let word = match kind {
        FETCH_CLASS_SELF => "self",
        FETCH_CLASS_PARENT => "parent",
        _ => "static",
    };
    // `static` is the called scope, which a closure bound to an object
    // has even without a class scope (Zend's `zend_get_called_scope`).
    let scope = if kind == FETCH_CLASS_SELF || kind == FETCH_CLASS_PARENT { scope } else { called_scope(vm) };
    if scope.is_null() {
        return Err(vm.throw_error("Error", &format!("Cannot use \"{word}\" when no class scope is active")));
    }
    match kind {
        FETCH_CLASS_SELF => Ok(scope),
        FETCH_CLASS_PARENT => {
            let p = (*scope).parent;
            if p.is_null() {
                return Err(vm.throw_error("Error", "Cannot use \"parent\" when current class scope has no parent"));
            }
            Ok(p)
        }
        _ => Ok(scope),
    }
}

/// The class operand op1 (or op2 when `second`): a name, `self`/`parent`/
/// `static` (UNUSED with the fetch kind in the operand), or a value (an
/// object's class, or a class name string).
pub unsafe fn class_operand(vm: &mut Vm, fp: *mut Zval, ip: *const Op, second: bool) -> Result<*const Class, Thrown> {
    let (kind, num) = if second { ((*ip).op2_type, (*ip).op2) } else { ((*ip).op1_type, (*ip).op1) };
    if kind == IS_UNUSED {
        return special_class(vm, num);
    }
    let v = if second { operand::any_read_2(ip, fp, vm) } else { operand::any_read_1(ip, fp, vm) };
    let v = (*v).deref();
    match v.kind() {
        IS_STRING => lookup_class(vm, (*v.str()).bytes()),
        IS_OBJECT => Ok((*v.obj()).class),
        _ => Err(vm.throw_error("Error", "Cannot use value as class name")),
    }
}

/// DECLARE_CLASS: binds class op1 of this program's delayed declarations.
#[cold]
#[inline(never)]
pub unsafe fn declare_class(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let op = &(*(*f).func).op;
    let Some(def) = op.declared_classes.get((*ip).op1 as usize) else { return Ok(()) };
    let d: *const ClassDef = &**def;
    if let Err(msg) = crate::runtime::classes::declare_class(vm, d) {
        if msg.starts_with("Class \"") || msg.starts_with("Interface \"") {
            return Err(vm.throw_error("Error", &msg));
        }
        vm.fatal(&msg);
        return Err(Thrown);
    }
    Ok(())
}

/// DECLARE_ANON_CLASS: binds anonymous class op1 (declaration
/// extended_value) unless bound already; result: its name.
#[cold]
#[inline(never)]
pub unsafe fn declare_anon_class(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let name = *operand::any_read_1(ip, fp, vm);
    if find_class(vm, (*name.str()).bytes()).is_none() {
        let f = fp as *mut Frame;
        let op = &(*(*f).func).op;
        if let Some(def) = op.declared_classes.get((*ip).extended_value as usize) {
            let d: *const ClassDef = &**def;
            if let Err(msg) = crate::runtime::classes::declare_class(vm, d) {
                if msg.starts_with("Class \"") || msg.starts_with("Interface \"") || msg.starts_with("Trait \"") {
                    return Err(vm.throw_error("Error", &msg));
                }
                vm.fatal(&msg);
                return Err(Thrown);
            }
        }
    }
    Ok(name.copy_value())
}

// ------------------------------------------------------------ new

/// NEW: result := a new object of class op1; when the class has a
/// constructor, its call is pushed (the arguments and DO_FCALL follow) and
/// true is returned; false: jump over them (op2).
#[cold]
#[inline(never)]
pub unsafe fn new_object(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let c = class_operand(vm, fp, ip, false)?;
    let o = instantiate(vm, c)?;
    *operand::result(ip, fp) = Zval::object(o);
    let Some(ctor) = (*c).magic.construct else {
        // No constructor: the arguments are still evaluated, into a call
        // of a function that does nothing (Zend's `zend_pass_function`),
        // unless there are none.
        let next = &*ip.add(1);
        if (*ip).extended_value == 0 && next.opcode() == Opcode::DoFcall {
            fill_new_cache(fp, ip, c);
            return Ok(false);
        }
        let pass = vm.pass_function();
        super::call::push_call(vm, fp, ip, pass, (*ip).extended_value)?;
        return Ok(true);
    };
    check_method_access(vm, ctor, b"__construct", true)?;
    fill_new_cache(fp, ip, c);
    (*o).header.refcount += 1;
    push_method_call(vm, fp, ctor.entry, o, c, (*ip).extended_value)?;
    Ok(true)
}

/// Pushes a call to method `entry` with `$this` = `this` (one reference
/// owned by the call; null for static calls) and called scope `called`.
pub unsafe fn push_method_call(vm: &mut Vm, fp: *mut Zval, entry: *mut FuncEntry, this: *mut ZObject, called: *const Class, nargs: u32) -> Result<(), Thrown> {
    if let Err(t) = super::call::push_call(vm, fp, core::ptr::null(), entry, nargs) {
        if !this.is_null() {
            Zval::object(this).ptr_dtor();
        }
        return Err(t);
    }
    let call = (*(fp as *mut Frame)).call;
    if !this.is_null() {
        (*call).this.value.ptr = this as *mut u8;
        (*call).this.type_info = crate::value::TI_OBJECT;
    }
    (*call).scope = called;
    Ok(())
}

/// Whether `scope` may call/see a member declared `flags` in `decl`.
unsafe fn accessible(flags: u32, decl: *const Class, scope: *const Class) -> bool {
    if flags & ACC_PUBLIC != 0 || flags & ACC_VISIBILITY == 0 {
        return true;
    }
    if scope.is_null() {
        return false;
    }
    if flags & ACC_PRIVATE != 0 {
        return core::ptr::eq(decl, scope);
    }
    // protected: related classes (`zend_check_protected`)
    (*scope).is_subclass_of(decl) || (*decl).is_subclass_of(scope)
}

fn scope_text(scope: *const Class) -> String {
    if scope.is_null() {
        "global scope".into()
    } else {
        // SAFETY: a non-null scope is a bound class.
        format!("scope {}", unsafe { (*scope).name_str() })
    }
}

unsafe fn check_method_access(vm: &mut Vm, m: Method, name: &[u8], ctor: bool) -> Result<(), Thrown> {
    let scope = scope_of(vm);
    if accessible(m.flags, m.scope, scope) {
        return Ok(());
    }
    let vis = visibility_name(m.flags);
    // Zend names the class that declares the method (`ZEND_FN_SCOPE_NAME`).
    let decl = (*m.scope).name_str();
    if ctor {
        return Err(vm.throw_error("Error", &format!("Call to {vis} {decl}::__construct() from {}", scope_text(scope))));
    }
    Err(vm.throw_error("Error", &format!("Call to {vis} method {decl}::{}() from {}", s(name), scope_text(scope))))
}

// ------------------------------------------------------------ runtime cache

/// The runtime-cache pair at `slot` of the frame at `fp`: the class last
/// seen by a member access with a constant name, and what the name
/// resolved to there (property slot index, or method entry).
#[inline(always)]
pub unsafe fn cache_pair(fp: *mut Zval, slot: u32) -> *mut usize {
    (*(fp as *mut Frame)).rt_cache.add(slot as usize)
}

#[inline(always)]
unsafe fn fill_cache(fp: *mut Zval, slot: u32, c: *const Class, v: usize) {
    let p = cache_pair(fp, slot);
    *p = c as usize;
    *p.add(1) = v;
}

/// FETCH_OBJ_R's fast path: `$obj->name` when the cache knows the class.
/// Null when the cache misses or the slot is unset.
#[inline(always)]
pub unsafe fn cached_prop(fp: *mut Zval, ip: *const Op, ov: *const Zval) -> *const Zval {
    if (*ov).kind() != IS_OBJECT {
        return core::ptr::null();
    }
    let o = (*ov).obj();
    let p = cache_pair(fp, (*ip).extended_value);
    if *p != (*o).class as usize {
        return core::ptr::null();
    }
    let v = ZObject::slot(o, *p.add(1) as u32);
    if (*v).is_undef() {
        return core::ptr::null();
    }
    v
}

/// INIT_METHOD_CALL's fast path: pushes the cached method's frame with
/// `$this` = `o` when the cache knows its class and the stack page has
/// room. False (nothing changed) otherwise.
#[inline(always)]
pub unsafe fn push_cached_method(vm: *mut Vm, fp: *mut Zval, ip: *const Op, ov: *const Zval) -> bool {
    if (*ov).kind() != IS_OBJECT {
        return false;
    }
    let o = (*ov).obj();
    let p = cache_pair(fp, (*ip).result);
    if *p != (*o).class as usize {
        return false;
    }
    let entry = *p.add(1) as *mut FuncEntry;
    let nargs = (*ip).extended_value;
    let func = (*entry).func;
    let op = &(*func).op;
    let need = op.frame_size() + (nargs.saturating_sub(op.num_args) as usize) * 16;
    let stack = &mut (*vm).stack;
    if !(*func).is_user() || (stack.end as usize) - (stack.top as usize) < need {
        return false;
    }
    let f = fp as *mut Frame;
    let call = stack.top as *mut Frame;
    stack.top = stack.top.add(need);
    (*call).opline = core::ptr::null();
    (*call).call = core::ptr::null_mut();
    (*call).func = func;
    (*call).entry = entry;
    (*o).header.refcount += 1;
    (*call).this = Zval::object(o);
    (*call).this.u2 = nargs;
    (*call).prev = (*f).call;
    (*call).rt_cache = (*entry).rt_cache.as_mut_ptr();
    (*call).scope = (*o).class;
    for i in 0..nargs {
        (*Frame::slot(call, i)).type_info = crate::value::IS_UNDEF as u32;
    }
    (*f).call = call;
    true
}

// ------------------------------------------------------------ method calls

/// An UNUSED op1 stands for `$this`: code running without one (a closure
/// or static method that uses `$this`) fails as Zend's FETCH_THIS does.
unsafe fn check_this(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    if (*ip).op1_type == IS_UNUSED && (*(fp as *mut Frame)).this_obj().is_null() {
        return Err(vm.throw_error("Error", "Using $this when not in object context"));
    }
    Ok(())
}

/// The object op1 of a member access (UNUSED: `$this`).
unsafe fn obj_operand(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> *const Zval {
    if (*ip).op1_type == IS_UNUSED {
        return &(*(fp as *mut Frame)).this;
    }
    (*operand::any_read_1(ip, fp, vm)).deref()
}

/// The member name op2 (a string; other values are converted).
unsafe fn name_operand(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Vec<u8> {
    let v = (*operand::any_read_2(ip, fp, vm)).deref();
    if v.is_string() {
        return (*v.str()).bytes().to_vec();
    }
    let mut out = Vec::new();
    super::arith::to_string_into(vm, v, &mut out);
    out
}

/// INIT_METHOD_CALL: op1->op2(…) with op1 (UNUSED: `$this`) an object.
#[cold]
#[inline(never)]
pub unsafe fn init_method_call(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    check_this(vm, fp, ip)?;
    let name = name_operand(vm, fp, ip);
    let ov = obj_operand(vm, fp, ip);
    if !(*ov).is_object() {
        let t = crate::stdlib::type_name(&*ov);
        let msg = format!("Call to a member function {}() on {}", s(&name), t);
        return Err(vm.throw_error("Error", &msg));
    }
    let o = (*ov).obj();
    (*o).header.refcount += 1;
    let c = (*o).class;
    let lc = name.to_ascii_lowercase();
    let nargs = (*ip).extended_value;
    match (*c).find_method(&lc) {
        Some(m) if accessible(m.flags, m.scope, scope_of(vm)) => {
            if (*ip).op2_type == IS_CONST && m.flags & (ACC_STATIC | ACC_ABSTRACT) == 0 {
                fill_cache(fp, (*ip).result, c, m.entry as usize);
            }
            if m.flags & ACC_STATIC != 0 {
                Zval::object(o).ptr_dtor();
                return push_method_call(vm, fp, m.entry, core::ptr::null_mut(), c, nargs);
            }
            push_method_call(vm, fp, m.entry, o, c, nargs)
        }
        found => {
            if let Some(call) = (*c).magic.call {
                return push_magic_call(vm, fp, call, o, c, &name, nargs);
            }
            Zval::object(o).ptr_dtor();
            match found {
                Some(m) => check_method_access(vm, m, &(*m.entry).name().to_vec(), false),
                None => Err(vm.throw_error("Error", &format!("Call to undefined method {}::{}()", (*c).name_str(), s(&name)))),
            }
        }
    }
}

/// A call that goes to `__call`/`__callStatic`: the arguments are collected
/// by a trampoline frame (`MagicCall`), then passed as (name, array).
unsafe fn push_magic_call(vm: &mut Vm, fp: *mut Zval, m: Method, o: *mut ZObject, c: *const Class, name: &[u8], nargs: u32) -> Result<(), Thrown> {
    let tramp = vm.magic_trampoline();
    push_method_call(vm, fp, tramp, o, c, nargs)?;
    let call = (*(fp as *mut Frame)).call;
    vm.pending_magic.push((call, m, name.to_vec()));
    Ok(())
}

/// INIT_STATIC_METHOD_CALL: class op1 (name, self/parent/static, value), method op2.
#[cold]
#[inline(never)]
pub unsafe fn init_static_method_call(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let c = class_operand(vm, fp, ip, false)?;
    let name = name_operand(vm, fp, ip);
    let lc = name.to_ascii_lowercase();
    let nargs = (*ip).extended_value;
    let f = fp as *mut Frame;
    let this = (*f).this_obj();
    // `parent::f()`, `self::f()`, `A::f()` from a method of a subclass: the
    // call keeps `$this` when the method is not static.
    let keep_this = !this.is_null() && (*(*this).class).is_subclass_of(c);
    let m = match (*c).find_method(&lc) {
        Some(m) if accessible(m.flags, m.scope, scope_of(vm)) => m,
        found => {
            if keep_this {
                if let Some(call) = (*c).magic.call {
                    (*this).header.refcount += 1;
                    return push_magic_call(vm, fp, call, this, (*this).class, &name, nargs);
                }
            }
            if let Some(cs) = (*c).magic.call_static {
                return push_magic_call(vm, fp, cs, core::ptr::null_mut(), c, &name, nargs);
            }
            return match found {
                Some(m) => check_method_access(vm, m, &(*m.entry).name().to_vec(), false),
                None => Err(vm.throw_error("Error", &format!("Call to undefined method {}::{}()", (*c).name_str(), s(&name)))),
            };
        }
    };
    if m.flags & ACC_STATIC == 0 {
        if keep_this {
            (*this).header.refcount += 1;
            return push_method_call(vm, fp, m.entry, this, (*this).class, nargs);
        }
        let fname = s(&m.func().op.name);
        return Err(vm.throw_error("Error", &format!("Non-static method {}::{}() cannot be called statically", (*m.scope).name_str(), fname)));
    }
    // Forwarding calls (self::, parent::, static::) keep the called scope.
    let called = if (*ip).op1_type == IS_UNUSED && (*ip).op1 != FETCH_CLASS_STATIC {
        let cs = called_scope(vm);
        if cs.is_null() { c } else { cs }
    } else {
        c
    };
    if m.flags & ACC_ABSTRACT != 0 {
        return Err(vm.throw_error("Error", &format!("Cannot call abstract method {}::{}()", (*m.scope).name_str(), s(&m.func().op.name))));
    }
    push_method_call(vm, fp, m.entry, core::ptr::null_mut(), called, nargs)
}

// ------------------------------------------------------------ properties

/// Where property `name` of `o` lives for code running in `scope`.
enum PropAt {
    /// A declared slot the scope may use.
    Slot(u32, *const PropInfo),
    /// A declared property the scope may not use.
    Hidden(*const PropInfo),
    /// Not declared: a dynamic property (or none).
    Dynamic,
}

unsafe fn find_prop(c: *const Class, name: &[u8], scope: *const Class) -> PropAt {
    // A private property of the scope (an ancestor) shadows the object's own.
    if !scope.is_null() && !core::ptr::eq(scope, c) && (*c).is_subclass_of(scope) {
        if let Some(&i) = (*scope).prop_map.get(name) {
            let pi = &(&(*scope).props)[i as usize];
            if pi.flags & ACC_PRIVATE != 0 && core::ptr::eq(pi.scope, scope) {
                return PropAt::Slot(pi.slot, pi);
            }
        }
    }
    match (*c).prop_map.get(name) {
        Some(&i) => {
            let pi = &(&(*c).props)[i as usize];
            if accessible(pi.flags, pi.scope, scope) {
                PropAt::Slot(pi.slot, pi)
            } else {
                PropAt::Hidden(pi)
            }
        }
        None => PropAt::Dynamic,
    }
}

unsafe fn hidden_error(vm: &mut Vm, c: *const Class, pi: *const PropInfo) -> Thrown {
    let msg = format!("Cannot access {} property {}::${}", visibility_name((*pi).flags), (*c).name_str(), s(&(*pi).name));
    vm.throw_error("Error", &msg)
}

fn kind_for_msg(v: &Zval) -> &'static str {
    crate::stdlib::type_name(v)
}

/// Reads property `name` of object `o` (`is`: quietly, for isset/??).
pub unsafe fn read_prop(vm: &mut Vm, o: *mut ZObject, name: &[u8], is: bool) -> Result<Zval, Thrown> {
    let c = (*o).class;
    let scope = scope_of(vm);
    match find_prop(c, name, scope) {
        PropAt::Slot(slot, pi) => {
            let v = &*ZObject::slot(o, slot);
            if !v.is_undef() {
                return Ok(v.copy_deref());
            }
            if let Some(g) = (*c).magic.get {
                if let Some(r) = magic_get(vm, o, g, name)? {
                    return Ok(r);
                }
            }
            if (*pi).ty.is_some() {
                if is {
                    return Ok(Zval::NULL);
                }
                let msg = format!("Typed property {}::${} must not be accessed before initialization", (*(*pi).scope).name_str(), s(name));
                return Err(vm.throw_error("Error", &msg));
            }
        }
        PropAt::Hidden(pi) => {
            if let Some(g) = (*c).magic.get {
                if let Some(r) = magic_get(vm, o, g, name)? {
                    return Ok(r);
                }
            }
            if is {
                return Ok(Zval::NULL);
            }
            return Err(hidden_error(vm, c, pi));
        }
        PropAt::Dynamic => {
            let d = (*o).dynamic;
            if !d.is_null() {
                if let Some(v) = (*d).find_bytes(name) {
                    return Ok((*v).copy_deref());
                }
            }
            if let Some(g) = (*c).magic.get {
                if let Some(r) = magic_get(vm, o, g, name)? {
                    return Ok(r);
                }
            }
        }
    }
    if !is {
        vm.warning(&format!("Undefined property: {}::${}", (*c).name_str(), s(name)));
    }
    Ok(Zval::NULL)
}

/// Calls `__get` unless it is already running for this property (then
/// `None`: the plain property is used, as Zend's guards do).
unsafe fn magic_get(vm: &mut Vm, o: *mut ZObject, g: Method, name: &[u8]) -> Result<Option<Zval>, Thrown> {
    let arg = Zval::string(ZString::new(name));
    let r = magic_guarded(vm, o, g, name, 0, &[arg]);
    arg.ptr_dtor();
    r
}

unsafe fn magic_guarded(vm: &mut Vm, o: *mut ZObject, m: Method, name: &[u8], tag: u8, args: &[Zval]) -> Result<Option<Zval>, Thrown> {
    let key = (o as usize, name.to_vec(), tag);
    if vm.magic_guards.contains(&key) {
        return Ok(None);
    }
    vm.magic_guards.push(key.clone());
    let r = call_method(vm, o, m, args);
    vm.magic_guards.retain(|k| k != &key);
    r.map(Some)
}

/// FETCH_OBJ_R / FETCH_OBJ_IS: result := op1->op2.
#[cold]
#[inline(never)]
pub unsafe fn fetch_obj_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op, is: bool) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    check_this(vm, fp, ip)?;
    let name = name_operand(vm, fp, ip);
    // FETCH_OBJ_IS reads an undefined variable quietly (`$u->p ?? x`).
    let ov = if is && (*ip).op1_type != IS_UNUSED { (*operand::any_deref_1(ip, fp)).deref() as *const Zval } else { obj_operand(vm, fp, ip) };
    if !(*ov).is_object() {
        if !is {
            let t = kind_for_msg(&*ov);
            vm.warning(&format!("Attempt to read property \"{}\" on {}", s(&name), t));
        }
        return Ok(Zval::NULL);
    }
    let o = (*ov).obj();
    if (*ip).op2_type == IS_CONST {
        if let PropAt::Slot(slot, _) = find_prop((*o).class, &name, scope_of(vm)) {
            fill_cache(fp, (*ip).extended_value, (*o).class, slot as usize);
        }
    }
    (*o).header.refcount += 1;
    let r = read_prop(vm, o, &name, is);
    Zval::object(o).ptr_dtor();
    r
}

/// The slot of property `name` of `o` for writing (created as NULL when
/// missing; `rw` warns as a read would). Null when the property is handled
/// by magic (`__get` returned a value, written to `tmp`).
unsafe fn prop_for_write(vm: &mut Vm, o: *mut ZObject, name: &[u8], rw: bool, tmp: *mut Zval) -> Result<*mut Zval, Thrown> {
    let c = (*o).class;
    match find_prop(c, name, scope_of(vm)) {
        PropAt::Slot(slot, pi) => {
            let p = ZObject::slot(o, slot);
            if (*pi).flags & ACC_READONLY != 0 {
                let msg = format!("Cannot modify readonly property {}::${}", (*c).name_str(), s(name));
                return Err(vm.throw_error("Error", &msg));
            }
            if (*p).is_undef() {
                if let Some(g) = (*c).magic.get {
                    if let Some(v) = magic_get(vm, o, g, name)? {
                        *tmp = v;
                        return Ok(core::ptr::null_mut());
                    }
                }
                if (*pi).ty.is_some() && rw {
                    let msg = format!("Typed property {}::${} must not be accessed before initialization", (*(*pi).scope).name_str(), s(name));
                    return Err(vm.throw_error("Error", &msg));
                }
                if rw {
                    vm.warning(&format!("Undefined property: {}::${}", (*c).name_str(), s(name)));
                }
                *p = Zval::NULL;
            }
            Ok(p)
        }
        PropAt::Hidden(pi) => {
            if let Some(g) = (*c).magic.get {
                if let Some(v) = magic_get(vm, o, g, name)? {
                    *tmp = v;
                    return Ok(core::ptr::null_mut());
                }
            }
            Err(hidden_error(vm, c, pi))
        }
        PropAt::Dynamic => {
            if let Some(g) = (*c).magic.get {
                let exists = !(*o).dynamic.is_null() && (*(*o).dynamic).find_bytes(name).is_some();
                if !exists {
                    if let Some(v) = magic_get(vm, o, g, name)? {
                        *tmp = v;
                        return Ok(core::ptr::null_mut());
                    }
                }
            }
            dynamic_slot(vm, o, name, rw)
        }
    }
}

/// The dynamic property `name` of `o`, added as NULL when missing (with
/// PHP 8.2's deprecation for classes that don't allow dynamic properties).
unsafe fn dynamic_slot(vm: &mut Vm, o: *mut ZObject, name: &[u8], rw: bool) -> Result<*mut Zval, Thrown> {
    let c = (*o).class;
    let d = own_dynamic(o);
    if let Some(p) = (*d).find_bytes(name) {
        return Ok(p);
    }
    if (*c).flags & (CLASS_ENUM | CLASS_READONLY) != 0 {
        return Err(vm.throw_error("Error", &format!("Cannot create dynamic property {}::${}", (*c).name_str(), s(name))));
    }
    if rw {
        vm.warning(&format!("Undefined property: {}::${}", (*c).name_str(), s(name)));
    }
    if (*c).flags & CLASS_ALLOW_DYNAMIC == 0 {
        vm.deprecated(&format!("Creation of dynamic property {}::${} is deprecated", (*c).name_str(), s(name)));
    }
    // Property tables keep numeric names as strings.
    let ks = ZString::new(name);
    let (p, _) = (*d).lookup_str_ex(ks);
    Zval::string(ks).ptr_dtor();
    Ok(p)
}

/// The dynamic property table of `o`, made (empty) if missing and
/// separated if shared (an `(array)` cast may share it).
unsafe fn own_dynamic(o: *mut ZObject) -> *mut ZArray {
    if (*o).dynamic.is_null() {
        (*o).dynamic = ZArray::new();
    } else if (*(*o).dynamic).header.refcount > 1 {
        let mut z = Zval::array((*o).dynamic);
        (*o).dynamic = ZArray::separate(&mut z);
    }
    (*o).dynamic
}

/// `op1->op2 = value`: stores `v` (owned) and returns a copy.
pub unsafe fn write_prop(vm: &mut Vm, o: *mut ZObject, name: &[u8], v: Zval) -> Result<Zval, Thrown> {
    let c = (*o).class;
    let scope = scope_of(vm);
    let slot = match find_prop(c, name, scope) {
        PropAt::Slot(slot, pi) => {
            let p = ZObject::slot(o, slot);
            if (*pi).flags & ACC_READONLY != 0 {
                if !(*p).is_undef() || !core::ptr::eq((*pi).scope, scope) {
                    v.ptr_dtor();
                    let msg = if (*p).is_undef() {
                        format!("Cannot initialize readonly property {}::${} from {}", (*c).name_str(), s(name), if scope.is_null() { "global scope".to_string() } else { format!("scope {}", (*scope).name_str()) })
                    } else {
                        format!("Cannot modify readonly property {}::${}", (*c).name_str(), s(name))
                    };
                    return Err(vm.throw_error("Error", &msg));
                }
            }
            if (*p).is_undef() && (*pi).ty.is_none() {
                if let Some(set) = (*c).magic.set {
                    if let Some(r) = magic_set(vm, o, set, name, v)? {
                        return Ok(r);
                    }
                }
            }
            if let Some((mask, text)) = &(*pi).ty {
                let v = typed_value(vm, pi, *mask, text, v)?;
                let r = v.copy_value();
                super::assign::assign(p, v);
                return Ok(r);
            }
            p
        }
        PropAt::Hidden(pi) => {
            if let Some(set) = (*c).magic.set {
                if let Some(r) = magic_set(vm, o, set, name, v)? {
                    return Ok(r);
                }
            }
            v.ptr_dtor();
            return Err(hidden_error(vm, c, pi));
        }
        PropAt::Dynamic => {
            let exists = !(*o).dynamic.is_null() && (*(*o).dynamic).find_bytes(name).is_some();
            if !exists {
                if let Some(set) = (*c).magic.set {
                    if let Some(r) = magic_set(vm, o, set, name, v)? {
                        return Ok(r);
                    }
                }
            }
            dynamic_slot(vm, o, name, false)?
        }
    };
    let r = v.copy_value();
    super::assign::assign(slot, v);
    Ok(r)
}

/// A value for typed property `pi`, coerced as an argument would be
/// (`zend_verify_property_type`), or PHP's TypeError. Consumes `v`.
unsafe fn typed_value(vm: &mut Vm, pi: *const crate::runtime::class::PropInfo, mask: crate::ops::TypeMask, text: &str, v: Zval) -> Result<Zval, Thrown> {
    let mut v = if v.is_reference() {
        let d = v.copy_deref();
        v.ptr_dtor();
        d
    } else {
        v
    };
    let strict = vm.current_op_array().is_some_and(|o| o.strict_types);
    if super::call::coerce(vm, &mut v, mask, strict) {
        return Ok(v);
    }
    let msg = format!("Cannot assign {} to property {}::${} of type {}", super::call::zend_type_name(&v), (*(*pi).scope).name_str(), s(&(*pi).name), text);
    v.ptr_dtor();
    Err(vm.throw_error("TypeError", &msg))
}

/// `__set($name, $value)`; `None` when the guard is up (plain write).
unsafe fn magic_set(vm: &mut Vm, o: *mut ZObject, m: Method, name: &[u8], v: Zval) -> Result<Option<Zval>, Thrown> {
    let key = (o as usize, name.to_vec(), 1u8);
    if vm.magic_guards.contains(&key) {
        return Ok(None);
    }
    let n = Zval::string(ZString::new(name));
    let r = magic_guarded(vm, o, m, name, 1, &[n, v]);
    n.ptr_dtor();
    match r {
        Ok(Some(ret)) => {
            ret.ptr_dtor();
            Ok(Some(v))
        }
        Ok(None) => Ok(None),
        Err(t) => {
            v.ptr_dtor();
            Err(t)
        }
    }
}

/// Runs an OP_DATA consumer, then releases op1 and op2 (TMP/VAR) on
/// every path: the handlers call these with `slow_owned!`.
unsafe fn consuming(fp: *mut Zval, ip: *const Op, r: Result<Zval, Thrown>) -> Result<Zval, Thrown> {
    super::free_op(fp, ip, 1);
    super::free_op(fp, ip, 2);
    r
}

/// ASSIGN_OBJ: op1->op2 = OP_DATA; result := the value. Consumes its operands.
#[cold]
#[inline(never)]
pub unsafe fn assign_obj(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    let r = assign_obj_inner(vm, fp, ip);
    consuming(fp, ip, r)
}

unsafe fn assign_obj_inner(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    if let Err(t) = check_this(vm, fp, ip) {
        super::free_op(fp, ip, 3);
        return Err(t);
    }
    let v = super::take(vm, fp, ip, 3);
    let name = name_operand(vm, fp, ip);
    let target = obj_write_operand(fp, ip);
    if !(*target).is_object() {
        v.ptr_dtor();
        let t = kind_for_msg(&*target);
        return Err(vm.throw_error("Error", &format!("Attempt to assign property \"{}\" on {}", s(&name), t)));
    }
    let o = (*target).obj();
    if (*ip).op2_type == IS_CONST {
        if let PropAt::Slot(slot, pi) = find_prop((*o).class, &name, scope_of(vm)) {
            if (*pi).flags & ACC_READONLY == 0 {
                fill_cache(fp, (*ip).extended_value, (*o).class, write_cache_entry(slot, pi));
            }
        }
    }
    (*o).header.refcount += 1;
    let r = write_prop(vm, o, &name, v);
    Zval::object(o).ptr_dtor();
    r
}

/// ASSIGN_OBJ_REF: op1->op2 =& OP_DATA (Zend's
/// `zend_assign_to_property_reference`). Consumes its operands.
#[cold]
#[inline(never)]
pub unsafe fn assign_obj_ref(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let r = assign_obj_ref_inner(vm, fp, ip);
    consuming_ref(fp, ip, r)
}

unsafe fn assign_obj_ref_inner(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    check_this(vm, fp, ip)?;
    let name = name_operand(vm, fp, ip);
    let target = obj_write_operand(fp, ip);
    if !(*target).is_object() {
        return Err(modify_non_object(vm, fp, ip, target, &name));
    }
    let o = (*target).obj();
    (*o).header.refcount += 1;
    let mut tmp = Zval::NULL;
    let r = match prop_for_write(vm, o, &name, false, &mut tmp) {
        Ok(p) if p.is_null() => {
            tmp.ptr_dtor();
            vm.notice(&format!("Indirect modification of overloaded property {}::${} has no effect", (*(*o).class).name_str(), s(&name)));
            Err(vm.throw_error("Error", "Cannot assign by reference to overloaded object"))
        }
        Ok(p) => bind_ref_source(vm, fp, ip, p),
        Err(t) => Err(t),
    };
    Zval::object(o).ptr_dtor();
    r
}

/// Binds `slot` to the OP_DATA variable by reference and sets the result.
/// A call's result that is no reference is assigned by value after PHP's
/// notice, as `zend_wrong_assign_to_variable_reference`.
unsafe fn bind_ref_source(vm: &mut Vm, fp: *mut Zval, ip: *const Op, slot: *mut Zval) -> Result<(), Thrown> {
    let src = operand::any_raw_od(ip, fp) as *mut Zval;
    let stored = if (*ip.add(1)).op1_type == IS_VAR && (*ip).extended_value & 1 != 0 && !(*src).is_reference() && (*src).kind() != crate::value::IS_INDIRECT {
        vm.notice("Only variables should be assigned by reference");
        if vm.exception.is_some() {
            return Err(Thrown);
        }
        let v = *src;
        *src = Zval::UNDEF;
        super::assign::assign(slot, v)
    } else {
        let r = super::assign::take_ref(fp, ip, 3);
        super::assign::bind_ref(slot, r);
        slot
    };
    if (*ip).result_type != IS_UNUSED {
        *operand::result(ip, fp) = (*stored).copy_value();
    }
    Ok(())
}

/// Releases what an ASSIGN_*_REF left of its operands (op1, op2 and a
/// VAR OP_DATA not moved into the property).
unsafe fn consuming_ref(fp: *mut Zval, ip: *const Op, r: Result<(), Thrown>) -> Result<(), Thrown> {
    // A moved OP_DATA left UNDEF behind; an INDIRECT owns nothing.
    super::free_op(fp, ip, 3);
    super::free_op(fp, ip, 1);
    super::free_op(fp, ip, 2);
    r
}

/// "Attempt to modify property" on a container that is no object (an
/// undefined CV warns first).
unsafe fn modify_non_object(vm: &mut Vm, fp: *mut Zval, ip: *const Op, target: *mut Zval, name: &[u8]) -> Thrown {
    let t = kind_for_msg(&*target);
    if (*target).is_undef() && (*ip).op1_type == IS_CV {
        operand::cv_read_1(ip, fp, vm);
    }
    vm.throw_error("Error", &format!("Attempt to modify property \"{}\" on {}", s(name), t))
}

/// The container op1 of a property write (UNUSED: `$this`), dereferenced.
unsafe fn obj_write_operand(fp: *mut Zval, ip: *const Op) -> *mut Zval {
    match (*ip).op1_type {
        IS_UNUSED => &mut (*(fp as *mut Frame)).this,
        IS_VAR => (*operand::var_ptr_1(ip, fp)).deref_mut(),
        IS_CV => (*operand::slot_1(ip, fp)).deref_mut(),
        _ => (*operand::slot_1(ip, fp)).deref_mut(),
    }
}

/// FETCH_OBJ_W / FETCH_OBJ_RW: the property op1->op2 for writing (an
/// INDIRECT to its slot, or a temporary for magic properties).
#[cold]
#[inline(never)]
pub unsafe fn fetch_obj_w(vm: &mut Vm, fp: *mut Zval, ip: *const Op, rw: bool) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    check_this(vm, fp, ip)?;
    let name = name_operand(vm, fp, ip);
    let target = obj_write_operand(fp, ip);
    let res = operand::result(ip, fp);
    if !(*target).is_object() {
        *res = Zval::NULL;
        return Err(modify_non_object(vm, fp, ip, target, &name));
    }
    let o = (*target).obj();
    // A readonly property holding an object gives the object itself (a
    // copy of the handle): it can be modified, the property not
    // (`zend_std_read_property` for W/RW fetches).
    if let PropAt::Slot(slot, pi) = find_prop((*o).class, &name, scope_of(vm)) {
        let p = ZObject::slot(o, slot);
        if (*pi).flags & ACC_READONLY != 0 && (*p).deref().is_object() {
            *res = (*p).copy_deref();
            return Ok(());
        }
    }
    let mut tmp = Zval::NULL;
    let p = prop_for_write(vm, o, &name, rw, &mut tmp)?;
    if p.is_null() {
        // A magic property: modifications go to a copy (PHP's "Indirect
        // modification of overloaded property" notice).
        vm.notice(&format!("Indirect modification of overloaded property {}::${} has no effect", (*(*o).class).name_str(), s(&name)));
        *res = tmp;
        return Ok(());
    }
    *res = Zval::indirect(p);
    Ok(())
}

/// ASSIGN_OBJ_OP: op1->op2 op= OP_DATA. Consumes its operands.
#[cold]
#[inline(never)]
pub unsafe fn assign_obj_op(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    let r = assign_obj_op_inner(vm, fp, ip);
    consuming(fp, ip, r)
}

unsafe fn assign_obj_op_inner(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    if let Err(t) = check_this(vm, fp, ip) {
        super::free_op(fp, ip, 3);
        return Err(t);
    }
    let name = name_operand(vm, fp, ip);
    let target = obj_write_operand(fp, ip);
    let val = super::take(vm, fp, ip, 3);
    if !(*target).is_object() {
        val.ptr_dtor();
        let t = kind_for_msg(&*target);
        return Err(vm.throw_error("Error", &format!("Attempt to assign property \"{}\" on {}", s(&name), t)));
    }
    let o = (*target).obj();
    (*o).header.refcount += 1;
    let opcode = Opcode::from_u8((*ip).extended_value as u8).unwrap_or(Opcode::Add);
    let r = (|| {
        let mut tmp = Zval::NULL;
        let p = prop_for_write(vm, o, &name, true, &mut tmp)?;
        if p.is_null() {
            let nv = super::arith::apply(vm, opcode, &tmp, &val);
            tmp.ptr_dtor();
            let nv = nv?;
            return write_prop(vm, o, &name, nv);
        }
        super::assign::binary_into(vm, opcode, (*p).deref_mut(), &val)
    })();
    val.ptr_dtor();
    Zval::object(o).ptr_dtor();
    r
}

/// PRE_INC_OBJ … POST_DEC_OBJ: ++/-- on op1->op2.
#[cold]
#[inline(never)]
pub unsafe fn incdec_obj(vm: &mut Vm, fp: *mut Zval, ip: *const Op, inc: bool, pre: bool) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    check_this(vm, fp, ip)?;
    let name = name_operand(vm, fp, ip);
    let target = obj_write_operand(fp, ip);
    if !(*target).is_object() {
        let t = kind_for_msg(&*target);
        return Err(vm.throw_error("Error", &format!("Attempt to increment/decrement property \"{}\" on {}", s(&name), t)));
    }
    let o = (*target).obj();
    (*o).header.refcount += 1;
    let r = (|| {
        let mut tmp = Zval::NULL;
        let p = prop_for_write(vm, o, &name, true, &mut tmp)?;
        let cur = if p.is_null() { tmp } else { (*p).copy_deref() };
        let old = cur.copy_value();
        let mut nv = cur;
        let res = if inc { crate::value::arith::increment(&mut nv) } else { crate::value::arith::decrement(&mut nv) };
        if let Err(t) = res {
            old.ptr_dtor();
            nv.ptr_dtor();
            return Err(super::raise(vm, t));
        }
        let ret = if pre { nv.copy_value() } else { old.copy_value() };
        old.ptr_dtor();
        if p.is_null() {
            write_prop(vm, o, &name, nv)?.ptr_dtor();
        } else {
            super::assign::assign(p, nv);
        }
        Ok(ret)
    })();
    Zval::object(o).ptr_dtor();
    r
}

/// ISSET_ISEMPTY_PROP_OBJ: isset(op1->op2) (extended_value bit 0: empty()).
#[cold]
#[inline(never)]
pub unsafe fn isset_prop(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    check_this(vm, fp, ip)?;
    let empty = (*ip).extended_value & 1 != 0;
    let name = name_operand(vm, fp, ip);
    let ov = if (*ip).op1_type == IS_UNUSED { &(*(fp as *mut Frame)).this as *const Zval } else { (*operand::any_raw_1(ip, fp)).deref() as *const Zval };
    if !(*ov).is_object() {
        return Ok(empty);
    }
    let o = (*ov).obj();
    let c = (*o).class;
    (*o).header.refcount += 1;
    let r = (|| {
        let v: Option<Zval> = match find_prop(c, &name, scope_of(vm)) {
            PropAt::Slot(slot, _) if !(*ZObject::slot(o, slot)).is_undef() => Some((*ZObject::slot(o, slot)).copy_deref()),
            PropAt::Dynamic if !(*o).dynamic.is_null() && (*(*o).dynamic).find_bytes(&name).is_some() => {
                Some((*(*(*o).dynamic).find_bytes(&name).expect("found")).copy_deref())
            }
            _ => {
                // Declared-but-unset, hidden or missing: ask __isset.
                let Some(is) = (*c).magic.isset else { return Ok(empty) };
                let n = Zval::string(ZString::new(&name));
                let r = magic_guarded(vm, o, is, &name, 2, &[n]);
                n.ptr_dtor();
                let Some(set) = r? else { return Ok(empty) };
                let yes = crate::value::convert::to_bool(&set);
                set.ptr_dtor();
                if !yes {
                    return Ok(empty);
                }
                if !empty {
                    return Ok(true);
                }
                let Some(g) = (*c).magic.get else { return Ok(true) };
                magic_get(vm, o, g, &name)?
            }
        };
        let Some(v) = v else { return Ok(empty) };
        let r = if empty { !crate::value::convert::to_bool(&v) } else { v.deref().kind() > crate::value::IS_NULL };
        v.ptr_dtor();
        Ok(r)
    })();
    Zval::object(o).ptr_dtor();
    r
}

/// UNSET_OBJ: unset(op1->op2).
#[cold]
#[inline(never)]
pub unsafe fn unset_obj(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    check_this(vm, fp, ip)?;
    let name = name_operand(vm, fp, ip);
    let target = obj_write_operand(fp, ip);
    if !(*target).is_object() {
        return Ok(());
    }
    let o = (*target).obj();
    let c = (*o).class;
    match find_prop(c, &name, scope_of(vm)) {
        PropAt::Slot(slot, pi) => {
            if (*pi).flags & ACC_READONLY != 0 {
                return Err(vm.throw_error("Error", &format!("Cannot unset readonly property {}::${}", (*c).name_str(), s(&name))));
            }
            let p = ZObject::slot(o, slot);
            let old = *p;
            *p = Zval::UNDEF;
            old.ptr_dtor();
        }
        PropAt::Hidden(pi) => {
            if let Some(u) = (*c).magic.unset {
                let n = Zval::string(ZString::new(&name));
                let r = magic_guarded(vm, o, u, &name, 3, &[n]);
                n.ptr_dtor();
                if let Some(v) = r? {
                    v.ptr_dtor();
                    return Ok(());
                }
            }
            return Err(hidden_error(vm, c, pi));
        }
        PropAt::Dynamic => {
            let d = (*o).dynamic;
            if !d.is_null() && (*d).find_bytes(&name).is_some() {
                let d = own_dynamic(o);
                let ks = ZString::new(&name);
                (*d).remove_str(&*ks);
                Zval::string(ks).ptr_dtor();
            } else if let Some(u) = (*c).magic.unset {
                let n = Zval::string(ZString::new(&name));
                let r = magic_guarded(vm, o, u, &name, 3, &[n]);
                n.ptr_dtor();
                if let Some(v) = r? {
                    v.ptr_dtor();
                }
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------ constants, statics

/// The value of constant `name` of class `c` (computed on first use).
pub unsafe fn class_constant(vm: &mut Vm, c: *const Class, name: &[u8]) -> Result<Zval, Thrown> {
    let scope = scope_of(vm);
    class_constant_in(vm, c, name, scope)
}

/// `class_constant` as seen from code in `scope`.
pub unsafe fn class_constant_in(vm: &mut Vm, c: *const Class, name: &[u8], scope: *const Class) -> Result<Zval, Thrown> {
    if name.eq_ignore_ascii_case(b"class") {
        return Ok(Zval::string(ZString::new(&(*c).name)));
    }
    let Some(&cell) = (*c).consts.get(name) else {
        return Err(vm.throw_error("Error", &format!("Undefined constant {}::{}", (*c).name_str(), s(name))));
    };
    if !accessible((*cell).flags, (*cell).scope, scope) {
        let msg = format!("Cannot access {} constant {}::{}", visibility_name((*cell).flags), (*c).name_str(), s(name));
        return Err(vm.throw_error("Error", &msg));
    }
    let v = &*(*cell).value.get();
    if !v.is_undef() {
        return Ok(v.copy_value());
    }
    if (*cell).flags & CONST_CASE != 0 {
        if !*(*(*cell).scope).enum_checked.get() {
            crate::stdlib::enums::check_backing(vm, (*cell).scope)?;
        }
        return enum_case(vm, cell, name);
    }
    if *(*cell).busy.get() {
        return Err(vm.throw_error("Error", &format!("Cannot declare self-referencing constant {}::{}", (*(*cell).scope).name_str(), s(name))));
    }
    *(*cell).busy.get() = true;
    let r = run_init(vm, (*cell).init, (*cell).scope);
    *(*cell).busy.get() = false;
    let v = r?;
    *(*cell).value.get() = v.copy_value();
    Ok(v)
}

/// The object of enum case `name` (its cell is `cell`), made at the first
/// fetch: a singleton with readonly `name` and `value` (Zend's
/// `zend_enum_new`). A backing value of the wrong type is a TypeError.
pub unsafe fn enum_case(vm: &mut Vm, cell: *const ConstCell, name: &[u8]) -> Result<Zval, Thrown> {
    let v = &*(*cell).value.get();
    if !v.is_undef() {
        return Ok(v.copy_value());
    }
    let c = (*cell).scope;
    let backing = if (*cell).init.is_null() {
        (*cell).backing.copy_value()
    } else {
        if *(*cell).busy.get() {
            return Err(vm.throw_error("Error", &format!("Cannot declare self-referencing constant {}::{}", (*c).name_str(), s(name))));
        }
        *(*cell).busy.get() = true;
        let r = run_init(vm, (*cell).init, c);
        *(*cell).busy.get() = false;
        r?
    };
    let want = if (*c).flags & CLASS_ENUM_INT != 0 {
        Some(crate::value::IS_LONG)
    } else if (*c).flags & CLASS_ENUM_STRING != 0 {
        Some(IS_STRING)
    } else {
        None
    };
    if let Some(k) = want {
        if backing.kind() != k {
            let msg = format!(
                "Enum case type {} does not match enum backing type {}",
                crate::stdlib::type_name(&backing),
                if k == IS_STRING { "string" } else { "int" }
            );
            backing.ptr_dtor();
            return Err(vm.throw_error("TypeError", &msg));
        }
    }
    // Another fetch may have made it while the backing value was computed.
    let v = &*(*cell).value.get();
    if !v.is_undef() {
        backing.ptr_dtor();
        return Ok(v.copy_value());
    }
    ensure_defaults(vm, c)?;
    let o = ZObject::alloc(c, &*(*c).defaults.get());
    vm.objects.add(o);
    let p = crate::runtime::builtin_classes::prop_slot(o, b"name");
    if !p.is_null() {
        *p = Zval::string(ZString::new(name));
    }
    if want.is_some() {
        let p = crate::runtime::builtin_classes::prop_slot(o, b"value");
        if !p.is_null() {
            *p = backing;
        }
    } else {
        backing.ptr_dtor();
    }
    let r = Zval::object(o);
    *(*cell).value.get() = r.copy_value();
    Ok(r)
}

/// FETCH_CLASS_CONSTANT: class op1, name op2.
#[cold]
#[inline(never)]
pub unsafe fn fetch_class_constant(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let c = class_operand(vm, fp, ip, false)?;
    let name = name_operand(vm, fp, ip);
    class_constant(vm, c, &name)
}

/// The cell of static property op1 of class op2.
pub unsafe fn static_prop(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<*mut Zval, Thrown> {
    let c = class_operand(vm, fp, ip, true)?;
    let name = {
        let v = (*operand::any_read_1(ip, fp, vm)).deref();
        if v.is_string() { (*v.str()).bytes().to_vec() } else { Vec::new() }
    };
    let Some(&cell) = (*c).statics.get(&name) else {
        return Err(vm.throw_error("Error", &format!("Access to undeclared static property {}::${}", (*c).name_str(), s(&name))));
    };
    let scope = scope_of(vm);
    if !accessible((*cell).flags, (*cell).scope, scope) {
        let msg = format!("Cannot access {} property {}::${}", visibility_name((*cell).flags), (*c).name_str(), s(&name));
        return Err(vm.throw_error("Error", &msg));
    }
    let p = (*cell).value.get();
    if (*p).is_undef() && !(*cell).init.is_null() {
        let v = run_init(vm, (*cell).init, (*cell).scope)?;
        *p = v;
    }
    Ok(p)
}

/// FETCH_STATIC_PROP_R/IS: result := a copy.
#[cold]
#[inline(never)]
pub unsafe fn fetch_static_prop_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op, is: bool) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    if is {
        let saved = vm.exception.take();
        let r = static_prop(vm, fp, ip);
        let had = vm.exception.is_some();
        vm.exception = saved;
        return Ok(match r {
            Ok(p) if !had => (*p).copy_deref(),
            _ => Zval::NULL,
        });
    }
    let p = static_prop(vm, fp, ip)?;
    if (*p).is_undef() {
        return Err(vm.throw_error("Error", "Typed static property must not be accessed before initialization"));
    }
    Ok((*p).copy_deref())
}

/// FETCH_STATIC_PROP_W/RW/FUNC_ARG: result := INDIRECT to the cell.
#[cold]
#[inline(never)]
pub unsafe fn fetch_static_prop_w(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let p = static_prop(vm, fp, ip)?;
    if (*p).is_undef() {
        *p = Zval::NULL;
    }
    *operand::result(ip, fp) = Zval::indirect(p);
    Ok(())
}

/// ASSIGN_STATIC_PROP: class::$op1 = OP_DATA. Consumes its operands.
#[cold]
#[inline(never)]
pub unsafe fn assign_static_prop(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    let r = assign_static_prop_inner(vm, fp, ip);
    consuming(fp, ip, r)
}

unsafe fn assign_static_prop_inner(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = super::take(vm, fp, ip, 3);
    let p = match static_prop(vm, fp, ip) {
        Ok(p) => p,
        Err(t) => {
            v.ptr_dtor();
            return Err(t);
        }
    };
    let r = v.copy_value();
    super::assign::assign(p, v);
    Ok(r)
}

/// ASSIGN_STATIC_PROP_REF: class::$op1 =& OP_DATA. Consumes its operands.
#[cold]
#[inline(never)]
pub unsafe fn assign_static_prop_ref(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let r = match static_prop(vm, fp, ip) {
        Ok(p) => bind_ref_source(vm, fp, ip, p),
        Err(t) => Err(t),
    };
    consuming_ref(fp, ip, r)
}

/// ASSIGN_STATIC_PROP_OP: class::$op1 op= OP_DATA. Consumes its operands.
#[cold]
#[inline(never)]
pub unsafe fn assign_static_prop_op(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    let r = assign_static_prop_op_inner(vm, fp, ip);
    consuming(fp, ip, r)
}

unsafe fn assign_static_prop_op_inner(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = super::take(vm, fp, ip, 3);
    let r = match static_prop(vm, fp, ip) {
        Ok(p) => {
            let opcode = Opcode::from_u8((*ip).extended_value as u8).unwrap_or(Opcode::Add);
            super::assign::binary_into(vm, opcode, (*p).deref_mut(), &v)
        }
        Err(t) => Err(t),
    };
    v.ptr_dtor();
    r
}

/// PRE_INC_STATIC_PROP …: ++/-- on a static property.
#[cold]
#[inline(never)]
pub unsafe fn incdec_static_prop(vm: &mut Vm, fp: *mut Zval, ip: *const Op, inc: bool, pre: bool) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let p = (*static_prop(vm, fp, ip)?).deref_mut() as *mut Zval;
    let old = (*p).copy_value();
    let res = if inc { crate::value::arith::increment(&mut *p) } else { crate::value::arith::decrement(&mut *p) };
    if let Err(t) = res {
        old.ptr_dtor();
        return Err(super::raise(vm, t));
    }
    if pre {
        old.ptr_dtor();
        Ok((*p).copy_value())
    } else {
        Ok(old)
    }
}

/// ISSET_ISEMPTY_STATIC_PROP.
#[cold]
#[inline(never)]
pub unsafe fn isset_static_prop(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let empty = (*ip).extended_value & 1 != 0;
    let saved = vm.exception.take();
    let r = static_prop(vm, fp, ip);
    let had = vm.exception.is_some();
    vm.exception = saved;
    Ok(match r {
        Ok(p) if !had => {
            let v = (*p).deref();
            if empty { !crate::value::convert::to_bool(v) } else { v.kind() > crate::value::IS_NULL }
        }
        _ => empty,
    })
}

// ------------------------------------------------------------ misc

/// INSTANCEOF: op1 instanceof class op2 (a missing class is just false).
#[cold]
#[inline(never)]
pub unsafe fn instanceof(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*operand::any_read_1(ip, fp, vm)).deref();
    let r = if !v.is_object() {
        false
    } else if (*ip).op2_type == IS_CONST {
        let n = &*operand::const_2(ip);
        match find_class(vm, (*n.str()).bytes()) {
            Some(c) => (*(*v.obj()).class).is_subclass_of(c),
            None => false,
        }
    } else {
        let c = class_operand(vm, fp, ip, true)?;
        (*(*v.obj()).class).is_subclass_of(c)
    };
    Ok(r)
}

/// CLONE: a shallow copy of op1; runs `__clone` on the copy.
#[cold]
#[inline(never)]
pub unsafe fn clone(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    check_this(vm, fp, ip)?;
    let v = *obj_operand(vm, fp, ip);
    if !v.is_object() {
        return Err(vm.throw_error("Error", "__clone method called on non-object"));
    }
    let src = v.obj();
    let c = (*src).class;
    if (*c).flags & CLASS_ENUM != 0 || crate::exec::generator::of(src).is_some() {
        return Err(vm.throw_error("Error", &format!("Trying to clone an uncloneable object of class {}", (*c).name_str())));
    }
    let slots = core::slice::from_raw_parts(ZObject::slots_ptr(src), (*src).num_slots as usize);
    // A property that is a reference nothing else holds (left by a
    // `foreach ($o as &$v)`) is copied as its value (Zend's `zval_add_ref`).
    let vals: Vec<Zval> = slots
        .iter()
        .map(|v| if v.is_reference() && (*v.zref()).header.refcount == 1 { v.copy_deref() } else { v.copy_value() })
        .collect();
    let o = ZObject::alloc(c, &vals);
    for v in vals {
        v.ptr_dtor();
    }
    vm.objects.add(o);
    if !(*src).dynamic.is_null() {
        (*o).dynamic = ZArray::dup((*src).dynamic);
    }
    let r = Zval::object(o);
    if let Some(m) = (*c).find_method(b"__clone") {
        if !accessible(m.flags, m.scope, scope_of(vm)) {
            r.ptr_dtor();
            let msg = format!("Call to {} {}::__clone() from {}", visibility_name(m.flags), (*c).name_str(), scope_text(scope_of(vm)));
            return Err(vm.throw_error("Error", &msg));
        }
        match call_method(vm, o, m, &[]) {
            Ok(x) => x.ptr_dtor(),
            Err(t) => {
                r.ptr_dtor();
                return Err(t);
            }
        }
    }
    Ok(r)
}

/// FETCH_CLASS_NAME: `self::class` / `static::class` / `$obj::class`.
#[cold]
#[inline(never)]
pub unsafe fn fetch_class_name(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    if (*ip).op1_type != IS_UNUSED {
        let v = (*operand::any_read_1(ip, fp, vm)).deref();
        if !v.is_object() {
            let t = crate::stdlib::type_name(v);
            return Err(vm.throw_error("TypeError", &format!("Cannot use \"::class\" on value of type {t}")));
        }
        return Ok(Zval::string(ZString::new(&(*(*v.obj()).class).name)));
    }
    let c = special_class(vm, (*ip).op1)?;
    Ok(Zval::string(ZString::new(&(*c).name)))
}

/// FETCH_THIS: result := `$this` (Error outside an object context).
#[cold]
#[inline(never)]
pub unsafe fn fetch_this(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let t = (*(fp as *mut Frame)).this_obj();
    if t.is_null() {
        return Err(vm.throw_error("Error", "Using $this when not in object context"));
    }
    (*t).header.refcount += 1;
    Ok(Zval::object(t))
}

/// An object compared with a string (`zend_std_compare_objects`): its
/// `__toString()` run in the thread's current context, or `None` when it
/// has none (the comparison is then uncomparable; a throw stays pending).
pub fn string_for_compare(o: *mut ZObject) -> Option<*mut ZString> {
    let vm = crate::exec::vm::current();
    // SAFETY: object-kind values hold live objects; the current context,
    // when set, is the running one.
    unsafe {
        if vm.is_null() || (*(*o).class).magic.tostring.is_none() {
            return None;
        }
        object_to_string(&mut *vm, o).ok()
    }
}

/// An object as a string: `__toString()`, or Error.
pub unsafe fn object_to_string(vm: &mut Vm, o: *mut ZObject) -> Result<*mut ZString, Thrown> {
    let c = (*o).class;
    if let Some(m) = (*c).magic.tostring {
        (*o).header.refcount += 1;
        let r = call_method(vm, o, m, &[]);
        Zval::object(o).ptr_dtor();
        let v = r?;
        if v.is_string() {
            return Ok(v.str());
        }
        v.ptr_dtor();
        return Err(vm.throw_error("Error", &format!("{}::__toString(): Return value must be of type string, {} returned", (*c).name_str(), crate::stdlib::type_name(&v))));
    }
    Err(vm.throw_error("Error", &format!("Object of class {} could not be converted to string", (*c).name_str())))
}


// ------------------------------------------------------------ fast paths
//
// Inline helpers of the hot handlers (`handlers.def`); anything they do
// not cover is left, unchanged, to the general paths above.

/// ASSIGN_OBJ's cache entry for a writable declared slot: the slot index
/// in the low half, the kinds the fast path may store there (bit
/// `1 << kind`, the property's type mask; all bits when untyped) in the
/// high half.
#[inline]
unsafe fn write_cache_entry(slot: u32, pi: *const PropInfo) -> usize {
    let mask = match &(*pi).ty {
        Some((m, _)) => m.0 & !(1u32 << crate::value::IS_UNDEF),
        None => u32::MAX,
    };
    (slot as usize) | ((mask as usize) << 32)
}

/// ASSIGN_OBJ's fast path: the slot `op1->op2 = v` writes when the cache
/// knows the object's class and a value of kind `kind` (not a reference)
/// needs no type check or coercion there. Null otherwise, and for an
/// unset untyped slot (`__set` may apply).
#[inline(always)]
pub unsafe fn cached_prop_w(fp: *mut Zval, ip: *const Op, ov: *const Zval, kind: u8) -> *mut Zval {
    if (*ov).kind() != IS_OBJECT {
        return core::ptr::null_mut();
    }
    let o = (*ov).obj();
    let p = cache_pair(fp, (*ip).extended_value);
    if *p != (*o).class as usize {
        return core::ptr::null_mut();
    }
    let e = *p.add(1);
    let mask = (e >> 32) as u32;
    if mask & (1u32 << (kind & 31)) == 0 {
        return core::ptr::null_mut();
    }
    let v = ZObject::slot(o, e as u32);
    if mask == u32::MAX && (*v).is_undef() {
        return core::ptr::null_mut();
    }
    v
}

/// Remembers NEW's class (a constant name) and its constructor frame's
/// size in the opline's cache pair (op2) once an instantiation succeeded, when `new_cached` can repeat it
/// alone: no native state to create (`create`), and a constructor that is a
/// user function visible here (the opline's scope does not change), or
/// none.
unsafe fn fill_new_cache(fp: *mut Zval, ip: *const Op, c: *const Class) {
    if (*ip).op1_type != IS_CONST || (*c).create.is_some() || !*(*c).defaults_ready.get() {
        return;
    }
    let mut need = 0;
    if let Some(m) = (*c).magic.construct {
        let func = (*m.entry).func;
        if !(*func).is_user() {
            return;
        }
        let op = &(*func).op;
        need = op.frame_size() + ((*ip).extended_value.saturating_sub(op.num_args) as usize) * 16;
    }
    fill_cache(fp, (*ip).op2, c, need);
}

/// NEW's fast path for a cached class: the object (defaults copied, a
/// handle) in the result and, when the class has a constructor, its frame
/// pushed with `$this` (as `push_cached_method`). 1: continue with the
/// arguments; 2: no constructor and no arguments, skip the DO_FCALL; 0:
/// not handled (cache empty, constructor frame does not fit the stack
/// page, arguments for a class without constructor), nothing changed.
#[inline(never)]
pub unsafe fn new_cached(vm: *mut Vm, fp: *mut Zval, ip: *const Op) -> u32 {
    let p = cache_pair(fp, (*ip).op2);
    let c = *p as *const Class;
    if c.is_null() {
        return 0;
    }
    // The constructor frame's size (with this opline's extra arguments),
    // computed when the cache was filled; 0 without a constructor.
    let need = *p.add(1);
    let nargs = (*ip).extended_value;
    let ctor = (*c).magic.construct;
    if ctor.is_some() != (need != 0) || (need == 0 && nargs != 0) {
        return 0;
    }
    let stack = &(*vm).stack;
    if (stack.end as usize) - (stack.top as usize) < need {
        return 0;
    }
    // SAFETY: `c` is a bound class of this request (the cache is per
    // context and cleared with the classes); its defaults are computed
    // (checked when the cache was filled) and valid values.
    let o = ZObject::alloc(c, &*(*c).defaults.get());
    (*vm).objects.add(o);
    *operand::result(ip, fp) = Zval::object(o);
    let Some(m) = ctor else { return 2 };
    let entry = m.entry;
    let stack = &mut (*vm).stack;
    let f = fp as *mut Frame;
    let call = stack.top as *mut Frame;
    stack.top = stack.top.add(need);
    (*call).opline = core::ptr::null();
    (*call).call = core::ptr::null_mut();
    (*call).func = (*entry).func;
    (*call).entry = entry;
    (*o).header.refcount += 1;
    (*call).this = Zval::object(o);
    (*call).this.u2 = nargs;
    (*call).prev = (*f).call;
    (*call).rt_cache = (*entry).rt_cache.as_mut_ptr();
    (*call).scope = c;
    for i in 0..nargs {
        (*Frame::slot(call, i)).type_info = crate::value::IS_UNDEF as u32;
    }
    (*f).call = call;
    1
}
