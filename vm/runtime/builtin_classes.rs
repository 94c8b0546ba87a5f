//! The builtin classes and interfaces of PHP 8.2 that Tusk provides:
//! `stdClass`, the core interfaces, the Throwable hierarchy, `Closure`.
//! Their definitions are built once per context and bound at the start of
//! each request, before any user class.

use super::class::*;
use crate::exec::{Thrown, Vm};
use crate::ops::{ArgInfo, OpArray, TypeMask};
use crate::runtime::function::{BuiltinFn, Function};
use crate::value::object::ZObject;
use crate::value::{ZArray, ZString, Zval};
use tusk_macros::builtin;

fn method(name: &str, params: &[&str], required: u32, f: BuiltinFn, flags: u32) -> MethodDef {
    let mut op = OpArray::new(name.as_bytes().to_vec(), std::sync::Arc::from(""));
    for p in params {
        op.arg_info.push(ArgInfo { name: p.as_bytes().to_vec(), ..Default::default() });
    }
    op.num_args = params.len() as u32;
    op.required_args = required;
    MethodDef { func: Box::new(Function { op, builtin: Some(f), decl: None }), flags }
}

/// A method declared with `#[builtin("Class::name(…)")]`: its name,
/// parameters and required count come from the declaration.
pub fn declared_method(def: &'static crate::stdlib::BuiltinDef, flags: u32) -> MethodDef {
    let name = def.name.rsplit("::").next().unwrap_or(def.name);
    let mut f = crate::exec::vm::builtin_function(def);
    f.op.name = name.as_bytes().to_vec();
    MethodDef { func: Box::new(f), flags }
}

fn abstract_method(name: &str, params: &[&str]) -> MethodDef {
    method(name, params, params.len() as u32, unreachable_method, ACC_PUBLIC | ACC_ABSTRACT)
}

fn unreachable_method(vm: &mut Vm, _a: &[Zval], _r: &mut Zval) -> Result<(), Thrown> {
    Err(vm.throw_error("Error", "Cannot call abstract method"))
}

fn class(name: &str, flags: u32, parent: Option<&str>, interfaces: &[&str]) -> ClassDef {
    let mut d = ClassDef::new(name.as_bytes(), flags | CLASS_INTERNAL, 0);
    d.parent = parent.map(|p| p.as_bytes().to_vec());
    d.interfaces = interfaces.iter().map(|i| i.as_bytes().to_vec()).collect();
    d
}

fn prop(name: &str, default: Zval, flags: u32, ty: Option<&str>) -> PropDef {
    PropDef { name: name.as_bytes().to_vec(), default: Some(Init::Lit(default)), flags, ty: ty.map(|t| (TypeMask(0), t.to_string())), line: 0 }
}

fn str_val(s: &str) -> Zval {
    Zval::string(ZString::new(s.as_bytes()))
}

/// Whether `lc` names a builtin class or interface.
pub fn is_builtin_name(lc: &[u8]) -> bool {
    const NAMES: &[&str] = &[
        "stdclass", "traversable", "iterator", "iteratoraggregate", "arrayaccess", "countable", "stringable",
        "jsonserializable", "unitenum", "backedenum", "throwable", "exception", "error", "errorexception",
        "compileerror", "parseerror", "typeerror", "argumentcounterror", "valueerror", "arithmeticerror",
        "divisionbyzeroerror", "unhandledmatcherror", "jsonexception", "logicexception", "badfunctioncallexception",
        "badmethodcallexception", "domainexception", "invalidargumentexception", "lengthexception",
        "outofrangeexception", "runtimeexception", "outofboundsexception", "overflowexception", "rangeexception",
        "underflowexception", "unexpectedvalueexception", "closure", "arrayobject", "arrayiterator", "generator", "reflectionexception", "reflectionclass", "reflectionenum",
        "reflectionmethod", "reflectionproperty", "reflectionfunction", "reflectionnamedtype", "reflectionenumunitcase",
        "reflectionenumbackedcase", "splobjectstorage", "weakmap", "internaliterator", "phptoken",
    ];
    NAMES.iter().any(|n| n.as_bytes() == lc)
}

/// The builtin class definitions, in binding order (parents first).
pub fn definitions() -> Vec<Box<ClassDef>> {
    let mut v = Vec::new();
    v.push(Box::new({
        let mut d = class("stdClass", CLASS_ALLOW_DYNAMIC, None, &[]);
        d.flags |= CLASS_ALLOW_DYNAMIC;
        d
    }));
    v.push(Box::new(class("Traversable", CLASS_INTERFACE, None, &[])));
    v.push(Box::new({
        let mut d = class("Iterator", CLASS_INTERFACE, None, &["Traversable"]);
        for m in ["current", "next", "key", "valid", "rewind"] {
            d.methods.push(abstract_method(m, &[]));
        }
        d
    }));
    v.push(Box::new({
        let mut d = class("IteratorAggregate", CLASS_INTERFACE, None, &["Traversable"]);
        d.methods.push(abstract_method("getIterator", &[]));
        d
    }));
    v.push(Box::new({
        let mut d = class("ArrayAccess", CLASS_INTERFACE, None, &[]);
        d.methods.push(abstract_method("offsetExists", &["offset"]));
        d.methods.push(abstract_method("offsetGet", &["offset"]));
        d.methods.push(abstract_method("offsetSet", &["offset", "value"]));
        d.methods.push(abstract_method("offsetUnset", &["offset"]));
        d
    }));
    v.push(Box::new({
        let mut d = class("Countable", CLASS_INTERFACE, None, &[]);
        d.methods.push(abstract_method("count", &[]));
        d
    }));
    v.push(Box::new({
        let mut d = class("Stringable", CLASS_INTERFACE, None, &[]);
        d.methods.push(abstract_method("__toString", &[]));
        d
    }));
    v.push(Box::new({
        let mut d = class("JsonSerializable", CLASS_INTERFACE, None, &[]);
        d.methods.push(abstract_method("jsonSerialize", &[]));
        d
    }));
    v.push(Box::new(class("UnitEnum", CLASS_INTERFACE, None, &[])));
    v.push(Box::new(class("BackedEnum", CLASS_INTERFACE, None, &["UnitEnum"])));
    v.push(Box::new({
        let mut d = class("Throwable", CLASS_INTERFACE, None, &["Stringable"]);
        for m in ["getMessage", "getCode", "getFile", "getLine", "getTrace", "getPrevious", "getTraceAsString"] {
            d.methods.push(abstract_method(m, &[]));
        }
        d
    }));
    v.push(Box::new(throwable_base("Exception")));
    v.push(Box::new(throwable_base("Error")));
    v.push(Box::new({
        let mut d = class("ErrorException", 0, Some("Exception"), &[]);
        d.props.push(prop("severity", Zval::long(1), ACC_PROTECTED, Some("int")));
        d.methods.push(declared_method(&error_exception_construct::DEF, ACC_PUBLIC));
        d.methods.push(method("getSeverity", &[], 0, error_exception_get_severity, ACC_PUBLIC | ACC_FINAL));
        d
    }));
    for (name, parent) in [
        ("CompileError", "Error"),
        ("ParseError", "CompileError"),
        ("TypeError", "Error"),
        ("ArgumentCountError", "TypeError"),
        ("ValueError", "Error"),
        ("ArithmeticError", "Error"),
        ("DivisionByZeroError", "ArithmeticError"),
        ("UnhandledMatchError", "Error"),
        ("JsonException", "Exception"),
        ("LogicException", "Exception"),
        ("BadFunctionCallException", "LogicException"),
        ("BadMethodCallException", "BadFunctionCallException"),
        ("DomainException", "LogicException"),
        ("InvalidArgumentException", "LogicException"),
        ("LengthException", "LogicException"),
        ("OutOfRangeException", "LogicException"),
        ("RuntimeException", "Exception"),
        ("OutOfBoundsException", "RuntimeException"),
        ("OverflowException", "RuntimeException"),
        ("RangeException", "RuntimeException"),
        ("UnderflowException", "RuntimeException"),
        ("UnexpectedValueException", "RuntimeException"),
    ] {
        v.push(Box::new(class(name, 0, Some(parent), &[])));
    }
    v.push(Box::new({
        use crate::exec::slow::closure as cl;
        let mut d = class("Closure", CLASS_FINAL, None, &[]);
        let mut inv = method("__invoke", &["args"], 0, cl::closure_invoke, ACC_PUBLIC);
        if let Some(a) = inv.func.op.arg_info.last_mut() {
            a.variadic = true;
        }
        inv.func.op.num_args = 0;
        d.methods.push(inv);
        d.methods.push(method("bind", &["closure", "newThis", "newScope"], 2, cl::closure_bind, ACC_PUBLIC | ACC_STATIC));
        d.methods.push(method("bindTo", &["newThis", "newScope"], 1, cl::closure_bind_to, ACC_PUBLIC));
        let mut call = method("call", &["newThis", "args"], 1, cl::closure_call, ACC_PUBLIC);
        if let Some(a) = call.func.op.arg_info.last_mut() {
            a.variadic = true;
        }
        call.func.op.num_args = 1;
        d.methods.push(call);
        d.methods.push(method("fromCallable", &["callback"], 1, cl::closure_from_callable, ACC_PUBLIC | ACC_STATIC));
        d
    }));
    v.push(Box::new({
        use crate::exec::generator as g;
        let mut d = class("Generator", CLASS_FINAL, None, &["Iterator"]);
        d.methods.push(method("current", &[], 0, g::m_current, ACC_PUBLIC));
        d.methods.push(method("key", &[], 0, g::m_key, ACC_PUBLIC));
        d.methods.push(method("next", &[], 0, g::m_next, ACC_PUBLIC));
        d.methods.push(method("valid", &[], 0, g::m_valid, ACC_PUBLIC));
        d.methods.push(method("rewind", &[], 0, g::m_rewind, ACC_PUBLIC));
        d.methods.push(method("send", &["value"], 1, g::m_send, ACC_PUBLIC));
        d.methods.push(method("throw", &["exception"], 1, g::m_throw, ACC_PUBLIC));
        d.methods.push(method("getReturn", &[], 0, g::m_get_return, ACC_PUBLIC));
        d
    }));
    let storage = || prop("storage", Zval::array(ZArray::new()), ACC_PRIVATE, None);
    for d in crate::stdlib::spl::definitions(method, storage) {
        v.push(Box::new(d));
    }
    for d in crate::stdlib::objmap::definitions(method) {
        v.push(Box::new(d));
    }
    for d in crate::stdlib::tokenizer::definitions(method) {
        v.push(Box::new(d));
    }
    let name_prop = |n: &str| prop(n, str_val(""), ACC_PUBLIC, Some("string"));
    for d in crate::stdlib::reflection::definitions(method, name_prop) {
        v.push(Box::new(d));
    }
    v
}

/// `Exception` or `Error`: the properties and methods both declare.
fn throwable_base(name: &str) -> ClassDef {
    let mut d = class(name, 0, None, &["Throwable"]);
    d.props.push(prop("message", str_val(""), ACC_PROTECTED, None));
    d.props.push(prop("string", str_val(""), ACC_PRIVATE, Some("string")));
    d.props.push(prop("code", Zval::long(0), ACC_PROTECTED, None));
    d.props.push(prop("file", str_val(""), ACC_PROTECTED, Some("string")));
    d.props.push(prop("line", Zval::long(0), ACC_PROTECTED, Some("int")));
    d.props.push(prop("trace", Zval::array(ZArray::new()), ACC_PRIVATE, Some("array")));
    d.props.push(prop("previous", Zval::NULL, ACC_PRIVATE, Some("?Throwable")));
    d.methods.push(declared_method(&exception_construct::DEF, ACC_PUBLIC));
    d.methods.push(method("getMessage", &[], 0, exception_get_message, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("getCode", &[], 0, exception_get_code, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("getFile", &[], 0, exception_get_file, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("getLine", &[], 0, exception_get_line, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("getTrace", &[], 0, exception_get_trace, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("getPrevious", &[], 0, exception_get_previous, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("getTraceAsString", &[], 0, exception_get_trace_as_string, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("__toString", &[], 0, exception_to_string, ACC_PUBLIC));
    d
}

/// Binds every builtin class into `vm` (a new request).
pub fn bind_all(vm: &mut Vm) {
    let defs: Vec<*const ClassDef> = vm.builtin_class_defs.iter().map(|d| &**d as *const ClassDef).collect();
    for d in defs {
        // SAFETY: the definitions live as long as the context.
        let r = unsafe { super::classes::declare_class(vm, d) };
        if let Ok(c) = r {
            // SAFETY: just bound; the class table owns it.
            unsafe {
                if (*c).is_subclass_of_name(b"throwable") && !(*c).is_interface() {
                    (*(c as *mut Class)).create = Some(init_throwable);
                }
            }
        }
    }
}

/// `$this` of the running builtin method.
fn this(vm: &Vm) -> *mut ZObject {
    // SAFETY: a builtin method runs in its own frame (`vm.cur`).
    unsafe { (*vm.cur).this_obj() }
}

/// The slot of declared property `name` of `o` (null if the class has none).
pub unsafe fn prop_slot(o: *mut ZObject, name: &[u8]) -> *mut Zval {
    let c = ZObject::class(o);
    match c.prop_map.get(name) {
        Some(&i) => ZObject::slot(o, c.props[i as usize].slot),
        None => {
            // A private property of an ancestor (Exception's `trace`, …).
            for p in &c.props {
                if p.name == name {
                    return ZObject::slot(o, p.slot);
                }
            }
            core::ptr::null_mut()
        }
    }
}

unsafe fn set_prop(o: *mut ZObject, name: &[u8], v: Zval) {
    let p = prop_slot(o, name);
    if p.is_null() {
        v.ptr_dtor();
        return;
    }
    let old = *p;
    *p = v;
    old.ptr_dtor();
}

/// A new throwable's file, line and trace: where it was created.
unsafe fn init_throwable(vm: &mut Vm, o: *mut ZObject) {
    let (file, line) = vm.location();
    set_prop(o, b"file", str_val(&file));
    set_prop(o, b"line", Zval::long(line as i64));
    let trace = crate::runtime::error::backtrace_array(vm);
    set_prop(o, b"trace", trace);
}

fn get_prop_ret(vm: &mut Vm, name: &[u8], r: &mut Zval) -> Result<(), Thrown> {
    let o = this(vm);
    // SAFETY: `o` is the live `$this` of the running method.
    unsafe {
        let p = prop_slot(o, name);
        if !p.is_null() {
            *r = (*p).copy_deref();
        }
    }
    Ok(())
}

#[builtin("Exception::__construct(string $message = \"\", int $code = 0, ?Throwable $previous = null)")]
fn exception_construct(vm: &mut Vm, message: Option<&[u8]>, code: Option<i64>, previous: Option<*mut ZObject>) -> Result<(), Thrown> {
    let o = this(vm);
    // SAFETY: `o` is the live `$this` of the running method; `previous`
    // is a live object the argument holds.
    unsafe {
        if let Some(m) = message {
            set_prop(o, b"message", str_val_bytes(m));
        }
        if let Some(c) = code {
            set_prop(o, b"code", Zval::long(c));
        }
        if let Some(p) = previous {
            (*p).header.refcount += 1;
            set_prop(o, b"previous", Zval::object(p));
        }
    }
    Ok(())
}

/// `ErrorException::__construct($message, $code, $severity, $filename, $line, $previous)`.
#[builtin("ErrorException::__construct(string $message = \"\", int $code = 0, int $severity = E_ERROR, ?string $filename = null, ?int $line = null, ?Throwable $previous = null)")]
fn error_exception_construct(vm: &mut Vm, message: Option<&[u8]>, code: Option<i64>, severity: Option<i64>, filename: Option<&[u8]>, line: Option<i64>, previous: Option<*mut ZObject>) -> Result<(), Thrown> {
    let o = this(vm);
    // SAFETY: as in `exception_construct`.
    unsafe {
        if let Some(m) = message {
            set_prop(o, b"message", str_val_bytes(m));
        }
        if let Some(c) = code {
            set_prop(o, b"code", Zval::long(c));
        }
        if let Some(sv) = severity {
            set_prop(o, b"severity", Zval::long(sv));
        }
        match filename {
            Some(f) => {
                set_prop(o, b"file", str_val_bytes(f));
                set_prop(o, b"line", Zval::long(line.unwrap_or(0)));
            }
            None => {
                if let Some(l) = line {
                    set_prop(o, b"line", Zval::long(l));
                }
            }
        }
        if let Some(p) = previous {
            (*p).header.refcount += 1;
            set_prop(o, b"previous", Zval::object(p));
        }
    }
    Ok(())
}

fn str_val_bytes(b: &[u8]) -> Zval {
    Zval::string(ZString::new(b))
}

fn error_exception_get_severity(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    get_prop_ret(vm, b"severity", r)
}

fn exception_get_message(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    get_prop_ret(vm, b"message", r)
}
fn exception_get_code(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    get_prop_ret(vm, b"code", r)
}
fn exception_get_file(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    get_prop_ret(vm, b"file", r)
}
fn exception_get_line(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    get_prop_ret(vm, b"line", r)
}
fn exception_get_trace(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    get_prop_ret(vm, b"trace", r)
}
fn exception_get_previous(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    get_prop_ret(vm, b"previous", r)
}
fn exception_get_trace_as_string(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let o = this(vm);
    // SAFETY: `o` is the live `$this` of the running method.
    let s = unsafe { trace_as_string(o) };
    *r = str_val(&s);
    Ok(())
}

/// `getTraceAsString()`: `#0 file(line): func(args)` lines, then `{main}`.
pub unsafe fn trace_as_string(o: *mut ZObject) -> String {
    let mut out = String::new();
    let p = prop_slot(o, b"trace");
    let mut n = 0;
    if !p.is_null() && (*p).deref().is_array() {
        let a = (*p).deref().arr();
        for (_, fr) in (*a).iter() {
            let fr = fr.deref();
            if !fr.is_array() {
                continue;
            }
            let f = fr.arr();
            let get = |k: &[u8]| (*f).find_bytes(k).map(|v| (*v).deref());
            let text = |k: &[u8]| get(k).filter(|v| v.is_string()).map(|v| String::from_utf8_lossy((*v.str()).bytes()).into_owned());
            let mut line = format!("#{n} ");
            match (text(b"file"), get(b"line")) {
                (Some(file), Some(l)) => line.push_str(&format!("{}({}): ", file, l.lval())),
                _ => line.push_str("[internal function]: "),
            }
            if let Some(c) = text(b"class") {
                line.push_str(&c);
                line.push_str(&text(b"type").unwrap_or_default());
            }
            line.push_str(&text(b"function").unwrap_or_default());
            line.push('(');
            if let Some(args) = get(b"args").filter(|v| v.is_array()) {
                let parts: Vec<String> = (*args.arr()).iter().map(|(_, v)| crate::runtime::error::trace_arg(v)).collect();
                line.push_str(&parts.join(", "));
            }
            line.push_str(")\n");
            out.push_str(&line);
            n += 1;
        }
    }
    out.push_str(&format!("#{n} {{main}}"));
    out
}

/// `Exception::__toString()` (without chained previous exceptions' order subtleties).
pub unsafe fn throwable_string(o: *mut ZObject) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = o;
    let mut guard = 0;
    while !cur.is_null() && guard < 64 {
        let msg = prop_text(cur, b"message");
        let file = prop_text(cur, b"file");
        let line = {
            let p = prop_slot(cur, b"line");
            if p.is_null() { 0 } else { (*p).deref().lval() }
        };
        let cname = ZObject::class(cur).name_str();
        // Zend's __toString: an argument type error names where the
        // function is defined (the exception's file and line).
        let msg = if matches!(cname.as_str(), "TypeError" | "ArgumentCountError") && msg.contains(", called in ") { format!("{msg} and defined") } else { msg };
        let head = if msg.is_empty() { cname } else { format!("{cname}: {msg}") };
        parts.push(format!("{head} in {file}:{line}\nStack trace:\n{}", trace_as_string(cur)));
        let p = prop_slot(cur, b"previous");
        cur = if !p.is_null() && (*p).deref().is_object() { (*p).deref().obj() } else { core::ptr::null_mut() };
        guard += 1;
    }
    parts.reverse();
    parts.join("\n\nNext ")
}

unsafe fn prop_text(o: *mut ZObject, name: &[u8]) -> String {
    let p = prop_slot(o, name);
    if p.is_null() || !(*p).deref().is_string() {
        return String::new();
    }
    String::from_utf8_lossy((*(*p).deref().str()).bytes()).into_owned()
}

fn exception_to_string(vm: &mut Vm, _a: &[Zval], r: &mut Zval) -> Result<(), Thrown> {
    let o = this(vm);
    // SAFETY: `o` is the live `$this` of the running method.
    let s = unsafe { throwable_string(o) };
    *r = str_val(&s);
    Ok(())
}
