//! The opcode dump: op arrays printed in opcache's layout
//! (`opcache.opt_debug_level=0x10000`), so a Tusk dump diffs line by line
//! against PHP 8.2's "before optimizer" dump.
//!
//! Printed from the compile-form oplines (`OpArray::ops`, which `finalize`
//! keeps). Where Tusk's operand layout differs from Zend's (INIT_FCALL keeps
//! the argument count in op1, DECLARE_FUNCTION indexes `declared`), the
//! operands are printed in Zend's order.

use crate::compiler::Program;
use crate::ops::{LiveKind, Op, OpArray, Opcode, KIND_JMP_ADDR, KIND_NUM, IS_CONST, IS_CV, IS_TMP_VAR, IS_UNUSED, IS_VAR};
use crate::runtime::function::Function;
use crate::value::{Zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE};
use std::fmt::Write;

/// Dumps `p`: the main script, the functions it declares at run time, then
/// the top-level functions (each followed by its own nested declarations),
/// the order opcache visits them.
pub fn dump_program(p: &Program, out: &mut String) {
    dump_function(&p.main, out);
    for f in &p.functions {
        dump_function(f, out);
    }
    for c in &p.classes {
        // An enum's builtin methods (`cases`, `from`, `tryFrom`) have no op array.
        for m in c.methods.iter().filter(|m| m.func.is_user()) {
            dump_function(&m.func, out);
        }
    }
}

fn dump_function(f: &Function, out: &mut String) {
    dump_op_array(&f.op, out);
    for d in &f.op.declared {
        dump_function(d, out);
    }
    // Classes declared at run time (nested and anonymous ones).
    for c in &f.op.declared_classes {
        for m in c.methods.iter().filter(|m| m.func.is_user()) {
            dump_function(&m.func, out);
        }
    }
}

/// Dumps one op array (with its live ranges) in opcache's layout.
pub fn dump_op_array(op: &OpArray, out: &mut String) {
    let name = if op.name.is_empty() {
        "$_main".to_string()
    } else if !op.scope_name.is_empty() {
        // An anonymous class's name is printed up to its NUL, as C does.
        let scope = op.scope_name.split(|&b| b == 0).next().unwrap_or_default();
        format!("{}::{}", String::from_utf8_lossy(scope), String::from_utf8_lossy(&op.name))
    } else {
        String::from_utf8_lossy(&op.name).into_owned()
    };
    let _ = write!(
        out,
        "\n{name}:\n     ; (lines={}, args={}, vars={}, tmps={})\n     ; (before optimizer)\n     ; {}:{}-{}\n     ; return  [] RANGE[0..0]\n",
        op.ops.len(),
        op.num_args,
        op.cv_names.len(),
        op.num_tmps,
        op.filename,
        op.line_start,
        op.line_end
    );
    for (i, o) in op.ops.iter().enumerate() {
        let _ = write!(out, "{i:04} ");
        dump_op(op, o, out);
        out.push('\n');
    }
    if !op.live_ranges.is_empty() {
        out.push_str("LIVE RANGES:\n");
        for r in &op.live_ranges {
            let kind = match r.kind {
                LiveKind::Tmp => "tmp/var",
                LiveKind::Loop => "loop",
                LiveKind::Silence => "silence",
                LiveKind::Rope => "rope",
                LiveKind::New => "new",
            };
            let _ = writeln!(out, "     {}: {:04} - {:04} ({kind})", r.var, r.start, r.end);
        }
    }
    if !op.try_catch.is_empty() {
        out.push_str("EXCEPTION TABLE:\n");
        // opcache ends an entry with a newline only when it has no finally
        // block (its format for finally_end lacks the `\n`): entries with
        // one run on into the next entry or function header.
        for t in &op.try_catch {
            let _ = write!(out, "     {:04}", t.try_op);
            let opt = |v: u32| if v != 0 { format!(", {v:04}") } else { ", -".to_string() };
            let _ = write!(out, "{}{}", opt(t.catch_op), opt(t.finally_op));
            if t.finally_end != 0 {
                let _ = write!(out, ", {:04}", t.finally_end);
            } else {
                out.push_str(", -\n");
            }
        }
    }
}

fn var(op: &OpArray, kind: u8, n: u32, out: &mut String) {
    match kind {
        IS_CV => {
            let name = op.cv_names.get(n as usize).map(|v| String::from_utf8_lossy(v).into_owned()).unwrap_or_default();
            let _ = write!(out, "CV{n}(${name})");
        }
        IS_VAR => {
            let _ = write!(out, "V{n}");
        }
        IS_TMP_VAR => {
            let _ = write!(out, "T{n}");
        }
        _ => {
            let _ = write!(out, "X{n}");
        }
    }
}

/// A literal as opcache prints it (C's `%g` for floats, raw string bytes).
pub fn fmt_const(v: &Zval, out: &mut String) {
    match v.kind() {
        IS_NULL => out.push_str(" null"),
        IS_FALSE => out.push_str(" bool(false)"),
        IS_TRUE => out.push_str(" bool(true)"),
        IS_LONG => {
            let _ = write!(out, " int({})", v.lval());
        }
        IS_DOUBLE => {
            let _ = write!(out, " float({})", fmt_g(v.dval()));
        }
        IS_STRING => {
            // SAFETY: a literal string is a live, immutable box owned by its op array.
            let bytes = unsafe { (*v.str()).bytes() };
            // `%s` stops at the first NUL byte.
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            let _ = write!(out, " string(\"{}\")", String::from_utf8_lossy(&bytes[..end]));
        }
        IS_ARRAY => out.push_str(" array(...)"),
        crate::value::IS_CONSTANT_AST => out.push_str(" zval(type=11)"),
        _ => out.push_str(" ???"),
    }
}

/// C's `printf("%g", v)`: 6 significant digits, trailing zeros removed,
/// exponent form below 1e-4 and from 1e6 on.
pub fn fmt_g(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = format!("{:.5e}", v);
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let mant = strip_zeros(mant);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (5 - exp).max(0) as usize;
        strip_zeros(&format!("{:.*}", decimals, v)).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn operand(op: &OpArray, kind: u8, val: u32, meta_kinds: u16, next: bool, out: &mut String) {
    match kind {
        IS_CONST => match op.literals.get(val as usize) {
            Some(v) => fmt_const(v, out),
            None => out.push_str(" ???"),
        },
        IS_TMP_VAR | IS_VAR | IS_CV => {
            out.push(' ');
            var(op, kind, val, out);
        }
        _ => {
            if meta_kinds & KIND_JMP_ADDR != 0 {
                let _ = write!(out, " {val:04}");
            } else if meta_kinds & KIND_NUM != 0 {
                let _ = write!(out, " {val}");
            } else if next {
                out.push_str(" NEXT");
            }
        }
    }
}

fn cast_name(kind: u32) -> &'static str {
    match kind {
        1 => "null",
        2 => "false",
        3 => "true",
        4 => "long",
        5 => "double",
        6 => "string",
        7 => "array",
        8 => "object",
        9 => "resource",
        18 => "bool",
        _ => "???",
    }
}

fn opcode_name(n: u32) -> &'static str {
    crate::ops::OPCODE_META.get(n as usize).map_or("???", |m| m.name)
}

fn dump_op(oa: &OpArray, o: &Op, out: &mut String) {
    let code = o.opcode();
    let meta = code.meta();
    if o.result_type & (IS_TMP_VAR | IS_VAR | IS_CV) != 0 {
        var(oa, o.result_type, o.result, out);
        out.push_str(" = ");
    }
    out.push_str(meta.name);
    // Opcodes whose operands Tusk keeps in other places than Zend prints them.
    match code {
        Opcode::InitFcall => {
            let _ = write!(out, " {} {}", o.op1, o.extended_value);
            operand(oa, o.op2_type, o.op2, meta.op2, false, out);
            return;
        }
        Opcode::InitFcallByName | Opcode::InitDynamicCall => {
            let _ = write!(out, " {}", o.op1);
            operand(oa, o.op2_type, o.op2, meta.op2, false, out);
            return;
        }
        // The last CATCH has no next catch to jump to.
        Opcode::Catch if o.extended_value & crate::exec::slow::exception::LAST_CATCH != 0 => {
            operand(oa, o.op1_type, o.op1, meta.op1, false, out);
            return;
        }
        // op2: the enclosing try/catch entry, printed when there is one.
        Opcode::FastRet => {
            operand(oa, o.op1_type, o.op1, meta.op1, false, out);
            if o.op2 != u32::MAX {
                let _ = write!(out, " try-catch({})", o.op2);
            }
            return;
        }
        Opcode::DeclareFunction => {
            let name = oa.declared.get(o.op1 as usize).map(|f| String::from_utf8_lossy(&f.op.name).to_lowercase());
            let _ = write!(out, " string(\"{}\") {}", name.unwrap_or_default(), o.op1);
            return;
        }
        _ => {}
    }
    // Zend's extended_value annotations, printed before the operands.
    if matches!(
        code,
        Opcode::FetchR | Opcode::FetchW | Opcode::FetchRw | Opcode::FetchIs | Opcode::FetchUnset | Opcode::IssetIsemptyVar | Opcode::UnsetVar
    ) {
        out.push_str(match o.extended_value & 0xe {
            2 => " (global)",
            4 => " (local)",
            8 => " (global+lock)",
            _ => "",
        });
    }
    match code {
        Opcode::RopeInit | Opcode::RopeAdd | Opcode::RopeEnd | Opcode::InArray | Opcode::Ticks => {
            let _ = write!(out, " {}", o.extended_value);
        }
        Opcode::AssignOp | Opcode::AssignDimOp => {
            let _ = write!(out, " ({})", opcode_name(o.extended_value));
        }
        Opcode::Cast => {
            let _ = write!(out, " ({})", cast_name(o.extended_value));
        }
        Opcode::IssetIsemptyCv | Opcode::IssetIsemptyDimObj | Opcode::IssetIsemptyVar => {
            out.push_str(if o.extended_value & 1 != 0 { " (empty)" } else { " (isset)" });
        }
        Opcode::InitArray => {
            let _ = write!(out, " {}", o.extended_value >> 2);
            if o.extended_value & 2 == 0 {
                out.push_str(" (packed)");
            }
            if o.extended_value & 1 != 0 {
                out.push_str(" (ref)");
            }
        }
        Opcode::AddArrayElement => {
            if o.extended_value & 1 != 0 {
                out.push_str(" (ref)");
            }
        }
        Opcode::BindStatic | Opcode::BindLexical if o.extended_value & crate::exec::slow::closure::BIND_REF != 0 => out.push_str(" (ref)"),
        Opcode::AssignRef | Opcode::ReturnByRef if o.extended_value == 1 => out.push_str(" (function)"),
        _ => {}
    }
    let next2 = matches!(
        code,
        Opcode::AssignDim | Opcode::AssignDimOp | Opcode::FetchDimW | Opcode::FetchDimRw | Opcode::InitArray | Opcode::AddArrayElement
    );
    operand(oa, o.op1_type, o.op1, meta.op1, false, out);
    operand(oa, o.op2_type, o.op2, meta.op2, next2, out);
    if matches!(code, Opcode::FeFetchR | Opcode::FeFetchRw) {
        let _ = write!(out, " {:04}", o.extended_value);
    }
    let _ = IS_UNUSED;
}

#[cfg(test)]
mod tests {
    use super::fmt_g;

    #[test]
    fn floats_print_like_c_percent_g() {
        assert_eq!(fmt_g(1.5), "1.5");
        assert_eq!(fmt_g(std::f64::consts::PI), "3.14159");
        assert_eq!(fmt_g(1e6), "1e+06");
        assert_eq!(fmt_g(123456.0), "123456");
        assert_eq!(fmt_g(1234567.0), "1.23457e+06");
        assert_eq!(fmt_g(0.0001), "0.0001");
        assert_eq!(fmt_g(0.00001), "1e-05");
        assert_eq!(fmt_g(-2.0), "-2");
        assert_eq!(fmt_g(0.1 + 0.2), "0.3");
        assert_eq!(fmt_g(f64::INFINITY), "inf");
    }
}
