//! Lexer + parser: every input gives an AST or a `ParseError`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let arena = bumpalo::Bump::new();
    let _ = tusk::compiler::parse(&arena, data, "fuzz.php");
});
