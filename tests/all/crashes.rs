//! Scripts that once crashed, hung or broke a PHP guarantee
//! (`tests/crashes/NAME.php`). Each has what PHP 8.2 prints, stdout and
//! stderr together, with the exit status on the last line
//! (`[exit status N]`), and the script's directory written `%DIR%`:
//! - `NAME.expect`: exactly that text;
//! - `NAME.expectf`: the same, with php-src's EXPECTF wildcards (`%s` any
//!   text on one line, `%d` digits, `%A` any text across lines) — for
//!   scripts where PHP itself crashes and Tusk must end with a clean fatal
//!   error instead.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

/// stdout and stderr of `tusk file` together (in the order written, through
/// one pipe), with the exit status line; `None` when killed.
fn run(file: &Path) -> Option<String> {
    let abs = std::fs::canonicalize(file).expect("test file exists");
    let dir = abs.parent().expect("has a parent");
    let (mut reader, writer) = std::io::pipe().expect("pipe");
    let mut child = Command::new(crate::tusk())
        .arg(&abs)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(writer.try_clone().expect("dup pipe"))
        .stderr(writer)
        .spawn()
        .expect("tusk runs");
    let collector = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = reader.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        match child.try_wait().expect("wait for tusk") {
            Some(status) => break status,
            None if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let out = collector.join().expect("collector thread");
    let code = status.code()?;
    let text = String::from_utf8_lossy(&out).replace(dir.to_str().expect("utf-8 path"), "%DIR%");
    Some(format!("{text}[exit status {code}]\n"))
}

/// php-src's EXPECTF matching, for the wildcards this directory uses.
pub fn expectf_matches(pattern: &str, text: &str) -> bool {
    fn go(p: &[u8], t: &[u8]) -> bool {
        match p {
            [] => t.is_empty(),
            [b'%', b'A', rest @ ..] => (0..=t.len()).any(|i| go(rest, &t[i..])),
            [b'%', b's', rest @ ..] => {
                let line = t.iter().position(|&c| c == b'\n').unwrap_or(t.len());
                (1..=line).any(|i| go(rest, &t[i..]))
            }
            [b'%', b'd', rest @ ..] => {
                let digits = t.iter().take_while(|c| c.is_ascii_digit()).count();
                (1..=digits).any(|i| go(rest, &t[i..]))
            }
            [c, rest @ ..] => t.first() == Some(c) && go(rest, &t[1..]),
        }
    }
    go(pattern.as_bytes(), text.as_bytes())
}

#[test]
fn expectf_wildcards() {
    assert!(expectf_matches("a%sb\n%d\n%A!", "axxb\n42\nmany\nlines!"));
    assert!(!expectf_matches("a%sb", "ab"));
    assert!(!expectf_matches("%d", "x"));
    assert!(!expectf_matches("a%sb", "a\nb"));
}

#[test]
fn crash_scripts_end_as_php_does() {
    let dir = crate::root().join("tests/crashes");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("tests/crashes").map(|e| e.expect("entry").path()).collect();
    files.sort();
    let mut failures = Vec::new();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "php")) {
        let exact = std::fs::read_to_string(f.with_extension("expect")).ok();
        let pattern = std::fs::read_to_string(f.with_extension("expectf")).ok();
        let got = run(f);
        let ok = match (&got, &exact, &pattern) {
            (Some(g), Some(want), _) => g == want,
            (Some(g), None, Some(p)) => expectf_matches(p, g),
            _ => false,
        };
        if !ok {
            let want = exact.or(pattern).unwrap_or_else(|| "(no NAME.expect or NAME.expectf)".into());
            let got = got.unwrap_or_else(|| "(killed: signal or timeout)".into());
            failures.push(format!("{}:\n--- want\n{want}\n--- got\n{got}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
