//! The compiler: lexer, parser, AST, and the code generator (AST → op arrays).
//!
//! Source bytes → `lexer::lex` → tokens → `parser` → `ast::Program`, allocated
//! in a `bumpalo::Bump` arena → `codegen` → `Program` (op arrays, live ranges).
//! The front end (lexer, parser, AST) depends on nothing later.

pub mod ast;
pub mod codegen;
pub mod lexer;
pub mod live_range;
pub mod parser;
pub mod program;
pub mod stack;
pub mod token;

pub use program::*;

use bumpalo::Bump;

/// How PHP reports the error.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ErrorKind {
    /// `PHP Parse error:  ...`
    Parse,
    /// `PHP Fatal error:  ...` raised at compile time (e.g. `Cannot re-assign $this`).
    Fatal,
}

/// A parse or compile-time error. `message` is PHP's text after
/// `Parse error:  ` / `Fatal error:  `, without the " in FILE on line N" suffix.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    pub message: String,
    pub line: u32,
    pub kind: ErrorKind,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefix = match self.kind {
            ErrorKind::Parse => "Parse error",
            ErrorKind::Fatal => "Fatal error",
        };
        write!(f, "{}: {} on line {}", prefix, self.message, self.line)
    }
}

impl std::error::Error for ParseError {}

/// A warning or deprecation raised while compiling (PHP prints these and goes on).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DiagnosticKind {
    /// `Warning:  ...`
    Warning,
    /// `Deprecated:  ...`
    Deprecated,
}

/// A compile-time warning or deprecation: PHP's text, without the label and
/// the " in FILE on line N" suffix.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub kind: DiagnosticKind,
    pub message: String,
    pub line: u32,
}

impl DiagnosticKind {
    /// The label PHP prints (`Warning`, `Deprecated`).
    pub fn label(self) -> &'static str {
        match self {
            DiagnosticKind::Warning => "Warning",
            DiagnosticKind::Deprecated => "Deprecated",
        }
    }
}

/// Parse a PHP file, also collecting the compile-time warnings and
/// deprecations PHP prints for it (into `diags`, in PHP's order).
pub fn parse_with_diagnostics<'a>(
    arena: &'a Bump,
    src: &'a [u8],
    filename: &str,
    diags: &mut Vec<Diagnostic>,
) -> Result<ast::Program<'a>, ParseError> {
    let _ = filename;
    parser::parse_program_with_diagnostics(arena, src, diags)
}

/// Parse a PHP file. `filename` is only used for messages.
pub fn parse<'a>(arena: &'a Bump, src: &'a [u8], filename: &str) -> Result<ast::Program<'a>, ParseError> {
    let _ = filename;
    parser::parse_program(arena, src)
}
