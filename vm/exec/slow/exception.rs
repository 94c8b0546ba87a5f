//! HANDLE_EXCEPTION: find the catch/finally covering the throwing opline,
//! free the live temporaries and prepared calls, or unwind to the caller.

use crate::exec::frame::Frame;
use crate::exec::Vm;
use crate::ops::{slot_offset, LiveKind, Op};
use crate::runtime::error::Level;
use crate::value::Zval;

/// Continues after a throw in the frame at `fp` (its `opline` is the throwing
/// one). `None`: the run is over (uncaught, fatal error or exit).
#[cold]
#[inline(never)]
pub unsafe fn handle(vm: *mut Vm, fp: *mut Zval) -> Option<(*const Op, *mut Zval)> {
    let vm = &mut *vm;
    let mut f = fp as *mut Frame;
    loop {
        if (*f).func.is_null() || !(*(*f).func).is_user() {
            return None;
        }
        let op = &(*(*f).func).op;
        let throw_op = (*f).opline;
        let op_num = if throw_op.is_null() { 0 } else { op.op_index(throw_op) };
        free_unfinished_calls(f);
        // The innermost try block covering the throw, when the pending
        // problem is an exception (fatal errors and exit skip catch blocks).
        if vm.stop.is_none() && vm.exception.is_some() {
            let mut target = None;
            for tc in op.try_catch.iter().rev() {
                if tc.try_op <= op_num && (op_num < tc.catch_op || (tc.catch_op == 0 && op_num < tc.finally_op)) {
                    target = Some(if tc.catch_op != 0 { tc.catch_op } else { tc.finally_op });
                    break;
                }
            }
            if let Some(t) = target {
                free_live_ranges(f, op, op_num, t);
                return Some((op.entry().add(t as usize), f as *mut Zval));
            }
        }
        free_live_ranges(f, op, op_num, u32::MAX);
        // Unwind this frame.
        super::call::free_frame_values(f);
        let prev = (*f).prev;
        let top = (*f).this.type_info & super::call::CALL_TOP != 0;
        vm.stack.free(f as *mut Zval);
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
    }
}

/// Frees the live temporaries of `f` at `op_num` (whose range does not
/// extend to a catch target `upto`).
unsafe fn free_live_ranges(f: *mut Frame, op: &crate::ops::OpArray, op_num: u32, upto: u32) {
    for r in &op.live_ranges {
        if r.start <= op_num && op_num < r.end && !(r.start <= upto && upto < r.end) {
            let slot = (f as *mut u8).add(slot_offset(r.var) as usize) as *mut Zval;
            match r.kind {
                LiveKind::Tmp | LiveKind::Loop | LiveKind::New => (*slot).ptr_dtor(),
                LiveKind::Silence => {}
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
        super::call::release_this(call);
        call = (*call).prev;
    }
    (*f).call = core::ptr::null_mut();
}

/// `Fatal error: Uncaught …`.
pub fn report_uncaught(vm: &mut Vm) {
    if let Some(e) = vm.exception.take() {
        let msg = e.uncaught_message();
        vm.report_at(Level::Fatal, msg.as_bytes(), &e.file, e.line);
        vm.stop = Some(crate::runtime::error::Stop::Fatal(msg));
    }
}
