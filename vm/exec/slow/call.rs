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
pub const CALL_TOP: u32 = 1 << 16;

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
    let name = &*operand::const_2(ip);
    let e = (*vm).find_function((*name.str()).bytes()).unwrap_or(core::ptr::null_mut());
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
        crate::ops::FRAME_HEADER as usize + nargs as usize * 16
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
    (*call).opline = core::ptr::null();
    // Arguments not yet sent must read as UNDEF if the call is abandoned.
    for i in 0..nargs {
        *Frame::slot(call, i) = Zval::UNDEF;
    }
    (*f).call = call;
    Ok(())
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
    free_frame_values(f);
    let prev = (*f).prev;
    let top = (*f).this.type_info & CALL_TOP != 0;
    (*vm).stack.free(fp);
    (*vm).cur = prev;
    if top {
        return None;
    }
    Some(((*prev).opline.add(1), prev as *mut Zval))
}

/// Releases a user frame's CVs and extra arguments.
#[inline(always)]
pub unsafe fn free_frame_values(f: *mut Frame) {
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
}

/// Calls the prepared builtin; its result goes to `ret`.
#[inline(never)]
pub unsafe fn call_builtin(vm: &mut Vm, fp: *mut Zval, ip: *const Op, ret: *mut Zval) -> Result<(), Thrown> {
    let call = take_call(fp);
    (*call).prev = fp as *mut Frame;
    let nargs = (*call).num_args() as usize;
    let args = core::slice::from_raw_parts(Frame::slot(call, 0) as *const Zval, nargs);
    let Some(f) = (*(*call).func).builtin else {
        return Err(vm.throw_error("Error", "not a builtin"));
    };
    vm.cur = call;
    let mut r = Zval::NULL;
    let res = f(vm, args, &mut r);
    vm.cur = fp as *mut Frame;
    for a in args {
        a.ptr_dtor();
    }
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

/// A dynamic call `$f(...)`: op2 holds the function name.
#[cold]
#[inline(never)]
pub unsafe fn init_dynamic_call(vm: &mut Vm, fp: *mut Zval, ip: *const Op, nargs: u32) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let v = (*operand::any_read_2(ip, fp, vm)).deref();
    if !v.is_string() {
        return Err(vm.throw_error("Error", "Value not callable"));
    }
    let name = (*v.str()).bytes().to_vec();
    match vm.find_function(&name) {
        Some(e) => push_call(vm, fp, ip, e, nargs),
        None => Err(vm.throw_error("Error", &format!("Call to undefined function {}()", String::from_utf8_lossy(&name)))),
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
    let msg = format!("{}(): Argument #{} (${}) could not be passed by reference", String::from_utf8_lossy(&op.name), n, pname);
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

unsafe fn func_name(f: *mut Frame) -> String {
    String::from_utf8_lossy(&(*(*f).func).op.name).into_owned()
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
    let (file, line) = caller_at(f);
    let exact = if op.required_args == op.num_args && !op.arg_info.last().is_some_and(|a| a.variadic) { "exactly" } else { "at least" };
    let msg = format!(
        "Too few arguments to function {}(), {} passed in {} on line {} and {} {} expected",
        func_name(f), (*f).num_args(), file, line, exact, op.required_args
    );
    Err(vm.throw_error("ArgumentCountError", &msg))
}

/// RECV_INIT when the argument was not passed: the default (op2) into the CV.
#[cold]
#[inline(never)]
pub unsafe fn recv_default(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let v = (*operand::const_2(ip)).copy_value();
    *operand::result(ip, fp) = v;
    Ok(())
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
    *operand::result(ip, fp) = Zval::array(a);
    Ok(())
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
                    if ty.0 & TypeMask::DOUBLE != 0 {
                        let old = *v;
                        *v = Zval::double(d);
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
    if coerce(vm, v, info.ty, caller_strict) {
        return Ok(());
    }
    let (file, line) = caller_at(f);
    let msg = format!(
        "{}(): Argument #{} (${}) must be of type {}, {} given, called in {} on line {}",
        func_name(f), n, String::from_utf8_lossy(&info.name), arg_type_text(info), type_name_of((*v).deref()), file, line
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
    if coerce(vm, target, info.ty, op.strict_types) {
        return Ok(());
    }
    let msg = format!("{}(): Return value must be of type {}, {} returned", func_name(f), info.ty_text, type_name_of((*target).deref()));
    Err(vm.throw_error("TypeError", &msg))
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
    let idx = (*ip).extended_value as usize;
    let statics = &(*entry).statics;
    let Some(s) = statics.get(idx) else { return Ok(()) };
    let cv = operand::slot_1(ip, fp);
    let old = *cv;
    *cv = s.copy_value();
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

