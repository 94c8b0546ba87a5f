//! Syntax parity with `php -l`: every file of tests/syntax/{valid,invalid}
//! is checked with `tusk -l` and must print exactly what PHP 8.2 printed for
//! it (recorded next to it as NAME.lint by tests/syntax/record.sh, with the
//! exit status on the last line). Plus deep nesting, compiled on a small stack.

use std::path::Path;
use std::process::{Command, Stdio};

fn lint_output(dir: &Path, file: &str) -> String {
    let out = Command::new(crate::tusk())
        .arg("-l")
        .arg(file)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("tusk runs");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    let status = out.status.code().map_or("signal".to_string(), |c| c.to_string());
    text.push_str(&format!("exit {status}\n"));
    text
}

fn check_dir(sub: &str) -> usize {
    let dir = crate::root().join("tests/syntax").join(sub);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/syntax exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".php"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let want = std::fs::read_to_string(dir.join(f.replace(".php", ".lint"))).expect("NAME.lint recorded");
        let got = lint_output(&dir, f);
        if got != want {
            failures.push(format!("{sub}/{f}\n--- php -l\n{want}--- tusk -l\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} files differ:\n{}", failures.len(), files.len(), failures.join("\n"));
    files.len()
}

#[test]
fn valid_files_lint_as_php() {
    assert!(check_dir("valid") >= 19);
}

#[test]
fn invalid_files_lint_as_php() {
    assert!(check_dir("invalid") >= 150);
}

/// Compiles and runs `src` on a thread with a 64 KiB stack, as an embedder might.
fn on_small_stack(src: Vec<u8>) -> Result<Vec<u8>, tusk::api::Error> {
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let engine = tusk::api::Engine::new();
            let prog = engine.compile(&src, "deep.php")?;
            let mut ctx = engine.context();
            ctx.capture_output();
            ctx.run(&prog)?;
            Ok(ctx.take_output())
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow")
}

fn nested(open: &str, inner: &str, close: &str, n: usize) -> Vec<u8> {
    format!("<?php\necho {}{}{};\n", open.repeat(n), inner, close.repeat(n)).into_bytes()
}

#[test]
fn nine_thousand_parentheses_run_on_a_small_stack() {
    assert_eq!(on_small_stack(nested("(", "1", ")", 9_000)).unwrap(), b"1");
    // A deep tree, not just deep parsing: nested negations (`-(` costs PHP's
    // parser two stack entries: 4,990 is about its limit) and 9,000 arrays.
    assert_eq!(on_small_stack(nested("-(", "1", ")", 4_990)).unwrap(), b"1");
    let arrays = format!("<?php\n$a = {}{};\necho count($a);\n", "[".repeat(9_000), "]".repeat(9_000));
    assert_eq!(on_small_stack(arrays.into_bytes()).unwrap(), b"1");
}

#[test]
fn too_deep_nesting_is_a_parse_error_not_a_crash() {
    for src in [
        nested("(", "1", ")", 100_000),
        nested("[", "", "]", 100_000),
        nested("f(", "1", ")", 100_000),
        format!("<?php\n{}{}\n", "{".repeat(100_000), "}".repeat(100_000)).into_bytes(),
        format!("<?php\necho {}1;\n", "- ".repeat(100_000)).into_bytes(),
    ] {
        match on_small_stack(src) {
            Err(tusk::api::Error::Parse { message, line: 2 }) => assert_eq!(message, "memory exhausted"),
            other => panic!("expected `memory exhausted`, got {other:?}"),
        }
    }
}

#[test]
fn long_left_nested_chains_compile_or_fail_cleanly() {
    // 90,000 links: PHP compiles this (it crashes from 60,000 on); Tusk compiles it.
    let chain = format!("<?php\n$a = 1;\necho $a{};\n", " + $a".repeat(90_000));
    assert_eq!(on_small_stack(chain.into_bytes()).unwrap(), b"90001");
    // Past Tusk's AST depth bound: a parse error, never a stack overflow.
    let chain = format!("<?php\n$a = 1;\necho $a{};\n", " + $a".repeat(200_000));
    assert!(matches!(on_small_stack(chain.into_bytes()), Err(tusk::api::Error::Parse { .. })));
}
