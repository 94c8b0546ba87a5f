//! Array element slow paths: key normalization, reads with their warnings,
//! write fetches (auto-vivification, copy-on-write), string offsets.

use super::{free_op, take};
use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, Opcode, IS_CV, IS_UNUSED, IS_VAR};
use crate::value::{convert, ZArray, ZString, Zval, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_STRING, IS_TRUE, IS_UNDEF};

/// A normalized array key; a string key is borrowed from the operand.
#[derive(Clone, Copy)]
pub enum DimKey {
    Int(i64),
    Str(*mut ZString),
}

/// Normalizes a key value as PHP does ("1" → 1, true → 1, null → "", 1.5 → 1).
pub fn dim_key(vm: &mut Vm, k: &Zval, empty: &mut *mut ZString) -> Result<DimKey, Thrown> {
    let k = k.deref();
    Ok(match k.kind() {
        IS_LONG => DimKey::Int(k.lval()),
        IS_STRING => {
            // SAFETY: a string-kind value holds a live string.
            match unsafe { (*k.str()).numeric_index() } {
                Some(i) => DimKey::Int(i),
                None => DimKey::Str(k.str()),
            }
        }
        IS_NULL | IS_UNDEF => {
            if empty.is_null() {
                *empty = ZString::new(b"");
            }
            DimKey::Str(*empty)
        }
        IS_FALSE => DimKey::Int(0),
        IS_TRUE => DimKey::Int(1),
        IS_DOUBLE => {
            let d = k.dval();
            let i = convert::dval_to_lval(d);
            if d.is_finite() && (i as f64) != d {
                let mut s = Vec::new();
                crate::value::number::fmt_repr(d, &mut s);
                vm.deprecated(&format!("Implicit conversion from float {} to int loses precision", String::from_utf8_lossy(&s)));
            }
            DimKey::Int(i)
        }
        _ => return Err(vm.throw_error("TypeError", "Illegal offset type")),
    })
}

fn key_text(k: DimKey) -> String {
    match k {
        DimKey::Int(i) => i.to_string(),
        // SAFETY: the key string is alive while its operand is.
        DimKey::Str(s) => format!("\"{}\"", String::from_utf8_lossy(unsafe { (*s).bytes() })),
    }
}

/// Releases the temporary empty-string key, if one was made.
unsafe fn drop_empty(e: *mut ZString) {
    if !e.is_null() {
        Zval::string(e).ptr_dtor();
    }
}

pub unsafe fn find(a: &ZArray, k: DimKey) -> Option<*mut Zval> {
    match k {
        DimKey::Int(i) => a.find_int(i),
        DimKey::Str(s) => a.find_str(&*s),
    }
}

/// `op1[op2]` for reading (`is`: isset-style, no warnings).
#[cold]
#[inline(never)]
pub unsafe fn fetch_dim_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op, is: bool) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let c = if is { operand::any_deref_1(ip, fp) } else { operand::any_read_1(ip, fp, vm) };
    let c = (*c).deref();
    let kz = if is { operand::any_deref_2(ip, fp) } else { operand::any_read_2(ip, fp, vm) };
    read_dim(vm, c, &*kz, is)
}

/// FETCH_DIM_FUNC_ARG for a by-value argument: `op1[op2]` read; `op1[]`
/// is an Error.
#[cold]
#[inline(never)]
pub unsafe fn fetch_dim_func_arg_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    if (*ip).op2_type == crate::ops::IS_UNUSED {
        super::enter(vm, fp, ip);
        return Err(vm.throw_error("Error", "Cannot use [] for reading"));
    }
    fetch_dim_r(vm, fp, ip, false)
}

/// `c[k]` for reading, with PHP's warnings unless `is`.
pub unsafe fn read_dim(vm: &mut Vm, c: &Zval, kz: &Zval, is: bool) -> Result<Zval, Thrown> {
    let c = c.deref();
    if c.is_array() {
        let mut empty = core::ptr::null_mut();
        let k = dim_key(vm, kz, &mut empty)?;
        let r = match find(&*c.arr(), k) {
            Some(v) => (*v).copy_deref(),
            None => {
                if !is {
                    vm.warning(&format!("Undefined array key {}", key_text(k)));
                }
                Zval::NULL
            }
        };
        drop_empty(empty);
        return Ok(r);
    }
    if c.is_string() {
        return string_offset_read(vm, c, kz.deref(), is);
    }
    if c.is_object() {
        let o = c.copy_value();
        let r = array_access_read(vm, o.obj(), kz.deref(), is);
        o.ptr_dtor();
        return r;
    }
    if !is {
        let t = crate::stdlib::type_name(c);
        vm.warning(&format!("Trying to access array offset on value of type {}", t));
    }
    Ok(Zval::NULL)
}

unsafe fn string_offset_read(vm: &mut Vm, c: &Zval, k: &Zval, is: bool) -> Result<Zval, Thrown> {
    let s = (*c.str()).bytes();
    let idx = match k.kind() {
        IS_LONG => k.lval(),
        IS_STRING => match convert::parse_numeric((*k.str()).bytes()).as_int_exact() {
            Some(i) => i,
            None => {
                if is {
                    return Ok(Zval::NULL);
                }
                let msg = format!("Cannot access offset of type {} on string", "string");
                return Err(vm.throw_error("TypeError", &msg));
            }
        },
        IS_NULL | IS_FALSE | IS_TRUE | IS_DOUBLE => {
            if !is {
                vm.warning(&format!("String offset cast occurred"));
            }
            convert::to_long(k)
        }
        _ => {
            if is {
                return Ok(Zval::NULL);
            }
            return Err(vm.throw_error("TypeError", "Cannot access offset of type array on string"));
        }
    };
    let len = s.len() as i64;
    let real = if idx < 0 { idx + len } else { idx };
    if real < 0 || real >= len {
        if !is {
            vm.warning(&format!("Uninitialized string offset {}", idx));
        }
        return Ok(if is { Zval::NULL } else { Zval::string(ZString::new(b"")) });
    }
    Ok(Zval::string(ZString::new(&s[real as usize..real as usize + 1])))
}

/// Makes the container `c` (already dereferenced) writable as an array:
/// auto-vivifies null/undef, separates a shared array. `None` for strings.
pub unsafe fn array_for_write(vm: &mut Vm, c: *mut Zval) -> Result<Option<*mut ZArray>, Thrown> {
    match (*c).kind() {
        k if k == crate::value::IS_ARRAY => Ok(Some(ZArray::separate(c))),
        IS_UNDEF | IS_NULL => {
            *c = Zval::array(ZArray::new());
            Ok(Some((*c).arr()))
        }
        IS_FALSE => {
            vm.deprecated("Automatic conversion of false to array is deprecated");
            *c = Zval::array(ZArray::new());
            Ok(Some((*c).arr()))
        }
        IS_STRING => Ok(None),
        crate::value::IS_OBJECT => {
            let cname = super::call::zend_type_name(&*c);
            Err(vm.throw_error("Error", &format!("Cannot use object of type {cname} as array")))
        }
        _ => Err(vm.throw_error("Error", "Cannot use a scalar value as an array")),
    }
}

/// The element slot `a[k]` for writing (inserted as NULL if missing);
/// `rw` warns for a missing key as a read-modify-write does.
unsafe fn elem_for_write(vm: &mut Vm, a: *mut ZArray, ip: *const Op, fp: *mut Zval, rw: bool) -> Result<*mut Zval, Thrown> {
    if (*ip).op2_type == IS_UNUSED {
        return match (*a).append(Zval::NULL) {
            Some(p) => Ok(p),
            None => Err(vm.throw_error("Error", "Cannot add element to the array as the next element is already occupied")),
        };
    }
    let kz = operand::any_read_2(ip, fp, vm);
    let mut empty = core::ptr::null_mut();
    let k = dim_key(vm, &*kz, &mut empty)?;
    let r = match k {
        // One lookup: the warning for a missing key comes after the NULL
        // is inserted (nothing can observe the array in between).
        DimKey::Int(i) => {
            let (slot, inserted) = (*a).lookup_int_ex(i);
            if rw && inserted {
                vm.warning(&format!("Undefined array key {}", i));
            }
            slot
        }
        DimKey::Str(s) => {
            let (slot, inserted) = (*a).lookup_str_ex(s);
            if rw && inserted {
                vm.warning(&format!("Undefined array key {}", key_text(k)));
            }
            slot
        }
    };
    drop_empty(empty);
    Ok(r)
}

unsafe fn container1(fp: *mut Zval, ip: *const Op) -> *mut Zval {
    let p = if (*ip).op1_type == IS_VAR { operand::var_ptr_1(ip, fp) } else { operand::slot_1(ip, fp) };
    (*p).deref_mut() as *mut Zval
}

/// `&op1[op2]` for writing (`rw`: read-modify-write).
#[cold]
#[inline(never)]
pub unsafe fn fetch_dim_w(vm: &mut Vm, fp: *mut Zval, ip: *const Op, rw: bool) -> Result<*mut Zval, Thrown> {
    super::enter(vm, fp, ip);
    let c = container1(fp, ip);
    if rw && (*ip).op1_type == IS_CV && (*c).is_undef() {
        operand::cv_read_1(ip, fp, vm);
    }
    if (*c).is_object() {
        return array_access_fetch_w(vm, fp, ip, *c);
    }
    match array_for_write(vm, c)? {
        Some(a) => elem_for_write(vm, a, ip, fp, rw),
        None => {
            // `zend_check_string_offset`: a non-numeric offset is a TypeError first.
            if (*ip).op2_type != IS_UNUSED {
                let k = (*operand::any_read_2(ip, fp, vm)).deref();
                let bad = match k.kind() {
                    IS_STRING => convert::parse_numeric((*k.str()).bytes()).as_int_exact().is_none(),
                    IS_LONG | IS_DOUBLE | IS_FALSE | IS_TRUE | IS_NULL => false,
                    _ => true,
                };
                if bad {
                    let t = crate::stdlib::type_name(k);
                    return Err(vm.throw_error("TypeError", &format!("Cannot access offset of type {t} on string")));
                }
            } else {
                return Err(vm.throw_error("Error", "[] operator not supported for strings"));
            }
            // zend_wrong_string_offset: what the fetch is for.
            let next = (*ip.add(1)).opcode;
            let by_ref = next == crate::ops::Opcode::SendFuncArg as u8 || next == crate::ops::Opcode::SendRef as u8;
            Err(vm.throw_error("Error", if by_ref { "Cannot create references to/from string offsets" } else { "Cannot use string offset as an array" }))
        }
    }
}

/// FETCH_DIM_UNSET: `&op1[op2]` on the way to an unset: an existing
/// element (INDIRECT, its array separated), or NULL when there is nothing
/// to unset (nothing is created).
#[cold]
#[inline(never)]
pub unsafe fn fetch_dim_unset(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let c = container1(fp, ip);
    match (*c).kind() {
        k if k == crate::value::IS_ARRAY => {
            let a = ZArray::separate(c);
            let kz = operand::any_read_2(ip, fp, vm);
            let mut empty = core::ptr::null_mut();
            let k = dim_key(vm, &*kz, &mut empty)?;
            let r = match find(&*a, k) {
                Some(p) => Zval::indirect(p),
                None => Zval::NULL,
            };
            drop_empty(empty);
            Ok(r)
        }
        IS_STRING => Err(vm.throw_error("Error", "Cannot unset string offsets")),
        _ => Ok(Zval::NULL),
    }
}

/// `op1[op2] = val`; consumes `val` and op2 on every path.
#[inline(never)]
pub unsafe fn assign_dim(vm: &mut Vm, fp: *mut Zval, ip: *const Op, val: Zval) -> Result<*mut Zval, Thrown> {
    super::enter(vm, fp, ip);
    let c = container1(fp, ip);
    // Fast: unshared array, int key or append.
    if (*c).is_array() && (*c).is_refcounted() && (*(*c).arr()).header.refcount == 1 {
        let a = (*c).arr();
        if (*ip).op2_type == IS_UNUSED {
            if let Some(p) = (*a).append(val) {
                return Ok(p);
            }
        } else {
            let k = operand::any_raw_2(ip, fp);
            if (*k).is_long() {
                let slot = (*a).lookup_int((*k).lval());
                let stored = super::assign::assign(slot, val);
                return Ok(stored);
            }
            // A string key that is no integer ("abc", not "12"): one
            // insert-or-find, no key normalization through `dim_key`.
            if (*k).is_string() && (*(*k).str()).numeric_index().is_none() {
                let slot = (*a).lookup_str((*k).str());
                let stored = super::assign::assign(slot, val);
                free_op(fp, ip, 2);
                return Ok(stored);
            }
        }
    }
    let r = assign_dim_slow(vm, fp, ip, c, val);
    free_op(fp, ip, 2);
    r
}

unsafe fn assign_dim_slow(vm: &mut Vm, fp: *mut Zval, ip: *const Op, c: *mut Zval, val: Zval) -> Result<*mut Zval, Thrown> {
    if (*c).is_object() {
        let o = (*c).copy_value();
        let key = if (*ip).op2_type == IS_UNUSED { Zval::NULL } else { (*operand::any_read_2(ip, fp, vm)).copy_deref() };
        let r = array_access_call(vm, o.obj(), b"offsetset", &[key, val]);
        key.ptr_dtor();
        o.ptr_dtor();
        return match r {
            Ok(x) => {
                x.ptr_dtor();
                Ok(set_scratch(vm, val))
            }
            Err(t) => {
                val.ptr_dtor();
                Err(t)
            }
        };
    }
    match array_for_write(vm, c) {
        Err(t) => {
            val.ptr_dtor();
            Err(t)
        }
        Ok(Some(a)) => match elem_for_write(vm, a, ip, fp, false) {
            Ok(slot) => Ok(super::assign::assign(slot, val)),
            Err(t) => {
                val.ptr_dtor();
                Err(t)
            }
        },
        Ok(None) => {
            let r = assign_string_offset(vm, fp, ip, c, &val);
            val.ptr_dtor();
            r
        }
    }
}

unsafe fn assign_string_offset(vm: &mut Vm, fp: *mut Zval, ip: *const Op, c: *mut Zval, val: &Zval) -> Result<*mut Zval, Thrown> {
    if (*ip).op2_type == IS_UNUSED {
        return Err(vm.throw_error("Error", "[] operator not supported for strings"));
    }
    let k = (*operand::any_read_2(ip, fp, vm)).deref();
    let idx = match k.kind() {
        IS_LONG => k.lval(),
        _ => match convert::parse_numeric(if k.is_string() { (*k.str()).bytes() } else { b"" }).as_int_exact() {
            Some(i) => i,
            None => return Err(vm.throw_error("TypeError", "Cannot access offset of type string on string")),
        },
    };
    let mut bytes = (*(*c).str()).bytes().to_vec();
    let len = bytes.len() as i64;
    let real = if idx < 0 { idx + len } else { idx };
    if real < 0 {
        vm.warning(&format!("Illegal string offset {}", idx));
        return Ok(operand::null_ptr() as *mut Zval);
    }
    let mut vb = Vec::new();
    super::arith::to_string_into(vm, val, &mut vb);
    if vb.is_empty() {
        return Err(vm.throw_error("Error", "Cannot assign an empty string to a string offset"));
    }
    if vb.len() > 1 {
        vm.warning("Only the first byte will be assigned to the string offset");
    }
    let real = real as usize;
    if real >= bytes.len() {
        bytes.resize(real, b' ');
        bytes.push(vb[0]);
    } else {
        bytes[real] = vb[0];
    }
    let old = *c;
    *c = Zval::string(ZString::new(&bytes));
    old.ptr_dtor();
    Ok(c)
}

/// `op1[op2] op= OP_DATA`; returns the new value (owned).
#[cold]
#[inline(never)]
pub unsafe fn assign_dim_op(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let c = container1(fp, ip);
    if (*ip).op1_type == IS_CV && (*c).is_undef() {
        operand::cv_read_1(ip, fp, vm);
    }
    if (*c).is_object() {
        return array_access_assign_op(vm, fp, ip, *c);
    }
    let a = match array_for_write(vm, c)? {
        Some(a) => a,
        None => return Err(vm.throw_error("Error", "Cannot use assign-op operators with string offsets")),
    };
    let slot = elem_for_write(vm, a, ip, fp, true)?;
    let slot = (*slot).deref_mut() as *mut Zval;
    let v = operand::any_read_od(ip, fp, vm);
    let opcode = Opcode::from_u8((*ip).extended_value as u8).unwrap_or(Opcode::Add);
    super::assign::binary_into(vm, opcode, slot, &*v)
}

/// `unset(op1[op2])`.
#[cold]
#[inline(never)]
pub unsafe fn unset_dim(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let c = container1(fp, ip);
    match (*c).kind() {
        k if k == crate::value::IS_ARRAY => {
            let a = ZArray::separate(c);
            let kz = operand::any_read_2(ip, fp, vm);
            let mut empty = core::ptr::null_mut();
            let k = dim_key(vm, &*kz, &mut empty)?;
            match k {
                DimKey::Int(i) => {
                    (*a).remove_int(i);
                }
                DimKey::Str(s) => {
                    (*a).remove_str(&*s);
                }
            }
            drop_empty(empty);
            Ok(())
        }
        IS_STRING => Err(vm.throw_error("Error", "Cannot unset string offsets")),
        crate::value::IS_OBJECT => {
            let o = (*c).copy_value();
            let key = (*operand::any_read_2(ip, fp, vm)).copy_deref();
            let r = array_access_call(vm, o.obj(), b"offsetunset", &[key]);
            key.ptr_dtor();
            o.ptr_dtor();
            r?.ptr_dtor();
            Ok(())
        }
        IS_UNDEF | IS_NULL => {
            if (*ip).op1_type == IS_CV && (*c).is_undef() {
                operand::cv_read_1(ip, fp, vm);
            }
            Ok(())
        }
        IS_FALSE => Ok(()),
        _ => Err(vm.throw_error("Error", "Cannot unset offset in a non-array variable")),
    }
}

/// `isset(op1[op2])` / `empty(op1[op2])` (extended_value bit 0: empty).
#[cold]
#[inline(never)]
pub unsafe fn isset_dim(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let empty_test = (*ip).extended_value & 1 != 0;
    let c = (*operand::any_deref_1(ip, fp)).deref();
    let k = (*operand::any_deref_2(ip, fp)).deref();
    let v = if c.is_array() {
        let mut e = core::ptr::null_mut();
        let key = match dim_key(vm, k, &mut e) {
            Ok(key) => key,
            Err(_) => {
                vm.exception = None;
                return Err(vm.throw_error("TypeError", "Illegal offset type in isset or empty"));
            }
        };
        let r = find(&*c.arr(), key).map(|p| *(*p).deref());
        drop_empty(e);
        r
    } else if c.is_object() {
        let o = c.copy_value();
        let key = k.copy_value();
        let r = array_access_isset(vm, o.obj(), &key, empty_test);
        key.ptr_dtor();
        o.ptr_dtor();
        return r;
    } else if c.is_string() {
        let r = string_offset_read(vm, c, k, true)?;
        if r.kind() == IS_NULL {
            None
        } else {
            let keep = r;
            // The char is owned; decide now and release it.
            let t = super::compare::truthy(&keep);
            let set = true;
            keep.ptr_dtor();
            return Ok(if empty_test { !t } else { set });
        }
    } else {
        None
    };
    Ok(match v {
        None => empty_test,
        Some(v) => {
            if empty_test {
                !super::compare::truthy(&v)
            } else {
                v.kind() != IS_NULL
            }
        }
    })
}

/// Adds op1 under key op2 (UNUSED: next key) to the array in the result
/// slot; consumes op1 and op2 on every path.
#[inline(never)]
pub unsafe fn add_array_element(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let a = (*operand::result(ip, fp)).arr();
    // extended_value bit 0: `&$x` (ZEND_ARRAY_ELEMENT_REF).
    let v = if (*ip).extended_value & 1 != 0 { super::assign::take_ref(fp, ip, 1) } else { take(vm, fp, ip, 1) };
    if (*ip).op2_type == IS_UNUSED {
        if (*a).append(v).is_none() {
            v.ptr_dtor();
            return Err(vm.throw_error("Error", "Cannot add element to the array as the next element is already occupied"));
        }
        return Ok(());
    }
    let kz = operand::any_read_2(ip, fp, vm);
    let mut empty = core::ptr::null_mut();
    let r = match dim_key(vm, &*kz, &mut empty) {
        Ok(DimKey::Int(i)) => {
            (*a).update_int(i, v);
            Ok(())
        }
        Ok(DimKey::Str(s)) => {
            (*a).update_str(s, v);
            Ok(())
        }
        Err(t) => {
            v.ptr_dtor();
            Err(t)
        }
    };
    drop_empty(empty);
    free_op(fp, ip, 2);
    r
}


/// FETCH_LIST_W: result := `&op1[op2]` (INDIRECT) for a list() element
/// taken by reference; op1 (the destructured value) stays alive; op2 is
/// freed on every path. A VAR holding a plain value (a call's result) has
/// no element to refer to: PHP's notice, and the element is read instead.
#[cold]
#[inline(never)]
pub unsafe fn fetch_list_w(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let s = operand::slot_1(ip, fp);
    if (*ip).op1_type == IS_VAR && (*s).kind() != crate::value::IS_INDIRECT && !(*s).is_reference() {
        vm.notice("Attempting to set reference to non referenceable value");
        let r = fetch_list_r(vm, fp, ip)?;
        *operand::result(ip, fp) = r;
        return Ok(());
    }
    let r = fetch_dim_w(vm, fp, ip, false);
    free_op(fp, ip, 2);
    *operand::result(ip, fp) = Zval::indirect(r?);
    Ok(())
}

/// FETCH_LIST_R: `op1[op2]` for a list() element; a container that is no
/// array gives NULL without a warning (Zend's `is_list` read). op1 stays
/// alive; op2 is freed on every path.
#[cold]
#[inline(never)]
pub unsafe fn fetch_list_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let c = (*operand::any_read_1(ip, fp, vm)).deref();
    let r = if c.is_array() {
        let kz = operand::any_read_2(ip, fp, vm);
        read_dim(vm, c, &*kz, false)
    } else {
        Ok(Zval::NULL)
    };
    free_op(fp, ip, 2);
    r
}

// ---------------------------------------------------------------- ArrayAccess

/// Calls `ArrayAccess` method `name` (lowercase) of `o`, or throws PHP's
/// "Cannot use object of type C as array" when its class does not
/// implement the interface (`zend_std_*_dimension`).
unsafe fn array_access_call(vm: &mut Vm, o: *mut crate::value::object::ZObject, name: &[u8], args: &[Zval]) -> Result<Zval, Thrown> {
    let c = (*o).class;
    if !(*c).is_subclass_of_name(b"arrayaccess") {
        return Err(vm.throw_error("Error", &format!("Cannot use object of type {} as array", (*c).name_str())));
    }
    match (*c).find_method(name) {
        Some(m) => super::object::call_method(vm, o, m, args),
        None => Ok(Zval::NULL),
    }
}

/// `$o[k]` read: `offsetGet(k)`; in isset/`??` mode only after
/// `offsetExists(k)` said yes.
unsafe fn array_access_read(vm: &mut Vm, o: *mut crate::value::object::ZObject, k: &Zval, is: bool) -> Result<Zval, Thrown> {
    let key = k.copy_value();
    if is {
        let e = array_access_call(vm, o, b"offsetexists", &[key]);
        let e = match e {
            Ok(e) => e,
            Err(t) => {
                key.ptr_dtor();
                return Err(t);
            }
        };
        let yes = super::compare::truthy(&e);
        e.ptr_dtor();
        if !yes {
            key.ptr_dtor();
            return Ok(Zval::NULL);
        }
    }
    let r = array_access_call(vm, o, b"offsetget", &[key]);
    key.ptr_dtor();
    r
}

/// `isset($o[k])` / `empty($o[k])`.
unsafe fn array_access_isset(vm: &mut Vm, o: *mut crate::value::object::ZObject, key: &Zval, empty_test: bool) -> Result<bool, Thrown> {
    let e = array_access_call(vm, o, b"offsetexists", &[*key])?;
    let exists = super::compare::truthy(&e);
    e.ptr_dtor();
    if !empty_test {
        return Ok(exists);
    }
    if !exists {
        return Ok(true);
    }
    let v = array_access_call(vm, o, b"offsetget", &[*key])?;
    let t = super::compare::truthy(&v);
    v.ptr_dtor();
    Ok(!t)
}

/// Keeps `v` (owned) in the VM's scratch slot and returns the slot.
unsafe fn set_scratch(vm: &mut Vm, v: Zval) -> *mut Zval {
    let old = core::mem::replace(&mut vm.dim_scratch, v);
    old.ptr_dtor();
    &mut vm.dim_scratch
}

/// `&$o[k]` (a nested write through an ArrayAccess object): the value of
/// `offsetGet(k)`; writing into it changes nothing unless it is an object,
/// hence Zend's notice.
unsafe fn array_access_fetch_w(vm: &mut Vm, fp: *mut Zval, ip: *const Op, c: Zval) -> Result<*mut Zval, Thrown> {
    let o = c.copy_value();
    let key = if (*ip).op2_type == IS_UNUSED { Zval::NULL } else { (*operand::any_read_2(ip, fp, vm)).copy_deref() };
    let r = array_access_call(vm, o.obj(), b"offsetget", &[key]);
    key.ptr_dtor();
    let cname = (*(*o.obj()).class).name_str();
    o.ptr_dtor();
    let v = r?;
    if !v.is_object() && !v.is_reference() {
        vm.notice(&format!("Indirect modification of overloaded element of {cname} has no effect"));
    }
    Ok(set_scratch(vm, v))
}

/// `$o[k] op= v`: `offsetGet(k)`, the operation, `offsetSet(k, result)`.
unsafe fn array_access_assign_op(vm: &mut Vm, fp: *mut Zval, ip: *const Op, c: Zval) -> Result<Zval, Thrown> {
    let o = c.copy_value();
    let key = if (*ip).op2_type == IS_UNUSED { Zval::NULL } else { (*operand::any_read_2(ip, fp, vm)).copy_deref() };
    let r = (|| {
        let mut cur = array_access_call(vm, o.obj(), b"offsetget", &[key])?;
        let v = operand::any_read_od(ip, fp, vm);
        let opcode = Opcode::from_u8((*ip).extended_value as u8).unwrap_or(Opcode::Add);
        let nv = super::assign::binary_into(vm, opcode, &mut cur, &*v);
        cur.ptr_dtor();
        let nv = nv?;
        match array_access_call(vm, o.obj(), b"offsetset", &[key, nv]) {
            Ok(x) => {
                x.ptr_dtor();
                Ok(nv)
            }
            Err(t) => {
                nv.ptr_dtor();
                Err(t)
            }
        }
    })();
    key.ptr_dtor();
    o.ptr_dtor();
    r
}
