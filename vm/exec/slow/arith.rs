//! Arithmetic slow paths: every kind pair that isn't int/int or float/float.

use super::{diag, raise, read1, read2, take};
use crate::exec::{Thrown, Vm};
use crate::ops::{Op, Opcode, IS_TMP_VAR};
use crate::value::{arith, convert, ZString, Zval, IS_DOUBLE};

#[inline(always)]
pub fn add_long(a: i64, b: i64) -> Zval {
    match a.checked_add(b) {
        Some(r) => Zval::long(r),
        None => Zval::double(a as f64 + b as f64),
    }
}
#[inline(always)]
pub fn sub_long(a: i64, b: i64) -> Zval {
    match a.checked_sub(b) {
        Some(r) => Zval::long(r),
        None => Zval::double(a as f64 - b as f64),
    }
}
#[inline(always)]
pub fn mul_long(a: i64, b: i64) -> Zval {
    match a.checked_mul(b) {
        Some(r) => Zval::long(r),
        None => Zval::double(a as f64 * b as f64),
    }
}

/// `a <op> b` for the int/int cases compound assignment takes inline
/// (`op` is an `Opcode` as u32); `None` sends the rest to the slow path.
#[inline(always)]
pub fn long_op(op: u32, a: i64, b: i64) -> Option<Zval> {
    const ADD: u32 = Opcode::Add as u32;
    const SUB: u32 = Opcode::Sub as u32;
    const MUL: u32 = Opcode::Mul as u32;
    const AND: u32 = Opcode::BwAnd as u32;
    const OR: u32 = Opcode::BwOr as u32;
    const XOR: u32 = Opcode::BwXor as u32;
    Some(match op {
        ADD => add_long(a, b),
        SUB => sub_long(a, b),
        MUL => mul_long(a, b),
        AND => Zval::long(a & b),
        OR => Zval::long(a | b),
        XOR => Zval::long(a ^ b),
        _ => return None,
    })
}

/// Both operands are floats, tested on the two type words at once (one
/// branch; and LLVM keeps it after the handlers' int test instead of
/// merging both into one switch on op1's kind that tests float first).
#[inline(always)]
pub fn both_double_kinds(a: &Zval, b: &Zval) -> bool {
    ((a.kind() as u32) << 8 | b.kind() as u32) == ((IS_DOUBLE as u32) << 8 | IS_DOUBLE as u32)
}

/// Both operands as floats when each is a float or an int and at least one is a float.
#[inline(always)]
pub fn both_double(a: &Zval, b: &Zval) -> Option<(f64, f64)> {
    match (a.is_double(), b.is_double()) {
        (true, true) => Some((a.dval(), b.dval())),
        (true, false) if b.is_long() => Some((a.dval(), b.lval() as f64)),
        (false, true) if a.is_long() => Some((a.lval() as f64, b.dval())),
        _ => None,
    }
}

/// `op1 <opcode> op2` for any kinds (operands read here; the handler frees them).
#[cold]
#[inline(never)]
pub unsafe fn binary(vm: &mut Vm, fp: *mut Zval, ip: *const Op, opcode: Opcode) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let a = read1(vm, fp, ip);
    let b = read2(vm, fp, ip);
    apply(vm, opcode, &*a, &*b)
}

/// Applies a binary arithmetic/bitwise/concat opcode to two dereferenced values.
pub fn apply(vm: &mut Vm, opcode: Opcode, a: &Zval, b: &Zval) -> Result<Zval, Thrown> {
    let (a, b) = (a.deref(), b.deref());
    let mut d = diag(vm);
    let r = match opcode {
        Opcode::Add => arith::add(a, b, &mut d),
        Opcode::Sub => arith::sub(a, b, &mut d),
        Opcode::Mul => arith::mul(a, b, &mut d),
        Opcode::Div => arith::div(a, b, &mut d),
        Opcode::Mod => arith::modulo(a, b, &mut d),
        Opcode::Pow => arith::pow(a, b, &mut d),
        Opcode::Sl => arith::shl(a, b, &mut d),
        Opcode::Sr => arith::shr(a, b, &mut d),
        Opcode::BwOr => arith::bw_or(a, b, &mut d),
        Opcode::BwAnd => arith::bw_and(a, b, &mut d),
        Opcode::BwXor => arith::bw_xor(a, b, &mut d),
        Opcode::Concat | Opcode::FastConcat => arith::concat(a, b, &mut d),
        _ => Ok(Zval::NULL),
    };
    drop(d);
    r.map_err(|t| raise(vm, t))
}

/// `op(op1)` for unary opcodes.
#[cold]
#[inline(never)]
pub unsafe fn unary(vm: &mut Vm, fp: *mut Zval, ip: *const Op, opcode: Opcode) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let a = read1(vm, fp, ip);
    let mut d = diag(vm);
    let r = match opcode {
        Opcode::BwNot => arith::bw_not(&*a, &mut d),
        _ => Ok(Zval::NULL),
    };
    drop(d);
    r.map_err(|t| raise(vm, t))
}

/// `op1 . op2`, consuming both. A uniquely owned TMP string on the left is
/// extended in place.
#[inline(never)]
pub unsafe fn concat(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let a = take(vm, fp, ip, 1);
    let b = take(vm, fp, ip, 2);
    let had = vm.exception.is_some();
    let r = concat_values(vm, a, &b, (*ip).op1_type == IS_TMP_VAR);
    b.ptr_dtor();
    if !had && vm.exception.is_some() {
        r.ptr_dtor();
        return Err(Thrown);
    }
    Ok(r)
}

/// `a . b` where `a` is owned (and consumed) and `b` borrowed.
pub unsafe fn concat_values(vm: &mut Vm, a: Zval, b: &Zval, reuse: bool) -> Zval {
    if reuse && a.is_string() && a.is_refcounted() && (*a.str()).header.refcount == 1 {
        if b.is_string() {
            let s = ZString::append(a.str(), (*b.str()).bytes());
            return Zval::string(s);
        }
        if b.is_long() {
            let mut nb = [0u8; 20];
            let s = ZString::append(a.str(), crate::value::number::fmt_i64(b.lval(), &mut nb));
            return Zval::string(s);
        }
        let mut buf = Vec::new();
        to_string_into(vm, b, &mut buf);
        return Zval::string(ZString::append(a.str(), &buf));
    }
    // Strings and ints (no warning possible): one allocation, no Vec.
    let (mut na, mut nb) = ([0u8; 20], [0u8; 20]);
    if let (Some(x), Some(y)) = (plain_bytes(&a, &mut na), plain_bytes(b, &mut nb)) {
        let s = ZString::concat(x, y);
        a.ptr_dtor();
        return Zval::string(s);
    }
    let mut buf = Vec::new();
    to_string_into(vm, &a, &mut buf);
    to_string_into(vm, b, &mut buf);
    a.ptr_dtor();
    Zval::string(ZString::new(&buf))
}

/// The string form of a string or int value (behind a reference too), or
/// None for other kinds.
#[inline]
fn plain_bytes<'a>(v: &'a Zval, buf: &'a mut [u8; 20]) -> Option<&'a [u8]> {
    let v = v.deref();
    if v.is_string() {
        // SAFETY: a string-kind value holds a live string, borrowed as long as `v`.
        Some(unsafe { (*v.str()).bytes() })
    } else if v.is_long() {
        Some(crate::value::number::fmt_i64(v.lval(), buf))
    } else {
        None
    }
}

/// String conversion with PHP's warning for arrays.
pub fn to_string_into(vm: &mut Vm, v: &Zval, out: &mut Vec<u8>) {
    let v = v.deref();
    if v.is_array() {
        vm.warning("Array to string conversion");
    }
    if v.is_object() {
        // SAFETY: object-kind values hold a live object. A throw stays
        // pending (the caller's next check raises it).
        if let Ok(s) = unsafe { super::object::object_to_string(vm, v.obj()) } {
            // SAFETY: `s` is a live string we own one reference to.
            unsafe {
                out.extend_from_slice((*s).bytes());
                Zval::string(s).ptr_dtor();
            }
        }
        return;
    }
    convert::append_string(v, out);
}
