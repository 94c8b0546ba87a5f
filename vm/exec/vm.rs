//! The state of one running context: VM stack, function and constant tables,
//! output, the pending exception, limits and the interrupt flag. Nothing is
//! process-wide: two `Vm`s run side by side on two threads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::frame::Frame;
use super::stack::Stack;
use super::{Ret, Thrown};
use crate::ops::{Op, OpArray, Opcode};
use crate::runtime::error::{Exception, Level, Stop};
use crate::runtime::class::Class;
use crate::runtime::function::{FuncEntry, Function};
use crate::value::object::ZObject;
use crate::value::{ZArray, Zval};

pub type FastMap<K, V> = HashMap<K, V, ahash::RandomState>;

/// A table hashed with fixed seeds (no process-wide random state).
pub fn new_map<K, V>() -> FastMap<K, V> {
    HashMap::with_hasher(ahash::RandomState::with_seeds(0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344, 0xa409_3822_299f_31d0, 0x082e_fa98_ec4e_6c89))
}

/// Where output goes.
pub enum Sink {
    /// Written to the process's stdout (the CLI).
    Stdout,
    /// Kept in memory for the host (`Vm::take_output`).
    Capture,
}

pub struct Vm {
    /// Loop-form dispatch and interrupts: where to continue.
    pub ip: *const Op,
    pub fp: *mut Zval,
    /// The frame currently executing (Zend's `EG(current_execute_data)`).
    pub cur: *mut Frame,
    /// The HANDLE_EXCEPTION opline a throw continues at.
    pub exception_op: Op,
    pub stack: Stack,
    /// Functions by lowercase name.
    pub functions: FastMap<Vec<u8>, Box<FuncEntry>>,
    /// Entries for functions reached without a table entry (main scripts).
    pub anon_entries: Vec<Box<FuncEntry>>,
    /// Objects that are WeakMap keys (by address) → the WeakMaps holding them.
    pub weak_refs: FastMap<usize, Vec<*mut ZObject>>,
    /// User constants (`define`, `const`), by name.
    pub constants: FastMap<Vec<u8>, Zval>,
    pub exception: Option<Exception>,
    pub stop: Option<Stop>,
    pub out: Vec<u8>,
    pub sink: Sink,
    /// Diagnostics also go to stderr as `PHP Warning:  …` (php-cli's log).
    pub log_to_stderr: bool,
    pub error_reporting: i64,
    pub memory_limit: usize,
    pub argv: Vec<Vec<u8>>,
    pub max_nesting: u32,
    pub nesting: u32,
    interrupt: Arc<AtomicBool>,
    pub deadline: Option<std::time::Instant>,
    pub time_limit_secs: u64,
    /// Keeps the programs whose functions are in the tables alive.
    pub programs: Vec<Arc<crate::compiler::Program>>,
    /// Function records made for the builtins this context has called.
    pub builtin_funcs: Vec<Box<Function>>,
    /// Classes by lowercase name (builtin ones bound at the start of each request).
    pub classes: FastMap<Vec<u8>, Box<Class>>,
    pub objects: ObjectStore,
    /// The builtin classes' definitions (bound again by each request).
    pub builtin_class_defs: Vec<Box<crate::runtime::class::ClassDef>>,
    /// Calls being prepared that go to `__call`/`__callStatic`: the
    /// trampoline frame, the magic method, the name called.
    pub pending_magic: Vec<(*mut Frame, crate::runtime::class::Method, Vec<u8>)>,
    /// Frames' dynamic variables (see `exec::symtab`).
    pub symtabs: Vec<super::symtab::DynVars>,
    /// `register_tick_function()` registrations, in order.
    pub tick_functions: Vec<TickFunction>,
    /// The id of the next registration.
    pub tick_ids: u64,
    /// TICKS oplines run since the last tick (Zend's `EG(ticks_count)`).
    pub ticks_count: u32,
    /// Named arguments no parameter takes, collected for a variadic
    /// callee (Zend's `extra_named_params`), by call frame: frames flagged
    /// `CALL_HAS_EXTRA_NAMED` have an entry (an array with string keys).
    pub extra_named: Vec<(*mut Frame, Zval)>,
    /// Extra named arguments for the next frame pushed from Rust (UNDEF: none).
    pub pending_named: Zval,
    /// Magic property methods running (object, property, kind): Zend's
    /// guards against `__get` recursing into itself.
    pub magic_guards: Vec<(usize, Vec<u8>, u8)>,
    /// The value an `ArrayAccess` write produced (`$o[k] = v`'s result,
    /// `offsetGet`'s for a write fetch): handlers expect a slot, and the
    /// object has none. Replaced by the next such access.
    pub dim_scratch: Zval,
    /// ext/pcre: compiled-pattern cache, match context, `preg_last_error()`.
    pub pcre: crate::stdlib::pcre::PcreState,
    trampoline: Option<Box<FuncEntry>>,
    trampoline_func: Option<Box<Function>>,
    pass: Option<Box<FuncEntry>>,
    pass_func: Option<Box<Function>>,
}

/// A `register_tick_function()` registration.
pub struct TickFunction {
    pub id: u64,
    /// The callable, then its arguments.
    pub call: Vec<Zval>,
    /// Running now: a tick function is not re-entered (Zend's `calling`).
    pub calling: bool,
}

/// Live objects by handle (Zend's `objects_store`): handles are numbered
/// from 1 and a freed handle is the next one reused.
#[derive(Default)]
pub struct ObjectStore {
    /// Index `h - 1`: the object with handle `h`, or null when free.
    pub objs: Vec<*mut ZObject>,
    free: Vec<u32>,
}

impl ObjectStore {
    /// Gives `o` a handle.
    pub fn add(&mut self, o: *mut ZObject) {
        let h = match self.free.pop() {
            Some(h) => {
                self.objs[h as usize - 1] = o;
                h
            }
            None => {
                self.objs.push(o);
                self.objs.len() as u32
            }
        };
        // SAFETY: `o` is a live object the caller just made.
        unsafe { (*o).handle = h };
    }
    pub fn remove(&mut self, h: u32) {
        if let Some(p) = self.objs.get_mut((h as usize).wrapping_sub(1)) {
            if !p.is_null() {
                *p = core::ptr::null_mut();
                self.free.push(h);
            }
        }
    }
    pub fn live(&self) -> usize {
        self.objs.iter().filter(|p| !p.is_null()).count()
    }
}

thread_local! {
    /// The context running on this thread (objects reach it when released:
    /// destructors and handle numbering are per context).
    static CURRENT: core::cell::Cell<*mut Vm> = const { core::cell::Cell::new(core::ptr::null_mut()) };
}

/// The context running on this thread, or null.
#[inline]
pub fn current() -> *mut Vm {
    CURRENT.with(|c| c.get())
}

/// Makes `vm` the thread's running context until the guard drops.
pub struct CurrentGuard(*mut Vm);

impl CurrentGuard {
    pub fn enter(vm: *mut Vm) -> CurrentGuard {
        CurrentGuard(CURRENT.with(|c| c.replace(vm)))
    }
}

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
    }
}

impl Vm {
    pub fn new() -> Box<Vm> {
        let mut exception_op = Op::new(Opcode::HandleException, 0);
        exception_op.handler = super::select::handler_of(&exception_op);
        let mut vm = Box::new(Vm {
            ip: core::ptr::null(),
            fp: core::ptr::null_mut(),
            cur: core::ptr::null_mut(),
            exception_op,
            stack: Stack::new(),
            functions: new_map(),
            anon_entries: Vec::new(),
            weak_refs: new_map(),
            constants: new_map(),
            exception: None,
            stop: None,
            out: Vec::with_capacity(8192),
            sink: Sink::Stdout,
            log_to_stderr: false,
            error_reporting: crate::runtime::error::E_ALL,
            memory_limit: 128 * 1024 * 1024,
            argv: Vec::new(),
            max_nesting: 256,
            nesting: 0,
            interrupt: Arc::new(AtomicBool::new(false)),
            deadline: None,
            time_limit_secs: 0,
            programs: Vec::new(),
            builtin_funcs: Vec::new(),
            classes: new_map(),
            objects: ObjectStore::default(),
            builtin_class_defs: crate::runtime::builtin_classes::definitions(),
            pending_magic: Vec::new(),
            symtabs: Vec::new(),
            tick_functions: Vec::new(),
            tick_ids: 0,
            ticks_count: 0,
            extra_named: Vec::new(),
            pending_named: Zval::UNDEF,
            magic_guards: Vec::new(),
            dim_scratch: Zval::NULL,
            pcre: Default::default(),
            trampoline: None,
            trampoline_func: None,
            pass: None,
            pass_func: None,
        });
        vm.begin_request();
        vm
    }

    /// Starts a new request: forgets what earlier runs declared (functions
    /// with their statics, constants) and any pending stop, as each PHP
    /// request starts from a clean slate. Settings and output stay.
    pub fn begin_request(&mut self) {
        let _current = CurrentGuard::enter(self);
        for v in self.constants.values() {
            // SAFETY: the table owns its constants.
            unsafe { v.ptr_dtor() };
        }
        self.constants.clear();
        let scratch = core::mem::replace(&mut self.dim_scratch, Zval::NULL);
        // SAFETY: the VM owns the scratch value.
        unsafe { scratch.ptr_dtor() };
        self.release_tick_functions();
        self.ticks_count = 0;
        self.functions.clear();
        self.anon_entries.clear();
        self.weak_refs.clear();
        self.classes.clear();
        self.programs.clear();
        self.objects = ObjectStore::default();
        crate::runtime::builtin_classes::bind_all(self);
        self.exception = None;
        self.stop = None;
        self.nesting = 0;
        // PHP's RINIT for ext/pcre (compiled patterns stay cached).
        self.pcre.error_code = crate::stdlib::pcre::NO_ERROR;
    }

    /// Forgets the registered tick functions (at the end of a request).
    pub fn release_tick_functions(&mut self) {
        for f in core::mem::take(&mut self.tick_functions) {
            for v in f.call {
                // SAFETY: the list owned these values.
                unsafe { v.ptr_dtor() };
            }
        }
    }

    /// The entry of the builtin that forwards a call to `__call` /
    /// `__callStatic` with the arguments it was sent.
    pub fn magic_trampoline(&mut self) -> *mut FuncEntry {
        if self.trampoline.is_none() {
            let mut op = OpArray::new(b"__call".to_vec(), Arc::from(""));
            op.arg_info.push(crate::ops::ArgInfo { name: b"args".to_vec(), variadic: true, ..Default::default() });
            let f = Box::new(Function { op, builtin: Some(magic_call_trampoline), decl: None });
            self.trampoline = Some(FuncEntry::new(&*f));
            self.trampoline_func = Some(f);
        }
        &mut **self.trampoline.as_mut().expect("made above")
    }

    /// The entry of a builtin that takes any arguments and does nothing
    /// (the call `new` makes for a class without constructor).
    pub fn pass_function(&mut self) -> *mut FuncEntry {
        if self.pass.is_none() {
            let mut op = OpArray::new(Vec::new(), Arc::from(""));
            op.arg_info.push(crate::ops::ArgInfo { name: b"args".to_vec(), variadic: true, ..Default::default() });
            let f = Box::new(Function { op, builtin: Some(|_, _, _| Ok(())), decl: None });
            self.pass = Some(FuncEntry::new(&*f));
            self.pass_func = Some(f);
        }
        &mut **self.pass.as_mut().expect("made above")
    }

    /// A handle another thread may use to interrupt this context.
    pub fn interrupt_handle(&self) -> Arc<AtomicBool> {
        self.interrupt.clone()
    }

    #[inline(always)]
    pub fn interrupt_pending(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// Serves an interrupt; `Some` ends the run.
    pub fn on_interrupt(&mut self) -> Option<Ret> {
        self.interrupt.store(false, Ordering::Relaxed);
        if let Some(d) = self.deadline {
            if std::time::Instant::now() >= d {
                let msg = format!("Maximum execution time of {} second{} exceeded", self.time_limit_secs,
                    if self.time_limit_secs == 1 { "" } else { "s" });
                self.fatal(&msg);
                return Some(Ret::Stop);
            }
        }
        // Anything else that raised the flag is the host asking to stop.
        self.stop = Some(Stop::Cancelled);
        Some(Ret::Stop)
    }

    pub fn cancel(&mut self) {
        self.stop = Some(Stop::Cancelled);
        self.interrupt.store(true, Ordering::Relaxed);
    }

    // ---- output ----

    #[inline]
    pub fn echo(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
        if self.out.len() >= 64 * 1024 {
            self.flush();
        }
    }

    pub fn flush(&mut self) {
        if let Sink::Stdout = self.sink {
            use std::io::Write;
            let mut so = std::io::stdout().lock();
            let _ = so.write_all(&self.out);
            let _ = so.flush();
            self.out.clear();
        }
    }

    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    // ---- where we are ----

    /// File and line of the opline the current frame is executing.
    pub fn location(&self) -> (Arc<str>, u32) {
        // SAFETY: `cur` is null or the live frame being executed, whose
        // `opline` was saved before any call that can report.
        unsafe {
            let mut f = self.cur;
            while !f.is_null() {
                let func = (*f).func;
                if !func.is_null() && (*func).is_user() {
                    let line = if (*f).opline.is_null() { (*func).op.line_start } else { (*(*f).opline).lineno };
                    return ((*func).op.filename.clone(), line);
                }
                f = (*f).prev;
            }
        }
        (Arc::from(""), 0)
    }

    /// The op array of the current user frame.
    pub fn current_op_array(&self) -> Option<&OpArray> {
        // SAFETY: as in `location`.
        unsafe {
            let f = self.cur;
            if f.is_null() || (*f).func.is_null() {
                return None;
            }
            Some(&(*(*f).func).op)
        }
    }

    // ---- diagnostics ----

    pub fn report(&mut self, level: Level, msg: &[u8]) {
        if self.error_reporting & level.bit() == 0 && level != Level::Fatal {
            return;
        }
        let (file, line) = self.location();
        self.report_at(level, msg, &file, line);
    }

    /// Prints a diagnostic as php-cli does: `PHP Warning:  …` on stderr (its
    /// log) and `\nWarning: … in FILE on line N\n` in the output.
    pub fn report_at(&mut self, level: Level, msg: &[u8], file: &str, line: u32) {
        let mut text = Vec::with_capacity(msg.len() + 64);
        text.extend_from_slice(b"\n");
        text.extend_from_slice(level.label().as_bytes());
        text.extend_from_slice(b": ");
        text.extend_from_slice(msg);
        text.extend_from_slice(format!(" in {} on line {}\n", file, line).as_bytes());
        if self.log_to_stderr {
            use std::io::Write;
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "PHP {}:  ", level.label());
            let _ = e.write_all(msg);
            let _ = writeln!(e, " in {} on line {}", file, line);
        }
        self.echo(&text);
    }

    pub fn warning(&mut self, msg: &str) {
        self.report(Level::Warning, msg.as_bytes());
    }
    pub fn warning_bytes(&mut self, msg: &[u8]) {
        self.report(Level::Warning, msg);
    }
    pub fn notice(&mut self, msg: &str) {
        self.report(Level::Notice, msg.as_bytes());
    }
    pub fn deprecated(&mut self, msg: &str) {
        self.report(Level::Deprecated, msg.as_bytes());
    }

    /// A fatal error: reported, and the script stops with status 255.
    pub fn fatal(&mut self, msg: &str) {
        self.report(Level::Fatal, msg.as_bytes());
        self.stop = Some(Stop::Fatal(msg.to_string()));
    }

    /// A Tusk limitation or bug surfaced as a fatal error, never a panic.
    pub fn fatal_internal(&mut self, msg: &str) {
        self.fatal(msg);
    }

    /// Raises a PHP exception of a builtin class with `msg` at the current
    /// location (the object records where it was made, as `new` does).
    pub fn throw_error(&mut self, class: &'static str, msg: &str) -> Thrown {
        let c = crate::runtime::classes::find_class(self, class.as_bytes())
            .or_else(|| crate::runtime::classes::find_class(self, b"error"));
        let Some(c) = c else {
            self.fatal(msg);
            return Thrown;
        };
        // SAFETY: builtin classes are bound for the whole request.
        match unsafe { crate::exec::slow::object::instantiate(self, c) } {
            Ok(o) => {
                // SAFETY: `o` is the new object, owned here.
                unsafe {
                    let m = crate::runtime::builtin_classes::prop_slot(o, b"message");
                    if !m.is_null() {
                        let old = *m;
                        *m = Zval::string(crate::value::ZString::new(msg.as_bytes()));
                        old.ptr_dtor();
                    }
                }
                self.exception = Some(Exception::new(o));
            }
            Err(_) => {}
        }
        Thrown
    }

    pub fn memory_exhausted(&mut self, tried: usize) {
        let msg = format!("Allowed memory size of {} bytes exhausted (tried to allocate {} bytes)", self.memory_limit, tried);
        self.fatal(&msg);
    }

    // ---- functions ----

    /// The function table entry for `name` (any case), user or builtin.
    pub fn find_function(&mut self, name: &[u8]) -> Option<*mut FuncEntry> {
        let mut lc = name.to_ascii_lowercase();
        if lc.first() == Some(&b'\\') {
            lc.remove(0);
        }
        if let Some(e) = self.functions.get_mut(&lc) {
            return Some(&mut **e as *mut FuncEntry);
        }
        let def = crate::stdlib::find_builtin(&lc)?;
        let func = Box::new(builtin_function(def));
        let entry = FuncEntry::new(&*func);
        self.builtin_funcs.push(func);
        let slot = self.functions.entry(lc).or_insert(entry);
        Some(&mut **slot as *mut FuncEntry)
    }

    /// Declares a user function; false when the name is taken.
    pub fn declare_function(&mut self, func: *const Function) -> bool {
        // SAFETY: functions live in programs kept alive by `self.programs`.
        let lc = unsafe { (*func).op.name.to_ascii_lowercase() };
        if self.functions.contains_key(&lc) || crate::stdlib::find_builtin(&lc).is_some() {
            return false;
        }
        self.functions.insert(lc, FuncEntry::new(func));
        true
    }
}

impl Drop for Vm {
    fn drop(&mut self) {
        let _current = CurrentGuard::enter(self);
        for v in self.constants.values() {
            // SAFETY: the table owns its constants.
            unsafe { v.ptr_dtor() };
        }
        let scratch = core::mem::replace(&mut self.dim_scratch, Zval::NULL);
        // SAFETY: the VM owns the scratch value.
        unsafe { scratch.ptr_dtor() };
        self.release_tick_functions();
        // Static properties and variables may hold arrays whose keys are
        // literals of a program: release them while the programs live
        // (fields drop in declaration order, programs first).
        self.classes.clear();
        self.functions.clear();
        self.anon_entries.clear();
        self.flush();
    }
}

/// The trampoline's body: `__call($name, $args)` on the frame's `$this`
/// (or `__callStatic` on its called scope).
fn magic_call_trampoline(vm: &mut Vm, args: &[Zval], ret: &mut Zval) -> Result<(), Thrown> {
    let f = vm.cur;
    let Some(i) = vm.pending_magic.iter().rposition(|p| p.0 == f) else { return Ok(()) };
    let (_, m, name) = vm.pending_magic.remove(i);
    // SAFETY: `f` is the running trampoline frame.
    let this = unsafe { (*f).this_obj() };
    let a = ZArray::new();
    for v in args {
        // SAFETY: `a` is a new array owned here.
        unsafe { (*a).append(v.copy_deref()) };
    }
    // Named arguments go into the array under their names.
    // SAFETY: `f` is the running trampoline frame; `a` is owned here.
    unsafe {
        if let Some(extra) = crate::exec::slow::named::take_extra(vm, f) {
            for (k, v) in crate::exec::slow::named::named_pairs(extra.arr()) {
                let k = crate::value::ZString::new(&k);
                (*a).update_str(k, v.copy_deref());
                Zval::string(k).ptr_dtor();
            }
            extra.ptr_dtor();
        }
    }
    let n = Zval::string(crate::value::ZString::new(&name));
    let arr = Zval::array(a);
    // SAFETY: `this` is null or the frame's live object.
    let r = unsafe { crate::exec::slow::object::call_method(vm, this, m, &[n, arr]) };
    // SAFETY: both are owned here.
    unsafe {
        n.ptr_dtor();
        arr.ptr_dtor();
    }
    *ret = r?;
    Ok(())
}

/// A `Function` record for a builtin (name and parameter info, no code).
pub fn builtin_function(def: &'static crate::stdlib::BuiltinDef) -> Function {
    let mut op = OpArray::new(def.name.as_bytes().to_vec(), Arc::from(""));
    for p in def.params() {
        op.arg_info.push(crate::ops::ArgInfo { name: p.name.as_bytes().to_vec(), by_ref: p.by_ref, variadic: p.variadic, ..Default::default() });
    }
    op.num_args = def.params().filter(|p| !p.variadic).count() as u32;
    op.required_args = def.required;
    Function { op, builtin: Some(def.f), decl: Some(def) }
}
