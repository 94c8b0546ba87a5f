//! `#[builtin("PHP stub signature")]`: one declaration per builtin function
//! or method, as php-src declares them in `*.stub.php` files.
//!
//! ```ignore
//! /// Pads a string to a length.
//! #[builtin(r#"function str_pad(string $string, int $length, string $pad_string = " ", int $pad_type = STR_PAD_RIGHT): string"#)]
//! pub fn str_pad(vm: &mut Vm, string: &[u8], length: i64, pad_string: &[u8], pad_type: i64) -> Result<Zval, Thrown> {
//!     …
//! }
//! ```
//!
//! The function keeps its name but becomes a `BuiltinFn`
//! (`fn(&mut Vm, &[Zval], &mut Zval) -> Result<(), Thrown>`) that counts
//! and converts its arguments as Zend's `ZEND_PARSE_PARAMETERS_*` do
//! (coercive or strict mode, PHP's `TypeError`/`ArgumentCountError`
//! messages), fills in defaults, calls the body with typed values and
//! stores its result. Beside it, a module of the same name holds
//! `DEF: BuiltinDef`, the declaration the registry, named arguments and
//! Reflection read. The build script collects every `#[builtin]` function
//! of `vm/stdlib` into the registry, so adding a builtin is this
//! declaration and its body.
//!
//! Parameters pair with the stub's by name and order (a Rust keyword gets
//! a trailing `_`: `$array` is `array`, `$type` is `type_`). What each
//! stub type becomes (a `?T`/`T|null`/`= null` parameter is `Option<…>`;
//! an optional parameter without a literal default may also be taken as
//! `Option<…>` to see whether it was passed):
//!
//! | stub | Rust |
//! | --- | --- |
//! | `int`, `float`, `bool` | `i64`, `f64`, `bool` |
//! | `int\|float` | `Zval` (an int or a float) |
//! | `string` | `&[u8]`, `Vec<u8>` or `Cow<[u8]>` |
//! | `array` | `*mut ZArray` or `&ZArray` |
//! | `object`, a class name | `*mut ZObject` |
//! | `callable`, `mixed`, other unions | `&Zval` (unions are checked first) |
//! | `&$x` (by reference) | `&Zval` (the reference) |
//! | `...$xs` (variadic) | `&[Zval]` |
//!
//! The body returns `Result<T, Thrown>` for any `T: IntoRet` (`()` is
//! null; integers, floats, bools, strings, `Zval`, `Option<T>` with `None`
//! as null).

mod stub;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote, quote_spanned};
use stub::{Kind, Param, Stub};
use syn::spanned::Spanned;
use syn::{parse_macro_input, FnArg, ItemFn, LitStr, Pat, Type};

#[proc_macro_attribute]
pub fn builtin(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = parse_macro_input!(attr as Attr);
    let func = parse_macro_input!(item as ItemFn);
    match expand(&args, func) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `"stub"` then optional `alias = "name"` pairs.
struct Attr {
    stub: LitStr,
    aliases: Vec<LitStr>,
}

impl syn::parse::Parse for Attr {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let stub: LitStr = input.parse()?;
        let mut aliases = Vec::new();
        while input.parse::<syn::Token![,]>().is_ok() {
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            if key != "alias" {
                return Err(syn::Error::new(key.span(), "expected `alias = \"name\"`"));
            }
            input.parse::<syn::Token![=]>()?;
            aliases.push(input.parse()?);
        }
        Ok(Attr { stub, aliases })
    }
}

fn err<T>(span: Span, msg: impl std::fmt::Display) -> syn::Result<T> {
    Err(syn::Error::new(span, msg))
}

/// How a Rust parameter wants its converted value.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Shape {
    /// `&[u8]`, `&ZArray`, `&Zval`, `&[Zval]`: borrow the converted value.
    Ref,
    /// `Vec<u8>`: own it.
    Owned,
    /// Passed as converted (`i64`, `Cow`, `*mut ZArray`, `Zval`, …).
    Plain,
}

fn shape(ty: &Type) -> (bool, Shape) {
    if let Type::Path(p) = ty {
        if let Some(last) = p.path.segments.last() {
            if last.ident == "Option" {
                if let syn::PathArguments::AngleBracketed(a) = &last.arguments {
                    if let Some(syn::GenericArgument::Type(inner)) = a.args.first() {
                        return (true, shape(inner).1);
                    }
                }
            }
            if last.ident == "Vec" {
                return (false, Shape::Owned);
            }
        }
        return (false, Shape::Plain);
    }
    if matches!(ty, Type::Reference(_)) {
        return (false, Shape::Ref);
    }
    (false, Shape::Plain)
}

/// The type as Zend's messages print it (`zend_type_to_string` order:
/// classes, static, callable, object, array, string, int, float, bool,
/// void, never, then null as `?T` or `|null`).
fn type_text(ty: &str) -> String {
    let (ty, mut nullable) = match ty.strip_prefix('?') {
        Some(t) => (t, true),
        None => (ty, false),
    };
    if ty.contains('&') || ty.contains('(') {
        return ty.to_string();
    }
    const ORDER: &[&str] = &["static", "callable", "iterable", "object", "array", "string", "int", "float", "bool", "false", "true", "void", "never"];
    let mut classes = Vec::new();
    let mut builtin = Vec::new();
    for part in ty.split('|') {
        let lc = part.to_ascii_lowercase();
        if lc == "null" {
            nullable = true;
        } else if lc == "mixed" {
            return "mixed".into();
        } else if let Some(i) = ORDER.iter().position(|o| *o == lc) {
            builtin.push(i);
        } else {
            classes.push(part.trim_start_matches('\\').to_string());
        }
    }
    builtin.sort_unstable();
    let mut parts = classes;
    parts.extend(builtin.into_iter().map(|i| ORDER[i].to_string()));
    if nullable {
        if parts.len() == 1 {
            return format!("?{}", parts[0]);
        }
        parts.push("null".into());
    }
    parts.join("|")
}

/// A union's accepted kinds as a bit set over the value kinds (the
/// `crate::stdlib::args::ACCEPT_*` bits), or `None` when the kinds are
/// not all plain (classes, callable).
fn union_mask(ty: &str) -> Option<Tokens> {
    let mut bits = Vec::new();
    for part in ty.trim_start_matches('?').split('|') {
        let bit = match part.to_ascii_lowercase().as_str() {
            "null" => quote!(ACCEPT_NULL),
            "int" => quote!(ACCEPT_INT),
            "float" => quote!(ACCEPT_FLOAT),
            "string" => quote!(ACCEPT_STRING),
            "bool" => quote!(ACCEPT_BOOL),
            "false" => quote!(ACCEPT_FALSE),
            "true" => quote!(ACCEPT_TRUE),
            "array" => quote!(ACCEPT_ARRAY),
            "object" => quote!(ACCEPT_OBJECT),
            _ => return None,
        };
        bits.push(quote!(crate::stdlib::args::#bit));
    }
    if ty.starts_with('?') {
        bits.push(quote!(crate::stdlib::args::ACCEPT_NULL));
    }
    Some(quote!(#(#bits)|*))
}

fn rust_name(php: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match",
        "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
        "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
        "virtual", "yield", "try", "gen",
    ];
    if KEYWORDS.contains(&php) {
        format!("{php}_")
    } else {
        php.to_string()
    }
}

/// A literal default as Rust tokens for a parameter of `kind`, or `None`
/// when it must be evaluated at run time (constants, expressions).
fn literal_default(kind: &Kind, src: &str) -> Option<Tokens> {
    let lc = src.to_ascii_lowercase();
    match kind {
        Kind::Int => src.parse::<i64>().ok().map(|n| quote!(#n)),
        Kind::Float => src.parse::<f64>().ok().filter(|f| f.is_finite()).map(|f| quote!(#f)),
        Kind::Bool => match lc.as_str() {
            "true" => Some(quote!(true)),
            "false" => Some(quote!(false)),
            _ => None,
        },
        Kind::Str => stub::string_literal(src).map(|b| {
            let lit = proc_macro2::Literal::byte_string(&b);
            quote!(::std::borrow::Cow::Borrowed(&#lit[..]))
        }),
        _ => None,
    }
}

fn expand(attr: &Attr, mut func: ItemFn) -> syn::Result<Tokens> {
    let span = attr.stub.span();
    let stub: Stub = match stub::parse(&attr.stub.value()) {
        Ok(s) => s,
        Err(e) => return err(span, format!("bad stub: {e}")),
    };
    let fname = func.sig.ident.clone();
    // The Rust parameters: `vm` first, then one per stub parameter.
    let inputs: Vec<_> = func.sig.inputs.iter().cloned().collect();
    let Some(FnArg::Typed(vm_arg)) = inputs.first() else {
        return err(func.sig.span(), "a builtin takes `vm: &mut Vm` first");
    };
    let vm_ident = match &*vm_arg.pat {
        Pat::Ident(i) => i.ident.clone(),
        _ => return err(vm_arg.span(), "the first parameter must be a plain name (`vm`)"),
    };
    let rust_params: Vec<(syn::Ident, Type)> = inputs[1..]
        .iter()
        .map(|a| match a {
            FnArg::Typed(t) => match &*t.pat {
                Pat::Ident(i) => Ok((i.ident.clone(), (*t.ty).clone())),
                _ => err(t.span(), "builtin parameters must be plain names"),
            },
            FnArg::Receiver(r) => err(r.span(), "a builtin has no `self`"),
        })
        .collect::<syn::Result<_>>()?;
    if rust_params.len() != stub.params.len() {
        return err(
            func.sig.inputs.span(),
            format!("the stub declares {} parameters, the function takes {} after `vm`", stub.params.len(), rust_params.len()),
        );
    }
    for ((ident, _), p) in rust_params.iter().zip(&stub.params) {
        let want = rust_name(&p.name);
        let got = ident.to_string();
        if got.trim_start_matches("r#") != want && got.trim_start_matches('_') != want {
            return err(ident.span(), format!("parameter `{got}` does not match the stub's `${}` (expected `{want}`)", p.name));
        }
    }

    let required = stub.params.iter().take_while(|p| p.default.is_none() && !p.variadic).count();
    let variadic = stub.params.last().is_some_and(|p| p.variadic);
    let fixed = stub.params.len() - variadic as usize;
    let max = if variadic { quote!(usize::MAX) } else { quote!(#fixed) };
    let min = required;

    // One conversion per parameter.
    let mut lets = Vec::new();
    let mut pass = Vec::new();
    let mut frees = Vec::new();
    for (i, ((_, ty), p)) in rust_params.iter().zip(&stub.params).enumerate() {
        let n = i + 1;
        let sp = ty.span();
        let (opt, sh) = shape(ty);
        let local = format_ident!("__a{}", i);
        if p.variadic {
            lets.push(quote_spanned!(sp=> let #local: &[crate::value::Zval] = if __args.len() > #i { &__args[#i..] } else { &[] };));
            pass.push(quote!(#local));
            continue;
        }
        let info = quote!(&__D.args[#i]);
        if p.by_ref {
            if opt {
                lets.push(quote_spanned!(sp=> let #local: Option<&crate::value::Zval> = __args.get(#i).filter(|v| !v.is_undef());));
            } else {
                lets.push(quote_spanned!(sp=> let #local: &crate::value::Zval = &__args[#i];));
            }
            pass.push(quote!(#local));
            continue;
        }
        let (kind, nullable) = p.kind();
        let nullable = nullable && !matches!(kind, Kind::Mixed);
        if nullable && !opt {
            return err(sp, format!("`${}` accepts null: take it as `Option<…>`", p.name));
        }
        let resolved_callable = matches!(kind, Kind::Callable) && quote!(#ty).to_string().contains("Callable");
        let conv = match &kind {
            Kind::Int => quote!(crate::stdlib::args::int_arg),
            Kind::Float => quote!(crate::stdlib::args::float_arg),
            Kind::Number => quote!(crate::stdlib::args::number_arg),
            Kind::Str => quote!(crate::stdlib::args::str_arg),
            Kind::Bool => quote!(crate::stdlib::args::bool_arg),
            Kind::Array => quote!(crate::stdlib::args::array_arg),
            Kind::Object => quote!(crate::stdlib::args::object_arg),
            Kind::Class(_) => quote!(crate::stdlib::args::class_arg),
            Kind::Callable if resolved_callable => quote!(crate::stdlib::args::callable_resolved_arg),
            Kind::Callable => quote!(crate::stdlib::args::callable_arg),
            Kind::Mixed => match p.ty.as_deref().filter(|t| t.contains('|')).and_then(union_mask) {
                Some(mask) => quote!((|vm: &mut crate::exec::Vm, n: usize, a: &'static crate::stdlib::args::BuiltinArg, v| crate::stdlib::args::union_arg(vm, n, a, v, #mask))),
                None => quote!(crate::stdlib::args::mixed_arg),
            },
        };
        // A present argument: `null` for a nullable parameter is None, never converted.
        let present = |v: Tokens| {
            if nullable {
                quote!(if #v.deref().kind() == crate::value::IS_NULL { None } else { Some(#conv(#vm_ident, #n, #info, #v)?) })
            } else if opt {
                quote!(Some(#conv(#vm_ident, #n, #info, #v)?))
            } else {
                quote!(#conv(#vm_ident, #n, #info, #v)?)
            }
        };
        let dflt = format_ident!("__d{}", i);
        let mut needs_storage = false;
        // A missing optional argument: an `Option` of a non-nullable type
        // is None (the body knows the default, as Zend's C bodies do when
        // ZEND_NUM_ARGS() is smaller); otherwise the default's value.
        let missing = match p.default.as_deref() {
            _ if i < required => quote!(unreachable!()),
            _ if opt && !nullable => quote!(None),
            None | Some("UNKNOWN") if opt => quote!(None),
            None | Some("UNKNOWN") => {
                return err(sp, format!("`${}` has no default: take it as `Option<…>` (None when not passed)", p.name));
            }
            Some(d) if opt && d.eq_ignore_ascii_case("null") => quote!(None),
            Some(d) => match literal_default(&kind, d) {
                Some(lit) if opt => quote!(Some(#lit)),
                Some(lit) => lit,
                None => {
                    needs_storage = true;
                    let eval = present(quote!((&#dflt)));
                    quote!({ #dflt = crate::stdlib::args::default_value(#vm_ident, #d); #eval })
                }
            },
        };
        if needs_storage {
            lets.push(quote!(#[allow(unused_mut)] let mut #dflt = crate::value::Zval::UNDEF;));
            frees.push(quote!(crate::stdlib::args::free_default(#dflt);));
        }
        let present_v = present(quote!(v));
        if i < required {
            lets.push(quote_spanned!(sp=> let #local = { let v = &__args[#i]; #present_v };));
        } else {
            lets.push(quote_spanned!(sp=> let #local = match __args.get(#i).filter(|v| !v.is_undef()) { Some(v) => #present_v, None => #missing };));
        }
        let passed = match (sh, opt) {
            (Shape::Ref, false) => quote!(crate::stdlib::args::Borrow::borrow_arg(&#local)),
            (Shape::Ref, true) => quote!(#local.as_ref().map(crate::stdlib::args::Borrow::borrow_arg)),
            (Shape::Owned, false) => quote!(crate::stdlib::args::Owned::owned_arg(#local)),
            (Shape::Owned, true) => quote!(#local.map(crate::stdlib::args::Owned::owned_arg)),
            (Shape::Plain, _) => quote!(#local),
        };
        pass.push(passed);
    }

    // The declaration.
    let name = match &stub.class {
        Some(c) => format!("{}::{}", c, stub.name),
        None => stub.name.clone(),
    };
    let arg_infos = stub.params.iter().map(|p: &Param| {
        let pname = &p.name;
        let ty = p.ty.as_deref().map(type_text).unwrap_or_default();
        let (by_ref, variadic) = (p.by_ref, p.variadic);
        let default = match &p.default {
            Some(d) => quote!(Some(#d)),
            None => quote!(None),
        };
        quote!(crate::stdlib::args::BuiltinArg { name: #pname, ty: #ty, by_ref: #by_ref, variadic: #variadic, default: #default })
    });
    let ret_text = stub.ret.as_deref().map(type_text).unwrap_or_default();
    let min_u32 = min as u32;
    let is_static = stub.is_static;
    let alias_defs = attr.aliases.iter().map(|a| {
        quote!(crate::stdlib::BuiltinDef { name: #a, f: super::#fname, args: DEF.args, required: #min_u32, ret: #ret_text, is_static: false, legacy: &[] })
    });
    let n_aliases = attr.aliases.len();

    // The body, as an inner function with the typed signature.
    let vis = func.vis.clone();
    let attrs: Vec<_> = func.attrs.drain(..).collect();
    let mut body_fn = func.clone();
    body_fn.sig.ident = format_ident!("__body");
    body_fn.vis = syn::Visibility::Inherited;
    body_fn.attrs = vec![syn::parse_quote!(#[inline(always)])];
    let unused_vm = if stub.params.is_empty() { quote!(let _ = &__args;) } else { quote!() };

    Ok(quote! {
        #(#attrs)*
        #vis fn #fname(#vm_ident: &mut crate::exec::Vm, __args: &[crate::value::Zval], __ret: &mut crate::value::Zval) -> Result<(), crate::exec::Thrown> {
            #body_fn
            #[allow(unused)]
            let __D: &'static crate::stdlib::BuiltinDef = &#fname::DEF;
            #unused_vm
            if __args.len() < #min || __args.len() > #max {
                return Err(crate::stdlib::args::arity_error(#vm_ident, __args.len(), #min, #max));
            }
            #(#lets)*
            let __r = __body(#vm_ident, #(#pass),*);
            #(#frees)*
            let __r = __r?;
            crate::stdlib::args::IntoRet::into_ret(__r, __ret);
            Ok(())
        }

        #[doc(hidden)]
        #[allow(non_snake_case, dead_code)]
        #vis mod #fname {
            /// The declaration of this builtin.
            pub static DEF: crate::stdlib::BuiltinDef = crate::stdlib::BuiltinDef {
                name: #name,
                f: super::#fname,
                args: &[#(#arg_infos),*],
                required: #min_u32,
                ret: #ret_text,
                is_static: #is_static,
                legacy: &[],
            };
            /// Other names of this builtin (`is_integer` for `is_int`).
            pub static ALIASES: [crate::stdlib::BuiltinDef; #n_aliases] = [#(#alias_defs),*];
        }
    })
}
