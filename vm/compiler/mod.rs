//! The compiler front end: lexer, parser, AST.
//!
//! Source bytes → `lexer::lex` → tokens → `parser` → `ast::Program`, allocated
//! in a `bumpalo::Bump` arena. Nothing here depends on later stages
//! (op arrays, execution).

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod token;

use bumpalo::Bump;

pub use ast::Program;

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

/// Parse a PHP file. `filename` is only used for messages.
pub fn parse<'a>(arena: &'a Bump, src: &'a [u8], filename: &str) -> Result<Program<'a>, ParseError> {
    let _ = filename;
    parser::parse_program(arena, src)
}
