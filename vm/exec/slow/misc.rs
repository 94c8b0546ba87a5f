//! Output, casts, constants, ropes, exit.

use super::{free_op, read1, read2};
use crate::exec::{operand, Thrown, Vm};
use crate::ops::Op;
use crate::runtime::error::Stop;
use crate::value::{convert, ZArray, ZString, Zval, IS_ARRAY, IS_DOUBLE, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING};

/// `(bool)` cast kind (Zend's `_IS_BOOL`).
pub const CAST_BOOL: u32 = 18;

/// echo of a non-string op1.
#[cold]
#[inline(never)]
pub unsafe fn echo(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let v = read1(vm, fp, ip);
    let mut buf = Vec::new();
    let had = vm.exception.is_some();
    super::arith::to_string_into(vm, &*v, &mut buf);
    if !had && vm.exception.is_some() {
        return Err(Thrown);
    }
    vm.echo(&buf);
    Ok(())
}

#[cold]
#[inline(never)]
pub unsafe fn cast(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = &*read1(vm, fp, ip);
    let had = vm.exception.is_some();
    let r = cast_value(vm, v, (*ip).extended_value);
    if !had && vm.exception.is_some() {
        r.ptr_dtor();
        return Err(Thrown);
    }
    Ok(r)
}

/// CAST's `(string)` of an int: result := its decimal form; continues with
/// the next opline. Handler-shaped, so that the handler's hot copy jumps
/// here instead of calling (the string is allocated).
///
/// # Safety
/// Called from CAST only, when op1 holds an int (nothing to release).
#[inline(never)]
pub unsafe fn cast_long_to_string(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> crate::exec::Ret {
    let v = (*operand::any_raw_1(ip, fp)).lval();
    *operand::result(ip, fp) = Zval::string(ZString::from_i64(v));
    crate::exec::dispatch::next(ip.add(1), fp, vm)
}

pub fn cast_value(vm: &mut Vm, v: &Zval, kind: u32) -> Zval {
    let v = v.deref();
    match kind {
        k if k == IS_LONG as u32 => Zval::long(convert::to_long(v)),
        k if k == IS_DOUBLE as u32 => Zval::double(convert::to_double(v)),
        k if k == IS_STRING as u32 => {
            if v.is_string() {
                return v.copy_value();
            }
            if v.is_long() {
                // Straight from a stack buffer: one allocation.
                return Zval::string(ZString::from_i64(v.lval()));
            }
            let mut buf = Vec::new();
            super::arith::to_string_into(vm, v, &mut buf);
            Zval::string(ZString::new(&buf))
        }
        CAST_BOOL => Zval::bool(convert::to_bool(v)),
        k if k == IS_ARRAY as u32 => {
            if v.is_array() {
                return v.copy_value();
            }
            if v.is_object() {
                // SAFETY: object-kind values hold a live object.
                return unsafe { object_to_array(v.obj()) };
            }
            let a = ZArray::new();
            if v.kind() != IS_NULL && !v.is_undef() {
                // SAFETY: `a` is new and unshared.
                unsafe { (*a).append(v.copy_value()) };
            }
            Zval::array(a)
        }
        k if k == IS_NULL as u32 => Zval::NULL,
        k if k == IS_OBJECT as u32 => {
            if v.is_object() {
                return v.copy_value();
            }
            // SAFETY: stdClass is bound in every request; the new object is ours.
            unsafe {
                let Some(c) = crate::runtime::classes::find_class(vm, b"stdclass") else { return Zval::NULL };
                let Ok(o) = super::object::instantiate(vm, c) else { return Zval::NULL };
                if v.is_array() && (*v.arr()).has_int_keys() {
                    (*o).dynamic = ZArray::to_proptable(v.arr());
                } else if v.is_array() {
                    let mut z = v.copy_value();
                    (*o).dynamic = ZArray::separate(&mut z);
                } else if v.kind() > IS_NULL {
                    let a = ZArray::new();
                    let k = ZString::new(b"scalar");
                    (*a).update_str(k, v.copy_value());
                    Zval::string(k).ptr_dtor();
                    (*o).dynamic = a;
                }
                Zval::object(o)
            }
        }
        _ => Zval::NULL,
    }
}

/// `(array)$obj`: declared properties under PHP's mangled keys
/// (`"\0*\0p"` protected, `"\0Class\0p"` private), then dynamic ones.
pub unsafe fn object_to_array(o: *mut crate::value::object::ZObject) -> Zval {
    use crate::runtime::class::{ACC_PRIVATE, ACC_PROTECTED};
    use crate::value::object::ZObject;
    let c = ZObject::class(o);
    let a = ZArray::new();
    for pi in &c.props {
        let v = &*ZObject::slot(o, pi.slot);
        if v.is_undef() {
            continue;
        }
        let key = if pi.flags & ACC_PRIVATE != 0 {
            crate::runtime::classes::mangle(&(*pi.scope).name, &pi.name)
        } else if pi.flags & ACC_PROTECTED != 0 {
            crate::runtime::classes::mangle(b"*", &pi.name)
        } else {
            pi.name.clone()
        };
        let k = ZString::new(&key);
        (*a).update(&crate::value::Key::normalize(k), v.copy_value());
        Zval::string(k).ptr_dtor();
    }
    let d = (*o).dynamic;
    if !d.is_null() {
        for (k, v) in (*d).iter() {
            (*a).update_symtable(k, v.copy_value());
        }
    }
    Zval::array(a)
}

/// A constant by name: user constants first, then the builtin ones.
#[cold]
#[inline(never)]
pub unsafe fn fetch_constant(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let name = &*operand::const_2(ip);
    let bytes = (*name.str()).bytes();
    let bytes = bytes.strip_prefix(b"\\").unwrap_or(bytes);
    if let Some(v) = vm.constants.get(bytes) {
        return Ok(v.copy_value());
    }
    if let Some(v) = crate::stdlib::constant(bytes) {
        return Ok(v);
    }
    if (*ip).op1 == 1 {
        // IS_CONSTANT_UNQUALIFIED_IN_NAMESPACE: the global constant.
        let short = bytes.rsplit(|&c| c == b'\\').next().unwrap_or(bytes);
        if let Some(v) = vm.constants.get(short) {
            return Ok(v.copy_value());
        }
        if let Some(v) = crate::stdlib::constant(short) {
            return Ok(v);
        }
        let msg = format!("Undefined constant \"{}\"", String::from_utf8_lossy(bytes));
        return Err(vm.throw_error("Error", &msg));
    }
    let msg = format!("Undefined constant \"{}\"", String::from_utf8_lossy(bytes));
    Err(vm.throw_error("Error", &msg))
}

/// exit/die: prints a string argument, or takes an int as the exit status.
#[cold]
#[inline(never)]
pub unsafe fn exit(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let mut status = 0;
    if (*ip).op1_type != crate::ops::IS_UNUSED {
        let v = (*read1(vm, fp, ip)).deref();
        if v.is_long() {
            status = v.lval() as i32;
        } else {
            let mut buf = Vec::new();
            super::arith::to_string_into(vm, v, &mut buf);
            vm.echo(&buf);
        }
    }
    vm.stop = Some(Stop::Exit(status));
    Ok(())
}

#[cold]
#[inline(never)]
pub unsafe fn count(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*read1(vm, fp, ip)).deref();
    if v.is_array() {
        return Ok(Zval::long((*v.arr()).len() as i64));
    }
    let v = v.copy_value();
    let r = crate::stdlib::array::count_value(vm, &v);
    v.ptr_dtor();
    r
}

#[cold]
#[inline(never)]
pub unsafe fn strlen(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*read1(vm, fp, ip)).deref();
    match v.kind() {
        IS_STRING => Ok(Zval::long((*v.str()).len() as i64)),
        // An array is refused; a Stringable object is its __toString().
        k if k == IS_ARRAY || k == IS_OBJECT => crate::stdlib::args::string(vm, "strlen", 1, "string", v).map(|b| Zval::long(b.len() as i64)),
        _ => {
            if v.kind() == crate::value::IS_NULL || v.kind() == crate::value::IS_UNDEF {
                vm.deprecated("strlen(): Passing null to parameter #1 ($string) of type string is deprecated");
            }
            let mut buf = Vec::new();
            convert::append_string(v, &mut buf);
            Ok(Zval::long(buf.len() as i64))
        }
    }
}

/// Rope part `extended_value` := string(op2). ROPE_INIT writes at the
/// result slot, ROPE_ADD at op1's; parts are owned string pointers, two per
/// slot, as in Zend.
#[inline(never)]
pub unsafe fn rope_add(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let init = (*ip).op1_type == crate::ops::IS_UNUSED;
    let base = if init { operand::result(ip, fp) } else { operand::slot_1(ip, fp) } as *mut *mut ZString;
    let idx = if init { 0 } else { (*ip).extended_value as usize };
    let had = vm.exception.is_some();
    let part = rope_part(vm, fp, ip);
    if !had && vm.exception.is_some() {
        // __toString threw: this part is not stored (the live range frees
        // the parts before it).
        Zval::string(part).ptr_dtor();
        return Err(Thrown);
    }
    *base.add(idx) = part;
    Ok(())
}

/// The string of op2, owned.
unsafe fn rope_part(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> *mut ZString {
    let v = (*operand::any_read_2(ip, fp, vm)).deref();
    if v.is_string() {
        return v.copy_value().str();
    }
    if v.is_long() {
        return ZString::from_i64(v.lval());
    }
    let mut buf = Vec::new();
    super::arith::to_string_into(vm, v, &mut buf);
    ZString::new(&buf)
}

/// Joins rope parts 0..extended_value plus op2 into one string; frees the parts.
#[inline(never)]
pub unsafe fn rope_end(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let base = operand::slot_1(ip, fp) as *mut *mut ZString;
    let n = (*ip).extended_value as usize;
    let had = vm.exception.is_some();
    *base.add(n) = rope_part(vm, fp, ip);
    if !had && vm.exception.is_some() {
        free_rope(base as *mut Zval, n + 1);
        return Err(Thrown);
    }
    let len: usize = (0..=n).map(|i| (**base.add(i)).len()).sum();
    let mut s = ZString::with_capacity(len);
    for i in 0..=n {
        s = ZString::append(s, (**base.add(i)).bytes());
    }
    free_rope(base as *mut Zval, n + 1);
    Ok(Zval::string(s))
}

/// Releases rope parts 0..n.
pub unsafe fn free_rope(base: *mut Zval, n: usize) {
    let parts = base as *mut *mut ZString;
    for i in 0..n {
        Zval::string(*parts.add(i)).ptr_dtor();
    }
}

/// `global $x`: binds CV op1 by reference to the global named op2 (made
/// NULL if it does not exist). Without a main frame (a function called
/// from the host), the global is a fresh NULL.
#[cold]
#[inline(never)]
pub unsafe fn bind_global(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let name = (*(*operand::const_2(ip)).str()).bytes();
    // The main frame is the bottom of the caller chain.
    let mut f = fp as *mut crate::exec::Frame;
    while !(*f).prev.is_null() {
        f = (*f).prev;
    }
    let r = if (*(*f).func).is_user() {
        let g = crate::exec::symtab::find_or_add(vm, f, name);
        if (*g).is_undef() {
            *g = Zval::NULL;
        }
        crate::value::refs::make_ref(g);
        (*g).copy_value()
    } else {
        Zval::reference(crate::value::ZRef::new(Zval::NULL))
    };
    super::assign::bind_ref(operand::slot_1(ip, fp), r);
    Ok(())
}

/// `const NAME = value;` at the top level: defines op1 (name) := op2.
#[cold]
#[inline(never)]
pub unsafe fn declare_const(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let name = (*(*operand::const_1(ip)).str()).bytes().to_vec();
    if vm.constants.contains_key(&name) || crate::stdlib::constant(&name).is_some() {
        vm.warning(&format!("Constant {} already defined", String::from_utf8_lossy(&name)));
        return Ok(());
    }
    let v = (*read2(vm, fp, ip)).copy_value();
    vm.constants.insert(name, v);
    Ok(())
}

/// `match` found no arm for op1: throws UnhandledMatchError.
#[cold]
#[inline(never)]
pub unsafe fn match_error(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let v = (*read1(vm, fp, ip)).deref();
    // smart_str_append_scalar with exception_string_param_max_len = 15.
    let text = match v.kind() {
        IS_NULL => "NULL".to_string(),
        crate::value::IS_FALSE => "false".to_string(),
        crate::value::IS_TRUE => "true".to_string(),
        IS_LONG => v.lval().to_string(),
        IS_DOUBLE => {
            let mut b = Vec::new();
            super::arith::to_string_into(vm, v, &mut b);
            String::from_utf8_lossy(&b).into_owned()
        }
        IS_STRING => {
            let bytes = (*v.str()).bytes();
            let mut t = String::from("'");
            for &c in bytes.iter().take(15) {
                match c {
                    b'\\' => t.push_str("\\\\"),
                    b'\n' => t.push_str("\\n"),
                    b'\r' => t.push_str("\\r"),
                    b'\t' => t.push_str("\\t"),
                    0x20..=0x7e => t.push(c as char),
                    _ => t.push_str(&format!("\\x{c:02X}")),
                }
            }
            if bytes.len() > 15 {
                t.push_str("...");
            }
            t.push('\'');
            t
        }
        _ => format!("of type {}", super::call::zend_type_name(v)),
    };
    Err(vm.throw_error("UnhandledMatchError", &format!("Unhandled match case {text}")))
}

/// TYPE_CHECK: is op1's kind in the mask extended_value (bit `1 << kind`)?
#[inline(always)]
pub fn type_check(v: &Zval, mask: u32) -> bool {
    let k = v.deref().kind();
    let k = if k == crate::value::IS_UNDEF { IS_NULL } else { k };
    mask & (1u32 << k) != 0
}

/// SWITCH_LONG (mode 0), SWITCH_STRING (1), MATCH (2): the target of op1 in
/// the jump table op2 (an array of opline numbers), the default
/// (extended_value) when it is not there, or null to fall through to the
/// CASE chain (a switch subject of another kind).
#[inline(never)]
pub unsafe fn jump_table(vm: &mut Vm, fp: *mut Zval, ip: *const Op, mode: u32) -> *const Op {
    let raw = operand::any_raw_1(ip, fp);
    if mode == 2 && (*ip).op1_type == crate::ops::IS_CV && (*raw).is_undef() {
        super::enter(vm, fp, ip);
        operand::cv_read_1(ip, fp, vm);
    }
    let v = (*raw).deref();
    let table = &*(*operand::const_2(ip)).arr();
    let found = match (v.kind(), mode) {
        (IS_LONG, 0 | 2) => table.find_int(v.lval()),
        (IS_STRING, 1 | 2) => table.find_str(&*v.str()),
        (_, 2) => None,
        _ => return core::ptr::null(),
    };
    let idx = match found {
        Some(t) => (*t).lval() as usize,
        None => (*ip).extended_value as usize,
    };
    // SAFETY: jump tables and defaults hold opline numbers of this op array
    // (the compiler put them there), so the target is inside its code.
    (*(*(fp as *mut crate::exec::Frame)).func).op.entry().add(idx)
}

/// The keys and values of op1 (`src`) when it is a Traversable object
/// (`None` for anything else); op1 is freed either way.
unsafe fn unpack_traversable(vm: &mut Vm, fp: *mut Zval, ip: *const Op, src: &Zval) -> Result<Option<Vec<(Zval, Zval)>>, Thrown> {
    if !src.is_object() || !(*(*src.obj()).class).is_subclass_of_name(b"traversable") {
        super::free_op(fp, ip, 1);
        return Ok(None);
    }
    let obj = src.copy_value();
    super::free_op(fp, ip, 1);
    let mut items = Vec::new();
    let r = super::iter::walk_traversable(vm, &obj, true, &mut |k, v| items.push((k, v)));
    obj.ptr_dtor();
    if let Err(t) = r {
        for (k, v) in items {
            k.ptr_dtor();
            v.ptr_dtor();
        }
        return Err(t);
    }
    Ok(Some(items))
}

/// ADD_ARRAY_UNPACK: appends the elements of op1 to the array in the
/// result (`[...$a]`): integer keys renumbered, string keys overwrite.
#[cold]
#[inline(never)]
pub unsafe fn add_array_unpack(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let src = (*read1(vm, fp, ip)).deref();
    if !src.is_array() {
        let items = unpack_traversable(vm, fp, ip, src);
        let Some(items) = items? else {
            return Err(vm.throw_error("Error", "Only arrays and Traversables can be unpacked"));
        };
        let dst = ZArray::separate(operand::result(ip, fp));
        let mut items = items.into_iter();
        while let Some((k, v)) = items.next() {
            let err = if k.is_long() {
                if (*dst).append(v).is_some() {
                    continue;
                }
                v.ptr_dtor();
                "Cannot add element to the array as the next element is already occupied"
            } else if k.is_string() {
                (*dst).update_str(k.str(), v);
                k.ptr_dtor();
                continue;
            } else {
                k.ptr_dtor();
                v.ptr_dtor();
                "Keys must be of type int|string during array unpacking"
            };
            for (k, v) in items {
                k.ptr_dtor();
                v.ptr_dtor();
            }
            return Err(vm.throw_error("Error", err));
        }
        return Ok(());
    }
    let res = operand::result(ip, fp);
    let dst = ZArray::separate(res);
    let s = &*src.arr();
    let mut pos = 0;
    while let Some(p) = s.pos_valid_from(pos) {
        pos = p + 1;
        let Some((key, val)) = s.entry_at(p) else { break };
        // A reference only this array holds is unpacked as its value.
        let v = if (*val).is_reference() && (*(*val).zref()).header.refcount == 1 { (*val).copy_deref() } else { (*val).copy_value() };
        match key {
            crate::value::array::KeyRef::Int(_) => {
                if (*dst).append(v).is_none() {
                    v.ptr_dtor();
                    super::free_op(fp, ip, 1);
                    return Err(vm.throw_error("Error", "Cannot add element to the array as the next element is already occupied"));
                }
            }
            crate::value::array::KeyRef::Str(k) => {
                (*dst).update_str(k as *const ZString as *mut ZString, v);
            }
        }
    }
    super::free_op(fp, ip, 1);
    Ok(())
}

// ---------------------------------------------------------------- argument sending

/// SEND_VAR_NO_REF(_EX): argument op2 := the VAR op1 (a call's result).
/// Where the parameter is by reference (always, for the non-EX form) the
/// value must be a reference itself; otherwise it is passed in a new one
/// with PHP's notice. op1 is consumed.
#[inline(never)]
pub unsafe fn send_var_no_ref(vm: &mut Vm, fp: *mut Zval, ip: *const Op, ex: bool) -> Result<(), Thrown> {
    let call = (*(fp as *mut crate::exec::Frame)).call;
    let n = (*ip).op2;
    let slot = operand::slot_1(ip, fp);
    let arg = crate::exec::Frame::slot(call, n - 1);
    if ex && !super::call::arg_by_ref(call, n) {
        *arg = (*slot).copy_deref();
        (*slot).ptr_dtor();
        return Ok(());
    }
    let v = *slot;
    *slot = Zval::UNDEF;
    if v.is_reference() {
        *arg = v;
        return Ok(());
    }
    *arg = Zval::reference(crate::value::ZRef::new(v));
    super::enter(vm, fp, ip);
    vm.notice("Only variables should be passed by reference");
    Ok(())
}

/// Bytes of a prepared call frame holding `nargs` arguments (as `push_call` sizes it).
unsafe fn call_frame_bytes(func: *const crate::runtime::function::Function, nargs: u32) -> usize {
    let op = &(*func).op;
    if (*func).is_user() {
        op.frame_size() + nargs.saturating_sub(op.num_args) as usize * 16
    } else {
        // The arguments and the result cell (`builtin_frame_size`).
        crate::ops::FRAME_HEADER as usize + (nargs as usize + 1) * 16
    }
}

/// Makes the innermost prepared call of the frame at `fp` big enough for
/// `nargs` arguments (Zend's `zend_vm_stack_extend_call_frame`): grown in
/// place when it is the top of the VM stack and the page has room, moved to
/// a new page otherwise. Returns the (possibly moved) call.
pub unsafe fn grow_call(vm: &mut Vm, fp: *mut Zval, nargs: u32) -> Result<*mut crate::exec::Frame, Thrown> {
    let f = fp as *mut crate::exec::Frame;
    let call = (*f).call;
    let func = (*call).func;
    let old = call_frame_bytes(func, (*call).num_args());
    let new = call_frame_bytes(func, nargs);
    if new <= old {
        return Ok(call);
    }
    let limit = vm.memory_limit;
    let p = match vm.stack.alloc(new - old, limit) {
        Ok(p) => p,
        Err(e) => {
            vm.memory_exhausted(e.tried);
            return Err(Thrown);
        }
    };
    if p as *mut u8 == (call as *mut u8).add(old) {
        // The call was the last frame pushed (arguments are sent after
        // every nested call has returned): it just got longer.
        return Ok(call);
    }
    // The page is full: the call moves to the new page. Its old bytes stay
    // unused until the caller's frame is popped.
    vm.stack.free(p);
    let q = match vm.stack.alloc(new, limit) {
        Ok(q) => q as *mut crate::exec::Frame,
        Err(e) => {
            vm.memory_exhausted(e.tried);
            return Err(Thrown);
        }
    };
    // SAFETY: both regions are live VM stack memory, `old` bytes of a
    // prepared frame (header and sent arguments) copied to a larger region
    // on another page.
    core::ptr::copy_nonoverlapping(call as *const u8, q as *mut u8, old);
    (*q).rt_cache = (*call).rt_cache;
    (*f).call = q;
    super::named::call_moved(vm, call, q);
    Ok(q)
}

/// SEND_UNPACK: the elements of op1 become the next arguments of the call
/// being prepared (`f(...$args)`); a by-reference parameter gets a
/// reference to the element. op1 is freed.
#[cold]
#[inline(never)]
pub unsafe fn send_unpack(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let kind = (*ip).op1_type;
    let src = read1(vm, fp, ip);
    if !(*src).is_array() {
        let Some(items) = unpack_traversable(vm, fp, ip, (*src).deref())? else {
            return Err(vm.throw_error("TypeError", "Only arrays and Traversables can be unpacked"));
        };
        return send_unpacked_items(vm, fp, items);
    }
    let n0 = (*(*(fp as *mut crate::exec::Frame)).call).num_args();
    // Positional elements come first; string keys are named arguments.
    let count = (*(*src).arr()).iter().take_while(|(k, _)| !matches!(k, crate::value::array::KeyRef::Str(_))).count() as u32;
    let call = match grow_call(vm, fp, n0 + count) {
        Ok(c) => c,
        Err(t) => {
            super::free_op(fp, ip, 1);
            return Err(t);
        }
    };
    let any_ref = (0..count).any(|i| super::call::arg_by_ref(call, n0 + i + 1)) || (*(*src).arr()).len() as u32 > count;
    // References into the array need it unshared (the variable's own copy).
    let arr = if any_ref && kind == crate::ops::IS_CV {
        let holder = (*operand::slot_1(ip, fp)).deref_mut() as *mut Zval;
        ZArray::separate(holder)
    } else {
        (*src).arr()
    };
    // Keep the array alive while named arguments may throw or grow the call.
    let held = Zval::array(arr).copy_value();
    let r = unpack_into(vm, fp, arr, n0, kind == crate::ops::IS_CV);
    held.ptr_dtor();
    super::free_op(fp, ip, 1);
    r
}

/// SEND_UNPACK's loop: positional elements, then string-keyed ones as
/// named arguments.
unsafe fn unpack_into(vm: &mut Vm, fp: *mut Zval, arr: *mut ZArray, n0: u32, from_cv: bool) -> Result<(), Thrown> {
    let mut n = n0;
    let mut pos = 0;
    let mut named = false;
    while let Some(p) = (*arr).pos_valid_from(pos) {
        pos = p + 1;
        let Some((key, val)) = (*arr).entry_at(p) else { break };
        if let crate::value::array::KeyRef::Str(k) = key {
            named = true;
            let name = k.bytes().to_vec();
            super::named::send_unpacked_named(vm, fp, &name, val, from_cv)?;
            continue;
        }
        if named {
            return Err(vm.throw_error("Error", "Cannot use positional argument after named argument during unpacking"));
        }
        let call = (*(fp as *mut crate::exec::Frame)).call;
        n += 1;
        let arg = crate::exec::Frame::slot(call, n - 1);
        *arg = super::named::unpacked_arg(super::call::arg_by_ref(call, n), val, from_cv);
        (*call).this.u2 = n;
    }
    Ok(())
}

/// SEND_UNPACK of a Traversable: its values (`items`, owned) become the
/// next arguments, by value (with PHP's warning for a by-reference
/// parameter).
unsafe fn send_unpacked_items(vm: &mut Vm, fp: *mut Zval, items: Vec<(Zval, Zval)>) -> Result<(), Thrown> {
    let release = |items: &mut dyn Iterator<Item = (Zval, Zval)>| {
        for (k, v) in items {
            k.ptr_dtor();
            v.ptr_dtor();
        }
    };
    if items.iter().any(|(k, _)| k.is_string()) {
        release(&mut items.into_iter());
        return Err(vm.throw_error("Error", "Unpacking arrays with string keys (named arguments) is not supported yet"));
    }
    if let Some((k, _)) = items.iter().find(|(k, _)| !k.is_long()) {
        let _ = k;
        release(&mut items.into_iter());
        return Err(vm.throw_error("Error", "Keys must be of type int|string during argument unpacking"));
    }
    let n0 = (*(*(fp as *mut crate::exec::Frame)).call).num_args();
    let call = match grow_call(vm, fp, n0 + items.len() as u32) {
        Ok(c) => c,
        Err(t) => {
            release(&mut items.into_iter());
            return Err(t);
        }
    };
    let mut n = n0;
    for (k, v) in items {
        k.ptr_dtor();
        n += 1;
        if super::call::arg_by_ref(call, n) {
            let f = &*(*call).func;
            let name = match (*call).entry.is_null() {
                true => f.name().to_vec(),
                false => (*(*call).entry).name().to_vec(),
            };
            let msg = format!("Cannot pass by-reference argument {n} of {}() by unpacking a Traversable, passing by-value instead", String::from_utf8_lossy(&name));
            vm.warning(&msg);
            *crate::exec::Frame::slot(call, n - 1) = Zval::reference(crate::value::ZRef::new(v));
        } else {
            *crate::exec::Frame::slot(call, n - 1) = v;
        }
        (*call).this.u2 = n;
    }
    Ok(())
}

// ---------------------------------------------------------------- variables by name

/// ZEND_FETCH_GLOBAL, ZEND_FETCH_GLOBAL_LOCK in a FETCH_*'s extended_value
/// (otherwise ZEND_FETCH_LOCAL).
const FETCH_GLOBAL: u32 = 1 << 1;
const FETCH_GLOBAL_LOCK: u32 = 1 << 3;

/// The frame whose variables a fetch by name reaches: the main script's
/// (the bottom of the caller chain) for the globals, else the current one;
/// `None` when that is no user frame (a function called from the host).
unsafe fn target_frame(fp: *mut Zval, ip: *const Op) -> Option<*mut crate::exec::Frame> {
    let mut f = fp as *mut crate::exec::Frame;
    if (*ip).extended_value & (FETCH_GLOBAL | FETCH_GLOBAL_LOCK) != 0 {
        while !(*f).prev.is_null() {
            f = (*f).prev;
        }
    }
    (*(*f).func).is_user().then_some(f)
}

/// The variable name op1 gives: a string, or another value converted as
/// Zend's `zval_try_get_tmp_string` (an undefined CV warns first). Frees a
/// TMP/VAR op1 unless the fetch is ZEND_FETCH_GLOBAL_LOCK (the next
/// opline reuses it).
unsafe fn var_name(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Vec<u8>, Thrown> {
    let v = read1(vm, fp, ip);
    let name = if (*v).is_string() {
        (*(*v).str()).bytes().to_vec()
    } else {
        let mut out = Vec::new();
        super::arith::to_string_into(vm, &*v, &mut out);
        out
    };
    if (*ip).extended_value & FETCH_GLOBAL_LOCK == 0 {
        free_op(fp, ip, 1);
    }
    if vm.exception.is_some() {
        return Err(Thrown);
    }
    Ok(name)
}

/// The name op1 gives and the variable of that name (null if none).
unsafe fn named_var(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(Vec<u8>, *mut Zval), Thrown> {
    let name = var_name(vm, fp, ip)?;
    let p = match target_frame(fp, ip) {
        Some(f) => crate::exec::symtab::find(vm, f, &name),
        None => core::ptr::null_mut(),
    };
    Ok((name, p))
}

fn undefined_var(vm: &mut Vm, ip: *const Op, name: &[u8]) {
    // SAFETY: `ip` is the running opline.
    let global = unsafe { (*ip).extended_value } & FETCH_GLOBAL != 0;
    let what = if global { "global variable" } else { "variable" };
    vm.warning(&format!("Undefined {what} ${}", String::from_utf8_lossy(name)));
}

/// FETCH_R / FETCH_IS: the value of the variable named op1 (`$$n`,
/// `$GLOBALS[$n]`); NULL, with a warning for FETCH_R, when it is undefined.
#[cold]
#[inline(never)]
pub unsafe fn fetch_var_r(vm: &mut Vm, fp: *mut Zval, ip: *const Op, is: bool) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let (name, p) = named_var(vm, fp, ip)?;
    if p.is_null() || (*p).is_undef() {
        if !is {
            undefined_var(vm, ip, &name);
        }
        return Ok(Zval::NULL);
    }
    Ok((*p).copy_deref())
}

/// FETCH_W / FETCH_RW: the variable named op1 for writing, made NULL if it
/// is undefined (`rw` warns then, as a read-modify-write does).
#[cold]
#[inline(never)]
pub unsafe fn fetch_var_w(vm: &mut Vm, fp: *mut Zval, ip: *const Op, rw: bool) -> Result<*mut Zval, Thrown> {
    super::enter(vm, fp, ip);
    let name = var_name(vm, fp, ip)?;
    let Some(f) = target_frame(fp, ip) else {
        return Err(vm.throw_error("Error", "Cannot write to a global variable outside of a script"));
    };
    let p = crate::exec::symtab::find_or_add(vm, f, &name);
    if (*p).is_undef() {
        if rw {
            undefined_var(vm, ip, &name);
        }
        *p = Zval::NULL;
    }
    Ok(p)
}

/// FETCH_UNSET: the variable named op1 for an unset below it
/// (`unset($$n[0])`), or a NULL scratch cell when it is undefined.
#[cold]
#[inline(never)]
pub unsafe fn fetch_var_unset(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<*mut Zval, Thrown> {
    super::enter(vm, fp, ip);
    let (_, p) = named_var(vm, fp, ip)?;
    if p.is_null() || (*p).is_undef() {
        vm.dim_scratch = Zval::NULL;
        return Ok(&mut vm.dim_scratch);
    }
    Ok(p)
}

/// ISSET_ISEMPTY_VAR: isset/empty of the variable named op1
/// (extended_value bit 0: empty).
#[cold]
#[inline(never)]
pub unsafe fn isset_var(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let (_, p) = named_var(vm, fp, ip)?;
    let v = if p.is_null() { Zval::UNDEF } else { *(*p).deref() };
    let set = !v.is_undef() && v.kind() != IS_NULL;
    Ok(if (*ip).extended_value & 1 != 0 { !set || !super::compare::truthy(&v) } else { set })
}

/// UNSET_VAR: unsets the variable named op1.
#[cold]
#[inline(never)]
pub unsafe fn unset_var(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let name = var_name(vm, fp, ip)?;
    if let Some(f) = target_frame(fp, ip) {
        crate::exec::symtab::remove(vm, f, &name);
    }
    Ok(())
}

/// FETCH_GLOBALS: a copy of the global symbol table (the main script's
/// defined variables: its CVs in the order the script names them, then
/// those made by name).
#[cold]
#[inline(never)]
pub unsafe fn fetch_globals(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let mut f = fp as *mut crate::exec::Frame;
    while !(*f).prev.is_null() {
        f = (*f).prev;
    }
    let a = ZArray::new();
    if (*(*f).func).is_user() {
        for (n, p) in crate::exec::symtab::defined(vm, f) {
            let k = ZString::new(&n);
            (*a).update(&crate::value::array::Key::Str(k), (*(*p).deref()).copy_value());
            Zval::string(k).ptr_dtor();
        }
    }
    Ok(Zval::array(a))
}

unsafe fn read_name<'a>(ip: *const Op) -> &'a [u8] {
    (*(*operand::const_1(ip)).str()).bytes()
}

/// TICKS: counts, and on every `extended_value`-th runs the functions
/// `register_tick_function()` registered, in order (a throw stops them).
#[cold]
#[inline(never)]
pub unsafe fn ticks(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    vm.ticks_count += 1;
    if vm.ticks_count < (*ip).extended_value {
        return Ok(());
    }
    vm.ticks_count = 0;
    super::enter(vm, fp, ip);
    // By id: a tick function may (un)register tick functions.
    let ids: Vec<u64> = vm.tick_functions.iter().map(|t| t.id).collect();
    for id in ids {
        let Some(t) = vm.tick_functions.iter_mut().find(|t| t.id == id && !t.calling) else { continue };
        t.calling = true;
        let f: Vec<Zval> = t.call.iter().map(|v| v.copy_value()).collect();
        let r = match crate::stdlib::callback::resolve(vm, &f[0]) {
            Ok(c) => c.call(vm, &f[1..]).map(|v| v.ptr_dtor()),
            Err(_) => Ok(()),
        };
        if let Some(t) = vm.tick_functions.iter_mut().find(|t| t.id == id) {
            t.calling = false;
        }
        for v in f {
            v.ptr_dtor();
        }
        r?;
    }
    Ok(())
}

/// IN_ARRAY: is op1 one of the keys of the constant op2? A string is
/// looked up as it is (the keys are the haystack's strings, unnormalized);
/// under `strict` an integer by its value, anything else is absent;
/// otherwise null and false match "", and other kinds compare loosely
/// with each key, as `in_array()` would with the values.
pub unsafe fn in_array(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    super::enter(vm, fp, ip);
    let ht = &*(*operand::const_2(ip)).arr();
    let v = (*read1(vm, fp, ip)).deref();
    if v.is_string() {
        return Ok(ht.find_str(&*v.str()).is_some());
    }
    if (*ip).extended_value != 0 {
        return Ok(v.is_long() && ht.find_int(v.lval()).is_some());
    }
    if v.kind() <= crate::value::IS_FALSE {
        return Ok(ht.find_bytes(b"").is_some());
    }
    for (k, _) in ht.iter() {
        if let crate::value::array::KeyRef::Str(s) = k {
            let key = Zval::string(s as *const ZString as *mut ZString);
            if crate::value::compare::is_equal(v, &key) {
                return Ok(true);
            }
            if vm.exception.is_some() {
                return Err(Thrown);
            }
        }
    }
    Ok(false)
}

/// DEFINED: does the constant named op1 exist (user constants, then builtin ones)?
pub unsafe fn defined(vm: &Vm, ip: *const Op) -> bool {
    let name = read_name(ip);
    let name = name.strip_prefix(b"\\").unwrap_or(name);
    if vm.constants.contains_key(name) {
        return true;
    }
    match crate::stdlib::constant(name) {
        Some(v) => {
            v.ptr_dtor();
            true
        }
        None => false,
    }
}

/// ARRAY_KEY_EXISTS: `array_key_exists(op1, op2)` compiled to an opcode
/// (Zend's `zend_array_key_exists_fast`: keys normalize as in `$a[k]`).
#[cold]
#[inline(never)]
pub unsafe fn array_key_exists(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<bool, Thrown> {
    use super::dim::{dim_key, DimKey};
    super::enter(vm, fp, ip);
    let key = *operand::any_read_1(ip, fp, vm);
    let subject = (*operand::any_read_2(ip, fp, vm)).deref().copy_value();
    if !subject.is_array() {
        let msg = format!(
            "array_key_exists(): Argument #2 ($array) must be of type array, {} given",
            crate::stdlib::type_name(&subject)
        );
        subject.ptr_dtor();
        return Err(vm.throw_error("TypeError", &msg));
    }
    let mut empty = core::ptr::null_mut();
    let k = dim_key(vm, &key, &mut empty);
    let a = &*subject.arr();
    let found = match k {
        Ok(DimKey::Int(i)) => Ok(a.find_int(i).is_some()),
        // SAFETY: the key string lives while its operand (or `empty`) does.
        Ok(DimKey::Str(s)) => Ok(a.find_str(&*s).is_some()),
        Err(t) => Err(t),
    };
    if !empty.is_null() {
        Zval::string(empty).ptr_dtor();
    }
    // The copy kept the array alive through a deprecation handler.
    subject.ptr_dtor();
    found
}

/// GET_CLASS: `get_class($op1)`.
#[cold]
#[inline(never)]
pub unsafe fn get_class(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = (*read1(vm, fp, ip)).deref();
    if v.is_object() {
        return Ok(Zval::string(ZString::new(&crate::value::object::ZObject::class(v.obj()).name)));
    }
    let t = crate::stdlib::type_name(v);
    Err(vm.throw_error("TypeError", &format!("get_class(): Argument #1 ($object) must be of type object, {t} given")))
}

/// GET_TYPE: `gettype($op1)`.
#[cold]
#[inline(never)]
pub unsafe fn get_type(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<Zval, Thrown> {
    super::enter(vm, fp, ip);
    let v = *read1(vm, fp, ip);
    let mut r = Zval::NULL;
    crate::stdlib::var::gettype(vm, &[v], &mut r)?;
    Ok(r)
}
