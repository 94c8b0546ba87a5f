//! Calling PHP callables from builtins (`array_map`, `usort`, …) and the
//! callable checks (`is_callable`), over `exec::slow::closure::resolve`.

use crate::exec::{Thrown, Vm};
use crate::value::Zval;

/// A resolved callable: the function with its `$this` and scope (borrowed
/// from the callable value, which the builtin's caller keeps alive).
#[derive(Clone, Copy)]
pub struct Callable {
    r: crate::exec::slow::closure::Resolved,
}

/// Resolves `v` to a function, or the reason PHP gives when it can't
/// (`function "f" not found or invalid function name`).
pub fn resolve(vm: &mut Vm, v: &Zval) -> Result<Callable, String> {
    // SAFETY: `v` is a live value.
    unsafe { crate::exec::slow::closure::resolve(vm, v) }.map(|r| Callable { r })
}

/// A callable parameter: `name(): Argument #n ($param) must be a valid callback, …`.
pub fn arg(vm: &mut Vm, name: &str, n: usize, param: &str, v: &Zval, or_null: bool) -> Result<Callable, Thrown> {
    match resolve(vm, v) {
        Ok(c) => Ok(c),
        Err(why) => {
            let msg = format!("{}(): Argument #{} (${}) must be a valid callback{}, {}", name, n, param, if or_null { " or null" } else { "" }, why);
            Err(vm.throw_error("TypeError", &msg))
        }
    }
}

impl Callable {
    /// Whether parameter `i` (0-based) is by reference.
    pub fn by_ref(&self, i: usize) -> bool {
        // SAFETY: entries live as long as the callable value.
        let op = unsafe { &(*(*self.r.entry).func).op };
        match op.arg_info.get(i) {
            Some(a) if !a.variadic => a.by_ref,
            _ => op.arg_info.last().is_some_and(|a| a.variadic && a.by_ref),
        }
    }

    /// The number of declared parameters (the variadic one excluded).
    pub fn num_params(&self) -> usize {
        // SAFETY: as in `by_ref`.
        unsafe { (*(*self.r.entry).func).op.num_args as usize }
    }

    /// Calls it with `args` (borrowed: by-value parameters get the values
    /// behind references, by-reference ones the references as given).
    pub fn call(&self, vm: &mut Vm, args: &[Zval]) -> Result<Zval, Thrown> {
        let pass: Vec<Zval> = args.iter().enumerate().map(|(i, a)| if self.by_ref(i) { *a } else { *a.deref() }).collect();
        // SAFETY: the entry, `$this` and closure outlive the call (the
        // caller holds the callable value); `pass` are live values.
        unsafe { crate::exec::slow::closure::call_resolved(vm, self.r, &pass) }
    }

    /// `forward_static_call`: the call keeps the caller's `static` when it
    /// is a subclass of the class the callable names (Zend's
    /// `fci_cache.called_scope = called_scope`).
    pub fn forward_static(&mut self, caller_static: *const crate::runtime::class::Class) {
        // SAFETY: bound classes outlive the call.
        if !caller_static.is_null() && !self.r.called.is_null() && unsafe { (*caller_static).is_subclass_of(self.r.called) } {
            self.r.called = caller_static;
        }
    }

    /// Calls it with positional `args` and `named` ones (both borrowed),
    /// as `f(...$args, name: value)`.
    pub fn call_named(&self, vm: &mut Vm, args: &[Zval], named: &[(Vec<u8>, Zval)]) -> Result<Zval, Thrown> {
        if named.is_empty() {
            return self.call(vm, args);
        }
        let pass: Vec<Zval> = args.iter().enumerate().map(|(i, a)| if self.by_ref(i) { *a } else { *a.deref() }).collect();
        // SAFETY: as in `call`; `bind_named` returns owned values, released here.
        unsafe {
            let (all, extra) = crate::exec::slow::named::bind_named(vm, self.r.entry, self.r.called, &pass, named)?;
            let old = core::mem::replace(&mut vm.pending_named, extra);
            old.ptr_dtor();
            let r = crate::exec::slow::closure::call_resolved(vm, self.r, &all);
            let left = core::mem::replace(&mut vm.pending_named, Zval::UNDEF);
            left.ptr_dtor();
            for a in all {
                a.ptr_dtor();
            }
            r
        }
    }

    /// The function's name as declared.
    pub fn name(&self) -> String {
        // SAFETY: as in `by_ref`.
        unsafe { String::from_utf8_lossy((*(*self.r.entry).func).name()).into_owned() }
    }
}
