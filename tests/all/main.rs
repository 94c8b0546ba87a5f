//! Tusk's integration tests, in one binary: the PHP corpus with its
//! ratchet, opcode-dump goldens, embedding, and the release-build checks
//! (small-stack threaded dispatch, deep recursion).

mod corpus;
mod dump;
mod embed;
mod runtime;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `tusk` binary Cargo built for these tests (optimized, threaded dispatch).
pub fn tusk() -> &'static str {
    env!("CARGO_BIN_EXE_tusk")
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `tusk file` from the file's directory; stdout with the file's
/// absolute path replaced by `%FILE%`, and the exit status (None: killed).
pub fn run_php(file: &Path, args: &[&str]) -> (String, Option<i32>) {
    let abs = std::fs::canonicalize(file).expect("test file exists");
    let out = Command::new(tusk())
        .arg(&abs)
        .args(args)
        .current_dir(abs.parent().expect("has a parent"))
        .stdin(Stdio::null())
        .output()
        .expect("tusk runs");
    let text = String::from_utf8_lossy(&out.stdout).replace(abs.to_str().expect("utf-8 path"), "%FILE%");
    (text, out.status.code())
}
