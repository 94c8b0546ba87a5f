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
    pub filename: Arc<str>,
}

/// Compiles PHP source (starting with its `<?php` tag or inline HTML).
pub fn compile(src: &[u8], filename: &str) -> Result<Program, CompileError> {
    let arena = bumpalo::Bump::new();
    let ast = super::parse(&arena, src, filename).map_err(|e| CompileError { kind: e.kind, message: e.message, line: e.line })?;
    // The lexer's line at the end of the input: where the main script's final RETURN is.
    let end = ast.halt_offset.map_or(src.len(), |o| (o as usize).min(src.len()));
    let end_line = 1 + src[..end].iter().filter(|&&b| b == b'\n').count() as u32;
    let filename: Arc<str> = Arc::from(filename);
    super::codegen::compile_program(&ast, end_line, filename)
}
