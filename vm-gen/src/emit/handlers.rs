//! handlers.rs: the copied helpers, one fn per instance, and the table.

use super::lit;
use crate::expand::{expand_body, Instance};
use crate::model::{Def, Handler, Kind, Operand, Temperature};
use crate::operand::Smart;
use crate::Diag;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

fn ident(s: &str) -> Ident {
    Ident::new(s, Span::call_site())
}

/// The doc line of an instance: what, which kinds, where from.
fn instance_doc(h: &Handler, inst: &Instance, def_name: &str) -> String {
    let mut parts = Vec::new();
    for (n, op, k) in [("op1", &h.op1, inst.op1), ("op2", &h.op2, inst.op2)] {
        if op.declared {
            parts.push(format!("{n}: {}", k.name()));
        }
    }
    if let Some(k) = inst.op_data {
        parts.push(format!("op_data: {}", k.name()));
    }
    match inst.retval_used {
        Some(true) => parts.push("result used".into()),
        Some(false) => parts.push("result unused".into()),
        None => {}
    }
    match inst.smart {
        Some(Smart::Jmpz) => parts.push("then JMPZ".into()),
        Some(Smart::Jmpnz) => parts.push("then JMPNZ".into()),
        _ => {}
    }
    let kinds = if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) };
    let sem = h.semantics();
    let dot = if sem.ends_with('.') { "" } else { "." };
    format!(" `{}`{kinds}: {sem}{dot} From {def_name}:{}.", h.name, h.line)
}

/// Name of the cold copy of an `#[outline_slow]` instance.
pub fn cold_copy_name(inst: &Instance) -> String {
    format!("{}_COLD", inst.name)
}

/// One instance as a fn item; for `#[outline_slow]` handlers, two: the hot
/// fn holds the fast paths and tail-calls the cold copy where the body
/// reaches a `slow!`; the cold copy is the whole body, run from the start.
/// A hot fn that makes no call needs no stack frame: no register saves on
/// the fast path (LLVM places a frame for the slow calls at the entry when
/// the body has several exits).
pub fn instance(h: &Handler, inst: &Instance, def_name: &str) -> Result<TokenStream, Diag> {
    let doc = instance_doc(h, inst, def_name);
    let name = ident(&inst.name);
    let cold = if h.temperature == Temperature::Cold { quote!(#[cold]) } else { quote!() };
    if !h.outline_slow {
        let body = expand_body(h, inst, None)?;
        return Ok(quote! {
            #[doc = #doc]
            #cold
            #[inline(never)]
            pub(crate) unsafe fn #name(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> Ret {
                let (ip, fp): (*const Op, *mut Zval) = 'body: #body;
                dispatch::next(ip, fp, vm)
            }
        });
    }
    let cold_name = cold_copy_name(inst);
    let hot_body = expand_body(h, inst, Some(&cold_name))?;
    let cold_body = expand_body(h, inst, None)?;
    let cold_ident = ident(&cold_name);
    let cold_doc = format!(" Slow paths of `{}`, run from the start when its fast paths do not apply.", inst.name);
    Ok(quote! {
        #[doc = #doc]
        #cold
        #[inline(never)]
        pub(crate) unsafe fn #name(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> Ret {
            let (ip, fp): (*const Op, *mut Zval) = 'body: #hot_body;
            dispatch::next(ip, fp, vm)
        }

        #[doc = #cold_doc]
        #[cold]
        #[inline(never)]
        unsafe fn #cold_ident(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> Ret {
            let (ip, fp): (*const Op, *mut Zval) = 'body: #cold_body;
            dispatch::next(ip, fp, vm)
        }
    })
}

/// Emission order: hot handlers, then the rest, then cold ones (file order within).
pub fn ordered<'a>(def: &'a Def, insts: &'a [Instance]) -> Vec<&'a Instance> {
    let mut v: Vec<&Instance> = insts.iter().collect();
    v.sort_by_key(|i| match def.handlers[i.handler].temperature {
        Temperature::Hot => 0,
        Temperature::Normal => 1,
        Temperature::Cold => 2,
    });
    v
}

/// Pattern over a Zend operand type for an instance kind; `None` = any value.
fn kind_pat(op: &Operand, k: Kind) -> Option<TokenStream> {
    if op.kinds.len() == 1 && matches!(k, Kind::Unused | Kind::JmpAddr | Kind::Num) {
        return None;
    }
    if k == Kind::Num {
        // Beside CONST (`NUM | CONST`): the run-time type is UNUSED.
        let u = lit(crate::model::UNUSED as usize);
        return Some(quote!(#u));
    }
    let vals = crate::model::CONCRETE.iter().filter(|c| k.cover() & **c != 0).map(|c| lit(*c as usize));
    Some(quote!(#(#vals)|*))
}

fn lookup_arm(h: &Handler, insts: &[&Instance]) -> TokenStream {
    let id = ident(&h.camel);
    if insts.is_empty() {
        return quote!(Opcode::#id => None,);
    }
    // Dimensions this opcode's instances differ in.
    let op1_dim = kind_pat(&h.op1, insts[0].op1).is_some();
    let op2_dim = kind_pat(&h.op2, insts[0].op2).is_some();
    let od_dim = h.spec.op_data.is_some();
    let rv_dim = h.spec.retval;
    let sm_dim = h.spec.smart_branch;
    let mut scrutinee = Vec::new();
    if op1_dim {
        scrutinee.push(quote!(op1_type));
    }
    if op2_dim {
        scrutinee.push(quote!(op2_type));
    }
    if od_dim {
        scrutinee.push(quote!(spec.op_data));
    }
    if rv_dim {
        scrutinee.push(quote!(spec.retval_used));
    }
    if sm_dim {
        scrutinee.push(quote!(spec.smart));
    }
    if scrutinee.is_empty() {
        let f = ident(&insts[0].name);
        return quote!(Opcode::#id => Some(#f as Handler),);
    }
    let arms = insts.iter().map(|i| {
        let mut pats = Vec::new();
        if op1_dim {
            pats.push(kind_pat(&h.op1, i.op1).unwrap_or(quote!(_)));
        }
        if op2_dim {
            pats.push(kind_pat(&h.op2, i.op2).unwrap_or(quote!(_)));
        }
        if od_dim {
            pats.push(i.op_data.and_then(|k| kind_pat(&Operand { declared: true, kinds: vec![] }, k)).unwrap_or(quote!(_)));
        }
        if let Some(used) = i.retval_used {
            pats.push(quote!(#used));
        }
        if let Some(s) = i.smart {
            pats.push(match s {
                Smart::Plain => quote!(0),
                Smart::Jmpz => quote!(1),
                Smart::Jmpnz => quote!(2),
            });
        }
        let f = ident(&i.name);
        if pats.len() == 1 {
            let p = &pats[0];
            quote!(#p => Some(#f as Handler),)
        } else {
            quote!((#(#pats),*) => Some(#f as Handler),)
        }
    });
    // A lone bool dimension with both values is already exhaustive.
    let exhaustive = scrutinee.len() == 1 && rv_dim;
    let rest = if exhaustive { quote!() } else { quote!(_ => None,) };
    let scrut = if scrutinee.len() == 1 { quote!(#(#scrutinee)*) } else { quote!((#(#scrutinee),*)) };
    quote!(Opcode::#id => match #scrut { #(#arms)* #rest },)
}

pub fn emit(def: &Def, insts: &[Instance], def_name: &str) -> Result<TokenStream, Diag> {
    let rust_items = &def.rust_items;
    let mut fns = Vec::new();
    let order = ordered(def, insts);
    for inst in &order {
        fns.push(instance(&def.handlers[inst.handler], inst, def_name)?);
    }
    let arms = def.handlers.iter().enumerate().map(|(hi, h)| {
        let mine: Vec<&Instance> = insts.iter().filter(|i| i.handler == hi).collect();
        lookup_arm(h, &mine)
    });
    let n = lit(insts.len());
    let names: Vec<Ident> = order.iter().map(|i| ident(&i.name)).collect();
    let name_strs: Vec<&str> = order.iter().map(|i| i.name.as_str()).collect();
    let uses_opcode = !def.handlers.is_empty();
    let lookup_body = if uses_opcode {
        quote!(match opcode { #(#arms)* })
    } else {
        quote!(match opcode {})
    };
    Ok(quote! {
        use crate::exec::prelude::*;
        #(#rust_items)*
        #(#fns)*

        /// Which spec instance an opline wants, besides its operand types.
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
        pub struct SpecKey {
            /// 0: plain, 1: the next opline is a JMPZ on the result, 2: a JMPNZ.
            pub smart: u8,
            /// Whether the result is used (for `retval` opcodes).
            pub retval_used: bool,
            /// Zend kind of the following OP_DATA's op1 (for `op_data` opcodes), 0 if none.
            pub op_data: u8,
        }

        /// The instance serving an opline. Spec values an opcode has no rule for are
        /// ignored. For commutative opcodes the engine swaps operands first
        /// (`Opcode::should_swap`). `None` only for combinations that cannot occur.
        pub fn lookup(opcode: Opcode, op1_type: u8, op2_type: u8, spec: SpecKey) -> Option<Handler> {
            #lookup_body
        }

        /// Every instance with its name, in emission order.
        pub static INSTANCES: [(Handler, &'static str); #n] = [#((#names as Handler, #name_strs)),*];

        /// Name of an instance, for dumps and debugging.
        pub fn instance_name(h: Handler) -> Option<&'static str> {
            INSTANCES.iter().find(|(f, _)| *f as usize == h as usize).map(|(_, n)| *n)
        }

        /// Number of instances.
        pub static INSTANCE_COUNT: usize = #n;
    })
}
