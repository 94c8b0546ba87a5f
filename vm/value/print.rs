//! `var_dump`, `print_r` and `var_export` writers, byte-exact with PHP 8.2.
//!
//! Cycles (arrays reachable from themselves through references) are
//! detected with the arrays' recursion guard, as Zend does; objects being
//! printed carry the same `GC_PROTECTED` mark.

use super::array::{KeyRef, ZArray};
use super::convert::append_string;
use super::number;
use super::object::ZObject;
use super::zval::*;
use crate::runtime::class::{CLASS_ENUM, CLASS_ENUM_INT, CLASS_ENUM_STRING};

#[inline]
fn spaces(n: usize, out: &mut Vec<u8>) {
    out.resize(out.len() + n, b' ');
}

/// `var_dump($v)` output, with the trailing newline.
pub fn var_dump(v: &Zval, out: &mut Vec<u8>) {
    dump(v, 1, out);
}

fn dump(v: &Zval, level: usize, out: &mut Vec<u8>) {
    super::guard::check();
    super::heap::check_buffer(out.len());
    if level > 1 {
        spaces(level - 1, out);
    }
    let mut v = v;
    let mut common: &[u8] = b"";
    if v.is_reference() {
        // SAFETY: a reference-kind zval holds a live ZRef.
        if unsafe { (*v.zref()).header.refcount } > 1 {
            common = b"&";
        }
        v = v.deref();
    }
    out.extend_from_slice(common);
    match v.kind() {
        IS_FALSE => out.extend_from_slice(b"bool(false)\n"),
        IS_TRUE => out.extend_from_slice(b"bool(true)\n"),
        IS_UNDEF | IS_NULL => out.extend_from_slice(b"NULL\n"),
        IS_LONG => {
            out.extend_from_slice(b"int(");
            number::push_i64(v.lval(), out);
            out.extend_from_slice(b")\n");
        }
        IS_DOUBLE => {
            out.extend_from_slice(b"float(");
            number::fmt_repr(v.dval(), out);
            out.extend_from_slice(b")\n");
        }
        IS_STRING => {
            // SAFETY: a string-kind zval holds a live ZString.
            let b = unsafe { (*v.str()).bytes() };
            out.extend_from_slice(b"string(");
            number::push_i64(b.len() as i64, out);
            out.extend_from_slice(b") \"");
            out.extend_from_slice(b);
            out.extend_from_slice(b"\"\n");
        }
        IS_ARRAY => {
            let a = v.arr();
            // SAFETY: an array-kind zval holds a live ZArray; the guard is
            // released before returning.
            unsafe {
                if !ZArray::enter_recursion(a) {
                    out.truncate(out.len() - common.len());
                    out.extend_from_slice(b"*RECURSION*\n");
                    return;
                }
                out.extend_from_slice(b"array(");
                number::push_i64((*a).len() as i64, out);
                out.extend_from_slice(b") {\n");
                for (k, val) in (*a).iter() {
                    spaces(level + 1, out);
                    match k {
                        KeyRef::Int(i) => {
                            out.push(b'[');
                            number::push_i64(i, out);
                            out.extend_from_slice(b"]=>\n");
                        }
                        KeyRef::Str(s) => {
                            out.extend_from_slice(b"[\"");
                            out.extend_from_slice(s.bytes());
                            out.extend_from_slice(b"\"]=>\n");
                        }
                    }
                    dump(val, level + 2, out);
                }
                ZArray::leave_recursion(a);
            }
            if level > 1 {
                spaces(level - 1, out);
            }
            out.extend_from_slice(b"}\n");
        }
        IS_OBJECT => {
            let o = v.obj();
            // SAFETY: an object-kind zval holds a live object.
            if let Some(case) = unsafe { enum_case_name(o) } {
                out.extend_from_slice(b"enum(");
                out.extend_from_slice(&case);
                out.extend_from_slice(b")\n");
                return;
            }
            // SAFETY: an object-kind zval holds a live object; the guard is
            // released before returning.
            unsafe {
                let c = ZObject::class(o);
                if !enter_object(o) {
                    out.truncate(out.len() - common.len());
                    out.extend_from_slice(b"*RECURSION*\n");
                    return;
                }
                if let Some(info) = crate::exec::slow::closure::debug_info(o) {
                    out.extend_from_slice(b"object(Closure)#");
                    number::push_i64((*o).handle as i64, out);
                    out.extend_from_slice(b" (");
                    number::push_i64(info.len() as i64, out);
                    out.extend_from_slice(b") {\n");
                    for (k, v) in &info {
                        spaces(level + 1, out);
                        out.extend_from_slice(b"[\"");
                        out.extend_from_slice(k.as_bytes());
                        out.extend_from_slice(b"\"]=>\n");
                        dump(v, level + 2, out);
                        v.ptr_dtor();
                    }
                    leave_object(o);
                    if level > 1 {
                        spaces(level - 1, out);
                    }
                    out.extend_from_slice(b"}\n");
                    return;
                }
                let props = object_props(o);
                out.extend_from_slice(b"object(");
                out.extend_from_slice(c.display_name());
                out.extend_from_slice(b")#");
                number::push_i64((*o).handle as i64, out);
                out.extend_from_slice(b" (");
                number::push_i64(props.iter().filter(|p| !p.val.is_undef()).count() as i64, out);
                out.extend_from_slice(b") {\n");
                for p in &props {
                    spaces(level + 1, out);
                    out.extend_from_slice(b"[");
                    match p.key {
                        PropKey::Int(i) => number::push_i64(i, out),
                        PropKey::Str(n) => {
                            out.push(b'"');
                            out.extend_from_slice(n);
                            out.push(b'"');
                        }
                    }
                    match p.vis {
                        Vis::Public => {}
                        Vis::Protected => out.extend_from_slice(b":protected"),
                        Vis::Private(cls) => {
                            out.extend_from_slice(b":\"");
                            out.extend_from_slice(cls);
                            out.extend_from_slice(b"\":private");
                        }
                    }
                    out.extend_from_slice(b"]=>\n");
                    if p.val.is_undef() {
                        spaces(level + 1, out);
                        out.extend_from_slice(b"uninitialized(");
                        out.extend_from_slice(p.ty.as_bytes());
                        out.extend_from_slice(b")\n");
                    } else {
                        dump(p.val, level + 2, out);
                    }
                }
                leave_object(o);
            }
            if level > 1 {
                spaces(level - 1, out);
            }
            out.extend_from_slice(b"}\n");
        }
        _ => out.extend_from_slice(b"NULL\n"),
    }
}

/// `Class::Case` of an enum case object (None for other objects).
///
/// # Safety
/// `o` is a live object.
unsafe fn enum_case_name(o: *mut ZObject) -> Option<Vec<u8>> {
    let c = ZObject::class(o);
    if c.flags & CLASS_ENUM == 0 {
        return None;
    }
    let p = crate::runtime::builtin_classes::prop_slot(o, b"name");
    if p.is_null() || !(*p).is_string() {
        return None;
    }
    let mut b = c.display_name().to_vec();
    b.extend_from_slice(b"::");
    b.extend_from_slice((*(*p).str()).bytes());
    Some(b)
}

/// Visibility of a property as the printers show it.
pub enum Vis<'a> {
    Public,
    Protected,
    Private(&'a [u8]),
}

pub enum PropKey<'a> {
    Int(i64),
    Str(&'a [u8]),
}

/// One property of an object, in the order PHP lists them.
pub struct PropView<'a> {
    pub key: PropKey<'a>,
    pub vis: Vis<'a>,
    pub val: &'a Zval,
    /// The declared type (for `uninitialized(T)`), else empty.
    pub ty: &'a str,
}

/// The properties of `o`: declared ones in slot order (unset untyped ones
/// left out, unset typed ones kept as UNDEF), then dynamic ones.
///
/// # Safety
/// `o` is a live object.
pub unsafe fn object_props<'a>(o: *mut ZObject) -> Vec<PropView<'a>> {
    use crate::runtime::class::{ACC_PRIVATE, ACC_PROTECTED};
    let c = ZObject::class(o);
    let mut v = Vec::new();
    for pi in &c.props {
        let val = &*ZObject::slot(o, pi.slot);
        if val.is_undef() && pi.ty.is_none() {
            continue;
        }
        let vis = if pi.flags & ACC_PRIVATE != 0 {
            Vis::Private((*pi.scope).display_name())
        } else if pi.flags & ACC_PROTECTED != 0 {
            Vis::Protected
        } else {
            Vis::Public
        };
        let ty = pi.ty.as_ref().map_or("", |t| t.1.as_str());
        v.push(PropView { key: PropKey::Str(&pi.name), vis, val, ty });
    }
    let d = (*o).dynamic;
    if !d.is_null() {
        for (k, val) in (*d).iter() {
            let key = match k {
                KeyRef::Int(i) => PropKey::Int(i),
                KeyRef::Str(s) => PropKey::Str(s.bytes()),
            };
            v.push(PropView { key, vis: Vis::Public, val, ty: "" });
        }
    }
    v
}

/// Marks `o` as being printed; false if it already is (a cycle).
///
/// # Safety
/// `o` is a live object.
pub unsafe fn enter_object(o: *mut ZObject) -> bool {
    if (*o).header.is_protected() {
        return false;
    }
    (*o).header.type_info |= GC_PROTECTED;
    true
}

/// # Safety
/// `o` is a live object marked by `enter_object`.
pub unsafe fn leave_object(o: *mut ZObject) {
    (*o).header.type_info &= !GC_PROTECTED;
}

/// `print_r($v, true)` output (no trailing newline for scalars; arrays end
/// with ")\n").
pub fn print_r(v: &Zval, out: &mut Vec<u8>) {
    print_r_at(v, 0, out);
}

fn print_r_at(v: &Zval, indent: usize, out: &mut Vec<u8>) {
    super::guard::check();
    super::heap::check_buffer(out.len());
    let v = v.deref();
    match v.kind() {
        IS_ARRAY => {
            let a = v.arr();
            out.extend_from_slice(b"Array\n");
            // SAFETY: live array; the guard is released before returning.
            unsafe {
                if !ZArray::enter_recursion(a) {
                    out.extend_from_slice(b" *RECURSION*");
                    return;
                }
                spaces(indent, out);
                out.extend_from_slice(b"(\n");
                for (k, val) in (*a).iter() {
                    spaces(indent + 4, out);
                    out.push(b'[');
                    match k {
                        KeyRef::Int(i) => number::push_i64(i, out),
                        KeyRef::Str(s) => out.extend_from_slice(s.bytes()),
                    }
                    out.extend_from_slice(b"] => ");
                    print_r_at(val, indent + 8, out);
                    out.push(b'\n');
                }
                spaces(indent, out);
                out.extend_from_slice(b")\n");
                ZArray::leave_recursion(a);
            }
        }
        IS_OBJECT => {
            let o = v.obj();
            // SAFETY: live object; the guard is released before returning.
            unsafe {
                let c = ZObject::class(o);
                out.extend_from_slice(c.display_name());
                if c.flags & CLASS_ENUM != 0 {
                    out.extend_from_slice(b" Enum");
                    if c.flags & CLASS_ENUM_INT != 0 {
                        out.extend_from_slice(b":int");
                    } else if c.flags & CLASS_ENUM_STRING != 0 {
                        out.extend_from_slice(b":string");
                    }
                    out.push(b'\n');
                } else {
                    out.extend_from_slice(b" Object\n");
                }
                if !enter_object(o) {
                    out.extend_from_slice(b" *RECURSION*");
                    return;
                }
                spaces(indent, out);
                out.extend_from_slice(b"(\n");
                for p in object_props(o) {
                    if p.val.is_undef() {
                        continue;
                    }
                    spaces(indent + 4, out);
                    out.push(b'[');
                    match p.key {
                        PropKey::Int(i) => number::push_i64(i, out),
                        PropKey::Str(n) => out.extend_from_slice(n),
                    }
                    match p.vis {
                        Vis::Public => {}
                        Vis::Protected => out.extend_from_slice(b":protected"),
                        Vis::Private(c) => {
                            out.push(b':');
                            out.extend_from_slice(c);
                            out.extend_from_slice(b":private");
                        }
                    }
                    out.extend_from_slice(b"] => ");
                    print_r_at(p.val, indent + 8, out);
                    out.push(b'\n');
                }
                spaces(indent, out);
                out.extend_from_slice(b")\n");
                leave_object(o);
            }
        }
        _ => append_string(v, out),
    }
}

/// Appends `s` as a single-quoted PHP literal (`\'`, `\\`, NUL spliced in
/// as `' . "\0" . '`).
fn export_str(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'\'');
    for &c in s {
        match c {
            b'\'' | b'\\' => {
                out.push(b'\\');
                out.push(c);
            }
            0 => out.extend_from_slice(b"' . \"\\0\" . '"),
            _ => out.push(c),
        }
    }
    out.push(b'\'');
}

/// `var_export($v, true)` output. Returns false if a circular reference was
/// met (exported as `NULL`; PHP warns "var_export does not handle circular
/// references").
pub fn var_export(v: &Zval, out: &mut Vec<u8>) -> bool {
    export(v, 1, out)
}

fn export(v: &Zval, level: usize, out: &mut Vec<u8>) -> bool {
    super::guard::check();
    super::heap::check_buffer(out.len());
    let v = v.deref();
    match v.kind() {
        IS_FALSE => out.extend_from_slice(b"false"),
        IS_TRUE => out.extend_from_slice(b"true"),
        IS_UNDEF | IS_NULL => out.extend_from_slice(b"NULL"),
        IS_LONG => {
            if v.lval() == i64::MIN {
                out.extend_from_slice(b"-9223372036854775807-1");
            } else {
                number::push_i64(v.lval(), out);
            }
        }
        IS_DOUBLE => number::fmt_export(v.dval(), out),
        // SAFETY: a string-kind zval holds a live ZString.
        IS_STRING => export_str(unsafe { (*v.str()).bytes() }, out),
        IS_ARRAY => {
            let a = v.arr();
            let mut ok = true;
            // SAFETY: live array; the guard is released before returning.
            unsafe {
                if !ZArray::enter_recursion(a) {
                    out.extend_from_slice(b"NULL");
                    return false;
                }
                if level > 1 {
                    out.push(b'\n');
                    spaces(level - 1, out);
                }
                out.extend_from_slice(b"array (\n");
                for (k, val) in (*a).iter() {
                    spaces(level + 1, out);
                    match k {
                        KeyRef::Int(i) => number::push_i64(i, out),
                        KeyRef::Str(s) => export_str(s.bytes(), out),
                    }
                    out.extend_from_slice(b" => ");
                    ok &= export(val, level + 2, out);
                    out.extend_from_slice(b",\n");
                }
                ZArray::leave_recursion(a);
            }
            if level > 1 {
                spaces(level - 1, out);
            }
            out.push(b')');
            return ok;
        }
        IS_OBJECT => {
            let o = v.obj();
            // SAFETY: an object-kind zval holds a live object.
            if let Some(case) = unsafe { enum_case_name(o) } {
                if level > 1 {
                    out.push(b'\n');
                    spaces(level - 1, out);
                }
                out.push(b'\\');
                out.extend_from_slice(&case);
                return true;
            }
            let mut ok = true;
            // SAFETY: live object; the guard is released before returning.
            unsafe {
                if !enter_object(o) {
                    out.extend_from_slice(b"NULL");
                    return false;
                }
                let c = ZObject::class(o);
                if level > 1 {
                    out.push(b'\n');
                    spaces(level - 1, out);
                }
                if c.lc == b"stdclass" {
                    out.extend_from_slice(b"(object) array(\n");
                } else {
                    out.push(b'\\');
                    out.extend_from_slice(&c.name);
                    out.extend_from_slice(b"::__set_state(array(\n");
                }
                for p in object_props(o) {
                    if p.val.is_undef() {
                        continue;
                    }
                    spaces(level + 2, out);
                    match p.key {
                        PropKey::Int(i) => number::push_i64(i, out),
                        PropKey::Str(n) => export_str(n, out),
                    }
                    out.extend_from_slice(b" => ");
                    ok &= export(p.val, level + 2, out);
                    out.extend_from_slice(b",\n");
                }
                leave_object(o);
                if level > 1 {
                    spaces(level - 1, out);
                }
                out.extend_from_slice(if c.lc == b"stdclass" { b")" } else { b"))" });
            }
            return ok;
        }
        _ => out.extend_from_slice(b"NULL"),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{ZRef, ZString};

    fn key(a: *mut ZArray, k: &str, v: Zval) {
        let ks = ZString::new(k.as_bytes());
        // SAFETY: test arrays are fresh and unshared.
        unsafe {
            (*a).update_str(ks, v);
            (*ks).header.refcount -= 1;
        }
    }
    fn s(b: &str) -> Zval {
        Zval::string(ZString::new(b.as_bytes()))
    }

    /// `$x = 5; $a = [1, "a"=>"x", "n"=>[true, null, 1.5, -0.0, []],
    /// "r"=>&$x, "s"=>"it's \\ q\"\n", 7=>[1=>[2=>"deep"]], -3=>1e100];`
    /// Returns the array and the reference box (`$x` holds one owner).
    fn sample() -> (Zval, *mut ZRef) {
        unsafe {
            let a = ZArray::new();
            (*a).append(Zval::long(1));
            key(a, "a", s("x"));
            let n = ZArray::new();
            for v in [Zval::TRUE, Zval::NULL, Zval::double(1.5), Zval::double(-0.0), Zval::array(ZArray::new())] {
                (*n).append(v);
            }
            key(a, "n", Zval::array(n));
            let r = ZRef::new(Zval::long(5));
            (*r).header.refcount += 1;
            key(a, "r", Zval::reference(r));
            key(a, "s", s("it's \\ q\"\n"));
            let d2 = ZArray::new();
            (*d2).update_int(2, s("deep"));
            let d1 = ZArray::new();
            (*d1).update_int(1, Zval::array(d2));
            (*a).update_int(7, Zval::array(d1));
            (*a).update_int(-3, Zval::double(1e100));
            (Zval::array(a), r)
        }
    }

    const DUMP: &str = r#"array(7) {
  [0]=>
  int(1)
  ["a"]=>
  string(1) "x"
  ["n"]=>
  array(5) {
    [0]=>
    bool(true)
    [1]=>
    NULL
    [2]=>
    float(1.5)
    [3]=>
    float(-0)
    [4]=>
    array(0) {
    }
  }
  ["r"]=>
  &int(5)
  ["s"]=>
  string(10) "it's \ q"
"
  [7]=>
  array(1) {
    [1]=>
    array(1) {
      [2]=>
      string(4) "deep"
    }
  }
  [-3]=>
  float(1.0E+100)
}
"#;

    const PRINT_R: &str = "Array\n(\n    [0] => 1\n    [a] => x\n    [n] => Array\n        (\n            [0] => 1\n            [1] => \n            [2] => 1.5\n            [3] => -0\n            [4] => Array\n                (\n                )\n\n        )\n\n    [r] => 5\n    [s] => it's \\ q\"\n\n    [7] => Array\n        (\n            [1] => Array\n                (\n                    [2] => deep\n                )\n\n        )\n\n    [-3] => 1.0E+100\n)\n";

    const EXPORT: &str = r#"array (
  0 => 1,
  'a' => 'x',
  'n' => 
  array (
    0 => true,
    1 => NULL,
    2 => 1.5,
    3 => -0.0,
    4 => 
    array (
    ),
  ),
  'r' => 5,
  's' => 'it\'s \\ q"
',
  7 => 
  array (
    1 => 
    array (
      2 => 'deep',
    ),
  ),
  -3 => 1.0E+100,
)"#;

    #[test]
    fn nested_shapes_match_php() {
        let _leaks = crate::value::LeakCheck::new();
        let (a, r) = sample();
        let mut o = Vec::new();
        var_dump(&a, &mut o);
        assert_eq!(String::from_utf8_lossy(&o), DUMP);
        o.clear();
        print_r(&a, &mut o);
        assert_eq!(String::from_utf8_lossy(&o), PRINT_R);
        o.clear();
        assert!(var_export(&a, &mut o));
        assert_eq!(String::from_utf8_lossy(&o), EXPORT);
        unsafe {
            a.ptr_dtor();
            assert_eq!((*r).header.refcount, 1);
            Zval::reference(r).ptr_dtor();
        }
    }

    #[test]
    fn scalars() {
        let _leaks = crate::value::LeakCheck::new();
        let mut o = Vec::new();
        // print_r(1.0); print_r(null); print_r(false); print_r(true);
        for v in [Zval::double(1.0), Zval::NULL, Zval::FALSE, Zval::TRUE] {
            print_r(&v, &mut o);
        }
        assert_eq!(o, b"11");
        o.clear();
        // var_export(1.0); var_export(null); var_export(false); var_export("a\0b");
        // var_export([]); var_export(-0.0); var_export(PHP_INT_MIN);
        let nul = s("a\0b");
        let empty = Zval::array(ZArray::new());
        for v in [Zval::double(1.0), Zval::NULL, Zval::FALSE, nul, empty, Zval::double(-0.0), Zval::long(i64::MIN)] {
            var_export(&v, &mut o);
        }
        assert_eq!(String::from_utf8_lossy(&o), "1.0NULLfalse'a' . \"\\0\" . 'b'array (\n)-0.0-9223372036854775807-1");
        o.clear();
        print_r(&empty, &mut o);
        assert_eq!(o, b"Array\n(\n)\n");
        unsafe {
            nul.ptr_dtor();
            empty.ptr_dtor();
        }
    }

    #[test]
    fn recursion_markers() {
        let _leaks = crate::value::LeakCheck::new();
        unsafe {
            // $w = ["k" => 1]; $w["self"] = &$w;
            let a = ZArray::new();
            key(a, "k", Zval::long(1));
            let r = ZRef::new(Zval::array(a));
            key(a, "self", Zval::reference(r));
            (*r).header.refcount += 1; // $w itself
            let w = Zval::array(a);
            let mut o = Vec::new();
            var_dump(&w, &mut o);
            assert_eq!(String::from_utf8_lossy(&o), "array(2) {\n  [\"k\"]=>\n  int(1)\n  [\"self\"]=>\n  *RECURSION*\n}\n");
            o.clear();
            print_r(&w, &mut o);
            assert_eq!(String::from_utf8_lossy(&o), "Array\n(\n    [k] => 1\n    [self] => Array\n *RECURSION*\n)\n");
            o.clear();
            assert!(!var_export(&w, &mut o));
            assert_eq!(String::from_utf8_lossy(&o), "array (\n  'k' => 1,\n  'self' => NULL,\n)");
            // var_dump(&$y inside [&$y]): $y=[1]; $z=[&$y];
            let y = ZArray::new();
            (*y).append(Zval::long(1));
            let ry = ZRef::new(Zval::array(y));
            (*ry).header.refcount += 1;
            let z = ZArray::new();
            (*z).append(Zval::reference(ry));
            o.clear();
            var_dump(&Zval::array(z), &mut o);
            assert_eq!(String::from_utf8_lossy(&o), "array(1) {\n  [0]=>\n  &array(1) {\n    [0]=>\n    int(1)\n  }\n}\n");
            ZArray::free(z);
            Zval::reference(ry).ptr_dtor();
            let ks = ZString::new(b"self");
            (*a).remove_str(&*ks);
            ZString::free(ks);
            Zval::reference(r).ptr_dtor();
        }
    }
}
