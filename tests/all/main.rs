//! Tusk's integration tests, in one binary: the PHP corpus with its
//! ratchet, opcode-dump goldens, embedding, and the release-build checks
//! (small-stack threaded dispatch, deep recursion).

mod corpus;
mod crashes;
mod dump;
mod embed;
mod runtime;
mod scripts;
mod syntax;

use std::path::{Path, PathBuf};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `tusk` binary Cargo built for these tests (optimized, threaded dispatch).
pub fn tusk() -> &'static str {
    env!("CARGO_BIN_EXE_tusk")
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How long one test script may run before it is killed and counts as failed.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs `tusk file` from the file's directory; stdout with the file's
/// absolute path replaced by `%FILE%`, and the exit status (None: killed,
/// by a signal or after `SCRIPT_TIMEOUT`).
pub fn run_php(file: &Path, args: &[&str]) -> (String, Option<i32>) {
    let abs = std::fs::canonicalize(file).expect("test file exists");
    let mut child = Command::new(tusk())
        .arg(&abs)
        .args(args)
        .current_dir(abs.parent().expect("has a parent"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tusk runs");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + SCRIPT_TIMEOUT;
    let status = loop {
        match child.try_wait().expect("wait for tusk") {
            Some(status) => break status.code(),
            None if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let out = reader.join().expect("reader thread");
    let text = String::from_utf8_lossy(&out).replace(abs.to_str().expect("utf-8 path"), "%FILE%");
    (text, status)
}
