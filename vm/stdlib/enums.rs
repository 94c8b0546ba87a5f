//! The methods every enum gets (Zend's `zend_enum.c`): `cases()`, and for
//! backed enums `from()` and `tryFrom()`.

use crate::exec::slow::object::enum_case;
use crate::exec::{Thrown, Vm};
use crate::runtime::class::{Class, CLASS_ENUM_INT};
use crate::value::{ZArray, Zval, IS_LONG, IS_NULL};

/// The enum whose builtin method is running.
fn enum_scope(vm: &Vm) -> *const Class {
    // SAFETY: a builtin method runs in its own frame (`vm.cur`), whose entry
    // was bound with the enum as its scope.
    unsafe { (*(*vm.cur).entry).scope }
}

/// The object of the enum's `i`th case.
unsafe fn case_at(vm: &mut Vm, c: *const Class, i: usize) -> Result<Zval, Thrown> {
    let name = &(&(*c).cases)[i];
    let cell = *(*c).consts.get(name).expect("an enum case has a constant");
    enum_case(vm, cell, name)
}

/// `E::cases()`: every case, in declaration order.
pub fn cases(vm: &mut Vm, _args: &[Zval], ret: &mut Zval) -> Result<(), Thrown> {
    let c = enum_scope(vm);
    let a = ZArray::new();
    *ret = Zval::array(a);
    // SAFETY: `c` is the bound enum; `a` is the fresh array `ret` owns.
    unsafe {
        for i in 0..(*c).cases.len() {
            let v = case_at(vm, c, i)?;
            (*a).append(v);
        }
    }
    Ok(())
}

/// Computes every case of backed enum `c` once, checking the backing values'
/// types and that no two cases share one (`zend_enum_build_backed_enum_table`).
///
/// # Safety
/// `c` is a bound class.
pub unsafe fn check_backing(vm: &mut Vm, c: *const Class) -> Result<(), Thrown> {
    if *(*c).enum_checked.get() {
        return Ok(());
    }
    *(*c).enum_checked.get() = true;
    if (*c).flags & (CLASS_ENUM_INT | crate::runtime::class::CLASS_ENUM_STRING) == 0 {
        return Ok(());
    }
    let mut seen: Vec<(Zval, usize)> = Vec::new();
    let mut r = Ok(());
    for i in 0..(*c).cases.len() {
        let v = match case_at(vm, c, i) {
            Ok(v) => v,
            Err(t) => {
                *(*c).enum_checked.get() = false;
                r = Err(t);
                break;
            }
        };
        let b = backing(v);
        v.ptr_dtor();
        if let Some(&(_, j)) = seen.iter().find(|(x, _)| same_key(x, &b)) {
            let msg = format!(
                "Duplicate value in enum {} for cases {} and {}",
                (*c).name_str(),
                String::from_utf8_lossy(&(&(*c).cases)[j]),
                String::from_utf8_lossy(&(&(*c).cases)[i])
            );
            *(*c).enum_checked.get() = false;
            b.ptr_dtor();
            r = Err(vm.throw_error("Error", &msg));
            break;
        }
        seen.push((b, i));
    }
    for (v, _) in seen {
        v.ptr_dtor();
    }
    r
}

/// A case object's backing value (a copy).
unsafe fn backing(case: Zval) -> Zval {
    let p = crate::runtime::builtin_classes::prop_slot(case.obj(), b"value");
    if p.is_null() {
        Zval::NULL
    } else {
        (*p).copy_value()
    }
}

/// Two backing values of one enum (both ints or both strings) are equal.
unsafe fn same_key(a: &Zval, b: &Zval) -> bool {
    if a.kind() != b.kind() {
        return false;
    }
    if a.kind() == IS_LONG {
        a.lval() == b.lval()
    } else {
        (*a.str()).bytes() == (*b.str()).bytes()
    }
}

/// `from()`/`tryFrom()`: the case whose value is args[0], or None.
fn lookup(vm: &mut Vm, args: &[Zval], method: &str) -> Result<Option<Zval>, Thrown> {
    let c = enum_scope(vm);
    // SAFETY: `c` is the bound enum.
    unsafe {
        let fname = format!("{}::{method}", (*c).name_str());
        super::args::count(vm, &fname, args, 1, 1)?;
        let int = (*c).flags & CLASS_ENUM_INT != 0;
        let arg = args[0].deref();
        let key = if arg.kind() == IS_NULL {
            vm.deprecated(&format!("{fname}(): Passing null to parameter #1 ($value) of type string|int is deprecated"));
            if int {
                Zval::long(0)
            } else {
                Zval::string(crate::value::ZString::new(b""))
            }
        } else if int {
            Zval::long(super::args::long(vm, &fname, 1, "value", arg)?)
        } else {
            Zval::string(crate::value::ZString::new(&super::args::string(vm, &fname, 1, "value", arg)?))
        };
        let r = find_case(vm, c, &key);
        let found = match r {
            Ok(f) => f,
            Err(t) => {
                key.ptr_dtor();
                return Err(t);
            }
        };
        if found.is_none() && method == "from" {
            let shown = if int {
                key.lval().to_string()
            } else {
                format!("\"{}\"", String::from_utf8_lossy((*key.str()).bytes()))
            };
            key.ptr_dtor();
            return Err(vm.throw_error("ValueError", &format!("{shown} is not a valid backing value for enum {}", (*c).name_str())));
        }
        key.ptr_dtor();
        Ok(found)
    }
}

unsafe fn find_case(vm: &mut Vm, c: *const Class, key: &Zval) -> Result<Option<Zval>, Thrown> {
    check_backing(vm, c)?;
    for i in 0..(*c).cases.len() {
        let v = case_at(vm, c, i)?;
        let b = backing(v);
        let hit = same_key(&b, key);
        b.ptr_dtor();
        if hit {
            return Ok(Some(v));
        }
        v.ptr_dtor();
    }
    Ok(None)
}

/// `E::from($value)`: the case, or a ValueError.
pub fn from(vm: &mut Vm, args: &[Zval], ret: &mut Zval) -> Result<(), Thrown> {
    if let Some(v) = lookup(vm, args, "from")? {
        *ret = v;
    }
    Ok(())
}

/// `E::tryFrom($value)`: the case, or null.
pub fn try_from(vm: &mut Vm, args: &[Zval], ret: &mut Zval) -> Result<(), Thrown> {
    if let Some(v) = lookup(vm, args, "tryFrom")? {
        *ret = v;
    }
    Ok(())
}
