//! ext/standard array functions.

use super::args;
use crate::exec::{Thrown, Vm};
use crate::value::{ZArray, ZString, Zval, IS_DOUBLE, IS_LONG, IS_STRING};

pub fn count(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "count", a, 1, 2)?;
    let v = a[0].deref();
    if !v.is_array() {
        let msg = format!("count(): Argument #1 ($value) must be of type Countable|array, {} given", super::type_name(v));
        return Err(vm.throw_error("TypeError", &msg));
    }
    let recursive = match a.get(1) {
        Some(m) => args::long(vm, "count", 2, "mode", m)? == 1,
        None => false,
    };
    // SAFETY: the argument keeps the array alive.
    let n = unsafe { if recursive { count_recursive(v.arr()) } else { (*v.arr()).len() as i64 } };
    *r = Zval::long(n);
    Ok(())
}

unsafe fn count_recursive(a: *mut ZArray) -> i64 {
    let mut n = 0;
    for (_, v) in (*a).iter() {
        n += 1;
        let v = v.deref();
        if v.is_array() {
            n += count_recursive(v.arr());
        }
    }
    n
}

pub fn range(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "range", a, 2, 3)?;
    let (s, e) = (a[0].deref(), a[1].deref());
    let arr = ZArray::new();
    // Single-character strings give a range of characters.
    // SAFETY: string-kind values hold live strings; `arr` is new and unshared.
    unsafe {
        if s.kind() == IS_STRING && e.kind() == IS_STRING && (*s.str()).len() >= 1 && (*e.str()).len() >= 1
            && !(*s.str()).bytes()[0].is_ascii_digit() && !(*e.str()).bytes()[0].is_ascii_digit() {
            let (x, y) = ((*s.str()).bytes()[0] as i64, (*e.str()).bytes()[0] as i64);
            let step = match a.get(2) { Some(v) => args::long(vm, "range", 3, "step", v)?.abs().max(1), None => 1 };
            let mut i = x;
            loop {
                (*arr).append(Zval::string(ZString::new(&[i as u8])));
                if x <= y { i += step; if i > y { break; } } else { i -= step; if i < y { break; } }
            }
            *r = Zval::array(arr);
            return Ok(());
        }
    }
    let sn = args::number(vm, "range", 1, "start", s)?;
    let en = args::number(vm, "range", 2, "end", e)?;
    let stepv = match a.get(2) { Some(v) => args::number(vm, "range", 3, "step", v)?, None => Zval::long(1) };
    let is_float = sn.kind() == IS_DOUBLE || en.kind() == IS_DOUBLE || (stepv.kind() == IS_DOUBLE && stepv.dval().fract() != 0.0);
    // SAFETY: `arr` is new and unshared.
    unsafe {
        if is_float {
            let f = |z: Zval| if z.kind() == IS_LONG { z.lval() as f64 } else { z.dval() };
            let (x, y, st) = (f(sn), f(en), f(stepv).abs());
            if st == 0.0 || !st.is_finite() {
                ZArray::free(arr);
                return Err(vm.throw_error("ValueError", "range(): Argument #3 ($step) must not exceed the specified range"));
            }
            let n = ((y - x).abs() / st).floor() as i64;
            for k in 0..=n {
                let v = if x <= y { x + k as f64 * st } else { x - k as f64 * st };
                (*arr).append(Zval::double(v));
            }
        } else {
            let g = |z: Zval| if z.kind() == IS_LONG { z.lval() } else { z.dval() as i64 };
            let (x, y, st) = (g(sn), g(en), g(stepv).unsigned_abs());
            if st == 0 || (x != y && st as u128 > (x as i128 - y as i128).unsigned_abs()) {
                ZArray::free(arr);
                return Err(vm.throw_error("ValueError", "range(): Argument #3 ($step) must not exceed the specified range"));
            }
            let span = (x as i128 - y as i128).unsigned_abs() / st as u128;
            if span as usize > vm.memory_limit / 16 {
                ZArray::free(arr);
                vm.memory_exhausted(span as usize * 16);
                return Err(Thrown);
            }
            for k in 0..=span as i128 {
                let v = if x <= y { x as i128 + k * st as i128 } else { x as i128 - k * st as i128 };
                (*arr).append(Zval::long(v as i64));
            }
        }
    }
    *r = Zval::array(arr);
    Ok(())
}
