//! ext/standard math functions.

use super::args;
use crate::exec::{Thrown, Vm};
use crate::value::{compare, Zval, IS_LONG};

pub fn microtime(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "microtime", a, 0, 1)?;
    let as_float = match a.first() { Some(v) => args::boolean(vm, "microtime", 1, "as_float", v)?, None => false };
    let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    if as_float {
        *r = Zval::double(d.as_secs_f64());
    } else {
        let s = format!("{:.8} {}", d.subsec_micros() as f64 / 1e6, d.as_secs());
        *r = Zval::string(crate::value::ZString::new(s.as_bytes()));
    }
    Ok(())
}

pub fn intdiv(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "intdiv", a, 2, 2)?;
    let x = args::long(vm, "intdiv", 1, "num1", &a[0])?;
    let y = args::long(vm, "intdiv", 2, "num2", &a[1])?;
    match crate::value::arith::intdiv(x, y) {
        Ok(v) => {
            *r = Zval::long(v);
            Ok(())
        }
        Err(t) => Err(crate::exec::slow::raise(vm, t)),
    }
}

pub fn abs(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    args::count(vm, "abs", a, 1, 1)?;
    let n = args::number(vm, "abs", 1, "num", &a[0])?;
    *r = match n.kind() {
        IS_LONG => match n.lval().checked_abs() {
            Some(v) => Zval::long(v),
            None => Zval::double(-(n.lval() as f64)),
        },
        _ => Zval::double(n.dval().abs()),
    };
    Ok(())
}

fn minmax(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, want: i32) -> Result<(), Thrown> {
    args::count(vm, name, a, 1, usize::MAX)?;
    let pick = |vals: &mut dyn Iterator<Item = &Zval>| -> Option<Zval> {
        let mut best: Option<&Zval> = None;
        for v in vals {
            let v = v.deref();
            best = match best {
                None => Some(v),
                Some(b) => {
                    if compare::compare(v, b).signum() == want { Some(v) } else { Some(b) }
                }
            };
        }
        best.map(|b| b.copy_value())
    };
    if a.len() == 1 {
        let v = a[0].deref();
        if !v.is_array() {
            let msg = format!("{}(): Argument #1 ($value) must be of type array, {} given", name, super::type_name(v));
            return Err(vm.throw_error("TypeError", &msg));
        }
        // SAFETY: the argument keeps the array alive.
        let arr = unsafe { &*v.arr() };
        if arr.len() == 0 {
            return Err(vm.throw_error("ValueError", &format!("{}(): Argument #1 ($value) must contain at least one element", name)));
        }
        *r = pick(&mut arr.iter().map(|(_, v)| v)).unwrap_or(Zval::NULL);
        return Ok(());
    }
    *r = pick(&mut a.iter()).unwrap_or(Zval::NULL);
    Ok(())
}

pub fn min(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    minmax(vm, "min", a, r, -1)
}

pub fn max(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    minmax(vm, "max", a, r, 1)
}

fn float_fn(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, f: fn(f64) -> f64) -> Result<(), Thrown> {
    args::count(vm, name, a, 1, 1)?;
    let x = args::double(vm, name, 1, "num", &a[0])?;
    *r = Zval::double(f(x));
    Ok(())
}

pub fn sqrt(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    float_fn(vm, "sqrt", a, r, f64::sqrt)
}

pub fn floor(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let n = a.first().map(|v| *v.deref());
    if let Some(v) = n {
        if v.kind() == IS_LONG {
            *r = Zval::double(v.lval() as f64);
            return Ok(());
        }
    }
    float_fn(vm, "floor", a, r, f64::floor)
}

pub fn ceil(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let n = a.first().map(|v| *v.deref());
    if let Some(v) = n {
        if v.kind() == IS_LONG {
            *r = Zval::double(v.lval() as f64);
            return Ok(());
        }
    }
    float_fn(vm, "ceil", a, r, f64::ceil)
}

