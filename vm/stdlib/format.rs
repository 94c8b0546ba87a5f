//! The printf family (ext/standard/formatted_print.c) and number_format.

use super::{args, ret_str};
use crate::exec::{Thrown, Vm};
use crate::value::{convert, number, Zval};

type R = Result<(), Thrown>;

const MAX_FLOAT_PRECISION: i64 = 53;

/// `php_sprintf_appendstring`.
#[allow(clippy::too_many_arguments)]
fn append_string(out: &mut Vec<u8>, s: &[u8], min_width: usize, precision: usize, padding: u8, left: bool, neg: bool, expprec: bool, always_sign: bool) {
    let mut copy_len = if expprec { precision.min(s.len()) } else { s.len() };
    let npad = min_width.saturating_sub(copy_len);
    let mut s = s;
    if !left {
        if (neg || always_sign) && padding == b'0' && !s.is_empty() {
            out.push(s[0]);
            s = &s[1..];
            copy_len = copy_len.saturating_sub(1);
        }
        out.extend(std::iter::repeat(padding).take(npad));
    }
    out.extend_from_slice(&s[..copy_len.min(s.len())]);
    if left {
        out.extend(std::iter::repeat(padding).take(npad));
    }
}

/// Digits and exponent of `v` (finite, >= 0) with `prec` digits after the
/// point, as `{:.*e}` gives them.
fn exp_parts(v: f64, prec: usize) -> (String, i32) {
    let s = format!("{:.*e}", prec, v);
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    (m.to_string(), e.parse().unwrap_or(0))
}

/// `php_sprintf_appenddouble`.
#[allow(clippy::too_many_arguments)]
fn append_double(vm: &mut Vm, name: &str, out: &mut Vec<u8>, v: f64, width: usize, padding: u8, left: bool, precision: Option<i64>, fmt: u8, always_sign: bool) {
    let mut precision = match precision {
        None => 6,
        Some(p) if p > MAX_FLOAT_PRECISION => {
            vm.notice(&format!("{}(): Requested precision of {} digits was truncated to PHP maximum of {} digits", name, p, MAX_FLOAT_PRECISION));
            MAX_FLOAT_PRECISION
        }
        Some(p) => p,
    } as usize;
    if v.is_nan() {
        append_string(out, b"NaN", 3, 0, padding, left, false, false, always_sign);
        return;
    }
    if v.is_infinite() {
        let neg = v < 0.0;
        let s: &[u8] = if neg { b"-Inf" } else if always_sign { b"+Inf" } else { b"Inf" };
        let _ = s;
        append_string(out, b"INF", 3, 0, padding, left, neg, false, always_sign);
        return;
    }
    let mut s: Vec<u8> = Vec::new();
    let neg;
    match fmt {
        b'e' | b'E' => {
            neg = v < 0.0;
            let (m, e) = exp_parts(v.abs(), precision);
            s.extend_from_slice(m.as_bytes());
            s.push(fmt);
            s.push(if e < 0 { b'-' } else { b'+' });
            s.extend_from_slice(e.unsigned_abs().to_string().as_bytes());
        }
        b'f' | b'F' => {
            neg = v < 0.0;
            s.extend_from_slice(format!("{:.*}", precision, v.abs()).as_bytes());
        }
        _ => {
            if precision == 0 {
                precision = 1;
            }
            let mut t = Vec::new();
            number::fmt_precision(v, precision as i32, &mut t);
            if fmt == b'g' || fmt == b'h' {
                for c in t.iter_mut() {
                    if *c == b'E' {
                        *c = b'e';
                    }
                }
            }
            neg = t.first() == Some(&b'-');
            if neg {
                t.remove(0);
            }
            s = t;
        }
    }
    let mut full = Vec::with_capacity(s.len() + 1);
    if neg {
        full.push(b'-');
    } else if always_sign {
        full.push(b'+');
    }
    full.extend_from_slice(&s);
    append_string(out, &full, width, 0, padding, left, neg, false, always_sign);
}

/// `php_formatted_print`: the formatted bytes, or a thrown error.
pub fn format(vm: &mut Vm, name: &str, fmt: &[u8], vals: &[Zval], arg_offset: usize) -> Result<Vec<u8>, Thrown> {
    let v_mode = arg_offset == 0;
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut i = 0;
    let mut next_arg = 0usize;
    let nvals = vals.len();
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        if fmt.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        i += 1;
        // Argument number.
        let mut argnum: Option<usize> = None;
        let start = i;
        let mut j = i;
        while j < fmt.len() && fmt[j].is_ascii_digit() {
            j += 1;
        }
        if j > start && fmt.get(j) == Some(&b'$') {
            let n: u64 = std::str::from_utf8(&fmt[start..j]).ok().and_then(|t| t.parse().ok()).unwrap_or(u64::MAX);
            if n == 0 || n > i32::MAX as u64 {
                return Err(vm.throw_error("ValueError", "Argument number specifier must be greater than zero and less than 2147483647"));
            }
            argnum = Some(n as usize - 1);
            i = j + 1;
        }
        // Modifiers.
        let mut left = false;
        let mut always_sign = false;
        let mut padding = b' ';
        loop {
            match fmt.get(i) {
                Some(b'-') => {
                    left = true;
                    i += 1;
                }
                Some(b'+') => {
                    always_sign = true;
                    i += 1;
                }
                Some(b' ') | Some(b'0') => {
                    padding = fmt[i];
                    i += 1;
                }
                Some(b'\'') => {
                    if i + 1 < fmt.len() {
                        padding = fmt[i + 1];
                        i += 2;
                    } else {
                        return Err(vm.throw_error("ValueError", "Missing padding character"));
                    }
                }
                _ => break,
            }
        }
        // Width.
        let mut width: usize = 0;
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let idx = next_arg;
            next_arg += 1;
            let Some(v) = vals.get(idx) else {
                return Err(too_few(vm, v_mode, idx + arg_offset + 1, nvals + arg_offset));
            };
            let v = v.deref();
            if !v.is_long() {
                return Err(vm.throw_error("ValueError", "Width must be an integer"));
            }
            if v.lval() < 0 || v.lval() > i32::MAX as i64 {
                return Err(vm.throw_error("ValueError", "Width must be greater than or equal to zero and less than 2147483647"));
            }
            width = v.lval() as usize;
        } else {
            let ws = i;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                i += 1;
            }
            if i > ws {
                let w: u64 = std::str::from_utf8(&fmt[ws..i]).ok().and_then(|t| t.parse().ok()).unwrap_or(u64::MAX);
                if w > i32::MAX as u64 {
                    return Err(vm.throw_error("ValueError", "Width must be greater than zero and less than 2147483647"));
                }
                width = w as usize;
            }
        }
        // Precision.
        let mut precision: Option<i64> = None;
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let idx = next_arg;
                next_arg += 1;
                let Some(v) = vals.get(idx) else {
                    return Err(too_few(vm, v_mode, idx + arg_offset + 1, nvals + arg_offset));
                };
                let v = v.deref();
                if !v.is_long() {
                    return Err(vm.throw_error("ValueError", "Precision must be an integer"));
                }
                if v.lval() < -1 || v.lval() > i32::MAX as i64 {
                    return Err(vm.throw_error("ValueError", "Precision must be between -1 and 2147483647"));
                }
                precision = Some(v.lval());
            } else {
                let ps = i;
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    i += 1;
                }
                let p: u64 = if i > ps { std::str::from_utf8(&fmt[ps..i]).ok().and_then(|t| t.parse().ok()).unwrap_or(u64::MAX) } else { 0 };
                if p > i32::MAX as u64 {
                    return Err(vm.throw_error("ValueError", "Precision must be greater than zero and less than 2147483647"));
                }
                precision = Some(p as i64);
            }
        }
        if fmt.get(i) == Some(&b'l') {
            i += 1;
        }
        if width > vm.memory_limit || (precision.unwrap_or(0) as usize) > vm.memory_limit {
            vm.memory_exhausted(width.max(precision.unwrap_or(0) as usize));
            return Err(Thrown);
        }
        let Some(&spec) = fmt.get(i) else {
            return Err(vm.throw_error("ValueError", "Missing format specifier at end of string"));
        };
        i += 1;
        let idx = match argnum {
            Some(n) => n,
            None => {
                let n = next_arg;
                next_arg += 1;
                n
            }
        };
        if !b"sdueEfFgGhHcoxXb".contains(&spec) {
            return Err(vm.throw_error("ValueError", &format!("Unknown format specifier \"{}\"", spec as char)));
        }
        let Some(val) = vals.get(idx) else {
            return Err(too_few(vm, v_mode, idx + arg_offset + 1, nvals + arg_offset));
        };
        let val = val.deref();
        match spec {
            b's' => {
                let mut s = Vec::new();
                crate::exec::slow::arith::to_string_into(vm, val, &mut s);
                let p = precision.unwrap_or(0).max(0) as usize;
                append_string(&mut out, &s, width, p, padding, left, false, precision.is_some(), false);
            }
            b'd' => {
                let n = convert::to_long(val);
                let mut s = Vec::new();
                if n >= 0 && always_sign {
                    s.push(b'+');
                }
                number::push_i64(n, &mut s);
                let padding = if left && padding == b'0' { b' ' } else { padding };
                append_string(&mut out, &s, width, 0, padding, left, n < 0, false, always_sign);
            }
            b'u' => {
                let n = convert::to_long(val) as u64;
                let padding = if left && padding == b'0' { b' ' } else { padding };
                append_string(&mut out, n.to_string().as_bytes(), width, 0, padding, left, false, false, false);
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'h' | b'H' => {
                let d = convert::to_double(val);
                append_double(vm, name, &mut out, d, width, padding, left, precision, spec, always_sign);
            }
            b'c' => out.push(convert::to_long(val) as u8),
            b'o' | b'x' | b'X' | b'b' => {
                let n = convert::to_long(val) as u64;
                let s = match spec {
                    b'o' => format!("{:o}", n),
                    b'x' => format!("{:x}", n),
                    b'X' => format!("{:X}", n),
                    _ => format!("{:b}", n),
                };
                append_string(&mut out, s.as_bytes(), width, 0, padding, left, false, false, false);
            }
            _ => {}
        }
    }
    Ok(out)
}

fn too_few(vm: &mut Vm, v_mode: bool, need: usize, given: usize) -> Thrown {
    if v_mode {
        return vm.throw_error("ValueError", &format!("The arguments array must contain {} items, {} given", need, given));
    }
    vm.throw_error("ArgumentCountError", &format!("{} arguments are required, {} given", need, given))
}

pub fn sprintf(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "sprintf", a, 1, usize::MAX)?;
    let f = args::str_ref(vm, "sprintf", 1, "format", &a[0])?;
    let out = format(vm, "sprintf", &f, &a[1..], 1)?;
    *r = ret_str(&out);
    Ok(())
}

pub fn printf(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "printf", a, 1, usize::MAX)?;
    let f = args::str_ref(vm, "printf", 1, "format", &a[0])?;
    let out = format(vm, "printf", &f, &a[1..], 1)?;
    vm.echo(&out);
    *r = Zval::long(out.len() as i64);
    Ok(())
}

fn array_values_of(vm: &mut Vm, name: &str, v: &Zval) -> Result<Vec<Zval>, Thrown> {
    let arr = args::array(vm, name, 2, "values", v)?;
    // SAFETY: the argument keeps the array alive.
    Ok(unsafe { (*arr).iter().map(|(_, x)| *x).collect() })
}

pub fn vsprintf(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "vsprintf", a, 2, 2)?;
    let f = args::str_ref(vm, "vsprintf", 1, "format", &a[0])?;
    let vals = array_values_of(vm, "vsprintf", &a[1])?;
    let out = format_v(vm, "vsprintf", &f, &vals)?;
    *r = ret_str(&out);
    Ok(())
}

pub fn vprintf(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "vprintf", a, 2, 2)?;
    let f = args::str_ref(vm, "vprintf", 1, "format", &a[0])?;
    let vals = array_values_of(vm, "vprintf", &a[1])?;
    let out = format_v(vm, "vprintf", &f, &vals)?;
    vm.echo(&out);
    *r = Zval::long(out.len() as i64);
    Ok(())
}

fn format_v(vm: &mut Vm, name: &str, f: &[u8], vals: &[Zval]) -> Result<Vec<u8>, Thrown> {
    format(vm, name, f, vals, 0)
}

/// `_php_math_round` (PHP 8.2, with pre-rounding).
pub fn php_round(value: f64, places: i64, mode: i64) -> f64 {
    if !value.is_finite() || value == 0.0 {
        return value;
    }
    let places = places.clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32;
    let precision_places = 14 - value.abs().log10().floor() as i32;
    let f1 = intpow10(places.abs());
    let mut tmp;
    if precision_places > places && precision_places - 15 < places {
        let use_precision = precision_places.max(i32::MIN + 1);
        tmp = round_helper(round_get_basic(value, use_precision), mode);
        let up = (places - use_precision).max(-(4 * 15));
        tmp /= intpow10(up.abs());
    } else {
        tmp = if places >= 0 { value * f1 } else { value / f1 };
        if tmp.abs() >= 1e15 {
            return value;
        }
    }
    tmp = round_helper(tmp, mode);
    if places.abs() < 23 {
        if places > 0 {
            tmp /= f1;
        } else {
            tmp *= f1;
        }
    } else {
        let s = format!("{:.15}e{}", tmp, -places);
        match s.parse::<f64>() {
            Ok(v) if v.is_finite() => tmp = v,
            _ => return value,
        }
    }
    tmp
}

fn intpow10(p: i32) -> f64 {
    if !(0..=22).contains(&p) {
        return 10f64.powi(p);
    }
    const P: [f64; 23] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
    P[p as usize]
}

fn round_get_basic(value: f64, places: i32) -> f64 {
    let f1 = intpow10(places.abs());
    if places >= 0 {
        value * f1
    } else {
        value / f1
    }
}

/// `php_round_helper`: modes 1 half up, 2 half down, 3 half even, 4 half odd.
pub fn round_helper(value: f64, mode: i64) -> f64 {
    let v = value;
    match mode {
        2 => {
            if v >= 0.0 {
                (v - 0.5).ceil()
            } else {
                (v + 0.5).floor()
            }
        }
        3 | 4 => {
            let t = v.trunc();
            let frac = (v - t).abs();
            if frac == 0.5 {
                let t_even = t % 2.0 == 0.0;
                if (mode == 3) == t_even {
                    t
                } else {
                    t + v.signum()
                }
            } else {
                v.round()
            }
        }
        _ => {
            if v >= 0.0 {
                (v + 0.5).floor()
            } else {
                (v - 0.5).ceil()
            }
        }
    }
}

pub fn number_format(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "number_format", a, 1, 4)?;
    let mut d = args::double(vm, "number_format", 1, "num", &a[0])?;
    let dec = match a.get(1) {
        Some(v) => args::long(vm, "number_format", 2, "decimals", v)?,
        None => 0,
    };
    let dec_point = match a.get(2) {
        Some(v) if v.deref().kind() != crate::value::IS_NULL => args::string(vm, "number_format", 3, "decimal_separator", v)?,
        _ => b".".to_vec(),
    };
    let sep = match a.get(3) {
        Some(v) if v.deref().kind() != crate::value::IS_NULL => args::string(vm, "number_format", 4, "thousands_separator", v)?,
        _ => b",".to_vec(),
    };
    let mut neg = false;
    if d < 0.0 {
        neg = true;
        d = -d;
    }
    let dec = dec.clamp(0, i32::MAX as i64);
    d = php_round(d, dec, 1);
    let dec = dec.min(1000) as usize;
    let tmp = if d.is_finite() { format!("{:.*}", dec, d.abs()) } else if d.is_nan() { "NAN".into() } else { "INF".into() };
    if neg && d == 0.0 {
        neg = false;
    }
    if !tmp.as_bytes()[0].is_ascii_digit() {
        let mut o = Vec::new();
        if neg && tmp == "INF" {
            o.push(b'-');
        }
        o.extend_from_slice(tmp.as_bytes());
        *r = ret_str(&o);
        return Ok(());
    }
    let (int_part, frac_part) = match tmp.split_once('.') {
        Some((i, f)) => (i.as_bytes(), Some(f.as_bytes())),
        None => (tmp.as_bytes(), None),
    };
    let mut out = Vec::new();
    if neg {
        out.push(b'-');
    }
    let n = int_part.len();
    for (k, &c) in int_part.iter().enumerate() {
        if k > 0 && (n - k) % 3 == 0 {
            out.extend_from_slice(&sep);
        }
        out.push(c);
    }
    if dec > 0 {
        if let Some(f) = frac_part {
            out.extend_from_slice(&dec_point);
            out.extend_from_slice(f);
        }
    }
    *r = ret_str(&out);
    Ok(())
}
