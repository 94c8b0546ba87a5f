//! Builtin functions, one file per PHP extension area, and the builtin
//! constants. The registry is constant data (names → Rust functions); each
//! context makes its own `Function` records from it on first use.

pub mod args;
pub mod array;
pub mod callback;
pub mod classes;
pub mod ctype;
pub mod date;
pub mod enums;
pub mod format;
pub mod hash;
pub mod json;
pub mod math;
pub mod objmap;
pub mod pcre;
pub mod preg;
pub mod reflection;
pub mod spl;
pub mod string;
pub mod tokenizer;
pub mod var;

use crate::value::{ZString, Zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING, IS_TRUE, IS_UNDEF};

pub use crate::runtime::function::BuiltinDef;

/// A legacy parameter string's name (without its marks and default).
pub fn param_name(p: &str) -> &str {
    let p = p.split_once('=').map_or(p, |(n, _)| n);
    p.trim_start_matches("...").trim_start_matches('&')
}

macro_rules! builtins {
    ($( $name:literal => $f:path, [$($p:literal),*], $req:literal; )*) => {
        pub static BUILTINS: &[BuiltinDef] = &[
            $( BuiltinDef { name: $name, f: $f, args: &[], legacy: &[$($p),*], required: $req, ret: "", is_static: false }, )*
        ];
    };
}

// The builtins declared with `#[builtin]` (DECLARED, DECLARED_ALIASES),
// collected from vm/stdlib by the build script.
include!(concat!(env!("OUT_DIR"), "/builtins.rs"));

builtins! {
    // classes
    "get_class" => classes::get_class, ["object"], 0;
    "get_parent_class" => classes::get_parent_class, ["object_or_class"], 0;
    "method_exists" => classes::method_exists, ["object_or_class", "method"], 2;
    "property_exists" => classes::property_exists, ["object_or_class", "property"], 2;
    "class_exists" => classes::class_exists, ["class", "autoload=true"], 1;
    "interface_exists" => classes::interface_exists, ["interface", "autoload=true"], 1;
    "enum_exists" => classes::enum_exists, ["enum", "autoload=true"], 1;
    "trait_exists" => classes::trait_exists, ["trait", "autoload=true"], 1;
    "get_object_vars" => classes::get_object_vars, ["object"], 1;
    "get_class_methods" => classes::get_class_methods, ["object_or_class"], 1;
    "spl_object_id" => classes::spl_object_id, ["object"], 1;
    "spl_object_hash" => classes::spl_object_hash, ["object"], 1;
    "is_a" => classes::is_a, ["object_or_class", "class", "allow_string=false"], 2;
    "is_subclass_of" => classes::is_subclass_of, ["object_or_class", "class", "allow_string=true"], 2;
    "class_parents" => classes::class_parents, ["object_or_class", "autoload=true"], 1;
    "class_implements" => classes::class_implements, ["object_or_class", "autoload=true"], 1;
    "class_uses" => classes::class_uses, ["object_or_class", "autoload=true"], 1;
    "get_class_vars" => classes::get_class_vars, ["class"], 1;
    // var
    "var_dump" => var::var_dump, ["value", "...values"], 1;
    "print_r" => var::print_r, ["value", "return=false"], 1;
    "var_export" => var::var_export, ["value", "return=false"], 1;
    "gettype" => var::gettype, ["value"], 1;
    "get_debug_type" => var::get_debug_type, ["value"], 1;
    "settype" => var::settype, ["&var", "type"], 2;
    "is_int" => var::is_int, ["value"], 1;
    "is_integer" => var::is_int, ["value"], 1;
    "is_long" => var::is_int, ["value"], 1;
    "is_float" => var::is_float, ["value"], 1;
    "is_double" => var::is_float, ["value"], 1;
    "is_string" => var::is_string, ["value"], 1;
    "is_bool" => var::is_bool, ["value"], 1;
    "is_array" => var::is_array, ["value"], 1;
    "is_null" => var::is_null, ["value"], 1;
    "is_numeric" => var::is_numeric, ["value"], 1;
    "is_object" => var::is_object, ["value"], 1;
    "is_resource" => var::is_resource, ["value"], 1;
    "is_scalar" => var::is_scalar, ["value"], 1;
    "is_iterable" => var::is_iterable, ["value"], 1;
    "is_countable" => var::is_countable, ["value"], 1;
    "is_callable" => var::is_callable, ["value", "syntax_only=false", "&callable_name=null"], 1;
    "intval" => var::intval, ["value", "base=10"], 1;
    "floatval" => var::floatval, ["value"], 1;
    "doubleval" => var::floatval, ["value"], 1;
    "strval" => var::strval, ["value"], 1;
    "boolval" => var::boolval, ["value"], 1;
    "serialize" => var::serialize, ["value"], 1;
    "unserialize" => var::unserialize, ["data", "options=[]"], 1;
    "define" => var::define, ["constant_name", "value", "case_insensitive=false"], 2;
    "defined" => var::defined, ["constant_name"], 1;
    "constant" => var::constant, ["name"], 1;
    "function_exists" => var::function_exists, ["function"], 1;
    "get_defined_functions" => var::get_defined_functions, ["exclude_disabled"], 0;
    "call_user_func" => var::call_user_func, ["callback", "...args"], 1;
    "call_user_func_array" => var::call_user_func_array, ["callback", "args"], 2;
    "forward_static_call" => var::forward_static_call, ["callback", "...args"], 1;
    "forward_static_call_array" => var::forward_static_call_array, ["callback", "args"], 2;
    "func_get_args" => var::func_get_args, [], 0;
    "get_defined_vars" => var::get_defined_vars, [], 0;
    "register_tick_function" => var::register_tick_function, ["callback", "...args"], 1;
    "unregister_tick_function" => var::unregister_tick_function, ["callback"], 1;
    "func_num_args" => var::func_num_args, [], 0;
    "func_get_arg" => var::func_get_arg, ["position"], 1;
    "ini_get" => var::ini_get, ["option"], 1;
    "ini_set" => var::ini_set, ["option", "value"], 2;
    "ini_alter" => var::ini_set, ["option", "value"], 2;
    "set_time_limit" => var::set_time_limit, ["seconds"], 1;
    "error_reporting" => var::error_reporting, ["error_level"], 0;
    "trigger_error" => var::trigger_error, ["message", "error_level=E_USER_NOTICE"], 1;
    "user_error" => var::trigger_error, ["message", "error_level=E_USER_NOTICE"], 1;
    "json_encode" => json::json_encode, ["value", "flags=0", "depth=512"], 1;
    "json_decode" => json::json_decode, ["json", "associative=null", "depth=512", "flags=0"], 1;
    "json_last_error" => json::json_last_error, [], 0;
    "json_last_error_msg" => json::json_last_error_msg, [], 0;
    // string
    "strlen" => string::strlen, ["string"], 1;
    "str_repeat" => string::str_repeat, ["string", "times"], 2;
    "implode" => string::implode, ["separator", "array"], 1;
    "join" => string::implode, ["separator", "array"], 1;
    "explode" => string::explode, ["separator", "string", "limit=PHP_INT_MAX"], 2;
    "ord" => string::ord, ["character"], 1;
    "chr" => string::chr, ["codepoint"], 1;
    "substr" => string::substr, ["string", "offset", "length=null"], 2;
    "strpos" => string::strpos, ["haystack", "needle", "offset=0"], 2;
    "stripos" => string::stripos, ["haystack", "needle", "offset=0"], 2;
    "strrpos" => string::strrpos, ["haystack", "needle", "offset=0"], 2;
    "strripos" => string::strripos, ["haystack", "needle", "offset=0"], 2;
    "strstr" => string::strstr, ["haystack", "needle", "before_needle=false"], 2;
    "strchr" => string::strstr, ["haystack", "needle", "before_needle=false"], 2;
    "stristr" => string::stristr, ["haystack", "needle", "before_needle=false"], 2;
    "strrchr" => string::strrchr, ["haystack", "needle"], 2;
    "str_contains" => string::str_contains, ["haystack", "needle"], 2;
    "str_starts_with" => string::str_starts_with, ["haystack", "needle"], 2;
    "str_ends_with" => string::str_ends_with, ["haystack", "needle"], 2;
    "trim" => string::trim, ["string", "characters=\"\\x20\\n\\r\\t\\v\\0\""], 1;
    "ltrim" => string::ltrim, ["string", "characters=\"\\x20\\n\\r\\t\\v\\0\""], 1;
    "rtrim" => string::rtrim, ["string", "characters=\"\\x20\\n\\r\\t\\v\\0\""], 1;
    "chop" => string::chop, ["string", "characters=\"\\x20\\n\\r\\t\\v\\0\""], 1;
    "strtoupper" => string::strtoupper, ["string"], 1;
    "strtolower" => string::strtolower, ["string"], 1;
    "ucfirst" => string::ucfirst, ["string"], 1;
    "lcfirst" => string::lcfirst, ["string"], 1;
    "ucwords" => string::ucwords, ["string", "separators=\"\\x20\\t\\r\\n\\f\\v\""], 1;
    "strrev" => string::strrev, ["string"], 1;
    "str_rot13" => string::str_rot13, ["string"], 1;
    "str_pad" => string::str_pad, ["string", "length", "pad_string=\" \"", "pad_type=STR_PAD_RIGHT"], 2;
    "str_split" => string::str_split, ["string", "length=1"], 1;
    "str_replace" => string::str_replace, ["search", "replace", "subject", "&count=null"], 3;
    "str_ireplace" => string::str_ireplace, ["search", "replace", "subject", "&count=null"], 3;
    "strcmp" => string::strcmp, ["string1", "string2"], 2;
    "strcasecmp" => string::strcasecmp, ["string1", "string2"], 2;
    "strncmp" => string::strncmp, ["string1", "string2", "length"], 3;
    "strncasecmp" => string::strncasecmp, ["string1", "string2", "length"], 3;
    "strnatcmp" => string::strnatcmp, ["string1", "string2"], 2;
    "strnatcasecmp" => string::strnatcasecmp, ["string1", "string2"], 2;
    "strcoll" => string::strcoll, ["string1", "string2"], 2;
    "substr_count" => string::substr_count, ["haystack", "needle", "offset=0", "length=null"], 2;
    "substr_replace" => string::substr_replace, ["string", "replace", "offset", "length=null"], 3;
    "substr_compare" => string::substr_compare, ["haystack", "needle", "offset", "length=null", "case_insensitive=false"], 3;
    "wordwrap" => string::wordwrap, ["string", "width=75", "break=\"\\n\"", "cut_long_words=false"], 1;
    "strtr" => string::strtr, ["string", "from", "to=null"], 2;
    "nl2br" => string::nl2br, ["string", "use_xhtml=true"], 1;
    "htmlspecialchars" => string::htmlspecialchars, ["string", "flags=ENT_QUOTES|ENT_SUBSTITUTE|ENT_HTML401", "encoding=null", "double_encode=true"], 1;
    "htmlentities" => string::htmlentities, ["string", "flags=ENT_QUOTES|ENT_SUBSTITUTE|ENT_HTML401", "encoding=null", "double_encode=true"], 1;
    "htmlspecialchars_decode" => string::htmlspecialchars_decode, ["string", "flags=ENT_QUOTES|ENT_SUBSTITUTE|ENT_HTML401"], 1;
    "html_entity_decode" => string::html_entity_decode, ["string", "flags=ENT_QUOTES|ENT_SUBSTITUTE|ENT_HTML401", "encoding=null"], 1;
    "bin2hex" => string::bin2hex, ["string"], 1;
    "hex2bin" => string::hex2bin, ["string"], 1;
    "addslashes" => string::addslashes, ["string"], 1;
    "stripslashes" => string::stripslashes, ["string"], 1;
    "addcslashes" => string::addcslashes, ["string", "characters"], 2;
    "quotemeta" => string::quotemeta, ["string"], 1;
    "chunk_split" => string::chunk_split, ["string", "length=76", "separator=\"\\r\\n\""], 1;
    "strspn" => string::strspn, ["string", "characters", "offset=0", "length=null"], 2;
    "strcspn" => string::strcspn, ["string", "characters", "offset=0", "length=null"], 2;
    "strpbrk" => string::strpbrk, ["string", "characters"], 2;
    "similar_text" => string::similar_text, ["string1", "string2", "&percent=null"], 2;
    "levenshtein" => string::levenshtein, ["string1", "string2", "insertion_cost=1", "replacement_cost=1", "deletion_cost=1"], 2;
    "soundex" => string::soundex, ["string"], 1;
    "metaphone" => string::metaphone, ["string", "max_phonemes=0"], 1;
    "strtok" => string::strtok, ["string", "token=null"], 1;
    "str_word_count" => string::str_word_count, ["string", "format=0", "characters=null"], 1;
    "count_chars" => string::count_chars, ["string", "mode=0"], 1;
    "strip_tags" => string::strip_tags, ["string", "allowed_tags=null"], 1;
    "crc32" => string::crc32, ["string"], 1;
    "str_getcsv" => string::str_getcsv, ["string", "separator=\",\"", "enclosure=\"\\\"\"", "escape=\"\\\\\""], 1;
    "dirname" => string::dirname, ["path", "levels=1"], 1;
    "basename" => string::basename, ["path", "suffix=\"\""], 1;
    "str_shuffle" => string::str_shuffle, ["string"], 1;
    "lcg_value" => string::lcg_value, [], 0;
    "sprintf" => format::sprintf, ["format", "...values"], 1;
    "printf" => format::printf, ["format", "...values"], 1;
    "vsprintf" => format::vsprintf, ["format", "values"], 2;
    "vprintf" => format::vprintf, ["format", "values"], 2;
    "number_format" => format::number_format, ["num", "decimals=0", "decimal_separator=\".\"", "thousands_separator=\",\""], 1;
    // array
    "count" => array::count, ["value", "mode=COUNT_NORMAL"], 1;
    "sizeof" => array::count, ["value", "mode=COUNT_NORMAL"], 1;
    "range" => array::range, ["start", "end", "step=1"], 2;
    "array_keys" => array::array_keys, ["array", "filter_value", "strict=false"], 1;
    "array_values" => array::array_values, ["array"], 1;
    "array_key_exists" => array::array_key_exists, ["key", "array"], 2;
    "key_exists" => array::array_key_exists, ["key", "array"], 2;
    "in_array" => array::in_array, ["needle", "haystack", "strict=false"], 2;
    "array_search" => array::array_search, ["needle", "haystack", "strict=false"], 2;
    "array_key_first" => array::array_key_first, ["array"], 1;
    "array_key_last" => array::array_key_last, ["array"], 1;
    "array_is_list" => array::array_is_list, ["array"], 1;
    "array_push" => array::array_push, ["&array", "...values"], 1;
    "array_pop" => array::array_pop, ["&array"], 1;
    "array_shift" => array::array_shift, ["&array"], 1;
    "array_unshift" => array::array_unshift, ["&array", "...values"], 1;
    "array_merge" => array::array_merge, ["...arrays"], 0;
    "array_merge_recursive" => array::array_merge_recursive, ["...arrays"], 0;
    "array_replace" => array::array_replace, ["array", "...replacements"], 1;
    "array_replace_recursive" => array::array_replace_recursive, ["array", "...replacements"], 1;
    "array_combine" => array::array_combine, ["keys", "values"], 2;
    "array_fill" => array::array_fill, ["start_index", "count", "value"], 3;
    "array_fill_keys" => array::array_fill_keys, ["keys", "value"], 2;
    "array_flip" => array::array_flip, ["array"], 1;
    "array_pad" => array::array_pad, ["array", "length", "value"], 3;
    "array_chunk" => array::array_chunk, ["array", "length", "preserve_keys=false"], 2;
    "array_slice" => array::array_slice, ["array", "offset", "length=null", "preserve_keys=false"], 2;
    "array_splice" => array::array_splice, ["&array", "offset", "length=null", "replacement=[]"], 2;
    "array_reverse" => array::array_reverse, ["array", "preserve_keys=false"], 1;
    "array_sum" => array::array_sum, ["array"], 1;
    "array_product" => array::array_product, ["array"], 1;
    "array_count_values" => array::array_count_values, ["array"], 1;
    "array_change_key_case" => array::array_change_key_case, ["array", "case=CASE_LOWER"], 1;
    "array_column" => array::array_column, ["array", "column_key", "index_key=null"], 2;
    "array_unique" => array::array_unique, ["array", "flags=SORT_STRING"], 1;
    "array_diff" => array::array_diff, ["array", "...arrays"], 1;
    "array_diff_key" => array::array_diff_key, ["array", "...arrays"], 1;
    "array_diff_assoc" => array::array_diff_assoc, ["array", "...arrays"], 1;
    "array_intersect" => array::array_intersect, ["array", "...arrays"], 1;
    "array_intersect_key" => array::array_intersect_key, ["array", "...arrays"], 1;
    "array_intersect_assoc" => array::array_intersect_assoc, ["array", "...arrays"], 1;
    "array_udiff" => array::array_udiff, ["array", "...rest"], 1;
    "array_uintersect" => array::array_uintersect, ["array", "...rest"], 1;
    "array_diff_ukey" => array::array_diff_ukey, ["array", "...rest"], 1;
    "array_intersect_ukey" => array::array_intersect_ukey, ["array", "...rest"], 1;
    "array_diff_uassoc" => array::array_diff_uassoc, ["array", "...rest"], 1;
    "array_udiff_assoc" => array::array_udiff_assoc, ["array", "...rest"], 1;
    "array_uintersect_assoc" => array::array_uintersect_assoc, ["array", "...rest"], 1;
    "array_intersect_uassoc" => array::array_intersect_uassoc, ["array", "...rest"], 1;
    "array_map" => array::array_map, ["callback", "array", "...arrays"], 2;
    "array_filter" => array::array_filter, ["array", "callback=null", "mode=0"], 1;
    "array_reduce" => array::array_reduce, ["array", "callback", "initial=null"], 2;
    "array_walk" => array::array_walk, ["&array", "callback", "arg"], 2;
    "array_walk_recursive" => array::array_walk_recursive, ["&array", "callback", "arg"], 2;
    "array_rand" => array::array_rand, ["array", "num=1"], 1;
    "shuffle" => array::shuffle, ["&array"], 1;
    "sort" => array::sort, ["&array", "flags=SORT_REGULAR"], 1;
    "rsort" => array::rsort, ["&array", "flags=SORT_REGULAR"], 1;
    "asort" => array::asort, ["&array", "flags=SORT_REGULAR"], 1;
    "arsort" => array::arsort, ["&array", "flags=SORT_REGULAR"], 1;
    "ksort" => array::ksort, ["&array", "flags=SORT_REGULAR"], 1;
    "krsort" => array::krsort, ["&array", "flags=SORT_REGULAR"], 1;
    "usort" => array::usort, ["&array", "callback"], 2;
    "uasort" => array::uasort, ["&array", "callback"], 2;
    "uksort" => array::uksort, ["&array", "callback"], 2;
    "natsort" => array::natsort, ["&array"], 1;
    "natcasesort" => array::natcasesort, ["&array"], 1;
    "current" => array::current, ["array"], 1;
    "pos" => array::pos, ["array"], 1;
    "key" => array::key, ["array"], 1;
    "next" => array::next, ["&array"], 1;
    "prev" => array::prev, ["&array"], 1;
    "reset" => array::reset, ["&array"], 1;
    "end" => array::end, ["&array"], 1;
    "iterator_to_array" => array::iterator_to_array, ["iterator", "preserve_keys=true"], 1;
    "iterator_count" => array::iterator_count, ["iterator"], 1;
    "compact" => array::compact, ["var_name", "...var_names"], 1;
    "extract" => array::extract, ["array", "flags=EXTR_OVERWRITE", "prefix=\"\""], 1;
    // date and runtime
    "date" => date::date, ["format", "timestamp=null"], 1;
    "gmdate" => date::gmdate, ["format", "timestamp=null"], 1;
    "mktime" => date::mktime, ["hour=null", "minute=null", "second=null", "month=null", "day=null", "year=null"], 0;
    "gmmktime" => date::gmmktime, ["hour=null", "minute=null", "second=null", "month=null", "day=null", "year=null"], 0;
    "checkdate" => date::checkdate, ["month", "day", "year"], 3;
    "date_default_timezone_get" => date::date_default_timezone_get, [], 0;
    "date_default_timezone_set" => date::date_default_timezone_set, ["timezoneId"], 1;
    "php_sapi_name" => date::php_sapi_name, [], 0;
    "phpversion" => date::phpversion, ["extension"], 0;
    "memory_get_usage" => date::memory_get_usage, ["real_usage=false"], 0;
    "memory_get_peak_usage" => date::memory_get_usage, ["real_usage=false"], 0;
    "gc_collect_cycles" => date::gc_collect_cycles, [], 0;
    "usleep" => date::usleep, ["microseconds"], 1;
    "sleep" => date::sleep, ["seconds"], 1;
    "version_compare" => date::version_compare, ["version1", "version2", "operator=null"], 2;
    // digests and encodings
    "md5" => hash::md5, ["string", "binary=false"], 1;
    "sha1" => hash::sha1, ["string", "binary=false"], 1;
    "hash" => hash::hash, ["algo", "data", "binary=false", "options=[]"], 2;
    "hash_algos" => hash::hash_algos, [], 0;
    "base64_encode" => hash::base64_encode, ["string"], 1;
    "base64_decode" => hash::base64_decode, ["string", "strict=false"], 1;
    "urlencode" => hash::urlencode, ["string"], 1;
    "rawurlencode" => hash::rawurlencode, ["string"], 1;
    "urldecode" => hash::urldecode, ["string"], 1;
    "parse_str" => hash::parse_str, ["string", "&result"], 2;
    "rawurldecode" => hash::rawurldecode, ["string"], 1;
    "uniqid" => hash::uniqid, ["prefix=\"\"", "more_entropy=false"], 0;
    // pcre
    "preg_match" => preg::preg_match, ["pattern", "subject", "&matches=null", "flags=0", "offset=0"], 2;
    "preg_match_all" => preg::preg_match_all, ["pattern", "subject", "&matches=null", "flags=0", "offset=0"], 2;
    "preg_replace" => preg::preg_replace, ["pattern", "replacement", "subject", "limit=-1", "&count=null"], 3;
    "preg_replace_callback" => preg::preg_replace_callback, ["pattern", "callback", "subject", "limit=-1", "&count=null", "flags=0"], 3;
    "preg_filter" => preg::preg_filter, ["pattern", "replacement", "subject", "limit=-1", "&count=null"], 3;
    "preg_replace_callback_array" => preg::preg_replace_callback_array, ["pattern", "subject", "limit=-1", "&count=null", "flags=0"], 2;
    "preg_split" => preg::preg_split, ["pattern", "subject", "limit=-1", "flags=0"], 2;
    "preg_quote" => preg::preg_quote, ["str", "delimiter=null"], 1;
    "preg_grep" => preg::preg_grep, ["pattern", "array", "flags=0"], 2;
    "preg_last_error" => preg::preg_last_error, [], 0;
    "preg_last_error_msg" => preg::preg_last_error_msg, [], 0;
    // math
    "bindec" => math::bindec, ["binary_string"], 1;
    "hexdec" => math::hexdec, ["hex_string"], 1;
    "octdec" => math::octdec, ["octal_string"], 1;
    "decbin" => math::decbin, ["num"], 1;
    "decoct" => math::decoct, ["num"], 1;
    "dechex" => string::dechex, ["num"], 1;
    "base_convert" => math::base_convert, ["num", "from_base", "to_base"], 3;
    "rand" => math::rand, ["min", "max"], 0;
    "mt_rand" => math::mt_rand, ["min", "max"], 0;
    "random_int" => math::random_int, ["min", "max"], 2;
    "random_bytes" => math::random_bytes, ["length"], 1;
    "mt_srand" => math::mt_srand, ["seed", "mode"], 0;
    "srand" => math::mt_srand, ["seed", "mode"], 0;
    "mt_getrandmax" => math::mt_getrandmax, [], 0;
    "getrandmax" => math::mt_getrandmax, [], 0;
}

/// Every builtin function (legacy table, declared ones and their
/// aliases) sorted by name, built on first use.
fn sorted_index() -> &'static [&'static BuiltinDef] {
    static IDX: std::sync::OnceLock<Vec<&'static BuiltinDef>> = std::sync::OnceLock::new();
    IDX.get_or_init(|| {
        let mut v: Vec<&'static BuiltinDef> = BUILTINS.iter().collect();
        v.extend(DECLARED.iter().copied());
        v.extend(DECLARED_ALIASES.iter().flat_map(|a| a.iter()));
        v.sort_by_key(|d| d.name.as_bytes());
        v
    })
}

/// Every builtin function, sorted by name.
pub fn all_builtins() -> &'static [&'static BuiltinDef] {
    sorted_index()
}

pub fn find_builtin(lcname: &[u8]) -> Option<&'static BuiltinDef> {
    let idx = sorted_index();
    idx.binary_search_by(|d| d.name.as_bytes().cmp(lcname)).ok().map(|p| idx[p])
}

/// A new string value holding `b`.
pub(crate) fn ret_str(b: &[u8]) -> Zval {
    Zval::string(ZString::new(b))
}

/// Stores `v` (owned) into a by-reference argument.
pub(crate) fn set_ref(arg: &Zval, v: Zval) {
    if !arg.is_reference() {
        // SAFETY: `v` is owned and goes nowhere.
        unsafe { v.ptr_dtor() };
        return;
    }
    // SAFETY: a reference-kind value holds a live reference box.
    unsafe {
        let slot = &mut (*arg.zref()).val;
        let old = *slot;
        *slot = v;
        old.ptr_dtor();
    }
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
        b"PHP_RELEASE_VERSION" => Zval::long(36),
        b"PHP_VERSION_ID" => Zval::long(80236),
        b"PHP_EXTRA_VERSION" => Zval::string(ZString::new(b"")),
        b"PHP_DEBUG" => Zval::long(0),
        b"PHP_MAXPATHLEN" => Zval::long(4096),
        b"DIRECTORY_SEPARATOR" => Zval::string(ZString::new(b"/")),
        b"PATH_SEPARATOR" => Zval::string(ZString::new(b":")),
        b"E_PARSE" => Zval::long(4),
        b"E_CORE_ERROR" => Zval::long(16),
        b"E_CORE_WARNING" => Zval::long(32),
        b"E_COMPILE_ERROR" => Zval::long(64),
        b"E_COMPILE_WARNING" => Zval::long(128),
        b"E_RECOVERABLE_ERROR" => Zval::long(4096),
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
        b"M_PI_2" => Zval::double(std::f64::consts::FRAC_PI_2),
        b"M_PI_4" => Zval::double(std::f64::consts::FRAC_PI_4),
        b"M_1_PI" => Zval::double(std::f64::consts::FRAC_1_PI),
        b"M_2_PI" => Zval::double(std::f64::consts::FRAC_2_PI),
        b"M_2_SQRTPI" => Zval::double(std::f64::consts::FRAC_2_SQRT_PI),
        b"M_SQRTPI" => Zval::double(1.772_453_850_905_516),
        b"M_LNPI" => Zval::double(1.144_729_885_849_400_2),
        b"M_SQRT2" => Zval::double(std::f64::consts::SQRT_2),
        b"M_SQRT3" => Zval::double(1.732_050_807_568_877_2),
        b"M_SQRT1_2" => Zval::double(std::f64::consts::FRAC_1_SQRT_2),
        b"M_LOG2E" => Zval::double(std::f64::consts::LOG2_E),
        b"M_LOG10E" => Zval::double(std::f64::consts::LOG10_E),
        b"M_LN2" => Zval::double(std::f64::consts::LN_2),
        b"M_LN10" => Zval::double(std::f64::consts::LN_10),
        b"M_EULER" => Zval::double(0.577_215_664_901_532_9),
        b"PHP_ROUND_HALF_UP" => Zval::long(1),
        b"PHP_ROUND_HALF_DOWN" => Zval::long(2),
        b"PHP_ROUND_HALF_EVEN" => Zval::long(3),
        b"PHP_ROUND_HALF_ODD" => Zval::long(4),
        b"MT_RAND_MT19937" => Zval::long(0),
        b"MT_RAND_PHP" => Zval::long(1),
        b"STR_PAD_LEFT" => Zval::long(0),
        b"STR_PAD_RIGHT" => Zval::long(1),
        b"STR_PAD_BOTH" => Zval::long(2),
        b"SORT_REGULAR" => Zval::long(0),
        b"SORT_NUMERIC" => Zval::long(1),
        b"SORT_STRING" => Zval::long(2),
        b"SORT_DESC" => Zval::long(3),
        b"SORT_ASC" => Zval::long(4),
        b"SORT_LOCALE_STRING" => Zval::long(5),
        b"SORT_NATURAL" => Zval::long(6),
        b"SORT_FLAG_CASE" => Zval::long(8),
        b"CASE_LOWER" => Zval::long(0),
        b"CASE_UPPER" => Zval::long(1),
        b"ARRAY_FILTER_USE_BOTH" => Zval::long(1),
        b"ARRAY_FILTER_USE_KEY" => Zval::long(2),
        b"EXTR_OVERWRITE" => Zval::long(0),
        b"EXTR_SKIP" => Zval::long(1),
        b"EXTR_PREFIX_SAME" => Zval::long(2),
        b"EXTR_PREFIX_ALL" => Zval::long(3),
        b"EXTR_PREFIX_INVALID" => Zval::long(4),
        b"EXTR_IF_EXISTS" => Zval::long(6),
        b"EXTR_PREFIX_IF_EXISTS" => Zval::long(5),
        b"EXTR_REFS" => Zval::long(256),
        b"ENT_COMPAT" => Zval::long(2),
        b"ENT_QUOTES" => Zval::long(3),
        b"ENT_NOQUOTES" => Zval::long(0),
        b"ENT_HTML401" => Zval::long(0),
        b"ENT_XML1" => Zval::long(16),
        b"ENT_XHTML" => Zval::long(32),
        b"ENT_HTML5" => Zval::long(48),
        b"ENT_IGNORE" => Zval::long(4),
        b"ENT_SUBSTITUTE" => Zval::long(8),
        b"PREG_PATTERN_ORDER" => Zval::long(1),
        b"PREG_SET_ORDER" => Zval::long(2),
        b"PREG_OFFSET_CAPTURE" => Zval::long(256),
        b"PREG_UNMATCHED_AS_NULL" => Zval::long(512),
        b"PREG_SPLIT_NO_EMPTY" => Zval::long(1),
        b"PREG_SPLIT_DELIM_CAPTURE" => Zval::long(2),
        b"PREG_SPLIT_OFFSET_CAPTURE" => Zval::long(4),
        b"PREG_GREP_INVERT" => Zval::long(1),
        b"PREG_NO_ERROR" => Zval::long(0),
        b"PREG_INTERNAL_ERROR" => Zval::long(1),
        b"PREG_BACKTRACK_LIMIT_ERROR" => Zval::long(2),
        b"PREG_RECURSION_LIMIT_ERROR" => Zval::long(3),
        b"PREG_BAD_UTF8_ERROR" => Zval::long(4),
        b"PREG_BAD_UTF8_OFFSET_ERROR" => Zval::long(5),
        b"PREG_JIT_STACKLIMIT_ERROR" => Zval::long(6),
        b"JSON_HEX_TAG" => Zval::long(1),
        b"JSON_HEX_AMP" => Zval::long(2),
        b"JSON_HEX_APOS" => Zval::long(4),
        b"JSON_HEX_QUOT" => Zval::long(8),
        b"JSON_FORCE_OBJECT" => Zval::long(16),
        b"JSON_NUMERIC_CHECK" => Zval::long(32),
        b"JSON_UNESCAPED_SLASHES" => Zval::long(64),
        b"JSON_PRETTY_PRINT" => Zval::long(128),
        b"JSON_UNESCAPED_UNICODE" => Zval::long(256),
        b"JSON_PARTIAL_OUTPUT_ON_ERROR" => Zval::long(512),
        b"JSON_PRESERVE_ZERO_FRACTION" => Zval::long(1024),
        b"JSON_UNESCAPED_LINE_TERMINATORS" => Zval::long(2048),
        b"JSON_OBJECT_AS_ARRAY" => Zval::long(1),
        b"JSON_BIGINT_AS_STRING" => Zval::long(2),
        b"JSON_INVALID_UTF8_IGNORE" => Zval::long(1048576),
        b"JSON_INVALID_UTF8_SUBSTITUTE" => Zval::long(2097152),
        b"JSON_THROW_ON_ERROR" => Zval::long(4194304),
        b"JSON_ERROR_NONE" => Zval::long(0),
        b"JSON_ERROR_DEPTH" => Zval::long(1),
        b"JSON_ERROR_STATE_MISMATCH" => Zval::long(2),
        b"JSON_ERROR_CTRL_CHAR" => Zval::long(3),
        b"JSON_ERROR_SYNTAX" => Zval::long(4),
        b"JSON_ERROR_UTF8" => Zval::long(5),
        b"JSON_ERROR_RECURSION" => Zval::long(6),
        b"JSON_ERROR_INF_OR_NAN" => Zval::long(7),
        b"JSON_ERROR_UNSUPPORTED_TYPE" => Zval::long(8),
        b"JSON_ERROR_INVALID_PROPERTY_NAME" => Zval::long(9),
        b"JSON_ERROR_UTF16" => Zval::long(10),
        _ => return tokenizer::constant(name).or_else(|| pcre::constant(name)),
    })
}

#[cfg(test)]
mod tests {
    /// Every tests/php/stdlib_*.php script, run in-process: no heap box
    /// outlives its run (refcounting in the builtins is balanced), on the
    /// normal paths and on the throwing and exiting ones.
    #[test]
    fn stdlib_scripts_free_what_they_allocate() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/php");
        let mut files: Vec<_> = std::fs::read_dir(&dir).expect("tests/php").map(|e| e.expect("entry").path()).collect();
        files.sort();
        let mut leaked = Vec::new();
        for f in files {
            let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if !name.starts_with("stdlib_") || !name.ends_with(".php") {
                continue;
            }
            let src = std::fs::read(&f).expect("script");
            let before = crate::value::live::count();
            {
                let engine = crate::api::Engine::new();
                let Ok(p) = engine.compile(&src, &f.to_string_lossy()) else { continue };
                let mut ctx = engine.context();
                ctx.capture_output();
                let _ = ctx.run(&p);
            }
            let after = crate::value::live::count();
            if after != before {
                leaked.push(format!("{name}: {} boxes", after - before));
            }
        }
        assert!(leaked.is_empty(), "leaks: {leaked:?}");
    }
}
