//! Generators, as Zend builds them (`zend_generators.c`).
//!
//! A function whose body contains `yield` starts with GENERATOR_CREATE,
//! which moves its frame (header, arguments, CVs, temporaries, extra
//! arguments) off the VM stack into a heap block owned by a new `Generator`
//! object and returns that object to the caller. Resuming runs that frame in
//! a nested dispatch loop, as Zend's `zend_generator_resume` calls
//! `zend_execute_ex`: the frame is flagged CALL_TOP | CALL_GENERATOR, its
//! `prev` is whoever resumes it, and its `return_value` points at the
//! `Generator` (Zend's `EX(return_value)` trick). YIELD stores the value and
//! key and leaves the loop; GENERATOR_RETURN stores the return value and
//! closes the frame; an uncaught exception closes it during unwinding.
//!
//! Calls being prepared at a `yield` (`f(yield $x)`) live on the VM stack
//! above the frame: they are copied out when the generator suspends and
//! copied back when it resumes (Zend's frozen call stack).
//!
//! `yield from` keeps the delegate in the outer generator: an array or an
//! Iterator (`values`, consumed before the frame runs again) or an inner
//! generator (`inner`, resumed in its place until it returns). `current()`
//! and `key()` read the innermost delegate (the leaf).

use crate::exec::frame::Frame;
use crate::exec::slow::call::CALL_TOP;
use crate::exec::{dispatch, operand, Ret, Thrown, Vm};
use crate::ops::{Op, OpArray, IS_UNUSED};
use crate::runtime::error::Exception;
use crate::value::object::ZObject;
use crate::value::{ZString, Zval};

/// Frame flag (in `this.type_info`): a generator's heap frame, whose
/// `return_value` is the `Generator`.
/// (Frame call flags: CALL_TOP 1 << 16, CALL_CLOSURE 1 << 17 and CALL_SYMTAB
/// 1 << 20 in `slow::call`, CALL_HAS_EXTRA_NAMED 1 << 19 in `slow::named`.)
pub const CALL_GENERATOR: u32 = 1 << 18;

const RUNNING: u8 = 1;
/// Suspended at the first yield, where `rewind()` is still allowed.
const AT_FIRST_YIELD: u8 = 2;
/// Being destroyed: running its finally blocks, where `yield` is an error.
const FORCED_CLOSE: u8 = 4;
const STARTED: u8 = 8;

/// A generator's native state (the `internal` of a `Generator` object).
pub struct Generator {
    /// The generator function's frame, inside `mem`; null once closed.
    frame: *mut Frame,
    /// The frame's storage (kept until the object is freed).
    _mem: Vec<Zval>,
    pub value: Zval,
    pub key: Zval,
    pub retval: Zval,
    /// The result slot of the YIELD the generator is suspended at, if used.
    send_target: *mut Zval,
    largest_int_key: i64,
    flags: u8,
    /// `yield from` an array (position in `u2`) or an Iterator object.
    values: Zval,
    values_index: u64,
    /// `yield from` a generator: that generator (one reference).
    inner: *mut ZObject,
    /// Calls being prepared at the yield: the VM stack bytes from the
    /// outermost one to the top, where they were, and the innermost one.
    frozen: Vec<Zval>,
    frozen_at: usize,
    frozen_call: usize,
}

impl Drop for Generator {
    fn drop(&mut self) {
        // SAFETY: the state owns these values; a frame still open here
        // (the object is freed without its dtor, at a bailout) leaks its
        // values rather than running code.
        unsafe {
            self.value.ptr_dtor();
            self.key.ptr_dtor();
            self.retval.ptr_dtor();
            self.values.ptr_dtor();
            if !self.inner.is_null() {
                Zval::object(self.inner).ptr_dtor();
            }
        }
    }
}

/// The generator state of object `o`, if it is a generator.
pub unsafe fn of(o: *mut ZObject) -> Option<*mut Generator> {
    (*o).internal.as_mut().and_then(|b| b.downcast_mut::<Generator>()).map(|g| g as *mut Generator)
}

/// The generator a generator frame runs for.
#[inline(always)]
unsafe fn of_frame(fp: *mut Zval) -> *mut Generator {
    (*(fp as *mut Frame)).return_value as *mut Generator
}

unsafe fn op_array(f: *mut Frame) -> &'static OpArray {
    &(*(*f).func).op
}

// ---------------------------------------------------------------- handlers

/// GENERATOR_CREATE: moves the running frame into a new Generator object,
/// which becomes the call's result, and returns to the caller. `None`: the
/// frame was entered from Rust (leave the loop).
#[cold]
#[inline(never)]
pub unsafe fn create(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Option<(*const Op, *mut Zval)>, Thrown> {
    let f = fp as *mut Frame;
    (*f).opline = ip;
    vm.cur = f;
    let rv = (*f).return_value;
    if rv.is_null() {
        // Nobody receives the generator: the body never runs (Zend leaves
        // through zend_leave_helper).
        return Ok(crate::exec::slow::call::leave(vm, fp, Zval::NULL));
    }
    let class = crate::runtime::classes::find_class(vm, b"generator").ok_or(Thrown)?;
    // (not `instantiate`, which refuses `new Generator`)
    let o = ZObject::alloc(class, &[]);
    vm.objects.add(o);
    let op = op_array(f);
    let extra = (*f).num_args().saturating_sub(op.num_args) as usize;
    let bytes = op.frame_size() + extra * 16;
    let mut mem = vec![Zval::UNDEF; bytes / 16];
    let gf = mem.as_mut_ptr() as *mut Frame;
    core::ptr::copy_nonoverlapping(fp as *const u8, gf as *mut u8, bytes);
    let g = Box::new(Generator {
        frame: gf,
        _mem: mem,
        value: Zval::UNDEF,
        key: Zval::UNDEF,
        retval: Zval::UNDEF,
        send_target: core::ptr::null_mut(),
        largest_int_key: -1,
        flags: 0,
        values: Zval::UNDEF,
        values_index: 0,
        inner: core::ptr::null_mut(),
        frozen: Vec::new(),
        frozen_at: 0,
        frozen_call: 0,
    });
    let gp: *const Generator = &*g;
    (*o).internal = Some(g);
    (*gf).return_value = gp as *mut Zval;
    (*gf).this.type_info |= CALL_TOP | CALL_GENERATOR;
    (*gf).prev = core::ptr::null_mut();
    (*gf).call = core::ptr::null_mut();
    // The values moved to the heap frame: pop the stack frame as RETURN
    // does, without releasing them.
    *rv = Zval::object(o);
    let prev = (*f).prev;
    let top = (*f).this.type_info & CALL_TOP != 0;
    vm.stack.free(fp);
    vm.cur = prev;
    if top {
        return Ok(None);
    }
    Ok(Some(((*prev).opline.add(1), prev as *mut Zval)))
}

/// Op `which` as an owned, dereferenced value (NULL when UNUSED).
unsafe fn take_value(vm: &mut Vm, fp: *mut Zval, ip: *const Op, which: u8) -> Zval {
    let kind = if which == 1 { (*ip).op1_type } else { (*ip).op2_type };
    if kind == IS_UNUSED {
        return Zval::NULL;
    }
    let v = crate::exec::slow::take(vm, fp, ip, which);
    if v.is_reference() {
        let d = v.copy_deref();
        v.ptr_dtor();
        return d;
    }
    v
}

/// YIELD: the generator's value := op1 (null if UNUSED), key := op2 (the
/// next integer key if UNUSED); the result slot, if used, receives what
/// `send()` sends (null otherwise). Then the generator suspends.
#[cold]
#[inline(never)]
pub unsafe fn yield_value(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    let f = fp as *mut Frame;
    (*f).opline = ip;
    vm.cur = f;
    let g = of_frame(fp);
    if (*g).flags & FORCED_CLOSE != 0 {
        crate::exec::slow::free_op(fp, ip, 1);
        crate::exec::slow::free_op(fp, ip, 2);
        return Err(vm.throw_error("Error", "Cannot yield from finally in a force-closed generator"));
    }
    let key = if (*ip).op2_type != IS_UNUSED {
        let k = take_value(vm, fp, ip, 2);
        if k.is_long() && k.lval() > (*g).largest_int_key {
            (*g).largest_int_key = k.lval();
        }
        Some(k)
    } else {
        None
    };
    let value = take_value(vm, fp, ip, 1);
    let key = key.unwrap_or_else(|| {
        (*g).largest_int_key = (*g).largest_int_key.wrapping_add(1);
        Zval::long((*g).largest_int_key)
    });
    let (old_v, old_k) = ((*g).value, (*g).key);
    (*g).value = value;
    (*g).key = key;
    old_v.ptr_dtor();
    old_k.ptr_dtor();
    if (*ip).result_type != IS_UNUSED {
        let r = operand::result(ip, fp);
        *r = Zval::NULL;
        (*g).send_target = r;
    } else {
        (*g).send_target = core::ptr::null_mut();
    }
    suspend(vm, g, f)
}

/// Leaves the generator's frame at its current opline.
unsafe fn suspend(vm: &mut Vm, g: *mut Generator, f: *mut Frame) -> Result<(), Thrown> {
    freeze_calls(vm, g, f);
    vm.cur = (*f).prev;
    Ok(())
}

/// YIELD_FROM op1: delegates to an array, a Traversable or a generator.
/// `Ok(true)`: the generator suspends (its delegate has values to give);
/// `Ok(false)`: go on with the next opline (a finished generator's return
/// value is in the result).
#[cold]
#[inline(never)]
pub unsafe fn yield_from(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    let f = fp as *mut Frame;
    (*f).opline = ip;
    vm.cur = f;
    let g = of_frame(fp);
    let v = take_value(vm, fp, ip, 1);
    if (*g).flags & FORCED_CLOSE != 0 {
        v.ptr_dtor();
        return Err(vm.throw_error("Error", "Cannot use \"yield from\" in a force-closed generator"));
    }
    let used = (*ip).result_type != IS_UNUSED;
    if v.is_array() {
        if used {
            *operand::result(ip, fp) = Zval::NULL;
        }
        let mut a = v;
        a.u2 = 0;
        (*g).values = a;
        (*g).values_index = 0;
        (*g).send_target = core::ptr::null_mut();
        suspend(vm, g, f)?;
        return Ok(true);
    }
    if v.is_object() && (*(*v.obj()).class).is_subclass_of_name(b"traversable") {
        if let Some(ig) = of(v.obj()) {
            
            if (*ig).frame.is_null() {
                v.ptr_dtor();
                return Err(vm.throw_error("Error", "Generator passed to yield from was aborted without proper return and is unable to continue"));
            }
            if (*ig).flags & RUNNING != 0 || ig == g {
                v.ptr_dtor();
                return Err(vm.throw_error("Error", "Impossible to yield from the Generator being currently run"));
            }
            // Run it to its first yield now (Zend's DO_INIT).
            if (*ig).flags & STARTED == 0 {
                (*g).flags |= RUNNING;
                let r = ensure_initialized(vm, ig);
                (*g).flags &= !RUNNING;
                vm.cur = f;
                if let Err(t) = r {
                    v.ptr_dtor();
                    return Err(t);
                }
                if (*ig).frame.is_null() {
                    if used {
                        *operand::result(ip, fp) = if (*ig).retval.is_undef() { Zval::NULL } else { (*ig).retval.copy_value() };
                    }
                    v.ptr_dtor();
                    return Ok(false);
                }
            }
            if used {
                *operand::result(ip, fp) = Zval::NULL;
            }
            (*g).inner = v.obj();
            (*g).send_target = core::ptr::null_mut();
            suspend(vm, g, f)?;
            return Ok(true);
        }
        let it = crate::exec::slow::iter::aggregate_iterator(vm, v)?;
        if let Err(t) = crate::exec::slow::iter::call0(vm, it.obj(), b"rewind").map(|r| r.ptr_dtor()) {
            it.ptr_dtor();
            return Err(t);
        }
        vm.cur = f;
        if used {
            *operand::result(ip, fp) = Zval::NULL;
        }
        (*g).values = it;
        (*g).values_index = 0;
        (*g).send_target = core::ptr::null_mut();
        suspend(vm, g, f)?;
        return Ok(true);
    }
    v.ptr_dtor();
    Err(vm.throw_error("Error", "Can use \"yield from\" only with arrays and Traversables"))
}

/// GENERATOR_RETURN op1: the generator's return value := op1; the
/// generator closes.
#[cold]
#[inline(never)]
pub unsafe fn generator_return(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    let f = fp as *mut Frame;
    (*f).opline = ip;
    vm.cur = f;
    let g = of_frame(fp);
    let v = take_value(vm, fp, ip, 1);
    let old = (*g).retval;
    (*g).retval = v;
    old.ptr_dtor();
    close(vm, g, true);
    vm.cur = (*f).prev;
    Ok(())
}

// ---------------------------------------------------------------- closing

/// Called by exception unwinding for a generator frame it has just
/// released (values, live temporaries, calls): the generator is closed.
pub unsafe fn unwound(f: *mut Frame) {
    let g = (*f).return_value as *mut Generator;
    (*g).frame = core::ptr::null_mut();
    (*g).send_target = core::ptr::null_mut();
}

/// Zend's `zend_generator_close`: releases the frame's values (and, when
/// the execution did not finish, its live temporaries and the calls being
/// prepared) and the delegates.
unsafe fn close(vm: &mut Vm, g: *mut Generator, finished: bool) {
    let f = (*g).frame;
    if f.is_null() {
        return;
    }
    (*g).frame = core::ptr::null_mut();
    (*g).send_target = core::ptr::null_mut();
    if !finished {
        discard_frozen(g);
        let op = op_array(f);
        if !(*f).opline.is_null() {
            let n = op.op_index((*f).opline);
            crate::exec::slow::exception::free_live_ranges(vm, f, op, n, u32::MAX);
        }
        crate::exec::slow::exception::drop_held(f);
    }
    // Clear the delegates first: their release may run code.
    let values = core::mem::replace(&mut (*g).values, Zval::UNDEF);
    let inner = core::mem::replace(&mut (*g).inner, core::ptr::null_mut());
    crate::exec::slow::call::free_frame_values(vm, f);
    values.ptr_dtor();
    if !inner.is_null() {
        Zval::object(inner).ptr_dtor();
    }
}

/// Zend's `zend_generator_dtor_storage`: a generator released while
/// suspended inside `try` runs the `finally` blocks around its yield
/// (catch blocks are not entered), then closes.
pub unsafe fn destroy(vm: &mut Vm, o: *mut ZObject) {
    let Some(g) = of(o) else { return };
        let values = core::mem::replace(&mut (*g).values, Zval::UNDEF);
    values.ptr_dtor();
    let inner = core::mem::replace(&mut (*g).inner, core::ptr::null_mut());
    if !inner.is_null() {
        Zval::object(inner).ptr_dtor();
    }
    let f = (*g).frame;
    if f.is_null() {
        return;
    }
    let op = op_array(f);
    if op.try_catch.is_empty() || vm.stop.is_some() || (*f).opline.is_null() || (*g).flags & RUNNING != 0 {
        close(vm, g, false);
        return;
    }
    let op_num = op.op_index((*f).opline);
    let mut current = None;
    for (i, tc) in op.try_catch.iter().enumerate() {
        if op_num < tc.try_op {
            break;
        }
        if op_num < tc.catch_op || op_num < tc.finally_end {
            current = Some(i);
        }
    }
    while let Some(i) = current {
        let tc = op.try_catch[i];
        if op_num < tc.finally_op {
            // Run the finally block with "no exception, return nowhere".
            discard_frozen(g);
            crate::exec::slow::exception::free_live_ranges(vm, f, op, op_num, tc.finally_op);
            let fc = Frame::slot(f, op.ops[tc.finally_end as usize].op1);
            crate::exec::slow::exception::set_no_return(fc);
            (*f).opline = op.entry().add(tc.finally_op as usize - 1);
            (*g).flags |= FORCED_CLOSE;
            let saved = vm.exception.take();
            // The object is alive during its own destruction.
            (*o).header.refcount += 1;
            let _ = run_frame(vm, g, None);
            (*o).header.refcount -= 1;
            if let Some(old) = saved {
                if vm.exception.is_some() {
                    crate::exec::slow::exception::chain_previous(vm, old);
                } else {
                    vm.exception = Some(old);
                }
            }
            break;
        } else if op_num < tc.finally_end {
            let fc = Frame::slot(f, op.ops[tc.finally_end as usize].op1);
            crate::exec::slow::exception::free_incomplete_return(f, op, fc);
            drop(crate::exec::slow::exception::take_stashed(fc));
        }
        current = i.checked_sub(1);
    }
    close(vm, g, false);
}

// ---------------------------------------------------------------- frozen calls

/// Copies the calls being prepared (on the VM stack above the frame) out,
/// before the generator suspends; the stack is popped back by `run_frame`.
unsafe fn freeze_calls(vm: &mut Vm, g: *mut Generator, f: *mut Frame) {
    let call = (*f).call;
    if call.is_null() {
        return;
    }
    let mut outer = call;
    while !(*outer).prev.is_null() {
        outer = (*outer).prev;
    }
    let start = outer as *mut u8;
    let end = vm.stack.top;
    let mut c = call;
    let mut contiguous = vm.stack.in_top_page(start);
    while !c.is_null() {
        contiguous &= (c as *mut u8) >= start && (c as *mut u8) < end;
        c = (*c).prev;
    }
    (*f).call = core::ptr::null_mut();
    if !contiguous {
        vm.fatal_internal("yield inside the arguments of a call that spans VM stack pages is not supported");
        return;
    }
    let n = (end as usize - start as usize) / 16;
    (*g).frozen = core::slice::from_raw_parts(start as *const Zval, n).to_vec();
    (*g).frozen_at = start as usize;
    (*g).frozen_call = call as usize - start as usize;
    for p in vm.pending_magic.iter_mut() {
        let a = p.0 as usize;
        if a >= start as usize && a < end as usize {
            p.0 = (a - start as usize) as *mut Frame;
        }
    }
}

/// Copies the frozen calls back onto the VM stack, relinking them.
unsafe fn thaw_calls(vm: &mut Vm, g: *mut Generator, f: *mut Frame) -> Result<(), Thrown> {
    if (*g).frozen.is_empty() {
        return Ok(());
    }
    let frozen = core::mem::take(&mut (*g).frozen);
    let bytes = frozen.len() * 16;
    let p = match vm.stack.alloc(bytes, vm.memory_limit) {
        Ok(p) => p as *mut u8,
        Err(e) => {
            discard_calls(frozen.as_ptr() as *mut u8, (*g).frozen_at, (*g).frozen_call);
            vm.memory_exhausted(e.tried);
            return Err(Thrown);
        }
    };
    core::ptr::copy_nonoverlapping(frozen.as_ptr() as *const u8, p, bytes);
    let old = (*g).frozen_at;
    let reloc = |a: *mut Frame| p.add(a as usize - old) as *mut Frame;
    let mut c = p.add((*g).frozen_call) as *mut Frame;
    (*f).call = c;
    while !(*c).prev.is_null() {
        (*c).prev = reloc((*c).prev);
        c = (*c).prev;
    }
    for m in vm.pending_magic.iter_mut() {
        let a = m.0 as usize;
        if a < bytes {
            m.0 = p.add(a) as *mut Frame;
        }
    }
    Ok(())
}

/// Releases the frozen calls' arguments and `$this` (the generator closes).
unsafe fn discard_frozen(g: *mut Generator) {
    if (*g).frozen.is_empty() {
        return;
    }
    let frozen = core::mem::take(&mut (*g).frozen);
    discard_calls(frozen.as_ptr() as *mut u8, (*g).frozen_at, (*g).frozen_call);
}

/// Frees the calls copied to `buf` (which were at address `at`).
unsafe fn discard_calls(buf: *mut u8, at: usize, innermost: usize) {
    let mut c = buf.add(innermost) as *mut Frame;
    loop {
        for i in 0..(*c).num_args() {
            (*Frame::slot(c, i)).ptr_dtor();
        }
        crate::exec::slow::call::release_this(c);
        let prev = (*c).prev;
        if prev.is_null() {
            break;
        }
        c = buf.add(prev as usize - at) as *mut Frame;
    }
}

// ---------------------------------------------------------------- resuming

/// Runs the generator's frame from where it stopped (or, with `throw`,
/// throws that exception at its yield) until it yields, returns or throws.
unsafe fn run_frame(vm: &mut Vm, g: *mut Generator, throw: Option<Exception>) -> Result<(), Thrown> {
    let f = (*g).frame;
    let caller = vm.cur;
    let mark = vm.stack.top;
    if let Err(t) = thaw_calls(vm, g, f) {
        drop(throw);
        return Err(t);
    }
    if vm.nesting >= vm.max_nesting {
        drop(throw);
        let msg = format!("Maximum function nesting level of '{}' reached, aborting!", vm.max_nesting);
        vm.fatal(&msg);
        return Err(Thrown);
    }
    (*f).prev = caller;
    (*g).send_target = core::ptr::null_mut();
    let ip = match throw {
        Some(e) => {
            vm.exception = Some(e);
            dispatch::exception_op(vm)
        }
        None => (*f).opline.add(1),
    };
    (*g).flags |= RUNNING;
    vm.cur = f;
    vm.nesting += 1;
    let r = dispatch::run(vm, ip, f as *mut Zval);
    vm.nesting -= 1;
    (*g).flags &= !RUNNING;
    let out = match r {
        Ret::Leave => Ok(()),
        _ => {
            if !(*g).frame.is_null() {
                // A fatal error or exit: abandon the frames above the
                // generator's and close it.
                let mut c = vm.cur;
                while !c.is_null() && c != f {
                    if !(*c).func.is_null() && (*(*c).func).is_user() {
                        crate::exec::slow::exception::drop_held(c);
                        crate::exec::slow::call::free_frame_values(vm, c);
                    }
                    c = (*c).prev;
                }
                (*f).call = core::ptr::null_mut();
                crate::exec::slow::exception::drop_held(f);
                (*g).frame = core::ptr::null_mut();
                (*g).send_target = core::ptr::null_mut();
                crate::exec::slow::call::free_frame_values(vm, f);
            }
            if vm.exception.is_some() || vm.stop.is_some() {
                Err(Thrown)
            } else {
                Ok(())
            }
        }
    };
    vm.cur = caller;
    vm.stack.release_to(mark);
    out
}

/// Moves an array or Iterator delegate on to its next value (Zend's
/// `zend_generator_get_next_delegated_value`); false when it is done.
unsafe fn next_delegated(vm: &mut Vm, g: *mut Generator) -> Result<bool, Thrown> {
    if (*g).values.is_array() {
        let a = &*(*g).values.arr();
        let Some(pos) = a.pos_valid_from((*g).values.u2) else {
            let v = core::mem::replace(&mut (*g).values, Zval::UNDEF);
            v.ptr_dtor();
            return Ok(false);
        };
        (*g).values.u2 = pos + 1;
        let Some((k, v)) = a.entry_at(pos) else { return Ok(false) };
        let value = (*v).copy_deref();
        let key = match k {
            crate::value::array::KeyRef::Int(i) => Zval::long(i),
            crate::value::array::KeyRef::Str(s) => Zval::string(s as *const ZString as *mut ZString).copy_value(),
        };
        set_current(g, value, key);
        return Ok(true);
    }
    let o = (*g).values.obj();
    let r = (|| {
        use crate::exec::slow::iter::{call0, iter_entry, iter_valid};
        if (*g).values_index > 0 {
            call0(vm, o, b"next")?.ptr_dtor();
        }
        (*g).values_index += 1;
        if !iter_valid(vm, o)? {
            return Ok(None);
        }
        iter_entry(vm, o, true).map(Some)
    })();
    match r {
        Ok(Some((v, k))) => {
            set_current(g, v, k);
            Ok(true)
        }
        other => {
            let v = core::mem::replace(&mut (*g).values, Zval::UNDEF);
            v.ptr_dtor();
            other.map(|_| false)
        }
    }
}

unsafe fn set_current(g: *mut Generator, value: Zval, key: Zval) {
    let (ov, ok) = ((*g).value, (*g).key);
    (*g).value = value;
    (*g).key = key;
    ov.ptr_dtor();
    ok.ptr_dtor();
}

/// The pending exception, taken to be thrown into a generator frame.
fn take_exception(vm: &mut Vm) -> Option<Exception> {
    if vm.stop.is_some() {
        return None;
    }
    vm.exception.take()
}

/// Zend's `zend_generator_resume`: advances the generator to its next
/// yield (through its delegates), or throws `throw` at its yield.
pub unsafe fn resume(vm: &mut Vm, g: *mut Generator, mut throw: Option<Exception>) -> Result<(), Thrown> {
    if (*g).frame.is_null() {
        if let Some(e) = throw {
            vm.exception = Some(e);
            return Err(Thrown);
        }
        return Ok(());
    }
    if (*g).flags & RUNNING != 0 {
        drop(throw);
        return Err(vm.throw_error("Error", "Cannot resume an already running generator"));
    }
    (*g).flags &= !AT_FIRST_YIELD;
    (*g).flags |= STARTED;
    // Advance the delegate first.
    if !(*g).inner.is_null() {
        let ig = of((*g).inner).expect("a generator delegate");
        // Traces show the inner generator called from the outer one.
        let f = (*g).frame;
        (*f).prev = vm.cur;
        let saved = vm.cur;
        vm.cur = f;
        (*g).flags |= RUNNING;
        let r = resume(vm, ig, throw.take());
        (*g).flags &= !RUNNING;
        vm.cur = saved;
        if r.is_ok() && !(*ig).frame.is_null() {
            return Ok(());
        }
        if vm.stop.is_some() {
            return Err(Thrown);
        }
        let inner = core::mem::replace(&mut (*g).inner, core::ptr::null_mut());
        if r.is_err() {
            throw = take_exception(vm);
        } else {
            let at = (*f).opline;
            if (*at).result_type != IS_UNUSED {
                let slot = operand::result(at, f as *mut Zval);
                let old = *slot;
                *slot = if (*ig).retval.is_undef() { Zval::NULL } else { (*ig).retval.copy_value() };
                old.ptr_dtor();
            }
        }
        Zval::object(inner).ptr_dtor();
    } else if !(*g).values.is_undef() {
        if throw.is_some() {
            let v = core::mem::replace(&mut (*g).values, Zval::UNDEF);
            v.ptr_dtor();
        } else if deliver_delegated(vm, g, &mut throw)? {
            return Ok(());
        }
    }
    loop {
        run_frame(vm, g, throw.take())?;
        if (*g).frame.is_null() {
            return Ok(());
        }
        // Suspended at YIELD_FROM: give the delegate's first value.
        if !(*g).inner.is_null() {
            return Ok(());
        }
        if (*g).values.is_undef() || deliver_delegated(vm, g, &mut throw)? {
            return Ok(());
        }
    }
}

/// `next_delegated` for `resume`: `Ok(true)` when a value was delivered;
/// `Ok(false)` when the delegate is done, or threw (the exception, in
/// `throw`, is then thrown at the `yield from`).
unsafe fn deliver_delegated(vm: &mut Vm, g: *mut Generator, throw: &mut Option<Exception>) -> Result<bool, Thrown> {
    match next_delegated(vm, g) {
        Ok(delivered) => Ok(delivered),
        Err(t) if vm.stop.is_some() => Err(t),
        Err(_) => {
            *throw = take_exception(vm);
            Ok(false)
        }
    }
}

/// Runs a generator that has not started to its first yield.
pub unsafe fn ensure_initialized(vm: &mut Vm, g: *mut Generator) -> Result<(), Thrown> {
    if (*g).flags & STARTED == 0 && !(*g).frame.is_null() {
        resume(vm, g, None)?;
        (*g).flags |= AT_FIRST_YIELD;
    }
    Ok(())
}

/// The generator whose value the generator shows: the innermost delegate.
unsafe fn leaf(g: *mut Generator) -> *mut Generator {
    let mut g = g;
    while !(*g).inner.is_null() {
        match of((*g).inner) {
            Some(i) if !(*i).frame.is_null() => g = i,
            _ => break,
        }
    }
    g
}

// ---------------------------------------------------------------- iteration from Rust

/// Whether the generator is still open (Zend's `valid()` after initializing).
pub unsafe fn valid(vm: &mut Vm, g: *mut Generator) -> Result<bool, Thrown> {
    ensure_initialized(vm, g)?;
    Ok(!(*g).frame.is_null())
}

/// The current value (owned; null when closed).
pub unsafe fn current(g: *mut Generator) -> Zval {
    shown(g, |l| &(*l).value)
}

/// The current key (owned; null when closed).
pub unsafe fn key(g: *mut Generator) -> Zval {
    shown(g, |l| &(*l).key)
}

/// A copy of the leaf's `field` (null when closed or not set).
unsafe fn shown(g: *mut Generator, field: impl Fn(*mut Generator) -> *const Zval) -> Zval {
    if (*g).frame.is_null() {
        return Zval::NULL;
    }
    let v = &*field(leaf(g));
    if v.is_undef() {
        Zval::NULL
    } else {
        v.copy_deref()
    }
}

/// FE_RESET on a generator (Zend's `zend_generator_get_iterator` and
/// iterator rewind): true when there is nothing to visit.
pub unsafe fn fe_reset(vm: &mut Vm, g: *mut Generator) -> Result<bool, Thrown> {
    if (*g).frame.is_null() {
        return Err(vm.throw_error("Exception", "Cannot traverse an already closed generator"));
    }
    rewind(vm, g)?;
    Ok((*g).frame.is_null())
}

/// FE_FETCH on a generator: advances (unless `first`), then gives the
/// value and key; `None` at the end.
pub unsafe fn fe_fetch(vm: &mut Vm, g: *mut Generator, first: bool) -> Result<Option<(Zval, Zval)>, Thrown> {
    if !first {
        ensure_initialized(vm, g)?;
        resume(vm, g, None)?;
    } else {
        ensure_initialized(vm, g)?;
    }
    if (*g).frame.is_null() {
        return Ok(None);
    }
    Ok(Some((current(g), key(g))))
}

unsafe fn rewind(vm: &mut Vm, g: *mut Generator) -> Result<(), Thrown> {
    ensure_initialized(vm, g)?;
    if (*g).flags & AT_FIRST_YIELD == 0 {
        return Err(vm.throw_error("Exception", "Cannot rewind a generator that was already run"));
    }
    Ok(())
}

// ---------------------------------------------------------------- the Generator class

type R = Result<(), Thrown>;

fn this_gen(vm: &mut Vm) -> Result<*mut Generator, Thrown> {
    // SAFETY: a builtin method runs in its own frame; `$this`, when set,
    // is live for the call.
    unsafe {
        let o = (*vm.cur).this_obj();
        match if o.is_null() { None } else { of(o) } {
            Some(g) => Ok(g),
            None => Err(vm.throw_error("Error", "Generator method called on something else")),
        }
    }
}

pub fn m_current(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    // SAFETY: `g` is the state of the live `$this`.
    unsafe {
        ensure_initialized(vm, g)?;
        *r = current(g);
    }
    Ok(())
}

pub fn m_key(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    // SAFETY: as above.
    unsafe {
        ensure_initialized(vm, g)?;
        *r = key(g);
    }
    Ok(())
}

pub fn m_next(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    // SAFETY: as above.
    unsafe {
        ensure_initialized(vm, g)?;
        resume(vm, g, None)
    }
}

pub fn m_valid(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    // SAFETY: as above.
    unsafe {
        *r = Zval::bool(valid(vm, g)?);
    }
    Ok(())
}

pub fn m_rewind(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    // SAFETY: as above.
    unsafe { rewind(vm, g) }
}

pub fn m_send(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    let v = a.first().copied().unwrap_or(Zval::NULL);
    // SAFETY: as above; the send target is a slot of the suspended frame.
    unsafe {
        ensure_initialized(vm, g)?;
        if (*g).frame.is_null() {
            return Ok(());
        }
        let l = leaf(g);
        if !(*l).send_target.is_null() && (*l).flags & RUNNING == 0 {
            let t = (*l).send_target;
            let old = *t;
            *t = v.copy_deref();
            old.ptr_dtor();
        }
        resume(vm, g, None)?;
        *r = current(g);
    }
    Ok(())
}

pub fn m_throw(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    let v = a.first().map(|v| v.copy_deref()).unwrap_or(Zval::NULL);
    // SAFETY: as above.
    unsafe {
        if !v.is_object() || !(*(*v.obj()).class).is_subclass_of_name(b"throwable") {
            let msg = format!("Generator::throw(): Argument #1 ($exception) must be of type Throwable, {} given", crate::exec::slow::call::zend_type_name(&v));
            v.ptr_dtor();
            return Err(vm.throw_error("TypeError", &msg));
        }
        let e = Exception::new(v.obj());
        if let Err(t) = ensure_initialized(vm, g) {
            drop(e);
            return Err(t);
        }
        if (*g).frame.is_null() {
            vm.exception = Some(e);
            return Err(Thrown);
        }
        // The exception goes to the innermost delegate's yield.
        resume(vm, g, Some(e))?;
        *r = current(g);
    }
    Ok(())
}

pub fn m_get_return(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> R {
    let g = this_gen(vm)?;
    // SAFETY: as above.
    unsafe {
        ensure_initialized(vm, g)?;
        if !(*g).retval.is_undef() {
            *r = (*g).retval.copy_deref();
            return Ok(());
        }
        Err(vm.throw_error("Exception", "Cannot get return value of a generator that hasn't returned"))
    }
}
