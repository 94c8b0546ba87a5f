//! Opcode-dump goldens: tests/dump/NAME.php compiles to exactly
//! tests/dump/NAME.dump (opcache's layout; the opcode lines match PHP 8.2's
//! pre-optimizer dump). `TUSK_BLESS=1` rewrites the goldens.

#[test]
fn dump_goldens() {
    let dir = crate::root().join("tests/dump");
    let mut failures = Vec::new();
    let mut n = 0;
    for f in std::fs::read_dir(&dir).expect("tests/dump") {
        let f = f.expect("entry").path();
        if f.extension().is_none_or(|e| e != "php") {
            continue;
        }
        n += 1;
        let src = std::fs::read(&f).expect("read");
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        let prog = tusk::compiler::compile(&src, &name).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        let mut got = String::new();
        tusk::dump::dump_program(&prog, &mut got);
        let golden = f.with_extension("dump");
        if std::env::var("TUSK_BLESS").is_ok() {
            std::fs::write(&golden, &got).expect("bless");
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            failures.push(name);
        }
    }
    assert!(n > 0, "no dump goldens found");
    assert!(failures.is_empty(), "dumps differ from goldens (TUSK_BLESS=1 to accept): {failures:?}");
}
