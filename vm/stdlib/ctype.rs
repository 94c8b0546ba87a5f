//! ext/ctype: the `ctype_*` checks, in the C locale (Tusk has no other).
//! A string passes when it is non-empty and every byte is in the class;
//! any other argument is deprecated since PHP 8.1, and an int is still
//! read as a character code (-128..255) or, outside that range, as the
//! digits it would print.

use crate::exec::{Thrown, Vm};
use crate::value::{Zval, IS_LONG, IS_OBJECT, IS_STRING};
use tusk_macros::builtin;

/// `ctype_impl`: `allow_digits`/`allow_minus` answer for ints beyond a
/// byte (their decimal text's class).
fn check(vm: &mut Vm, name: &str, text: &Zval, class: fn(u8) -> bool, allow_digits: bool, allow_minus: bool) -> Result<bool, Thrown> {
    let c = text.deref();
    if c.kind() == IS_STRING {
        // SAFETY: string-kind values hold a live string.
        let s = unsafe { (*c.str()).bytes() };
        return Ok(!s.is_empty() && s.iter().all(|&b| class(b)));
    }
    let ty = if c.kind() == IS_OBJECT {
        // SAFETY: object-kind values hold a live object of a bound class.
        unsafe { (*(*c.obj()).class).name_str().to_string() }
    } else {
        super::type_name(c).to_string()
    };
    vm.deprecated(&format!("{}(): Argument of type {} will be interpreted as string in the future", name, ty));
    Ok(if c.kind() == IS_LONG {
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
    })
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

#[builtin("function ctype_alnum(mixed $text): bool")]
pub fn ctype_alnum(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_alnum", text, |b| b.is_ascii_alphanumeric(), true, false)
}

#[builtin("function ctype_alpha(mixed $text): bool")]
pub fn ctype_alpha(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_alpha", text, |b| b.is_ascii_alphabetic(), false, false)
}

#[builtin("function ctype_cntrl(mixed $text): bool")]
pub fn ctype_cntrl(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_cntrl", text, is_cntrl, false, false)
}

#[builtin("function ctype_digit(mixed $text): bool")]
pub fn ctype_digit(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_digit", text, |b| b.is_ascii_digit(), true, false)
}

#[builtin("function ctype_lower(mixed $text): bool")]
pub fn ctype_lower(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_lower", text, |b| b.is_ascii_lowercase(), false, false)
}

#[builtin("function ctype_graph(mixed $text): bool")]
pub fn ctype_graph(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_graph", text, |b| b.is_ascii_graphic(), true, true)
}

#[builtin("function ctype_print(mixed $text): bool")]
pub fn ctype_print(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_print", text, is_print, true, true)
}

#[builtin("function ctype_punct(mixed $text): bool")]
pub fn ctype_punct(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_punct", text, |b| b.is_ascii_punctuation(), false, false)
}

#[builtin("function ctype_space(mixed $text): bool")]
pub fn ctype_space(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_space", text, is_space, false, false)
}

#[builtin("function ctype_upper(mixed $text): bool")]
pub fn ctype_upper(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_upper", text, |b| b.is_ascii_uppercase(), false, false)
}

#[builtin("function ctype_xdigit(mixed $text): bool")]
pub fn ctype_xdigit(vm: &mut Vm, text: &Zval) -> Result<bool, Thrown> {
    check(vm, "ctype_xdigit", text, |b| b.is_ascii_hexdigit(), true, false)
}
