//! THE table: what each operand operation becomes for each operand kind.
//!
//! Every token the generated bodies get from an operation macro comes from
//! here; `expand` only walks the body and decides which row applies.

use crate::model::Kind;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Which operand an operation names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Which {
    Op1,
    Op2,
    /// op1 of the OP_DATA opline that follows (`ip.add(1)`).
    OpData,
}

impl Which {
    pub fn from_name(s: &str) -> Option<Which> {
        match s {
            "op1" => Some(Which::Op1),
            "op2" => Some(Which::Op2),
            "op_data" => Some(Which::OpData),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Which::Op1 => "op1",
            Which::Op2 => "op2",
            Which::OpData => "op_data",
        }
    }
    /// Suffix of the `operand::` function: `const_1`, `const_2`, `const_od`.
    fn suffix(self) -> &'static str {
        match self {
            Which::Op1 => "1",
            Which::Op2 => "2",
            Which::OpData => "od",
        }
    }
}

/// Value operations: `read!`, `read_raw!`, `read_deref!`, `write!`, `free!`, `slot!`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    Read,
    ReadRaw,
    ReadDeref,
    Write,
    Free,
    Slot,
}

impl Access {
    pub fn from_name(s: &str) -> Option<Access> {
        match s {
            "read" => Some(Access::Read),
            "read_raw" => Some(Access::ReadRaw),
            "read_deref" => Some(Access::ReadDeref),
            "write" => Some(Access::Write),
            "free" => Some(Access::Free),
            "slot" => Some(Access::Slot),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::ReadRaw => "read_raw",
            Access::ReadDeref => "read_deref",
            Access::Write => "write",
            Access::Free => "free",
            Access::Slot => "slot",
        }
    }
}

fn call(base: &str, w: Which, args: TokenStream) -> TokenStream {
    let f = Ident::new(&format!("{base}_{}", w.suffix()), Span::call_site());
    quote!(operand::#f(#args))
}

/// `operand::NAME_N(ip)`
fn f_ip(base: &str, w: Which) -> TokenStream {
    call(base, w, quote!(ip))
}
/// `operand::NAME_N(ip, fp)`
fn f_ip_fp(base: &str, w: Which) -> TokenStream {
    call(base, w, quote!(ip, fp))
}
/// `operand::NAME_N(ip, fp, vm)`
fn f_ip_fp_vm(base: &str, w: Which) -> TokenStream {
    call(base, w, quote!(ip, fp, vm))
}

/// The operation × kind table. `Ok(None)` means "nothing" (`free!` of a
/// CONST/CV/UNUSED operand); `Err` is the reason the operation is invalid.
pub fn access(a: Access, kind: Kind, w: Which) -> Result<Option<TokenStream>, String> {
    use Access::*;
    use Kind::*;
    let bad = |why: &str| {
        Err(format!("`{}!({})` is not allowed for a {} operand{why}", a.name(), w.name(), kind.name()))
    };
    if !kind.is_value() {
        let hint = if kind == JmpAddr { "; use `jmp_addr!`" } else { "; use `num!`" };
        return bad(hint);
    }
    let t = match (a, kind) {
        (_, Unused) if a != Free => return bad(""),
        (Free, Const | Cv | Unused) => return Ok(None),
        (Free, Tmp | Var | TmpVar) => f_ip_fp("free", w),
        (Free, TmpVarCv) => f_ip_fp("free_tmpvar", w),
        (Free, Any) => f_ip_fp("free_any", w),

        (Read | ReadRaw | ReadDeref, Const) => f_ip("const", w),

        (Read, Tmp) => f_ip_fp("tmp", w),
        (Read, Var | TmpVar) => f_ip_fp("var_deref", w),
        (Read, Cv) => f_ip_fp_vm("cv_read", w),
        (Read, TmpVarCv) => f_ip_fp_vm("tmpvarcv_read", w),
        (Read, Any) => f_ip_fp_vm("any_read", w),

        (ReadRaw, Tmp | Var | TmpVar | Cv | TmpVarCv) => {
            let s = f_ip_fp("slot", w);
            quote!(#s as *const Zval)
        }
        (ReadRaw, Any) => f_ip_fp("any_raw", w),

        (ReadDeref, Tmp) => f_ip_fp("tmp", w),
        (ReadDeref, Var | TmpVar | TmpVarCv) => f_ip_fp("var_deref", w),
        (ReadDeref, Cv) => f_ip_fp("cv_deref", w),
        (ReadDeref, Any) => f_ip_fp("any_deref", w),

        (Write, Var) => f_ip_fp("var_ptr", w),
        (Write, Cv) => f_ip_fp("slot", w),
        (Write, Any) => f_ip_fp("any_write", w),
        (Write, _) => return bad(" (only VAR, CV and ANY operands are writable)"),

        (Slot, Tmp | Var | TmpVar | Cv | TmpVarCv) => f_ip_fp("slot", w),
        (Slot, _) => return bad(" (only TMP/VAR/CV kinds have a slot)"),
        (_, JmpAddr | Num | Unused) => unreachable_kind()?,
    };
    Ok(Some(t))
}

fn unreachable_kind() -> Result<TokenStream, String> {
    Err("internal: non-value kind reached the value table".into())
}

/// `is!(opN, QUERY)` for an instance whose operand has kind `inst`.
pub fn is_kind(inst: Kind, query: Kind, w: Which) -> Result<bool, String> {
    let (i, q) = (inst.cover(), query.cover());
    if inst == query || i & !q == 0 {
        Ok(true)
    } else if i & q == 0 {
        Ok(false)
    } else {
        Err(format!(
            "`is!({}, {})` is ambiguous in the {} instance: it serves other kinds too (test for {} instead)",
            w.name(),
            query.name(),
            inst.name(),
            inst.name()
        ))
    }
}

/// `jmp_addr!(opN)`: the jump target of a JMP_ADDR operand.
pub fn jmp_addr(kind: Kind, w: Which) -> Result<TokenStream, String> {
    if kind != Kind::JmpAddr {
        return Err(format!("`jmp_addr!({})` needs a JMP_ADDR operand, not {}", w.name(), kind.name()));
    }
    Ok(f_ip("jmp_addr", w))
}

/// `num!(opN)`: the immediate number of a NUM operand.
pub fn num(kind: Kind, w: Which) -> Result<TokenStream, String> {
    if kind != Kind::Num || w == Which::OpData {
        return Err(format!("`num!({})` needs a NUM operand, not {}", w.name(), kind.name()));
    }
    let f = Ident::new(w.name(), Span::call_site());
    Ok(quote!((*ip).#f))
}

/// The opline after this instance's: 1, or 2 when an OP_DATA follows.
pub fn next(step: usize) -> TokenStream {
    let step = proc_macro2::Literal::usize_unsuffixed(step);
    quote!(break 'body (ip.add(#step), fp))
}

pub fn jump(target: TokenStream) -> TokenStream {
    quote!({
        let __t: *const Op = #target;
        if dispatch::check_interrupt(vm, ip, __t) {
            return dispatch::interrupted(__t, fp, vm);
        }
        break 'body (__t, fp)
    })
}

pub fn goto(ip_e: TokenStream, fp_e: TokenStream) -> TokenStream {
    quote!(break 'body (#ip_e, #fp_e))
}

pub fn leave(e: TokenStream) -> TokenStream {
    quote!(return #e)
}

pub fn result() -> TokenStream {
    quote!(operand::result(ip, fp))
}

/// `set_result!(v)`; `used == false` in `_RETVAL_UNUSED` instances releases v.
pub fn set_result(v: TokenStream, used: bool) -> TokenStream {
    if used {
        quote!(*operand::result(ip, fp) = #v)
    } else {
        quote!({
            let __v: Zval = #v;
            __v.ptr_dtor();
        })
    }
}

/// Smart-branch variants of one combination.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Smart {
    Plain,
    Jmpz,
    Jmpnz,
}

/// `branch!(cond)` per smart-branch variant.
pub fn branch(cond: TokenStream, smart: Smart) -> TokenStream {
    let target = jump(quote!(operand::jmp_addr_2(ip.add(1))));
    match smart {
        Smart::Plain => quote!({
            let __c: bool = #cond;
            *operand::result(ip, fp) = Zval::bool(__c);
            break 'body (ip.add(1), fp)
        }),
        Smart::Jmpz => quote!({
            let __c: bool = #cond;
            if __c { break 'body (ip.add(2), fp) } else #target
        }),
        Smart::Jmpnz => quote!({
            let __c: bool = #cond;
            if __c #target else { break 'body (ip.add(2), fp) }
        }),
    }
}

/// `slow!(f(args))` / `slow_owned!(f(args))`: save the opline, call the
/// helper with `(vm, fp, ip, args..)`, on `Err` run `frees` and go to the
/// exception handler.
pub fn slow(func: TokenStream, args: Vec<TokenStream>, frees: Vec<TokenStream>) -> TokenStream {
    quote!(match {
        (*(fp as *mut Frame)).opline = ip;
        #func(&mut *vm, fp, ip #(, #args)*)
    } {
        Ok(__v) => __v,
        Err(_) => {
            #(#frees;)*
            break 'body (dispatch::exception_op(vm), fp)
        }
    })
}

/// `slow!` in the hot copy of an `#[outline_slow]` instance: start the
/// instance over in its cold copy (a tail call, so the hot copy makes no
/// call and needs no stack frame).
pub fn restart_in(cold: &str) -> TokenStream {
    let f = Ident::new(cold, Span::call_site());
    quote!(return #f(ip, fp, vm))
}

/// `read!(cv)` in the hot copy of an `#[outline_slow]` instance: an undefined
/// CV (which warns) starts the instance over in its cold copy.
pub fn read_cv_or_restart(w: Which, cold: &str) -> TokenStream {
    let f = Ident::new(cold, Span::call_site());
    let p = f_ip_fp("cv_or_null", w);
    quote!({
        let __p: *const Zval = #p;
        if __p.is_null() {
            return #f(ip, fp, vm);
        }
        __p
    })
}

/// `is_result_used!()`: a literal in `retval` instances.
pub fn is_result_used(used: bool) -> TokenStream {
    quote!(#used)
}
