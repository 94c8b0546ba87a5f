//! Closures and arrow functions (`zend_compile_func_decl` for lambdas):
//! the body is a nested function; the parent makes the Closure object with
//! DECLARE_LAMBDA_FUNCTION and binds each `use` variable with BIND_LEXICAL;
//! the body starts with a BIND_STATIC per captured variable. An arrow
//! function captures, by value and silently, every variable its body uses
//! (Zend's `find_implicit_binds`).

use super::emit::{FuncBuilder, Lit, Node};
use super::{fatal, CResult, Compiler};
use crate::compiler::ast;
use crate::exec::slow::closure::{BIND_IMPLICIT, BIND_REF};
use crate::ops::Opcode;

/// A captured variable: name, by reference, implicit (arrow function).
#[derive(Clone)]
pub struct Capture {
    pub name: Vec<u8>,
    pub by_ref: bool,
    pub implicit: bool,
}

const SUPERGLOBALS: &[&[u8]] = &[b"GLOBALS", b"_GET", b"_POST", b"_COOKIE", b"_SERVER", b"_ENV", b"_REQUEST", b"_FILES", b"_SESSION"];

impl Compiler {
    pub fn compile_closure(&mut self, decl: &ast::Function<'_>, arrow: bool, line: u32) -> CResult<Node> {
        let captures = if arrow { self.implicit_binds(decl)? } else { self.explicit_uses(decl)? };
        let func = self.closure_body(decl, &captures)?;
        let idx = self.f.op.declared.len() as u32;
        self.f.op.declared.push(func);
        self.f.line = line;
        let r = self.f.tmp();
        let i = self.f.emit(Opcode::DeclareLambdaFunction, &Node::Unused, &Node::Unused, &r);
        self.f.at(i).op1 = idx;
        self.f.at(i).extended_value = decl.is_static as u32;
        for (n, c) in captures.iter().enumerate() {
            let cv = self.f.cv(&c.name);
            let o = self.f.emit(Opcode::BindLexical, &r, &Node::Cv(cv), &Node::Unused);
            let mut ext = n as u32;
            if c.by_ref {
                ext |= BIND_REF;
            }
            if c.implicit {
                ext |= BIND_IMPLICIT;
            }
            self.f.at(o).extended_value = ext;
        }
        Ok(r)
    }

    fn explicit_uses(&mut self, decl: &ast::Function<'_>) -> CResult<Vec<Capture>> {
        let mut out: Vec<Capture> = Vec::new();
        for u in decl.uses.iter() {
            let n = String::from_utf8_lossy(u.name);
            if u.name == b"this" {
                return fatal("Cannot use $this as lexical variable", decl.line);
            }
            if SUPERGLOBALS.contains(&u.name) {
                return fatal(format!("Cannot use auto-global as lexical variable"), decl.line);
            }
            if out.iter().any(|c| c.name == u.name) {
                return fatal(format!("Cannot use variable ${n} twice"), decl.line);
            }
            if decl.params.iter().any(|p| p.name == u.name) {
                return fatal(format!("Cannot use lexical variable ${n} as a parameter name"), decl.line);
            }
            out.push(Capture { name: u.name.to_vec(), by_ref: u.by_ref, implicit: false });
        }
        Ok(out)
    }

    /// The variables an arrow function's body uses (its parameters and
    /// `$this` aside), in order of first use: found by compiling the body
    /// once on the side.
    fn implicit_binds(&mut self, decl: &ast::Function<'_>) -> CResult<Vec<Capture>> {
        let scratch = self.closure_function(decl, &[])?;
        let params: Vec<&[u8]> = decl.params.iter().map(|p| p.name).collect();
        Ok(scratch
            .op
            .cv_names
            .iter()
            .filter(|n| n.as_slice() != b"this" && !params.contains(&n.as_slice()) && !SUPERGLOBALS.contains(&n.as_slice()))
            .map(|n| Capture { name: n.clone(), by_ref: false, implicit: true })
            .collect())
    }

    fn closure_body(&mut self, decl: &ast::Function<'_>, captures: &[Capture]) -> CResult<Box<crate::runtime::function::Function>> {
        self.closure_function(decl, captures)
    }

    fn closure_function(&mut self, decl: &ast::Function<'_>, captures: &[Capture]) -> CResult<Box<crate::runtime::function::Function>> {
        let name = self.declared_name(b"{closure}");
        let mut f = FuncBuilder::new(name.clone(), self.filename.clone(), false);
        f.op.line_start = decl.line;
        f.op.line_end = decl.end_line;
        if let Some(c) = &self.class_ctx {
            f.op.scope_name = c.name.clone();
        }
        f.line = decl.line;
        for c in captures {
            f.op.static_vars.push((c.name.clone(), Lit::Null.to_zval()));
        }
        let outer = std::mem::replace(&mut self.f, f);
        self.stack_push(outer);
        let saved_name = std::mem::replace(&mut self.func_name, name);
        let saved_promote = self.promoted.take();
        let saved_chain = self.null_jumps.take();
        let saved_caps = std::mem::replace(&mut self.pending_captures, captures.to_vec());
        let r = self.compile_func_body_ex(decl, false).and_then(|_| self.resolve_gotos_pub());
        self.pending_captures = saved_caps;
        self.null_jumps = saved_chain;
        self.promoted = saved_promote;
        self.func_name = saved_name;
        let outer = self.stack_pop();
        let f = std::mem::replace(&mut self.f, outer);
        r?;
        Ok(f.finish())
    }

    /// BIND_STATIC for each captured variable, after the parameters.
    pub fn emit_capture_binds(&mut self) {
        let caps = std::mem::take(&mut self.pending_captures);
        for (n, c) in caps.iter().enumerate() {
            let cv = self.f.cv(&c.name);
            let i = self.f.emit(Opcode::BindStatic, &Node::Cv(cv), &Node::Unused, &Node::Unused);
            let mut ext = n as u32;
            if c.by_ref {
                ext |= BIND_REF;
            }
            if c.implicit {
                ext |= BIND_IMPLICIT;
            }
            self.f.at(i).extended_value = ext;
        }
    }
}
