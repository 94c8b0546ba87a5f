//! Calls: pushing frames, entering user functions, builtins, returning,
//! argument checks, static variables. PHP-to-PHP calls never recurse on the
//! Rust stack: entering a function returns the callee's (ip, fp) to the
//! handler, which keeps threading there.

use crate::exec::frame::Frame;
use crate::exec::{operand, Thrown, Vm};
use crate::ops::{ArgInfo, Op, TypeMask, IS_CV, IS_UNUSED, IS_VAR};
use crate::runtime::function::FuncEntry;
use crate::value::{convert, ZArray, ZRef, ZString, Zval, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE};

/// Frame flag (in `this.type_info`): returning from this frame leaves the
/// dispatch loop (a run started by the host or a builtin).
// Call-info flags in a frame's `this.type_info`, above the kind byte:
// CALL_TOP 16, CALL_CLOSURE 17 (here), CALL_GENERATOR 18 (`generator`),
// CALL_HAS_EXTRA_NAMED 19 (`named`), CALL_SYMTAB 20 (here),
// CALL_MAY_HAVE_UNDEF 21 (`named`), CALL_SEND_ARG_BY_REF 22 (here).
// Each bit has one meaning.
pub const CALL_TOP: u32 = 1 << 16;
/// Frame flag: the function is a closure's; the frame holds a reference to
/// the closure object (whose entry it runs), released when it ends.
pub const CALL_CLOSURE: u32 = 1 << 17;
/// The frame has dynamic variables in `Vm::symtabs` (see `exec::symtab`).
pub const CALL_SYMTAB: u32 = 1 << 20;
/// On a call being prepared: the argument CHECK_FUNC_ARG looked at is by
/// reference (Zend's ZEND_CALL_SEND_ARG_BY_REF).
pub const CALL_SEND_ARG_BY_REF: u32 = 1 << 22;

/// CHECK_FUNC_ARG: records on the prepared call whether argument `n` is by reference.
#[inline(always)]
pub unsafe fn check_func_arg(fp: *mut Zval, n: u32) {
    let call = (*(fp as *mut Frame)).call;
    if arg_by_ref(call, n) {
        (*call).this.type_info |= CALL_SEND_ARG_BY_REF;
    } else {
        (*call).this.type_info &= !CALL_SEND_ARG_BY_REF;
    }
}

/// Whether the argument being sent (CHECK_FUNC_ARG) is by reference.
#[inline(always)]
pub unsafe fn func_arg_by_ref(fp: *mut Zval) -> bool {
    (*(*(fp as *mut Frame)).call).this.type_info & CALL_SEND_ARG_BY_REF != 0
}

/// Forgets CHECK_FUNC_ARG's finding once the argument is sent.
#[inline(always)]
pub unsafe fn clear_func_arg(fp: *mut Zval) {
    (*(*(fp as *mut Frame)).call).this.type_info &= !CALL_SEND_ARG_BY_REF;
}

/// The function INIT_FCALL names, from the runtime cache (slot in `result`).
#[inline(always)]
pub unsafe fn cached_function(vm: *mut Vm, fp: *mut Zval, ip: *const Op) -> *mut FuncEntry {
    let f = fp as *mut Frame;
    let slot = (*f).rt_cache.add((*ip).result as usize);
    let cached = *slot as *mut FuncEntry;
    if !cached.is_null() {
        return cached;
    }
    resolve_function(vm, fp, ip)
}

#[cold]
#[inline(never)]
unsafe fn resolve_function(vm: *mut Vm, fp: *mut Zval, ip: *const Op) -> *mut FuncEntry {
    let name = (*(*operand::const_2(ip)).str()).bytes();
    let mut e = (*vm).find_function(name).unwrap_or(core::ptr::null_mut());
    if e.is_null() && (*ip).opcode == crate::ops::Opcode::InitNsFcallByName as u8 {
        // An unqualified call in a namespace: the global function.
        let short = name.rsplit(|&c| c == b'\\').next().unwrap_or(name);
        e = (*vm).find_function(short).unwrap_or(core::ptr::null_mut());
    }
    if !e.is_null() {
        *(*(fp as *mut Frame)).rt_cache.add((*ip).result as usize) = e as usize;
    }
    e
}

#[cold]
#[inline(never)]
pub unsafe fn undefined_function(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let name = &*operand::any_deref_2(ip, fp);
    let n = if name.is_string() { String::from_utf8_lossy((*name.str()).bytes()).into_owned() } else { String::new() };
    Err(vm.throw_error("Error", &format!("Call to undefined function {}()", n.trim_start_matches('\\'))))
}

/// A builtin's frame: the header, the arguments, then one cell the builtin
/// writes its result into. (A cell on the VM stack rather than a Rust local:
/// a local whose address the builtin got would keep `icall` from jumping to
/// the next handler.)
#[inline(always)]
fn builtin_frame_size(nargs: u32) -> usize {
    crate::ops::FRAME_HEADER as usize + (nargs as usize + 1) * 16
}

/// Pushes a frame for `entry` with room for `nargs` arguments and makes it
/// the innermost call being prepared.
#[inline(always)]
pub unsafe fn push_call(vm: &mut Vm, fp: *mut Zval, _ip: *const Op, entry: *mut FuncEntry, nargs: u32) -> Result<(), Thrown> {
    let func = (*entry).func;
    let op = &(*func).op;
    let need = if (*func).is_user() {
        let extra = nargs.saturating_sub(op.num_args) as usize;
        op.frame_size() + extra * 16
    } else {
        builtin_frame_size(nargs)
    };
    let call = match vm.stack.alloc(need, vm.memory_limit) {
        Ok(p) => p as *mut Frame,
        Err(e) => {
            vm.memory_exhausted(e.tried);
            return Err(Thrown);
        }
    };
    let f = fp as *mut Frame;
    (*call).func = func;
    (*call).entry = entry;
    (*call).call = core::ptr::null_mut();
    (*call).this = Zval::UNDEF;
    (*call).this.u2 = nargs;
    (*call).prev = (*f).call;
    (*call).rt_cache = (*entry).rt_cache.as_mut_ptr();
    (*call).scope = core::ptr::null();
    (*call).opline = core::ptr::null();
    // Arguments not yet sent must read as UNDEF if the call is abandoned.
    for i in 0..nargs {
        *Frame::slot(call, i) = Zval::UNDEF;
    }
    (*f).call = call;
    Ok(())
}

/// INIT_FCALL's fast path: pushes the frame of the function cached for this
/// opline when the current stack page has room. Null (and nothing changed)
/// otherwise: `init_fcall` then resolves the name and grows the stack.
#[inline(always)]
pub unsafe fn push_cached(vm: *mut Vm, fp: *mut Zval, ip: *const Op, nargs: u32) -> *mut Frame {
    let f = fp as *mut Frame;
    let entry = *(*f).rt_cache.add((*ip).result as usize) as *mut FuncEntry;
    if entry.is_null() {
        return core::ptr::null_mut();
    }
    let func = (*entry).func;
    let op = &(*func).op;
    let need = if (*func).is_user() {
        op.frame_size() + (nargs.saturating_sub(op.num_args) as usize) * 16
    } else {
        builtin_frame_size(nargs)
    };
    let stack = &mut (*vm).stack;
    if (stack.end as usize) - (stack.top as usize) < need {
        return core::ptr::null_mut();
    }
    let call = stack.top as *mut Frame;
    stack.top = stack.top.add(need);
    (*call).opline = core::ptr::null();
    (*call).call = core::ptr::null_mut();
    (*call).func = func;
    (*call).entry = entry;
    (*call).this = Zval::UNDEF;
    (*call).this.u2 = nargs;
    (*call).prev = (*f).call;
    (*call).rt_cache = (*entry).rt_cache.as_mut_ptr();
    (*call).scope = core::ptr::null();
    // Arguments not yet sent must read as UNDEF if the call is abandoned.
    set_undef(Frame::slot(call, 0), Frame::slot(call, nargs));
    (*f).call = call;
    call
}

/// Makes the slots `from..to` UNDEF. A plain loop, for the few slots a call
/// has: volatile stores keep LLVM from turning it into a memset call or an
/// unrolled vector loop, both slower (and a call needs a stack frame).
#[inline(always)]
unsafe fn set_undef(mut from: *mut Zval, to: *mut Zval) {
    while from < to {
        core::ptr::write_volatile(core::ptr::addr_of_mut!((*from).type_info), crate::value::IS_UNDEF as u32);
        from = from.add(1);
    }
}

/// INIT_FCALL when `push_cached` could not: resolves (and caches) the
/// function named by op2, then pushes its frame, growing the stack.
#[cold]
#[inline(never)]
pub unsafe fn init_fcall(vm: &mut Vm, fp: *mut Zval, ip: *const Op, nargs: u32) -> Result<(), Thrown> {
    let entry = cached_function(vm, fp, ip);
    if entry.is_null() {
        return undefined_function(vm, fp, ip);
    }
    push_call(vm, fp, ip, entry, nargs)
}

/// Pops the innermost prepared call off the caller's chain.
#[inline(always)]
unsafe fn take_call(fp: *mut Zval) -> *mut Frame {
    let f = fp as *mut Frame;
    let call = (*f).call;
    (*f).call = (*call).prev;
    call
}

/// Switches to the prepared user function: returns its first opline and frame.
#[inline(always)]
pub unsafe fn enter_user(vm: &mut Vm, fp: *mut Zval, ip: *const Op, ret: *mut Zval) -> Result<(*const Op, *mut Zval), Thrown> {
    let call = take_call(fp);
    (*call).prev = fp as *mut Frame;
    (*call).return_value = if (*ip).result_type == IS_UNUSED { core::ptr::null_mut() } else { ret };
    let op = &(*(*call).func).op;
    let nargs = (*call).num_args();
    let ncv = op.cv_names.len() as u32;
    if nargs > op.num_args {
        move_extra_args(call, nargs, op.num_args, ncv + op.num_tmps);
    }
    let first_undef = nargs.min(op.num_args);
    for i in first_undef..ncv {
        *Frame::slot(call, i) = Zval::UNDEF;
    }
    vm.cur = call;
    Ok((op.entry(), call as *mut Zval))
}

/// DO_UCALL's fast path (no extra arguments to move): switches to the
/// prepared user function. A null ip (and nothing changed) otherwise.
#[inline(always)]
pub unsafe fn enter_fast(vm: *mut Vm, fp: *mut Zval, ip: *const Op) -> (*const Op, *mut Zval) {
    let f = fp as *mut Frame;
    let call = (*f).call;
    let op = &(*(*call).func).op;
    let nargs = (*call).num_args();
    if nargs > op.num_args {
        return (core::ptr::null(), fp);
    }
    (*f).opline = ip;
    (*f).call = (*call).prev;
    (*call).prev = f;
    (*call).return_value = if (*ip).result_type == IS_UNUSED { core::ptr::null_mut() } else { operand::result(ip, fp) };
    let ncv = op.cv_names.len() as u32;
    set_undef(Frame::slot(call, nargs), Frame::slot(call, ncv));
    (*vm).cur = call;
    (op.entry(), call as *mut Zval)
}

#[cold]
unsafe fn move_extra_args(call: *mut Frame, nargs: u32, num_args: u32, first_free: u32) {
    let src = Frame::slot(call, num_args);
    let dst = Frame::slot(call, first_free);
    core::ptr::copy(src, dst, (nargs - num_args) as usize);
}

/// Where the extra arguments of a running user frame start.
pub unsafe fn extra_args(f: *mut Frame) -> (*mut Zval, u32) {
    let op = &(*(*f).func).op;
    let n = (*f).num_args().saturating_sub(op.num_args);
    (Frame::slot(f, op.num_slots()), n)
}

/// Returns `v` (owned) from the frame at `fp`: frees its CVs and extra
/// arguments, pops it, and gives the caller's resume point — or `None` when
/// this frame was entered from Rust.
#[inline(always)]
pub unsafe fn leave(vm: *mut Vm, fp: *mut Zval, v: Zval) -> Option<(*const Op, *mut Zval)> {
    let f = fp as *mut Frame;
    let rv = (*f).return_value;
    if rv.is_null() {
        v.ptr_dtor();
    } else {
        *rv = v;
    }
    let prev = (*f).prev;
    let top = (*f).this.type_info & CALL_TOP != 0;
    if top && prev.is_null() && (*(*f).func).op.name.is_empty() {
        super::object::shutdown_destructors(&mut *vm, f);
    }
    free_frame_values(vm, f);
    (*vm).stack.free(fp);
    (*vm).cur = prev;
    if top {
        return None;
    }
    Some(((*prev).opline.add(1), prev as *mut Zval))
}

/// RETURN's fast path: the frame holds nothing to free (CVs: at most one
/// refcounted value, which outlives the frame; `$this`, if any, shared with
/// someone else; no extra arguments), was
/// entered from PHP code, and `src` (op1's cell; `owned` for TMP/VAR) is
/// neither undefined nor a reference, nor a refcounted value nobody
/// receives. Then returns the value and pops the frame; a null ip (and
/// nothing changed) otherwise.
#[inline(always)]
pub unsafe fn leave_fast(vm: *mut Vm, fp: *mut Zval, src: *const Zval, owned: bool) -> (*const Op, *mut Zval) {
    let f = fp as *mut Frame;
    let op = &(*(*f).func).op;
    let kind = (*src).kind();
    let none = (core::ptr::null(), fp);
    if kind == crate::value::IS_UNDEF || kind == crate::value::IS_REFERENCE {
        return none;
    }
    // Frames with flags (CALL_TOP, closures, dynamic variables) take the slow path, and so
    // do methods whose `$this` the frame holds the last reference to (its
    // release may destroy it and run `__destruct`).
    let tag = (*f).this.type_info & (CALL_TOP | CALL_CLOSURE | CALL_SYMTAB | super::named::CALL_HAS_EXTRA_NAMED | 0xff);
    let this: *mut crate::value::GcHeader = (*f).this.value.counted;
    let has_this = tag == crate::value::IS_OBJECT as u32;
    if (tag != 0 && !has_this) || (*f).num_args() > op.num_args || (*vm).stack.starts_page(fp) {
        return none;
    }
    if has_this && (*this).refcount <= 1 {
        return none;
    }
    // At most one CV may hold a refcounted value, one that outlives the
    // frame (a `static` or `global` reference, an array shared with the
    // caller): releasing it is a decrement. (Two could share one box, whose
    // count would then drop by two.) The early exit also keeps LLVM from
    // vectorizing this short scan.
    let mut p = Frame::slot(f, 0);
    let end = Frame::slot(f, op.cv_names.len() as u32);
    let mut shared: *mut crate::value::GcHeader = core::ptr::null_mut();
    while p < end {
        if (*p).is_refcounted() {
            let h = (*p).value.counted;
            if !shared.is_null() || (*h).refcount <= 1 {
                return none;
            }
            shared = h;
        }
        p = p.add(1);
    }
    // A CV holding `$this` too: both releases would hit one count.
    if has_this && core::ptr::eq(shared, this) {
        return none;
    }
    let rv = (*f).return_value;
    if rv.is_null() {
        if owned && (*src).is_refcounted() {
            return none;
        }
    } else {
        if !owned {
            (*src).addref();
        }
        *rv = Zval::load(src);
    }
    if !shared.is_null() {
        (*shared).refcount -= 1;
    }
    if has_this {
        (*this).refcount -= 1;
    }
    let prev = (*f).prev;
    (*vm).stack.top = fp as *mut u8;
    (*vm).cur = prev;
    ((*prev).opline.add(1), prev as *mut Zval)
}

/// RETURN's slow path: takes op1 (warning for an undefined CV), releases
/// the frame's values and returns to the caller; `None` when the frame was
/// entered from Rust.
#[cold]
#[inline(never)]
pub unsafe fn return_slow(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Option<(*const Op, *mut Zval)>, Thrown> {
    let v = super::take(vm, fp, ip, 1);
    Ok(leave(vm, fp, v))
}

/// Releases a user frame's CVs, extra arguments, dynamic variables and `$this`.
#[inline(always)]
pub unsafe fn free_frame_values(vm: *mut Vm, f: *mut Frame) {
    release_this(f);
    let op = &(*(*f).func).op;
    let ncv = op.cv_names.len() as u32;
    for i in 0..ncv {
        (*Frame::slot(f, i)).ptr_dtor();
    }
    if (*f).num_args() > op.num_args {
        let (p, n) = extra_args(f);
        for i in 0..n as usize {
            (*p.add(i)).ptr_dtor();
        }
    }
    if (*f).this.type_info & CALL_SYMTAB != 0 {
        crate::exec::symtab::release(vm, f);
    }
    if (*f).this.type_info & super::named::CALL_HAS_EXTRA_NAMED != 0 {
        super::named::free_extra(f);
    }
    release_closure(f);
}

/// Releases the closure object a closure's frame holds (last: it owns the
/// frame's entry).
#[inline(always)]
pub unsafe fn release_closure(f: *mut Frame) {
    if (*f).this.type_info & CALL_CLOSURE != 0 {
        (*f).this.type_info &= !CALL_CLOSURE;
        let c = (*(*f).entry).closure;
        if !c.is_null() {
            Zval::object(c).ptr_dtor();
        }
    }
}

/// Releases a frame's `$this` (kept: the flag bits and argument count).
#[inline(always)]
pub unsafe fn release_this(f: *mut Frame) {
    if (*f).this.kind() == crate::value::IS_OBJECT {
        let o = (*f).this;
        (*f).this.type_info &= !0xffff;
        o.ptr_dtor();
    }
}

/// Calls the prepared builtin; its result goes to `ret`.
#[inline(always)]
pub unsafe fn call_builtin(vm: &mut Vm, fp: *mut Zval, ip: *const Op, ret: *mut Zval) -> Result<(), Thrown> {
    let call = take_call(fp);
    (*call).prev = fp as *mut Frame;
    let nargs = (*call).num_args() as usize;
    let args = core::slice::from_raw_parts(Frame::slot(call, 0) as *const Zval, nargs);
    let Some(f) = (*(*call).func).builtin else {
        return Err(vm.throw_error("Error", "not a builtin"));
    };
    vm.cur = call;
    let rp = Frame::slot(call, nargs as u32);
    *rp = Zval::NULL;
    let res = f(vm, args, &mut *rp);
    vm.cur = fp as *mut Frame;
    for a in args {
        a.ptr_dtor();
    }
    // One test for plain calls (no `$this`, no extra named arguments).
    if (*call).this.type_info & (0xff | super::named::CALL_HAS_EXTRA_NAMED) != 0 {
        release_builtin_call(call);
    }
    let r = Zval::load(rp);
    vm.stack.free(call as *mut Zval);
    match res {
        Ok(()) => {
            if (*ip).result_type == IS_UNUSED {
                r.ptr_dtor();
            } else {
                *ret = r;
            }
            Ok(())
        }
        Err(t) => {
            r.ptr_dtor();
            Err(t)
        }
    }
}

/// A builtin's frame ends: its `$this` and extra named arguments go.
#[cold]
#[inline(never)]
unsafe fn release_builtin_call(call: *mut Frame) {
    if (*call).this.type_info & super::named::CALL_HAS_EXTRA_NAMED != 0 {
        super::named::free_extra(call);
    }
    release_this(call);
}

/// DO_ICALL: calls the prepared builtin and continues with the next opline
/// (or the exception handler). Handler-shaped, so that the handler jumps
/// here and keeps no stack frame of its own.
#[inline(never)]
pub unsafe fn icall(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> crate::exec::Ret {
    (*(fp as *mut Frame)).opline = ip;
    let next = match call_builtin(&mut *vm, fp, ip, operand::result(ip, fp)) {
        Ok(()) => ip.add(1),
        Err(_) => crate::exec::dispatch::exception_op(vm),
    };
    crate::exec::dispatch::next(next, fp, vm)
}

/// A dynamic call `$f(...)`: op2 is the callable (a function name, a
/// closure or invokable object, `[obj, 'm']`, `['C', 'm']`, `'C::m'`).
#[cold]
#[inline(never)]
pub unsafe fn init_dynamic_call(vm: &mut Vm, fp: *mut Zval, ip: *const Op, nargs: u32) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let v = (*operand::any_read_2(ip, fp, vm)).deref();
    match super::closure::resolve(vm, v) {
        Ok(r) => super::closure::push_resolved(vm, fp, ip, r, nargs),
        Err(why) => {
            let msg = if v.is_string() {
                let name = String::from_utf8_lossy((*v.str()).bytes()).into_owned();
                match name.find("::") {
                    Some(p) if why.starts_with("class \"") => format!("Class \"{}\" not found", &name[..p]),
                    Some(p) if why.starts_with("class ") => format!("Call to undefined method {}::{}()", &name[..p], &name[p + 2..]),
                    Some(_) => why.replacen("non-static", "Non-static", 1),
                    None => format!("Call to undefined function {}()", name.trim_start_matches('\\')),
                }
            } else if v.is_object() {
                format!("Object of type {} is not callable", crate::value::object::ZObject::class(v.obj()).name_str())
            } else if v.is_array() {
                if why.starts_with("array callback must have") {
                    "Array callback must have exactly two elements".to_string()
                } else if let Some(rest) = why.strip_prefix("class ").filter(|_| !why.starts_with("class \"")) {
                    let (cls, m) = rest.split_once(" does not have a method ").unwrap_or((rest, ""));
                    format!("Call to undefined method {}::{}()", cls, m.trim_matches('"'))
                } else if let Some(rest) = why.strip_prefix("class ") {
                    format!("Class {} not found", rest.trim_end_matches(" not found"))
                } else {
                    why.replacen("non-static", "Non-static", 1)
                }
            } else {
                format!("Value of type {} is not callable", crate::stdlib::type_name(v))
            };
            Err(vm.throw_error("Error", &msg))
        }
    }
}

/// Whether argument `n` (1-based) of the call being prepared is by reference.
#[inline(always)]
pub unsafe fn arg_by_ref(call: *mut Frame, n: u32) -> bool {
    let op = &(*(*call).func).op;
    match op.arg_info.get(n as usize - 1) {
        Some(a) => a.by_ref,
        None => op.arg_info.last().is_some_and(|a| a.variadic && a.by_ref),
    }
}

#[cold]
#[inline(never)]
pub unsafe fn cannot_pass_by_ref(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let call = (*(fp as *mut Frame)).call;
    let n = (*ip).op2;
    let op = &(*(*call).func).op;
    let pname = op.arg_info.get(n as usize - 1).map(|a| String::from_utf8_lossy(&a.name).into_owned()).unwrap_or_default();
    let msg = format!("{}(): Argument #{} (${}) cannot be passed by reference", String::from_utf8_lossy(&op.name), n, pname);
    Err(vm.throw_error("Error", &msg))
}

/// Sends op1 by reference: the variable becomes a reference (if it isn't)
/// and the argument shares it.
#[cold]
#[inline(never)]
pub unsafe fn send_ref(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let call = (*(fp as *mut Frame)).call;
    let var = if (*ip).op1_type == IS_VAR { operand::var_ptr_1(ip, fp) } else { operand::slot_1(ip, fp) };
    make_ref(var);
    *Frame::slot(call, (*ip).op2 - 1) = (*var).copy_value();
    if (*ip).op1_type == IS_VAR {
        operand::free_1(ip, fp);
    }
    Ok(())
}

/// Turns the value in `slot` into a reference holding it (no-op if it is one).
pub unsafe fn make_ref(slot: *mut Zval) {
    if !(*slot).is_reference() {
        let v = if (*slot).is_undef() { Zval::NULL } else { *slot };
        *slot = Zval::reference(ZRef::new(v));
    }
}

/// A running function's name in messages (`C::m` for methods).
unsafe fn func_name(f: *mut Frame) -> String {
    super::named::display_name((*f).func, (*f).entry)
}

/// A declared type's text as PHP's messages print it
/// (`zend_type_to_string_resolved`): `self` and `static` name the
/// function's class, `parent` its parent.
unsafe fn resolved_type_text(f: *mut Frame, text: &str) -> String {
    let scope = (*(*f).entry).scope;
    if scope.is_null() {
        return text.to_string();
    }
    let (q, rest) = match text.strip_prefix('?') {
        Some(r) => ("?", r),
        None => ("", text),
    };
    let parts: Vec<String> = rest
        .split('|')
        .map(|p| match p.to_ascii_lowercase().as_str() {
            "self" | "static" => (*scope).name_str(),
            "parent" if !(*scope).parent.is_null() => (*(*scope).parent).name_str(),
            _ => p.to_string(),
        })
        .collect();
    format!("{q}{}", parts.join("|"))
}

/// Caller location text (`/file.php on line 3`) of a running frame.
unsafe fn caller_at(f: *mut Frame) -> (String, u32) {
    let prev = (*f).prev;
    if !prev.is_null() && !(*prev).func.is_null() && !(*prev).opline.is_null() {
        return ((*(*prev).func).op.filename.to_string(), (*(*prev).opline).lineno);
    }
    (String::new(), 0)
}

#[cold]
#[inline(never)]
pub unsafe fn missing_argument(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let op = &(*(*f).func).op;
    // `num_args` leaves the variadic parameter out (zend_missing_arg_error).
    let exact = if op.required_args == op.num_args { "exactly" } else { "at least" };
    // Called from user code: where; from a builtin (a callback): no place.
    // Zend compiles call_user_func() (and call_user_func_array() with one
    // array) to opcodes of the calling code: their frames don't count.
    let mut prev = (*f).prev;
    if !prev.is_null() && !(*prev).func.is_null() && !(*(*prev).func).is_user() && matches!((*(*prev).func).name(), b"call_user_func" | b"call_user_func_array") {
        prev = (*prev).prev;
    }
    let from_user = !prev.is_null() && !(*prev).func.is_null() && (*(*prev).func).is_user() && !(*prev).opline.is_null();
    let at = if from_user { format!(" in {} on line {}", (*(*prev).func).op.filename, (*(*prev).opline).lineno) } else { String::new() };
    let msg = format!("Too few arguments to function {}(), {} passed{at} and {exact} {} expected", func_name(f), (*f).num_args(), op.required_args);
    Err(vm.throw_error("ArgumentCountError", &msg))
}

/// RECV_INIT when the argument was not passed: the default (op2) into the CV.
#[cold]
#[inline(never)]
pub unsafe fn recv_default(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let lit = operand::const_2(ip);
    let v = if (*lit).kind() == crate::value::IS_CONSTANT_AST {
        let called = if (*(*f).entry).scope.is_null() { core::ptr::null() } else { (*f).scope };
        eval_default(vm, (*f).func, (*f).entry, called, (*lit).lval() as usize)?
    } else {
        (*lit).copy_value()
    };
    let r = operand::result(ip, fp);
    *r = v;
    // Zend checks (and coerces) a default against the declared type too.
    let mask = (*ip).extended_value;
    if mask != 0 && mask & (1u32 << v.kind()) == 0 {
        return verify_arg(vm, fp, ip, (*ip).op1);
    }
    Ok(())
}

/// Evaluates the constant-expression default `idx` of `func`, in the scope
/// of its `entry` (`static::` is `called`, or that scope when null).
pub unsafe fn eval_default(
    vm: &mut Vm,
    func: *const crate::runtime::function::Function,
    entry: *mut FuncEntry,
    called: *const crate::runtime::class::Class,
    idx: usize,
) -> Result<Zval, Thrown> {
    let op = &(*func).op;
    let Some(thunk) = op.default_thunks.get(idx) else { return Ok(Zval::NULL) };
    let scope = (*entry).scope;
    let called = if called.is_null() { scope } else { called };
    let mut e = FuncEntry::new(&**thunk);
    e.scope = scope;
    let mut ret = Zval::NULL;
    vm.call_function(&mut *e, core::ptr::null_mut(), called, &[], &mut ret)?;
    Ok(ret)
}

/// The default of the RECV_INIT `r` (compile form) of `op`, for a parameter
/// named arguments skipped (`zend_handle_undef_args`).
pub unsafe fn recv_default_value(
    vm: &mut Vm,
    func: *const crate::runtime::function::Function,
    entry: *mut FuncEntry,
    called: *const crate::runtime::class::Class,
    r: &Op,
) -> Result<Zval, Thrown> {
    let op = &(*func).op;
    match op.literals.get(r.op2 as usize) {
        Some(v) if v.kind() == crate::value::IS_CONSTANT_AST => eval_default(vm, func, entry, called, v.lval() as usize),
        Some(v) => Ok(v.copy_value()),
        None => Ok(Zval::NULL),
    }
}

/// `...$rest`: the arguments from op1 on, as a list.
#[cold]
#[inline(never)]
pub unsafe fn recv_variadic(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let a = ZArray::new();
    let first = (*ip).op1; // 1-based position of the variadic parameter
    let nargs = (*f).num_args();
    if nargs >= first {
        let (p, n) = extra_args(f);
        for i in 0..n as usize {
            (*a).append((*p.add(i)).copy_value());
        }
    }
    // Named arguments no parameter took, under their names.
    if let Some(extra) = super::named::take_extra(vm, f) {
        for (k, v) in (*extra.arr()).iter() {
            if let crate::value::array::KeyRef::Str(k) = k {
                (*a).update_str(k as *const ZString as *mut ZString, (*v).copy_value());
            }
        }
        extra.ptr_dtor();
    }
    *operand::result(ip, fp) = Zval::array(a);
    Ok(())
}

/// `zend_zval_type_name`: the kind's name, or an object's class name.
pub fn zend_type_name(v: &Zval) -> String {
    let v = v.deref();
    if v.is_object() {
        // SAFETY: object-kind values hold a live object.
        return unsafe { crate::value::object::ZObject::class(v.obj()).name_str() };
    }
    type_name_of(v).to_string()
}

fn type_name_of(v: &Zval) -> &'static str {
    crate::stdlib::type_name(v)
}

/// Coerces `v` in place to the declared type (non-strict mode); false when
/// it can't be.
pub unsafe fn coerce(vm: &mut Vm, v: *mut Zval, ty: TypeMask, strict: bool) -> bool {
    let cur = *(*v).deref();
    if ty.allows(cur.kind()) || ty.0 == TypeMask::MIXED {
        return true;
    }
    if cur.kind() == IS_NULL {
        return false;
    }
    if strict {
        if cur.kind() == IS_LONG && ty.0 & TypeMask::DOUBLE != 0 {
            *v = Zval::double(cur.lval() as f64);
            return true;
        }
        return false;
    }
    let is_scalar = matches!(cur.kind(), IS_LONG | IS_DOUBLE | IS_STRING | IS_FALSE | IS_TRUE);
    if !is_scalar {
        return false;
    }
    if ty.0 & TypeMask::LONG != 0 {
        match cur.kind() {
            IS_DOUBLE => {
                let d = cur.dval();
                if d.is_finite() && d.fract() == 0.0 && d.abs() < 9.2e18 {
                    *v = Zval::long(d as i64);
                    return true;
                }
                if d.is_finite() && d.abs() < 9.2e18 && ty.0 & TypeMask::DOUBLE == 0 {
                    let mut s = Vec::new();
                    crate::value::number::fmt_repr(d, &mut s);
                    vm.deprecated(&format!("Implicit conversion from float {} to int loses precision", String::from_utf8_lossy(&s)));
                    *v = Zval::long(d as i64);
                    return true;
                }
            }
            IS_STRING => {
                let n = convert::parse_numeric((*cur.str()).bytes());
                if let Some(i) = n.as_int_exact() {
                    let old = *v;
                    *v = Zval::long(i);
                    old.ptr_dtor();
                    return true;
                }
                if let Some(d) = n.as_float_whole() {
                    // int|float: the string's own kind (is_numeric_string).
                    if ty.0 & TypeMask::DOUBLE != 0 {
                        let old = *v;
                        *v = Zval::double(d);
                        old.ptr_dtor();
                        return true;
                    }
                    // zend_parse_arg_long_weak: an integral float string
                    // converts; a fractional one too, with a deprecation.
                    if d.is_finite() && d.abs() < 9.2e18 {
                        if d.fract() != 0.0 {
                            let s = String::from_utf8_lossy((*cur.str()).bytes()).into_owned();
                            vm.deprecated(&format!("Implicit conversion from float-string \"{s}\" to int loses precision"));
                        }
                        let old = *v;
                        *v = Zval::long(d as i64);
                        old.ptr_dtor();
                        return true;
                    }
                }
            }
            IS_FALSE | IS_TRUE => {
                *v = Zval::long((cur.kind() == IS_TRUE) as i64);
                return true;
            }
            _ => {}
        }
    }
    if ty.0 & TypeMask::DOUBLE != 0 {
        match cur.kind() {
            IS_LONG => {
                *v = Zval::double(cur.lval() as f64);
                return true;
            }
            IS_STRING => {
                if let Some(d) = convert::parse_numeric((*cur.str()).bytes()).as_number_exact() {
                    let old = *v;
                    *v = Zval::double(d);
                    old.ptr_dtor();
                    return true;
                }
            }
            IS_FALSE | IS_TRUE => {
                *v = Zval::double((cur.kind() == IS_TRUE) as i64 as f64);
                return true;
            }
            _ => {}
        }
    }
    if ty.0 & TypeMask::STRING != 0 && cur.kind() != IS_STRING {
        let mut buf = Vec::new();
        convert::append_string(&cur, &mut buf);
        *v = Zval::string(ZString::new(&buf));
        return true;
    }
    if ty.0 & TypeMask::BOOL == TypeMask::BOOL {
        *v = Zval::bool(convert::to_bool(&cur));
        return true;
    }
    false
}

/// Whether the class part of a declared type (`ArgInfo::classes`) takes
/// `v`: an object of one of the classes (`self`, `static` and `parent` as
/// seen from the function of frame `f`), or a callable value for `callable`.
unsafe fn class_accepts(vm: &mut Vm, f: *mut Frame, info: &ArgInfo, v: *const Zval) -> bool {
    if info.ty.0 & TypeMask::CLASSES == 0 {
        return false;
    }
    let v = (*v).deref();
    let scope = (*(*f).entry).scope;
    for c in &info.classes {
        if c.as_slice() == b"callable" {
            if (v.is_string() || v.is_array() || v.is_object()) && super::closure::resolve(vm, v).is_ok() {
                return true;
            }
            continue;
        }
        if !v.is_object() {
            continue;
        }
        let cls = crate::value::object::ZObject::class(v.obj());
        let ok = match c.as_slice() {
            b"self" => !scope.is_null() && cls.is_subclass_of(scope),
            b"static" => {
                let called = if scope.is_null() || (*f).scope.is_null() { scope } else { (*f).scope };
                !called.is_null() && cls.is_subclass_of(called)
            }
            b"parent" => !scope.is_null() && !(*scope).parent.is_null() && cls.is_subclass_of((*scope).parent),
            name if name.contains(&b'&') => name.split(|&b| b == b'&').all(|part| cls.is_subclass_of_name(part)),
            name => cls.is_subclass_of_name(name),
        };
        if ok {
            return true;
        }
    }
    false
}

fn arg_type_text(a: &ArgInfo) -> &str {
    &a.ty_text
}

/// RECV with a declared type: checks (and coerces) argument op1.
#[cold]
#[inline(never)]
pub unsafe fn verify_arg(vm: &mut Vm, fp: *mut Zval, ip: *const Op, n: u32) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let op = &(*(*f).func).op;
    let Some(info) = op.arg_info.get(n as usize - 1) else { return Ok(()) };
    let v = Frame::slot(f, n - 1);
    let caller_strict = {
        let prev = (*f).prev;
        !prev.is_null() && !(*prev).func.is_null() && (*(*prev).func).op.strict_types
    };
    if class_accepts(vm, f, info, v) || coerce(vm, v, info.ty, caller_strict) {
        return Ok(());
    }
    let (file, line) = caller_at(f);
    let msg = format!(
        "{}(): Argument #{} (${}) must be of type {}, {} given, called in {} on line {}",
        func_name(f), n, String::from_utf8_lossy(&info.name), resolved_type_text(f, arg_type_text(info)), zend_type_name(&*v), file, line
    );
    Err(vm.throw_error("TypeError", &msg))
}

/// VERIFY_RETURN_TYPE: checks op1 against the return type; the (coerced)
/// value goes to the result when op1 is not a CV.
#[cold]
#[inline(never)]
pub unsafe fn verify_return(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let op = &(*(*f).func).op;
    let Some(info) = op.return_type.as_ref() else { return Ok(()) };
    if (*ip).op1_type == IS_UNUSED {
        if info.ty.0 & TypeMask::VOID != 0 {
            return Ok(());
        }
        let msg = format!("{}(): Return value must be of type {}, none returned", func_name(f), info.ty_text);
        return Err(vm.throw_error("TypeError", &msg));
    }
    let slot = if (*ip).op1_type == crate::ops::IS_CONST {
        let r = operand::result(ip, fp);
        *r = (*operand::const_1(ip)).copy_value();
        r
    } else {
        operand::slot_1(ip, fp)
    };
    // As Zend: a VAR may point at an element (a by-reference return of
    // `$a[0]`); behind a reference, a by-reference return checks (and
    // coerces) the referenced value, a by-value return unwraps it first so
    // a coercion does not reach the variable it refers to.
    let slot = if (*ip).op1_type == crate::ops::IS_VAR && (*slot).kind() == crate::value::IS_INDIRECT { (*slot).zv_ptr() } else { slot };
    let by_ref = (*ip.add(1)).opcode() == crate::ops::Opcode::ReturnByRef;
    let target = if (*slot).is_reference() && !by_ref && (*ip).op1_type == IS_CV {
        let inner = (*slot).copy_deref();
        let old = *slot;
        *slot = inner;
        old.ptr_dtor();
        slot
    } else {
        (*slot).deref_mut() as *mut Zval
    };
    if class_accepts(vm, f, info, target) || coerce(vm, target, info.ty, op.strict_types) {
        return Ok(());
    }
    let msg = format!("{}(): Return value must be of type {}, {} returned", func_name(f), resolved_type_text(f, &info.ty_text), zend_type_name(&*target));
    Err(vm.throw_error("TypeError", &msg))
}

/// VERIFY_NEVER_TYPE: a `never` function ended without throwing.
#[cold]
#[inline(never)]
pub unsafe fn verify_never(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let msg = format!("{}(): never-returning function must not implicitly return", func_name(fp as *mut Frame));
    Err(vm.throw_error("TypeError", &msg))
}

/// BIND_STATIC's fast path: the statics are initialized and the CV holds
/// nothing to release. False (and nothing changed) otherwise.
#[inline(always)]
pub unsafe fn bind_static_fast(fp: *mut Zval, ip: *const Op) -> bool {
    let entry = (*(fp as *mut Frame)).entry;
    let statics = &(*entry).statics;
    if (*ip).extended_value & super::closure::BIND_REF == 0 {
        return false;
    }
    let idx = ((*ip).extended_value & super::closure::BIND_INDEX) as usize;
    let cv = operand::slot_1(ip, fp);
    if !(*entry).statics_init || idx >= statics.len() || (*cv).is_refcounted() {
        return false;
    }
    *cv = statics.get_unchecked(idx).copy_value();
    true
}

/// `static $x = …;`: binds CV op1 to this function's static slot
/// (extended_value) in this context, initializing the statics on first use.
#[cold]
#[inline(never)]
pub unsafe fn bind_static(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let entry = (*f).entry;
    let op = &(*(*f).func).op;
    if !(*entry).statics_init {
        (*entry).statics = op.static_vars.iter().map(|(_, v)| Zval::reference(ZRef::new(v.copy_value()))).collect();
        (*entry).statics_init = true;
    }
    let idx = ((*ip).extended_value & super::closure::BIND_INDEX) as usize;
    let statics = &(*entry).statics;
    let Some(s) = statics.get(idx) else { return Ok(()) };
    let cv = operand::slot_1(ip, fp);
    let old = *cv;
    // A closure's by-value `use` variable is a copy; `static` variables
    // and by-reference uses share the slot's reference.
    *cv = if (*ip).extended_value & super::closure::BIND_REF != 0 { s.copy_value() } else if s.is_undef() { Zval::UNDEF } else { s.copy_deref() };
    old.ptr_dtor();
    Ok(())
}

/// DECLARE_FUNCTION: declares function op1 of the current op array's nested declarations.
#[cold]
#[inline(never)]
pub unsafe fn declare_function(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let f = fp as *mut Frame;
    let op = &(*(*f).func).op;
    let Some(func) = op.declared.get((*ip).op1 as usize) else { return Ok(()) };
    let p: *const crate::runtime::function::Function = &**func;
    if !vm.declare_function(p) {
        let msg = format!("Cannot redeclare {}()", String::from_utf8_lossy(&(*p).op.name));
        vm.fatal(&msg);
        return Err(Thrown);
    }
    Ok(())
}

