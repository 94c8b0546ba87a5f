//! Variables by name: a frame's symbol table (Zend's `EX(symbol_table)`).
//!
//! The variables a function names in its code are its CVs, slots of its
//! frame. A variable made by name at run time that is not one of them
//! (`$$n = 1`, `extract()`, `global $$n`, `$GLOBALS[$n] = 1`) lives in the
//! frame's *dynamic variables*, kept in `Vm::symtabs` and freed after the
//! CVs when the frame leaves (the frame carries `CALL_SYMTAB` while it has
//! any). Looking a name up tries the CVs first, then the dynamic
//! variables, so the pair behaves as Zend's symbol table whose CV entries
//! are INDIRECT to the frame's slots. The main script's frame holds the
//! globals.
//!
//! Each dynamic variable is boxed, so a pointer to it (the INDIRECT result
//! of a FETCH_W) stays valid while the table grows. `unset` leaves an
//! UNDEF tombstone; tombstones are dropped only when a new name is added,
//! the moment Zend's hash would rehash and move its values too.

use super::slow::call::CALL_SYMTAB;
use super::{Frame, Vm};
use crate::value::Zval;

/// The dynamic variables of one frame, in the order they were made.
pub struct DynVars {
    frame: *mut Frame,
    vars: Vec<(Box<[u8]>, Box<Zval>)>,
}

/// The frame's CV named `name`.
unsafe fn cv_slot(f: *mut Frame, name: &[u8]) -> Option<*mut Zval> {
    let op = &(*(*f).func).op;
    let i = op.cv_names.iter().position(|n| n.as_slice() == name)?;
    Some(Frame::slot(f, i as u32))
}

fn table_index(vm: &Vm, f: *mut Frame) -> Option<usize> {
    vm.symtabs.iter().rposition(|t| t.frame == f)
}

/// The variable `name` of the user frame `f` (a CV slot, possibly UNDEF,
/// or a dynamic variable), or null if it has none of that name.
///
/// # Safety
/// `f` is a live user frame.
pub unsafe fn find(vm: &mut Vm, f: *mut Frame, name: &[u8]) -> *mut Zval {
    if let Some(p) = cv_slot(f, name) {
        return p;
    }
    if (*f).this.type_info & CALL_SYMTAB == 0 {
        return core::ptr::null_mut();
    }
    match table_index(vm, f) {
        Some(t) => match vm.symtabs[t].vars.iter_mut().find(|(n, _)| &**n == name) {
            Some((_, v)) => &mut **v,
            None => core::ptr::null_mut(),
        },
        None => core::ptr::null_mut(),
    }
}

/// The variable `name` of the user frame `f`, made (UNDEF) if it has none:
/// the caller stores into it.
///
/// # Safety
/// `f` is a live user frame.
pub unsafe fn find_or_add(vm: &mut Vm, f: *mut Frame, name: &[u8]) -> *mut Zval {
    let p = find(vm, f, name);
    if !p.is_null() {
        return p;
    }
    let t = match table_index(vm, f) {
        Some(t) => t,
        None => {
            (*f).this.type_info |= CALL_SYMTAB;
            vm.symtabs.push(DynVars { frame: f, vars: Vec::new() });
            vm.symtabs.len() - 1
        }
    };
    let vars = &mut vm.symtabs[t].vars;
    let dead = vars.iter().filter(|(_, v)| v.is_undef()).count();
    if dead > 16 && dead * 2 > vars.len() {
        vars.retain(|(_, v)| !v.is_undef());
    }
    vars.push((name.into(), Box::new(Zval::UNDEF)));
    &mut *vars.last_mut().expect("just pushed").1
}

/// Unsets the variable `name` of the user frame `f` (`unset($$n)`).
///
/// # Safety
/// `f` is a live user frame.
pub unsafe fn remove(vm: &mut Vm, f: *mut Frame, name: &[u8]) {
    let p = find(vm, f, name);
    if !p.is_null() {
        let old = *p;
        *p = Zval::UNDEF;
        old.ptr_dtor();
    }
}

/// The defined variables of the user frame `f`, in symbol-table order
/// (CVs, then dynamic variables), as (name, slot) pairs.
///
/// # Safety
/// `f` is a live user frame; the slots are valid until the frame's
/// variables change.
pub unsafe fn defined(vm: &Vm, f: *mut Frame) -> Vec<(Vec<u8>, *mut Zval)> {
    let op = &(*(*f).func).op;
    let mut out = Vec::new();
    for (i, n) in op.cv_names.iter().enumerate() {
        let p = Frame::slot(f, i as u32);
        if !(*p).is_undef() {
            out.push((n.clone(), p));
        }
    }
    if (*f).this.type_info & CALL_SYMTAB != 0 {
        if let Some(t) = table_index(vm, f) {
            for (n, v) in &vm.symtabs[t].vars {
                if !v.is_undef() {
                    let p: *const Zval = &**v;
                    out.push((n.to_vec(), p as *mut Zval));
                }
            }
        }
    }
    out
}

/// The names of the user frame `f`'s defined dynamic variables, in order.
///
/// # Safety
/// `f` is a live user frame.
pub unsafe fn dynamic_names(vm: &Vm, f: *mut Frame) -> Vec<Vec<u8>> {
    if (*f).this.type_info & CALL_SYMTAB == 0 {
        return Vec::new();
    }
    match table_index(vm, f) {
        Some(t) => vm.symtabs[t].vars.iter().filter(|(_, v)| !v.is_undef()).map(|(n, _)| n.to_vec()).collect(),
        None => Vec::new(),
    }
}

/// Frees the dynamic variables of a frame that leaves (after its CVs, as
/// Zend's leave helper frees the symbol table after the CVs). Values are
/// released in the order they were made; a destructor that runs may make
/// new ones, which are freed too.
///
/// # Safety
/// `f` is a user frame whose CVs were just freed.
#[cold]
#[inline(never)]
pub unsafe fn release(vm: *mut Vm, f: *mut Frame) {
    (*f).this.type_info &= !CALL_SYMTAB;
    while let Some(t) = table_index(&*vm, f) {
        let table = (*vm).symtabs.remove(t);
        for (_, v) in table.vars {
            v.ptr_dtor();
        }
    }
    (*f).this.type_info &= !CALL_SYMTAB;
}
