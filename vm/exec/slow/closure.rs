//! Closures and callables: DECLARE_LAMBDA_FUNCTION makes a `Closure`
//! object owning its own entry (runtime cache and static slots: the `use`
//! variables first, then `static` ones, as Zend's closure copies its static
//! variables table), BIND_LEXICAL fills a use slot, and every kind of
//! callable value (closure, invokable object, `[obj, 'm']`, `['C', 'm']`,
//! `'C::m'`, function name) resolves to an entry with `$this` and scope.

use crate::exec::frame::Frame;
use crate::exec::{operand, Thrown, Vm};
use crate::ops::Op;
use crate::runtime::class::{Class, ACC_STATIC};
use crate::runtime::classes::find_class;
use crate::runtime::function::{FuncEntry, Function};
use crate::value::object::ZObject;
use crate::value::{ZRef, Zval};

/// BIND_STATIC / BIND_LEXICAL `extended_value`: the static slot index in
/// the low bits, and flags.
pub const BIND_INDEX: u32 = 0x0fff_ffff;
/// Bind by reference (`static $x`, `use (&$x)`).
pub const BIND_REF: u32 = 1 << 31;
/// An arrow function's implicit capture: an undefined variable is skipped.
pub const BIND_IMPLICIT: u32 = 1 << 30;

/// A closure object's native state.
pub struct ClosureData {
    pub entry: Box<FuncEntry>,
    /// Bound `$this` (one reference owned here), or null.
    pub this: *mut ZObject,
    /// The called scope (`static::`).
    pub called: *const Class,
    /// A static closure (`static function`, or made from a static method):
    /// it never gets a `$this`.
    pub is_static: bool,
}

impl Drop for ClosureData {
    fn drop(&mut self) {
        if !self.this.is_null() {
            // SAFETY: the closure owns one reference to its bound object.
            unsafe { Zval::object(self.this).ptr_dtor() };
        }
    }
}

/// The closure state of `o`, if it is a closure.
pub unsafe fn data<'a>(o: *mut ZObject) -> Option<&'a mut ClosureData> {
    (*o).internal.as_mut().and_then(|b| b.downcast_mut::<ClosureData>())
}

/// Zend's `zend_closure_compare` for two objects of one class: `None` when
/// they are no closures; else 0 for two closures made from the same
/// function, bound alike (`strlen(...) == strlen(...)`), and uncomparable
/// (1) otherwise — a closure literal is equal only to itself.
///
/// # Safety
/// `x` and `y` are live objects.
pub unsafe fn compare(x: *mut ZObject, y: *mut ZObject) -> Option<i32> {
    let (a, b) = (data(x)?, data(y)?);
    let fake = |d: &ClosureData| (*d.entry.func).op.name.as_slice() != b"{closure}";
    let same = fake(a)
        && fake(b)
        && core::ptr::eq(a.entry.func, b.entry.func)
        && core::ptr::eq(a.entry.scope, b.entry.scope)
        && a.this == b.this
        && core::ptr::eq(a.called, b.called);
    Some(if same { 0 } else { 1 })
}

/// A new closure of `func` in `scope`, bound to `this` (borrowed; null for
/// none). Static slots start as the op array's initial values (references,
/// for `static` variables); `use` slots are filled by BIND_LEXICAL.
pub unsafe fn make(vm: &mut Vm, func: *const Function, scope: *const Class, this: *mut ZObject, called: *const Class, is_static: bool) -> Result<*mut ZObject, Thrown> {
    let Some(c) = find_class(vm, b"closure") else {
        return Err(vm.throw_error("Error", "Class \"Closure\" not found"));
    };
    let o = ZObject::alloc(c, &[]);
    vm.objects.add(o);
    let mut e = FuncEntry::new(func);
    e.scope = scope;
    e.closure = o;
    e.statics = (*func).op.static_vars.iter().map(|(_, v)| Zval::reference(ZRef::new(v.copy_value()))).collect();
    e.statics_init = true;
    if !this.is_null() {
        (*this).header.refcount += 1;
    }
    (*o).internal = Some(Box::new(ClosureData { entry: e, this, called, is_static }));
    Ok(o)
}

/// DECLARE_LAMBDA_FUNCTION: result := a closure of nested function op1,
/// in the running function's scope, bound to its `$this` (unless static).
#[cold]
#[inline(never)]
pub unsafe fn declare_lambda(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let op = &(*(*f).func).op;
    let Some(func) = op.declared.get((*ip).op1 as usize) else { return Ok(Zval::NULL) };
    let func: *const Function = &**func;
    let scope = if (*f).entry.is_null() { core::ptr::null() } else { (*(*f).entry).scope };
    let is_static = (*ip).extended_value & 1 != 0;
    let this = if is_static { core::ptr::null_mut() } else { (*f).this_obj() };
    let called = if !this.is_null() {
        (*this).class
    } else if !scope.is_null() && !(*f).scope.is_null() {
        (*f).scope
    } else {
        scope
    };
    let o = make(vm, func, scope, this, called, is_static)?;
    Ok(Zval::object(o))
}

/// BIND_LEXICAL: `use ($op2)` of closure op1 (a TMP).
#[cold]
#[inline(never)]
pub unsafe fn bind_lexical(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let cl = *operand::slot_1(ip, fp);
    let Some(d) = data(cl.obj()) else { return Ok(()) };
    let ext = (*ip).extended_value;
    let idx = (ext & BIND_INDEX) as usize;
    let Some(slot) = d.entry.statics.get_mut(idx) else { return Ok(()) };
    let var = operand::slot_2(ip, fp);
    let v = if ext & BIND_REF != 0 {
        crate::value::refs::make_ref(var);
        (*var).copy_value()
    } else if (*var).is_undef() {
        if ext & BIND_IMPLICIT != 0 {
            Zval::UNDEF
        } else {
            operand::cv_read_2(ip, fp, vm);
            Zval::NULL
        }
    } else {
        (*var).copy_deref()
    };
    let old = *slot;
    *slot = v;
    old.ptr_dtor();
    Ok(())
}

/// A callable value resolved: the function's entry, `$this` and called
/// scope (borrowed from the value, which the caller keeps alive), and the
/// closure object when it is one.
#[derive(Clone, Copy)]
pub struct Resolved {
    pub entry: *mut FuncEntry,
    pub this: *mut ZObject,
    pub called: *const Class,
    pub closure: *mut ZObject,
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Resolves a callable value, or gives PHP's reason why it is not one
/// (the text after "must be a valid callback, ").
pub unsafe fn resolve(vm: &mut Vm, v: &Zval) -> Result<Resolved, String> {
    let v = v.deref();
    let plain = |entry| Resolved { entry, this: core::ptr::null_mut(), called: core::ptr::null(), closure: core::ptr::null_mut() };
    if v.is_string() {
        let name = (*v.str()).bytes().to_vec();
        if let Some(p) = name.windows(2).position(|w| w == b"::") {
            let (cn, mn) = (&name[..p], &name[p + 2..]);
            let Some(c) = find_class(vm, cn) else { return Err(format!("class \"{}\" not found", s(cn))) };
            return static_method(vm, c, mn);
        }
        return match vm.find_function(&name) {
            Some(e) => Ok(plain(e)),
            None => Err(format!("function \"{}\" not found or invalid function name", s(&name))),
        };
    }
    if v.is_object() {
        let o = v.obj();
        if let Some(d) = data(o) {
            return Ok(Resolved { entry: &mut *d.entry, this: d.this, called: d.called, closure: o });
        }
        if let Some(m) = (*(*o).class).magic.invoke {
            return Ok(Resolved { entry: m.entry, this: o, called: (*o).class, closure: core::ptr::null_mut() });
        }
        return Err("no array or string given".into());
    }
    if v.is_array() {
        let a = v.arr();
        if (*a).len() != 2 {
            return Err("array callback must have exactly two members".into());
        }
        let (Some(first), Some(second)) = ((*a).find_int(0), (*a).find_int(1)) else {
            return Err("array callback must have exactly two members".into());
        };
        let (first, second) = ((*first).deref(), (*second).deref());
        if !second.is_string() {
            return Err("second array member is not a valid method".into());
        }
        let mn = (*second.str()).bytes().to_vec();
        if first.is_object() {
            let o = first.obj();
            let c = (*o).class;
            let lc = mn.to_ascii_lowercase();
            let lc = lc.strip_prefix(b"parent::").map(|x| x.to_vec()).unwrap_or(lc);
            if let Some(m) = (*c).find_method(&lc) {
                check_callable_access(vm, c, m)?;
            }
            return match (*c).find_method(&lc) {
                Some(m) if m.flags & ACC_STATIC != 0 => Ok(Resolved { entry: m.entry, this: core::ptr::null_mut(), called: c, closure: core::ptr::null_mut() }),
                Some(m) => Ok(Resolved { entry: m.entry, this: o, called: c, closure: core::ptr::null_mut() }),
                None => Err(format!("class {} does not have a method \"{}\"", (*c).name_str(), s(&mn))),
            };
        }
        if first.is_string() {
            let cn = (*first.str()).bytes().to_vec();
            let Some(c) = find_class(vm, &cn) else { return Err(format!("class \"{}\" not found", s(&cn))) };
            return static_method(vm, c, &mn);
        }
        return Err("first array member is not a valid class name or object".into());
    }
    Err("no array or string given".into())
}

/// The class scope a callable is resolved from: the user code running, or
/// the one that called the running builtin.
unsafe fn calling_scope(vm: &Vm) -> *const Class {
    let f = vm.cur;
    if f.is_null() || (*f).func.is_null() {
        return core::ptr::null();
    }
    if (*(*f).func).is_user() {
        super::object::scope_of(vm)
    } else {
        super::object::scope_of_caller(vm)
    }
}

/// A method named by a callable must be visible from the calling scope
/// (unless `__call`/`__callStatic` would take the call).
unsafe fn check_callable_access(vm: &Vm, c: *const Class, m: crate::runtime::class::Method) -> Result<(), String> {
    if (*c).magic.call.is_some() || (*c).magic.call_static.is_some() || super::object::can_see(m.flags, m.scope, calling_scope(vm)) {
        return Ok(());
    }
    let vis = crate::runtime::class::visibility_name(m.flags);
    Err(format!("cannot access {vis} method {}::{}()", (*m.scope).name_str(), s(&m.func().op.name)))
}

unsafe fn static_method(vm: &mut Vm, c: *const Class, mn: &[u8]) -> Result<Resolved, String> {
    let lc = mn.to_ascii_lowercase();
    let Some(m) = (*c).find_method(&lc) else {
        return Err(format!("class {} does not have a method \"{}\"", (*c).name_str(), s(mn)));
    };
    check_callable_access(vm, c, m)?;
    // A non-static method called statically from a method of a subclass
    // keeps `$this` (PHP allows `[self::class, 'm']` from inside).
    let f = vm.cur;
    let mut this = core::ptr::null_mut();
    if m.flags & ACC_STATIC == 0 {
        let caller = if f.is_null() { f } else { (*f).prev };
        let t = if caller.is_null() { core::ptr::null_mut() } else { (*caller).this_obj() };
        if !t.is_null() && (*(*t).class).is_subclass_of(c) {
            this = t;
        } else {
            return Err(format!("non-static method {}::{}() cannot be called statically", (*m.scope).name_str(), s(&m.func().op.name)));
        }
    }
    Ok(Resolved { entry: m.entry, this, called: c, closure: core::ptr::null_mut() })
}

/// Pushes a call of a resolved callable (INIT_DYNAMIC_CALL, INIT_USER_CALL).
pub unsafe fn push_resolved(vm: &mut Vm, fp: *mut Zval, ip: *const Op, r: Resolved, nargs: u32) -> Result<(), Thrown> {
    super::call::push_call(vm, fp, ip, r.entry, nargs)?;
    let call = (*(fp as *mut Frame)).call;
    if !r.this.is_null() {
        (*r.this).header.refcount += 1;
        (*call).this.value.ptr = r.this as *mut u8;
        (*call).this.type_info = crate::value::TI_OBJECT;
    }
    (*call).scope = r.called;
    if !r.closure.is_null() && (*(*call).func).is_user() {
        (*r.closure).header.refcount += 1;
        (*call).this.type_info |= super::call::CALL_CLOSURE;
    }
    Ok(())
}

/// Calls a resolved callable from Rust with `args` (as given).
pub unsafe fn call_resolved(vm: &mut Vm, r: Resolved, args: &[Zval]) -> Result<Zval, Thrown> {
    // The closure must outlive the call even if the callee drops the last
    // other reference to it.
    if !r.closure.is_null() {
        (*r.closure).header.refcount += 1;
    }
    let mut ret = Zval::NULL;
    let res = vm.call_function(r.entry, r.this, r.called, args, &mut ret);
    if !r.closure.is_null() {
        Zval::object(r.closure).ptr_dtor();
    }
    match res {
        Ok(()) => Ok(ret),
        Err(t) => {
            ret.ptr_dtor();
            Err(t)
        }
    }
}

// ------------------------------------------------------------ Closure methods

fn this_closure(vm: &Vm) -> *mut ZObject {
    // SAFETY: a builtin method runs in its own frame.
    unsafe { (*vm.cur).this_obj() }
}

/// `Closure::__invoke(...$args)`.
pub fn closure_invoke(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let o = this_closure(vm);
    // SAFETY: `o` is the live closure the method runs on.
    unsafe {
        let Some(d) = data(o) else { return Ok(()) };
        let res = Resolved { entry: &mut *d.entry, this: d.this, called: d.called, closure: o };
        *r = call_resolved(vm, res, a)?;
    }
    Ok(())
}

/// Whether the function of `entry` is a static method (a closure made
/// from it is static).
unsafe fn is_static_method(entry: *const FuncEntry) -> bool {
    let scope = (*entry).scope;
    !scope.is_null() && (*scope).find_method(&(*(*entry).func).op.name.to_ascii_lowercase()).is_some_and(|m| m.flags & ACC_STATIC != 0)
}

/// Whether `op` uses `$this` (Zend's `ZEND_ACC_USES_THIS`): it fetches it,
/// tests it, or accesses a member of it (an UNUSED object operand).
fn uses_this(op: &crate::ops::OpArray) -> bool {
    use crate::ops::{Opcode as O, IS_UNUSED};
    op.ops.iter().any(|o| match o.opcode() {
        O::FetchThis | O::IssetIsemptyThis => true,
        O::FetchObjR | O::FetchObjIs | O::FetchObjW | O::FetchObjRw | O::AssignObj | O::AssignObjOp | O::AssignObjRef
        | O::PreIncObj | O::PreDecObj | O::PostIncObj | O::PostDecObj | O::IssetIsemptyPropObj | O::UnsetObj
        | O::InitMethodCall | O::Clone => o.op1_type == IS_UNUSED,
        _ => false,
    })
}

/// Zend's `zend_valid_closure_binding`: whether closure `d` may be bound
/// to `this` in `scope`; if not, PHP's warning is raised.
unsafe fn valid_binding(vm: &mut Vm, d: &ClosureData, this: *mut ZObject, scope: *const Class) -> bool {
    let func = &*d.entry.func;
    let fake = func.op.name.as_slice() != b"{closure}";
    let fscope = d.entry.scope;
    if !this.is_null() {
        if d.is_static {
            vm.warning("Cannot bind an instance to a static closure");
            return false;
        }
        if fake && !fscope.is_null() && !(*(*this).class).is_subclass_of(fscope) {
            vm.warning(&format!("Cannot bind method {}::{}() to object of class {}", (*fscope).name_str(), s(&func.op.name), (*(*this).class).name_str()));
            return false;
        }
    } else if fake && !fscope.is_null() && !d.is_static {
        vm.warning("Cannot unbind $this of method");
        return false;
    } else if !fake && !d.this.is_null() && uses_this(&func.op) {
        vm.warning("Cannot unbind $this of closure using $this");
        return false;
    }
    if !scope.is_null() && !core::ptr::eq(scope, fscope) && (*scope).is_internal() {
        vm.warning(&format!("Cannot bind closure to scope of internal class {}", (*scope).name_str()));
        return false;
    }
    if fake && !core::ptr::eq(scope, fscope) {
        vm.warning(if fscope.is_null() { "Cannot rebind scope of closure created from function" } else { "Cannot rebind scope of closure created from method" });
        return false;
    }
    true
}

/// A copy of closure `o` bound to `this` (borrowed) in `scope`, or `None`
/// (after PHP's warning) when that binding is not allowed.
unsafe fn rebind(vm: &mut Vm, o: *mut ZObject, this: *mut ZObject, scope: *const Class) -> Result<Option<*mut ZObject>, Thrown> {
    let Some(d) = data(o) else { return Err(vm.throw_error("Error", "Closure object expected")) };
    if !valid_binding(vm, d, this, scope) {
        return Ok(None);
    }
    let func = d.entry.func;
    let called = if !this.is_null() { (*this).class } else { scope };
    let is_static = d.is_static;
    // An object bound without a class scope gets Closure as a dummy scope
    // (`zend_create_closure_ex`).
    let scope = if scope.is_null() && !this.is_null() { find_class(vm, b"closure").unwrap_or(scope) } else { scope };
    let n = make(vm, func, scope, this, called, is_static)?;
    let src: Vec<Zval> = d.entry.statics.iter().map(|v| v.copy_value()).collect();
    if let Some(nd) = data(n) {
        for v in nd.entry.statics.drain(..) {
            v.ptr_dtor();
        }
        nd.entry.statics = src;
    }
    Ok(Some(n))
}

/// The scope argument of bind/bindTo: an object's class, a class name, or
/// "static" (keep the current one).
unsafe fn scope_arg(vm: &mut Vm, o: *mut ZObject, v: Option<&Zval>) -> Result<*const Class, Thrown> {
    let cur = data(o).map_or(core::ptr::null(), |d| d.entry.scope);
    let Some(v) = v.map(|v| v.deref()) else { return Ok(cur) };
    if v.is_object() {
        return Ok((*v.obj()).class);
    }
    if v.is_string() {
        let n = (*v.str()).bytes().to_vec();
        if n == b"static" {
            return Ok(cur);
        }
        return match find_class(vm, &n) {
            Some(c) => Ok(c),
            None => {
                vm.warning(&format!("Class \"{}\" not found", s(&n)));
                Ok(core::ptr::null())
            }
        };
    }
    Ok(cur)
}

/// `Closure::bindTo(?object $newThis, object|string|null $newScope = "static")`.
pub fn closure_bind_to(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let o = this_closure(vm);
    // SAFETY: live closure and arguments.
    unsafe {
        let this = a.first().map(|v| v.deref()).filter(|v| v.is_object()).map_or(core::ptr::null_mut(), |v| v.obj());
        let scope = scope_arg(vm, o, a.get(1))?;
        *r = rebind(vm, o, this, scope)?.map_or(Zval::NULL, Zval::object);
    }
    Ok(())
}

/// `Closure::bind(Closure $closure, ?object $newThis, $newScope = "static")`.
pub fn closure_bind(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let Some(c) = a.first().map(|v| v.deref()).filter(|v| v.is_object()) else {
        return Err(vm.throw_error("TypeError", "Closure::bind(): Argument #1 ($closure) must be of type Closure"));
    };
    // SAFETY: live closure and arguments.
    unsafe {
        let o = c.obj();
        let this = a.get(1).map(|v| v.deref()).filter(|v| v.is_object()).map_or(core::ptr::null_mut(), |v| v.obj());
        let scope = scope_arg(vm, o, a.get(2))?;
        *r = rebind(vm, o, this, scope)?.map_or(Zval::NULL, Zval::object);
    }
    Ok(())
}

/// `Closure::call(object $newThis, ...$args)`.
pub fn closure_call(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let o = this_closure(vm);
    let Some(t) = a.first().map(|v| v.deref()).filter(|v| v.is_object()) else {
        return Err(vm.throw_error("TypeError", "Closure::call(): Argument #1 ($newThis) must be of type object"));
    };
    // SAFETY: live closure and arguments.
    unsafe {
        let this = t.obj();
        let Some(n) = rebind(vm, o, this, (*this).class)? else { return Ok(()) };
        let res = match data(n) {
            Some(d) => call_resolved(vm, Resolved { entry: &mut *d.entry, this, called: (*this).class, closure: n }, &a[1..]),
            None => Ok(Zval::NULL),
        };
        Zval::object(n).ptr_dtor();
        *r = res?;
    }
    Ok(())
}

/// `Closure::fromCallable(callable $callback)`.
pub fn closure_from_callable(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let v = a.first().copied().unwrap_or(Zval::NULL);
    // SAFETY: live argument.
    unsafe {
        if v.deref().is_object() && data(v.deref().obj()).is_some() {
            *r = v.copy_deref();
            return Ok(());
        }
        match resolve(vm, &v) {
            Ok(res) => {
                let scope = (*res.entry).scope;
                let o = make(vm, (*res.entry).func, scope, res.this, res.called, is_static_method(res.entry))?;
                *r = Zval::object(o);
                Ok(())
            }
            Err(why) => Err(vm.throw_error("TypeError", &format!("Failed to create closure from callable: {why}"))),
        }
    }
}

/// `var_dump`'s view of a closure (`zend_closure_get_debug_info`): its
/// static and captured variables, bound `$this`, and parameters.
///
/// # Safety
/// `o` is a live object.
pub unsafe fn debug_info(o: *mut ZObject) -> Option<Vec<(&'static str, Zval)>> {
    use crate::value::{ZArray, ZString};
    let d = data(o)?;
    let mut out = Vec::new();
    let op = &(*d.entry.func).op;
    if !op.static_vars.is_empty() {
        let a = ZArray::new();
        for ((name, _), v) in op.static_vars.iter().zip(d.entry.statics.iter()) {
            if v.is_undef() {
                continue;
            }
            let v = if v.is_reference() && (*v.zref()).header.refcount == 1 { v.deref() } else { v };
            let k = ZString::new(name);
            (*a).update(&crate::value::Key::normalize(k), v.copy_value());
            Zval::string(k).ptr_dtor();
        }
        out.push(("static", Zval::array(a)));
    }
    if !d.this.is_null() {
        (*d.this).header.refcount += 1;
        out.push(("this", Zval::object(d.this)));
    }
    if !op.arg_info.is_empty() {
        let a = ZArray::new();
        for (i, p) in op.arg_info.iter().enumerate() {
            let mut k = Vec::new();
            if p.by_ref {
                k.push(b'&');
            }
            k.push(b'$');
            k.extend_from_slice(&p.name);
            let required = (i as u32) < op.required_args && !p.variadic;
            let v: &[u8] = if required { b"<required>" } else { b"<optional>" };
            let ks = ZString::new(&k);
            (*a).update(&crate::value::Key::normalize(ks), Zval::string(ZString::new(v)));
            Zval::string(ks).ptr_dtor();
        }
        out.push(("parameter", Zval::array(a)));
    }
    Some(out)
}

/// CALLABLE_CONVERT: the call just prepared (without arguments) becomes a
/// Closure of its function, `$this` and scope (`f(...)`).
#[cold]
#[inline(never)]
pub unsafe fn callable_convert(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let call = (*f).call;
    if call.is_null() {
        return Ok(Zval::NULL);
    }
    (*f).call = (*call).prev;
    let entry = (*call).entry;
    let this = (*call).this_obj();
    let func = (*entry).func;
    let r = if !(*entry).closure.is_null() {
        // Already a closure (`$closure(...)`): the same object.
        let c = (*entry).closure;
        (*c).header.refcount += 1;
        Ok(Zval::object(c))
    } else {
        let called = if (*(*entry).func).is_user() || !(*entry).scope.is_null() { (*call).scope } else { core::ptr::null() };
        make(vm, func, (*entry).scope, this, called, is_static_method(entry)).map(Zval::object)
    };
    super::call::release_this(call);
    super::call::release_closure(call);
    vm.stack.free(call as *mut Zval);
    r
}
