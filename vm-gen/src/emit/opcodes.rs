//! opcodes.rs: `Opcode`, names, `OpcodeMeta` and `OPCODE_META`.

use super::lit;
use crate::model::{Def, UNUSED};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

pub fn emit(def: &Def) -> TokenStream {
    let hs = &def.handlers;
    let n = lit(hs.len());
    let idents: Vec<Ident> = hs.iter().map(|h| Ident::new(&h.camel, Span::call_site())).collect();
    let variants = hs.iter().zip(&idents).enumerate().map(|(i, (h, id))| {
        let docs = &h.docs;
        let i = lit(i);
        quote!(#(#[doc = #docs])* #id = #i)
    });
    let names: Vec<&str> = hs.iter().map(|h| h.name.as_str()).collect();
    let nums = (0..hs.len()).map(lit);
    let metas = hs.iter().map(|h| {
        let name = &h.name;
        let op_bits = |o: &crate::model::Operand| lit(if o.declared { o.cover() as usize } else { UNUSED as usize });
        let (op1, op2) = (op_bits(&h.op1), op_bits(&h.op2));
        let result = lit(h.result.map_or(0, |r| r.cover() as usize));
        let s = &h.spec;
        let (commutative, smart, retval) = (s.commutative, s.smart_branch, s.retval);
        let op_data = lit(s.op_data.as_ref().map_or(0, |ks| ks.iter().fold(0, |a, k| a | k.cover()) as usize));
        let has_handler = h.body.is_some();
        quote!(OpcodeMeta {
            name: #name,
            op1: #op1,
            op2: #op2,
            result: #result,
            commutative: #commutative,
            smart_branch: #smart,
            retval_spec: #retval,
            op_data: #op_data,
            has_handler: #has_handler,
        })
    });
    quote! {
        /// Every opcode of handlers.def, numbered in file order.
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        #[repr(u8)]
        pub enum Opcode {
            #(#variants,)*
        }

        impl Opcode {
            /// Number of opcodes.
            pub const COUNT: usize = #n;
            /// Every opcode, by number.
            pub const ALL: [Opcode; Opcode::COUNT] = [#(Opcode::#idents),*];

            /// Zend's name: `"ADD"`.
            pub fn name(self) -> &'static str {
                match self {
                    #(Opcode::#idents => #names,)*
                }
            }

            pub fn from_u8(v: u8) -> Option<Opcode> {
                match v {
                    #(#nums => Some(Opcode::#idents),)*
                    _ => None,
                }
            }

            pub fn meta(self) -> &'static OpcodeMeta {
                &OPCODE_META[self as usize]
            }

            /// Rank of a Zend operand type for commutative opcodes: CONST 0, TMP/VAR 1, CV 2.
            pub const fn operand_rank(op_type: u8) -> u8 {
                match op_type {
                    2 | 4 => 1,
                    16 => 2,
                    _ => 0,
                }
            }

            /// Whether the engine must swap op1 and op2 before `lookup`: instances of
            /// commutative opcodes exist only for rank(op1) >= rank(op2).
            pub fn should_swap(self, op1_type: u8, op2_type: u8) -> bool {
                self.meta().commutative && Opcode::operand_rank(op1_type) < Opcode::operand_rank(op2_type)
            }
        }

        /// What handlers.def says about an opcode. Operand, result and OP_DATA
        /// fields are bitsets of Zend kinds: CONST=1, TMP=2, VAR=4, UNUSED=8,
        /// CV=16, JMP_ADDR=32, NUM=64 (0: none).
        #[derive(Debug)]
        pub struct OpcodeMeta {
            pub name: &'static str,
            pub op1: u16,
            pub op2: u16,
            pub result: u16,
            pub commutative: bool,
            pub smart_branch: bool,
            pub retval_spec: bool,
            pub op_data: u16,
            pub has_handler: bool,
        }

        /// Metadata of every opcode, indexed by `Opcode as usize`.
        pub static OPCODE_META: [OpcodeMeta; Opcode::COUNT] = [#(#metas),*];
    }
}
