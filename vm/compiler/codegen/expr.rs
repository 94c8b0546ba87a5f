//! Expressions: `zend_compile_expr` and friends. Each returns the operand
//! (`Node`) holding the value: a constant (folded at compile time), a CV,
//! or a new TMP/VAR.

use super::emit::{Key, Lit, Node};
use super::{fatal, fold, not_writable, unsupported, CResult, Compiler};
use crate::compiler::ast::*;
use crate::ops::{Opcode, IS_TMP_VAR};

/// Zend's `BP_VAR_*`: what a variable is fetched for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fetch {
    R,
    W,
    Rw,
    Is,
    Unset,
    /// An argument to a callee unknown at compile time (BP_VAR_FUNC_ARG):
    /// a write fetch if the parameter is by reference, else a read.
    FuncArg,
}

/// An opline whose emission is delayed until the operands of the whole
/// access path are computed (Zend's delayed oplines).
pub(super) struct Delayed {
    pub(super) code: Opcode,
    pub(super) ext: u32,
    pub(super) op1: Node,
    pub(super) op2: Node,
    pub(super) result: Node,
}

/// The value of an assignment: an expression, or an operand already computed.
pub enum Src<'e, 'a> {
    Ast(&'e Expr<'a>),
    Node(Node),
}

impl Compiler {
    pub fn compile_expr(&mut self, e: &Expr<'_>) -> CResult<Node> {
        self.f.line = e.line;
        let n = self.compile_expr_inner(e)?;
        Ok(n)
    }

    fn compile_expr_inner(&mut self, e: &Expr<'_>) -> CResult<Node> {
        Ok(match &e.kind {
            ExprKind::Int(i) => Node::Const(Lit::Long(*i)),
            ExprKind::Float(d) => Node::Const(Lit::Double(*d)),
            ExprKind::String(s) => Node::Const(Lit::Str(s.to_vec())),
            ExprKind::Interpolated(parts) => self.compile_encaps_list(parts)?,
            ExprKind::Var(_) | ExprKind::Index { .. } => self.compile_var(e, Fetch::R)?,
            ExprKind::Array(items) => self.compile_array(items, e.line)?,
            ExprKind::List(_) => return fatal("Cannot use list() outside of an assignment context", e.line),
            ExprKind::Const(name) => self.compile_const(name, e.line)?,
            ExprKind::MagicConst(MagicConst::Class) if self.class_ctx.as_ref().is_some_and(|c| c.kind == ClassKind::Trait) => {
                self.compile_trait_class_name(e.line)
            }
            ExprKind::MagicConst(m) => self.compile_magic_const(*m, e.line),
            ExprKind::Assign { target, value } => self.compile_assign(target, Src::Ast(value))?,
            ExprKind::AssignOp { op, target, value } => self.compile_compound_assign(binop_code(*op), target, value)?,
            ExprKind::AssignRef { target, value } => self.compile_assign_ref(target, Src::Ast(value))?,
            ExprKind::AssignCoalesce { target, value } => self.compile_assign_coalesce(target, value)?,
            ExprKind::Binary { op, left, right } => self.compile_binary(*op, left, right)?,
            ExprKind::Unary { op, expr } => self.compile_unary(*op, expr)?,
            ExprKind::PreInc(v) => self.compile_incdec(v, Opcode::PreInc)?,
            ExprKind::PreDec(v) => self.compile_incdec(v, Opcode::PreDec)?,
            ExprKind::PostInc(v) => self.compile_incdec(v, Opcode::PostInc)?,
            ExprKind::PostDec(v) => self.compile_incdec(v, Opcode::PostDec)?,
            ExprKind::Ternary { cond, then, else_: otherwise } => match then {
                Some(t) => self.compile_conditional(cond, t, otherwise)?,
                None => self.compile_shorthand_conditional(cond, otherwise)?,
            },
            ExprKind::Coalesce { left, right } => {
                let l = self.compile_var(left, Fetch::Is)?;
                let r = self.f.tmp();
                let opnum = self.f.emit(Opcode::Coalesce, &l, &Node::Unused, &r);
                let d = self.compile_expr(right)?;
                self.f.emit(Opcode::QmAssign, &d, &Node::Unused, &r);
                self.f.patch_here(opnum);
                r
            }
            ExprKind::Call { callee, args } => {
                let Args::List(args) = args else {
                    return self.compile_fcc_call(callee, e.line);
                };
                self.compile_call(callee, args, e.line)?
            }
            ExprKind::Isset(vars) => {
                // isset($a, $b) is isset($a) && isset($b).
                let mut it = vars.iter();
                let first = it.next().expect("isset() without arguments");
                let r = self.compile_isset_or_empty(first, false)?;
                for v in it {
                    let jz = self.f.emit(Opcode::JmpzEx, &r, &Node::Unused, &r);
                    let n = self.compile_isset_or_empty(v, false)?;
                    self.f.emit(Opcode::Bool, &n, &Node::Unused, &r);
                    self.f.patch_here(jz);
                }
                r
            }
            ExprKind::Empty(v) => self.compile_isset_or_empty(v, true)?,
            ExprKind::Cast { kind, expr } => {
                let n = self.compile_expr(expr)?;
                match kind {
                    CastKind::Bool => self.f.emit_tmp(Opcode::Bool, &n, &Node::Unused),
                    k => {
                        let r = self.f.emit_tmp(Opcode::Cast, &n, &Node::Unused);
                        let code = match k {
                            CastKind::Int => 4,
                            CastKind::Float => 5,
                            CastKind::String => 6,
                            CastKind::Array => 7,
                            _ => 8,
                        };
                        let last = self.f.next_op() - 1;
                        self.f.at(last).extended_value = code;
                        r
                    }
                }
            }
            ExprKind::Silence(inner) => {
                let s = self.f.emit_tmp(Opcode::BeginSilence, &Node::Unused, &Node::Unused);
                let r = match &inner.kind {
                    // Zend forces a fetch so the read happens inside the silenced part.
                    // (FETCH_R (local) by name, as zend_compile_simple_var_no_cv).
                    ExprKind::Var(name) if *name != b"this" && *name != b"GLOBALS" => {
                        self.f.line = inner.line;
                        let r = self.f.emit_tmp(Opcode::FetchR, &Node::Const(Lit::Str(name.to_vec())), &Node::Unused);
                        let i = self.f.next_op() - 1;
                        self.f.at(i).extended_value = LOCAL_FETCH;
                        r
                    }
                    _ => self.compile_expr(inner)?,
                };
                self.f.emit(Opcode::EndSilence, &s, &Node::Unused, &Node::Unused);
                r
            }
            ExprKind::Print(inner) => {
                let n = self.compile_expr(inner)?;
                let i = self.f.emit(Opcode::Echo, &n, &Node::Unused, &Node::Unused);
                self.f.at(i).extended_value = 1;
                Node::Const(Lit::Long(1))
            }
            ExprKind::Exit(inner) => {
                let n = match inner {
                    Some(x) => self.compile_expr(x)?,
                    None => Node::Unused,
                };
                self.f.emit(Opcode::Exit, &n, &Node::Unused, &Node::Unused);
                Node::Const(Lit::Bool(true))
            }
            ExprKind::ShellExec(_) => return unsupported("Shell execution (backticks)", e.line),
            ExprKind::VarVar(_) => self.compile_var(e, Fetch::R)?,
            ExprKind::Prop { .. } | ExprKind::MethodCall { .. } => self.compile_chain(e, Fetch::R)?,
            ExprKind::StaticProp { .. } => self.compile_static_prop(e, Fetch::R)?,
            ExprKind::ClassConst { class, name } => self.compile_class_const(class, name, e.line)?,
            ExprKind::StaticCall { class, name, args } => self.compile_static_call(class, name, args, e.line)?,
            ExprKind::New { class, args } => self.compile_new(class, args, e.line)?,
            ExprKind::Clone(inner) => self.compile_clone(inner, e.line)?,
            ExprKind::Instanceof { expr, class } => self.compile_instanceof(expr, class, e.line)?,
            ExprKind::Include { .. } => return unsupported("include/require", e.line),
            ExprKind::Eval(_) => return unsupported("eval", e.line),
            ExprKind::Closure(f) => self.compile_closure(f, false, e.line)?,
            ExprKind::ArrowFn(f) => self.compile_closure(f, true, e.line)?,
            ExprKind::Match { subject, arms } => self.compile_match(subject, arms, e.line)?,
            ExprKind::Throw(x) => self.compile_throw(x, e.line, true)?,
            ExprKind::Yield { key, value } => {
                // zend_compile_yield: the key first, then the value.
                let k = match key {
                    Some(k) => self.compile_expr(k)?,
                    None => Node::Unused,
                };
                let v = match value {
                    Some(v) => self.compile_expr(v)?,
                    None => Node::Unused,
                };
                self.f.line = e.line;
                self.f.emit_var(Opcode::Yield, &v, &k)
            }
            ExprKind::YieldFrom(x) => {
                let n = self.compile_expr(x)?;
                self.f.line = e.line;
                self.f.emit_tmp(Opcode::YieldFrom, &n, &Node::Unused)
            }
        })
    }

    // ------------------------------------------------------------ variables

    /// `zend_compile_var`: a variable for reading or writing.
    pub fn compile_var(&mut self, e: &Expr<'_>, mode: Fetch) -> CResult<Node> {
        match &e.kind {
            ExprKind::Var(name) => self.compile_cv(name, mode, e.line),
            ExprKind::Index { .. } => {
                let mut d = Vec::new();
                let n = self.delayed_compile_dim(e, mode, &mut d, true)?;
                self.emit_delayed(d);
                Ok(n)
            }
            ExprKind::Prop { .. } if mode == Fetch::R || mode == Fetch::Is => self.compile_chain(e, mode),
            ExprKind::StaticProp { .. } if mode == Fetch::R || mode == Fetch::Is => self.compile_static_prop(e, mode),
            ExprKind::Prop { .. } | ExprKind::StaticProp { .. } | ExprKind::VarVar(_) => {
                let mut d = Vec::new();
                let n = self.delayed_compile_var(e, mode, &mut d)?;
                self.emit_delayed(d);
                Ok(n)
            }
            _ => {
                if mode != Fetch::R && mode != Fetch::Is {
                    return not_writable(e);
                }
                self.compile_expr(e)
            }
        }
    }

    pub(super) fn compile_cv(&mut self, name: &[u8], mode: Fetch, line: u32) -> CResult<Node> {
        if name == b"this" {
            // zend_compile_simple_var: FETCH_THIS in every mode (a VAR for
            // writes: `[&$this]`, `f($this)` by reference); assignments to
            // $this are refused where they are compiled.
            self.f.line = line;
            if mode == Fetch::W || mode == Fetch::Rw {
                return Ok(self.f.emit_var(Opcode::FetchThis, &Node::Unused, &Node::Unused));
            }
            return Ok(self.f.emit_tmp(Opcode::FetchThis, &Node::Unused, &Node::Unused));
        }
        if name == b"GLOBALS" {
            if mode == Fetch::R || mode == Fetch::Is {
                self.f.line = line;
                return Ok(self.f.emit_tmp(Opcode::FetchGlobals, &Node::Unused, &Node::Unused));
            }
            return fatal("$GLOBALS can only be modified using the $GLOBALS[$name] = $value syntax", line);
        }
        Ok(Node::Cv(self.f.cv(name)))
    }

    pub(super) fn delayed_compile_var(&mut self, e: &Expr<'_>, mode: Fetch, d: &mut Vec<Delayed>) -> CResult<Node> {
        match &e.kind {
            ExprKind::Var(name) => self.compile_cv(name, mode, e.line),
            ExprKind::VarVar(_) => self.delayed_compile_named(e, mode, d, true),
            ExprKind::Index { .. } => self.delayed_compile_dim(e, mode, d, true),
            ExprKind::Prop { .. } if mode != Fetch::R && mode != Fetch::Is => self.delayed_compile_prop(e, mode, d),
            ExprKind::StaticProp { .. } if mode != Fetch::R && mode != Fetch::Is => self.delayed_compile_static_prop(e, mode, d),
            ExprKind::Prop { .. } | ExprKind::StaticProp { .. } => self.compile_var(e, mode),
            ExprKind::Call { .. } if mode == Fetch::R || mode == Fetch::Is => self.compile_expr(e),
            ExprKind::Call { .. } => unsupported("writing to a function's return value", e.line),
            _ if mode == Fetch::R || mode == Fetch::Is => self.compile_expr(e),
            _ => not_writable(e),
        }
    }

    /// `zend_compile_simple_var_no_cv`: a variable by name, `$$n` / `${expr}`
    /// (the current frame's, ZEND_FETCH_LOCAL) or `$GLOBALS[expr]` (the
    /// global one, PHP 8.1+): computes the name now, delays the FETCH_*.
    pub(super) fn delayed_compile_named(&mut self, e: &Expr<'_>, mode: Fetch, d: &mut Vec<Delayed>, want_result: bool) -> CResult<Node> {
        let (name, ext) = match &e.kind {
            ExprKind::VarVar(inner) => (self.compile_expr(inner)?, LOCAL_FETCH),
            ExprKind::Index { dim: Some(dim), .. } => (self.compile_expr(dim)?, GLOBAL_FETCH),
            _ => return fatal("Cannot append to $GLOBALS", e.line),
        };
        // Zend converts a constant name to a string at compile time.
        let name = match name {
            Node::Const(l) => Node::Const(Lit::Str(fold::to_str(&l).unwrap_or_default())),
            n => n,
        };
        let (code, result) = match mode {
            Fetch::R => (Opcode::FetchR, if want_result { self.f.tmp() } else { Node::Unused }),
            Fetch::Is => (Opcode::FetchIs, if want_result { self.f.tmp() } else { Node::Unused }),
            Fetch::W => (Opcode::FetchW, self.f.var()),
            Fetch::Rw => (Opcode::FetchRw, self.f.var()),
            Fetch::Unset => (Opcode::FetchUnset, self.f.var()),
            // Not compiled: `is_func_arg_path` excludes names.
            Fetch::FuncArg => (Opcode::FetchR, self.f.tmp()),
        };
        self.f.line = e.line;
        d.push(Delayed { code, ext, op1: name, op2: Node::Unused, result: result.clone() });
        Ok(result)
    }

    /// `zend_delayed_compile_dim`: computes the key now, delays the fetch.
    fn delayed_compile_dim(&mut self, e: &Expr<'_>, mode: Fetch, d: &mut Vec<Delayed>, want_result: bool) -> CResult<Node> {
        let ExprKind::Index { base, dim: index } = &e.kind else { unreachable!() };
        if is_globals_dim(e) {
            return self.delayed_compile_named(e, mode, d, want_result);
        }
        let container = self.delayed_compile_var(base, mode, d)?;
        let dim = match index {
            None => {
                match mode {
                    Fetch::R | Fetch::Is => return fatal("Cannot use [] for reading", e.line),
                    Fetch::Unset => return fatal("Cannot use [] for unsetting", e.line),
                    _ => {}
                }
                Node::Unused
            }
            Some(i) => numeric_dim(self.compile_expr(i)?),
        };
        self.f.line = e.line;
        let (code, result) = match mode {
            Fetch::R => (Opcode::FetchDimR, if want_result { self.f.tmp() } else { Node::Unused }),
            Fetch::Is => (Opcode::FetchDimIs, if want_result { self.f.tmp() } else { Node::Unused }),
            Fetch::W => (Opcode::FetchDimW, if want_result { self.f.var() } else { Node::Unused }),
            Fetch::Unset => (Opcode::FetchDimUnset, if want_result { self.f.var() } else { Node::Unused }),
            Fetch::FuncArg => (Opcode::FetchDimFuncArg, self.f.var()),
            Fetch::Rw => (Opcode::FetchDimRw, if want_result { self.f.var() } else { Node::Unused }),
        };
        d.push(Delayed { code, ext: 0, op1: container, op2: dim, result: result.clone() });
        Ok(result)
    }

    /// Emits delayed fetches; returns the index of the last one.
    pub(super) fn emit_delayed(&mut self, d: Vec<Delayed>) -> u32 {
        let mut last = 0;
        for x in d {
            last = self.f.emit(x.code, &x.op1, &x.op2, &x.result);
            if x.ext != 0 {
                self.f.at(last).extended_value = x.ext;
            }
            if matches!(x.code, Opcode::FetchStaticPropW | Opcode::FetchStaticPropRw) {
                self.fix_delayed_static(last);
            }
        }
        last
    }

    /// `zend_compile_dim`: the whole access path; returns the last opline
    /// (the caller may turn it into ASSIGN_DIM, UNSET_DIM, ISSET…).
    pub fn compile_dim(&mut self, e: &Expr<'_>, mode: Fetch) -> CResult<u32> {
        let mut d = Vec::new();
        self.delayed_compile_dim(e, mode, &mut d, mode != Fetch::Unset)?;
        Ok(self.emit_delayed(d))
    }

    // ---------------------------------------------------------- assignments

    /// `zend_compile_assign` (and `zend_emit_assign_znode` when `value` is a Node).
    pub fn compile_assign(&mut self, target: &Expr<'_>, value: Src<'_, '_>) -> CResult<Node> {
        let line = target.line;
        match &target.kind {
            ExprKind::Var(name) => {
                let v = self.compile_cv(name, Fetch::W, line)?;
                let val = self.src(value, None)?;
                self.f.line = line;
                Ok(self.f.emit_tmp(Opcode::Assign, &v, &val))
            }
            _ if is_named_var(target) => {
                let mut d = Vec::new();
                let v = self.delayed_compile_named(target, Fetch::W, &mut d, true)?;
                let val = self.src(value, None)?;
                self.emit_delayed(d);
                self.f.line = line;
                Ok(self.f.emit_tmp(Opcode::Assign, &v, &val))
            }
            ExprKind::Index { .. } => {
                let mut d = Vec::new();
                self.delayed_compile_dim(target, Fetch::W, &mut d, true)?;
                let val = self.src(value, Some(target))?;
                let i = self.emit_delayed(d);
                let o = self.f.at(i);
                o.opcode = Opcode::AssignDim as u8;
                o.result_type = IS_TMP_VAR;
                let r = Node::Tmp(o.result);
                self.f.emit(Opcode::OpData, &val, &Node::Unused, &Node::Unused);
                Ok(r)
            }
            ExprKind::Prop { .. } | ExprKind::StaticProp { .. } => {
                let mut d = Vec::new();
                self.delayed_compile_var(target, Fetch::W, &mut d)?;
                let val = self.src(value, Some(target))?;
                let i = self.emit_delayed(d);
                let o = self.f.at(i);
                let obj = o.opcode == Opcode::FetchObjW as u8;
                o.opcode = if obj { Opcode::AssignObj } else { Opcode::AssignStaticProp } as u8;
                o.result_type = IS_TMP_VAR;
                let const_name = o.op2_type == crate::ops::IS_CONST;
                let r = Node::Tmp(o.result);
                if obj && const_name {
                    let slot = self.member_cache();
                    self.f.at(i).extended_value = slot;
                }
                self.f.emit(Opcode::OpData, &val, &Node::Unused, &Node::Unused);
                Ok(r)
            }
            ExprKind::Array(_) | ExprKind::List(_) => {
                let items = list_items(target).expect("a list");
                let val = match value {
                    Src::Node(n) => n,
                    Src::Ast(v) if list_has_refs(&items) => {
                        if !matches!(v.kind, ExprKind::Var(_) | ExprKind::Index { .. } | ExprKind::Call { .. }) {
                            return fatal("Cannot assign reference to non referenceable value", v.line);
                        }
                        let n = if matches!(v.kind, ExprKind::Call { .. }) { self.compile_expr(v)? } else { self.compile_var(v, Fetch::W)? };
                        // Also makes the source evaluate first in self-assignments.
                        self.f.emit_var(Opcode::MakeRef, &n, &Node::Unused)
                    }
                    Src::Ast(v) => match &v.kind {
                        // list($a, $b) = $a evaluates the right $a first.
                        ExprKind::Var(name) => {
                            let cv = self.compile_cv(name, Fetch::R, v.line)?;
                            self.f.emit_tmp(Opcode::QmAssign, &cv, &Node::Unused)
                        }
                        _ => self.compile_expr(v)?,
                    },
                };
                let mut r = Node::Unused;
                self.compile_list_assign(Some(&mut r), &items, val, line)?;
                Ok(r)
            }
            _ => not_writable(target),
        }
    }

    /// The value of an assignment; `$a[0] = $a` copies the right `$a` first.
    pub(super) fn src(&mut self, value: Src<'_, '_>, target: Option<&Expr<'_>>) -> CResult<Node> {
        match value {
            Src::Node(n) => Ok(n),
            Src::Ast(v) => {
                if let (Some(t), ExprKind::Var(name)) = (target, &v.kind) {
                    if root_var(t) == Some(*name) {
                        let cv = self.compile_cv(name, Fetch::R, v.line)?;
                        return Ok(self.f.emit_tmp(Opcode::QmAssign, &cv, &Node::Unused));
                    }
                }
                self.compile_expr(v)
            }
        }
    }

    pub fn emit_assign_znode(&mut self, target: &Expr<'_>, value: Node) -> CResult<()> {
        let r = self.compile_assign(target, Src::Node(value))?;
        self.f.free(&r);
        Ok(())
    }

    /// `zend_compile_list_assign`.
    pub fn compile_list_assign(&mut self, result: Option<&mut Node>, items: &[Option<&ArrayItem<'_>>], expr: Node, line: u32) -> CResult<()> {
        let keyed = items.first().is_some_and(|i| i.is_some_and(|i| i.key.is_some()));
        let mut has_elems = false;
        for (i, item) in items.iter().enumerate() {
            let Some(item) = item else {
                if keyed {
                    return fatal("Cannot use empty array entries in keyed array assignment", line);
                }
                continue;
            };
            let value = item.value;
            if item.spread {
                return fatal("Spread operator is not supported in assignments", line);
            }
            // zend_propagate_list_refs: a nested pattern with references is fetched by reference.
            let by_ref = item_has_refs(item);
            if item.by_ref && list_items(value).is_some() {
                return fatal("Cannot assign reference to non referenceable value", line);
            }
            has_elems = true;
            let dim = match item.key {
                Some(k) => {
                    if !keyed {
                        return fatal("Cannot mix keyed and unkeyed array entries in assignments", line);
                    }
                    numeric_dim(self.compile_expr(k)?)
                }
                None => {
                    if keyed {
                        return fatal("Cannot mix keyed and unkeyed array entries in assignments", line);
                    }
                    Node::Const(Lit::Long(i as i64))
                }
            };
            let code = match (by_ref, &expr) {
                (false, _) => Opcode::FetchListR,
                (true, Node::Cv(_)) => Opcode::FetchDimW,
                (true, _) => Opcode::FetchListW,
            };
            let mut fetched = self.f.emit_var(code, &expr, &dim);
            if by_ref {
                fetched = self.f.emit_var(Opcode::MakeRef, &fetched, &Node::Unused);
            }
            match list_items(value) {
                Some(inner) => self.compile_list_assign(None, &inner, fetched, value.line)?,
                None if by_ref => {
                    let r = self.compile_assign_ref(value, Src::Node(fetched))?;
                    self.f.free(&r);
                }
                None => self.emit_assign_znode(value, fetched)?,
            }
        }
        if !has_elems {
            return fatal("Cannot use empty list", line);
        }
        match result {
            Some(r) => *r = expr,
            None => self.f.free(&expr),
        }
        Ok(())
    }

    /// `zend_compile_assign_ref` (and `zend_emit_assign_ref_znode` when the
    /// source is a Node): `target =& source`.
    pub fn compile_assign_ref(&mut self, target: &Expr<'_>, value: Src<'_, '_>) -> CResult<Node> {
        let line = target.line;
        let mut d = Vec::new();
        let t = match &target.kind {
            ExprKind::Var(name) => self.compile_cv(name, Fetch::W, line)?,
            ExprKind::VarVar(_) => self.delayed_compile_named(target, Fetch::W, &mut d, true)?,
            ExprKind::Index { .. } => self.delayed_compile_dim(target, Fetch::W, &mut d, true)?,
            ExprKind::Prop { nullsafe: false, .. } | ExprKind::StaticProp { .. } => self.delayed_compile_var(target, Fetch::W, &mut d)?,
            ExprKind::Array(_) | ExprKind::List(_) => return fatal("Cannot assign reference to list", line),
            _ => return not_writable(target),
        };
        let (src, is_call) = match value {
            Src::Node(n) => (n, false),
            Src::Ast(v) => {
                let is_call = matches!(v.kind, ExprKind::Call { .. } | ExprKind::MethodCall { .. } | ExprKind::StaticCall { .. });
                let mut n = if is_call { self.compile_expr(v)? } else { self.compile_var(v, Fetch::W)? };
                if !matches!(target.kind, ExprKind::Var(_)) && !matches!(n, Node::Cv(_)) {
                    // Bug #71539: the target's fetch may move what the source points into.
                    n = self.f.emit_var(Opcode::MakeRef, &n, &Node::Unused);
                }
                (n, is_call)
            }
        };
        if !matches!(src, Node::Cv(_) | Node::Var(_)) {
            return fatal("Cannot assign reference to non referenceable value", line);
        }
        let last = self.emit_delayed(d);
        self.f.line = line;
        if matches!(target.kind, ExprKind::Prop { .. } | ExprKind::StaticProp { .. }) {
            // The property fetch becomes the assignment, as Zend's
            // ASSIGN_OBJ_REF / ASSIGN_STATIC_PROP_REF.
            let o = self.f.at(last);
            o.opcode = if o.opcode == Opcode::FetchObjW as u8 { Opcode::AssignObjRef } else { Opcode::AssignStaticPropRef } as u8;
            o.extended_value = is_call as u32;
            self.f.emit(Opcode::OpData, &src, &Node::Unused, &Node::Unused);
            return Ok(t);
        }
        let r = self.f.var();
        let i = self.f.emit(Opcode::AssignRef, &t, &src, &r);
        if is_call {
            self.f.at(i).extended_value = 1;
        }
        Ok(r)
    }

    /// `zend_compile_assign_coalesce`: `a ??= b` is `a ?? (a = b)` with the
    /// keys of the access path computed once (Zend's memoized expressions:
    /// a TMP key is used by the test and a COPY_TMP of it by the assignment).
    fn compile_assign_coalesce(&mut self, target: &Expr<'_>, value: &Expr<'_>) -> CResult<Node> {
        let line = target.line;
        if has_member(target) {
            return self.compile_assign_coalesce_member(target, value);
        }
        if !matches!(target.kind, ExprKind::Var(_) | ExprKind::Index { .. }) {
            return not_writable(target);
        }
        let mut keys = Vec::new();
        let root = self.coalesce_path(target, &mut keys)?;
        self.f.line = line;
        let mut read = root.clone();
        for (k, _, r) in &keys {
            self.f.emit(Opcode::FetchDimIs, &read, k, r);
            read = r.clone();
        }
        let result = self.f.tmp();
        let coalesce = self.f.emit(Opcode::Coalesce, &read, &Node::Unused, &result);
        let v = self.src(Src::Ast(value), Some(target))?;
        self.f.line = line;
        let assigned = if keys.is_empty() {
            self.f.emit_tmp(Opcode::Assign, &root, &v)
        } else {
            let mut container = root.clone();
            for (_, k, _) in &keys[..keys.len() - 1] {
                container = self.f.emit_var(Opcode::FetchDimW, &container, k);
            }
            let last = keys.last().map(|(_, k, _)| k.clone()).unwrap_or(Node::Unused);
            let r = self.f.tmp();
            self.f.emit(Opcode::AssignDim, &container, &last, &r);
            self.f.emit(Opcode::OpData, &v, &Node::Unused, &Node::Unused);
            r
        };
        self.f.emit(Opcode::QmAssign, &assigned, &Node::Unused, &result);
        let memo: Vec<Node> = keys.iter().filter(|(_, k, _)| k.is_tmpvar()).map(|(_, k, _)| k.clone()).collect();
        if memo.is_empty() {
            self.f.patch_here(coalesce);
        } else {
            // The short-circuit path frees the copies the assignment did not consume.
            let j = self.f.emit_jump();
            self.f.patch_here(coalesce);
            for k in &memo {
                let i = self.f.emit(Opcode::Free, k, &Node::Unused, &Node::Unused);
                self.f.at(i).extended_value = 1; // ZEND_FREE_ON_RETURN
            }
            self.f.patch_here(j);
        }
        Ok(result)
    }

    /// `??=` on a path through properties (`$o->p ??= v`, `A::$s ??= v`,
    /// `$o->a['k'] ??= v`): the path read quietly, COALESCE, then the path
    /// compiled again for writing and assigned (Zend's
    /// `zend_compile_assign_coalesce`). Zend memoizes the keys' values
    /// between the two compilations; here a path is compiled twice only when
    /// evaluating its keys again can't be observed (literals and variables).
    fn compile_assign_coalesce_member(&mut self, target: &Expr<'_>, value: &Expr<'_>) -> CResult<Node> {
        if !pure_path(target) {
            return unsupported("??= on a property path with computed keys", target.line);
        }
        let l = self.compile_var(target, Fetch::Is)?;
        self.f.line = target.line;
        let result = self.f.tmp();
        let coalesce = self.f.emit(Opcode::Coalesce, &l, &Node::Unused, &result);
        let assigned = self.compile_assign(target, Src::Ast(value))?;
        self.f.emit(Opcode::QmAssign, &assigned, &Node::Unused, &result);
        self.f.patch_here(coalesce);
        Ok(result)
    }

    /// The root CV of `$a[k1][k2]…`; pushes each key as (node for the test,
    /// node for the assignment, result of the test's fetch), numbered as
    /// Zend's delayed fetches number them.
    fn coalesce_path(&mut self, e: &Expr<'_>, keys: &mut Vec<(Node, Node, Node)>) -> CResult<Node> {
        match &e.kind {
            ExprKind::Var(name) => self.compile_cv(name, Fetch::W, e.line),
            ExprKind::Index { base, dim } => {
                let root = self.coalesce_path(base, keys)?;
                let Some(dim) = dim else {
                    return fatal("Cannot use [] for reading", e.line);
                };
                let k = numeric_dim(self.compile_expr(dim)?);
                let copy = match &k {
                    Node::Tmp(_) => self.f.emit_tmp(Opcode::CopyTmp, &k, &Node::Unused),
                    Node::Var(_) => self.f.emit_var(Opcode::CopyTmp, &k, &Node::Unused),
                    _ => k.clone(),
                };
                let r = self.f.tmp();
                keys.push((k, copy, r));
                Ok(root)
            }
            _ => not_writable(e),
        }
    }

    fn compile_compound_assign(&mut self, code: Opcode, target: &Expr<'_>, value: &Expr<'_>) -> CResult<Node> {
        match &target.kind {
            ExprKind::Var(name) => {
                let v = self.compile_cv(name, Fetch::Rw, target.line)?;
                let val = self.src(Src::Ast(value), Some(target))?;
                let r = self.f.emit_tmp(Opcode::AssignOp, &v, &val);
                let i = self.f.next_op() - 1;
                self.f.at(i).extended_value = code as u32;
                Ok(r)
            }
            _ if is_named_var(target) => {
                let mut d = Vec::new();
                let v = self.delayed_compile_named(target, Fetch::Rw, &mut d, true)?;
                let val = self.src(Src::Ast(value), None)?;
                self.emit_delayed(d);
                let r = self.f.emit_tmp(Opcode::AssignOp, &v, &val);
                let i = self.f.next_op() - 1;
                self.f.at(i).extended_value = code as u32;
                Ok(r)
            }
            ExprKind::Index { .. } => {
                let mut d = Vec::new();
                self.delayed_compile_dim(target, Fetch::Rw, &mut d, true)?;
                let val = self.src(Src::Ast(value), Some(target))?;
                let i = self.emit_delayed(d);
                let o = self.f.at(i);
                o.opcode = Opcode::AssignDimOp as u8;
                o.extended_value = code as u32;
                o.result_type = IS_TMP_VAR;
                let r = Node::Tmp(o.result);
                self.f.emit(Opcode::OpData, &val, &Node::Unused, &Node::Unused);
                Ok(r)
            }
            ExprKind::Prop { .. } | ExprKind::StaticProp { .. } => {
                let mut d = Vec::new();
                self.delayed_compile_var(target, Fetch::Rw, &mut d)?;
                let val = self.src(Src::Ast(value), Some(target))?;
                let i = self.emit_delayed(d);
                let o = self.f.at(i);
                o.opcode = if o.opcode == Opcode::FetchObjRw as u8 { Opcode::AssignObjOp } else { Opcode::AssignStaticPropOp } as u8;
                o.extended_value = code as u32;
                o.result_type = IS_TMP_VAR;
                let r = Node::Tmp(o.result);
                self.f.emit(Opcode::OpData, &val, &Node::Unused, &Node::Unused);
                Ok(r)
            }
            _ => not_writable(target),
        }
    }

    fn compile_incdec(&mut self, v: &Expr<'_>, code: Opcode) -> CResult<Node> {
        if matches!(v.kind, ExprKind::Prop { .. } | ExprKind::StaticProp { .. }) {
            let mut d = Vec::new();
            self.delayed_compile_var(v, Fetch::Rw, &mut d)?;
            let i = self.emit_delayed(d);
            let o = self.f.at(i);
            let obj = o.opcode == Opcode::FetchObjRw as u8;
            o.opcode = match (code, obj) {
                (Opcode::PreInc, true) => Opcode::PreIncObj,
                (Opcode::PreDec, true) => Opcode::PreDecObj,
                (Opcode::PostInc, true) => Opcode::PostIncObj,
                (Opcode::PostDec, true) => Opcode::PostDecObj,
                (Opcode::PreInc, false) => Opcode::PreIncStaticProp,
                (Opcode::PreDec, false) => Opcode::PreDecStaticProp,
                (Opcode::PostInc, false) => Opcode::PostIncStaticProp,
                _ => Opcode::PostDecStaticProp,
            } as u8;
            o.result_type = IS_TMP_VAR;
            return Ok(Node::Tmp(o.result));
        }
        if !matches!(v.kind, ExprKind::Var(_) | ExprKind::VarVar(_) | ExprKind::Index { .. }) {
            return not_writable(v);
        }
        let n = self.compile_var(v, Fetch::Rw)?;
        Ok(self.f.emit_tmp(code, &n, &Node::Unused))
    }

    // ------------------------------------------------------------ operators

    fn compile_binary(&mut self, op: BinaryOp, left: &Expr<'_>, right: &Expr<'_>) -> CResult<Node> {
        match op {
            BinaryOp::BoolAnd | BinaryOp::BoolOr => return self.compile_short_circuiting(op == BinaryOp::BoolAnd, left, right),
            BinaryOp::Greater | BinaryOp::GreaterOrEqual => {
                // a > b is b < a.
                let l = self.compile_expr(left)?;
                let r = self.compile_expr(right)?;
                let code = if op == BinaryOp::Greater { Opcode::IsSmaller } else { Opcode::IsSmallerOrEqual };
                if let (Node::Const(a), Node::Const(b)) = (&l, &r) {
                    if let Some(v) = fold::binary(code, b, a) {
                        return Ok(Node::Const(v));
                    }
                }
                return Ok(self.f.emit_tmp(code, &r, &l));
            }
            _ => {}
        }
        let code = binop_code(op);
        let l = self.compile_expr(left)?;
        let r = self.compile_expr(right)?;
        if let (Node::Const(a), Node::Const(b)) = (&l, &r) {
            if let Some(v) = fold::binary(code, a, b) {
                return Ok(Node::Const(v));
            }
        }
        if matches!(code, Opcode::IsIdentical | Opcode::IsNotIdentical) {
            // `$x === null` (false, true) is a type check, as Zend compiles it.
            let kind = |n: &Node| match n {
                Node::Const(Lit::Null) => Some(crate::value::IS_NULL),
                Node::Const(Lit::Bool(false)) => Some(crate::value::IS_FALSE),
                Node::Const(Lit::Bool(true)) => Some(crate::value::IS_TRUE),
                _ => None,
            };
            let (k, other) = match (kind(&l), kind(&r)) {
                (Some(k), _) => (Some(k), &r),
                (None, Some(k)) => (Some(k), &l),
                _ => (None, &r),
            };
            if let Some(k) = k {
                // Zend's MAY_BE_ANY: null through resource.
                let any: u32 = (2u32 << crate::value::IS_RESOURCE) - (1u32 << crate::value::IS_NULL);
                let mask = if code == Opcode::IsIdentical { 1u32 << k } else { any & !(1u32 << k) };
                let t = self.f.emit_tmp(Opcode::TypeCheck, other, &Node::Unused);
                let i = self.f.next_op() - 1;
                self.f.at(i).extended_value = mask;
                return Ok(t);
            }
        }
        let (mut l, mut r, mut code) = (l, r, code);
        match code {
            Opcode::IsEqual | Opcode::IsNotEqual => {
                // `$x == true` is `(bool)$x`.
                let (c, other) = match (&l, &r) {
                    (Node::Const(c @ Lit::Bool(_)), o) | (o, Node::Const(c @ Lit::Bool(_))) => (c.clone(), o.clone()),
                    _ => (Lit::Null, Node::Unused),
                };
                if let Lit::Bool(b) = c {
                    let eq = code == Opcode::IsEqual;
                    let code = if b == eq { Opcode::Bool } else { Opcode::BoolNot };
                    return Ok(self.f.emit_tmp(code, &other, &Node::Unused));
                }
            }
            Opcode::Concat => {
                // Constant operands become strings at compile time.
                for n in [&mut l, &mut r] {
                    if let Node::Const(c) = n {
                        if let Some(s) = fold::to_str(c) {
                            *n = Node::Const(Lit::Str(s));
                        }
                    }
                }
                if matches!((&l, &r), (Node::Const(_), Node::Const(_))) {
                    code = Opcode::FastConcat;
                }
            }
            _ => {}
        }
        Ok(self.f.emit_tmp(code, &l, &r))
    }

    fn compile_short_circuiting(&mut self, is_and: bool, left: &Expr<'_>, right: &Expr<'_>) -> CResult<Node> {
        let l = self.compile_expr(left)?;
        if let Node::Const(c) = &l {
            let t = c.truthy();
            if (is_and && !t) || (!is_and && t) {
                return Ok(Node::Const(Lit::Bool(t)));
            }
            let r = self.compile_expr(right)?;
            if let Node::Const(c) = &r {
                return Ok(Node::Const(Lit::Bool(c.truthy())));
            }
            return Ok(self.f.emit_tmp(Opcode::Bool, &r, &Node::Unused));
        }
        let code = if is_and { Opcode::JmpzEx } else { Opcode::JmpnzEx };
        let result = match &l {
            Node::Tmp(_) => l.clone(),
            _ => self.f.tmp(),
        };
        let j = self.f.emit(code, &l, &Node::Unused, &result);
        let r = self.compile_expr(right)?;
        self.f.emit(Opcode::Bool, &r, &Node::Unused, &result);
        self.f.patch_here(j);
        Ok(result)
    }

    fn compile_unary(&mut self, op: UnaryOp, e: &Expr<'_>) -> CResult<Node> {
        let n = self.compile_expr(e)?;
        match op {
            UnaryOp::Neg | UnaryOp::Plus => {
                let minus = op == UnaryOp::Neg;
                if let Node::Const(c) = &n {
                    if let Some(v) = fold::unary_pm(minus, c) {
                        return Ok(Node::Const(v));
                    }
                }
                Ok(self.f.emit_tmp(Opcode::Mul, &n, &Node::Const(Lit::Long(if minus { -1 } else { 1 }))))
            }
            UnaryOp::Not => {
                if let Node::Const(c) = &n {
                    return Ok(Node::Const(Lit::Bool(!c.truthy())));
                }
                Ok(self.f.emit_tmp(Opcode::BoolNot, &n, &Node::Unused))
            }
            UnaryOp::BitNot => {
                if let Node::Const(c) = &n {
                    if let Some(v) = fold::bw_not(c) {
                        return Ok(Node::Const(v));
                    }
                }
                Ok(self.f.emit_tmp(Opcode::BwNot, &n, &Node::Unused))
            }
        }
    }

    fn compile_conditional(&mut self, cond: &Expr<'_>, then: &Expr<'_>, otherwise: &Expr<'_>) -> CResult<Node> {
        let c = self.compile_expr(cond)?;
        let jz = self.f.emit_cond_jump(Opcode::Jmpz, &c);
        let t = self.compile_expr(then)?;
        let r = self.f.emit_tmp(Opcode::QmAssign, &t, &Node::Unused);
        let jmp = self.f.emit_jump();
        self.f.patch_here(jz);
        let o = self.compile_expr(otherwise)?;
        self.f.emit(Opcode::QmAssign, &o, &Node::Unused, &r);
        self.f.patch_here(jmp);
        Ok(r)
    }

    fn compile_shorthand_conditional(&mut self, cond: &Expr<'_>, otherwise: &Expr<'_>) -> CResult<Node> {
        let c = self.compile_expr(cond)?;
        let r = self.f.tmp();
        let opnum = self.f.emit(Opcode::JmpSet, &c, &Node::Unused, &r);
        let o = self.compile_expr(otherwise)?;
        self.f.emit(Opcode::QmAssign, &o, &Node::Unused, &r);
        self.f.patch_here(opnum);
        Ok(r)
    }

    fn compile_isset_or_empty(&mut self, v: &Expr<'_>, empty: bool) -> CResult<Node> {
        let ext = empty as u32;
        match &v.kind {
            ExprKind::Var(b"this") => {
                let r = self.f.tmp();
                let i = self.f.emit(Opcode::IssetIsemptyThis, &Node::Unused, &Node::Unused, &r);
                self.f.at(i).extended_value = ext;
                Ok(r)
            }
            ExprKind::Var(name) => {
                let cv = self.compile_cv(name, Fetch::Is, v.line)?;
                let r = self.f.tmp();
                let i = self.f.emit(Opcode::IssetIsemptyCv, &cv, &Node::Unused, &r);
                self.f.at(i).extended_value = ext;
                Ok(r)
            }
            _ if is_named_var(v) => {
                let mut d = Vec::new();
                self.delayed_compile_named(v, Fetch::Is, &mut d, true)?;
                let i = self.emit_delayed(d);
                let o = self.f.at(i);
                o.opcode = Opcode::IssetIsemptyVar as u8;
                o.extended_value |= ext;
                Ok(Node::Tmp(o.result))
            }
            ExprKind::Index { .. } => {
                let i = self.compile_dim(v, Fetch::Is)?;
                let o = self.f.at(i);
                o.opcode = Opcode::IssetIsemptyDimObj as u8;
                o.extended_value = ext;
                Ok(Node::Tmp(o.result))
            }
            ExprKind::Prop { .. } | ExprKind::StaticProp { .. } => {
                let start = self.f.next_op();
                let r = self.compile_var(v, Fetch::Is)?;
                let i = self.f.next_op() - 1;
                let o = self.f.at(i);
                o.opcode = if o.opcode == Opcode::FetchObjIs as u8 { Opcode::IssetIsemptyPropObj } else { Opcode::IssetIsemptyStaticProp } as u8;
                o.extended_value = ext;
                // `?->` in the chain short-circuits to false (isset) / true (empty):
                // ZEND_SHORT_CIRCUITING_CHAIN_ISSET / _EMPTY.
                for j in start..i {
                    let o = self.f.at(j);
                    if o.opcode == Opcode::JmpNull as u8 && Node::Tmp(o.result) == r {
                        o.extended_value = if empty { 2 } else { 1 };
                    }
                }
                Ok(r)
            }
            _ if empty => {
                // empty(expr) is !expr.
                let n = self.compile_expr(v)?;
                if let Node::Const(c) = &n {
                    return Ok(Node::Const(Lit::Bool(!c.truthy())));
                }
                Ok(self.f.emit_tmp(Opcode::BoolNot, &n, &Node::Unused))
            }
            _ => fatal(
                "Cannot use isset() on the result of an expression (you can use \"null !== expression\" instead)",
                v.line,
            ),
        }
    }

    // ------------------------------------------------------- strings, arrays

    /// `zend_compile_encaps_list`: string interpolation.
    fn compile_encaps_list(&mut self, parts: &[StrPart<'_>]) -> CResult<Node> {
        // (opline index, part) of rope ops; the first may be a reserved NOP.
        let mut j = 0u32;
        let mut last_const: Option<(Vec<u8>, u32)> = None; // (text, reserved opline)
        let mut rope_ops: Vec<u32> = Vec::new();
        let mut last_op = 0u32;
        for p in parts {
            let n = match p {
                StrPart::Literal(s) => Node::Const(Lit::Str(s.to_vec())),
                StrPart::Expr(e) => self.compile_expr(e)?,
            };
            if let Node::Const(c) = &n {
                let s = fold::to_str(c).unwrap_or_default();
                if s.is_empty() {
                    continue;
                }
                match &mut last_const {
                    Some((text, _)) => text.extend(s),
                    None => {
                        let at = self.f.emit(Opcode::Nop, &Node::Unused, &Node::Unused, &Node::Unused);
                        last_const = Some((s, at));
                    }
                }
                continue;
            }
            if let Some((text, at)) = last_const.take() {
                self.rope_set(at, j, Node::Const(Lit::Str(text)));
                rope_ops.push(at);
                j += 1;
            }
            let at = self.f.emit(Opcode::Nop, &Node::Unused, &Node::Unused, &Node::Unused);
            self.rope_set(at, j, n);
            rope_ops.push(at);
            last_op = at;
            j += 1;
        }
        if j == 0 {
            // All constant.
            let text = last_const.map(|(t, at)| {
                self.f.op.ops.truncate(at as usize);
                t
            });
            return Ok(Node::Const(Lit::Str(text.unwrap_or_default())));
        }
        if let Some((text, at)) = last_const.take() {
            self.rope_set(at, j, Node::Const(Lit::Str(text)));
            rope_ops.push(at);
            last_op = at;
            j += 1;
        }
        let init = rope_ops[0];
        if j == 1 {
            // One non-constant part: a string cast.
            let o = *self.f.at(last_op);
            let r = self.f.tmp();
            let Node::Tmp(t) = r else { unreachable!() };
            let op = self.f.at(last_op);
            op.opcode = Opcode::Cast as u8;
            op.extended_value = 6;
            op.op1_type = o.op2_type;
            op.op1 = o.op2;
            op.op2_type = crate::ops::IS_UNUSED;
            op.op2 = 0;
            op.result_type = IS_TMP_VAR;
            op.result = t;
            return Ok(r);
        }
        if j == 2 {
            let first = *self.f.at(init);
            let r = self.f.tmp();
            let Node::Tmp(t) = r else { unreachable!() };
            let op = self.f.at(last_op);
            op.opcode = Opcode::FastConcat as u8;
            op.extended_value = 0;
            op.op1_type = first.op2_type;
            op.op1 = first.op2;
            op.result_type = IS_TMP_VAR;
            op.result = t;
            let f = self.f.at(init);
            *f = crate::ops::Op::new(Opcode::Nop, f.lineno);
            return Ok(r);
        }
        // A rope: the result first, then the parts from the base on, two
        // string pointers per slot as in Zend.
        let result = self.f.temp();
        let base = self.f.temp();
        for _ in 1..j.div_ceil(2) {
            self.f.temp();
        }
        for (k, &at) in rope_ops.iter().enumerate() {
            let op = self.f.at(at);
            let last = k + 1 == rope_ops.len();
            op.opcode = if k == 0 {
                Opcode::RopeInit
            } else if last {
                Opcode::RopeEnd
            } else {
                Opcode::RopeAdd
            } as u8;
            if k == 0 {
                op.extended_value = j;
                op.result_type = IS_TMP_VAR;
                op.result = base;
            } else {
                op.op1_type = IS_TMP_VAR;
                op.op1 = base;
                op.result_type = IS_TMP_VAR;
                op.result = if last { result } else { base };
            }
        }
        Ok(Node::Tmp(result))
    }

    /// Fills a reserved opline with rope part `j` (kind fixed up later).
    fn rope_set(&mut self, at: u32, j: u32, n: Node) {
        let line = self.f.line;
        let mut tmp = crate::ops::Op::new(Opcode::RopeAdd, line);
        let probe = self.f.emit(Opcode::Nop, &Node::Unused, &n, &Node::Unused);
        let p = self.f.op.ops.pop().expect("probe");
        debug_assert_eq!(probe as usize, self.f.op.ops.len());
        tmp.op2_type = p.op2_type;
        tmp.op2 = p.op2;
        tmp.extended_value = j;
        tmp.lineno = self.f.at(at).lineno;
        *self.f.at(at) = tmp;
    }

    /// `zend_compile_array`: a constant array when every element is constant.
    fn compile_array(&mut self, items: &[ArrayItem<'_>], line: u32) -> CResult<Node> {
        // zend_try_ct_eval_array: a literal whose elements all evaluate to
        // constants is one constant.
        if let Some(l) = self.const_eval_array(items) {
            return Ok(Node::Const(l));
        }
        let mut packed = true;
        let mut result = Node::Unused;
        let mut init = 0;
        for (i, item) in items.iter().enumerate() {
            let value = item.value;
            if item.spread {
                let v = self.compile_element(value)?;
                if matches!(&v, Node::Const(l) if !matches!(l, Lit::Array(_))) {
                    return fatal("Only arrays and Traversables can be unpacked", line);
                }
                if i == 0 {
                    result = self.f.tmp();
                    init = self.f.emit(Opcode::InitArray, &Node::Unused, &Node::Unused, &result);
                }
                self.f.emit(Opcode::AddArrayUnpack, &v, &Node::Unused, &result);
                continue;
            }
            let k = match item.key {
                Some(k) => {
                    let n = numeric_dim(self.compile_element(k)?);
                    if !matches!(n, Node::Const(Lit::Long(_))) {
                        packed = false;
                    }
                    n
                }
                None => Node::Unused,
            };
            let v = if item.by_ref {
                if !matches!(value.kind, ExprKind::Var(_) | ExprKind::Index { .. }) {
                    return fatal("Cannot create references to/from string offsets", line);
                }
                self.compile_var(value, Fetch::W)?
            } else {
                self.compile_element(value)?
            };
            let at = if i == 0 {
                result = self.f.tmp();
                init = self.f.emit(Opcode::InitArray, &v, &k, &result);
                self.f.at(init).extended_value = (items.len() as u32) << 2;
                init
            } else {
                self.f.emit(Opcode::AddArrayElement, &v, &k, &result)
            };
            if item.by_ref {
                self.f.at(at).extended_value |= 1;
            }
        }
        if !packed {
            self.f.at(init).extended_value |= 2;
        }
        Ok(result)
    }

    /// `zend_compile_func_in_array`: `in_array($x, [literals])` (with a
    /// literal `$strict`) is IN_ARRAY over a table whose keys are the
    /// values: strings and ints under strict, non-numeric strings otherwise.
    fn compile_in_array(&mut self, args: &[Arg<'_>]) -> CResult<Option<Node>> {
        if !(2..=3).contains(&args.len()) || args.iter().any(|a| a.unpack || a.name.is_some()) {
            return Ok(None);
        }
        let strict = match args.get(2) {
            None => false,
            Some(a) if matches!(a.value.kind, ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::String(_) | ExprKind::Const(_)) => {
                match self.const_eval(a.value) {
                    Some(l) => l.truthy(),
                    None => return Ok(None),
                }
            }
            Some(_) => return Ok(None),
        };
        let ExprKind::Array(items) = &args[1].value.kind else { return Ok(None) };
        let Some(Lit::Array(values)) = self.const_eval_array(items) else { return Ok(None) };
        let mut keys: Vec<(Key, Lit)> = Vec::new();
        for (_, v) in values {
            let k = match v {
                Lit::Str(s) if strict || !matches!(crate::value::convert::parse_numeric(&s), crate::value::convert::NumericParse::Numeric(_)) => Key::Str(s),
                Lit::Long(i) if strict => Key::Int(i),
                _ => return Ok(None),
            };
            if !keys.iter().any(|(x, _)| *x == k) {
                keys.push((k, Lit::Bool(true)));
            }
        }
        let needle = self.compile_expr(args[0].value)?;
        let r = self.f.emit_tmp(Opcode::InArray, &needle, &Node::Const(Lit::Array(keys)));
        let i = self.f.next_op() - 1;
        self.f.at(i).extended_value = strict as u32;
        Ok(Some(r))
    }

    /// `__CLASS__` in a trait is known only at run time.
    pub(super) fn magic_const_is_runtime(&self, m: MagicConst) -> bool {
        m == MagicConst::Class && self.class_ctx.as_ref().is_some_and(|c| c.kind == ClassKind::Trait)
    }

    /// An array literal's key or value: a constant where Zend's
    /// `zend_eval_const_expr` folds it, else compiled.
    fn compile_element(&mut self, e: &Expr<'_>) -> CResult<Node> {
        match self.const_eval(e) {
            Some(l) => Ok(Node::Const(l)),
            None => self.compile_expr(e),
        }
    }

    /// `__LINE__` and friends; outside classes and namespaces most are empty.
    pub(super) fn compile_magic_const(&mut self, m: MagicConst, line: u32) -> Node {
        if self.magic_const_is_runtime(m) {
            // `__CLASS__` in a trait is the class using it (FETCH_CLASS_NAME of self).
            self.f.line = line;
            let r = self.f.tmp();
            let i = self.f.emit(Opcode::FetchClassName, &Node::Unused, &Node::Unused, &r);
            self.set_class_op1(i, &super::member::ClassNode::Special(crate::exec::slow::object::FETCH_CLASS_SELF));
            return r;
        }
        Node::Const(Lit::Str(match m {
            MagicConst::Line => return Node::Const(Lit::Long(line as i64)),
            MagicConst::File => self.filename.as_bytes().to_vec(),
            MagicConst::Dir => {
                let f = self.filename.to_string();
                let d = std::path::Path::new(&f).parent().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
                d.into_bytes()
            }
            MagicConst::Function => self.func_name.clone(),
            MagicConst::Method => match &self.class_ctx {
                Some(c) if !self.func_name.is_empty() => {
                    let mut m = c.name.clone();
                    m.extend_from_slice(b"::");
                    m.extend_from_slice(&self.func_name);
                    m
                }
                _ => self.func_name.clone(),
            },
            MagicConst::Class => self.class_ctx.as_ref().map(|c| c.name.clone()).unwrap_or_default(),
            MagicConst::Trait => match &self.class_ctx {
                Some(c) if c.kind == ClassKind::Trait => c.name.clone(),
                _ => Vec::new(),
            },
            MagicConst::Namespace => self.ns.clone(),
        }))
    }

    fn compile_const(&mut self, name: &Name<'_>, line: u32) -> CResult<Node> {
        if name.kind != NameKind::FullyQualified && name.name.eq_ignore_ascii_case(b"__COMPILER_HALT_OFFSET__") {
            return unsupported("__COMPILER_HALT_OFFSET__", line);
        }
        if let Some(l) = self.const_value(name) {
            return Ok(Node::Const(l));
        }
        let (full, fallback) = self.resolve_const(name);
        self.f.line = line;
        let r = self.f.tmp();
        let slot = self.f.cache_slot();
        let i = self.f.emit(Opcode::FetchConstant, &Node::Unused, &Node::Const(Lit::Str(full)), &r);
        self.f.at(i).extended_value = slot;
        // IS_CONSTANT_UNQUALIFIED_IN_NAMESPACE: undefined, the global one.
        self.f.at(i).op1 = fallback as u32;
        Ok(r)
    }

    /// `zend_try_ct_eval_const`: the value of a constant known at compile
    /// time: true/false/null (unqualified ones in a namespace too), the
    /// builtin constants (not through a namespace's fallback, which Zend
    /// leaves to run time), and in a `const` declaration the top-level
    /// constants declared before it.
    pub(super) fn const_value(&self, name: &Name<'_>) -> Option<Lit> {
        let (full, fallback) = self.resolve_const(name);
        let special = if name.kind == NameKind::FullyQualified { &full[..] } else { super::names::short_name(&full) };
        match special.to_ascii_lowercase().as_slice() {
            b"true" => return Some(Lit::Bool(true)),
            b"false" => return Some(Lit::Bool(false)),
            b"null" => return Some(Lit::Null),
            _ => {}
        }
        if self.in_const_decl {
            // `const B = A + 1;` after `const A = 1;` (Zend evaluates the
            // constant expression when DECLARE_CONST runs).
            if let Some(l) = self.top_consts.get(&full) {
                return Some(l.clone());
            }
        }
        if fallback {
            return None;
        }
        let v = crate::stdlib::constant(&full)?;
        let l = lit_of(&v);
        // SAFETY: `constant` returned a fresh value owned here.
        unsafe { v.ptr_dtor() };
        l
    }

    // ---------------------------------------------------------------- calls

    fn compile_call(&mut self, callee: &Callee<'_>, args: &[Arg<'_>], line: u32) -> CResult<Node> {
        // A string literal callee is a fully qualified name, as in Zend.
        // No namespaces yet: every name resolves to itself.
        // zend_compile_dynamic_call: a literal 'A::m' is a static method call.
        if let Callee::Expr(Expr { kind: ExprKind::String(s), .. }) = callee {
            if let Some(p) = s.windows(2).position(|w| w == b"::").filter(|&p| p > 0 && p + 2 < s.len()) {
                let class = ClassRef::Name(Name { name: s[..p].strip_prefix(b"\\").unwrap_or(&s[..p]), kind: NameKind::FullyQualified });
                return self.compile_static_call(&class, &MemberName::Ident(&s[p + 2..]), &Args::List(args), line);
            }
        }
        let resolved;
        let fname: &[u8] = match callee {
            Callee::Name(n) => {
                let (full, fallback) = self.resolve_function(n);
                if fallback {
                    return self.compile_ns_call(&full, args, line);
                }
                resolved = full;
                &resolved
            }
            Callee::Expr(Expr { kind: ExprKind::String(s), .. }) => s.strip_prefix(b"\\").unwrap_or(s),
            Callee::Expr(name) => {
                let callee = self.compile_expr(name)?;
                self.f.line = line;
                let i = self.f.emit(Opcode::InitDynamicCall, &Node::Unused, &callee, &Node::Unused);
                let n = self.compile_args(args, None)?;
                self.f.at(i).op1 = n;
                return Ok(self.emit_do_call(Opcode::DoFcall, line));
            }
        };
        let bare = fname;
        let lc = bare.to_ascii_lowercase();
        // Internal functions and user functions declared earlier in the file.
        let builtin = crate::stdlib::find_builtin(&lc);
        let user = self.known.get(&lc).cloned();
        if builtin.is_none() && user.is_none() {
            // PHP always has the type predicates; Zend compiles them to TYPE_CHECK.
            if is_type_predicate(&lc) && args.iter().all(|a| a.name.is_none()) {
                if let Some(n) = self.try_special_func(&lc, args)? {
                    return Ok(n);
                }
            }
            return self.compile_by_name_call(bare, args, line);
        }
        // zend_args_contain_unpack_or_named: no special function then.
        if builtin.is_some() && args.iter().all(|a| a.name.is_none()) {
            if let Some(n) = self.try_special_func(&lc, args)? {
                return Ok(n);
            }
        }
        self.f.line = line;
        let slot = self.f.cache_slot();
        let i = self.f.emit(Opcode::InitFcall, &Node::Unused, &Node::Const(Lit::Str(lc.clone())), &Node::Unused);
        self.f.at(i).result = slot;
        let sig = match (&user, builtin) {
            (Some(u), _) => u.clone(),
            (None, Some(b)) => builtin_sig(b),
            _ => unreachable!(),
        };
        let n = self.compile_args(args, Some(&sig))?;
        let stack = if user.is_some() {
            5 + n + sig.num_tmps + sig.num_cvs - sig.num_args.min(n)
        } else {
            5 + n
        };
        let o = self.f.at(i);
        o.op1 = n;
        o.extended_value = stack * 16;
        let code = if user.is_some() { Opcode::DoUcall } else { Opcode::DoIcall };
        Ok(self.emit_do_call(code, line))
    }

    /// `zend_compile_ns_call`: an unqualified call in a namespace, to the
    /// namespaced function or else the global one (INIT_NS_FCALL_BY_NAME).
    fn compile_ns_call(&mut self, name: &[u8], args: &[Arg<'_>], line: u32) -> CResult<Node> {
        self.compile_call_by_name(Opcode::InitNsFcallByName, name, args, line)
    }

    fn compile_by_name_call(&mut self, name: &[u8], args: &[Arg<'_>], line: u32) -> CResult<Node> {
        self.compile_call_by_name(Opcode::InitFcallByName, name, args, line)
    }

    /// A call the compiler does not know the function of: `init` by name,
    /// the arguments, DO_FCALL_BY_NAME.
    fn compile_call_by_name(&mut self, init: Opcode, name: &[u8], args: &[Arg<'_>], line: u32) -> CResult<Node> {
        self.f.line = line;
        let slot = self.f.cache_slot();
        let i = self.f.emit(init, &Node::Unused, &Node::Const(Lit::Str(name.to_vec())), &Node::Unused);
        self.f.at(i).result = slot;
        let n = self.compile_args(args, None)?;
        self.f.at(i).op1 = n;
        Ok(self.emit_do_call(Opcode::DoFcallByName, line))
    }

    pub(super) fn emit_do_call(&mut self, code: Opcode, line: u32) -> Node {
        self.f.line = line;
        self.f.emit_var(code, &Node::Unused, &Node::Unused)
    }

    /// `zend_try_compile_special_func`, for the opcodes Tusk has: strlen(),
    /// count(), the cast functions, and ord()/chr() of a literal.
    fn try_special_func(&mut self, lc: &[u8], args: &[Arg<'_>]) -> CResult<Option<Node>> {
        // zend_compile_func_array_key_exists: two positional arguments.
        if lc == b"in_array" {
            return self.compile_in_array(args);
        }
        if lc == b"array_key_exists" && args.len() == 2 && args.iter().all(|a| !a.unpack && a.name.is_none()) {
            let key = self.compile_expr(args[0].value)?;
            let subject = self.compile_expr(args[1].value)?;
            return Ok(Some(self.f.emit_tmp(Opcode::ArrayKeyExists, &key, &subject)));
        }
        if args.len() != 1 || args[0].unpack {
            return Ok(None);
        }
        match lc {
            b"ord" => match &args[0].value.kind {
                ExprKind::String(s) => Ok(Some(Node::Const(Lit::Long(s.first().copied().unwrap_or(0) as i64)))),
                _ => Ok(None),
            },
            b"chr" => match &args[0].value.kind {
                ExprKind::Int(i) => Ok(Some(Node::Const(Lit::Str(vec![*i as u8])))),
                _ => Ok(None),
            },
            // zend_compile_func_defined: a literal name without a namespace part.
            b"defined" => match &args[0].value.kind {
                ExprKind::String(s) if !s.contains(&b'\\') && !s.contains(&b':') => {
                    let r = self.f.tmp();
                    let slot = self.f.cache_slot();
                    let i = self.f.emit(Opcode::Defined, &Node::Const(Lit::Str(s.to_vec())), &Node::Unused, &r);
                    self.f.at(i).extended_value = slot;
                    Ok(Some(r))
                }
                _ => Ok(None),
            },
            b"boolval" => {
                let n = self.compile_expr(args[0].value)?;
                Ok(Some(self.f.emit_tmp(Opcode::Bool, &n, &Node::Unused)))
            }
            // zend_compile_func_get_class / zend_compile_func_gettype.
            b"get_class" | b"gettype" => {
                let n = self.compile_expr(args[0].value)?;
                let code = if lc == b"gettype" { Opcode::GetType } else { Opcode::GetClass };
                Ok(Some(self.f.emit_tmp(code, &n, &Node::Unused)))
            }
            b"intval" | b"floatval" | b"doubleval" | b"strval" => {
                let n = self.compile_expr(args[0].value)?;
                let r = self.f.emit_tmp(Opcode::Cast, &n, &Node::Unused);
                let i = self.f.next_op() - 1;
                self.f.at(i).extended_value = match lc {
                    b"intval" => 4,
                    b"strval" => 6,
                    _ => 5,
                };
                Ok(Some(r))
            }
            b"is_null" | b"is_bool" | b"is_long" | b"is_int" | b"is_integer" | b"is_float" | b"is_double" | b"is_string"
            | b"is_array" | b"is_object" | b"is_resource" | b"is_scalar" => {
                use crate::value::*;
                let bit = |k: u8| 1u32 << k;
                let mask = match lc {
                    b"is_null" => bit(IS_NULL),
                    b"is_bool" => bit(IS_FALSE) | bit(IS_TRUE),
                    b"is_long" | b"is_int" | b"is_integer" => bit(IS_LONG),
                    b"is_float" | b"is_double" => bit(IS_DOUBLE),
                    b"is_string" => bit(IS_STRING),
                    b"is_array" => bit(IS_ARRAY),
                    b"is_object" => bit(IS_OBJECT),
                    b"is_resource" => bit(IS_RESOURCE),
                    _ => bit(IS_FALSE) | bit(IS_TRUE) | bit(IS_LONG) | bit(IS_DOUBLE) | bit(IS_STRING),
                };
                let n = self.compile_expr(args[0].value)?;
                let r = self.f.emit_tmp(Opcode::TypeCheck, &n, &Node::Unused);
                let i = self.f.next_op() - 1;
                self.f.at(i).extended_value = mask;
                Ok(Some(r))
            }
            b"strlen" => {
                let n = self.compile_expr(&args[0].value)?;
                if let Node::Const(Lit::Str(s)) = &n {
                    return Ok(Some(Node::Const(Lit::Long(s.len() as i64))));
                }
                Ok(Some(self.f.emit_tmp(Opcode::Strlen, &n, &Node::Unused)))
            }
            b"count" | b"sizeof" => {
                let n = self.compile_expr(&args[0].value)?;
                let r = self.f.emit_tmp(Opcode::Count, &n, &Node::Unused);
                let i = self.f.next_op() - 1;
                self.f.at(i).extended_value = (lc == b"sizeof") as u32;
                Ok(Some(r))
            }
            _ => Ok(None),
        }
    }

    /// `zend_compile_args`; returns the argument count.
    pub(super) fn compile_args(&mut self, args: &[Arg<'_>], fbc: Option<&super::KnownFunc>) -> CResult<u32> {
        let saved_chain = self.null_jumps.take();
        let r = self.compile_args_inner(args, fbc);
        self.null_jumps = saved_chain;
        r
    }

    fn compile_args_inner(&mut self, args: &[Arg<'_>], fbc: Option<&super::KnownFunc>) -> CResult<u32> {
        let mut fbc = fbc;
        let mut unpacked = false;
        let mut named = false;
        // Named arguments not passed in order: some parameters may be
        // skipped (CHECK_UNDEF_ARGS fills them in).
        let mut may_have_undef = false;
        let mut count = 0u32;
        for a in args.iter() {
            let e = &a.value;
            if a.unpack {
                if named {
                    return fatal("Cannot use argument unpacking after named arguments", a.line);
                }
                // zend_compile_args: the argument numbers are unknown from here on.
                unpacked = true;
                fbc = None;
                let n = self.compile_expr(e)?;
                let o = self.f.emit(Opcode::SendUnpack, &n, &Node::Unused, &Node::Unused);
                self.f.at(o).op2 = count;
                continue;
            }
            // The parameter's name (a named argument sent by name) and its
            // position (0: unknown).
            let mut arg_name: Option<&[u8]> = None;
            let num = if let Some(name) = a.name {
                named = true;
                match fbc.filter(|_| !unpacked).map(|f| f.arg_num(name)) {
                    Some(Some(n)) if n == count + 1 && !may_have_undef => {
                        // Named, but in order: sent as a positional argument.
                        count += 1;
                        n
                    }
                    Some(Some(n)) => {
                        may_have_undef = true;
                        arg_name = Some(name);
                        n
                    }
                    _ => {
                        may_have_undef = true;
                        arg_name = Some(name);
                        0
                    }
                }
            } else {
                if unpacked {
                    return fatal("Cannot use positional argument after argument unpacking", a.line);
                }
                if named {
                    return fatal("Cannot use positional argument after named argument", a.line);
                }
                count += 1;
                count
            };
            // With the position unknown, the callee decides by-reference passing at run time.
            let fbc = if num == 0 { None } else { fbc };
            let (code, node) = if Compiler::is_call(e) {
                let n = self.compile_expr(e)?;
                let code = match (&n, fbc) {
                    (Node::Const(_) | Node::Tmp(_), Some(f)) if !f.arg_by_ref(num) => Opcode::SendVal,
                    (Node::Const(_) | Node::Tmp(_), _) => Opcode::SendValEx,
                    (_, Some(f)) if !f.arg_by_ref(num) => Opcode::SendVar,
                    (Node::Var(_), Some(_)) => Opcode::SendVarNoRef,
                    (Node::Var(_), None) => Opcode::SendVarNoRefEx,
                    (_, Some(_)) => Opcode::SendRef,
                    (_, None) => Opcode::SendVarEx,
                };
                (code, n)
            } else if matches!(e.kind, ExprKind::Var(_) | ExprKind::Index { .. } | ExprKind::Prop { nullsafe: false, .. } | ExprKind::StaticProp { .. }) {
                match fbc {
                    Some(f) if f.arg_by_ref(num) => (Opcode::SendRef, self.compile_var(e, Fetch::W)?),
                    Some(_) => {
                        let n = self.compile_var(e, Fetch::R)?;
                        (if matches!(n, Node::Tmp(_)) { Opcode::SendVal } else { Opcode::SendVar }, n)
                    }
                    None => match &e.kind {
                        ExprKind::Var(name) if *name != b"this" => (Opcode::SendVarEx, self.compile_cv(name, Fetch::R, e.line)?),
                        // CHECK_FUNC_ARG decides at run time whether the
                        // FETCH_*_FUNC_ARG fetches for writing, and SEND_FUNC_ARG
                        // sends by reference.
                        _ if is_func_arg_path(e) => {
                            self.f.line = e.line;
                            let c = self.f.emit(Opcode::CheckFuncArg, &Node::Unused, &Node::Unused, &Node::Unused);
                            self.f.at(c).op2 = num;
                            (Opcode::SendFuncArg, self.compile_var(e, Fetch::FuncArg)?)
                        }
                        // Zend: CHECK_FUNC_ARG + FETCH_DIM_FUNC_ARG + SEND_FUNC_ARG.
                        _ => (Opcode::SendValEx, self.compile_var(e, Fetch::R)?),
                    },
                }
            } else {
                let n = self.compile_expr(e)?;
                let code = match (&n, fbc) {
                    (Node::Var(_), Some(f)) if !f.arg_by_ref(num) => Opcode::SendVar,
                    (Node::Var(_), _) => Opcode::SendVarEx,
                    (Node::Cv(_), Some(f)) if f.arg_by_ref(num) => Opcode::SendRef,
                    (Node::Cv(_), Some(_)) => Opcode::SendVar,
                    (Node::Cv(_), None) => Opcode::SendVarEx,
                    (_, Some(f)) if !f.arg_by_ref(num) => Opcode::SendVal,
                    _ => Opcode::SendValEx,
                };
                (code, n)
            };
            match arg_name {
                // Zend: op2 the name (a CONST), resolved at run time.
                Some(name) => {
                    self.f.emit(code, &node, &Node::Const(Lit::Str(name.to_vec())), &Node::Unused);
                }
                None => {
                    let o = self.f.emit(code, &node, &Node::Unused, &Node::Unused);
                    self.f.at(o).op2 = num;
                }
            }
        }
        if unpacked || may_have_undef {
            self.f.emit(Opcode::CheckUndefArgs, &Node::Unused, &Node::Unused, &Node::Unused);
        }
        Ok(count)
    }
}

/// What the compiler needs to know of a builtin's signature.
fn builtin_sig(b: &crate::stdlib::BuiltinDef) -> super::KnownFunc {
    let mut by_ref = Vec::new();
    let mut variadic = None;
    for p in b.params() {
        if p.variadic {
            variadic = Some(p.by_ref);
        } else {
            by_ref.push(p.by_ref);
        }
    }
    let names = b.params().map(|p| p.name.as_bytes().to_vec()).collect();
    super::KnownFunc { num_args: by_ref.len() as u32, by_ref, variadic_by_ref: variadic, num_cvs: 0, num_tmps: 0, names }
}

/// ZEND_FETCH_GLOBAL, ZEND_FETCH_LOCAL, ZEND_FETCH_GLOBAL_LOCK in a FETCH_*'s extended_value.
pub const GLOBAL_FETCH: u32 = 1 << 1;
pub const LOCAL_FETCH: u32 = 1 << 2;
pub const GLOBAL_LOCK_FETCH: u32 = 1 << 3;

/// A variable reached by name at run time: `$$n`, `${expr}`, `$GLOBALS[expr]`.
pub fn is_named_var(e: &Expr<'_>) -> bool {
    matches!(e.kind, ExprKind::VarVar(_)) || is_globals_dim(e)
}

/// `$GLOBALS[…]`: the global variable of that name (PHP 8.1+).
pub fn is_globals_dim(e: &Expr<'_>) -> bool {
    matches!(&e.kind, ExprKind::Index { base, .. } if matches!(base.kind, ExprKind::Var(b"GLOBALS")))
}

/// The `is_*()` functions Zend compiles to TYPE_CHECK.
fn is_type_predicate(lc: &[u8]) -> bool {
    matches!(
        lc,
        b"is_null" | b"is_bool" | b"is_long" | b"is_int" | b"is_integer" | b"is_float" | b"is_double" | b"is_string" | b"is_array" | b"is_object" | b"is_resource" | b"is_scalar"
    )
}

/// An argument Zend fetches with BP_VAR_FUNC_ARG that Tusk does too: an
/// element or property path rooted at a variable (or `$this` for a property).
fn is_func_arg_path(e: &Expr<'_>) -> bool {
    let base = match &e.kind {
        ExprKind::Index { base, .. } => base,
        ExprKind::Prop { obj, nullsafe: false, .. } => obj,
        _ => return false,
    };
    match &base.kind {
        ExprKind::Var(n) => *n != b"GLOBALS" && (*n != b"this" || matches!(e.kind, ExprKind::Prop { .. })),
        ExprKind::Index { .. } | ExprKind::Prop { .. } => is_func_arg_path(base),
        _ => false,
    }
}

/// `zend_handle_numeric_dim`: `"12"` as a key is `12`.
fn numeric_dim(n: Node) -> Node {
    if let Node::Const(Lit::Str(s)) = &n {
        if let Key::Int(i) = super::emit::normalize_key(s) {
            return Node::Const(Lit::Long(i));
        }
    }
    n
}

/// The variable at the root of `$a[..][..]`.
fn root_var<'a>(e: &Expr<'a>) -> Option<&'a [u8]> {
    match &e.kind {
        ExprKind::Var(n) => Some(n),
        ExprKind::Index { base, .. } => root_var(base),
        _ => None,
    }
}

/// A run-time constant value as a compile-time one.
pub(super) fn lit_of(v: &crate::value::Zval) -> Option<Lit> {
    use crate::value::*;
    Some(match v.kind() {
        IS_NULL => Lit::Null,
        IS_FALSE => Lit::Bool(false),
        IS_TRUE => Lit::Bool(true),
        IS_LONG => Lit::Long(v.lval()),
        IS_DOUBLE => Lit::Double(v.dval()),
        // SAFETY: a live string value.
        IS_STRING => Lit::Str(unsafe { (*v.str()).bytes().to_vec() }),
        _ => return None,
    })
}

/// Does a destructuring item take a reference, itself or in a nested pattern?
fn item_has_refs(item: &ArrayItem<'_>) -> bool {
    item.by_ref || list_items(item.value).is_some_and(|inner| inner.iter().flatten().any(|i| item_has_refs(i)))
}

/// Does a destructuring pattern take any reference?
pub fn list_has_refs(items: &[Option<&ArrayItem<'_>>]) -> bool {
    items.iter().flatten().any(|i| item_has_refs(i))
}

/// The items of a destructuring target (`list(…)`, `[…]`), `None` for other expressions.
pub fn list_items<'e, 'a>(e: &'e Expr<'a>) -> Option<Vec<Option<&'e ArrayItem<'a>>>> {
    match &e.kind {
        ExprKind::List(items) => Some(items.iter().map(|i| i.as_ref()).collect()),
        ExprKind::Array(items) => Some(items.iter().map(Some).collect()),
        _ => None,
    }
}

/// The opcode of a binary operator.
pub fn binop_code(op: BinaryOp) -> Opcode {
    use BinaryOp::*;
    match op {
        Add => Opcode::Add,
        Sub => Opcode::Sub,
        Mul => Opcode::Mul,
        Div => Opcode::Div,
        Mod => Opcode::Mod,
        Pow => Opcode::Pow,
        Concat => Opcode::Concat,
        ShiftLeft => Opcode::Sl,
        ShiftRight => Opcode::Sr,
        BitOr => Opcode::BwOr,
        BitAnd => Opcode::BwAnd,
        BitXor => Opcode::BwXor,
        BoolXor => Opcode::BoolXor,
        Equal => Opcode::IsEqual,
        NotEqual => Opcode::IsNotEqual,
        Identical => Opcode::IsIdentical,
        NotIdentical => Opcode::IsNotIdentical,
        Smaller => Opcode::IsSmaller,
        SmallerOrEqual => Opcode::IsSmallerOrEqual,
        Spaceship => Opcode::Spaceship,
        // Handled before reaching here.
        Greater => Opcode::IsSmaller,
        GreaterOrEqual => Opcode::IsSmallerOrEqual,
        BoolAnd | BoolOr => Opcode::Nop,
    }
}

/// Whether an assignment target's path goes through a property.
fn has_member(e: &Expr<'_>) -> bool {
    match &e.kind {
        ExprKind::Prop { .. } | ExprKind::StaticProp { .. } => true,
        ExprKind::Index { base, .. } => has_member(base),
        _ => false,
    }
}

/// A path whose parts can be evaluated twice without a visible difference:
/// variables, literal keys and plain names.
fn pure_path(e: &Expr<'_>) -> bool {
    fn pure_key(k: &Expr<'_>) -> bool {
        match &k.kind {
            ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::String(_) | ExprKind::MagicConst(_) | ExprKind::Const(_) => true,
            // `static::class`, `A::C`: computed once and cached.
            ExprKind::ClassConst { class: ClassRef::Name(_), .. } => true,
            _ => false,
        }
    }
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Prop { obj, name, nullsafe } => {
            !*nullsafe && pure_path(obj) && match name {
                MemberName::Ident(_) => true,
                MemberName::Expr(k) => pure_key(k),
            }
        }
        ExprKind::StaticProp { class, name } => {
            matches!(class, ClassRef::Name(_)) && match name {
                MemberName::Ident(_) => true,
                MemberName::Expr(k) => pure_key(k),
            }
        }
        ExprKind::Index { base, dim } => pure_path(base) && dim.map_or(false, |d| pure_key(d)),
        _ => false,
    }
}
