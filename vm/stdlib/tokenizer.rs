//! ext/tokenizer: `token_get_all`, `token_name`, the `T_*` constants and
//! the `PhpToken` class, over Tusk's own lexer in its token-stream mode
//! (`lexer::lex_tokens`: whitespace, comments and tags included), so the
//! tokens, their texts and lines are those the compiler sees.

use crate::compiler::lexer;
use crate::compiler::token::{Tok, Token};
use crate::exec::{Thrown, Vm};
use crate::ops::TypeMask;
use crate::runtime::class::*;
use crate::runtime::function::BuiltinFn;
use crate::value::object::ZObject;
use crate::value::{ZArray, Zval, IS_ARRAY, IS_LONG, IS_STRING};

use super::{args, ret_str};
use tusk_macros::builtin;

type R = Result<(), Thrown>;

const TOKEN_PARSE: i64 = 1;

/// PHP 8.2's token numbers, by name.
const TOKENS: &[(&str, i64)] = &[
    ("T_LNUMBER", 260), ("T_DNUMBER", 261), ("T_STRING", 262), ("T_NAME_FULLY_QUALIFIED", 263),
    ("T_NAME_RELATIVE", 264), ("T_NAME_QUALIFIED", 265), ("T_VARIABLE", 266), ("T_INLINE_HTML", 267),
    ("T_ENCAPSED_AND_WHITESPACE", 268), ("T_CONSTANT_ENCAPSED_STRING", 269), ("T_STRING_VARNAME", 270),
    ("T_NUM_STRING", 271), ("T_INCLUDE", 272), ("T_INCLUDE_ONCE", 273), ("T_EVAL", 274), ("T_REQUIRE", 275),
    ("T_REQUIRE_ONCE", 276), ("T_LOGICAL_OR", 277), ("T_LOGICAL_XOR", 278), ("T_LOGICAL_AND", 279),
    ("T_PRINT", 280), ("T_YIELD", 281), ("T_YIELD_FROM", 282), ("T_INSTANCEOF", 283), ("T_NEW", 284),
    ("T_CLONE", 285), ("T_EXIT", 286), ("T_IF", 287), ("T_ELSEIF", 288), ("T_ELSE", 289), ("T_ENDIF", 290),
    ("T_ECHO", 291), ("T_DO", 292), ("T_WHILE", 293), ("T_ENDWHILE", 294), ("T_FOR", 295), ("T_ENDFOR", 296),
    ("T_FOREACH", 297), ("T_ENDFOREACH", 298), ("T_DECLARE", 299), ("T_ENDDECLARE", 300), ("T_AS", 301),
    ("T_SWITCH", 302), ("T_ENDSWITCH", 303), ("T_CASE", 304), ("T_DEFAULT", 305), ("T_MATCH", 306),
    ("T_BREAK", 307), ("T_CONTINUE", 308), ("T_GOTO", 309), ("T_FUNCTION", 310), ("T_FN", 311),
    ("T_CONST", 312), ("T_RETURN", 313), ("T_TRY", 314), ("T_CATCH", 315), ("T_FINALLY", 316),
    ("T_THROW", 317), ("T_USE", 318), ("T_INSTEADOF", 319), ("T_GLOBAL", 320), ("T_STATIC", 321),
    ("T_ABSTRACT", 322), ("T_FINAL", 323), ("T_PRIVATE", 324), ("T_PROTECTED", 325), ("T_PUBLIC", 326),
    ("T_READONLY", 327), ("T_VAR", 328), ("T_UNSET", 329), ("T_ISSET", 330), ("T_EMPTY", 331),
    ("T_HALT_COMPILER", 332), ("T_CLASS", 333), ("T_TRAIT", 334), ("T_INTERFACE", 335), ("T_ENUM", 336),
    ("T_EXTENDS", 337), ("T_IMPLEMENTS", 338), ("T_NAMESPACE", 339), ("T_LIST", 340), ("T_ARRAY", 341),
    ("T_CALLABLE", 342), ("T_LINE", 343), ("T_FILE", 344), ("T_DIR", 345), ("T_CLASS_C", 346),
    ("T_TRAIT_C", 347), ("T_METHOD_C", 348), ("T_FUNC_C", 349), ("T_NS_C", 350), ("T_ATTRIBUTE", 351),
    ("T_PLUS_EQUAL", 352), ("T_MINUS_EQUAL", 353), ("T_MUL_EQUAL", 354), ("T_DIV_EQUAL", 355),
    ("T_CONCAT_EQUAL", 356), ("T_MOD_EQUAL", 357), ("T_AND_EQUAL", 358), ("T_OR_EQUAL", 359),
    ("T_XOR_EQUAL", 360), ("T_SL_EQUAL", 361), ("T_SR_EQUAL", 362), ("T_COALESCE_EQUAL", 363),
    ("T_BOOLEAN_OR", 364), ("T_BOOLEAN_AND", 365), ("T_IS_EQUAL", 366), ("T_IS_NOT_EQUAL", 367),
    ("T_IS_IDENTICAL", 368), ("T_IS_NOT_IDENTICAL", 369), ("T_IS_SMALLER_OR_EQUAL", 370),
    ("T_IS_GREATER_OR_EQUAL", 371), ("T_SPACESHIP", 372), ("T_SL", 373), ("T_SR", 374), ("T_INC", 375),
    ("T_DEC", 376), ("T_INT_CAST", 377), ("T_DOUBLE_CAST", 378), ("T_STRING_CAST", 379),
    ("T_ARRAY_CAST", 380), ("T_OBJECT_CAST", 381), ("T_BOOL_CAST", 382), ("T_UNSET_CAST", 383),
    ("T_OBJECT_OPERATOR", 384), ("T_NULLSAFE_OBJECT_OPERATOR", 385), ("T_DOUBLE_ARROW", 386),
    ("T_COMMENT", 387), ("T_DOC_COMMENT", 388), ("T_OPEN_TAG", 389), ("T_OPEN_TAG_WITH_ECHO", 390),
    ("T_CLOSE_TAG", 391), ("T_WHITESPACE", 392), ("T_START_HEREDOC", 393), ("T_END_HEREDOC", 394),
    ("T_DOLLAR_OPEN_CURLY_BRACES", 395), ("T_CURLY_OPEN", 396), ("T_PAAMAYIM_NEKUDOTAYIM", 397),
    ("T_NS_SEPARATOR", 398), ("T_ELLIPSIS", 399), ("T_COALESCE", 400), ("T_POW", 401), ("T_POW_EQUAL", 402),
    ("T_AMPERSAND_FOLLOWED_BY_VAR_OR_VARARG", 403), ("T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG", 404),
    ("T_BAD_CHARACTER", 405), ("T_DOUBLE_COLON", 397),
];

const T_STRING: i64 = 262;
const T_WHITESPACE: i64 = 392;
const T_COMMENT: i64 = 387;
const T_DOC_COMMENT: i64 = 388;
const T_OPEN_TAG: i64 = 389;

/// A tokenizer constant's value (`T_*`, `TOKEN_PARSE`).
pub fn constant(name: &[u8]) -> Option<Zval> {
    if name == b"TOKEN_PARSE" {
        return Some(Zval::long(TOKEN_PARSE));
    }
    if !name.starts_with(b"T_") {
        return None;
    }
    TOKENS.iter().find(|(n, _)| n.as_bytes() == name).map(|&(_, v)| Zval::long(v))
}

/// `token_name`: the name of a token number (`UNKNOWN` for others).
fn name_of(id: i64) -> Option<&'static str> {
    if id == 397 {
        return Some("T_DOUBLE_COLON");
    }
    TOKENS.iter().find(|&&(_, v)| v == id).map(|&(n, _)| n)
}

fn id_of(name: &str) -> i64 {
    TOKENS.iter().find(|(n, _)| *n == name).map(|&(_, v)| v).unwrap_or(0)
}

/// The token number PHP gives a token; None for a single character
/// (token_get_all gives its text, PhpToken its byte value).
fn token_id(src: &[u8], t: &Token) -> Option<i64> {
    use Tok::*;
    let name = match t.kind {
        InlineHtml => "T_INLINE_HTML",
        Variable => "T_VARIABLE",
        Ident => "T_STRING",
        NameQualified => "T_NAME_QUALIFIED",
        NameFullyQualified => "T_NAME_FULLY_QUALIFIED",
        NameRelative => "T_NAME_RELATIVE",
        LNumber => "T_LNUMBER",
        DNumber => "T_DNUMBER",
        ConstString => "T_CONSTANT_ENCAPSED_STRING",
        EncapsedAndWhitespace => "T_ENCAPSED_AND_WHITESPACE",
        StartHeredoc => "T_START_HEREDOC",
        EndHeredoc => "T_END_HEREDOC",
        DollarOpenCurlyBraces => "T_DOLLAR_OPEN_CURLY_BRACES",
        CurlyOpen => "T_CURLY_OPEN",
        StringVarname => "T_STRING_VARNAME",
        NumString => "T_NUM_STRING",
        Abstract => "T_ABSTRACT",
        LogicalAnd => "T_LOGICAL_AND",
        Array => "T_ARRAY",
        As => "T_AS",
        Break => "T_BREAK",
        Callable => "T_CALLABLE",
        Case => "T_CASE",
        Catch => "T_CATCH",
        Class => "T_CLASS",
        Clone => "T_CLONE",
        Const => "T_CONST",
        Continue => "T_CONTINUE",
        Declare => "T_DECLARE",
        Default => "T_DEFAULT",
        Do => "T_DO",
        Echo => "T_ECHO",
        Else => "T_ELSE",
        ElseIf => "T_ELSEIF",
        Empty => "T_EMPTY",
        EndDeclare => "T_ENDDECLARE",
        EndFor => "T_ENDFOR",
        EndForeach => "T_ENDFOREACH",
        EndIf => "T_ENDIF",
        EndSwitch => "T_ENDSWITCH",
        EndWhile => "T_ENDWHILE",
        Enum => "T_ENUM",
        Eval => "T_EVAL",
        Exit => "T_EXIT",
        Extends => "T_EXTENDS",
        Final => "T_FINAL",
        Finally => "T_FINALLY",
        Fn => "T_FN",
        For => "T_FOR",
        Foreach => "T_FOREACH",
        Function => "T_FUNCTION",
        Global => "T_GLOBAL",
        Goto => "T_GOTO",
        HaltCompiler => "T_HALT_COMPILER",
        If => "T_IF",
        Implements => "T_IMPLEMENTS",
        Include => "T_INCLUDE",
        IncludeOnce => "T_INCLUDE_ONCE",
        Instanceof => "T_INSTANCEOF",
        Insteadof => "T_INSTEADOF",
        Interface => "T_INTERFACE",
        Isset => "T_ISSET",
        List => "T_LIST",
        Match => "T_MATCH",
        Namespace => "T_NAMESPACE",
        New => "T_NEW",
        LogicalOr => "T_LOGICAL_OR",
        Print => "T_PRINT",
        Private => "T_PRIVATE",
        Protected => "T_PROTECTED",
        Public => "T_PUBLIC",
        Readonly => "T_READONLY",
        Require => "T_REQUIRE",
        RequireOnce => "T_REQUIRE_ONCE",
        Return => "T_RETURN",
        Static => "T_STATIC",
        Switch => "T_SWITCH",
        Throw => "T_THROW",
        Trait => "T_TRAIT",
        Try => "T_TRY",
        Unset => "T_UNSET",
        Use => "T_USE",
        Var => "T_VAR",
        While => "T_WHILE",
        LogicalXor => "T_LOGICAL_XOR",
        Yield => "T_YIELD",
        YieldFrom => "T_YIELD_FROM",
        MagicLine => "T_LINE",
        MagicFile => "T_FILE",
        MagicDir => "T_DIR",
        MagicClass => "T_CLASS_C",
        MagicTrait => "T_TRAIT_C",
        MagicMethod => "T_METHOD_C",
        MagicFunction => "T_FUNC_C",
        MagicNamespace => "T_NS_C",
        IntCast => "T_INT_CAST",
        DoubleCast => "T_DOUBLE_CAST",
        StringCast => "T_STRING_CAST",
        ArrayCast => "T_ARRAY_CAST",
        ObjectCast => "T_OBJECT_CAST",
        BoolCast => "T_BOOL_CAST",
        UnsetCast => "T_UNSET_CAST",
        PlusEq => "T_PLUS_EQUAL",
        MinusEq => "T_MINUS_EQUAL",
        MulEq => "T_MUL_EQUAL",
        DivEq => "T_DIV_EQUAL",
        ConcatEq => "T_CONCAT_EQUAL",
        ModEq => "T_MOD_EQUAL",
        AndEq => "T_AND_EQUAL",
        OrEq => "T_OR_EQUAL",
        XorEq => "T_XOR_EQUAL",
        SlEq => "T_SL_EQUAL",
        SrEq => "T_SR_EQUAL",
        CoalesceEq => "T_COALESCE_EQUAL",
        PowEq => "T_POW_EQUAL",
        BoolOr => "T_BOOLEAN_OR",
        BoolAnd => "T_BOOLEAN_AND",
        IsEqual => "T_IS_EQUAL",
        IsNotEqual => "T_IS_NOT_EQUAL",
        IsIdentical => "T_IS_IDENTICAL",
        IsNotIdentical => "T_IS_NOT_IDENTICAL",
        IsSmallerOrEqual => "T_IS_SMALLER_OR_EQUAL",
        IsGreaterOrEqual => "T_IS_GREATER_OR_EQUAL",
        Spaceship => "T_SPACESHIP",
        Sl => "T_SL",
        Sr => "T_SR",
        Inc => "T_INC",
        Dec => "T_DEC",
        ObjectOp => "T_OBJECT_OPERATOR",
        NullsafeObjectOp => "T_NULLSAFE_OBJECT_OPERATOR",
        DoubleArrow => "T_DOUBLE_ARROW",
        DoubleColon => "T_DOUBLE_COLON",
        Ellipsis => "T_ELLIPSIS",
        Coalesce => "T_COALESCE",
        Pow => "T_POW",
        Attribute => "T_ATTRIBUTE",
        NsSeparator => "T_NS_SEPARATOR",
        OpenTag => "T_OPEN_TAG",
        OpenTagWithEcho => "T_OPEN_TAG_WITH_ECHO",
        CloseTag => "T_CLOSE_TAG",
        Whitespace => "T_WHITESPACE",
        Comment => "T_COMMENT",
        DocComment => "T_DOC_COMMENT",
        BadCharacter => "T_BAD_CHARACTER",
        Amp => {
            // `&` before a variable or `...` (whitespace between) or not.
            let mut i = t.end as usize;
            while matches!(src.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
                i += 1;
            }
            let followed = src.get(i) == Some(&b'$') || src.get(i..i + 3) == Some(b"...");
            return Some(if followed { 403 } else { 404 });
        }
        _ => return None,
    };
    Some(id_of(name))
}

/// One token as token_get_all and PhpToken see it: number (or the byte of
/// a single character), text, line, byte offset; `single` for a bare
/// character.
struct Item<'s> {
    id: i64,
    text: &'s [u8],
    line: u32,
    pos: u32,
    single: bool,
}

/// Under TOKEN_PARSE, keywords that the grammar takes as names are
/// T_STRING (PHP's parser reclassifies them, `zend_lex_tstring`): member
/// names after `->`, `?->` and `::`, function and method names, class
/// constant and enum case names, named arguments, trait alias names.
fn reclassify(items: &mut [Item<'_>], kinds: &[Tok]) {
    let sig: Vec<usize> = (0..items.len()).filter(|&i| !matches!(kinds[i], Tok::Whitespace | Tok::Comment | Tok::DocComment | Tok::OpenTag)).collect();
    for (n, &i) in sig.iter().enumerate() {
        if !kinds[i].is_keyword() || items[i].single {
            continue;
        }
        let prev = n.checked_sub(1).map(|p| kinds[sig[p]]);
        let prev2 = n.checked_sub(2).map(|p| kinds[sig[p]]);
        let next = sig.get(n + 1).map(|&x| kinds[x]);
        let next2 = sig.get(n + 2).map(|&x| kinds[x]);
        let modifier = matches!(kinds[i], Tok::Public | Tok::Protected | Tok::Private | Tok::Static | Tok::Abstract | Tok::Final | Tok::Readonly);
        let is_name = match prev {
            Some(Tok::ObjectOp | Tok::NullsafeObjectOp | Tok::DoubleColon | Tok::Const) => true,
            Some(Tok::Function) => next == Some(Tok::LParen),
            _ if kinds[i] == Tok::Readonly => next == Some(Tok::LParen),
            Some(Tok::Amp) => prev2 == Some(Tok::Function) && next == Some(Tok::LParen),
            Some(Tok::Case) => matches!(next, Some(Tok::Eq | Tok::Semicolon)),
            // Named arguments; more constants of a `const` list.
            Some(Tok::LParen) => next == Some(Tok::Colon),
            Some(Tok::Comma) => matches!(next, Some(Tok::Colon | Tok::Eq)),
            // Trait aliases (`foo as list;`, not `foo as public;`), a
            // namespace's name, and
            // method names before `as`/`insteadof` in a trait use block.
            Some(Tok::As) => next == Some(Tok::Semicolon) && !modifier,
            Some(Tok::Namespace) => matches!(next, Some(Tok::Semicolon | Tok::LBrace)),
            Some(Tok::LBrace | Tok::Semicolon) => matches!(next, Some(Tok::As | Tok::Insteadof)) && next2 != Some(Tok::Eq),
            Some(Tok::Public | Tok::Protected | Tok::Private) => prev2 == Some(Tok::As) && next == Some(Tok::Semicolon),
            _ => false,
        };
        if is_name {
            items[i].id = T_STRING;
        }
    }
}

/// The tokens of `code` (TOKEN_PARSE: parsed first; a syntax error throws
/// PHP's ParseError).
fn tokenize<'s>(vm: &mut Vm, name: &str, code: &'s [u8], flags: i64) -> Result<Vec<Item<'s>>, Thrown> {
    let tokens = lexer::lex_tokens(code);
    let mut items = Vec::with_capacity(tokens.len());
    let mut kinds = Vec::with_capacity(tokens.len());
    for t in tokens.iter().filter(|t| t.kind != Tok::Eof && t.kind != Tok::Error) {
        let text = &code[t.start as usize..(t.end as usize).min(code.len())];
        let (id, single) = match token_id(code, t) {
            Some(id) => (id, false),
            // The character itself (the last byte: `b"` is a `"`).
            None => (text.last().copied().unwrap_or(0) as i64, true),
        };
        items.push(Item { id, text, line: t.line, pos: t.start, single });
        kinds.push(t.kind);
    }
    if flags & TOKEN_PARSE != 0 {
        let arena = bumpalo::Bump::new();
        // Only syntax errors: PHP parses without compiling here.
        let syntax_error = match crate::compiler::parse(&arena, code, name) {
            Err(e) if e.kind == crate::compiler::ErrorKind::Parse => Some(e),
            _ => None,
        };
        if let Some(e) = syntax_error {
            let t = vm.throw_error("ParseError", &e.message);
            if let Some(ex) = &vm.exception {
                // SAFETY: the exception object was just made and is live.
                unsafe {
                    set_slot(ex.0, b"line", Zval::long(e.line as i64));
                    set_slot(ex.0, b"file", ret_str(b""));
                }
            }
            return Err(t);
        }
        reclassify(&mut items, &kinds);
    }
    Ok(items)
}

/// Replaces declared property `name` of `o`.
unsafe fn set_slot(o: *mut ZObject, name: &[u8], v: Zval) {
    let p = crate::runtime::builtin_classes::prop_slot(o, name);
    if p.is_null() {
        v.ptr_dtor();
        return;
    }
    let old = *p;
    *p = v;
    old.ptr_dtor();
}

#[builtin("function token_get_all(string $code, int $flags = 0): array")]
pub fn token_get_all(vm: &mut Vm, code: &[u8], flags: i64) -> Result<Zval, Thrown> {
    let items = tokenize(vm, "token_get_all", code, flags)?;
    let out = ZArray::with_capacity(items.len() as u32);
    for it in &items {
        let v = if it.single {
            ret_str(it.text)
        } else {
            let t = ZArray::with_capacity(3);
            // SAFETY: `t` is new and unshared.
            unsafe {
                (*t).append(Zval::long(it.id));
                (*t).append(ret_str(it.text));
                (*t).append(Zval::long(it.line as i64));
            }
            Zval::array(t)
        };
        // SAFETY: `out` is new and unshared.
        unsafe { (*out).append(v) };
    }
    Ok(Zval::array(out))
}

#[builtin("function token_name(int $id): string")]
pub fn token_name(vm: &mut Vm, id: i64) -> Result<&'static [u8], Thrown> {
    let _ = vm;
    Ok(name_of(id).unwrap_or("UNKNOWN").as_bytes())
}

// ---- PhpToken ----

/// PhpToken's class definition.
pub fn definitions(method: impl Fn(&str, &[&str], u32, BuiltinFn, u32) -> MethodDef) -> Vec<ClassDef> {
    let mut d = ClassDef::new(b"PhpToken", CLASS_INTERNAL, 0);
    d.interfaces = vec![b"Stringable".to_vec()];
    for (n, ty, mask) in [("id", "int", TypeMask::LONG), ("text", "string", TypeMask::STRING), ("line", "int", TypeMask::LONG), ("pos", "int", TypeMask::LONG)] {
        d.props.push(PropDef { name: n.as_bytes().to_vec(), default: None, flags: ACC_PUBLIC, ty: Some((TypeMask(mask), ty.to_string())), line: 0 });
    }
    d.methods.push(method("__construct", &["id", "text", "line", "pos"], 2, construct, ACC_PUBLIC | ACC_FINAL));
    d.methods.push(method("tokenize", &["code", "flags"], 1, m_tokenize, ACC_PUBLIC | ACC_STATIC));
    d.methods.push(method("is", &["kind"], 1, m_is, ACC_PUBLIC));
    d.methods.push(method("isIgnorable", &[], 0, m_is_ignorable, ACC_PUBLIC));
    d.methods.push(method("getTokenName", &[], 0, m_get_token_name, ACC_PUBLIC));
    d.methods.push(method("__toString", &[], 0, m_to_string, ACC_PUBLIC));
    vec![d]
}

fn this(vm: &Vm) -> *mut ZObject {
    // SAFETY: a builtin method runs in its own frame (`vm.cur`).
    unsafe { (*vm.cur).this_obj() }
}

/// Property `name` of the token `o` (undef when uninitialized).
fn get(o: *mut ZObject, name: &[u8]) -> Zval {
    // SAFETY: `o` is a live PhpToken (or subclass) object.
    let p = unsafe { crate::runtime::builtin_classes::prop_slot(o, name) };
    if p.is_null() {
        Zval::UNDEF
    } else {
        // SAFETY: a declared property slot of a live object.
        unsafe { *(*p).deref() }
    }
}

fn construct(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    let n = "PhpToken::__construct";
    args::count(vm, n, a, 2, 4)?;
    let id = args::long(vm, n, 1, "id", &a[0])?;
    let text = args::string(vm, n, 2, "text", &a[1])?;
    let line = match a.get(2) {
        Some(v) => args::long(vm, n, 3, "line", v)?,
        None => -1,
    };
    let pos = match a.get(3) {
        Some(v) => args::long(vm, n, 4, "pos", v)?,
        None => -1,
    };
    let o = this(vm);
    // SAFETY: `o` is the live object under construction.
    unsafe {
        set_slot(o, b"id", Zval::long(id));
        set_slot(o, b"text", ret_str(&text));
        set_slot(o, b"line", Zval::long(line));
        set_slot(o, b"pos", Zval::long(pos));
    }
    Ok(())
}

fn m_tokenize(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let n = "PhpToken::tokenize";
    args::count(vm, n, a, 1, 2)?;
    let code = args::str_ref(vm, n, 1, "code", &a[0])?;
    let flags = match a.get(1) {
        Some(v) => args::long(vm, n, 2, "flags", v)?,
        None => 0,
    };
    // `static`: the class tokenize was called on.
    // SAFETY: a builtin method runs in its own frame (`vm.cur`).
    let class = unsafe { (*vm.cur).scope };
    if class.is_null() {
        return Err(vm.throw_error("Error", "Cannot call PhpToken::tokenize() without a class"));
    }
    // SAFETY: bound classes outlive the call.
    if unsafe { (*class).flags } & CLASS_ABSTRACT != 0 {
        // SAFETY: as above.
        let name = unsafe { (*class).name_str() }.to_string();
        return Err(vm.throw_error("Error", &format!("Cannot instantiate abstract class {}", name)));
    }
    let items = tokenize(vm, n, &code, flags)?;
    let out = ZArray::with_capacity(items.len() as u32);
    for it in &items {
        // SAFETY: `class` is a bound, instantiable class.
        let o = match unsafe { crate::exec::slow::object::instantiate(vm, class) } {
            Ok(o) => o,
            Err(t) => {
                // SAFETY: `out` is ours.
                unsafe { Zval::array(out).ptr_dtor() };
                return Err(t);
            }
        };
        // SAFETY: `o` is the new object; `out` is new and unshared.
        unsafe {
            set_slot(o, b"id", Zval::long(it.id));
            set_slot(o, b"text", ret_str(it.text));
            set_slot(o, b"line", Zval::long(it.line as i64));
            set_slot(o, b"pos", Zval::long(it.pos as i64));
            (*out).append(Zval::object(o));
        }
    }
    *r = Zval::array(out);
    Ok(())
}

fn m_is(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    let n = "PhpToken::is";
    args::count(vm, n, a, 1, 1)?;
    let o = this(vm);
    let id = get(o, b"id");
    let text = get(o, b"text");
    let matches = |vm: &mut Vm, k: &Zval, in_array: bool| -> Result<bool, Thrown> {
        let k = k.deref();
        match k.kind() {
            IS_LONG => {
                if id.kind() != IS_LONG {
                    return Err(vm.throw_error("Error", "Typed property PhpToken::$id must not be accessed before initialization"));
                }
                Ok(id.lval() == k.lval())
            }
            IS_STRING => {
                if text.kind() != IS_STRING {
                    return Err(vm.throw_error("Error", "Typed property PhpToken::$text must not be accessed before initialization"));
                }
                // SAFETY: both are live strings.
                Ok(unsafe { (*text.str()).bytes() == (*k.str()).bytes() })
            }
            _ => {
                let msg = if in_array {
                    format!("{}(): Argument #1 ($kind) must only have elements of type string|int, {} given", n, crate::exec::slow::call::zend_type_name(k))
                } else {
                    format!("{}(): Argument #1 ($kind) must be of type string|int|array, {} given", n, crate::exec::slow::call::zend_type_name(k))
                };
                Err(vm.throw_error("TypeError", &msg))
            }
        }
    };
    let k = a[0].deref();
    let res = if k.kind() == IS_ARRAY {
        // SAFETY: the argument keeps the array alive.
        let list: Vec<Zval> = unsafe { (*k.arr()).iter().map(|(_, v)| *v).collect() };
        let mut hit = false;
        for v in &list {
            if matches(vm, v, true)? {
                hit = true;
                break;
            }
        }
        hit
    } else {
        matches(vm, k, false)?
    };
    *r = Zval::bool(res);
    Ok(())
}

fn m_is_ignorable(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "PhpToken::isIgnorable", a, 0, 0)?;
    let id = get(this(vm), b"id");
    if id.kind() != IS_LONG {
        return Err(vm.throw_error("Error", "Typed property PhpToken::$id must not be accessed before initialization"));
    }
    *r = Zval::bool(matches!(id.lval(), T_WHITESPACE | T_COMMENT | T_DOC_COMMENT | T_OPEN_TAG));
    Ok(())
}

fn m_get_token_name(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "PhpToken::getTokenName", a, 0, 0)?;
    let id = get(this(vm), b"id");
    if id.kind() != IS_LONG {
        return Err(vm.throw_error("Error", "Typed property PhpToken::$id must not be accessed before initialization"));
    }
    let id = id.lval();
    *r = if (0..256).contains(&id) {
        ret_str(&[id as u8])
    } else {
        match name_of(id) {
            Some(n) => ret_str(n.as_bytes()),
            None => Zval::NULL,
        }
    };
    Ok(())
}

fn m_to_string(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "PhpToken::__toString", a, 0, 0)?;
    let text = get(this(vm), b"text");
    if text.kind() != IS_STRING {
        return Err(vm.throw_error("Error", "Typed property PhpToken::$text must not be accessed before initialization"));
    }
    *r = text.copy_value();
    Ok(())
}
