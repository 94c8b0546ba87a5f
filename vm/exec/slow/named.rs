//! Named arguments (`f(b: 1)`), as Zend runs them: a SEND_* whose op2 is
//! the parameter's name finds the argument slot at run time
//! (`zend_handle_named_arg`), leaving UNDEF gaps that CHECK_UNDEF_ARGS fills
//! with the defaults (`zend_handle_undef_args`); names no parameter takes go
//! to a variadic callee's extra named arguments (`Vm::extra_named`), which
//! `...$rest` collects under string keys. Calls without names never get here.

use crate::exec::frame::Frame;
use crate::exec::{operand, Thrown, Vm};
use crate::ops::{Op, Opcode, IS_CV, IS_VAR};
use crate::runtime::function::{FuncEntry, Function};
use crate::value::{ZArray, ZString, Zval};

/// Frame flag: a named argument left a gap before it (ZEND_CALL_MAY_HAVE_UNDEF).
pub const CALL_MAY_HAVE_UNDEF: u32 = 1 << 21;
/// Frame flag: the call has extra named arguments in `Vm::extra_named`
/// (ZEND_CALL_HAS_EXTRA_NAMED_PARAMS).
pub const CALL_HAS_EXTRA_NAMED: u32 = 1 << 19;

/// Whether parameter `num` (1-based; 0: a collected extra named argument)
/// of the prepared call's function is by reference.
unsafe fn param_by_ref(call: *mut Frame, num: u32) -> bool {
    if num == 0 {
        let op = &(*(*call).func).op;
        return op.arg_info.last().is_some_and(|a| a.variadic && a.by_ref);
    }
    super::call::arg_by_ref(call, num)
}

/// The display name of the prepared call's function (`C::m` for methods).
pub unsafe fn callee_name(call: *mut Frame) -> String {
    display_name((*call).func, (*call).entry)
}

/// A function's name in messages (`C::m` for methods).
pub unsafe fn display_name(f: *const Function, entry: *mut FuncEntry) -> String {
    let name = if entry.is_null() { (*f).name().to_vec() } else { (*entry).name().to_vec() };
    let scope = if entry.is_null() { core::ptr::null() } else { (*entry).scope };
    let name = String::from_utf8_lossy(&name).into_owned();
    if scope.is_null() {
        name
    } else {
        format!("{}::{}", (*scope).name_str(), name)
    }
}

/// The extra named arguments of `call` (made on first use).
unsafe fn extra_array(vm: &mut Vm, call: *mut Frame) -> *mut ZArray {
    if let Some((_, a)) = vm.extra_named.iter().rev().find(|e| e.0 == call) {
        return a.arr();
    }
    let a = ZArray::new();
    vm.extra_named.push((call, Zval::array(a)));
    (*call).this.type_info |= CALL_HAS_EXTRA_NAMED;
    a
}

/// Takes the extra named arguments of the frame `f` (flag cleared), if any.
pub unsafe fn take_extra(vm: &mut Vm, f: *mut Frame) -> Option<Zval> {
    if (*f).this.type_info & CALL_HAS_EXTRA_NAMED == 0 {
        return None;
    }
    (*f).this.type_info &= !CALL_HAS_EXTRA_NAMED;
    let i = vm.extra_named.iter().rposition(|e| e.0 == f)?;
    Some(vm.extra_named.remove(i).1)
}

/// Releases the extra named arguments of a frame that ends (or is abandoned).
#[cold]
#[inline(never)]
pub unsafe fn free_extra(f: *mut Frame) {
    let vm = crate::exec::vm::current();
    if vm.is_null() {
        return;
    }
    if let Some(a) = take_extra(&mut *vm, f) {
        a.ptr_dtor();
    }
}

/// A prepared call moved (its frame grew onto a new page): tables keyed by
/// the frame follow it.
pub fn call_moved(vm: &mut Vm, from: *mut Frame, to: *mut Frame) {
    for e in vm.extra_named.iter_mut().filter(|e| e.0 == from) {
        e.0 = to;
    }
    for e in vm.pending_magic.iter_mut().filter(|e| e.0 == from) {
        e.0 = to;
    }
}

/// Hands a call made from Rust its extra named arguments: the frame
/// `call_user_with` / `call_function` pushes next takes `vm.pending_named`.
pub unsafe fn adopt_pending(vm: &mut Vm, f: *mut Frame) {
    if !vm.pending_named.is_undef() {
        let a = core::mem::replace(&mut vm.pending_named, Zval::UNDEF);
        vm.extra_named.push((f, a));
        (*f).this.type_info |= CALL_HAS_EXTRA_NAMED;
    }
}

/// `zend_handle_named_arg`: the slot of the prepared call's argument for the
/// parameter called `name` (UNDEF), and its 1-based number — 0 when a
/// variadic callee collects it as an extra named argument. The frame grows
/// (and may move) to reach the slot; skipped slots become UNDEF gaps.
pub unsafe fn named_slot(vm: &mut Vm, fp: *mut Zval, name: &[u8]) -> Result<(*mut Zval, u32), Thrown> {
    let f = fp as *mut Frame;
    let call = (*f).call;
    let op = &(*(*call).func).op;
    let shown = || String::from_utf8_lossy(name).into_owned();
    let Some(i) = op.arg_info.iter().take(op.num_args as usize).position(|a| a.name == name) else {
        if op.arg_info.last().is_some_and(|a| a.variadic) {
            let a = extra_array(vm, call);
            if (*a).find_bytes(name).is_some() {
                return Err(vm.throw_error("Error", &format!("Named parameter ${} overwrites previous argument", shown())));
            }
            let k = ZString::new(name);
            let slot = (*a).update_str(k, Zval::UNDEF);
            Zval::string(k).ptr_dtor();
            return Ok((slot, 0));
        }
        return Err(vm.throw_error("Error", &format!("Unknown named parameter ${}", shown())));
    };
    let i = i as u32;
    let n = (*call).num_args();
    if i < n {
        let slot = Frame::slot(call, i);
        if !(*slot).is_undef() {
            return Err(vm.throw_error("Error", &format!("Named parameter ${} overwrites previous argument", shown())));
        }
        return Ok((slot, i + 1));
    }
    let call = super::misc::grow_call(vm, fp, i + 1)?;
    for j in n..=i {
        *Frame::slot(call, j) = Zval::UNDEF;
    }
    if i > n {
        (*call).this.type_info |= CALL_MAY_HAVE_UNDEF;
    }
    (*call).this.u2 = i + 1;
    Ok((Frame::slot(call, i), i + 1))
}

/// `Cannot pass parameter by reference` for argument `num` of the prepared call.
unsafe fn cannot_pass_by_ref(vm: &mut Vm, call: *mut Frame, num: u32) -> Thrown {
    let op = &(*(*call).func).op;
    let pname = op.arg_info.get(num as usize - 1).map(|a| String::from_utf8_lossy(&a.name).into_owned()).unwrap_or_default();
    let msg = format!("{}(): Argument #{} (${}) cannot be passed by reference", callee_name(call), num, pname);
    vm.throw_error("Error", &msg)
}

/// A SEND_* whose op2 is a parameter name: op1 goes to that parameter, by
/// value or by reference as the opcode and the callee say. Consumes op1
/// when it succeeds (on a throw the handler frees it).
#[cold]
#[inline(never)]
pub unsafe fn send_named(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let name = (*(*operand::const_2(ip)).str()).bytes().to_vec();
    let (arg, num) = named_slot(vm, fp, &name)?;
    let call = (*(fp as *mut Frame)).call;
    let code = (*ip).opcode();
    let by_ref = param_by_ref(call, num);
    match code {
        Opcode::SendValEx if by_ref => {
            let t = cannot_pass_by_ref(vm, call, num);
            // The slot stays UNDEF (an extra named one too: not collected then).
            return Err(t);
        }
        Opcode::SendRef | Opcode::SendVarEx if code == Opcode::SendRef || by_ref => {
            let var = if (*ip).op1_type == IS_VAR { operand::var_ptr_1(ip, fp) } else { operand::slot_1(ip, fp) };
            super::call::make_ref(var);
            *arg = (*var).copy_value();
            if (*ip).op1_type == IS_VAR {
                operand::free_1(ip, fp);
            }
        }
        Opcode::SendVarNoRef | Opcode::SendVarNoRefEx if code == Opcode::SendVarNoRef || by_ref => {
            let slot = operand::slot_1(ip, fp);
            let v = *slot;
            *slot = Zval::UNDEF;
            if v.is_reference() {
                *arg = v;
            } else {
                *arg = Zval::reference(crate::value::ZRef::new(v));
                vm.notice("Only variables should be passed by reference");
            }
        }
        _ => {
            let v = super::take(vm, fp, ip, 1);
            *arg = if (*ip).op1_type == IS_CV { let d = v.copy_deref(); v.ptr_dtor(); d } else { v };
        }
    }
    Ok(())
}

/// The default of builtin parameter `i` (0-based) as its registry writes
/// it after `=`: a number, a double-quoted string (with `\n`-style and
/// `\xHH` escapes), `null`/`true`/`false`, `[]`, or constants joined by
/// `|`. `None` when the registry gives none.
fn builtin_default(def: &crate::stdlib::BuiltinDef, i: usize) -> Option<Zval> {
    let p = def.param(i)?;
    let d = p.default?.trim();
    Some(match d {
        "null" => Zval::NULL,
        "true" => Zval::bool(true),
        "false" => Zval::bool(false),
        "[]" => Zval::array(ZArray::new()),
        _ if d.len() >= 2 && d.starts_with('"') && d.ends_with('"') => Zval::string(ZString::new(&unescape(&d[1..d.len() - 1]))),
        _ => {
            if let Ok(n) = d.parse::<i64>() {
                Zval::long(n)
            } else if d.contains('|') {
                let mut bits = 0;
                for c in d.split('|') {
                    let v = crate::stdlib::constant(c.trim().as_bytes())?;
                    bits |= v.lval();
                }
                Zval::long(bits)
            } else {
                crate::stdlib::constant(d.as_bytes())?
            }
        }
    })
}

/// A registry default string's escapes.
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            i += 1;
            out.push(match b[i] {
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'v' => 0x0b,
                b'f' => 0x0c,
                b'0' => 0,
                b'x' if i + 2 < b.len() => {
                    let h = u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap_or(0);
                    i += 2;
                    h
                }
                c => c,
            });
        } else {
            out.push(b[i]);
        }
        i += 1;
    }
    out
}

/// The value of parameter `i` (0-based) that named arguments skipped
/// (`zend_handle_undef_args`): its default, or an ArgumentCountError for a
/// required one (or a builtin's whose default the registry does not give).
pub unsafe fn skipped_default(vm: &mut Vm, func: *const Function, entry: *mut FuncEntry, called: *const crate::runtime::class::Class, i: u32) -> Result<Zval, Thrown> {
    let op = &(*func).op;
    let pname = op.arg_info.get(i as usize).map(|a| String::from_utf8_lossy(&a.name).into_owned()).unwrap_or_default();
    let fname = display_name(func, entry);
    if (*func).is_user() {
        if let Some(r) = op.ops.get(i as usize).filter(|r| r.opcode() == Opcode::RecvInit) {
            return super::call::recv_default_value(vm, func, entry, called, r);
        }
    } else {
        let def = (*func).decl.or_else(|| crate::stdlib::find_builtin(&(*func).name().to_ascii_lowercase()));
        if let Some(v) = def.and_then(|d| builtin_default(d, i as usize)) {
            return Ok(v);
        }
        if i >= op.required_args {
            let msg = format!("{fname}(): Argument #{} (${pname}) must be passed explicitly, because the default value is not known", i + 1);
            return Err(vm.throw_error("ArgumentCountError", &msg));
        }
    }
    let msg = format!("{fname}(): Argument #{} (${pname}) not passed", i + 1);
    Err(vm.throw_error("ArgumentCountError", &msg))
}

/// CHECK_UNDEF_ARGS after named arguments left gaps: each skipped
/// parameter gets its default (`skipped_default`).
#[cold]
#[inline(never)]
pub unsafe fn handle_undef_args(vm: &mut Vm, fp: *mut Zval, ip: *const Op) -> Result<(), Thrown> {
    super::enter(vm, fp, ip);
    let call = (*(fp as *mut Frame)).call;
    (*call).this.type_info &= !CALL_MAY_HAVE_UNDEF;
    for i in 0..(*call).num_args() {
        let slot = Frame::slot(call, i);
        if (*slot).is_undef() {
            let entry = (*call).entry;
            let called = if (*entry).scope.is_null() { core::ptr::null() } else { (*call).scope };
            *slot = skipped_default(vm, (*call).func, entry, called, i)?;
        }
    }
    Ok(())
}

/// Named arguments for a call made from Rust (`call_user_func_array` with
/// string keys): the positional arguments, completed with the named ones
/// and the defaults of skipped parameters (all owned), and the extra named
/// arguments a variadic callee collects (an array, or UNDEF).
pub unsafe fn bind_named(vm: &mut Vm, entry: *mut FuncEntry, called: *const crate::runtime::class::Class, positional: &[Zval], named: &[(Vec<u8>, Zval)]) -> Result<(Vec<Zval>, Zval), Thrown> {
    let func = (*entry).func;
    let op = &(*func).op;
    let mut args: Vec<Zval> = positional.iter().map(|v| v.copy_value()).collect();
    let mut extra = Zval::UNDEF;
    let fail = |args: &Vec<Zval>, extra: Zval| {
        for a in args {
            a.ptr_dtor();
        }
        extra.ptr_dtor();
    };
    for (name, v) in named {
        let shown = String::from_utf8_lossy(name).into_owned();
        let by_ref = |i: Option<usize>| match i {
            Some(i) => op.arg_info[i].by_ref,
            None => op.arg_info.last().is_some_and(|a| a.by_ref),
        };
        match op.arg_info.iter().take(op.num_args as usize).position(|a| a.name == *name) {
            Some(i) => {
                if i < args.len() && !args[i].is_undef() {
                    fail(&args, extra);
                    return Err(vm.throw_error("Error", &format!("Named parameter ${shown} overwrites previous argument")));
                }
                while args.len() <= i {
                    args.push(Zval::UNDEF);
                }
                args[i] = if by_ref(Some(i)) { v.copy_value() } else { v.copy_deref() };
            }
            None if op.arg_info.last().is_some_and(|a| a.variadic) => {
                if extra.is_undef() {
                    extra = Zval::array(ZArray::new());
                }
                let a = extra.arr();
                if (*a).find_bytes(name).is_some() {
                    fail(&args, extra);
                    return Err(vm.throw_error("Error", &format!("Named parameter ${shown} overwrites previous argument")));
                }
                let k = ZString::new(name);
                (*a).update_str(k, if by_ref(None) { v.copy_value() } else { v.copy_deref() });
                Zval::string(k).ptr_dtor();
            }
            None => {
                fail(&args, extra);
                return Err(vm.throw_error("Error", &format!("Unknown named parameter ${shown}")));
            }
        }
    }
    for i in 0..args.len() {
        if args[i].is_undef() {
            match skipped_default(vm, func, entry, called, i as u32) {
                Ok(v) => args[i] = v,
                Err(t) => {
                    fail(&args, extra);
                    return Err(t);
                }
            }
        }
    }
    Ok((args, extra))
}

/// The named entries of an extra-named-arguments array, as (name, value)
/// pairs (values borrowed from the array).
pub unsafe fn named_pairs(a: *const ZArray) -> Vec<(Vec<u8>, Zval)> {
    (*a).iter()
        .filter_map(|(k, v)| match k {
            crate::value::array::KeyRef::Str(k) => Some((k.bytes().to_vec(), *v)),
            _ => None,
        })
        .collect()
}

/// The string-keyed entries of an unpacked array: sent as named arguments.
pub unsafe fn send_unpacked_named(vm: &mut Vm, fp: *mut Zval, name: &[u8], val: *mut Zval, from_cv: bool) -> Result<(), Thrown> {
    let (arg, num) = named_slot(vm, fp, name)?;
    let call = (*(fp as *mut Frame)).call;
    *arg = unpacked_arg(param_by_ref(call, num), val, from_cv);
    Ok(())
}

/// The argument an unpacked element `val` makes: its value, or for a
/// by-reference parameter a reference (into the variable's own array when
/// it came from a CV).
pub unsafe fn unpacked_arg(by_ref: bool, val: *mut Zval, from_cv: bool) -> Zval {
    if !by_ref {
        (*val).copy_deref()
    } else if from_cv {
        crate::value::refs::make_ref(val);
        (*val).copy_value()
    } else if (*val).is_reference() {
        (*val).copy_value()
    } else {
        Zval::reference(crate::value::ZRef::new((*val).copy_value()))
    }
}
