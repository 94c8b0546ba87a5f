//! Release-build properties: threaded dispatch never grows the Rust stack,
//! PHP recursion doesn't use it, and limits end scripts cleanly.

use std::collections::BTreeSet;

use tusk::api::Engine;
use tusk::ops::Opcode;

/// Opcodes a straight run of the handler scripts can't reach.
const UNREACHED: &[Opcode] = &[Opcode::Nop, Opcode::HandleException, Opcode::OpData, Opcode::Exit, Opcode::DeclareFunction];

/// The scripts that together reach every handler: all_handlers.php, and
/// namespaces.php for what only code in a namespace compiles to.
const HANDLER_SCRIPTS: &[&str] = &["all_handlers", "namespaces"];

#[test]
fn every_handler_threads_on_a_64k_stack() {
    let engine = Engine::new();
    let mut seen = BTreeSet::new();
    let mut runs = Vec::new();
    for name in HANDLER_SCRIPTS {
        let path = crate::root().join(format!("tests/php/{name}.php"));
        let src = std::fs::read(&path).expect("script");
        let expected = std::fs::read_to_string(path.with_extension("out")).expect("recorded output");
        let prog = engine.compile(&src, &format!("{name}.php")).expect("compiles");
        prog.for_each_op(|op| {
            seen.insert(op.opcode);
        });
        runs.push((prog, expected));
    }

    // Together they must reach every opcode that has a handler.
    let missing: Vec<&str> = Opcode::ALL
        .iter()
        .filter(|o| o.meta().has_handler && !UNREACHED.contains(o) && !seen.contains(&(**o as u8)))
        .map(|o| o.name())
        .collect();
    assert!(missing.is_empty(), "{HANDLER_SCRIPTS:?} do not reach {missing:?}");

    for (prog, expected) in runs {
        let engine = engine.clone();
        let out = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let mut ctx = engine.context();
                ctx.capture_output();
                ctx.run(&prog).expect("runs");
                ctx.take_output()
            })
            .expect("spawn")
            .join()
            .expect("no stack overflow");
        assert_eq!(String::from_utf8_lossy(&out), expected);
    }
    assert!(tusk::exec::dispatch::THREADED, "tests must run the threaded dispatch form");
}

#[test]
fn deep_php_recursion_uses_no_rust_stack() {
    let (out, code) = crate::run_php(&crate::root().join("tests/php/deep_recursion.php"), &[]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "50000\n");
}

#[test]
fn infinite_recursion_ends_with_memory_exhausted() {
    let (out, code) = crate::run_php(&crate::root().join("tests/php/infinite_recursion.php"), &[]);
    assert_eq!(code, Some(255));
    assert!(
        out.starts_with("\nFatal error: Allowed memory size of 134217728 bytes exhausted (tried to allocate 2097152 bytes) in %FILE% on line 3\n"),
        "{out}"
    );
}

#[test]
fn exception_chains_are_counted_against_the_memory_limit() {
    let (out, code) = crate::run_php(&crate::root().join("tests/php/exception_chain_memory.php"), &[]);
    assert_eq!(code, Some(255));
    assert!(out.starts_with("\nFatal error: Allowed memory size of 134217728 bytes exhausted"), "{out}");
}
