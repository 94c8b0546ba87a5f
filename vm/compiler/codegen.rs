//! AST → op arrays, following Zend's `zend_compile.c` closely enough that
//! a dump of the result lists the same oplines as PHP 8.2's pre-optimizer
//! dump: same opcodes in the same order, same temporaries, same jumps.
//!
//! Layout: `emit` (the op array under construction), `fold` (constant
//! folding), `expr` (expressions), and here statements, functions and the
//! program. Depends on `ast`, `ops`, `value` and the builtin registry
//! (to know which functions are internal at compile time).

pub mod class;
pub mod closure;
pub mod emit;
pub mod expr;
pub mod fold;
mod names;
mod consteval;
pub mod member;

use std::collections::HashMap;
use std::sync::Arc;

use self::emit::{FuncBuilder, Lit, LoopVar, Node, Unwind};
use super::ast::{self, *};
use super::program::{CompileError, Program};
use crate::ops::{ArgInfo, Opcode, TypeMask, IS_CV, IS_UNUSED};
use crate::runtime::function::Function;

pub type CResult<T> = Result<T, CompileError>;

/// What the compiler knows about a user function declared earlier in the
/// file (Zend's finalized entry in `CG(function_table)`).
#[derive(Clone)]
pub struct KnownFunc {
    pub num_args: u32,
    pub by_ref: Vec<bool>,
    pub variadic_by_ref: Option<bool>,
    pub num_cvs: u32,
    pub num_tmps: u32,
    /// Parameter names (the variadic one last), for named arguments.
    pub names: Vec<Vec<u8>>,
}

impl KnownFunc {
    /// The signature of a compiled function.
    pub fn of(op: &crate::ops::OpArray) -> KnownFunc {
        KnownFunc {
            num_args: op.num_args,
            by_ref: op.arg_info.iter().map(|a| a.by_ref).collect(),
            variadic_by_ref: op.arg_info.last().filter(|a| a.variadic).map(|a| a.by_ref),
            num_cvs: op.cv_names.len() as u32,
            num_tmps: op.num_tmps,
            names: op.arg_info.iter().map(|a| a.name.clone()).collect(),
        }
    }

    /// `zend_get_arg_num`: the 1-based position of the non-variadic
    /// parameter called `name`.
    pub fn arg_num(&self, name: &[u8]) -> Option<u32> {
        self.names.iter().take(self.num_args as usize).position(|n| n.as_slice() == name).map(|i| i as u32 + 1)
    }
    pub fn arg_by_ref(&self, n: u32) -> bool {
        match self.by_ref.get(n as usize - 1) {
            Some(&b) if n <= self.num_args => b,
            _ => self.variadic_by_ref.unwrap_or(false),
        }
    }
}

pub struct Compiler {
    pub filename: Arc<str>,
    /// The function being compiled (innermost last).
    pub f: FuncBuilder,
    stack: Vec<FuncBuilder>,
    /// Top-level functions declared so far, by lowercase name.
    pub known: HashMap<Vec<u8>, KnownFunc>,
    pub functions: Vec<Box<Function>>,
    /// The function whose body is being compiled (for `__FUNCTION__`).
    pub func_name: Vec<u8>,
    /// Values of the `const` statements seen so far (first one wins).
    pub top_consts: HashMap<Vec<u8>, Lit>,
    /// Compiling the value of a `const` statement.
    pub in_const_decl: bool,
    /// Top-level class declarations, in source order.
    pub classes: Vec<Box<crate::runtime::class::ClassDef>>,
    /// Lowercase names of the classes declared so far.
    pub declared_classes: Vec<Vec<u8>>,
    /// Lowercase names of the top-level classes bound at compile time
    /// (Zend's early binding; in `classes`).
    pub early_classes: Vec<Vec<u8>>,
    /// The class whose body is being compiled.
    pub class_ctx: Option<class::ClassCtx>,
    /// Zend's `CG(rtd_key_counter)`: runtime-bound class declarations so
    /// far (anonymous class names end in it).
    pub rtd_counter: u32,
    /// Compiling a constructor: its promoted parameters.
    pub promoted: Option<Vec<class::Promoted>>,
    /// The namespace being compiled (no leading or trailing `\`).
    pub ns: Vec<u8>,
    /// Its `use` imports.
    pub imports: names::Imports,
    /// `declare(ticks=N)` in force (Zend's `FC(declarables).ticks`): a TICKS
    /// opline follows every statement.
    pub ticks: u32,
    /// JMP_NULL oplines of `?->` in the member chain being compiled, patched
    /// to its end.
    pub null_jumps: Option<Vec<u32>>,
    /// Compiling a closure body: the variables it captures (bound after
    /// the parameters).
    pub pending_captures: Vec<closure::Capture>,
}

pub fn unsupported<T>(what: &str, line: u32) -> CResult<T> {
    Err(CompileError::fatal(format!("{what} is not supported yet"), line))
}

/// A write to `e` that the caller cannot compile: a writable target Tusk
/// does not compile yet (property, static property, variable variable) is
/// "not supported yet"; anything else is PHP's compile-time error.
pub fn not_writable<T>(e: &Expr<'_>) -> CResult<T> {
    match &e.kind {
        ExprKind::Prop { nullsafe: true, .. } | ExprKind::MethodCall { nullsafe: true, .. } => {
            fatal("Can't use nullsafe operator in write context", e.line)
        }
        ExprKind::Prop { .. } => unsupported("Property access", e.line),
        ExprKind::StaticProp { .. } => unsupported("Static property access", e.line),
        ExprKind::VarVar(_) => unsupported("Variable variables", e.line),
        _ => fatal("Cannot use temporary expression in write context", e.line),
    }
}

pub fn fatal<T>(msg: impl Into<String>, line: u32) -> CResult<T> {
    Err(CompileError::fatal(msg, line))
}

/// The jump table kind of a switch (`determine_switch_jumptable_type`):
/// every case an int literal, or every case a non-numeric string literal.
fn switch_table_kind<'e, 'a: 'e>(tests: impl Iterator<Item = Option<&'e Expr<'a>>>) -> Option<u8> {
    let mut kind = None;
    for t in tests.flatten() {
        let k = match &t.kind {
            ExprKind::Int(_) => crate::value::IS_LONG,
            ExprKind::String(s) if matches!(emit::normalize_key(s), emit::Key::Str(_)) && !is_numeric_str(s) => crate::value::IS_STRING,
            _ => return None,
        };
        if kind.is_some_and(|x| x != k) {
            return None;
        }
        kind = Some(k);
    }
    kind
}

fn is_numeric_str(s: &[u8]) -> bool {
    matches!(crate::value::convert::parse_numeric(s), crate::value::convert::NumericParse::Numeric(_))
}

/// The jump table key of a case label.
fn table_key(e: &Expr<'_>) -> Option<emit::Key> {
    match &e.kind {
        ExprKind::Int(n) => Some(emit::Key::Int(*n)),
        ExprKind::String(s) => Some(emit::Key::Str(s.to_vec())),
        _ => None,
    }
}

/// Compiles a parsed script.
pub fn compile_program(ast: &ast::Program<'_>, end_line: u32, filename: Arc<str>) -> CResult<Program> {
    let mut c = Compiler {
        filename: filename.clone(),
        f: FuncBuilder::new(Vec::new(), filename.clone(), true),
        stack: Vec::new(),
        known: HashMap::new(),
        functions: Vec::new(),
        func_name: Vec::new(),
        top_consts: HashMap::new(),
        in_const_decl: false,
        classes: Vec::new(),
        declared_classes: Vec::new(),
        early_classes: Vec::new(),
        class_ctx: None,
        rtd_counter: 0,
        promoted: None,
        null_jumps: None,
        ticks: 0,
        ns: Vec::new(),
        imports: names::Imports::default(),
        pending_captures: Vec::new(),
    };
    c.f.op.line_start = 1;
    for s in ast.stmts {
        c.compile_top_stmt(s)?;
    }
    c.f.line = end_line;
    c.f.op.line_end = end_line;
    c.emit_final_return(true);
    c.resolve_gotos()?;
    let main = std::mem::replace(&mut c.f, FuncBuilder::new(Vec::new(), filename.clone(), true)).finish();
    Ok(Program { main, functions: c.functions, classes: c.classes, filename, diagnostics: Vec::new() })
}

impl Compiler {
    fn compile_top_stmt(&mut self, s: &Stmt<'_>) -> CResult<()> {
        match &s.kind {
            StmtKind::Function(decl) => self.compile_func_decl(decl, true),
            StmtKind::Class(decl) => self.compile_class_decl(decl, true),
            StmtKind::Block(stmts) => {
                for s in stmts.iter() {
                    self.compile_top_stmt(s)?;
                }
                Ok(())
            }
            StmtKind::Namespace { name, body, .. } => {
                self.ns = name.map(|n| n.to_vec()).unwrap_or_default();
                self.imports = names::Imports::default();
                for s in body.iter() {
                    self.compile_top_stmt(s)?;
                }
                self.ns.clear();
                self.imports = names::Imports::default();
                Ok(())
            }
            _ => self.compile_stmt(s),
        }
    }

    pub fn compile_stmts(&mut self, stmts: &[Stmt<'_>]) -> CResult<()> {
        for s in stmts {
            self.compile_stmt(s)?;
        }
        Ok(())
    }

    pub fn compile_stmt(&mut self, s: &Stmt<'_>) -> CResult<()> {
        self.f.line = s.line;
        match &s.kind {
            StmtKind::Expr(Expr { kind: ExprKind::Throw(x), line }) => {
                self.compile_throw(x, *line, false)?;
            }
            StmtKind::Expr(e) => {
                let n = self.compile_expr(e)?;
                self.f.free(&n);
            }
            StmtKind::Echo(items) => {
                for e in items.iter() {
                    let n = self.compile_expr(e)?;
                    self.f.line = s.line;
                    self.f.emit(Opcode::Echo, &n, &Node::Unused, &Node::Unused);
                }
            }
            StmtKind::InlineHtml(text) => {
                if !text.is_empty() {
                    self.f.emit(Opcode::Echo, &Node::Const(Lit::Str(text.to_vec())), &Node::Unused, &Node::Unused);
                }
            }
            StmtKind::Block(stmts) => self.compile_stmts(stmts)?,
            StmtKind::Nop | StmtKind::HaltCompiler => {}
            StmtKind::If { cond, then, elseifs, else_ } => {
                let mut branches = Vec::with_capacity(1 + elseifs.len());
                branches.push((*cond, *then));
                branches.extend(elseifs.iter().map(|e| (e.cond, e.body)));
                self.compile_if(&branches, *else_)?
            }
            StmtKind::While { cond, body } => self.compile_while(cond, body)?,
            StmtKind::DoWhile { body, cond } => self.compile_do_while(body, cond)?,
            StmtKind::For { init, cond, step, body } => self.compile_for(init, cond, step, body)?,
            StmtKind::Foreach { subject, key, value, by_ref, body } => {
                self.compile_foreach(s.line, subject, *key, value, *by_ref, body)?
            }
            StmtKind::Switch { subject, cases } => self.compile_switch(subject, cases)?,
            StmtKind::Break(levels) => self.compile_break_continue(true, *levels, s.line)?,
            StmtKind::Continue(levels) => self.compile_break_continue(false, *levels, s.line)?,
            StmtKind::Return(e) => self.compile_return(*e, s.line)?,
            StmtKind::Function(decl) => self.compile_func_decl(decl, false)?,
            StmtKind::Static(vars) => {
                for v in vars.iter() {
                    self.compile_static_var(v.name, v.default, s.line)?;
                }
            }
            StmtKind::Unset(vars) => {
                for v in vars.iter() {
                    self.compile_unset(v)?;
                }
            }
            StmtKind::Global(vars) => {
                for v in vars.iter() {
                    self.compile_global_var(v)?;
                }
            }
            StmtKind::Declare { directives, body } => {
                let outer = self.ticks;
                self.compile_declare(directives, body.is_some(), s.line)?;
                if let Some(body) = body {
                    self.compile_stmts(body)?;
                    self.ticks = outer;
                }
            }
            StmtKind::Class(c) => {
                if c.kind == ClassKind::Trait {
                    return unsupported("Trait declaration", s.line);
                }
                self.compile_class_decl(c, false)?;
            }
            StmtKind::Const(items) => {
                for c in items.iter() {
                    self.compile_const_decl(c)?;
                }
            }
            StmtKind::Namespace { .. } => return unsupported("namespace", s.line),
            StmtKind::Use(items) => self.compile_use(items),
            StmtKind::Try { body, catches, finally } => self.compile_try(body, catches, *finally, s.line)?,
            StmtKind::Goto(label) => self.compile_goto(label, s.line)?,
            StmtKind::Label(label) => self.compile_label(label, s.line)?,
        }
        self.emit_tick(s);
        Ok(())
    }

    /// `zend_emit_tick`, after a statement under `declare(ticks)` (not after
    /// a block or a label; top-level function and class declarations do not
    /// come here; never twice in a row).
    fn emit_tick(&mut self, s: &Stmt<'_>) {
        if self.ticks == 0 || matches!(s.kind, StmtKind::Block(_) | StmtKind::Label(_)) {
            return;
        }
        let n = self.f.next_op();
        if n > 0 && self.f.at(n - 1).opcode == Opcode::Ticks as u8 {
            return;
        }
        let i = self.f.emit(Opcode::Ticks, &Node::Unused, &Node::Unused, &Node::Unused);
        self.f.at(i).extended_value = self.ticks;
    }

    /// `declare(strict_types=…)` and `declare(encoding=…)` compile to nothing.
    /// Strict typing is not enforced yet: calls coerce as in weak mode, which
    /// only differs from strict mode for programs that would raise a TypeError.
    fn compile_declare(&mut self, directives: &[(&[u8], &Expr<'_>)], block: bool, line: u32) -> CResult<()> {
        for (name, value) in directives {
            match name.to_ascii_lowercase().as_slice() {
                b"strict_types" if block => return fatal("strict_types declaration must not use block mode", line),
                b"strict_types" if matches!(value.kind, ExprKind::Int(0 | 1)) => {}
                b"strict_types" => return fatal("strict_types declaration must have 0 or 1 as its value", line),
                b"ticks" => {
                    self.ticks = match self.const_eval(value).as_ref().and_then(fold::num_of) {
                        Some(n) => n.clamp(0, u32::MAX as i64) as u32,
                        None => return fatal("declare(ticks) value must be a literal", line),
                    };
                }
                b"encoding" => {}
                _ => {
                    let n = String::from_utf8_lossy(name);
                    return fatal(format!("Unsupported declare '{n}'"), line);
                }
            }
        }
        Ok(())
    }

    fn compile_if(&mut self, branches: &[(&Expr<'_>, &[Stmt<'_>])], else_branch: Option<&[Stmt<'_>]>) -> CResult<()> {
        let mut jmps = Vec::new();
        let n = branches.len() + else_branch.is_some() as usize;
        for (i, (cond, body)) in branches.iter().enumerate() {
            let c = self.compile_expr(cond)?;
            let jz = self.f.emit_cond_jump(Opcode::Jmpz, &c);
            self.compile_stmts(body)?;
            if i != n - 1 {
                self.f.line = cond.line;
                jmps.push(self.f.emit_jump());
            }
            self.f.patch_here(jz);
        }
        if let Some(e) = else_branch {
            self.compile_stmts(e)?;
        }
        for j in jmps {
            self.f.patch_here(j);
        }
        Ok(())
    }

    fn begin_loop(&mut self, free: Option<(Opcode, Node)>, is_switch: bool) {
        self.f.loop_seq += 1;
        let id = self.f.loop_seq;
        self.f.loop_path.push(id);
        if free.is_some() {
            self.f.loop_frees.push(id);
        }
        self.f.unwind.push(Unwind::Loop(free.clone()));
        self.f.loops.push(LoopVar { free, breaks: Vec::new(), conts: Vec::new(), is_switch });
    }

    /// Resolves the loop's pending break/continue jumps.
    fn end_loop(&mut self, cont: u32) {
        let l = self.f.loops.pop().expect("loop stack");
        self.f.loop_path.pop();
        self.f.unwind.pop();
        let brk = self.f.next_op();
        for j in l.breaks {
            self.f.patch_to(j, brk);
        }
        for j in l.conts {
            self.f.patch_to(j, cont);
        }
    }

    fn compile_while(&mut self, cond: &Expr<'_>, body: &[Stmt<'_>]) -> CResult<()> {
        let jmp = self.f.emit_jump();
        self.begin_loop(None, false);
        let start = self.f.next_op();
        self.compile_stmts(body)?;
        let opnum_cond = self.f.next_op();
        self.f.patch_to(jmp, opnum_cond);
        let c = self.compile_expr(cond)?;
        let j = self.f.emit_cond_jump(Opcode::Jmpnz, &c);
        self.f.patch_to(j, start);
        self.end_loop(opnum_cond);
        Ok(())
    }

    fn compile_do_while(&mut self, body: &[Stmt<'_>], cond: &Expr<'_>) -> CResult<()> {
        self.begin_loop(None, false);
        let start = self.f.next_op();
        self.compile_stmts(body)?;
        let opnum_cond = self.f.next_op();
        let c = self.compile_expr(cond)?;
        let j = self.f.emit_cond_jump(Opcode::Jmpnz, &c);
        self.f.patch_to(j, start);
        self.end_loop(opnum_cond);
        Ok(())
    }

    /// `zend_compile_expr_list`: every value but the last is freed.
    fn compile_expr_list(&mut self, list: &[&Expr<'_>]) -> CResult<Node> {
        let mut r = Node::Const(Lit::Bool(true));
        for e in list {
            self.f.free(&r);
            r = self.compile_expr(e)?;
        }
        Ok(r)
    }

    fn compile_for(&mut self, init: &[&Expr<'_>], cond: &[&Expr<'_>], step: &[&Expr<'_>], body: &[Stmt<'_>]) -> CResult<()> {
        let r = self.compile_expr_list(init)?;
        self.f.free(&r);
        let jmp = self.f.emit_jump();
        self.begin_loop(None, false);
        let start = self.f.next_op();
        self.compile_stmts(body)?;
        let opnum_loop = self.f.next_op();
        let r = self.compile_expr_list(step)?;
        self.f.free(&r);
        self.f.patch_here(jmp);
        let c = self.compile_expr_list(cond)?;
        let j = self.f.emit_cond_jump(Opcode::Jmpnz, &c);
        self.f.patch_to(j, start);
        self.end_loop(opnum_loop);
        Ok(())
    }

    fn compile_foreach(
        &mut self,
        line: u32,
        subject: &Expr<'_>,
        key: Option<&Expr<'_>>,
        value: &Expr<'_>,
        by_ref: bool,
        body: &[Stmt<'_>],
    ) -> CResult<()> {
        if let Some(k) = key {
            if matches!(k.kind, ExprKind::Array(..) | ExprKind::List(..)) {
                return fatal("Cannot use list as key element", k.line);
            }
        }
        // A destructuring pattern with references makes the loop by-reference.
        let list = expr::list_items(value);
        let by_ref = by_ref || list.as_ref().is_some_and(|items| expr::list_has_refs(items));
        if by_ref && list.is_some() && !matches!(value.kind, ExprKind::Array(_) | ExprKind::List(_)) {
            return fatal("Cannot assign reference to non referenceable value", value.line);
        }
        let subj = if by_ref && matches!(subject.kind, ExprKind::Var(_) | ExprKind::Index { .. }) {
            self.compile_var(subject, expr::Fetch::W)?
        } else {
            let n = self.compile_expr(subject)?;
            if by_ref && matches!(subject.kind, ExprKind::Call { .. }) && matches!(n, Node::Var(_)) {
                // A by-reference result only this call holds is iterated as a value.
                self.f.emit(Opcode::Separate, &n, &Node::Unused, &n);
            }
            n
        };
        self.f.line = line;
        let reset = self.f.var();
        let (reset_code, fetch_code) = if by_ref { (Opcode::FeResetRw, Opcode::FeFetchRw) } else { (Opcode::FeResetR, Opcode::FeFetchR) };
        let opnum_reset = self.f.emit(reset_code, &subj, &Node::Unused, &reset);
        self.begin_loop(Some((Opcode::FeFree, reset.clone())), false);
        let opnum_fetch = self.f.emit(fetch_code, &reset, &Node::Unused, &Node::Unused);
        if let ExprKind::Var(name) = &value.kind {
            if *name == b"this" {
                return fatal("Cannot re-assign $this", value.line);
            }
            let cv = self.f.cv(name);
            let o = self.f.at(opnum_fetch);
            o.op2_type = IS_CV;
            o.op2 = cv;
        } else {
            let v = self.f.var();
            let Node::Var(t) = v else { unreachable!() };
            let o = self.f.at(opnum_fetch);
            o.op2_type = crate::ops::IS_VAR;
            o.op2 = t;
            if let Some(items) = list {
                self.compile_list_assign(None, &items, v, value.line)?;
            } else if by_ref {
                let r = self.compile_assign_ref(value, expr::Src::Node(v))?;
                self.f.free(&r);
            } else {
                self.emit_assign_znode(value, v)?;
            }
        }
        if let Some(k) = key {
            let kn = self.f.tmp();
            self.f.set_result(opnum_fetch, &kn);
            self.emit_assign_znode(k, kn)?;
        }
        self.compile_stmts(body)?;
        self.f.line = line;
        let j = self.f.emit_jump();
        self.f.patch_to(j, opnum_fetch);
        self.f.patch_here(opnum_reset);
        self.f.patch_here(opnum_fetch);
        self.end_loop(opnum_fetch);
        self.f.emit(Opcode::FeFree, &reset, &Node::Unused, &Node::Unused);
        Ok(())
    }

    /// `zend_compile_switch`: a jump table (SWITCH_LONG/SWITCH_STRING) when
    /// every case is an int (5 cases or more) or a non-numeric string (2 or
    /// more), in front of the IS_EQUAL/CASE chain it falls back to.
    fn compile_switch(&mut self, subject: &Expr<'_>, cases: &[Case<'_>]) -> CResult<()> {
        let subj = self.compile_expr(subject)?;
        let free = if subj.is_tmpvar() { Some((Opcode::Free, subj.clone())) } else { None };
        self.begin_loop(free, true);
        let case_node = self.f.tmp();
        let table_kind = switch_table_kind(cases.iter().map(|c| c.test));
        let use_table = match table_kind {
            Some(crate::value::IS_LONG) => cases.len() >= 5,
            Some(_) => cases.len() >= 2,
            None => false,
        };
        let mut switch_op = None;
        if use_table {
            let code = if table_kind == Some(crate::value::IS_LONG) { Opcode::SwitchLong } else { Opcode::SwitchString };
            // The table literal is filled in once the targets are known.
            let at = self.f.emit(code, &subj, &Node::Const(Lit::Array(Vec::new())), &Node::Unused);
            switch_op = Some(at);
        }
        let mut jumps = vec![None; cases.len()];
        let mut has_default = false;
        for (i, case) in cases.iter().enumerate() {
            let Some(cond) = case.test else {
                if has_default {
                    return fatal("Switch statements may only contain one default clause", case.line);
                }
                has_default = true;
                continue;
            };
            let c = self.compile_expr(cond)?;
            jumps[i] = Some(match &subj {
                Node::Const(Lit::Bool(false)) => self.f.emit_cond_jump(Opcode::Jmpz, &c),
                Node::Const(Lit::Bool(true)) => self.f.emit_cond_jump(Opcode::Jmpnz, &c),
                _ => {
                    let code = if subj.is_tmpvar() { Opcode::Case } else { Opcode::IsEqual };
                    self.f.emit(code, &subj, &c, &case_node);
                    self.f.emit_cond_jump(Opcode::Jmpnz, &case_node)
                }
            });
        }
        let default_jmp = self.f.emit_jump();
        let mut table: Vec<(emit::Key, Lit)> = Vec::new();
        let mut default_target = None;
        for (i, case) in cases.iter().enumerate() {
            let here = self.f.next_op();
            match jumps[i] {
                Some(j) => {
                    self.f.patch_here(j);
                    if let Some(k) = case.test.and_then(table_key) {
                        if !table.iter().any(|(x, _)| *x == k) {
                            table.push((k, Lit::Long(here as i64)));
                        }
                    }
                }
                None => {
                    self.f.patch_here(default_jmp);
                    default_target = Some(here);
                }
            }
            self.compile_stmts(case.body)?;
        }
        if !has_default {
            self.f.patch_here(default_jmp);
            default_target = Some(self.f.next_op());
        }
        if let Some(at) = switch_op {
            self.set_jump_table(at, table, default_target.unwrap_or(0));
        }
        let end = self.f.next_op();
        self.end_loop(end);
        if subj.is_tmpvar() {
            let i = self.f.emit(Opcode::Free, &subj, &Node::Unused, &Node::Unused);
            self.f.at(i).extended_value = 2; // ZEND_FREE_SWITCH
        }
        Ok(())
    }

    /// Stores a jump table (key → opline number) and default in SWITCH_*/MATCH.
    pub fn set_jump_table(&mut self, at: u32, table: Vec<(emit::Key, Lit)>, default: u32) {
        let lit = self.f.literal(&Lit::Array(table));
        let o = self.f.at(at);
        o.op2 = lit;
        o.extended_value = default;
    }

    /// `zend_compile_match`.
    pub fn compile_match(&mut self, subject: &Expr<'_>, arms: &[MatchArm<'_>], line: u32) -> CResult<Node> {
        let subj = self.compile_expr(subject)?;
        let case_node = self.f.tmp();
        let conds: Vec<&Expr<'_>> = arms.iter().filter_map(|a| a.conds).flat_map(|c| c.iter().copied()).collect();
        let use_table = conds.len() >= 2 && conds.iter().all(|c| matches!(c.kind, ExprKind::Int(_) | ExprKind::String(_)));
        let mut has_default = false;
        for a in arms {
            if a.conds.is_none() {
                if has_default {
                    return fatal("Match expressions may only contain one default arm", a.line);
                }
                has_default = true;
            }
        }
        let mut match_op = None;
        let mut jmpnz = Vec::new();
        if use_table {
            match_op = Some(self.f.emit(Opcode::Match, &subj, &Node::Const(Lit::Array(Vec::new())), &Node::Unused));
        } else {
            for c in &conds {
                let cn = self.compile_expr(c)?;
                let code = if subj.is_tmpvar() { Opcode::CaseStrict } else { Opcode::IsIdentical };
                self.f.emit(code, &subj, &cn, &case_node);
                jmpnz.push(self.f.emit_cond_jump(Opcode::Jmpnz, &case_node));
            }
        }
        let default_jmp = if use_table { None } else { Some(self.f.emit_jump()) };
        let mut default_target = 0;
        if !has_default {
            if let Some(j) = default_jmp {
                self.f.patch_here(j);
            }
            default_target = self.f.next_op();
            self.f.line = line;
            self.f.emit(Opcode::MatchError, &subj, &Node::Unused, &Node::Unused);
        }
        let mut table: Vec<(emit::Key, Lit)> = Vec::new();
        let mut result = Node::Const(Lit::Null);
        let mut ends = Vec::new();
        let mut ci = 0;
        for (i, arm) in arms.iter().enumerate() {
            let here = self.f.next_op();
            match arm.conds {
                Some(cs) => {
                    for c in cs.iter() {
                        if !use_table {
                            self.f.patch_here(jmpnz[ci]);
                        } else {
                            let k = match &c.kind {
                                ExprKind::Int(n) => emit::Key::Int(*n),
                                ExprKind::String(s) => emit::Key::Str(s.to_vec()),
                                _ => unreachable!("checked above"),
                            };
                            if !table.iter().any(|(x, _)| *x == k) {
                                table.push((k, Lit::Long(here as i64)));
                            }
                        }
                        ci += 1;
                    }
                }
                None => {
                    if let Some(j) = default_jmp {
                        self.f.patch_here(j);
                    }
                    default_target = here;
                }
            }
            let b = self.compile_expr(arm.body)?;
            if i == 0 {
                result = self.f.emit_tmp(Opcode::QmAssign, &b, &Node::Unused);
            } else {
                self.f.emit(Opcode::QmAssign, &b, &Node::Unused, &result);
            }
            ends.push(self.f.emit_jump());
        }
        for j in ends {
            self.f.patch_here(j);
        }
        if let Some(at) = match_op {
            self.set_jump_table(at, table, default_target);
        }
        if subj.is_tmpvar() {
            let i = self.f.emit(Opcode::Free, &subj, &Node::Unused, &Node::Unused);
            self.f.at(i).extended_value = 2; // ZEND_FREE_SWITCH
        }
        Ok(result)
    }

    /// Zend's `zend_handle_loops_and_finally_ex`: what leaving the `depth -
    /// 1` innermost loops (`usize::MAX`: everything, for return and goto)
    /// must do first, innermost first: free each loop's temporary
    /// (FREE_ON_RETURN), run each finally block left (FAST_CALL; `ret` is
    /// the return value it must free if the finally throws), drop the
    /// exception held by a finally block left (DISCARD_EXCEPTION).
    fn handle_loops_and_finally(&mut self, depth: usize, ret: Option<&Node>) {
        let mut depth = depth;
        for i in (0..self.f.unwind.len()).rev() {
            match self.f.unwind[i].clone() {
                Unwind::FastCall { var, try_index } => {
                    let o = self.f.emit(Opcode::FastCall, &Node::Unused, ret.unwrap_or(&Node::Unused), &var);
                    self.f.at(o).op1 = try_index;
                }
                Unwind::Discard { var } => {
                    self.f.emit(Opcode::DiscardException, &var, &Node::Unused, &Node::Unused);
                }
                Unwind::Loop(_) if depth <= 1 => return,
                Unwind::Loop(None) => depth -= 1,
                Unwind::Loop(Some((code, node))) => {
                    let o = self.f.emit(code, &node, &Node::Unused, &Node::Unused);
                    self.f.at(o).extended_value = 1; // ZEND_FREE_ON_RETURN
                    depth -= 1;
                }
            }
        }
    }

    /// `zend_has_finally`: is a `return` here inside a try or catch block
    /// that has a finally?
    fn has_finally(&self) -> bool {
        self.f.unwind.iter().any(|u| matches!(u, Unwind::FastCall { .. }))
    }

    fn compile_break_continue(&mut self, is_break: bool, levels: u32, line: u32) -> CResult<()> {
        let kw = if is_break { "break" } else { "continue" };
        if levels < 1 {
            return fatal(format!("'{kw}' operator accepts only positive integers"), line);
        }
        let depth = levels as usize;
        if self.f.loops.is_empty() {
            return fatal(format!("'{kw}' not in the 'loop' or 'switch' context"), line);
        }
        if depth > self.f.loops.len() {
            let s = if depth == 1 { "" } else { "s" };
            return fatal(format!("Cannot '{kw}' {depth} level{s}"), line);
        }
        self.handle_loops_and_finally(depth, None);
        let j = self.f.emit_jump();
        self.f.jump_outs.push(j);
        let n = self.f.loops.len();
        let target = &mut self.f.loops[n - depth];
        if is_break || target.is_switch {
            target.breaks.push(j);
        } else {
            target.conts.push(j);
        }
        Ok(())
    }

    fn compile_return(&mut self, e: Option<&Expr<'_>>, line: u32) -> CResult<()> {
        let by_ref = self.f.returns_ref;
        let is_var = e.is_some_and(|e| matches!(e.kind, ExprKind::Var(_) | ExprKind::Index { .. } | ExprKind::Prop { nullsafe: false, .. } | ExprKind::StaticProp { .. }));
        let is_call = e.is_some_and(Compiler::is_call);
        let mut n = match e {
            Some(e) if by_ref && is_var => self.compile_var(e, expr::Fetch::W)?,
            Some(e) => self.compile_expr(e)?,
            None => Node::Const(Lit::Null),
        };
        self.f.line = line;
        if self.f.has_finally && (matches!(n, Node::Cv(_)) || (by_ref && matches!(n, Node::Var(_)))) && self.has_finally() {
            // The finally block must not change the value being returned.
            n = if by_ref { self.f.emit_var(Opcode::MakeRef, &n, &Node::Unused) } else { self.f.emit_tmp(Opcode::QmAssign, &n, &Node::Unused) };
        }
        if self.f.has_return_type {
            self.emit_return_type_check(e.map(|_| &mut n), false, line)?;
        }
        let ret = if n.is_tmpvar() { Some(n.clone()) } else { None };
        self.handle_loops_and_finally(usize::MAX, ret.as_ref());
        let code = if self.f.is_generator {
            Opcode::GeneratorReturn
        } else if by_ref {
            Opcode::ReturnByRef
        } else {
            Opcode::Return
        };
        let i = self.f.emit(code, &n, &Node::Unused, &Node::Unused);
        if by_ref && e.is_some() {
            // ZEND_RETURNS_FUNCTION / ZEND_RETURNS_VALUE
            self.f.at(i).extended_value = if is_call { 1 } else if !is_var { 2 } else { 0 };
        }
        Ok(())
    }

    /// `zend_emit_return_type_check`.
    fn emit_return_type_check(&mut self, expr: Option<&mut Node>, implicit: bool, line: u32) -> CResult<()> {
        let Some(info) = self.f.op.return_type.clone() else { return Ok(()) };
        let ty = info.ty.0;
        if ty & TypeMask::NEVER != 0 && !implicit {
            return fatal("A never-returning function must not return", line);
        }
        if ty & TypeMask::VOID != 0 {
            if let Some(e) = expr {
                if *e == Node::Const(Lit::Null) {
                    return fatal(
                        "A void function must not return a value (did you mean \"return;\" instead of \"return null;\"?)",
                        line,
                    );
                }
                return fatal("A void function must not return a value", line);
            }
            return Ok(());
        }
        if expr.is_none() && !implicit {
            if ty & TypeMask::NULL != 0 {
                return fatal(
                    "A function with return type must return a value (did you mean \"return null;\" instead of \"return;\"?)",
                    line,
                );
            }
            return fatal("A function with return type must return a value", line);
        }
        if expr.is_some() && ty == TypeMask::MIXED {
            return Ok(());
        }
        if let Some(Node::Const(l)) = expr.as_deref() {
            if info.ty.allows(l.kind()) {
                return Ok(());
            }
        }
        match expr {
            Some(e) => {
                let i = self.f.emit(Opcode::VerifyReturnType, e, &Node::Unused, &Node::Unused);
                self.f.at(i).extended_value = ty;
                if matches!(e, Node::Const(_)) {
                    let t = self.f.tmp();
                    self.f.set_result(i, &t);
                    *e = t;
                }
            }
            None => {
                let i = self.f.emit(Opcode::VerifyReturnType, &Node::Unused, &Node::Unused, &Node::Unused);
                self.f.at(i).extended_value = ty;
            }
        }
        Ok(())
    }

    /// `zend_emit_final_return`: `return 1` for the main script, `return null` elsewhere.
    fn emit_final_return(&mut self, main: bool) {
        if self.f.has_return_type {
            if self.f.op.return_type.as_ref().is_some_and(|r| r.ty.0 & TypeMask::NEVER != 0) {
                self.f.emit(Opcode::VerifyNeverType, &Node::Unused, &Node::Unused, &Node::Unused);
                return;
            }
            let _ = self.emit_return_type_check(None, true, self.f.line);
        }
        let v = if main { Lit::Long(1) } else { Lit::Null };
        if self.f.is_generator {
            self.f.emit(Opcode::GeneratorReturn, &Node::Const(v), &Node::Unused, &Node::Unused);
            return;
        }
        if self.f.returns_ref {
            let i = self.f.emit(Opcode::ReturnByRef, &Node::Const(v), &Node::Unused, &Node::Unused);
            self.f.at(i).extended_value = 1;
            return;
        }
        let i = self.f.emit(Opcode::Return, &Node::Const(v), &Node::Unused, &Node::Unused);
        self.f.at(i).extended_value = u32::MAX;
    }

    fn compile_static_var(&mut self, name: &[u8], init: Option<&Expr<'_>>, line: u32) -> CResult<()> {
        if name == b"this" {
            return fatal("Cannot use $this as static variable", line);
        }
        let value = match init {
            None => Lit::Null,
            Some(e) => match self.const_expr(e)? {
                Some(l) => l,
                None => return fatal("Constant expression contains invalid operations", e.line),
            },
        };
        let statics = &mut self.f.op.static_vars;
        let idx = match statics.iter().position(|(n, _)| n == name) {
            Some(i) => {
                // SAFETY: the replaced initial value was built by this compiler and is owned here.
                unsafe { crate::value::free_literal(statics[i].1) };
                statics[i].1 = value.to_zval();
                i
            }
            None => {
                statics.push((name.to_vec(), value.to_zval()));
                statics.len() - 1
            }
        };
        let cv = self.f.cv(name);
        let i = self.f.emit(Opcode::BindStatic, &Node::Cv(cv), &Node::Unused, &Node::Unused);
        self.f.at(i).extended_value = idx as u32 | crate::exec::slow::closure::BIND_REF;
        Ok(())
    }

    /// Evaluates a constant expression (static initializers, parameter
    /// defaults) by compiling it and requiring a constant result.
    pub fn const_expr(&mut self, e: &Expr<'_>) -> CResult<Option<Lit>> {
        let mark = self.f.mark();
        let n = self.compile_expr(e)?;
        if self.f.next_op() != mark.ops {
            self.f.rewind(mark);
            return Ok(None);
        }
        Ok(match n {
            Node::Const(l) => Some(l),
            _ => None,
        })
    }

    /// A declared type as a run-time mask and as PHP prints it
    /// (`zend_type_to_string`: class names first, then builtin types in a
    /// fixed order, `?T` for a single type with null).
    fn type_of(&self, t: &Type<'_>, line: u32) -> CResult<(TypeMask, String)> {
        let mut pure = 0u32;
        let mut classes: Vec<String> = Vec::new();
        let mut iterable = false;
        let resolve = |n: &Name<'_>| String::from_utf8_lossy(&self.resolve_class(n)).into_owned();
        fn walk(t: &Type<'_>, pure: &mut u32, classes: &mut Vec<String>, iterable: &mut bool, line: u32, resolve: &dyn Fn(&Name<'_>) -> String) -> CResult<()> {
            match t {
                Type::Nullable(inner) => {
                    *pure |= TypeMask::NULL;
                    walk(inner, pure, classes, iterable, line, resolve)
                }
                Type::Union(list) => list.iter().try_for_each(|t| walk(t, pure, classes, iterable, line, resolve)),
                // `A&B`: one class entry, checked as all of its parts.
                Type::Intersection(list) => {
                    let mut parts = Vec::new();
                    for t in list.iter() {
                        match t {
                            Type::Named(n) => parts.push(resolve(n)),
                            _ => return unsupported("This intersection type", line),
                        }
                    }
                    classes.push(parts.join("&"));
                    Ok(())
                }
                Type::Named(n) => {
                    let lc = n.name.to_ascii_lowercase();
                    let builtin = n.kind == NameKind::Unqualified;
                    *pure |= match lc.as_slice() {
                        b"int" if builtin => TypeMask::LONG,
                        b"float" if builtin => TypeMask::DOUBLE,
                        b"string" if builtin => TypeMask::STRING,
                        b"bool" if builtin => TypeMask::BOOL,
                        b"false" if builtin => TypeMask::FALSE,
                        b"true" if builtin => TypeMask::TRUE,
                        b"array" if builtin => TypeMask::ARRAY,
                        b"null" if builtin => TypeMask::NULL,
                        b"void" if builtin => TypeMask::VOID,
                        b"mixed" if builtin => TypeMask::MIXED,
                        b"object" if builtin => TypeMask::OBJECT,
                        b"iterable" if builtin => {
                            *iterable = true;
                            TypeMask::ARRAY
                        }
                        // Checked as "any object" (class types are not checked yet).
                        b"static" | b"self" | b"parent" if builtin => {
                            classes.push(String::from_utf8_lossy(n.name).into_owned());
                            0
                        }
                        // Strings, arrays and objects that are callable: checked on the slow path.
                        b"callable" if builtin => {
                            classes.push("callable".into());
                            0
                        }
                        b"never" if builtin => TypeMask::NEVER,
                        _ => {
                            classes.push(resolve(n));
                            0
                        }
                    };
                    Ok(())
                }
            }
        }
        walk(t, &mut pure, &mut classes, &mut iterable, line, &resolve)?;
        let mut text = classes.join("|");
        let mut add = |s: &str| {
            if !text.is_empty() {
                text.push('|');
            }
            text.push_str(s);
        };
        if pure == TypeMask::MIXED {
            add("mixed");
        } else {
            // PHP 8.2: `iterable` is `Traversable|array`.
            if iterable {
                add("Traversable");
            }
            if pure & TypeMask::OBJECT != 0 {
                add("object");
            }
            if pure & TypeMask::ARRAY != 0 {
                add("array");
            }
            for (bit, name) in [(TypeMask::STRING, "string"), (TypeMask::LONG, "int"), (TypeMask::DOUBLE, "float")] {
                if pure & bit != 0 {
                    add(name);
                }
            }
            if pure & TypeMask::BOOL == TypeMask::BOOL {
                add("bool");
            } else if pure & TypeMask::FALSE != 0 {
                add("false");
            } else if pure & TypeMask::TRUE != 0 {
                add("true");
            }
            if pure & TypeMask::VOID != 0 {
                add("void");
            }
            if pure & TypeMask::NEVER != 0 {
                add("never");
            }
            if pure & TypeMask::NULL != 0 {
                if !text.is_empty() && !text.contains('|') {
                    text.insert(0, '?');
                } else {
                    if !text.is_empty() {
                        text.push('|');
                    }
                    text.push_str("null");
                }
            }
        }
        let mut mask = pure;
        if !classes.is_empty() || iterable {
            mask |= TypeMask::OBJECT | TypeMask::CLASSES;
        }
        Ok((TypeMask(mask), text))
    }

    fn compile_func_decl(&mut self, decl: &ast::Function<'_>, toplevel: bool) -> CResult<()> {
        let name = self.declared_name(decl.name);
        let lc = name.to_ascii_lowercase();
        if toplevel && (self.known.contains_key(&lc) || crate::stdlib::find_builtin(&lc).is_some()) {
            return fatal(format!("Cannot redeclare {}()", String::from_utf8_lossy(&name)), decl.line);
        }
        let mut f = FuncBuilder::new(name.clone(), self.filename.clone(), false);
        f.op.line_start = decl.line;
        f.op.line_end = decl.end_line;
        f.line = decl.line;
        let outer = std::mem::replace(&mut self.f, f);
        self.stack.push(outer);
        let saved_name = std::mem::replace(&mut self.func_name, name);
        let r = self.compile_func_body(decl).and_then(|_| self.resolve_gotos());
        self.func_name = saved_name;
        let f = std::mem::replace(&mut self.f, self.stack.pop().expect("function stack"));
        r?;
        let known = KnownFunc {
            num_args: f.op.num_args,
            by_ref: f.op.arg_info.iter().map(|a| a.by_ref).collect(),
            variadic_by_ref: f.op.arg_info.last().filter(|a| a.variadic).map(|a| a.by_ref),
            num_cvs: f.op.cv_names.len() as u32,
            num_tmps: f.t,
            names: f.op.arg_info.iter().map(|a| a.name.clone()).collect(),
        };
        let func = f.finish();
        if toplevel {
            self.known.insert(lc, known);
            self.functions.push(func);
        } else {
            let idx = self.f.op.declared.len() as u32;
            self.f.op.declared.push(func);
            self.f.line = decl.line;
            self.f.emit_raw(Opcode::DeclareFunction, idx, 0);
        }
        Ok(())
    }

    fn compile_func_body(&mut self, decl: &ast::Function<'_>) -> CResult<()> {
        self.compile_func_body_ex(decl, false)
    }

    pub fn stack_push(&mut self, f: FuncBuilder) {
        self.stack.push(f);
    }
    pub fn stack_pop(&mut self) -> FuncBuilder {
        self.stack.pop().expect("function stack")
    }
    /// A parameter or return type as checked on calls: class names (and
    /// `callable`, `iterable`) are listed for the slow path, whose objects
    /// then don't pass the fast path unless `object` or `mixed` is part of it.
    fn checked_type(&self, t: &Type<'_>, line: u32) -> CResult<(TypeMask, String, Vec<Vec<u8>>)> {
        let (mut ty, text) = self.type_of(t, line)?;
        let mut classes = Vec::new();
        let mut object = false;
        let resolve = |n: &Name<'_>| self.resolve_class(n).to_ascii_lowercase();
        fn walk(t: &Type<'_>, classes: &mut Vec<Vec<u8>>, object: &mut bool, resolve: &dyn Fn(&Name<'_>) -> Vec<u8>) {
            match t {
                Type::Nullable(inner) => walk(inner, classes, object, resolve),
                Type::Union(list) => list.iter().for_each(|t| walk(t, classes, object, resolve)),
                Type::Intersection(list) => {
                    let parts: Vec<Vec<u8>> = list.iter().filter_map(|t| if let Type::Named(n) = t { Some(resolve(n)) } else { None }).collect();
                    classes.push(parts.join(&b'&'));
                }
                Type::Named(n) => {
                    let lc = n.name.to_ascii_lowercase();
                    let builtin = n.kind == NameKind::Unqualified;
                    match lc.as_slice() {
                        b"object" | b"mixed" if builtin => *object = true,
                        b"iterable" if builtin => classes.push(b"traversable".to_vec()),
                        b"int" | b"float" | b"string" | b"bool" | b"false" | b"true" | b"array" | b"null" | b"void" | b"never" if builtin => {}
                        b"self" | b"static" | b"parent" | b"callable" if builtin => classes.push(lc),
                        _ => classes.push(resolve(n)),
                    }
                }
            }
        }
        walk(t, &mut classes, &mut object, &resolve);
        if !classes.is_empty() && !object {
            ty.0 &= !TypeMask::OBJECT;
        }
        Ok((ty, text, classes))
    }

    pub fn type_of_pub(&self, t: &Type<'_>, line: u32) -> CResult<(TypeMask, String)> {
        self.type_of(t, line)
    }
    pub fn resolve_gotos_pub(&mut self) -> CResult<()> {
        self.resolve_gotos()
    }

    /// A function body; `no_body_ok`: an abstract method (no statements).
    pub fn compile_func_body_ex(&mut self, decl: &ast::Function<'_>, no_body_ok: bool) -> CResult<()> {
        self.f.returns_ref = decl.by_ref;
        let empty: &[Stmt<'_>] = &[];
        let body = match decl.body {
            Some(b) => b,
            None if no_body_ok => empty,
            None => {
                let n = String::from_utf8_lossy(decl.name);
                if let Some(c) = &self.class_ctx {
                    let c = String::from_utf8_lossy(&c.name);
                    return fatal(format!("Non-abstract method {c}::{n}() must contain body"), decl.line);
                }
                return fatal(format!("Non-abstract function {n}() must contain body"), decl.line);
            }
        };
        self.f.is_generator = decl.is_generator;
        if decl.is_generator && decl.by_ref {
            return unsupported("by-reference generators", decl.line);
        }
        if let Some(rt) = decl.return_type {
            let (ty, text, classes) = self.checked_type(rt, decl.line)?;
            if decl.is_generator {
                // zend_mark_function_as_generator: the declared type must admit a Generator.
                let ok = text.split('|').map(|t| t.trim_start_matches('?').trim_start_matches('\\').to_ascii_lowercase()).any(|t| matches!(t.as_str(), "traversable" | "iterator" | "generator" | "mixed" | "iterable"));
                if !ok {
                    return fatal(format!("Generator return type must be a supertype of Generator, {text} given"), decl.line);
                }
            }
            self.f.op.return_type = Some(ArgInfo { name: Vec::new(), ty, ty_text: text, by_ref: false, variadic: false, classes });
            self.f.has_return_type = !decl.is_generator;
        }
        let mut required = 0;
        for (i, p) in decl.params.iter().enumerate() {
            self.f.line = p.line;
            if p.name == b"this" {
                return fatal("Cannot use $this as parameter", p.line);
            }
            if self.f.op.cv_names.iter().any(|n| n.as_slice() == p.name) {
                return fatal(format!("Redefinition of parameter ${}", String::from_utf8_lossy(p.name)), p.line);
            }
            let cv = self.f.cv(p.name);
            if p.promote.0 != 0 && self.promoted.is_none() {
                return fatal("Cannot declare promoted property outside a constructor", p.line);
            }
            let (mut ty, mut ty_text, classes) = match p.ty {
                Some(t) => self.checked_type(t, p.line)?,
                None => (TypeMask(0), String::new(), Vec::new()),
            };
            if ty.0 & TypeMask::VOID != 0 {
                return fatal("void cannot be used as a parameter type", p.line);
            }
            if ty.0 & TypeMask::NEVER != 0 {
                return fatal("never cannot be used as a parameter type", p.line);
            }
            // A `null` default makes the type implicitly nullable.
            if ty.is_set() && ty.0 & TypeMask::NULL == 0 && p.default.is_some_and(|d| matches!(self.const_expr(d), Ok(Some(Lit::Null)))) {
                ty.0 |= TypeMask::NULL;
                ty_text = if ty_text.contains('|') { format!("{ty_text}|null") } else { format!("?{ty_text}") };
            }
            let mut is_ast = false;
            let (code, default) = if p.variadic {
                (Opcode::RecvVariadic, Node::Unused)
            } else if let Some(d) = p.default {
                match self.const_expr(d)? {
                    Some(l) => (Opcode::RecvInit, Node::Const(l)),
                    None => {
                        // Zend: a constant-AST literal, evaluated when used.
                        let thunk = self.compile_thunk(d, d.line)?;
                        let idx = self.f.op.default_thunks.len();
                        self.f.op.default_thunks.push(thunk);
                        is_ast = true;
                        (Opcode::RecvInit, Node::Const(Lit::Long(idx as i64)))
                    }
                }
            } else {
                required = i as u32 + 1;
                (Opcode::Recv, Node::Unused)
            };
            let o = self.f.emit(code, &Node::Unused, &default, &Node::Cv(cv));
            if is_ast {
                let lit = self.f.op.ops[o as usize].op2 as usize;
                self.f.op.literals[lit].type_info = crate::value::IS_CONSTANT_AST as u32;
            }
            let op = self.f.at(o);
            op.op1 = i as u32 + 1;
            op.extended_value = ty.0;
            self.f.op.arg_info.push(ArgInfo { name: p.name.to_vec(), ty, ty_text, by_ref: p.by_ref, variadic: p.variadic, classes });
            if !p.variadic {
                self.f.op.num_args += 1;
            }
        }
        self.f.op.required_args = required;
        if self.f.is_generator {
            self.f.line = decl.line;
            self.f.emit(Opcode::GeneratorCreate, &Node::Unused, &Node::Unused, &Node::Unused);
        }
        self.emit_capture_binds();
        self.emit_promotions(decl.params)?;
        self.compile_stmts(body)?;
        self.f.line = decl.end_line;
        self.emit_final_return(false);
        Ok(())
    }

    /// `zend_compile_global_var`: `global $x` binds the local CV to the
    /// global by reference (BIND_GLOBAL); `global $$n` fetches the global by
    /// name (FETCH_W global+lock, which keeps the name for the next opline)
    /// and binds the local variable of that name to it (FETCH_W local,
    /// ASSIGN_REF).
    fn compile_global_var(&mut self, v: &Expr<'_>) -> CResult<()> {
        let ExprKind::Var(name) = &v.kind else {
            let ExprKind::VarVar(inner) = &v.kind else { return not_writable(v) };
            let name = self.compile_expr(inner)?;
            let name = match name {
                Node::Const(l) => Node::Const(Lit::Str(fold::to_str(&l).unwrap_or_default())),
                n => n,
            };
            self.f.line = v.line;
            let global = self.f.var();
            let i = self.f.emit(Opcode::FetchW, &name, &Node::Unused, &global);
            self.f.at(i).extended_value = expr::GLOBAL_LOCK_FETCH;
            let local = self.f.var();
            let i = self.f.emit(Opcode::FetchW, &name, &Node::Unused, &local);
            self.f.at(i).extended_value = expr::LOCAL_FETCH;
            self.f.emit(Opcode::AssignRef, &local, &global, &Node::Unused);
            return Ok(());
        };
        if *name == b"this" {
            return fatal("Cannot use $this as global variable", v.line);
        }
        let cv = self.f.cv(name);
        self.f.line = v.line;
        let slot = self.f.cache_slot();
        let i = self.f.emit(Opcode::BindGlobal, &Node::Cv(cv), &Node::Const(Lit::Str(name.to_vec())), &Node::Unused);
        self.f.at(i).extended_value = slot;
        Ok(())
    }

    /// `zend_compile_const_decl`: `const X = expr;` (a constant expression).
    fn compile_const_decl(&mut self, c: &ConstItem<'_>) -> CResult<()> {
        if !self.stack.is_empty() || !self.f.is_main {
            return fatal("const statement outside the top level", c.line);
        }
        let lc = c.name.to_ascii_lowercase();
        if matches!(lc.as_slice(), b"true" | b"false" | b"null") {
            return fatal(format!("Cannot redeclare constant '{}'", String::from_utf8_lossy(c.name)), c.line);
        }
        self.in_const_decl = true;
        let value = self.const_expr(c.value);
        self.in_const_decl = false;
        let value = match value? {
            Some(l) => l,
            None => return unsupported("this constant expression", c.line),
        };
        let name = self.declared_name(c.name);
        self.top_consts.entry(name.clone()).or_insert_with(|| value.clone());
        self.f.line = c.line;
        self.f.emit(Opcode::DeclareConst, &Node::Const(Lit::Str(name)), &Node::Const(value), &Node::Unused);
        Ok(())
    }

    /// `goto label`: a JMP resolved when the function is finished; leaving
    /// a foreach or switch frees its temporary first (Zend's
    /// `zend_resolve_goto_label`).
    fn compile_goto(&mut self, label: &[u8], line: u32) -> CResult<()> {
        self.f.line = line;
        // The frees of every enclosing loop; the resolution turns the ones
        // the jump does not leave into NOPs.
        let first = self.f.next_op();
        self.handle_loops_and_finally(usize::MAX, None);
        let j = self.f.emit_jump();
        self.f.jump_outs.push(j);
        let path = self.f.loop_path.clone();
        self.f.gotos.push(emit::PendingGoto { label: label.to_vec(), jump: j, frees_from: first, path, line });
        Ok(())
    }

    /// Points every `goto` of the function at its label and drops the loop
    /// frees of the loops the jump stays inside.
    fn resolve_gotos(&mut self) -> CResult<()> {
        for g in std::mem::take(&mut self.f.gotos) {
            let Some((_, target, lpath)) = self.f.labels.iter().find(|l| l.0 == g.label).cloned() else {
                return fatal(format!("'goto' to undefined label '{}'", String::from_utf8_lossy(&g.label)), g.line);
            };
            if lpath.len() > g.path.len() || lpath[..] != g.path[..lpath.len()] {
                return fatal("'goto' into loop or switch statement is disallowed", g.line);
            }
            let left = g.path.len() - lpath.len();
            // The frees of the innermost `left` loops and the FAST_CALLs of
            // the finally blocks left stay; the rest become NOPs.
            let mut n = self.f.loops_with_free_left(&g, left);
            for tc in &self.f.op.try_catch {
                if tc.try_op > g.jump {
                    break;
                }
                if tc.finally_op != 0 && g.jump < tc.finally_op - 1 && (target > tc.finally_end || target < tc.try_op) {
                    n += 1;
                }
            }
            let mut kept = 0;
            for i in g.frees_from..g.jump {
                if kept < n {
                    kept += 1;
                } else {
                    let line = self.f.at(i).lineno;
                    *self.f.at(i) = crate::ops::Op::new(Opcode::Nop, line);
                }
            }
            self.f.patch_to(g.jump, target);
        }
        self.check_finally_breakout()
    }

    /// `zend_check_finally_breakout`: no break, continue or goto may jump
    /// into or out of a finally block.
    fn check_finally_breakout(&mut self) -> CResult<()> {
        if !self.f.has_finally {
            return Ok(());
        }
        for &j in &self.f.jump_outs {
            let dst = self.f.op.ops[j as usize].op1;
            for tc in &self.f.op.try_catch {
                let inside = |n: u32| n >= tc.finally_op && n <= tc.finally_end;
                if !inside(j) && inside(dst) {
                    return fatal("jump into a finally block is disallowed", self.f.op.ops[j as usize].lineno);
                }
                if inside(j) && !inside(dst) {
                    return fatal("jump out of a finally block is disallowed", self.f.op.ops[j as usize].lineno);
                }
            }
        }
        Ok(())
    }

    /// `zend_compile_throw`: THROW op1 (extended_value 1 in an expression,
    /// whose value is `true`).
    pub fn compile_throw(&mut self, e: &Expr<'_>, line: u32, is_expr: bool) -> CResult<Node> {
        let n = self.compile_expr(e)?;
        self.f.line = line;
        let i = self.f.emit(Opcode::Throw, &n, &Node::Unused, &Node::Unused);
        if is_expr {
            self.f.at(i).extended_value = 1; // ZEND_THROW_IS_EXPR
        }
        Ok(Node::Const(Lit::Bool(true)))
    }

    /// `zend_compile_try`: the try body, a JMP over the catches, each catch
    /// a chain of CATCH oplines (one per class; op2: the next CATCH, last
    /// one flagged), then `FAST_CALL; JMP over; finally body; FAST_RET`.
    fn compile_try(&mut self, body: &[Stmt<'_>], catches: &[Catch<'_>], finally: Option<&[Stmt<'_>]>, line: u32) -> CResult<()> {
        if catches.is_empty() && finally.is_none() {
            return fatal("Cannot use try without catch or finally", line);
        }
        // `label: try { }` must not be the same as `try { label: }`.
        if self.f.labels.last().is_some_and(|l| l.1 == self.f.next_op()) {
            self.f.emit(Opcode::Nop, &Node::Unused, &Node::Unused, &Node::Unused);
        }
        let try_index = self.f.op.try_catch.len() as u32;
        self.f.op.try_catch.push(crate::ops::TryCatch { try_op: self.f.next_op(), ..Default::default() });
        let orig_offset = self.f.try_catch_offset;
        let fast_call = if finally.is_some() {
            self.f.has_finally = true;
            let var = self.f.tmp();
            self.f.unwind.push(Unwind::FastCall { var: var.clone(), try_index });
            Some(var)
        } else {
            None
        };
        self.f.try_catch_offset = Some(try_index);
        self.compile_stmts(body)?;
        let mut jmp_opnums = Vec::new();
        if !catches.is_empty() {
            jmp_opnums.push(self.f.emit_jump());
        }
        for (i, c) in catches.iter().enumerate() {
            let is_last_catch = i + 1 == catches.len();
            let mut jmp_multicatch = Vec::new();
            let mut opnum_catch = 0;
            self.f.line = c.line;
            for (j, class) in c.types.iter().enumerate() {
                let is_last_class = j + 1 == c.types.len();
                let lc = class.name.to_ascii_lowercase();
                if class.kind == NameKind::Unqualified && matches!(lc.as_slice(), b"self" | b"parent" | b"static") {
                    return fatal("Bad class name in the catch statement", c.line);
                }
                let resolved = self.resolve_class(class);
                opnum_catch = self.f.next_op();
                if i == 0 && j == 0 {
                    self.f.op.try_catch[try_index as usize].catch_op = opnum_catch;
                }
                let result = match c.var {
                    Some(b"this") => return fatal("Cannot re-assign $this", c.line),
                    Some(v) => Node::Cv(self.f.cv(v)),
                    None => Node::Unused,
                };
                // The class name, then its lowercase form (zend_add_class_name_literal).
                let lc = resolved.to_ascii_lowercase();
                let at = self.f.emit(Opcode::Catch, &Node::Const(Lit::Str(resolved)), &Node::Unused, &result);
                self.f.literal(&Lit::Str(lc));
                let slot = self.f.cache_slot();
                let last = (is_last_catch && is_last_class) as u32 * crate::exec::slow::exception::LAST_CATCH;
                self.f.at(at).extended_value = slot << 1 | last;
                if !is_last_class {
                    jmp_multicatch.push(self.f.emit_jump());
                    let next = self.f.next_op();
                    self.f.at(opnum_catch).op2 = next;
                }
            }
            for j in jmp_multicatch {
                self.f.patch_here(j);
            }
            self.compile_stmts(c.body)?;
            if !is_last_catch {
                jmp_opnums.push(self.f.emit_jump());
                let next = self.f.next_op();
                self.f.at(opnum_catch).op2 = next;
            }
        }
        for j in jmp_opnums {
            self.f.patch_here(j);
        }
        if let (Some(fin), Some(var)) = (finally, fast_call) {
            let opnum_jmp = self.f.next_op() + 1;
            self.f.unwind.pop();
            self.f.unwind.push(Unwind::Discard { var: var.clone() });
            self.f.line = fin.first().map_or(line, |s| s.line);
            let fc = self.f.emit(Opcode::FastCall, &Node::Unused, &Node::Unused, &var);
            self.f.at(fc).op1 = try_index;
            self.f.emit_jump();
            self.compile_stmts(fin)?;
            let end = self.f.next_op();
            let tc = &mut self.f.op.try_catch[try_index as usize];
            tc.finally_op = opnum_jmp + 1;
            tc.finally_end = end;
            let r = self.f.emit(Opcode::FastRet, &var, &Node::Unused, &Node::Unused);
            self.f.at(r).op2 = orig_offset.unwrap_or(u32::MAX);
            self.f.patch_here(opnum_jmp);
            self.f.unwind.pop();
        }
        self.f.try_catch_offset = orig_offset;
        Ok(())
    }

    fn compile_label(&mut self, label: &[u8], line: u32) -> CResult<()> {
        if self.f.labels.iter().any(|l| l.0 == label) {
            return fatal(format!("Label '{}' already defined", String::from_utf8_lossy(label)), line);
        }
        let here = self.f.next_op();
        let path = self.f.loop_path.clone();
        self.f.labels.push((label.to_vec(), here, path));
        Ok(())
    }

    fn compile_unset(&mut self, v: &Expr<'_>) -> CResult<()> {
        self.f.line = v.line;
        match &v.kind {
            ExprKind::Var(name) => {
                if *name == b"this" {
                    return fatal("Cannot unset $this", v.line);
                }
                let cv = self.f.cv(name);
                self.f.emit(Opcode::UnsetCv, &Node::Cv(cv), &Node::Unused, &Node::Unused);
                Ok(())
            }
            _ if expr::is_named_var(v) => {
                let mut d = Vec::new();
                self.delayed_compile_named(v, expr::Fetch::Unset, &mut d, false)?;
                let i = self.emit_delayed(d);
                let o = self.f.at(i);
                o.opcode = Opcode::UnsetVar as u8;
                o.result_type = IS_UNUSED;
                Ok(())
            }
            ExprKind::Index { .. } => {
                let i = self.compile_dim(v, expr::Fetch::Unset)?;
                self.f.at(i).opcode = Opcode::UnsetDim as u8;
                let o = self.f.at(i);
                o.result_type = IS_UNUSED;
                Ok(())
            }
            ExprKind::Prop { nullsafe: true, .. } => fatal("Can't use nullsafe operator in write context", v.line),
            ExprKind::Prop { .. } => {
                self.compile_var(v, expr::Fetch::Unset)?;
                let i = self.f.next_op() - 1;
                let o = self.f.at(i);
                o.opcode = Opcode::UnsetObj as u8;
                o.result_type = IS_UNUSED;
                Ok(())
            }
            ExprKind::StaticProp { .. } => fatal("Attempt to unset static property", v.line),
            _ => not_writable(v),
        }
    }
}

#[cfg(test)]
mod tests {
    /// The scripts of the reference and control-flow constructs run to their
    /// recorded output and leave no heap box behind (the value layer counts
    /// live boxes in test builds).
    #[test]
    fn language_construct_scripts_free_everything() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/php");
        // TUSK_LEAK_SCRIPTS=a,b runs those scripts of tests/php instead
        // (one at a time, to find the one that leaks).
        let chosen = std::env::var("TUSK_LEAK_SCRIPTS").ok();
        let all = ["references", "foreach_by_ref", "match_switch", "goto_const_declare", "indirect_write_order", "arg_unpack", "unwind_refs", "reference_edges", "globals_array", "variable_variables", "return_by_ref_typed", "foreach_by_ref_modify", "all_handlers", "exceptions_internal", "exceptions_finally", "exceptions_frames", "exceptions_uncaught_chain", "exceptions_edges", "exceptions_live_ranges", "exceptions_random_7", "exceptions_random_333", "generators_protocol", "generators_unwind"];
        let names: Vec<&str> = match &chosen {
            Some(list) => list.split(',').collect(),
            None => all.to_vec(),
        };
        for name in names {
            let path = root.join(format!("{name}.php"));
            let src = std::fs::read(&path).expect("script");
            let want = std::fs::read_to_string(path.with_extension("out")).unwrap_or_default();
            let before = crate::value::live::count();
            let engine = crate::api::Engine::new();
            let prog = engine.compile(&src, &format!("{name}.php")).expect("compiles");
            let mut ctx = engine.context();
            ctx.capture_output();
            let _ = ctx.run(&prog);
            let out = String::from_utf8_lossy(&ctx.take_output()).into_owned();
            // Uncaught errors end the run with a Fatal outcome instead of output.
            let cut = want.find("PHP Fatal error").or_else(|| want.find("\nFatal error")).unwrap_or(want.len());
            assert!(out.starts_with(&want[..cut].replace("%FILE%", &format!("{name}.php"))), "{name}: {out}");
            drop(ctx);
            drop(prog);
            drop(engine);
            assert_eq!(crate::value::live::count(), before, "{name}: heap boxes leaked");
        }
    }
}
