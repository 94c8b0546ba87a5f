//! ext/standard string functions.

use super::args;
use crate::exec::{Thrown, Vm};
use crate::value::{ZString, Zval};

pub fn strlen(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "strlen", a, 1, 1)?;
    let s = args::string(vm, "strlen", 1, "string", &a[0])?;
    *r = Zval::long(s.len() as i64);
    Ok(())
}

pub fn str_repeat(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "str_repeat", a, 2, 2)?;
    let s = args::string(vm, "str_repeat", 1, "string", &a[0])?;
    let n = args::long(vm, "str_repeat", 2, "times", &a[1])?;
    if n < 0 {
        return Err(vm.throw_error("ValueError", "str_repeat(): Argument #2 ($times) must be greater than or equal to 0"));
    }
    let total = s.len().saturating_mul(n as usize);
    if total > vm.memory_limit {
        vm.memory_exhausted(total);
        return Err(Thrown);
    }
    *r = Zval::string(ZString::new(&s.repeat(n as usize)));
    Ok(())
}

pub fn implode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "implode", a, 1, 2)?;
    let (sep, arr) = if a.len() == 1 {
        let arr = a[0].deref();
        if !arr.is_array() {
            return Err(vm.throw_error("TypeError", &format!("implode(): Argument #1 ($pieces) must be of type array, {} given", super::type_name(arr))));
        }
        (Vec::new(), arr.arr())
    } else if a[0].deref().is_array() {
        let sep = args::string(vm, "implode", 2, "array", &a[1])?;
        (sep, a[0].deref().arr())
    } else {
        let sep = args::string(vm, "implode", 1, "separator", &a[0])?;
        let arr = a[1].deref();
        if !arr.is_array() {
            return Err(vm.throw_error("TypeError", &format!("implode(): Argument #2 ($array) must be of type ?array, {} given", super::type_name(arr))));
        }
        (sep, arr.arr())
    };
    let mut out = Vec::new();
    let mut first = true;
    // SAFETY: the array is alive for the duration of the call (held by the argument).
    for (_, v) in unsafe { (*arr).iter() } {
        if !first {
            out.extend_from_slice(&sep);
        }
        first = false;
        crate::exec::slow::arith::to_string_into(vm, v, &mut out);
    }
    *r = Zval::string(ZString::new(&out));
    Ok(())
}

pub fn ord(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "ord", a, 1, 1)?;
    let s = args::string(vm, "ord", 1, "character", &a[0])?;
    *r = Zval::long(s.first().copied().unwrap_or(0) as i64);
    Ok(())
}

pub fn chr(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "chr", a, 1, 1)?;
    let n = args::long(vm, "chr", 1, "codepoint", &a[0])?;
    *r = Zval::string(ZString::new(&[n.rem_euclid(256) as u8]));
    Ok(())
}

pub fn dechex(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "dechex", a, 1, 1)?;
    let n = args::long(vm, "dechex", 1, "num", &a[0])?;
    // Digits into a stack buffer: no `format!` String to allocate and copy.
    let (mut buf, mut i, mut u) = ([0u8; 16], 16, n as u64);
    loop {
        i -= 1;
        buf[i] = b"0123456789abcdef"[(u & 15) as usize];
        u >>= 4;
        if u == 0 {
            break;
        }
    }
    *r = Zval::string(ZString::new(&buf[i..]));
    Ok(())
}
