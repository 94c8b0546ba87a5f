//! Member access: properties, method and static calls, class constants,
//! static properties, `new`, `clone`, `instanceof` (`zend_compile_prop`,
//! `zend_compile_method_call`, `zend_compile_static_call`, …), and the
//! short-circuiting of `?->` chains.

use super::emit::{Lit, Node};
use super::expr::{Delayed, Fetch};
use super::{fatal, CResult, Compiler};
use crate::compiler::ast::*;
use crate::exec::slow::object::{FETCH_CLASS_PARENT, FETCH_CLASS_SELF, FETCH_CLASS_STATIC};
use crate::ops::{Opcode, IS_TMP_VAR, IS_VAR};

/// A class operand: a name literal, `self`/`parent`/`static` (UNUSED with
/// the fetch kind), or a computed value.
pub(super) enum ClassNode {
    Name(Vec<u8>),
    Special(u32),
    Value(Node),
}

impl ClassNode {
    fn node(&self) -> Node {
        match self {
            ClassNode::Name(n) => Node::Const(Lit::Str(n.clone())),
            ClassNode::Special(_) => Node::Unused,
            ClassNode::Value(n) => n.clone(),
        }
    }
    fn special(&self) -> Option<u32> {
        match self {
            ClassNode::Special(k) => Some(*k),
            _ => None,
        }
    }
}

fn is_this(e: &Expr<'_>) -> bool {
    matches!(e.kind, ExprKind::Var(b"this"))
}

impl Compiler {
    /// Sets op1 (when UNUSED with a fetch kind) of opline `i` from a class node.
    pub(super) fn set_class_op1(&mut self, i: u32, c: &ClassNode) {
        if let Some(k) = c.special() {
            self.f.at(i).op1 = k;
        }
    }
    fn set_class_op2(&mut self, i: u32, c: &ClassNode) {
        if let Some(k) = c.special() {
            self.f.at(i).op2 = k;
        }
    }

    /// `__CLASS__` inside a trait: the using class, known only at run time
    /// (Zend compiles it as `self::class`).
    pub(super) fn compile_trait_class_name(&mut self, line: u32) -> Node {
        self.f.line = line;
        let r = self.f.tmp();
        let i = self.f.emit(Opcode::FetchClassName, &Node::Unused, &Node::Unused, &r);
        self.set_class_op1(i, &ClassNode::Special(FETCH_CLASS_SELF));
        r
    }

    pub(super) fn class_node(&mut self, c: &ClassRef<'_>, line: u32) -> CResult<ClassNode> {
        match c {
            ClassRef::Name(n) => {
                let name = n.name.strip_prefix(b"\\").unwrap_or(n.name);
                let lc = name.to_ascii_lowercase();
                let kind = match lc.as_slice() {
                    b"self" if n.kind == NameKind::Unqualified => FETCH_CLASS_SELF,
                    b"parent" if n.kind == NameKind::Unqualified => FETCH_CLASS_PARENT,
                    b"static" if n.kind == NameKind::Unqualified => FETCH_CLASS_STATIC,
                    _ => return Ok(ClassNode::Name(self.resolve_class(n))),
                };
                if self.class_ctx.is_none() && self.func_name.is_empty() && kind != FETCH_CLASS_STATIC {
                    let w = String::from_utf8_lossy(name);
                    return fatal(format!("Cannot use \"{w}\" when no class scope is active"), line);
                }
                Ok(ClassNode::Special(kind))
            }
            ClassRef::Expr(e) => Ok(ClassNode::Value(self.compile_expr(e)?)),
            ClassRef::Anonymous(d) => Ok(ClassNode::Value(self.compile_anon_class(d)?)),
        }
    }

    fn member_name(&mut self, n: &MemberName<'_>) -> CResult<Node> {
        match n {
            MemberName::Ident(s) => Ok(Node::Const(Lit::Str(s.to_vec()))),
            MemberName::Expr(e) => self.compile_expr(e),
        }
    }

    /// A member access chain (`$a?->b->c()`): `?->` jumps to the end of the
    /// whole chain, whose value is then null.
    pub(super) fn compile_chain(&mut self, e: &Expr<'_>, mode: Fetch) -> CResult<Node> {
        if self.null_jumps.is_some() {
            return self.compile_member(e, mode);
        }
        self.null_jumps = Some(Vec::new());
        let r = self.compile_member(e, mode);
        let jumps = self.null_jumps.take().unwrap_or_default();
        let n = r?;
        for j in jumps {
            self.f.patch_here(j);
            self.f.set_result(j, &n);
        }
        Ok(n)
    }

    /// The object operand of a member access in a read chain.
    fn chain_base(&mut self, obj: &Expr<'_>, mode: Fetch) -> CResult<Node> {
        if is_this(obj) {
            return Ok(Node::Unused);
        }
        match &obj.kind {
            ExprKind::Prop { .. } | ExprKind::MethodCall { .. } => self.compile_member(obj, mode),
            _ => self.compile_var(obj, mode),
        }
    }

    fn null_jump(&mut self, obj: &Node) {
        let i = self.f.emit(Opcode::JmpNull, obj, &Node::Unused, &Node::Unused);
        if let Some(j) = self.null_jumps.as_mut() {
            j.push(i);
        }
    }

    fn compile_member(&mut self, e: &Expr<'_>, mode: Fetch) -> CResult<Node> {
        match &e.kind {
            ExprKind::Prop { obj, name, nullsafe } => {
                let objn = self.chain_base(obj, mode)?;
                if *nullsafe {
                    self.f.line = e.line;
                    self.null_jump(&objn);
                }
                let namen = self.member_name(name)?;
                self.f.line = e.line;
                let code = if mode == Fetch::Is { Opcode::FetchObjIs } else { Opcode::FetchObjR };
                let r = self.f.emit_tmp(code, &objn, &namen);
                if matches!(namen, Node::Const(_)) {
                    let i = self.f.next_op() - 1;
                    let slot = self.member_cache();
                    self.f.at(i).extended_value = slot;
                }
                Ok(r)
            }
            ExprKind::MethodCall { obj, name, args, nullsafe } => {
                let objn = self.chain_base(obj, Fetch::R)?;
                if *nullsafe {
                    self.f.line = e.line;
                    self.null_jump(&objn);
                }
                let namen = self.member_name(name)?;
                let Args::List(args) = args else {
                    self.f.line = e.line;
                    self.f.emit(Opcode::InitMethodCall, &objn, &namen, &Node::Unused);
                    return Ok(self.f.emit_tmp(Opcode::CallableConvert, &Node::Unused, &Node::Unused));
                };
                self.f.line = e.line;
                let i = self.f.emit(Opcode::InitMethodCall, &objn, &namen, &Node::Unused);
                if matches!(namen, Node::Const(_)) {
                    let slot = self.member_cache();
                    self.f.at(i).result = slot;
                }
                let n = self.compile_args(args, None)?;
                self.f.at(i).extended_value = n;
                Ok(self.emit_do_call(Opcode::DoFcall, e.line))
            }
            _ => self.compile_expr(e),
        }
    }

    /// `zend_delayed_compile_prop` for writing: the object path is fetched
    /// for writing too; FETCH_OBJ_W/RW is delayed.
    pub(super) fn delayed_compile_prop(&mut self, e: &Expr<'_>, mode: Fetch, d: &mut Vec<Delayed>) -> CResult<Node> {
        let ExprKind::Prop { obj, name, nullsafe } = &e.kind else { unreachable!() };
        if *nullsafe {
            return fatal("Can't use nullsafe operator in write context", e.line);
        }
        let objn = if is_this(obj) {
            Node::Unused
        } else {
            match &obj.kind {
                ExprKind::MethodCall { nullsafe: true, .. } | ExprKind::Prop { nullsafe: true, .. } => {
                    return fatal("Can't use nullsafe operator in write context", e.line);
                }
                ExprKind::Var(_) | ExprKind::Index { .. } | ExprKind::Prop { .. } | ExprKind::StaticProp { .. } => {
                    self.delayed_compile_var(obj, if mode == Fetch::FuncArg { Fetch::FuncArg } else { Fetch::W }, d)?
                }
                _ => self.compile_expr(obj)?,
            }
        };
        let namen = self.member_name(name)?;
        self.f.line = e.line;
        let code = match mode {
            Fetch::Rw => Opcode::FetchObjRw,
            Fetch::FuncArg => Opcode::FetchObjFuncArg,
            _ => Opcode::FetchObjW,
        };
        // FETCH_OBJ_FUNC_ARG reads through FETCH_OBJ_R's runtime cache pair.
        let ext = if mode == Fetch::FuncArg && matches!(namen, Node::Const(_)) { self.member_cache() } else { 0 };
        let result = self.f.var();
        d.push(Delayed { code, ext, op1: objn, op2: namen, result: result.clone() });
        Ok(result)
    }

    /// A static property for writing: FETCH_STATIC_PROP_W/RW, delayed.
    pub(super) fn delayed_compile_static_prop(&mut self, e: &Expr<'_>, mode: Fetch, d: &mut Vec<Delayed>) -> CResult<Node> {
        let ExprKind::StaticProp { class, name } = &e.kind else { unreachable!() };
        let c = self.class_node(class, e.line)?;
        let namen = self.member_name(name)?;
        self.f.line = e.line;
        let code = if mode == Fetch::Rw { Opcode::FetchStaticPropRw } else { Opcode::FetchStaticPropW };
        let result = self.f.var();
        // The fetch kind of a special class goes in op2.num, set at emission.
        let ext = c.special().map_or(0, |k| k | 0x8000_0000);
        d.push(Delayed { code, ext, op1: namen, op2: c.node(), result: result.clone() });
        Ok(result)
    }

    /// A static property for reading.
    pub(super) fn compile_static_prop(&mut self, e: &Expr<'_>, mode: Fetch) -> CResult<Node> {
        let ExprKind::StaticProp { class, name } = &e.kind else { unreachable!() };
        let c = self.class_node(class, e.line)?;
        let namen = self.member_name(name)?;
        self.f.line = e.line;
        let code = if mode == Fetch::Is { Opcode::FetchStaticPropIs } else { Opcode::FetchStaticPropR };
        let r = self.f.tmp();
        let i = self.f.emit(code, &namen, &c.node(), &r);
        self.set_class_op2(i, &c);
        Ok(r)
    }

    pub(super) fn compile_class_const(&mut self, class: &ClassRef<'_>, name: &[u8], line: u32) -> CResult<Node> {
        let c = self.class_node(class, line)?;
        if name.eq_ignore_ascii_case(b"class") {
            match &c {
                ClassNode::Name(n) => return Ok(Node::Const(Lit::Str(n.clone()))),
                ClassNode::Special(FETCH_CLASS_SELF) if self.class_ctx.as_ref().is_some_and(|c| c.kind != ClassKind::Trait) => {
                    let n = self.class_ctx.as_ref().map(|c| c.name.clone()).unwrap_or_default();
                    return Ok(Node::Const(Lit::Str(n)));
                }
                ClassNode::Special(_) => {
                    self.f.line = line;
                    let r = self.f.tmp();
                    let i = self.f.emit(Opcode::FetchClassName, &Node::Unused, &Node::Unused, &r);
                    self.set_class_op1(i, &c);
                    return Ok(r);
                }
                ClassNode::Value(n) => {
                    self.f.line = line;
                    return Ok(self.f.emit_tmp(Opcode::FetchClassName, n, &Node::Unused));
                }
            }
        }
        if let Some(l) = self.ct_class_const(&c, name) {
            return Ok(Node::Const(l));
        }
        self.f.line = line;
        let r = self.f.tmp();
        let i = self.f.emit(Opcode::FetchClassConstant, &c.node(), &Node::Const(Lit::Str(name.to_vec())), &r);
        self.set_class_op1(i, &c);
        Ok(r)
    }

    pub(super) fn compile_static_call(&mut self, class: &ClassRef<'_>, name: &MemberName<'_>, args: &Args<'_>, line: u32) -> CResult<Node> {
        let c = self.class_node(class, line)?;
        let namen = self.member_name(name)?;
        let Args::List(args) = args else {
            self.f.line = line;
            let i = self.f.emit(Opcode::InitStaticMethodCall, &c.node(), &namen, &Node::Unused);
            self.set_class_op1(i, &c);
            return Ok(self.f.emit_tmp(Opcode::CallableConvert, &Node::Unused, &Node::Unused));
        };
        self.f.line = line;
        let i = self.f.emit(Opcode::InitStaticMethodCall, &c.node(), &namen, &Node::Unused);
        self.set_class_op1(i, &c);
        let fbc = self.known_static_method(&c, &namen);
        let n = self.compile_args(args, fbc.as_ref())?;
        self.f.at(i).extended_value = n;
        Ok(self.emit_do_call(if fbc.is_some() { Opcode::DoUcall } else { Opcode::DoFcall }, line))
    }

    /// `zend_is_scope_known`: `self` is the class being compiled (not in a
    /// closure, which may be bound elsewhere, nor in a trait).
    fn scope_known(&self) -> bool {
        self.class_ctx.as_ref().is_some_and(|c| c.kind != ClassKind::Trait) && !self.f.op.name.ends_with(b"{closure}")
    }

    /// `class_name_refers_to_active_ce`.
    fn refers_to_active_class(&self, c: &ClassNode) -> bool {
        match c {
            ClassNode::Special(FETCH_CLASS_SELF) => self.scope_known(),
            ClassNode::Name(n) => self.class_ctx.as_ref().is_some_and(|ctx| ctx.name.eq_ignore_ascii_case(n)),
            _ => false,
        }
    }

    /// `zend_try_ct_eval_class_const`: a literal constant of the class
    /// being compiled, declared above, reached through `self::` or its name.
    fn ct_class_const(&self, c: &ClassNode, name: &[u8]) -> Option<Lit> {
        if !self.refers_to_active_class(c) {
            return None;
        }
        let ctx = self.class_ctx.as_ref()?;
        ctx.consts.iter().find(|(n, _)| n.as_slice() == name).map(|(_, l)| l.clone())
    }

    /// The static call's method when the compiler knows it (Zend's
    /// `zend_compile_static_call`): a method of the class being compiled
    /// (through `self::` or its name), or a public one of a class declared
    /// above that Zend binds at compile time (no parent, interface or trait).
    fn known_static_method(&self, c: &ClassNode, namen: &Node) -> Option<super::KnownFunc> {
        let Node::Const(Lit::Str(m)) = namen else { return None };
        let lc = m.to_ascii_lowercase();
        if self.refers_to_active_class(c) {
            let ctx = self.class_ctx.as_ref()?;
            let (_, flags, sig) = ctx.methods.iter().find(|(n, _, _)| *n == lc)?;
            return (flags & crate::runtime::class::ACC_ABSTRACT == 0).then(|| sig.clone());
        }
        let ClassNode::Name(n) = c else { return None };
        // Classes bound at compile time, up the parent chain (opcache binds
        // children of builtin classes later: those are unknown).
        let mut def = self.classes.iter().find(|d| d.name.eq_ignore_ascii_case(n))?;
        let m = loop {
            if def.flags & (crate::runtime::class::CLASS_INTERFACE | crate::runtime::class::CLASS_TRAIT) != 0 {
                return None;
            }
            if let Some(m) = def.methods.iter().find(|m| m.func.op.name.eq_ignore_ascii_case(&lc)) {
                break m;
            }
            let p = def.parent.as_ref()?;
            def = self.classes.iter().find(|d| d.name.eq_ignore_ascii_case(p))?;
        };
        let mut d = def;
        while let Some(p) = &d.parent {
            d = self.classes.iter().find(|x| x.name.eq_ignore_ascii_case(p))?;
        }
        use crate::runtime::class::{ACC_ABSTRACT, ACC_PUBLIC};
        (m.flags & ACC_PUBLIC != 0 && m.flags & ACC_ABSTRACT == 0).then(|| super::KnownFunc::of(&m.func.op))
    }

    pub(super) fn compile_new(&mut self, class: &ClassRef<'_>, args: &[Arg<'_>], line: u32) -> CResult<Node> {
        let c = self.class_node(class, line)?;
        self.f.line = line;
        let r = self.f.var();
        let i = self.f.emit(Opcode::New, &c.node(), &Node::Unused, &r);
        self.set_class_op1(i, &c);
        if self.f.at(i).op1_type == crate::ops::IS_CONST {
            // op2: the runtime-cache pair of the class and its constructor
            // frame's size (Zend's op2.num).
            let slot = self.member_cache();
            self.f.at(i).op2 = slot;
        }
        let n = self.compile_args(args, None)?;
        self.f.at(i).extended_value = n;
        self.f.line = line;
        self.f.emit(Opcode::DoFcall, &Node::Unused, &Node::Unused, &Node::Unused);
        Ok(r)
    }

    pub(super) fn compile_clone(&mut self, inner: &Expr<'_>, line: u32) -> CResult<Node> {
        let n = if is_this(inner) { Node::Unused } else { self.compile_expr(inner)? };
        self.f.line = line;
        Ok(self.f.emit_tmp(Opcode::Clone, &n, &Node::Unused))
    }

    pub(super) fn compile_instanceof(&mut self, expr: &Expr<'_>, class: &ClassRef<'_>, line: u32) -> CResult<Node> {
        let n = self.compile_expr(expr)?;
        if matches!(n, Node::Const(_)) {
            // A literal is never an instance (Zend folds it to false).
            return Ok(Node::Const(Lit::Bool(false)));
        }
        let c = self.class_node(class, line)?;
        self.f.line = line;
        let r = self.f.tmp();
        let i = self.f.emit(Opcode::Instanceof, &n, &c.node(), &r);
        self.set_class_op2(i, &c);
        Ok(r)
    }

    /// Two runtime-cache slots for a member access by constant name: the
    /// class last seen and what it resolved to (property slot, method entry).
    pub(super) fn member_cache(&mut self) -> u32 {
        let s = self.f.cache_slot();
        self.f.cache_slot();
        s
    }

    /// `f(...)`: the call is prepared without arguments, then made a Closure.
    pub(super) fn compile_fcc_call(&mut self, callee: &Callee<'_>, line: u32) -> CResult<Node> {
        self.f.line = line;
        match callee {
            Callee::Name(n) => {
                let (name, fallback) = self.resolve_function(n);
                let slot = self.f.cache_slot();
                let code = if fallback { Opcode::InitNsFcallByName } else { Opcode::InitFcallByName };
                let i = self.f.emit(code, &Node::Unused, &Node::Const(Lit::Str(name)), &Node::Unused);
                self.f.at(i).result = slot;
            }
            Callee::Expr(e) => {
                let n = self.compile_expr(e)?;
                self.f.line = line;
                self.f.emit(Opcode::InitDynamicCall, &Node::Unused, &n, &Node::Unused);
            }
        }
        Ok(self.f.emit_tmp(Opcode::CallableConvert, &Node::Unused, &Node::Unused))
    }

    /// Fixes the class operand of a delayed static-property fetch once emitted.
    pub(super) fn fix_delayed_static(&mut self, i: u32) {
        let o = self.f.at(i);
        if o.extended_value & 0x8000_0000 != 0 {
            o.op2 = o.extended_value & 0x7fff_ffff;
            o.extended_value = 0;
        }
    }

    /// Whether `e` is a call in Zend's sense (`zend_is_call`).
    pub fn is_call(e: &Expr<'_>) -> bool {
        matches!(e.kind, ExprKind::Call { .. } | ExprKind::MethodCall { .. } | ExprKind::StaticCall { .. })
    }

    /// The TMP/VAR type of a chain result, for patching JMP_NULL.
    pub fn node_is_tmpvar(n: &Node) -> bool {
        matches!(n.kind(), IS_TMP_VAR | IS_VAR)
    }
}
