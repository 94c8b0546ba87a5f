//! Calling PHP callables from builtins (`array_map`, `usort`, …) and the
//! callable checks (`is_callable`). Callables are function names for now;
//! closures and `[$obj, 'method']` arrive with objects.

use crate::exec::{Thrown, Vm};
use crate::runtime::function::FuncEntry;
use crate::value::{Zval, IS_ARRAY, IS_STRING};

/// A resolved callable.
#[derive(Clone, Copy)]
pub struct Callable {
    entry: *mut FuncEntry,
}

/// Resolves `v` to a function, or the reason PHP gives when it can't
/// (`function "f" not found or invalid function name`).
pub fn resolve(vm: &mut Vm, v: &Zval) -> Result<Callable, String> {
    let v = v.deref();
    match v.kind() {
        IS_STRING => {
            // SAFETY: string-kind values hold a live string.
            let name = unsafe { (*v.str()).bytes() }.to_vec();
            let lookup = if name.contains(&b':') { None } else { vm.find_function(&name) };
            match lookup {
                Some(entry) => Ok(Callable { entry }),
                None if name.windows(2).any(|w| w == b"::") => {
                    let class = &name[..name.windows(2).position(|w| w == b"::").unwrap_or(0)];
                    Err(format!("class \"{}\" not found", String::from_utf8_lossy(class)))
                }
                None => Err(format!("function \"{}\" not found or invalid function name", String::from_utf8_lossy(&name))),
            }
        }
        // SAFETY: array-kind values hold a live array.
        IS_ARRAY if unsafe { (*v.arr()).len() } != 2 => Err("array callback must have exactly two members".into()),
        IS_ARRAY => Err("first array member is not a valid class name or object".into()),
        _ => Err("no array or string given".into()),
    }
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
        // SAFETY: entries live as long as the context's function table.
        let op = unsafe { &(*(*self.entry).func).op };
        match op.arg_info.get(i) {
            Some(a) if !a.variadic => a.by_ref,
            _ => op.arg_info.last().is_some_and(|a| a.variadic && a.by_ref),
        }
    }

    /// The number of declared parameters (the variadic one excluded).
    pub fn num_params(&self) -> usize {
        // SAFETY: as in `by_ref`.
        unsafe { (*(*self.entry).func).op.num_args as usize }
    }

    /// Calls it with `args` (borrowed: by-value parameters get the values
    /// behind references, by-reference ones the references as given).
    pub fn call(&self, vm: &mut Vm, args: &[Zval]) -> Result<Zval, Thrown> {
        // SAFETY: entries and their functions outlive the call; `args` are
        // valid values the caller keeps alive.
        unsafe {
            let func = (*self.entry).func;
            if let Some(f) = (*func).builtin {
                let mut r = Zval::NULL;
                let pass: Vec<Zval> = args.iter().enumerate().map(|(i, a)| if self.by_ref(i) { *a } else { *a.deref() }).collect();
                return match f(vm, &pass, &mut r) {
                    Ok(()) => Ok(r),
                    Err(t) => {
                        r.ptr_dtor();
                        Err(t)
                    }
                };
            }
            let pass: Vec<Zval> = args.iter().enumerate().map(|(i, a)| if self.by_ref(i) { *a } else { *a.deref() }).collect();
            let mut r = Zval::NULL;
            vm.call_from_builtin(func, self.entry, &pass, &mut r)?;
            Ok(r)
        }
    }

    /// The function's name as declared.
    pub fn name(&self) -> String {
        // SAFETY: as in `by_ref`.
        unsafe { String::from_utf8_lossy((*(*self.entry).func).name()).into_owned() }
    }
}
