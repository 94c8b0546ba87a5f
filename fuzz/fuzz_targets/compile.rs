//! Parse + codegen: every input gives a `Program` or a `CompileError`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = tusk::compiler::compile(data, "fuzz.php");
});
