//! A compiled script: its main op array and the functions it declares
//! unconditionally at top level (bound before main runs, as Zend's early
//! binding does), plus `compile`, the entry point from source to program.

use std::sync::Arc;

pub use super::ErrorKind;
use crate::runtime::function::Function;

/// A parse or compile-time error: `message` is PHP's text (without the
/// `Parse error: ` / `Fatal error: ` label and without ` in FILE on line N`).
#[derive(Clone, Debug)]
pub struct CompileError {
    pub kind: ErrorKind,
    pub message: String,
    pub line: u32,
}

impl CompileError {
    pub fn fatal(message: impl Into<String>, line: u32) -> CompileError {
        CompileError { kind: ErrorKind::Fatal, message: message.into(), line }
    }
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let label = match self.kind {
            ErrorKind::Parse => "Parse error",
            ErrorKind::Fatal => "Fatal error",
        };
        write!(f, "{label}: {} on line {}", self.message, self.line)
    }
}

impl std::error::Error for CompileError {}

/// A compiled script. Immutable once built; shared across threads.
pub struct Program {
    /// The script's top-level code (`$_main` in dumps).
    pub main: Box<Function>,
    /// Unconditional top-level function declarations, in source order,
    /// declared before `main` runs.
    pub functions: Vec<Box<Function>>,
    /// Top-level class declarations, in source order, bound before `main`
    /// runs (each as soon as its parent and interfaces are).
    pub classes: Vec<Box<crate::runtime::class::ClassDef>>,
    pub filename: Arc<str>,
    /// Compile-time warnings and deprecations, in PHP's order; a run prints
    /// them before the script's first output, as PHP does when it compiles.
    pub diagnostics: Vec<super::Diagnostic>,
}

/// Stack one unit of `ast::Program::nesting` may need in a recursive pass
/// (parser or codegen); measured at 1–2 KiB in optimized builds.
const STACK_PER_LEVEL: usize = 3 * 1024;

/// Compiles PHP source (starting with its `<?php` tag or inline HTML).
///
/// Runs on the calling thread when its stack has room for the input's
/// nesting, else on a helper thread with a big stack (`stack::with_big_stack`),
/// so deep input never overflows whatever thread the embedder compiles on.
pub fn compile(src: &[u8], filename: &str) -> Result<Program, CompileError> {
    if let Some(room) = super::stack::remaining() {
        if let Some(done) = compile_within(src, filename, room) {
            return done;
        }
    }
    let exhausted = || Err(CompileError { kind: ErrorKind::Parse, message: "memory exhausted".into(), line: 1 });
    super::stack::with_big_stack(|| {
        let room = super::stack::remaining().unwrap_or(super::stack::BIG_STACK);
        compile_within(src, filename, room).unwrap_or_else(exhausted)
    })
    // No thread to be had: what fits on this one, with the parser's stack floor.
    .unwrap_or_else(|| compile_within(src, filename, super::stack::remaining().unwrap_or(0)).unwrap_or_else(exhausted))
}

/// Compiles on this thread, which has `room` bytes of stack left; `None` if
/// the input is too deep for that room (the parser stopped for want of stack,
/// or codegen would need more).
fn compile_within(src: &[u8], filename: &str, room: usize) -> Option<Result<Program, CompileError>> {
    let arena = bumpalo::Bump::new();
    let mut diagnostics = Vec::new();
    let ast = match super::parser::parse_program_guarded(&arena, src, &mut diagnostics) {
        Ok(ast) => ast,
        Err((_, true)) => return None,
        Err((e, false)) => return Some(Err(CompileError { kind: e.kind, message: e.message, line: e.line })),
    };
    if (ast.nesting as usize + 64).saturating_mul(STACK_PER_LEVEL) > room {
        return None;
    }
    // The lexer's line at the end of the input: where the main script's final RETURN is.
    let end = ast.halt_offset.map_or(src.len(), |o| (o as usize).min(src.len()));
    let end_line = 1 + src[..end].iter().filter(|&&b| b == b'\n').count() as u32;
    let filename: Arc<str> = Arc::from(filename);
    Some(super::codegen::compile_program(&ast, end_line, filename).map(|mut p| {
        p.diagnostics = diagnostics;
        p
    }))
}
