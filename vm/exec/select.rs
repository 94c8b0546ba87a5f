//! Handler selection: the last compiler pass picks each opline's specialized
//! handler from the generated table, by operand kinds and spec.

use super::handlers::{lookup, SpecKey};
use crate::ops::{Op, Opcode, IS_CONST, IS_CV, IS_TMP_VAR, IS_UNUSED, IS_VAR};

fn rank(kind: u8) -> u8 {
    match kind {
        IS_CONST => 0,
        IS_TMP_VAR | IS_VAR => 1,
        IS_CV => 2,
        _ => 0,
    }
}

/// Spec of `ops[i]` given its neighbour.
fn spec_of(ops: &[Op], i: usize) -> SpecKey {
    let op = &ops[i];
    let meta = op.opcode().meta();
    let next = ops.get(i + 1);
    let mut smart = 0;
    if meta.smart_branch && op.result_type == IS_TMP_VAR {
        if let Some(n) = next {
            if n.op1_type == IS_TMP_VAR && n.op1 == op.result {
                smart = match n.opcode() {
                    Opcode::Jmpz => 1,
                    Opcode::Jmpnz => 2,
                    _ => 0,
                };
            }
        }
    }
    let op_data = if meta.op_data != 0 { next.map_or(0, |n| n.op1_type) } else { 0 };
    SpecKey { smart, retval_used: op.result_type != IS_UNUSED, op_data }
}

/// Selects the handler of every opline (compile form; may swap the operands
/// of commutative opcodes so that the CONST one comes second).
pub fn select_handlers(ops: &mut [Op]) {
    for i in 0..ops.len() {
        let meta = ops[i].opcode().meta();
        if meta.commutative && rank(ops[i].op1_type) < rank(ops[i].op2_type) {
            let op = &mut ops[i];
            core::mem::swap(&mut op.op1, &mut op.op2);
            core::mem::swap(&mut op.op1_type, &mut op.op2_type);
        }
        let spec = spec_of(ops, i);
        let op = &mut ops[i];
        op.handler = lookup(op.opcode(), op.op1_type, op.op2_type, spec).unwrap_or(super::unselected_handler);
    }
}

/// True when `ops[i]` was given a smart-branch instance (its result is not
/// written; the following JMPZ/JMPNZ is taken by it).
pub fn is_smart_branch(ops: &[Op], i: usize) -> bool {
    spec_of(ops, i).smart != 0
}

/// The handler of a lone opline (no neighbour, result as declared).
pub fn handler_of(op: &Op) -> super::Handler {
    let spec = SpecKey { smart: 0, retval_used: op.result_type != IS_UNUSED, op_data: 0 };
    lookup(op.opcode(), op.op1_type, op.op2_type, spec).unwrap_or(super::unselected_handler)
}
