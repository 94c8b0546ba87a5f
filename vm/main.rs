//! `tusk`: run a PHP script as `php` does.
//!
//! ```text
//! tusk FILE.php [args…]      run a script ($argv/$argc)
//! tusk -r 'code' [args…]     run code given on the command line (no <?php)
//! tusk -l FILE               syntax check, as `php -l`
//! tusk --dump-opcodes FILE   print the compiled oplines (opcache's layout)
//! ```

use std::io::Write;
use std::process::ExitCode;

use tusk::compiler::{self, ErrorKind};

#[global_allocator]
static GLOBAL: Allocator = Allocator;

/// mimalloc, asked for plain `mi_malloc` blocks when the alignment is at
/// most 8 (every mimalloc block is: sizes are whole words). `MiMalloc`
/// always asks for aligned blocks, and mimalloc serves an aligned request
/// whose size is not a power of two, when its page's free list is empty,
/// by over-allocating from a bigger size class (`…_aligned_at_overalloc`):
/// one string allocation in six took that path.
struct Allocator;

extern "C" {
    // From the mimalloc library the `mimalloc` crate links.
    fn mi_malloc(size: usize) -> *mut u8;
    fn mi_zalloc(size: usize) -> *mut u8;
    fn mi_realloc(p: *mut u8, new_size: usize) -> *mut u8;
}

const PLAIN_ALIGN: usize = 8;

// SAFETY: blocks come from mimalloc, which satisfies the size and (up to 8)
// the alignment of each request; larger alignments go to `MiMalloc`'s
// aligned calls. Every block, however obtained, is freed by `mi_free`
// (`MiMalloc::dealloc`), which takes any mimalloc block.
unsafe impl std::alloc::GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        if l.align() <= PLAIN_ALIGN {
            mi_malloc(l.size())
        } else {
            mimalloc::MiMalloc.alloc(l)
        }
    }
    #[inline]
    unsafe fn alloc_zeroed(&self, l: std::alloc::Layout) -> *mut u8 {
        if l.align() <= PLAIN_ALIGN {
            mi_zalloc(l.size())
        } else {
            mimalloc::MiMalloc.alloc_zeroed(l)
        }
    }
    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) {
        mimalloc::MiMalloc.dealloc(p, l)
    }
    #[inline]
    unsafe fn realloc(&self, p: *mut u8, l: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if l.align() <= PLAIN_ALIGN {
            mi_realloc(p, new_size)
        } else {
            mimalloc::MiMalloc.realloc(p, l, new_size)
        }
    }
}

/// Native stack of the thread that runs a script.
const RUN_STACK_BYTES: usize = 256 * 1024 * 1024;

fn usage() -> ExitCode {
    eprintln!("usage: tusk [-l | --dump-opcodes] FILE [args...] | tusk -r CODE [args...]");
    ExitCode::from(1)
}

fn read(path: &str) -> Result<Vec<u8>, ExitCode> {
    std::fs::read(path).map_err(|_| {
        println!("Could not open input file: {path}");
        ExitCode::from(1)
    })
}

/// PHP shows the running script by its absolute path.
fn display_path(path: &str) -> String {
    std::fs::canonicalize(path).map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| path.to_string())
}

fn compile_error(e: &compiler::CompileError, file: &str) {
    let label = match e.kind {
        ErrorKind::Parse => "Parse error",
        ErrorKind::Fatal => "Fatal error",
    };
    print!("\n{label}: {} in {file} on line {}\n", e.message, e.line);
}

fn run(src: Vec<u8>, file: &str, argv: Vec<Vec<u8>>) -> ExitCode {
    let program = match compiler::compile(&src, file) {
        Ok(p) => p,
        Err(e) => {
            compile_error(&e, file);
            return ExitCode::from(255);
        }
    };
    let program = std::sync::Arc::new(program);
    // The script runs on a thread with a large stack: PHP calls use none
    // of it, but comparing or printing deeply nested data recurses, and the
    // guard (value::guard) ends such a run cleanly only at this stack's end.
    // The stack is address space; only the pages touched are ever committed.
    let runner = std::thread::Builder::new().name("php".into()).stack_size(RUN_STACK_BYTES).spawn(move || {
        let mut vm = tusk::exec::Vm::new();
        vm.argv = argv;
        let outcome = vm.run_program(program);
        vm.flush();
        drop(vm);
        outcome.status()
    });
    let status = match runner.map(|t| t.join()) {
        Ok(Ok(status)) => status,
        _ => {
            println!("\nFatal error: internal error in Tusk (a panic)");
            255
        }
    };
    let _ = std::io::stdout().flush();
    ExitCode::from(status as u8)
}

/// `-l`: everything `php -l` checks and prints: parsing, then the
/// compile-time errors codegen raises, with the compile-time warnings and
/// deprecations before the verdict. A construct codegen cannot compile yet is
/// valid syntax, so its "… is not supported yet" error does not fail the check.
fn lint(src: &[u8], path: &str) -> ExitCode {
    // On a big stack, as `compiler::compile` does for deep input.
    compiler::stack::with_big_stack(|| lint_here(src, path)).unwrap_or_else(|| lint_here(src, path))
}

fn lint_here(src: &[u8], path: &str) -> ExitCode {
    let arena = bumpalo::Bump::new();
    let mut diags = Vec::new();
    let parsed = compiler::parse_with_diagnostics(&arena, src, path, &mut diags);
    for d in &diags {
        print!("\n{}: {} in {path} on line {}\n", d.kind.label(), d.message, d.line);
    }
    let result = parsed
        .map_err(|e| compiler::CompileError { kind: e.kind, message: e.message, line: e.line })
        .and_then(|ast| {
            let end = ast.halt_offset.map_or(src.len(), |o| (o as usize).min(src.len()));
            let end_line = 1 + src[..end].iter().filter(|&&b| b == b'\n').count() as u32;
            compiler::codegen::compile_program(&ast, end_line, std::sync::Arc::from(path)).map(|_| ())
        });
    match result {
        Err(e) if e.kind == ErrorKind::Fatal && e.message.ends_with(" is not supported yet") => {}
        Err(e) => {
            compile_error(&e, path);
            println!("Errors parsing {path}");
            return ExitCode::from(255);
        }
        Ok(()) => {}
    }
    println!("No syntax errors detected in {path}");
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(first) = args.get(1) else { return usage() };
    match first.as_str() {
        "-l" => {
            let Some(path) = args.get(2) else { return usage() };
            let src = match read(path) {
                Ok(s) => s,
                Err(c) => return c,
            };
            lint(&src, path)
        }
        "--dump-opcodes" => {
            let Some(path) = args.get(2) else { return usage() };
            let src = match read(path) {
                Ok(s) => s,
                Err(c) => return c,
            };
            let file = display_path(path);
            match compiler::compile(&src, &file) {
                Ok(p) => {
                    let mut out = String::new();
                    tusk::dump::dump_program(&p, &mut out);
                    print!("{out}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    compile_error(&e, &file);
                    ExitCode::from(255)
                }
            }
        }
        "-r" => {
            let Some(code) = args.get(2) else { return usage() };
            let mut src = b"<?php ".to_vec();
            src.extend_from_slice(code.as_bytes());
            let mut argv = vec![b"Standard input code".to_vec()];
            argv.extend(args[3..].iter().map(|a| a.as_bytes().to_vec()));
            run(src, "Command line code", argv)
        }
        "-h" | "--help" => {
            let _ = usage();
            ExitCode::SUCCESS
        }
        path => {
            let src = match read(path) {
                Ok(s) => s,
                Err(c) => return c,
            };
            let argv = args[1..].iter().map(|a| a.as_bytes().to_vec()).collect();
            run(src, &display_path(path), argv)
        }
    }
}

