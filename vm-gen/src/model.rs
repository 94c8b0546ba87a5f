//! The checked model: handlers with resolved operand kinds, result and specs.

use crate::parse::{DefFile, DefItem, RawHandler, RawKinds};
use crate::Diag;
use proc_macro2::Span;
use syn::{Block, Item};

/// Zend operand type bits, as the engine stores them in `Op::op1_type` etc.
pub const CONST: u16 = 1;
pub const TMP: u16 = 2;
pub const VAR: u16 = 4;
pub const UNUSED: u16 = 8;
pub const CV: u16 = 16;
/// Metadata-only bits for non-value operands (at run time their type is UNUSED).
pub const JMP_ADDR: u16 = 32;
pub const NUM: u16 = 64;

/// The concrete value kinds, in Zend's bit order.
pub const CONCRETE: [u16; 5] = [CONST, TMP, VAR, UNUSED, CV];

/// An operand kind as written in handlers.def: each one is one instance.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    Const,
    Tmp,
    Var,
    Cv,
    Unused,
    TmpVar,
    TmpVarCv,
    Any,
    JmpAddr,
    Num,
}

impl Kind {
    pub const ALL: [Kind; 10] = [
        Kind::Const,
        Kind::Tmp,
        Kind::Var,
        Kind::Cv,
        Kind::Unused,
        Kind::TmpVar,
        Kind::TmpVarCv,
        Kind::Any,
        Kind::JmpAddr,
        Kind::Num,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Const => "CONST",
            Kind::Tmp => "TMP",
            Kind::Var => "VAR",
            Kind::Cv => "CV",
            Kind::Unused => "UNUSED",
            Kind::TmpVar => "TMPVAR",
            Kind::TmpVarCv => "TMPVARCV",
            Kind::Any => "ANY",
            Kind::JmpAddr => "JMP_ADDR",
            Kind::Num => "NUM",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.name() == s)
    }

    /// The Zend kinds (bits) this instance kind serves.
    pub fn cover(self) -> u16 {
        match self {
            Kind::Const => CONST,
            Kind::Tmp => TMP,
            Kind::Var => VAR,
            Kind::Cv => CV,
            Kind::Unused => UNUSED,
            Kind::TmpVar => TMP | VAR,
            Kind::TmpVarCv => TMP | VAR | CV,
            Kind::Any => CONST | TMP | VAR | UNUSED | CV,
            Kind::JmpAddr => JMP_ADDR,
            Kind::Num => NUM,
        }
    }

    /// JMP_ADDR and NUM are not values: no read/free, not in instance names.
    pub fn is_value(self) -> bool {
        !matches!(self, Kind::JmpAddr | Kind::Num)
    }
}

/// Rank of a concrete kind for `commutative` (CONST < TMP/VAR < CV).
pub fn rank(concrete: u16) -> u8 {
    match concrete {
        CONST => 0,
        TMP | VAR => 1,
        CV => 2,
        _ => 0,
    }
}

pub struct Operand {
    /// `false`: the opcode has no such operand (UNUSED, left out of names).
    pub declared: bool,
    pub kinds: Vec<Kind>,
}

impl Operand {
    pub fn cover(&self) -> u16 {
        self.kinds.iter().fold(0, |a, k| a | k.cover())
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ResultKind {
    Tmp,
    Var,
    TmpOrVar,
    Cv,
    Any,
}

impl ResultKind {
    pub fn cover(self) -> u16 {
        match self {
            ResultKind::Tmp => TMP,
            ResultKind::Var => VAR,
            ResultKind::TmpOrVar => TMP | VAR,
            ResultKind::Cv => CV,
            ResultKind::Any => TMP | VAR | UNUSED | CV,
        }
    }
}

#[derive(Default)]
pub struct Spec {
    pub commutative: bool,
    pub no_const_const: bool,
    pub smart_branch: bool,
    pub retval: bool,
    pub op_data: Option<Vec<Kind>>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Temperature {
    Hot,
    Normal,
    Cold,
}

pub struct Handler {
    /// Zend name, `IS_SMALLER`.
    pub name: String,
    /// Rust name, `IsSmaller`.
    pub camel: String,
    pub span: Span,
    pub line: usize,
    /// Raw doc strings (`#[doc = " text"]`), in order.
    pub docs: Vec<String>,
    pub op1: Operand,
    pub op2: Operand,
    pub result: Option<ResultKind>,
    pub spec: Spec,
    pub temperature: Temperature,
    /// `#[outline_slow]`: the slow paths live in a cold copy of the body
    /// that the hot instance tail-calls (see `emit::handlers::instance`).
    pub outline_slow: bool,
    /// `None` for `opcode` items.
    pub body: Option<Block>,
}

impl Handler {
    /// The first doc line: the opcode's semantics.
    pub fn semantics(&self) -> String {
        self.docs
            .iter()
            .map(|d| d.trim())
            .find(|d| !d.is_empty())
            .unwrap_or("")
            .to_string()
    }
}

pub struct Def {
    pub handlers: Vec<Handler>,
    /// `use` and `fn` items, copied into handlers.rs in order.
    pub rust_items: Vec<Item>,
}

pub fn check(file: DefFile) -> Result<Def, Diag> {
    let mut handlers: Vec<Handler> = Vec::new();
    let mut rust_items = Vec::new();
    for item in file.items {
        match item {
            DefItem::Rust(i) => rust_items.push(i),
            DefItem::Handler(raw) => {
                let h = check_handler(raw)?;
                if let Some(prev) = handlers.iter().find(|p| p.name == h.name || p.camel == h.camel) {
                    return Err(Diag::new(
                        h.span,
                        format!("opcode `{}` is already defined at line {}", prev.name, prev.line),
                    ));
                }
                handlers.push(h);
            }
        }
    }
    if handlers.len() > 256 {
        let h = &handlers[256];
        return Err(Diag::new(h.span, "more than 256 opcodes: `Opcode` is a u8"));
    }
    Ok(Def { handlers, rust_items })
}

fn is_upper_snake(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_uppercase()
        && b.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
        && !s.ends_with('_')
        && !s.contains("__")
}

pub fn camel_case(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect()
}

fn check_kinds(raw: &RawKinds, what: &str) -> Result<Vec<Kind>, Diag> {
    let mut kinds: Vec<Kind> = Vec::new();
    for id in &raw.names {
        let s = id.to_string();
        let k = Kind::from_name(&s).ok_or_else(|| {
            Diag::new(
                id.span(),
                format!(
                    "unknown operand kind `{s}` (expected CONST, TMP, VAR, CV, UNUSED, TMPVAR, TMPVARCV, ANY, JMP_ADDR or NUM)"
                ),
            )
        })?;
        if let Some(prev) = kinds.iter().find(|p| p.cover() & k.cover() != 0) {
            let msg = if *prev == k {
                format!("`{s}` is listed twice in {what}")
            } else {
                format!(
                    "`{s}` overlaps `{}` in {what}: each Zend kind is served by one instance",
                    prev.name()
                )
            };
            return Err(Diag::new(id.span(), msg));
        }
        // NUM may share its operand with CONST (Zend's SEND_* op2: an
        // argument number, or a named argument's name); at run time a NUM
        // operand's type is UNUSED.
        let num_const = raw.names.len() == 2 && raw.names.iter().all(|n| matches!(n.to_string().as_str(), "NUM" | "CONST"));
        if !k.is_value() && raw.names.len() > 1 && !(k == Kind::Num && num_const) {
            return Err(Diag::new(id.span(), format!("`{s}` must be the only kind of {what}")));
        }
        kinds.push(k);
    }
    Ok(kinds)
}

fn check_handler(raw: RawHandler) -> Result<Handler, Diag> {
    let name = raw.name.to_string();
    let span = raw.name.span();
    let what = if raw.is_opcode { "opcode" } else { "handler" };
    if !is_upper_snake(&name) {
        return Err(Diag::new(span, format!("{what} name `{name}` must be UPPER_SNAKE (Zend's opcode name)")));
    }

    let mut docs = Vec::new();
    let mut spec = Spec::default();
    let mut temperature = Temperature::Normal;
    let mut outline_slow = false;
    for attr in &raw.attrs {
        let path = attr.path();
        if path.is_ident("doc") {
            if let syn::Meta::NameValue(nv) = &attr.meta {
                if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value {
                    docs.push(s.value());
                    continue;
                }
            }
            return Err(Diag::new(attr_span(attr), "doc attributes must be `///` lines"));
        } else if path.is_ident("hot") || path.is_ident("cold") {
            if raw.is_opcode {
                return Err(Diag::new(attr_span(attr), "`#[hot]`/`#[cold]` need a handler; an `opcode` item has none"));
            }
            attr.meta.require_path_only().map_err(Diag::from)?;
            if temperature != Temperature::Normal {
                return Err(Diag::new(attr_span(attr), "a handler is either `#[hot]` or `#[cold]`, once"));
            }
            temperature = if path.is_ident("hot") { Temperature::Hot } else { Temperature::Cold };
        } else if path.is_ident("outline_slow") {
            if raw.is_opcode {
                return Err(Diag::new(attr_span(attr), "`#[outline_slow]` needs a handler; an `opcode` item has none"));
            }
            attr.meta.require_path_only().map_err(Diag::from)?;
            if outline_slow {
                return Err(Diag::new(attr_span(attr), "`#[outline_slow]` is given twice"));
            }
            outline_slow = true;
        } else if path.is_ident("spec") {
            if raw.is_opcode {
                return Err(Diag::new(attr_span(attr), "`#[spec]` needs a handler; an `opcode` item has none"));
            }
            parse_spec(attr, &mut spec)?;
        } else {
            return Err(Diag::new(
                attr_span(attr),
                "unknown attribute (expected `///` docs, `#[hot]`, `#[cold]`, `#[outline_slow]` or `#[spec(..)]`)",
            ));
        }
    }
    if docs.iter().all(|d| d.trim().is_empty()) {
        return Err(Diag::new(
            span,
            format!("{what} `{name}` has no doc comment: its first `///` line states the semantics"),
        ));
    }

    let mut op1 = Operand { declared: false, kinds: vec![Kind::Unused] };
    let mut op2 = Operand { declared: false, kinds: vec![Kind::Unused] };
    for p in &raw.params {
        let pname = p.name.to_string();
        if pname == "op1" && op2.declared {
            return Err(Diag::new(p.name.span(), "declare op1 before op2"));
        }
        let slot = match pname.as_str() {
            "op1" => &mut op1,
            "op2" => &mut op2,
            _ => return Err(Diag::new(p.name.span(), format!("unknown operand `{pname}` (expected op1 or op2)"))),
        };
        if slot.declared {
            return Err(Diag::new(p.name.span(), format!("operand `{pname}` is declared twice")));
        }
        slot.kinds = check_kinds(&p.kinds, &pname)?;
        slot.declared = true;
    }

    let result = match &raw.result {
        None => None,
        Some(r) => {
            let names: Vec<String> = r.names.iter().map(|i| i.to_string()).collect();
            let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
            Some(match names.as_slice() {
                ["TMP"] => ResultKind::Tmp,
                ["VAR"] => ResultKind::Var,
                ["TMP", "VAR"] | ["VAR", "TMP"] => ResultKind::TmpOrVar,
                ["CV"] => ResultKind::Cv,
                ["ANY"] => ResultKind::Any,
                _ => {
                    return Err(Diag::new(
                        r.span(),
                        "result must be one of `TMP`, `VAR`, `TMP | VAR`, `CV`, `ANY`",
                    ))
                }
            })
        }
    };

    // Spec rules that depend on operands and result.
    if spec.commutative {
        for (op, n) in [(&op1, "op1"), (&op2, "op2")] {
            let ok = op.declared
                && op.kinds.iter().all(|k| {
                    matches!(k, Kind::Const | Kind::Tmp | Kind::Var | Kind::TmpVar | Kind::Cv | Kind::TmpVarCv)
                });
            if !ok {
                return Err(Diag::new(
                    span,
                    format!("`commutative` needs {n} declared with kinds among CONST, TMP, VAR, TMPVAR, CV, TMPVARCV"),
                ));
            }
        }
        if op1.cover() != op2.cover() {
            return Err(Diag::new(
                span,
                "`commutative` needs op1 and op2 to accept the same Zend kinds, so a swapped lookup always finds an instance",
            ));
        }
    }
    if spec.smart_branch && result.is_none() {
        return Err(Diag::new(span, "`smart_branch` needs a result (the plain instance writes it)"));
    }
    if spec.retval && result.is_none() {
        return Err(Diag::new(span, "`retval` needs a result"));
    }
    if spec.smart_branch && spec.op_data.is_some() {
        return Err(Diag::new(span, "`smart_branch` and `op_data` cannot be combined"));
    }

    Ok(Handler {
        camel: camel_case(&name),
        line: span.start().line,
        name,
        span,
        docs,
        op1,
        op2,
        result,
        spec,
        temperature,
        outline_slow,
        body: raw.body,
    })
}

fn attr_span(attr: &syn::Attribute) -> Span {
    attr.pound_token.span
}

fn parse_spec(attr: &syn::Attribute, spec: &mut Spec) -> Result<(), Diag> {
    struct Rule {
        name: syn::Ident,
        kinds: Option<RawKinds>,
    }
    impl syn::parse::Parse for Rule {
        fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
            let name = input.parse()?;
            let kinds = if input.peek(syn::Token![=]) {
                input.parse::<syn::Token![=]>()?;
                Some(input.parse()?)
            } else {
                None
            };
            Ok(Rule { name, kinds })
        }
    }
    let rules = attr
        .parse_args_with(syn::punctuated::Punctuated::<Rule, syn::Token![,]>::parse_terminated)
        .map_err(Diag::from)?;
    for rule in rules {
        let n = rule.name.to_string();
        let sp = rule.name.span();
        if n != "op_data" && rule.kinds.is_some() {
            return Err(Diag::new(sp, format!("spec rule `{n}` takes no value")));
        }
        let flag = match n.as_str() {
            "commutative" => &mut spec.commutative,
            "no_const_const" => &mut spec.no_const_const,
            "smart_branch" => &mut spec.smart_branch,
            "retval" => &mut spec.retval,
            "op_data" => {
                let Some(k) = &rule.kinds else {
                    return Err(Diag::new(sp, "`op_data` needs kinds: `op_data = CONST | TMP | VAR | CV`"));
                };
                if spec.op_data.is_some() {
                    return Err(Diag::new(sp, "spec rule `op_data` is given twice"));
                }
                let kinds = check_kinds(k, "op_data")?;
                if let Some(bad) = kinds.iter().find(|k| !k.is_value()) {
                    return Err(Diag::new(k.span(), format!("`op_data` kinds must be value kinds, not {}", bad.name())));
                }
                spec.op_data = Some(kinds);
                continue;
            }
            _ => {
                return Err(Diag::new(
                    sp,
                    format!("unknown spec rule `{n}` (expected commutative, no_const_const, smart_branch, retval or op_data = KINDS)"),
                ))
            }
        };
        if *flag {
            return Err(Diag::new(sp, format!("spec rule `{n}` is given twice")));
        }
        *flag = true;
    }
    Ok(())
}
