//! The surface syntax of handlers.def, parsed with `syn` (spans kept).
//!
//! Only shape is checked here; names, kinds and specs are checked in `model`.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Block, Ident, Item, Token};

mod kw {
    syn::custom_keyword!(handler);
    syn::custom_keyword!(opcode);
}

/// A whole handlers.def file.
pub struct DefFile {
    pub items: Vec<DefItem>,
}

pub enum DefItem {
    /// `handler NAME(..) -> R { .. }` or `opcode NAME(..) -> R;`
    Handler(RawHandler),
    /// A `use` or `fn` item copied into handlers.rs.
    Rust(Item),
}

pub struct RawHandler {
    pub attrs: Vec<Attribute>,
    /// `opcode` item: no body, no instances.
    pub is_opcode: bool,
    pub name: Ident,
    pub params: Vec<RawParam>,
    pub result: Option<RawKinds>,
    pub body: Option<Block>,
}

/// `op1: CONST | TMPVAR`
pub struct RawParam {
    pub name: Ident,
    pub kinds: RawKinds,
}

/// `|`-separated kind names, in source order.
pub struct RawKinds {
    pub names: Vec<Ident>,
}

impl RawKinds {
    pub fn span(&self) -> Span {
        self.names.first().map(|i| i.span()).unwrap_or_else(Span::call_site)
    }
}

impl Parse for RawKinds {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut names = vec![input.parse::<Ident>()?];
        while input.peek(Token![|]) {
            input.parse::<Token![|]>()?;
            names.push(input.parse()?);
        }
        Ok(RawKinds { names })
    }
}

impl Parse for RawParam {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.parse()?;
        input.parse::<Token![:]>()?;
        let kinds = input.parse()?;
        Ok(RawParam { name, kinds })
    }
}

impl Parse for DefFile {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // `//!` lines at the top describe the file; they are not copied.
        input.call(Attribute::parse_inner)?;
        let mut items = Vec::new();
        while !input.is_empty() {
            let attrs = input.call(Attribute::parse_outer)?;
            let is_handler = input.peek(kw::handler);
            if is_handler || input.peek(kw::opcode) {
                if is_handler {
                    input.parse::<kw::handler>()?;
                } else {
                    input.parse::<kw::opcode>()?;
                }
                let name: Ident = input.parse()?;
                let content;
                syn::parenthesized!(content in input);
                let params: Punctuated<RawParam, Token![,]> =
                    content.parse_terminated(RawParam::parse, Token![,])?;
                let result = if input.peek(Token![->]) {
                    input.parse::<Token![->]>()?;
                    Some(input.parse()?)
                } else {
                    None
                };
                let body = if is_handler {
                    Some(input.parse::<Block>()?)
                } else {
                    input.parse::<Token![;]>()?;
                    None
                };
                items.push(DefItem::Handler(RawHandler {
                    attrs,
                    is_opcode: !is_handler,
                    name,
                    params: params.into_iter().collect(),
                    result,
                    body,
                }));
            } else {
                let mut item: Item = input.parse()?;
                match &mut item {
                    Item::Use(u) => u.attrs.splice(0..0, attrs).for_each(drop),
                    Item::Fn(f) => f.attrs.splice(0..0, attrs).for_each(drop),
                    other => {
                        return Err(syn::Error::new_spanned(
                            other,
                            "only `handler`, `opcode`, `use` and `fn` items are allowed in handlers.def",
                        ))
                    }
                }
                items.push(DefItem::Rust(item));
            }
        }
        Ok(DefFile { items })
    }
}
