//! Every tests/php/NAME.php that has a NAME.out (recorded from `php -n`)
//! must print exactly that under the release `tusk` binary.

#[test]
fn php_scripts_match_recorded_output() {
    let dir = crate::root().join("tests/php");
    let mut failures = Vec::new();
    let mut n = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("tests/php").map(|e| e.expect("entry").path()).collect();
    files.sort();
    for f in files {
        if f.extension().is_none_or(|e| e != "php") {
            continue;
        }
        let Ok(want) = std::fs::read_to_string(f.with_extension("out")) else { continue };
        n += 1;
        let (got, code) = crate::run_php(&f, &[]);
        if code.is_none() || got != want {
            failures.push(format!("{}:\n--- want\n{want}\n--- got\n{got}", f.display()));
        }
    }
    assert!(n > 0, "no scripts with recorded output");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
