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
