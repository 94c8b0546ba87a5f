//! Handler × operand kinds × specs → instances, their names, and their
//! bodies with every operand operation resolved (tokens from `operand`).

use crate::model::{rank, Handler, Kind, CONCRETE, CONST};
use crate::operand::{self, Access, Smart, Which};
use crate::Diag;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Block, Expr, ExprMacro, Macro, Stmt, Token};

/// One specialized copy of a handler.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Index of the handler in `Def::handlers`.
    pub handler: usize,
    pub name: String,
    pub op1: Kind,
    pub op2: Kind,
    pub op_data: Option<Kind>,
    /// `Some(used)` for `retval` handlers.
    pub retval_used: Option<bool>,
    /// `Some(..)` for `smart_branch` handlers.
    pub smart: Option<Smart>,
}

impl Instance {
    /// The spec parts of the name, in name order (`OP_DATA_CV`, `RETVAL_USED`, `JMPZ`).
    pub fn extras(&self) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(k) = self.op_data {
            v.push(format!("OP_DATA_{}", k.name()));
        }
        match self.retval_used {
            Some(true) => v.push("RETVAL_USED".into()),
            Some(false) => v.push("RETVAL_UNUSED".into()),
            None => {}
        }
        match self.smart {
            Some(Smart::Jmpz) => v.push("JMPZ".into()),
            Some(Smart::Jmpnz) => v.push("JMPNZ".into()),
            _ => {}
        }
        v
    }

    pub fn kind(&self, w: Which) -> Option<Kind> {
        match w {
            Which::Op1 => Some(self.op1),
            Which::Op2 => Some(self.op2),
            Which::OpData => self.op_data,
        }
    }
}

/// Whether an operand combination is generated: some pair of concrete Zend
/// kinds it serves survives `no_const_const` and (after the engine's swap)
/// `commutative`. Working on concrete kinds keeps `lookup` total.
pub fn combination_kept(h: &Handler, k1: Kind, k2: Kind) -> bool {
    let bits = |k: Kind| CONCRETE.iter().copied().filter(move |c| k.cover() & c != 0);
    if !h.spec.commutative && !h.spec.no_const_const {
        return true;
    }
    bits(k1).any(|c1| {
        bits(k2).any(|c2| {
            (!h.spec.no_const_const || !(c1 == CONST && c2 == CONST))
                && (!h.spec.commutative || rank(c1) >= rank(c2))
        })
    })
}

pub fn instance_name(h: &Handler, op1: Kind, op2: Kind, extras: &[String]) -> String {
    let mut n = format!("{}_SPEC", h.name);
    for (op, k) in [(&h.op1, op1), (&h.op2, op2)] {
        if op.declared && k.is_value() {
            n.push('_');
            n.push_str(k.name());
        }
    }
    for e in extras {
        n.push('_');
        n.push_str(e);
    }
    n
}

/// Every instance of a handler, in generation order: op1 kinds, op2 kinds
/// (declaration order), then OP_DATA kind, retval, smart branch.
pub fn instances(h: &Handler, index: usize) -> Vec<Instance> {
    if h.body.is_none() {
        return Vec::new();
    }
    let ods: Vec<Option<Kind>> = match &h.spec.op_data {
        Some(ks) => ks.iter().map(|k| Some(*k)).collect(),
        None => vec![None],
    };
    let rvs: Vec<Option<bool>> = if h.spec.retval { vec![Some(false), Some(true)] } else { vec![None] };
    let sms: Vec<Option<Smart>> = if h.spec.smart_branch {
        vec![Some(Smart::Plain), Some(Smart::Jmpz), Some(Smart::Jmpnz)]
    } else {
        vec![None]
    };
    let mut out = Vec::new();
    for &k1 in &h.op1.kinds {
        for &k2 in &h.op2.kinds {
            if !combination_kept(h, k1, k2) {
                continue;
            }
            for &od in &ods {
                for &rv in &rvs {
                    for &sm in &sms {
                        let mut inst = Instance {
                            handler: index,
                            name: String::new(),
                            op1: k1,
                            op2: k2,
                            op_data: od,
                            retval_used: rv,
                            smart: sm,
                        };
                        inst.name = instance_name(h, k1, k2, &inst.extras());
                        out.push(inst);
                    }
                }
            }
        }
    }
    out
}

/// The operation macros vm-gen resolves; any other macro is left alone.
const OPERATIONS: &[&str] = &[
    "read",
    "read_raw",
    "read_deref",
    "write",
    "free",
    "slot",
    "is",
    "jmp_addr",
    "num",
    "set_result",
    "result",
    "is_result_used",
    "next",
    "jump",
    "goto",
    "leave",
    "branch",
    "slow",
    "slow_owned",
    "restart",
];

/// The body of `inst` with every operation replaced. With `outline_to`,
/// every `slow!`/`slow_owned!` becomes a tail call to that function (the
/// cold copy of the same body, which starts over), so this copy keeps only
/// the fast paths.
pub fn expand_body(h: &Handler, inst: &Instance, outline_to: Option<&str>) -> Result<Block, Diag> {
    let mut body = h.body.clone().ok_or_else(|| Diag::new(h.span, "internal: opcode item has no body"))?;
    let mut ex = Expander { h, inst, err: None, scopes: Vec::new(), branches: 0, slows: 0, outline_to };
    ex.visit_block_mut(&mut body);
    if let Some(e) = ex.err {
        return Err(e);
    }
    if h.outline_slow && ex.slows == 0 {
        return Err(Diag::new(
            h.span,
            format!("handler `{}` has `#[outline_slow]` but no `slow!` or `slow_owned!` to move out of line", h.name),
        ));
    }
    if h.spec.smart_branch && ex.branches == 0 {
        return Err(Diag::new(
            h.span,
            format!("handler `{}` has `#[spec(smart_branch)]` but never uses `branch!`", h.name),
        ));
    }
    Ok(body)
}

struct Expander<'a> {
    h: &'a Handler,
    inst: &'a Instance,
    err: Option<Diag>,
    /// `free!`s that may have run at this point, per open block/arm.
    scopes: Vec<Vec<(Which, Span)>>,
    branches: usize,
    slows: usize,
    /// The cold copy that `slow!` tail-calls in an outlined hot instance.
    outline_to: Option<&'a str>,
}

fn mac_name(m: &Macro) -> Option<String> {
    m.path.get_ident().map(|i| i.to_string())
}

impl Expander<'_> {
    fn fail(&mut self, span: Span, msg: impl Into<String>) {
        if self.err.is_none() {
            self.err = Some(Diag::new(span, msg));
        }
    }

    /// Prefix naming the instance, for errors that depend on its kinds.
    fn ctx(&self) -> String {
        format!("in {}: ", self.inst.name)
    }

    /// Operands whose `free!` does something in this instance.
    fn freeable(&self) -> Vec<(Which, TokenStream)> {
        let mut v = Vec::new();
        for w in [Which::Op1, Which::Op2, Which::OpData] {
            if let Some(k) = self.inst.kind(w) {
                if let Ok(Some(t)) = operand::access(Access::Free, k, w) {
                    v.push((w, t));
                }
            }
        }
        v
    }

    fn operand_arg(&mut self, m: &Macro, name: &str) -> Option<(Which, Kind)> {
        let id: syn::Ident = match m.parse_body() {
            Ok(i) => i,
            Err(_) => {
                self.fail(m.path.span(), format!("`{name}!` takes an operand: op1, op2 or op_data"));
                return None;
            }
        };
        self.resolve_operand(&id, name)
    }

    fn resolve_operand(&mut self, id: &syn::Ident, name: &str) -> Option<(Which, Kind)> {
        let Some(w) = Which::from_name(&id.to_string()) else {
            self.fail(id.span(), format!("`{name}!` takes an operand: op1, op2 or op_data, not `{id}`"));
            return None;
        };
        let declared = match w {
            Which::Op1 => self.h.op1.declared,
            Which::Op2 => self.h.op2.declared,
            Which::OpData => self.h.spec.op_data.is_some(),
        };
        if !declared {
            let msg = if w == Which::OpData {
                format!("`{name}!(op_data)` needs `#[spec(op_data = KINDS)]` on handler `{}`", self.h.name)
            } else {
                format!("`{name}!({})`: handler `{}` declares no {}", w.name(), self.h.name, w.name())
            };
            self.fail(id.span(), msg);
            return None;
        }
        Some((w, self.inst.kind(w).unwrap_or(Kind::Unused)))
    }

    /// Parses an expression argument and expands operations inside it.
    fn expr_arg(&mut self, m: &Macro, name: &str) -> Option<Expr> {
        match m.parse_body::<Expr>() {
            Ok(mut e) => {
                self.visit_expr_mut(&mut e);
                Some(e)
            }
            Err(err) => {
                self.fail(err.span(), format!("`{name}!` takes one expression: {err}"));
                None
            }
        }
    }

    fn no_args(&mut self, m: &Macro, name: &str) -> bool {
        if m.tokens.is_empty() {
            true
        } else {
            self.fail(m.path.span(), format!("`{name}!()` takes no arguments"));
            false
        }
    }

    fn need_result(&mut self, span: Span, name: &str) -> bool {
        if self.h.result.is_none() {
            self.fail(
                span,
                format!("`{name}!` in handler `{}`, which declares no result (add `-> TMP` or similar)", self.h.name),
            );
            false
        } else {
            true
        }
    }

    fn step(&self) -> usize {
        if self.h.spec.op_data.is_some() {
            2
        } else {
            1
        }
    }

    /// Expands one operation; `None` if `m` is not an operation.
    fn expand(&mut self, m: &Macro) -> Option<TokenStream> {
        let name = mac_name(m)?;
        if !OPERATIONS.contains(&name.as_str()) {
            return None;
        }
        let span = m.path.span();
        // std's `write!(f, ..)` stays std's.
        if name == "write" && m.parse_body::<syn::Ident>().is_err() {
            return None;
        }
        let unit = Some(quote!(()));
        if let Some(a) = Access::from_name(&name) {
            let (w, k) = self.operand_arg(m, &name)?;
            if let (Some(cold), Access::Read, Kind::Cv) = (self.outline_to, a, k) {
                return Some(operand::read_cv_or_restart(w, cold));
            }
            return match operand::access(a, k, w) {
                Ok(Some(t)) => {
                    if a == Access::Free {
                        if let Some(s) = self.scopes.last_mut() {
                            s.push((w, span));
                        }
                    }
                    Some(t)
                }
                Ok(None) => unit,
                Err(msg) => {
                    let c = self.ctx();
                    self.fail(span, c + &msg);
                    unit
                }
            };
        }
        match name.as_str() {
            "is" => {
                struct IsArgs(syn::Ident, syn::Ident);
                impl syn::parse::Parse for IsArgs {
                    fn parse(i: syn::parse::ParseStream) -> syn::Result<Self> {
                        let a = i.parse()?;
                        i.parse::<Token![,]>()?;
                        let b = i.parse()?;
                        Ok(IsArgs(a, b))
                    }
                }
                let Ok(IsArgs(op, kind)) = m.parse_body::<IsArgs>() else {
                    self.fail(span, "`is!` takes an operand and a kind: `is!(op1, CV)`");
                    return unit;
                };
                let (w, k) = self.resolve_operand(&op, "is")?;
                let Some(q) = Kind::from_name(&kind.to_string()) else {
                    self.fail(kind.span(), format!("unknown operand kind `{kind}`"));
                    return unit;
                };
                match operand::is_kind(k, q, w) {
                    Ok(b) => Some(quote!(#b)),
                    Err(msg) => {
                        let c = self.ctx();
                        self.fail(span, c + &msg);
                        unit
                    }
                }
            }
            "jmp_addr" | "num" => {
                let (w, k) = self.operand_arg(m, &name)?;
                let r = if name == "num" { operand::num(k, w) } else { operand::jmp_addr(k, w) };
                match r {
                    Ok(t) => Some(t),
                    Err(msg) => {
                        self.fail(span, msg);
                        unit
                    }
                }
            }
            "set_result" => {
                if !self.need_result(span, &name) {
                    return unit;
                }
                let v = self.expr_arg(m, &name)?;
                Some(operand::set_result(v.to_token_stream(), self.inst.retval_used != Some(false)))
            }
            "result" => {
                if !self.no_args(m, &name) || !self.need_result(span, &name) {
                    return unit;
                }
                Some(operand::result())
            }
            "is_result_used" => {
                if !self.no_args(m, &name) {
                    return unit;
                }
                match self.inst.retval_used {
                    Some(used) => Some(operand::is_result_used(used)),
                    None => {
                        self.fail(
                            span,
                            format!("`is_result_used!()` needs `#[spec(retval)]` on handler `{}`", self.h.name),
                        );
                        unit
                    }
                }
            }
            "next" => {
                if !self.no_args(m, &name) {
                    return unit;
                }
                if self.h.spec.smart_branch {
                    self.fail(
                        span,
                        "`next!()` in a smart_branch handler would skip the branch: end the path with `branch!(cond)`",
                    );
                    return unit;
                }
                Some(operand::next(self.step()))
            }
            "jump" => {
                // `jump!(op2)` is short for `jump!(jmp_addr!(op2))`.
                if let Ok(id) = m.parse_body::<syn::Ident>() {
                    if Which::from_name(&id.to_string()).is_some() {
                        let (w, k) = self.resolve_operand(&id, "jump")?;
                        return match operand::jmp_addr(k, w) {
                            Ok(t) => Some(operand::jump(t)),
                            Err(msg) => {
                                self.fail(span, msg);
                                unit
                            }
                        };
                    }
                }
                let t = self.expr_arg(m, &name)?;
                Some(operand::jump(t.to_token_stream()))
            }
            "goto" => {
                let args = match m.parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated) {
                    Ok(a) if a.len() == 2 => a,
                    _ => {
                        self.fail(span, "`goto!` takes two expressions: `goto!(new_ip, new_fp)`");
                        return unit;
                    }
                };
                let mut args: Vec<Expr> = args.into_iter().collect();
                for a in &mut args {
                    self.visit_expr_mut(a);
                }
                Some(operand::goto(args[0].to_token_stream(), args[1].to_token_stream()))
            }
            "leave" => {
                let e = self.expr_arg(m, &name)?;
                Some(operand::leave(e.to_token_stream()))
            }
            "branch" => {
                self.branches += 1;
                let Some(sm) = self.inst.smart else {
                    self.fail(span, format!("`branch!` needs `#[spec(smart_branch)]` on handler `{}`", self.h.name));
                    return unit;
                };
                let c = self.expr_arg(m, &name)?;
                Some(operand::branch(c.to_token_stream(), sm))
            }
            "restart" => {
                if !self.no_args(m, &name) {
                    return unit;
                }
                if !self.h.outline_slow {
                    self.fail(span, format!("`restart!()` needs `#[outline_slow]` on handler `{}`", self.h.name));
                    return unit;
                }
                self.slows += 1;
                Some(match self.outline_to {
                    Some(cold) => operand::restart_in(cold),
                    None => quote!(()),
                })
            }
            "slow" | "slow_owned" => {
                let e = self.expr_arg(m, &name)?;
                let Expr::Call(c) = e else {
                    self.fail(span, format!("`{name}!` takes a helper call: `{name}!(slow::area::helper(args..))`"));
                    return unit;
                };
                let frees = if name == "slow" { self.freeable() } else { Vec::new() };
                for (w, _) in &frees {
                    let earlier = self.scopes.iter().flatten().find(|(fw, _)| fw == w).copied();
                    if let Some((_, fspan)) = earlier {
                        self.fail(
                            fspan,
                            format!(
                                "`free!({})` runs before the `slow!` at line {}, which frees {} again if the helper throws: free after it, or use `slow_owned!`",
                                w.name(),
                                span.start().line,
                                w.name()
                            ),
                        );
                    }
                }
                self.slows += 1;
                if let Some(cold) = self.outline_to {
                    return Some(operand::restart_in(cold));
                }
                let args = c.args.iter().map(|a| a.to_token_stream()).collect();
                Some(operand::slow(c.func.to_token_stream(), args, frees.into_iter().map(|(_, t)| t).collect()))
            }
            _ => None,
        }
    }

    /// Operations inside other macros' tokens (`debug_assert!(read!(op1)..)`).
    fn rewrite_tokens(&mut self, ts: TokenStream) -> TokenStream {
        let trees: Vec<TokenTree> = ts.into_iter().collect();
        let mut out = Vec::with_capacity(trees.len());
        let mut i = 0;
        while i < trees.len() {
            if let (TokenTree::Ident(id), Some(TokenTree::Punct(p)), Some(TokenTree::Group(g))) =
                (&trees[i], trees.get(i + 1), trees.get(i + 2))
            {
                if p.as_char() == '!' && OPERATIONS.contains(&id.to_string().as_str()) {
                    let m = Macro {
                        path: id.clone().into(),
                        bang_token: Token![!](p.span()),
                        delimiter: match g.delimiter() {
                            Delimiter::Brace => syn::MacroDelimiter::Brace(Default::default()),
                            Delimiter::Bracket => syn::MacroDelimiter::Bracket(Default::default()),
                            _ => syn::MacroDelimiter::Paren(Default::default()),
                        },
                        tokens: g.stream(),
                    };
                    if let Some(t) = self.expand(&m) {
                        out.push(TokenTree::Group(Group::new(Delimiter::Parenthesis, t)));
                        i += 3;
                        continue;
                    }
                }
            }
            match &trees[i] {
                TokenTree::Group(g) => {
                    let mut ng = Group::new(g.delimiter(), self.rewrite_tokens(g.stream()));
                    ng.set_span(g.span());
                    out.push(TokenTree::Group(ng));
                }
                t => out.push(t.clone()),
            }
            i += 1;
        }
        out.into_iter().collect()
    }
}

fn is_unit_stmt(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr(Expr::Tuple(t), Some(_)) if t.elems.is_empty() && t.attrs.is_empty())
}

/// Whether control never falls out of `e` (after expansion: break/return).
fn diverges(e: &Expr) -> bool {
    match e {
        Expr::Break(_) | Expr::Return(_) | Expr::Continue(_) => true,
        Expr::Block(b) => block_diverges(&b.block),
        Expr::Unsafe(b) => block_diverges(&b.block),
        Expr::Paren(p) => diverges(&p.expr),
        Expr::If(i) => match &i.else_branch {
            Some((_, el)) => block_diverges(&i.then_branch) && diverges(el),
            None => false,
        },
        Expr::Match(m) => m.arms.iter().all(|a| diverges(&a.body)),
        Expr::Macro(m) => matches!(
            mac_name(&m.mac).as_deref(),
            Some("panic" | "unreachable" | "todo" | "unimplemented")
        ),
        _ => false,
    }
}

fn block_diverges(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Expr(e, _) => diverges(e),
        Stmt::Macro(m) => matches!(
            mac_name(&m.mac).as_deref(),
            Some("panic" | "unreachable" | "todo" | "unimplemented")
        ),
        _ => false,
    })
}

impl VisitMut for Expander<'_> {
    fn visit_block_mut(&mut self, b: &mut Block) {
        self.scopes.push(Vec::new());
        for s in &mut b.stmts {
            self.visit_stmt_mut(s);
        }
        b.stmts.retain(|s| !is_unit_stmt(s));
        let frees = self.scopes.pop().unwrap_or_default();
        if !block_diverges(b) {
            if let Some(parent) = self.scopes.last_mut() {
                parent.extend(frees);
            }
        }
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        self.scopes.push(Vec::new());
        visit_mut::visit_arm_mut(self, arm);
        let frees = self.scopes.pop().unwrap_or_default();
        if !diverges(&arm.body) {
            if let Some(parent) = self.scopes.last_mut() {
                parent.extend(frees);
            }
        }
    }

    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        if let Stmt::Macro(sm) = s {
            let e = Expr::Macro(ExprMacro { attrs: std::mem::take(&mut sm.attrs), mac: sm.mac.clone() });
            *s = Stmt::Expr(e, sm.semi_token);
        }
        visit_mut::visit_stmt_mut(self, s);
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Macro(em) = e {
            match self.expand(&em.mac) {
                Some(ts) => match syn::parse2::<Expr>(ts) {
                    Ok(new) => *e = new,
                    Err(err) => self.fail(em.mac.path.span(), format!("internal: expansion does not parse: {err}")),
                },
                None => {
                    let ts = std::mem::take(&mut em.mac.tokens);
                    em.mac.tokens = self.rewrite_tokens(ts);
                }
            }
            return;
        }
        visit_mut::visit_expr_mut(self, e);
    }
}

trait PathSpan {
    fn span(&self) -> Span;
}
impl PathSpan for syn::Path {
    fn span(&self) -> Span {
        self.segments.first().map(|s| s.ident.span()).unwrap_or_else(Span::call_site)
    }
}
