//! Builtin functions, one file per PHP extension area, and the builtin
//! constants. The registry is constant data (names → Rust functions); each
//! context makes its own `Function` records from it on first use.

pub mod args;
pub mod array;
pub mod math;
pub mod string;
pub mod var;

use crate::runtime::function::BuiltinFn;
use crate::value::{ZString, Zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING, IS_TRUE, IS_UNDEF};

/// A builtin's registry entry.
pub struct BuiltinDef {
    pub name: &'static str,
    pub f: BuiltinFn,
    /// Parameter names; a leading `&` marks a by-reference parameter, a
    /// leading `...` a variadic one.
    pub params: &'static [&'static str],
    pub required: u32,
}

macro_rules! builtins {
    ($( $name:literal => $f:path, [$($p:literal),*], $req:literal; )*) => {
        pub static BUILTINS: &[BuiltinDef] = &[
            $( BuiltinDef { name: $name, f: $f, params: &[$($p),*], required: $req }, )*
        ];
    };
}

builtins! {
    "var_dump" => var::var_dump, ["value", "...values"], 1;
    "print_r" => var::print_r, ["value", "return"], 1;
    "var_export" => var::var_export, ["value", "return"], 1;
    "gettype" => var::gettype, ["value"], 1;
    "is_int" => var::is_int, ["value"], 1;
    "is_float" => var::is_float, ["value"], 1;
    "is_string" => var::is_string, ["value"], 1;
    "is_bool" => var::is_bool, ["value"], 1;
    "is_array" => var::is_array, ["value"], 1;
    "is_null" => var::is_null, ["value"], 1;
    "is_numeric" => var::is_numeric, ["value"], 1;
    "intval" => var::intval, ["value", "base"], 1;
    "floatval" => var::floatval, ["value"], 1;
    "strval" => var::strval, ["value"], 1;
    "boolval" => var::boolval, ["value"], 1;
    "define" => var::define, ["constant_name", "value", "case_insensitive"], 2;
    "defined" => var::defined, ["constant_name"], 1;
    "constant" => var::constant, ["name"], 1;
    "strlen" => string::strlen, ["string"], 1;
    "str_repeat" => string::str_repeat, ["string", "times"], 2;
    "implode" => string::implode, ["separator", "array"], 1;
    "ord" => string::ord, ["character"], 1;
    "chr" => string::chr, ["codepoint"], 1;
    "dechex" => string::dechex, ["num"], 1;
    "count" => array::count, ["value", "mode"], 1;
    "range" => array::range, ["start", "end", "step"], 2;
    "microtime" => math::microtime, ["as_float"], 0;
    "intdiv" => math::intdiv, ["num1", "num2"], 2;
    "abs" => math::abs, ["num"], 1;
    "min" => math::min, ["value", "...values"], 1;
    "max" => math::max, ["value", "...values"], 1;
    "sqrt" => math::sqrt, ["num"], 1;
    "floor" => math::floor, ["num"], 1;
    "ceil" => math::ceil, ["num"], 1;
}

/// The builtin named `lcname` (lowercase, no leading backslash).
pub fn find_builtin(lcname: &[u8]) -> Option<&'static BuiltinDef> {
    BUILTINS.iter().find(|b| b.name.as_bytes() == lcname)
}

/// PHP's name of a value's type in messages (`int`, `string`, `array`, `null`).
pub fn type_name(v: &Zval) -> &'static str {
    match v.deref().kind() {
        IS_NULL | IS_UNDEF => "null",
        IS_FALSE | IS_TRUE => "bool",
        IS_LONG => "int",
        IS_DOUBLE => "float",
        IS_STRING => "string",
        IS_ARRAY => "array",
        IS_OBJECT => "object",
        _ => "mixed",
    }
}

/// A builtin constant's value.
pub fn constant(name: &[u8]) -> Option<Zval> {
    Some(match name {
        b"PHP_EOL" => Zval::string(ZString::new(b"\n")),
        b"PHP_INT_MAX" => Zval::long(i64::MAX),
        b"PHP_INT_MIN" => Zval::long(i64::MIN),
        b"PHP_INT_SIZE" => Zval::long(8),
        b"PHP_FLOAT_EPSILON" => Zval::double(f64::EPSILON),
        b"PHP_FLOAT_MAX" => Zval::double(f64::MAX),
        b"PHP_FLOAT_MIN" => Zval::double(f64::MIN_POSITIVE),
        b"PHP_FLOAT_DIG" => Zval::long(15),
        b"NAN" => Zval::double(f64::NAN),
        b"INF" => Zval::double(f64::INFINITY),
        b"M_PI" => Zval::double(std::f64::consts::PI),
        b"M_E" => Zval::double(std::f64::consts::E),
        b"PHP_VERSION" => Zval::string(ZString::new(b"8.2.36")),
        b"PHP_MAJOR_VERSION" => Zval::long(8),
        b"PHP_MINOR_VERSION" => Zval::long(2),
        b"PHP_OS" => Zval::string(ZString::new(b"Linux")),
        b"PHP_OS_FAMILY" => Zval::string(ZString::new(b"Linux")),
        b"E_ALL" => Zval::long(crate::runtime::error::E_ALL),
        b"E_ERROR" => Zval::long(1),
        b"E_WARNING" => Zval::long(2),
        b"E_NOTICE" => Zval::long(8),
        b"E_DEPRECATED" => Zval::long(8192),
        b"E_STRICT" => Zval::long(2048),
        b"E_USER_ERROR" => Zval::long(256),
        b"E_USER_WARNING" => Zval::long(512),
        b"E_USER_NOTICE" => Zval::long(1024),
        b"E_USER_DEPRECATED" => Zval::long(16384),
        b"COUNT_RECURSIVE" => Zval::long(1),
        b"COUNT_NORMAL" => Zval::long(0),
        _ => return None,
    })
}
