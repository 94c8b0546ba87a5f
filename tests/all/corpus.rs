//! The conformance corpus (tests/corpus, PHP 8.2's recorded output) and its
//! ratchet: every test named in tests/corpus/ratchet.txt must keep passing.
//! `TUSK_RATCHET=update cargo test corpus` rewrites the list with every test
//! that passes now (review the diff: it must only grow).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Mutex;

fn corpus_files() -> Vec<PathBuf> {
    let dir = crate::root().join("tests/corpus");
    let mut files = Vec::new();
    for area in std::fs::read_dir(&dir).expect("corpus dir") {
        let area = area.expect("entry").path();
        if !area.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&area).expect("area dir") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "php") {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

fn name_of(f: &std::path::Path) -> String {
    let area = f.parent().and_then(|p| p.file_name()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{}/{}", area, f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default())
}

fn passes(f: &std::path::Path) -> bool {
    let expected = match std::fs::read_to_string(f.with_extension("out")) {
        Ok(e) => e,
        Err(_) => return false,
    };
    let (got, code) = crate::run_php(f, &[]);
    code.is_some() && got == expected
}

#[test]
fn corpus_ratchet() {
    let ratchet_path = crate::root().join("tests/corpus/ratchet.txt");
    let ratchet: BTreeSet<String> = std::fs::read_to_string(&ratchet_path)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let files = corpus_files();
    let queue = Mutex::new(files.clone());
    let passed = Mutex::new(BTreeSet::new());
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let Some(f) = queue.lock().expect("queue").pop() else { break };
                if passes(&f) {
                    passed.lock().expect("passed").insert(name_of(&f));
                }
            });
        }
    });
    let passed = passed.into_inner().expect("passed");
    let regressions: Vec<&String> = ratchet.iter().filter(|t| !passed.contains(*t)).collect();
    let fresh: Vec<&String> = passed.iter().filter(|t| !ratchet.contains(*t)).collect();
    println!("corpus: {} passed, {} failed", passed.len(), files.len() - passed.len());
    if !fresh.is_empty() {
        println!("newly passing (add to tests/corpus/ratchet.txt): {fresh:?}");
    }
    if std::env::var("TUSK_RATCHET").as_deref() == Ok("update") {
        let mut text = String::from("# Corpus tests that must keep passing (see tests/all/corpus.rs).\n");
        for t in &passed {
            text.push_str(t);
            text.push('\n');
        }
        std::fs::write(&ratchet_path, text).expect("write ratchet");
    }
    assert!(regressions.is_empty(), "ratchet tests no longer passing: {regressions:?}");
}
