//! Exceptions: HANDLE_EXCEPTION (find the catch/finally covering the
//! throwing opline, free the live temporaries and prepared calls, or unwind
//! to the caller), the CATCH/THROW/FAST_CALL/FAST_RET/DISCARD_EXCEPTION
//! slow paths, and Zend's `zend_dispatch_try_catch_finally_helper`.
//!
//! Every look at the pending exception itself goes through the functions in
//! "The pending exception" below (`pending_instance_of`, `take_pending`,
//! `throw_value` and the finally-block stash): they are the seam to the
//! object model. Until objects land a pending throwable is a Rust record
//! (`runtime::error::Exception`).

use crate::exec::frame::Frame;
use crate::exec::{Thrown, Vm};
use crate::ops::{slot_offset, LiveKind, Op, OpArray, IS_CV, IS_TMP_VAR, IS_VAR};
use crate::runtime::error::{Exception, Level};
use crate::value::object::ZObject;
use crate::value::{Zval, IS_OBJECT, IS_PTR};

/// `extended_value` bit of the last CATCH of a try (Zend's `ZEND_LAST_CATCH`).
pub const LAST_CATCH: u32 = 1;
/// `u2` of a FAST_CALL var entered by an exception, not by a FAST_CALL.
const NO_RETURN: u32 = u32::MAX;

// ---------------------------------------------------------------- the pending exception

/// Does the pending exception's class equal, extend or implement the class
/// `class_lc` (lowercase, no leading `\`)? False when nothing is pending.
pub fn pending_instance_of(vm: &Vm, class_lc: &[u8]) -> bool {
    vm.exception.as_ref().is_some_and(|e| e.class().is_subclass_of_name(class_lc))
}

/// Takes the pending exception (nothing is pending afterwards) and returns
/// the value a catch variable receives (owned).
pub fn take_pending(vm: &mut Vm) -> Zval {
    vm.exception.take().map_or(Zval::NULL, Exception::into_value)
}

/// THROW: makes `v` (owned) the pending exception. A non-object is
/// `Error: Can only throw objects`. Always `Err`: an exception is pending.
pub fn throw_value(vm: &mut Vm, v: Zval) -> Result<(), Thrown> {
    if v.kind() != IS_OBJECT {
        // SAFETY: `v` is an owned value.
        unsafe { v.ptr_dtor() };
        return Err(vm.throw_error("Error", "Can only throw objects"));
    }
    // SAFETY: an object-kind value holds a live object.
    let throwable = unsafe { crate::value::object::ZObject::class(v.obj()).is_subclass_of_name(b"throwable") };
    if !throwable {
        // SAFETY: `v` is an owned value.
        unsafe { v.ptr_dtor() };
        return Err(vm.throw_error("Error", "Cannot throw objects that do not implement Throwable"));
    }
    vm.exception = Some(Exception::new(v.obj()));
    Err(Thrown)
}

// While a finally block runs because of an exception, the FAST_CALL var
// holds that exception (Zend keeps the object in the var's payload). Here
// the payload is the boxed `Exception` as a raw pointer (IS_PTR, never
// refcounted, so nothing else frees it), null when none is held; `u2` is the
// FAST_CALL's opline number, or NO_RETURN.

/// Moves the pending exception (if any) into the FAST_CALL var `fc`.
unsafe fn stash_pending(vm: &mut Vm, fc: *mut Zval) {
    let p = vm.exception.take().map_or(core::ptr::null_mut(), |e| e.into_raw() as *mut u8);
    *fc = Zval::ptr(p);
    (*fc).u2 = NO_RETURN;
}

/// The FAST_CALL var `fc` says "no exception, return nowhere": a
/// generator being destroyed runs its finally blocks so.
pub(crate) unsafe fn set_no_return(fc: *mut Zval) {
    *fc = Zval::ptr(core::ptr::null_mut());
    (*fc).u2 = NO_RETURN;
}

/// Takes the exception held in the FAST_CALL var `fc`, if any.
pub(crate) unsafe fn take_stashed(fc: *mut Zval) -> Option<Exception> {
    if (*fc).kind() != IS_PTR || (*fc).value.ptr.is_null() {
        return None;
    }
    let p = (*fc).value.ptr as *mut crate::value::object::ZObject;
    (*fc).value.ptr = core::ptr::null_mut();
    // SAFETY: a non-null IS_PTR payload of a FAST_CALL var is only ever
    // written by `stash_pending` from `Exception::into_raw`, and is nulled
    // when taken.
    Some(Exception::from_raw(p))
}

/// `zend_exception_set_previous`: `prev` becomes the previous exception of
/// the last exception in the pending one's chain.
pub(crate) fn chain_previous(vm: &mut Vm, prev: Exception) {
    let Some(e) = vm.exception.as_ref() else {
        vm.exception = Some(prev);
        return;
    };
    // SAFETY: the pending exception and its `previous` chain are live
    // objects; the walk stops at a cycle (`prev` already in the chain).
    unsafe {
        let mut cur = e.0;
        loop {
            if cur == prev.0 {
                return;
            }
            let p = crate::runtime::builtin_classes::prop_slot(cur, b"previous");
            if p.is_null() {
                return;
            }
            let next = (*p).deref();
            if next.is_object() {
                cur = next.obj();
                continue;
            }
            let old = *p;
            *p = prev.into_value();
            old.ptr_dtor();
            return;
        }
    }
}

// ---------------------------------------------------------------- handlers

/// CATCH: binds and clears the pending exception when it is an op1
/// (`Ok(true)`); `Ok(false)`: try the next catch (op2); `Err`: the last catch
/// did not match, rethrown from this opline.
#[cold]
#[inline(never)]
pub unsafe fn catch(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    if vm.exception.is_none() {
        vm.fatal_internal("CATCH without a pending exception");
        return Err(Thrown);
    }
    // INVARIANT: the compiler puts the lowercase name right after op1's literal.
    let lc = &*crate::exec::operand::const_1(ip).add(1);
    let lc = (*lc.str()).bytes();
    if !pending_instance_of(vm, lc) {
        if (*ip).extended_value & LAST_CATCH != 0 {
            return Err(Thrown);
        }
        return Ok(false);
    }
    let v = take_pending(vm);
    if (*ip).result_type == IS_CV {
        super::assign::assign(crate::exec::operand::result(ip, fp), v);
    } else {
        v.ptr_dtor();
    }
    Ok(true)
}

/// THROW op1.
#[cold]
#[inline(never)]
pub unsafe fn throw(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let v = (*super::read1(vm, fp, ip)).deref().copy_value();
    if vm.exception.is_some() {
        // An undefined CV's warning was turned into an exception.
        v.ptr_dtor();
        return Err(Thrown);
    }
    throw_value(vm, v)
}

/// The frame's own op array and the index of its opline `ip`.
unsafe fn op_of(fp: *mut Zval, ip: *const Op) -> (&'static OpArray, u32) {
    let op = &(*(*(fp as *mut Frame)).func).op;
    (op, op.op_index(ip))
}

/// FAST_CALL: the result var says "no exception, come back here".
pub unsafe fn fast_call(fp: *mut Zval, ip: *const Op) {
    let (_, n) = op_of(fp, ip);
    let fc = crate::exec::operand::result(ip, fp);
    *fc = Zval::ptr(core::ptr::null_mut());
    (*fc).u2 = n;
}

/// FAST_RET: back after the FAST_CALL that entered the finally block, or
/// rethrow the exception that did, to the enclosing try blocks (op2) and
/// then the callers.
#[cold]
#[inline(never)]
pub unsafe fn fast_ret(vm: *mut Vm, fp: *mut Zval, ip: *const Op) -> Option<(*const Op, *mut Zval)> {
    let vm = &mut *vm;
    let (op, n) = op_of(fp, ip);
    let fc = crate::exec::operand::slot_1(ip, fp);
    if (*fc).u2 != NO_RETURN {
        return Some((op.entry().add((*fc).u2 as usize + 1), fp));
    }
    let f = fp as *mut Frame;
    (*f).opline = ip;
    vm.cur = f;
    match take_stashed(fc) {
        Some(e) => vm.exception = Some(e),
        // A generator being destroyed leaves its finally blocks so, and
        // goes on to the enclosing ones.
        None if (*f).this.type_info & crate::exec::generator::CALL_GENERATOR != 0 => {}
        None => {
            vm.fatal_internal("FAST_RET without an exception to rethrow");
        }
    }
    let current = (*ip).op2;
    let current = if current == u32::MAX { None } else { Some(current as usize) };
    unwind(vm, f, n, current)
}

/// DISCARD_EXCEPTION: a return/break out of a finally block drops the
/// exception it held and the return value of an interrupted `return`.
pub unsafe fn discard_exception(fp: *mut Zval, ip: *const Op) {
    let (op, _) = op_of(fp, ip);
    let fc = crate::exec::operand::slot_1(ip, fp);
    free_incomplete_return(fp as *mut Frame, op, fc);
    drop(take_stashed(fc));
}

/// A `return` that ran the finally (FAST_CALL with the return value in
/// op2) and will not complete: its value is freed.
pub(crate) unsafe fn free_incomplete_return(f: *mut Frame, op: &OpArray, fc: *mut Zval) {
    if (*fc).kind() != IS_PTR || (*fc).u2 == NO_RETURN {
        return;
    }
    if let Some(call) = op.ops.get((*fc).u2 as usize) {
        if call.op2_type & (IS_TMP_VAR | IS_VAR) != 0 {
            let v = Frame::slot(f, call.op2);
            (*v).ptr_dtor();
            *v = Zval::UNDEF;
        }
    }
    (*fc).u2 = NO_RETURN;
}

/// A frame abandoned by `exit` or a cancelled run (neither runs finally
/// blocks nor passes HANDLE_EXCEPTION): frees the exceptions held by the
/// finally blocks it is running.
pub unsafe fn drop_held(f: *mut Frame) {
    let op = &(*(*f).func).op;
    if op.try_catch.is_empty() || (*f).opline.is_null() {
        return;
    }
    // INVARIANT: a frame's opline is null from its push until it saves one
    // of its own oplines; an opline inside a finally block means the block
    // was entered, by FAST_CALL or an exception, which set its var.
    let (ip, base) = ((*f).opline as usize, op.entry() as usize);
    let n = (ip.wrapping_sub(base) / core::mem::size_of::<Op>()) as u32;
    if ip < base || n as usize >= op.ops.len() {
        return;
    }
    for tc in &op.try_catch {
        if tc.finally_op != 0 && tc.finally_op <= n && n < tc.finally_end {
            drop(take_stashed(fast_call_var(f, op, tc.finally_end)));
        }
    }
}

// ---------------------------------------------------------------- unwinding

/// HANDLE_EXCEPTION: continues after a throw in the frame at `fp` (its
/// `opline` is the throwing one). `None`: the run is over (uncaught, fatal
/// error or exit) or the exception leaves a callback to its builtin.
#[cold]
#[inline(never)]
pub unsafe fn handle(vm: *mut Vm, fp: *mut Zval) -> Option<(*const Op, *mut Zval)> {
    let vm = &mut *vm;
    let f = fp as *mut Frame;
    if (*f).func.is_null() || !(*(*f).func).is_user() {
        return None;
    }
    let op = &(*(*f).func).op;
    let throw_op = (*f).opline;
    let op_num = if throw_op.is_null() { 0 } else { op.op_index(throw_op) };
    unwind(vm, f, op_num, innermost_try(op, op_num))
}

/// The innermost try/catch/finally entry whose try, catch or finally
/// blocks contain `op_num` (entries are sorted by `try_op`).
fn innermost_try(op: &OpArray, op_num: u32) -> Option<usize> {
    let mut current = None;
    for (i, tc) in op.try_catch.iter().enumerate() {
        if tc.try_op > op_num {
            break;
        }
        if op_num < tc.catch_op || op_num < tc.finally_end {
            current = Some(i);
        }
    }
    current
}

/// From opline `op_num` of frame `f`, inside try entry `current`: the
/// catch or finally block to continue at, else unwind frame by frame.
unsafe fn unwind(vm: &mut Vm, mut f: *mut Frame, mut op_num: u32, mut current: Option<usize>) -> Option<(*const Op, *mut Zval)> {
    loop {
        let op = &(*(*f).func).op;
        free_unfinished_calls(f);
        if let Some(t) = dispatch_try_catch_finally(vm, f, op, current, op_num) {
            return Some((t, f as *mut Zval));
        }
        free_live_ranges(vm, f, op, op_num, u32::MAX);
        // Unwind this frame.
        super::call::free_frame_values(vm, f);
        let prev = (*f).prev;
        let top = (*f).this.type_info & super::call::CALL_TOP != 0;
        if (*f).this.type_info & crate::exec::generator::CALL_GENERATOR != 0 {
            // A generator's frame is its object's: the generator closes.
            crate::exec::generator::unwound(f);
        } else {
            vm.stack.free(f as *mut Zval);
        }
        vm.cur = prev;
        if top || prev.is_null() {
            // A function a builtin called (a callback) leaves its exception
            // pending: it propagates from the builtin's call.
            if vm.stop.is_none() && prev.is_null() {
                report_uncaught(vm);
            }
            return None;
        }
        f = prev;
        if (*f).func.is_null() || !(*(*f).func).is_user() {
            return None;
        }
        let op = &(*(*f).func).op;
        op_num = if (*f).opline.is_null() { 0 } else { op.op_index((*f).opline) };
        current = innermost_try(op, op_num);
    }
}

/// Zend's `zend_dispatch_try_catch_finally_helper`: walks the try entries
/// from `current` outwards. A catch covering the throw takes it; a finally
/// covering it runs with the exception held in its FAST_CALL var; a throw
/// from inside a finally block drops that block's pending return value and
/// chains the exception it held as `previous`. Fatal errors and `exit`
/// (`vm.stop`) run no catch and no finally.
unsafe fn dispatch_try_catch_finally(vm: &mut Vm, f: *mut Frame, op: &OpArray, current: Option<usize>, op_num: u32) -> Option<*const Op> {
    let stopping = vm.stop.is_some();
    let Some(mut i) = current else { return None };
    loop {
        let tc = op.try_catch[i];
        if op_num < tc.catch_op && vm.exception.is_some() && !stopping {
            free_live_ranges(vm, f, op, op_num, tc.catch_op);
            return Some(op.entry().add(tc.catch_op as usize));
        } else if op_num < tc.finally_op {
            if !stopping {
                let fc = fast_call_var(f, op, tc.finally_end);
                free_live_ranges(vm, f, op, op_num, tc.finally_op);
                stash_pending(vm, fc);
                return Some(op.entry().add(tc.finally_op as usize));
            }
        } else if op_num < tc.finally_end {
            let fc = fast_call_var(f, op, tc.finally_end);
            free_incomplete_return(f, op, fc);
            if let Some(held) = take_stashed(fc) {
                if stopping {
                    drop(held);
                } else {
                    chain_previous(vm, held);
                }
            }
        }
        if i == 0 {
            return None;
        }
        i -= 1;
    }
}

/// The FAST_CALL var of a finally block: op1 of its FAST_RET.
unsafe fn fast_call_var(f: *mut Frame, op: &OpArray, finally_end: u32) -> *mut Zval {
    Frame::slot(f, op.ops[finally_end as usize].op1)
}

/// Zend's `cleanup_live_vars`: frees the live temporaries of `f` at
/// `op_num` whose range ends before the catch/finally target `upto`.
pub(crate) unsafe fn free_live_ranges(vm: &mut Vm, f: *mut Frame, op: &OpArray, op_num: u32, upto: u32) {
    for r in &op.live_ranges {
        if r.start > op_num {
            break;
        }
        if op_num < r.end && upto >= r.end {
            let slot = (f as *mut u8).add(slot_offset(r.var) as usize) as *mut Zval;
            match r.kind {
                LiveKind::Tmp | LiveKind::Loop | LiveKind::New => (*slot).ptr_dtor(),
                LiveKind::Silence => {
                    // Restore the level `@` saved, unless the code under it
                    // changed error_reporting to something non-fatal.
                    const FATAL: i64 = 1 | 4 | 16 | 64 | 256 | 4096;
                    let saved = (*slot).lval();
                    if vm.error_reporting & !FATAL == 0 && saved & !FATAL != 0 {
                        vm.error_reporting = saved;
                    }
                }
                LiveKind::Rope => {
                    // Parts written so far: the ROPE_ADD/INIT oplines before op_num.
                    let mut n = 0;
                    let base = op.entry();
                    for i in r.start..op_num {
                        let o = &*base.add(i as usize);
                        if matches!(o.opcode(), crate::ops::Opcode::RopeInit | crate::ops::Opcode::RopeAdd) {
                            n += 1;
                        }
                    }
                    super::misc::free_rope(slot, n);
                }
            }
        }
    }
}

/// Frees the frames pushed by INIT_* whose call was never made.
unsafe fn free_unfinished_calls(f: *mut Frame) {
    let mut call = (*f).call;
    while !call.is_null() {
        for i in 0..(*call).num_args() {
            (*Frame::slot(call, i)).ptr_dtor();
            *Frame::slot(call, i) = Zval::UNDEF;
        }
        if (*call).this.type_info & super::named::CALL_HAS_EXTRA_NAMED != 0 {
            super::named::free_extra(call);
        }
        super::call::release_this(call);
        call = (*call).prev;
    }
    (*f).call = core::ptr::null_mut();
}

/// `Fatal error: Uncaught …`: the exception's string form (its
/// `__toString()`), reported at the line it was made.
pub fn report_uncaught(vm: &mut Vm) {
    let Some(e) = vm.exception.take() else { return };
    let o = e.0;
    // SAFETY: `e` keeps the object alive for this block.
    let (text, file, line) = unsafe {
        let text = match ZObject::class(o).magic.tostring {
            Some(m) if ZObject::class(o).flags & crate::runtime::class::CLASS_INTERNAL == 0 || !(*m.scope).is_internal() => {
                match super::object::call_method(vm, o, m, &[]) {
                    Ok(v) if v.is_string() => {
                        let t = String::from_utf8_lossy((*v.str()).bytes()).into_owned();
                        v.ptr_dtor();
                        t
                    }
                    Ok(v) => {
                        v.ptr_dtor();
                        crate::runtime::builtin_classes::throwable_string(o)
                    }
                    Err(_) => {
                        vm.exception = None;
                        crate::runtime::builtin_classes::throwable_string(o)
                    }
                }
            }
            _ => crate::runtime::builtin_classes::throwable_string(o),
        };
        let f = crate::runtime::builtin_classes::prop_slot(o, b"file");
        let l = crate::runtime::builtin_classes::prop_slot(o, b"line");
        let file = if !f.is_null() && (*f).deref().is_string() { String::from_utf8_lossy((*(*f).deref().str()).bytes()).into_owned() } else { String::new() };
        let line = if !l.is_null() && (*l).deref().is_long() { (*l).deref().lval() as u32 } else { 0 };
        (text, file, line)
    };
    drop(e);
    let msg = format!("Uncaught {text}\n  thrown");
    vm.report_at(Level::Fatal, msg.as_bytes(), &file, line);
    vm.stop = Some(crate::runtime::error::Stop::Fatal(msg));
}

