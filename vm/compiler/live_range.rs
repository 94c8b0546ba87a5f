//! Live ranges of temporaries, computed as Zend's `zend_calc_live_ranges`
//! does: a backward scan over the compile-form oplines that pairs each
//! TMP/VAR definition with its last consumer.
//!
//! A range `[start, end)` says "slot `var` holds a value the frame owns while
//! the opline at `start..end` runs"; exception unwinding frees it (or, for a
//! `Silence` range, restores the error level). Ranges that cover no opline
//! (a value consumed by the very next opline) are not recorded.

use crate::ops::{LiveKind, LiveRange, Op, Opcode, IS_TMP_VAR, IS_VAR};

fn is_tmpvar(kind: u8) -> bool {
    kind & (IS_TMP_VAR | IS_VAR) != 0
}

/// Opcodes that only add to an existing result (the rope or array being built).
fn is_fake_def(op: &Op) -> bool {
    matches!(op.opcode(), Opcode::RopeAdd | Opcode::AddArrayElement | Opcode::AddArrayUnpack)
}

/// Opcodes that read op1 without consuming it (something later frees it).
fn keeps_op1_alive(op: &Op) -> bool {
    matches!(op.opcode(), Opcode::FetchListR | Opcode::FetchListW | Opcode::CopyTmp | Opcode::Case | Opcode::CaseStrict | Opcode::SwitchLong | Opcode::SwitchString | Opcode::Match | Opcode::MatchError)
}

/// Computes the live ranges of `ops` (compile form, operands already slot
/// numbers: CVs `0..num_cvs`, temporaries after them), sorted by start.
pub fn compute(ops: &[Op], num_cvs: u32, num_tmps: u32) -> Vec<LiveRange> {
    const NONE: u32 = u32::MAX;
    let mut last_use = vec![NONE; num_tmps as usize];
    let mut out = Vec::new();
    let idx = |slot: u32| -> Option<usize> {
        slot.checked_sub(num_cvs).map(|t| t as usize).filter(|&t| t < num_tmps as usize)
    };
    for opnum in (0..ops.len()).rev() {
        let op = &ops[opnum];
        let opnum = opnum as u32;
        if is_tmpvar(op.result_type) && !is_fake_def(op) {
            if let Some(t) = idx(op.result) {
                if last_use[t] != NONE {
                    if opnum + 1 != last_use[t] {
                        emit(ops, &mut out, op.result, opnum, last_use[t]);
                    }
                    last_use[t] = NONE;
                }
            }
        }
        if is_tmpvar(op.op1_type) {
            if let Some(t) = idx(op.op1) {
                // A FREE_ON_RETURN free (early exits, `??=` memo copies)
                // is not the end of the value's range.
                let on_return = op.opcode() == Opcode::Free && op.extended_value == 1;
                if last_use[t] == NONE && !keeps_op1_alive(op) && !on_return {
                    // OP_DATA is really part of the previous opline.
                    last_use[t] = opnum - (op.opcode() == Opcode::OpData) as u32;
                }
            }
        }
        if is_tmpvar(op.op2_type) {
            if let Some(t) = idx(op.op2) {
                if matches!(op.opcode(), Opcode::FeFetchR | Opcode::FeFetchRw) {
                    // op2 of FE_FETCH is a definition, not a use.
                    if last_use[t] != NONE {
                        if opnum + 1 != last_use[t] {
                            emit(ops, &mut out, op.op2, opnum, last_use[t]);
                        }
                        last_use[t] = NONE;
                    }
                } else if last_use[t] == NONE {
                    last_use[t] = opnum;
                }
            }
        }
    }
    out.reverse();
    // Mostly sorted already; a stable sort keeps Zend's order among equal starts.
    if out.windows(2).any(|w| w[0].start > w[1].start) {
        out.sort_by_key(|r| r.start);
    }
    out
}

/// `emit_live_range`: the range of `var` defined at `start`, last used at `end`.
fn emit(ops: &[Op], out: &mut Vec<LiveRange>, var: u32, start: u32, end: u32) {
    let kind = match ops[start as usize].opcode() {
        // Booleans need no destruction.
        Opcode::JmpzEx | Opcode::JmpnzEx | Opcode::Bool | Opcode::BoolNot => return,
        // FAST_CALL vars are handled by the exception table, not freed.
        Opcode::FastCall => return,
        Opcode::BeginSilence => {
            out.push(LiveRange { var, start: start + 1, end, kind: LiveKind::Silence });
            return;
        }
        // Rope ranges include the ROPE_INIT itself.
        Opcode::RopeInit => {
            out.push(LiveRange { var, start, end, kind: LiveKind::Rope });
            return;
        }
        Opcode::FeResetR | Opcode::FeResetRw => LiveKind::Loop,
        Opcode::New => LiveKind::New,
        _ => LiveKind::Tmp,
    };
    out.push(LiveRange { var, start: start + 1, end, kind });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{IS_CONST, IS_CV, IS_UNUSED};

    fn op(code: Opcode, op1: (u8, u32), op2: (u8, u32), res: (u8, u32)) -> Op {
        let mut o = Op::new(code, 1);
        o.op1_type = op1.0;
        o.op1 = op1.1;
        o.op2_type = op2.0;
        o.op2 = op2.1;
        o.result_type = res.0;
        o.result = res.1;
        o
    }
    const U: (u8, u32) = (IS_UNUSED, 0);

    #[test]
    fn call_result_live_across_second_call() {
        // fibo($n-1) + fibo($n-2): V4 lives over the second call.
        let ops = vec![
            op(Opcode::InitFcallByName, (IS_UNUSED, 1), (IS_CONST, 0), U),
            op(Opcode::Sub, (IS_CV, 0), (IS_CONST, 1), (IS_TMP_VAR, 3)),
            op(Opcode::SendValEx, (IS_TMP_VAR, 3), (IS_UNUSED, 1), U),
            op(Opcode::DoFcallByName, U, U, (IS_VAR, 4)),
            op(Opcode::InitFcallByName, (IS_UNUSED, 1), (IS_CONST, 0), U),
            op(Opcode::Sub, (IS_CV, 0), (IS_CONST, 2), (IS_TMP_VAR, 5)),
            op(Opcode::SendValEx, (IS_TMP_VAR, 5), (IS_UNUSED, 1), U),
            op(Opcode::DoFcallByName, U, U, (IS_VAR, 6)),
            op(Opcode::Add, (IS_VAR, 4), (IS_VAR, 6), (IS_TMP_VAR, 7)),
            op(Opcode::Return, (IS_TMP_VAR, 7), U, U),
        ];
        let r = compute(&ops, 1, 7);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].var, r[0].start, r[0].end, r[0].kind), (4, 4, 8, LiveKind::Tmp));
    }

    #[test]
    fn foreach_loop_and_rope() {
        let ops = vec![
            op(Opcode::FeResetR, (IS_CV, 0), (IS_UNUSED, 6), (IS_VAR, 2)),
            op(Opcode::FeFetchR, (IS_VAR, 2), (IS_CV, 1), U),
            op(Opcode::RopeInit, U, (IS_CONST, 0), (IS_TMP_VAR, 4)),
            op(Opcode::RopeAdd, (IS_TMP_VAR, 4), (IS_CV, 1), (IS_TMP_VAR, 4)),
            op(Opcode::RopeEnd, (IS_TMP_VAR, 4), (IS_CONST, 1), (IS_TMP_VAR, 3)),
            op(Opcode::Echo, (IS_TMP_VAR, 3), U, U),
            op(Opcode::Jmp, (IS_UNUSED, 1), U, U),
            op(Opcode::FeFree, (IS_VAR, 2), U, U),
        ];
        let r = compute(&ops, 2, 6);
        let got: Vec<_> = r.iter().map(|r| (r.var, r.start, r.end, r.kind)).collect();
        assert_eq!(got, vec![(2, 1, 7, LiveKind::Loop), (4, 2, 4, LiveKind::Rope)]);
    }

    #[test]
    fn booleans_and_next_opline_uses_have_no_range() {
        let ops = vec![
            op(Opcode::JmpzEx, (IS_CV, 0), (IS_UNUSED, 2), (IS_TMP_VAR, 1)),
            op(Opcode::Bool, (IS_CV, 0), U, (IS_TMP_VAR, 1)),
            op(Opcode::Echo, (IS_CONST, 0), U, U),
            op(Opcode::Echo, (IS_TMP_VAR, 1), U, U),
        ];
        assert!(compute(&ops, 1, 1).is_empty());
    }
}
