//! Functions and this context's function table.

use crate::exec::{Thrown, Vm};
use crate::ops::OpArray;
use crate::value::Zval;

/// A builtin: reads its arguments (borrowed; the caller frees them) and
/// writes its result into `ret` (initially NULL).
pub type BuiltinFn = fn(vm: &mut Vm, args: &[Zval], ret: &mut Zval) -> Result<(), Thrown>;

/// A function: user code (an op array) or a builtin with its signature.
pub struct Function {
    /// For builtins `op` holds only the name and argument info.
    pub op: OpArray,
    pub builtin: Option<BuiltinFn>,
    /// A builtin's declaration (defaults, types, return type).
    pub decl: Option<&'static BuiltinDef>,
}

/// One declared parameter of a builtin.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinArg {
    pub name: &'static str,
    /// The declared type as PHP's messages print it (`?int`,
    /// `array|string`); empty when none was declared (mixed).
    pub ty: &'static str,
    pub by_ref: bool,
    pub variadic: bool,
    /// The default as PHP source (`" "`, `STR_PAD_RIGHT`, `null`); `None`
    /// for required parameters and for optional ones without a default
    /// (`UNKNOWN` in php-src's stubs).
    pub default: Option<&'static str>,
}

/// A builtin function's (or method's) declaration: made by
/// `#[builtin("stub")]` (see `tusk_macros`, docs/decisions/001), or an entry of the legacy
/// table below that still lists parameter names as strings (`legacy`).
pub struct BuiltinDef {
    /// The PHP name (`Class::method` for methods).
    pub name: &'static str,
    pub f: BuiltinFn,
    /// Declared parameters (empty for legacy entries).
    pub args: &'static [BuiltinArg],
    /// Legacy entries: parameter names; a leading `&` marks a by-reference
    /// parameter, a leading `...` a variadic one; `=` and a default after
    /// an optional one lets named arguments skip it.
    pub legacy: &'static [&'static str],
    pub required: u32,
    /// The declared return type as PHP prints it (empty: none).
    pub ret: &'static str,
    pub is_static: bool,
}

impl BuiltinDef {
    /// The parameters, declared or parsed from the legacy strings.
    pub fn params(&self) -> impl Iterator<Item = BuiltinArg> + '_ {
        let legacy = self.legacy.iter().map(|p| {
            let (head, default) = match p.split_once('=') {
                Some((h, d)) => (h, Some(d.trim())),
                None => (*p, None),
            };
            let variadic = head.starts_with("...");
            let by_ref = head.trim_start_matches("...").starts_with('&');
            BuiltinArg { name: crate::stdlib::param_name(p), ty: "", by_ref, variadic, default }
        });
        self.args.iter().copied().chain(legacy)
    }

    /// Parameter `i` (0-based).
    pub fn param(&self, i: usize) -> Option<BuiltinArg> {
        self.params().nth(i)
    }
}



impl Function {
    #[inline(always)]
    pub fn is_user(&self) -> bool {
        self.builtin.is_none()
    }
    pub fn name(&self) -> &[u8] {
        &self.op.name
    }
}

/// One context's record of a function: the runtime cache of its op array and
/// its `static` variables. Boxed, so pointers to it stay valid.
pub struct FuncEntry {
    pub func: *const Function,
    /// Runtime-cache slots, allocated at the first call.
    pub rt_cache: Vec<usize>,
    /// `static` variables, one slot each (bound lazily by BIND_STATIC).
    pub statics: Vec<Zval>,
    pub statics_init: bool,
    /// The class a method belongs to (`self`), null for plain functions.
    pub scope: *const crate::runtime::class::Class,
    /// The closure object that owns this entry (null otherwise).
    pub closure: *mut crate::value::object::ZObject,
    /// A trait method imported under an alias (`use T { m as n; }`): the
    /// name it has in its class (empty: the function's own name).
    pub alias: Vec<u8>,
}

impl FuncEntry {
    pub fn new(func: *const Function) -> Box<FuncEntry> {
        // SAFETY: `func` is owned by a program or the builtin registry, which outlives the context.
        let n = unsafe { (*func).op.cache_slots } as usize;
        Box::new(FuncEntry { func, rt_cache: vec![0; n.max(1)], statics: Vec::new(), statics_init: false, scope: core::ptr::null(), closure: core::ptr::null_mut(), alias: Vec::new() })
    }
}

impl FuncEntry {
    /// The name the function is called by (its alias, if imported under one).
    pub fn name(&self) -> &[u8] {
        if self.alias.is_empty() {
            // SAFETY: as in `new`.
            unsafe { (*self.func).name() }
        } else {
            &self.alias
        }
    }
}

impl Drop for FuncEntry {
    fn drop(&mut self) {
        for v in &self.statics {
            // SAFETY: the entry owns its static variables.
            unsafe { v.ptr_dtor() };
        }
    }
}
