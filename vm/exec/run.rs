//! Entering PHP code from Rust: runs a program's main code (or any user
//! function) on this context's VM stack until it returns or stops.

use std::sync::Arc;

use super::frame::Frame;
use super::slow::call::CALL_TOP;
use crate::runtime::class::Class;
use crate::value::object::ZObject;
use super::{dispatch, Ret, Vm};
use crate::compiler::Program;
use crate::runtime::error::Stop;
use crate::runtime::function::{FuncEntry, Function};
use crate::value::{guard, heap, ZArray, ZString, Zval};

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The code returned normally.
    Done,
    /// `exit(status)`.
    Exit(i32),
    /// A fatal error (message as printed, without the label).
    Fatal(String),
    /// The run was cancelled by the host.
    Cancelled,
}

impl Outcome {
    /// The process exit status PHP would give.
    pub fn status(&self) -> i32 {
        match self {
            Outcome::Done => 0,
            Outcome::Exit(s) => *s,
            Outcome::Fatal(_) | Outcome::Cancelled => 255,
        }
    }
}

impl Vm {
    /// Binds the program's top-level functions and runs its main code.
    pub fn run_program(&mut self, program: Arc<Program>) -> Outcome {
        self.programs.push(program.clone());
        for d in &program.diagnostics {
            let level = match d.kind {
                crate::compiler::DiagnosticKind::Warning => crate::runtime::error::Level::Warning,
                crate::compiler::DiagnosticKind::Deprecated => crate::runtime::error::Level::Deprecated,
            };
            self.report_at(level, d.message.as_bytes(), &program.filename, d.line);
        }
        for f in &program.functions {
            if !self.declare_function(&**f) {
                let msg = format!("Cannot redeclare {}()", String::from_utf8_lossy(&f.op.name));
                self.report_at(crate::runtime::error::Level::Fatal, msg.as_bytes(), &f.op.filename, f.op.line_start);
                return Outcome::Fatal(msg);
            }
        }
        let _current = super::vm::CurrentGuard::enter(self);
        if let Err(o) = self.bind_program_classes(&program) {
            return o;
        }
        let main: *const Function = &*program.main;
        let entry = FuncEntry::new(main);
        self.anon_entries.push(entry);
        let entry: *mut FuncEntry = &mut **self.anon_entries.last_mut().expect("just pushed");
        let argv = self.argv.clone();
        // SAFETY: `main` lives in `program`, kept alive by `self.programs`.
        unsafe {
            let init = |slot: *mut Zval, name: &[u8]| {
                if name == b"argv" {
                    let a = ZArray::new();
                    for s in &argv {
                        (*a).append(Zval::string(ZString::new(s)));
                    }
                    *slot = Zval::array(a);
                } else if name == b"argc" {
                    *slot = Zval::long(argv.len() as i64);
                }
            };
            let mut ret = Zval::UNDEF;
            // The run may use `memory_limit` bytes beyond what is already
            // allocated (the stack pages it starts with included).
            let base = heap::used().saturating_sub(self.stack.bytes_reserved());
            let outer = heap::set_limit(base.saturating_add(self.memory_limit));
            let floor = guard::arm();
            let this = &mut *self;
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let r = this.call_user(main, entry, &[], &mut ret, Some(&init));
                ret.ptr_dtor();
                r
            }));
            heap::set_limit(outer);
            guard::disarm(floor);
            let payload = match r {
                Ok(r) => return r,
                Err(payload) => payload,
            };
            // Zend's bailout: the request ends here; its frames are abandoned.
            let msg = if let Some(m) = payload.downcast_ref::<heap::MemoryExhausted>() {
                format!("Allowed memory size of {} bytes exhausted (tried to allocate {} bytes)", self.memory_limit, m.tried)
            } else if let Some(g) = payload.downcast_ref::<guard::StackExhausted>() {
                format!("Maximum call stack size of {} bytes reached. Infinite recursion?", g.stack_size)
            } else {
                std::panic::resume_unwind(payload)
            };
            self.exception = None;
            self.fatal(&msg);
            self.stack.reset();
            // The abandoned frames' dynamic variables go with them.
            self.symtabs.clear();
            self.cur = core::ptr::null_mut();
            self.nesting = 0;
            self.finish()
        }
    }

    /// Binds a program's top-level classes: in source order, each once its
    /// parent and interfaces are bound (a class may extend one declared
    /// further down the file).
    fn bind_program_classes(&mut self, program: &Program) -> Result<(), Outcome> {
        let mut todo: Vec<&crate::runtime::class::ClassDef> = program.classes.iter().map(|c| &**c).collect();
        while !todo.is_empty() {
            // The first class that can be bound now (or, when none can, the
            // first one, which then fails with PHP's message).
            let i = todo.iter().position(|d| crate::runtime::classes::can_bind(self, d)).unwrap_or(0);
            let d = todo.remove(i);
            // SAFETY: the def lives in `program`, kept by `self.programs`.
            if let Err(msg) = unsafe { crate::runtime::classes::declare_class(self, d) } {
                self.report_at(crate::runtime::error::Level::Fatal, msg.as_bytes(), &program.filename, d.line);
                return Err(Outcome::Fatal(msg));
            }
        }
        Ok(())
    }

    /// Calls a user function with `args` (copied), from Rust; `ret` receives its value.
    ///
    /// # Safety
    /// `func` and `entry` are live for the call; `args` are valid values.
    pub unsafe fn call_user(
        &mut self,
        func: *const Function,
        entry: *mut FuncEntry,
        args: &[Zval],
        ret: *mut Zval,
        init: Option<&dyn Fn(*mut Zval, &[u8])>,
    ) -> Outcome {
        self.call_user_with(func, entry, core::ptr::null_mut(), core::ptr::null(), args, ret, init)
    }

    /// `call_user` with `$this` (null: none; the call takes its own
    /// reference) and the called scope of a method.
    ///
    /// # Safety
    /// As `call_user`; `this` is null or a live object.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn call_user_with(
        &mut self,
        func: *const Function,
        entry: *mut FuncEntry,
        this: *mut ZObject,
        scope: *const Class,
        args: &[Zval],
        ret: *mut Zval,
        init: Option<&dyn Fn(*mut Zval, &[u8])>,
    ) -> Outcome {
        let op = &(*func).op;
        let nargs = args.len() as u32;
        let extra = nargs.saturating_sub(op.num_args) as usize;
        let frame = match self.stack.alloc(op.frame_size() + extra * 16, self.memory_limit) {
            Ok(p) => p as *mut Frame,
            Err(e) => {
                self.memory_exhausted(e.tried);
                return self.finish();
            }
        };
        let caller = self.cur;
        init_frame(frame, func, entry, this, scope, ret, caller, nargs);
        (*frame).this.type_info |= CALL_TOP;
        super::slow::named::adopt_pending(self, frame);
        for (i, a) in args.iter().enumerate() {
            *Frame::slot(frame, i as u32) = a.copy_value();
        }
        if nargs > op.num_args {
            let src = Frame::slot(frame, op.num_args);
            let dst = Frame::slot(frame, op.num_slots());
            core::ptr::copy(src, dst, extra);
        }
        for i in nargs.min(op.num_args)..op.cv_names.len() as u32 {
            *Frame::slot(frame, i) = Zval::UNDEF;
        }
        if let Some(init) = init {
            for (i, n) in op.cv_names.iter().enumerate() {
                init(Frame::slot(frame, i as u32), n);
            }
        }
        self.cur = frame;
        self.nesting += 1;
        let r = dispatch::run(self, op.entry(), frame as *mut Zval);
        self.nesting -= 1;
        match r {
            Ret::Leave => {
                self.cur = caller;
                Outcome::Done
            }
            _ => {
                self.unwind_to(caller);
                if !caller.is_null() && self.stop.is_none() && self.exception.is_some() {
                    // Called from a builtin: the exception stays pending.
                    return Outcome::Done;
                }
                self.finish()
            }
        }
    }

    /// Calls a user function from a builtin (a callback): a throw, `exit` or
    /// fatal error stays pending for the builtin's caller (`Err`).
    ///
    /// # Safety
    /// As `call_user`; a builtin is running (`self.cur` is its frame).
    pub unsafe fn call_from_builtin(&mut self, func: *const Function, entry: *mut FuncEntry, args: &[Zval], ret: *mut Zval) -> Result<(), super::Thrown> {
        if self.nesting >= self.max_nesting {
            let msg = format!("Maximum function nesting level of '{}' reached, aborting!", self.max_nesting);
            self.fatal(&msg);
            return Err(super::Thrown);
        }
        let r = self.call_user(func, entry, args, ret, None);
        self.outcome_to_result(r)
    }

    /// A finished nested call's outcome as a builtin sees it: a throw,
    /// `exit` or fatal error stays pending (`Err`).
    fn outcome_to_result(&mut self, r: Outcome) -> Result<(), super::Thrown> {
        match r {
            Outcome::Done if self.exception.is_none() => Ok(()),
            Outcome::Done => Err(super::Thrown),
            Outcome::Exit(s) => {
                self.stop = Some(Stop::Exit(s));
                Err(super::Thrown)
            }
            Outcome::Fatal(m) => {
                self.stop = Some(Stop::Fatal(m));
                Err(super::Thrown)
            }
            Outcome::Cancelled => {
                self.stop = Some(Stop::Cancelled);
                Err(super::Thrown)
            }
        }
    }

    /// Calls a function or method from Rust (destructors, magic methods,
    /// constant initializers, callbacks): user code runs a nested dispatch
    /// loop, a builtin is called directly. `this`: null or a live object.
    ///
    /// # Safety
    /// `entry` is live; `args` are valid values; `ret` is writable.
    pub unsafe fn call_function(&mut self, entry: *mut FuncEntry, this: *mut ZObject, scope: *const Class, args: &[Zval], ret: *mut Zval) -> Result<(), super::Thrown> {
        if self.nesting >= self.max_nesting {
            let msg = format!("Maximum function nesting level of '{}' reached, aborting!", self.max_nesting);
            self.fatal(&msg);
            return Err(super::Thrown);
        }
        let func = (*entry).func;
        if (*func).is_user() {
            let r = self.call_user_with(func, entry, this, scope, args, ret, None);
            return self.outcome_to_result(r);
        }
        let Some(f) = (*func).builtin else { return Ok(()) };
        let nargs = args.len() as u32;
        let frame = match self.stack.alloc(crate::ops::FRAME_HEADER as usize + (args.len() + 1) * 16, self.memory_limit) {
            Ok(p) => p as *mut Frame,
            Err(e) => {
                self.memory_exhausted(e.tried);
                return Err(super::Thrown);
            }
        };
        let caller = self.cur;
        init_frame(frame, func, entry, this, scope, ret, caller, nargs);
        super::slow::named::adopt_pending(self, frame);
        for (i, a) in args.iter().enumerate() {
            *Frame::slot(frame, i as u32) = a.copy_value();
        }
        self.cur = frame;
        self.nesting += 1;
        let argv = core::slice::from_raw_parts(Frame::slot(frame, 0) as *const Zval, args.len());
        let r = f(self, argv, &mut *ret);
        self.nesting -= 1;
        self.cur = caller;
        for a in argv {
            a.ptr_dtor();
        }
        if (*frame).this.type_info & super::slow::named::CALL_HAS_EXTRA_NAMED != 0 {
            super::slow::named::free_extra(frame);
        }
        super::slow::call::release_this(frame);
        self.stack.free(frame as *mut Zval);
        r
    }

    /// Frees every frame above `caller` after a stop (fatal error, exit).
    fn unwind_to(&mut self, caller: *mut Frame) {
        // SAFETY: `cur` and its `prev` chain are live frames pushed by this run.
        unsafe {
            let mut f = self.cur;
            while !f.is_null() && f != caller {
                if !(*f).func.is_null() && (*(*f).func).is_user() {
                    super::slow::exception::drop_held(f);
                    super::slow::call::free_frame_values(self, f);
                }
                let prev = (*f).prev;
                self.stack.free(f as *mut Zval);
                f = prev;
            }
        }
        self.cur = caller;
    }

    fn finish(&mut self) -> Outcome {
        if self.exception.is_some() {
            super::slow::exception::report_uncaught(self);
        }
        match self.stop.take() {
            Some(Stop::Exit(s)) => Outcome::Exit(s),
            Some(Stop::Fatal(m)) => Outcome::Fatal(m),
            Some(Stop::Cancelled) => Outcome::Cancelled,
            None => Outcome::Done,
        }
    }
}

/// Fills the header of a frame entered from Rust: `this` gets its own
/// reference; the caller is `caller`.
///
/// # Safety
/// `frame` is a fresh frame allocation; `entry` is live; `this` is null or live.
#[allow(clippy::too_many_arguments)]
unsafe fn init_frame(frame: *mut Frame, func: *const Function, entry: *mut FuncEntry, this: *mut ZObject, scope: *const Class, ret: *mut Zval, caller: *mut Frame, nargs: u32) {
    (*frame).opline = core::ptr::null();
    (*frame).call = core::ptr::null_mut();
    (*frame).return_value = ret;
    (*frame).func = func;
    (*frame).entry = entry;
    (*frame).this = Zval::UNDEF;
    if !this.is_null() {
        (*this).header.refcount += 1;
        (*frame).this = Zval::object(this);
    }
    (*frame).this.u2 = nargs;
    (*frame).scope = scope;
    (*frame).prev = caller;
    (*frame).rt_cache = (*entry).rt_cache.as_mut_ptr();
}
