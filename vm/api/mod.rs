//! The embedding API: an [`Engine`] (shared configuration, `Send + Sync`),
//! compiled [`Program`]s (immutable, shareable across threads, run many
//! times) and [`Context`]s (one run's state; `Send`, not `Sync`).
//!
//! ```
//! let engine = tusk::api::Engine::new();
//! let prog = engine.compile(b"<?php echo 1 + 2;", "demo.php").unwrap();
//! let mut ctx = engine.context();
//! ctx.capture_output();
//! ctx.run(&prog).unwrap();
//! assert_eq!(ctx.take_output(), b"3");
//! ```

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::compiler;
use crate::exec::run::Outcome;
use crate::exec::vm::{Sink, Vm};

/// Shared configuration.
#[derive(Clone, Debug)]
pub struct Engine {
    memory_limit: usize,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// A compiled script.
#[derive(Clone)]
pub struct Program(Arc<compiler::Program>);

impl Program {
    /// Visits every opline (compile form) of the main code, its functions
    /// and its classes' methods.
    pub fn for_each_op(&self, mut f: impl FnMut(&crate::ops::Op)) {
        fn walk(op: &crate::ops::OpArray, f: &mut dyn FnMut(&crate::ops::Op)) {
            op.ops.iter().for_each(&mut *f);
            for d in &op.declared {
                walk(&d.op, f);
            }
            for c in &op.declared_classes {
                class(c, f);
            }
        }
        fn class(c: &crate::runtime::class::ClassDef, f: &mut dyn FnMut(&crate::ops::Op)) {
            for m in &c.methods {
                walk(&m.func.op, f);
            }
        }
        walk(&self.0.main.op, &mut f);
        for func in &self.0.functions {
            walk(&func.op, &mut f);
        }
        for c in &self.0.classes {
            class(c, &mut f);
        }
    }

    /// The compiled program, for tools (the dump) and tests.
    pub fn inner(&self) -> &compiler::Program {
        &self.0
    }
}

/// What went wrong in compiling or running a script.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// `Parse error: …` (message as PHP prints it, and its line).
    Parse { message: String, line: u32 },
    /// A compile-time `Fatal error: …`.
    Compile { message: String, line: u32 },
    /// A fatal error at run time, including uncaught exceptions (the text
    /// after `Fatal error: `).
    Fatal(String),
    /// `exit(status)` with a non-zero status.
    Exit(i32),
    /// The host cancelled the run.
    Cancelled,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Parse { message, line } => write!(f, "Parse error: {message} on line {line}"),
            Error::Compile { message, line } => write!(f, "Fatal error: {message} on line {line}"),
            Error::Fatal(m) => write!(f, "Fatal error: {m}"),
            Error::Exit(s) => write!(f, "exit({s})"),
            Error::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for Error {}

impl Engine {
    pub fn new() -> Engine {
        Engine { memory_limit: 128 * 1024 * 1024 }
    }

    /// Sets the memory limit of contexts made from now on.
    pub fn with_memory_limit(mut self, bytes: usize) -> Engine {
        self.memory_limit = bytes;
        self
    }

    /// Compiles PHP source (with its `<?php` tag) into a program.
    pub fn compile(&self, src: &[u8], filename: &str) -> Result<Program, Error> {
        match compiler::compile(src, filename) {
            Ok(p) => Ok(Program(Arc::new(p))),
            Err(e) => Err(match e.kind {
                compiler::ErrorKind::Parse => Error::Parse { message: e.message, line: e.line },
                compiler::ErrorKind::Fatal => Error::Compile { message: e.message, line: e.line },
            }),
        }
    }

    /// A fresh context for running programs.
    pub fn context(&self) -> Context {
        let mut vm = Vm::new();
        vm.memory_limit = self.memory_limit;
        Context { vm }
    }
}

/// One run's state: globals, heap, output, limits.
pub struct Context {
    vm: Box<Vm>,
}

// SAFETY: every pointer inside a Vm points into memory the Vm owns (its
// stack, tables, values) or into programs it keeps alive through `Arc`s and
// never mutates; nothing is tied to the creating thread.
unsafe impl Send for Context {}

impl Context {
    /// Keeps output in memory instead of writing it to stdout.
    pub fn capture_output(&mut self) {
        self.vm.sink = Sink::Capture;
    }

    pub fn take_output(&mut self) -> Vec<u8> {
        self.vm.take_output()
    }

    /// Arguments the script sees as `$argv` (the first is the script name).
    pub fn set_argv(&mut self, argv: Vec<Vec<u8>>) {
        self.vm.argv = argv;
    }

    /// A flag another thread may set to stop the run at the next backward
    /// jump or call.
    pub fn interrupt_handle(&self) -> Arc<AtomicBool> {
        self.vm.interrupt_handle()
    }

    /// Runs a program's main code as one request: functions and constants
    /// declared by earlier runs of this context are gone (as between two
    /// PHP requests); output settings, argv and limits stay.
    ///
    /// A Rust panic inside the engine is a Tusk bug; it is contained here and
    /// reported as `Error::Fatal`, and the context must not be reused.
    pub fn run(&mut self, p: &Program) -> Result<(), Error> {
        let vm = &mut self.vm;
        let prog = p.0.clone();
        vm.begin_request();
        let r = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| vm.run_program(prog))) {
            Ok(r) => r,
            Err(_) => return Err(Error::Fatal("internal error in Tusk (a panic); the context is no longer usable".into())),
        };
        self.vm.flush();
        match r {
            Outcome::Done | Outcome::Exit(0) => Ok(()),
            Outcome::Exit(s) => Err(Error::Exit(s)),
            Outcome::Fatal(m) => Err(Error::Fatal(m)),
            Outcome::Cancelled => Err(Error::Cancelled),
        }
    }

    /// The engine's inside, for tools and tests.
    pub fn vm(&mut self) -> &mut Vm {
        &mut self.vm
    }
}
