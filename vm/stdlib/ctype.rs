//! ext/ctype: the `ctype_*` checks, in the C locale (Tusk has no other).
//! A string passes when it is non-empty and every byte is in the class;
//! any other argument is deprecated since PHP 8.1, and an int is still
//! read as a character code (-128..255) or, outside that range, as the
//! digits it would print.

use super::args;
use crate::exec::{Thrown, Vm};
use crate::value::{Zval, IS_LONG, IS_OBJECT, IS_STRING};

type R = Result<(), Thrown>;

/// `ctype_impl`: `allow_digits`/`allow_minus` answer for ints beyond a
/// byte (their decimal text's class).
fn check(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, class: fn(u8) -> bool, allow_digits: bool, allow_minus: bool) -> R {
    args::count(vm, name, a, 1, 1)?;
    let c = a[0].deref();
    if c.kind() == IS_STRING {
        // SAFETY: string-kind values hold a live string.
        let s = unsafe { (*c.str()).bytes() };
        *r = Zval::bool(!s.is_empty() && s.iter().all(|&b| class(b)));
        return Ok(());
    }
    let ty = if c.kind() == IS_OBJECT {
        // SAFETY: object-kind values hold a live object of a bound class.
        unsafe { (*(*c.obj()).class).name_str().to_string() }
    } else {
        super::type_name(c).to_string()
    };
    vm.deprecated(&format!("{}(): Argument of type {} will be interpreted as string in the future", name, ty));
    *r = Zval::bool(if c.kind() == IS_LONG {
        let n = c.lval();
        if (0..=255).contains(&n) {
            class(n as u8)
        } else if (-128..0).contains(&n) {
            class((n + 256) as u8)
        } else if n >= 0 {
            allow_digits
        } else {
            allow_minus
        }
    } else {
        false
    });
    Ok(())
}

fn is_cntrl(b: u8) -> bool {
    b < 0x20 || b == 0x7f
}

fn is_print(b: u8) -> bool {
    (0x20..0x7f).contains(&b)
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

pub fn ctype_alnum(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_alnum", a, r, |b| b.is_ascii_alphanumeric(), true, false)
}

pub fn ctype_alpha(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_alpha", a, r, |b| b.is_ascii_alphabetic(), false, false)
}

pub fn ctype_cntrl(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_cntrl", a, r, is_cntrl, false, false)
}

pub fn ctype_digit(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_digit", a, r, |b| b.is_ascii_digit(), true, false)
}

pub fn ctype_lower(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_lower", a, r, |b| b.is_ascii_lowercase(), false, false)
}

pub fn ctype_graph(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_graph", a, r, |b| b.is_ascii_graphic(), true, true)
}

pub fn ctype_print(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_print", a, r, is_print, true, true)
}

pub fn ctype_punct(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_punct", a, r, |b| b.is_ascii_punctuation(), false, false)
}

pub fn ctype_space(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_space", a, r, is_space, false, false)
}

pub fn ctype_upper(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_upper", a, r, |b| b.is_ascii_uppercase(), false, false)
}

pub fn ctype_xdigit(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    check(vm, "ctype_xdigit", a, r, |b| b.is_ascii_hexdigit(), true, false)
}
