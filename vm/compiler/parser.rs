//! Recursive-descent parser with precedence climbing for expressions.
//!
//! Precedences and associativity are PHP 8.2's (`zend_language_parser.y`).
//! Errors use PHP's wording. Compile-time errors that PHP raises only after
//! the whole file parsed (`Cannot re-assign $this`, `'break' not in the 'loop'
//! or 'switch' context`, ...) are *deferred*: a later syntax error wins, as in PHP.
//! Nesting is bounded (`memory exhausted`, as PHP's bison stack), so deep input
//! cannot overflow the Rust stack.

use std::collections::HashSet;

use bumpalo::collections::Vec as BVec;
use bumpalo::Bump;

use super::ast::*;
use super::lexer::{self, parse_float_literal, parse_int_literal};
use super::token::{Tok, Token};
use super::{Diagnostic, DiagnosticKind, ErrorKind, ParseError};

type R<T> = Result<T, ParseError>;

/// Maximum nesting, in PHP parser-stack entries: bison's stack holds 10,000,
/// a few of which the file's outer rules take. Each recursive construct costs
/// about what it costs PHP (`enter`), so the deepest input PHP accepts (9,994
/// nested parentheses, 4,998 nested blocks, ...) is about the deepest Tusk does.
const MAX_DEPTH: u32 = 9_997;

/// Deepest AST accepted: left-nested chains (`1 + 1 + ...`, `$a[0][0]...`)
/// cost PHP's parser nothing but make the tree as deep as they are long; PHP's
/// compiler overflows its C stack on a chain of ~60,000. Tusk stops before
/// any recursive pass could, with a parse error.
const MAX_AST_DEPTH: u32 = 100_000;

// Binary precedence levels (higher binds tighter).
const P_LOGICAL_OR: u8 = 1;
const P_LOGICAL_XOR: u8 = 2;
const P_LOGICAL_AND: u8 = 3;
const P_PRINT: u8 = 4;
const P_YIELD: u8 = 5;
const P_YIELD_FROM: u8 = 7;
const P_ASSIGN: u8 = 8;
const P_TERNARY: u8 = 9;
const P_COALESCE: u8 = 10;
const P_BOOL_OR: u8 = 11;
const P_BOOL_AND: u8 = 12;
const P_BIT_OR: u8 = 13;
const P_BIT_XOR: u8 = 14;
const P_BIT_AND: u8 = 15;
const P_EQUALITY: u8 = 16;
const P_COMPARE: u8 = 17;
const P_CONCAT: u8 = 18;
const P_SHIFT: u8 = 19;
const P_ADD: u8 = 20;
const P_MUL: u8 = 21;
const P_INSTANCEOF: u8 = 23;
const P_POW: u8 = 25;
const P_CLONE: u8 = 26;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Assoc {
    Left,
    Right,
    NonAssoc,
}

fn binary_info(t: Tok) -> Option<(u8, Assoc, Option<BinaryOp>)> {
    use Assoc::*;
    use BinaryOp as B;
    Some(match t {
        Tok::LogicalOr => (P_LOGICAL_OR, Left, Some(B::BoolOr)),
        Tok::LogicalXor => (P_LOGICAL_XOR, Left, Some(B::BoolXor)),
        Tok::LogicalAnd => (P_LOGICAL_AND, Left, Some(B::BoolAnd)),
        Tok::Question => (P_TERNARY, Left, None),
        Tok::Coalesce => (P_COALESCE, Right, None),
        Tok::BoolOr => (P_BOOL_OR, Left, Some(B::BoolOr)),
        Tok::BoolAnd => (P_BOOL_AND, Left, Some(B::BoolAnd)),
        Tok::Pipe => (P_BIT_OR, Left, Some(B::BitOr)),
        Tok::Caret => (P_BIT_XOR, Left, Some(B::BitXor)),
        Tok::Amp => (P_BIT_AND, Left, Some(B::BitAnd)),
        Tok::IsEqual => (P_EQUALITY, NonAssoc, Some(B::Equal)),
        Tok::IsNotEqual => (P_EQUALITY, NonAssoc, Some(B::NotEqual)),
        Tok::IsIdentical => (P_EQUALITY, NonAssoc, Some(B::Identical)),
        Tok::IsNotIdentical => (P_EQUALITY, NonAssoc, Some(B::NotIdentical)),
        Tok::Spaceship => (P_EQUALITY, NonAssoc, Some(B::Spaceship)),
        Tok::Lt => (P_COMPARE, NonAssoc, Some(B::Smaller)),
        Tok::IsSmallerOrEqual => (P_COMPARE, NonAssoc, Some(B::SmallerOrEqual)),
        Tok::Gt => (P_COMPARE, NonAssoc, Some(B::Greater)),
        Tok::IsGreaterOrEqual => (P_COMPARE, NonAssoc, Some(B::GreaterOrEqual)),
        Tok::Dot => (P_CONCAT, Left, Some(B::Concat)),
        Tok::Sl => (P_SHIFT, Left, Some(B::ShiftLeft)),
        Tok::Sr => (P_SHIFT, Left, Some(B::ShiftRight)),
        Tok::Plus => (P_ADD, Left, Some(B::Add)),
        Tok::Minus => (P_ADD, Left, Some(B::Sub)),
        Tok::Star => (P_MUL, Left, Some(B::Mul)),
        Tok::Slash => (P_MUL, Left, Some(B::Div)),
        Tok::Percent => (P_MUL, Left, Some(B::Mod)),
        Tok::Instanceof => (P_INSTANCEOF, NonAssoc, None),
        Tok::Pow => (P_POW, Right, Some(B::Pow)),
        _ => return None,
    })
}

fn assign_op(t: Tok) -> Option<Option<BinaryOp>> {
    use BinaryOp as B;
    Some(Some(match t {
        Tok::Eq => return Some(None),
        Tok::PlusEq => B::Add,
        Tok::MinusEq => B::Sub,
        Tok::MulEq => B::Mul,
        Tok::DivEq => B::Div,
        Tok::ConcatEq => B::Concat,
        Tok::ModEq => B::Mod,
        Tok::AndEq => B::BitAnd,
        Tok::OrEq => B::BitOr,
        Tok::XorEq => B::BitXor,
        Tok::SlEq => B::ShiftLeft,
        Tok::SrEq => B::ShiftRight,
        Tok::PowEq => B::Pow,
        Tok::CoalesceEq => B::Pow, // placeholder, handled separately
        _ => return None,
    }))
}

/// What PHP expects after the statements of an alternative-syntax `if:` branch.
const ALT_IF: &str = "\"elseif\" or \"else\" or \"endif\"";

/// Can `t` begin a statement (FIRST(statement) in PHP's grammar)?
fn can_start_statement(t: Tok) -> bool {
    use Tok::*;
    match t {
        Else | ElseIf | EndIf | EndWhile | EndFor | EndForeach | EndSwitch | EndDeclare | Case | Default
        | Catch | Finally | As | Insteadof | Extends | Implements | Comma | DoubleArrow | RParen
        | RBracket | RBrace | Var | Public | Protected | Private | Callable | Eof | EndHeredoc
        | EncapsedAndWhitespace | StringVarname | NumString | CurlyOpen | DollarOpenCurlyBraces
        | Ellipsis | ObjectOp | NullsafeObjectOp | DoubleColon | Colon | Question | Eq | Instanceof
        | LogicalAnd | LogicalOr | LogicalXor | Star | Slash | Percent | Dot | Pow | Coalesce | BoolOr
        | BoolAnd | Pipe | Caret | Amp | IsEqual | IsNotEqual | IsIdentical | IsNotIdentical | Lt | Gt
        | IsSmallerOrEqual | IsGreaterOrEqual | Spaceship | Sl | Sr | PlusEq | MinusEq | MulEq | DivEq
        | ConcatEq | ModEq | AndEq | OrEq | XorEq | SlEq | SrEq | CoalesceEq | PowEq | NsSeparator => false,
        _ => true,
    }
}

fn is_superglobal(name: &[u8]) -> bool {
    matches!(
        name,
        b"GLOBALS" | b"_GET" | b"_POST" | b"_COOKIE" | b"_SERVER" | b"_ENV" | b"_REQUEST" | b"_FILES" | b"_SESSION"
    )
}

/// Can `t` begin an expression (FIRST(expr) in PHP's grammar)?
fn can_start_expr(t: Tok) -> bool {
    use Tok::*;
    matches!(
        t,
        Variable | Dollar | Ident | NameQualified | NameFullyQualified | NameRelative | LNumber | DNumber
            | ConstString | DoubleQuote | Backtick | StartHeredoc | MagicLine | MagicFile | MagicDir
            | MagicClass | MagicTrait | MagicMethod | MagicFunction | MagicNamespace | LParen | LBracket
            | Array | List | Isset | Empty | Eval | Exit | Include | IncludeOnce | Require | RequireOnce
            | New | Clone | Print | Yield | YieldFrom | Throw | Function | Fn | Static | Match | Attribute
            | Plus | Minus | Bang | Tilde | At | Inc | Dec | IntCast | DoubleCast | StringCast | ArrayCast
            | ObjectCast | BoolCast | UnsetCast | Error
    )
}

/// Parse a whole file.
pub fn parse_program<'a>(arena: &'a Bump, src: &'a [u8]) -> R<Program<'a>> {
    parse_program_with_diagnostics(arena, src, &mut Vec::new())
}

/// Parse a whole file; the warnings and deprecations PHP would print while
/// compiling it are appended to `diags` in PHP's order (the scanner's first,
/// then the compiler's), also when the parse fails.
pub fn parse_program_with_diagnostics<'a>(arena: &'a Bump, src: &'a [u8], diags: &mut Vec<Diagnostic>) -> R<Program<'a>> {
    parse_program_guarded(arena, src, diags).map_err(|(e, _)| e)
}

/// As `parse_program_with_diagnostics`; on failure, also whether it failed
/// only for want of stack on this thread (a thread with more would do better).
pub(crate) fn parse_program_guarded<'a>(
    arena: &'a Bump,
    src: &'a [u8],
    diags: &mut Vec<Diagnostic>,
) -> Result<Program<'a>, (ParseError, bool)> {
    let lexed = lexer::lex(src);
    let mut p = Parser {
        a: arena,
        src,
        toks: lexed.tokens,
        pos: 0,
        lex_error: lexed.error,
        depth: 0,
        nesting: 0,
        stack_floor: super::stack::floor(),
        stack_exhausted: false,
        loops: Vec::new(),
        scan_warnings: Vec::new(),
        compile_warnings: Vec::new(),
        array_nesting: 0,
        list_ok: false,
        list_item_ok: false,
        stmt_expect: None,
        functions: 0,
        generator: false,
        first_statement: false,
        class_name: b"",
        array_close: Tok::RBracket,
        list_keyword: HashSet::new(),
        array_keyword: HashSet::new(),
        deferred: None,
    };
    let r = p.top_statements();
    diags.append(&mut p.scan_warnings);
    let stmts = r.map_err(|e| (e, p.stack_exhausted))?;
    // The compiler runs only once the whole file parsed.
    diags.append(&mut p.compile_warnings);
    if let Some(e) = p.deferred.take() {
        return Err((e, false));
    }
    Ok(Program { stmts, halt_offset: lexed.halt_offset, nesting: p.nesting })
}

/// Does a token text look like what PHP prints in `unexpected ...`?
fn quoted(text: &[u8]) -> String {
    // Only the first line of a multi-line token, at most 30 bytes of it.
    let text = match text.iter().position(|&c| c == b'\n') {
        Some(n) => &text[..n],
        None => text,
    };
    let mut s = String::from("\"");
    if text.len() > 30 + 3 {
        s.push_str(&String::from_utf8_lossy(&text[..30]));
        s.push_str("...");
    } else {
        s.push_str(&String::from_utf8_lossy(text));
    }
    s.push('"');
    s
}

struct Parser<'a> {
    a: &'a Bump,
    src: &'a [u8],
    toks: Vec<Token>,
    pos: usize,
    lex_error: Option<(String, u32)>,
    /// Current nesting, in PHP parser-stack entries (see `MAX_DEPTH`).
    depth: u32,
    /// Deepest nesting seen, chains included (`ast::Program::nesting`).
    nesting: u32,
    /// `enter` fails below this stack address (`stack::floor`).
    stack_floor: usize,
    /// The parse failed for want of stack on this thread, not by PHP's limit.
    stack_exhausted: bool,
    /// Enclosing loops and switches in the current function, innermost last
    /// (`true` for a switch).
    loops: Vec<bool>,
    /// Warnings PHP's scanner raises (octal escape overflow), in source order.
    scan_warnings: Vec<Diagnostic>,
    /// Warnings and deprecations PHP's compiler raises, in source order; those
    /// after the first deferred error are dropped (compilation stops there).
    compile_warnings: Vec<Diagnostic>,
    /// Number of enclosing `[` array literals.
    array_nesting: u32,
    /// The next `[...]` is a destructuring target (foreach).
    list_ok: bool,
    /// The expression being parsed is an array element: `list(...)` may stand
    /// alone there (PHP's `array_pair: T_LIST '(' array_pair_list ')'`).
    list_item_ok: bool,
    /// Set by a statement list for its next statement: see `statements_until_x`.
    stmt_expect: Option<&'static str>,
    /// Number of enclosing function bodies.
    functions: u32,
    /// The function body being parsed contains `yield` (Zend's
    /// `CG(extra_fn_flags) |= ZEND_ACC_GENERATOR`).
    generator: bool,
    /// The next statement is at the file's top level with only declares before it.
    first_statement: bool,
    /// The class whose body is being parsed, for messages.
    class_name: &'a [u8],
    /// The token closing the innermost array literal being parsed.
    array_close: Tok,
    /// `ExprKind::List` nodes written `list(...)` (the others were `[...]`), by address.
    list_keyword: HashSet<usize>,
    /// `ExprKind::Array` nodes written `array(...)`, by address.
    array_keyword: HashSet<usize>,
    /// First compile-time error, reported if parsing succeeds.
    deferred: Option<ParseError>,
}

impl<'a> Parser<'a> {
    // ------------------------------------------------------------------
    // Token helpers

    fn tok(&self) -> Token {
        self.toks.get(self.pos).or_else(|| self.toks.last()).copied().unwrap_or(Token {
            kind: Tok::Eof,
            line: 1,
            start: 0,
            end: 0,
        })
    }

    fn peek(&self) -> Tok {
        self.tok().kind
    }

    fn peek_at(&self, n: usize) -> Tok {
        match self.toks.get(self.pos + n) {
            Some(t) => t.kind,
            None => Tok::Eof,
        }
    }

    fn text(&self, t: Token) -> &'a [u8] {
        self.src.get(t.start as usize..t.end as usize).unwrap_or(b"")
    }

    fn bump(&mut self) -> Token {
        let t = self.tok();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, k: Tok) -> bool {
        if self.peek() == k {
            self.bump();
            true
        } else {
            false
        }
    }

    fn line(&self) -> u32 {
        self.tok().line
    }

    fn alloc<T>(&self, v: T) -> &'a T {
        self.a.alloc(v)
    }

    fn expr_node(&self, line: u32, kind: ExprKind<'a>) -> &'a Expr<'a> {
        self.a.alloc(Expr { line, kind })
    }

    /// `${name}`: with a literal string name it is the plain variable
    /// (Zend's ZEND_AST_VAR over a constant, which compiles to a CV).
    /// A name concatenated from literal strings is one too (Zend folds it
    /// before compiling).
    fn var_var(&self, line: u32, name: &'a Expr<'a>) -> &'a Expr<'a> {
        fn literal(e: &Expr<'_>, out: &mut Vec<u8>) -> bool {
            match &e.kind {
                ExprKind::String(s) => {
                    out.extend_from_slice(s);
                    true
                }
                ExprKind::Binary { op: BinaryOp::Concat, left, right } => literal(left, out) && literal(right, out),
                _ => false,
            }
        }
        let mut s = Vec::new();
        if literal(name, &mut s) {
            return self.expr_node(line, ExprKind::Var(self.a.alloc_slice_copy(&s)));
        }
        self.expr_node(line, ExprKind::VarVar(name))
    }

    fn vec<T>(&self) -> BVec<'a, T> {
        BVec::new_in(self.a)
    }


    // ------------------------------------------------------------------
    // Errors

    fn describe(&self, t: Token) -> String {
        let text = self.text(t);
        match t.kind {
            Tok::Eof => "end of file".to_string(),
            Tok::Variable => format!("variable {}", quoted(text)),
            Tok::Ident => format!("identifier {}", quoted(text)),
            Tok::NameQualified => format!("namespaced name {}", quoted(text)),
            Tok::NameFullyQualified => format!("fully qualified name {}", quoted(text)),
            Tok::NameRelative => format!("namespace-relative name {}", quoted(text)),
            Tok::LNumber => format!("integer {}", quoted(text)),
            Tok::DNumber => format!("floating-point number {}", quoted(text)),
            Tok::ConstString => {
                // zend_yytnamerr: first line only, then one quote off each end.
                let line = match text.iter().position(|&c| c == b'\n') {
                    Some(n) => &text[..n],
                    None => text,
                };
                let what = match line.first() {
                    Some(b'"') => "double-quoted string",
                    Some(b'\'') => "single-quoted string",
                    _ => "quoted string", // b'...'
                };
                let mut inner = line;
                if matches!(inner.first(), Some(b'\'' | b'"')) {
                    inner = &inner[1..];
                }
                if matches!(inner.last(), Some(b'\'' | b'"')) {
                    inner = &inner[..inner.len() - 1];
                }
                format!("{what} {}", quoted(inner))
            }
            Tok::DoubleQuote => "double-quote mark".to_string(),
            Tok::EncapsedAndWhitespace => format!("string content {}", quoted(text)),
            Tok::StartHeredoc => format!("heredoc start {}", quoted(text)),
            Tok::EndHeredoc => "heredoc end".to_string(),
            Tok::InlineHtml => format!("inline html {}", quoted(text)),
            Tok::StringVarname => format!("variable name {}", quoted(text)),
            Tok::NumString => format!("number {}", quoted(text)),
            k => format!("token \"{}\"", k.fixed_text()),
        }
    }

    /// The line PHP reports for an unexpected token: where the scanner is after it.
    fn error_line(&self, t: Token) -> u32 {
        let mut line = t.line;
        if t.kind == Tok::StartHeredoc {
            line += 1;
        }
        let unterminated_single = t.kind == Tok::EncapsedAndWhitespace
            && t.end as usize == self.src.len()
            && t.start > 0
            && self.src.get(t.start as usize - 1) == Some(&b'\'');
        if unterminated_single {
            // PHP's scanner does not count the lines of an unterminated '...'.
        } else if matches!(
            t.kind,
            Tok::ConstString | Tok::EncapsedAndWhitespace | Tok::InlineHtml | Tok::YieldFrom
        ) {
            line += self.text(t).iter().filter(|&&c| c == b'\n').count() as u32;
        }
        line
    }

    fn err_at(&self, msg: String, line: u32) -> ParseError {
        ParseError { message: msg, line, kind: ErrorKind::Parse }
    }

    fn unexpected<T>(&self) -> R<T> {
        Err(self.unexpected_err(None))
    }

    fn unexpected_expecting<T>(&self, what: &str) -> R<T> {
        Err(self.unexpected_err(Some(what)))
    }

    fn unexpected_err(&self, expecting: Option<&str>) -> ParseError {
        let t = self.tok();
        if t.kind == Tok::Error {
            if let Some((msg, line)) = &self.lex_error {
                return self.err_at(msg.clone(), *line);
            }
        }
        let mut msg = format!("syntax error, unexpected {}", self.describe(t));
        if let Some(w) = expecting {
            msg.push_str(", expecting ");
            msg.push_str(w);
        }
        self.err_at(msg, self.error_line(t))
    }

    /// A compile-time error raised while parsing (PHP raises it from a parser action).
    fn fatal<T>(&self, msg: &str, line: u32) -> R<T> {
        Err(ParseError { message: msg.to_string(), line, kind: ErrorKind::Fatal })
    }

    /// A compile-time error PHP raises after parsing: reported only if the parse succeeds.
    fn defer(&mut self, msg: &str, line: u32) {
        if self.deferred.is_none() {
            self.deferred = Some(ParseError { message: msg.to_string(), line, kind: ErrorKind::Fatal });
        }
    }

    /// A warning or deprecation PHP's compiler raises; dropped once a deferred
    /// error is pending, since PHP's compilation stops at that error.
    fn compile_warning(&mut self, kind: DiagnosticKind, message: String, line: u32) {
        if self.deferred.is_none() {
            self.compile_warnings.push(Diagnostic { kind, message, line });
        }
    }

    fn expect(&mut self, k: Tok) -> R<Token> {
        if self.peek() == k {
            Ok(self.bump())
        } else {
            self.unexpected()
        }
    }

    fn expect_x(&mut self, k: Tok, expecting: &str) -> R<Token> {
        if self.peek() == k {
            Ok(self.bump())
        } else {
            self.unexpected_expecting(expecting)
        }
    }

    /// Expect `k`, reporting `expecting "k"` on error.
    fn expect_q(&mut self, k: Tok) -> R<Token> {
        if self.peek() == k {
            Ok(self.bump())
        } else {
            let w = format!("\"{}\"", k.fixed_text());
            self.unexpected_expecting(&w)
        }
    }

    /// One level of recursion: `cost` parser-stack entries as PHP counts them.
    fn enter(&mut self) -> R<()> {
        self.enter_n(1)
    }

    fn enter_n(&mut self, cost: u32) -> R<()> {
        self.depth += cost;
        if self.depth > MAX_DEPTH {
            return Err(self.err_at("memory exhausted".to_string(), self.line()));
        }
        if self.depth > self.nesting {
            self.nesting = self.depth;
        }
        if super::stack::sp() < self.stack_floor {
            // Out of stack on this thread before PHP's limit: the caller may
            // retry on a bigger stack (see `stack`).
            self.stack_exhausted = true;
            return Err(self.err_at("memory exhausted".to_string(), self.line()));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.leave_n(1)
    }

    fn leave_n(&mut self, cost: u32) {
        self.depth = self.depth.saturating_sub(cost);
    }

    /// A left-nested chain got one link longer (`chain` links so far): the
    /// AST is that much deeper than the recursion that built it.
    fn chain_link(&mut self, chain: u32) -> R<()> {
        let d = self.depth + chain;
        if d > self.nesting {
            self.nesting = d;
            if d > MAX_AST_DEPTH {
                return Err(self.err_at("memory exhausted".to_string(), self.line()));
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------
    // Names

    fn is_name_tok(k: Tok) -> bool {
        matches!(k, Tok::Ident | Tok::NameQualified | Tok::NameFullyQualified | Tok::NameRelative)
    }

    fn make_name(&self, t: Token) -> Name<'a> {
        let text = self.text(t);
        match t.kind {
            Tok::NameFullyQualified => Name { name: text.get(1..).unwrap_or(b""), kind: NameKind::FullyQualified },
            Tok::NameRelative => Name { name: text.get(10..).unwrap_or(b""), kind: NameKind::Relative },
            Tok::NameQualified => Name { name: text, kind: NameKind::Qualified },
            _ => Name { name: text, kind: NameKind::Unqualified },
        }
    }

    /// A class name (`A`, `A\B`, `\A`, `namespace\A`).
    fn class_name(&mut self) -> R<Name<'a>> {
        if Self::is_name_tok(self.peek()) {
            let t = self.bump();
            Ok(self.make_name(t))
        } else {
            self.unexpected_expecting("identifier")
        }
    }

    /// An identifier, including reserved words (method, constant, property names).
    fn identifier(&mut self) -> R<&'a [u8]> {
        let t = self.tok();
        if t.kind == Tok::Ident || (t.kind.is_keyword() && t.kind != Tok::YieldFrom) {
            self.bump();
            Ok(self.text(t))
        } else {
            self.unexpected_expecting("identifier")
        }
    }

    fn plain_ident(&mut self) -> R<&'a [u8]> {
        if self.peek() == Tok::Ident {
            let t = self.bump();
            Ok(self.text(t))
        } else {
            self.unexpected_expecting("identifier")
        }
    }

    fn var_name(&self, t: Token) -> &'a [u8] {
        self.text(t).get(1..).unwrap_or(b"")
    }

    // ------------------------------------------------------------------
    // Statements

    fn top_statements(&mut self) -> R<&'a [Stmt<'a>]> {
        let mut out = self.vec();
        // 0: none yet, 1: unbraced, 2: braced
        let mut ns_style = 0u8;
        let mut seen_code = false;
        let mut outside_code_after_braced = false;
        let mut only_declares = true;
        while self.peek() != Tok::Eof {
            if self.peek() == Tok::Namespace
                && (matches!(self.peek_at(1), Tok::Ident | Tok::NameQualified | Tok::LBrace | Tok::Semicolon)
                    || (self.peek_at(1).is_keyword() && self.peek_at(1) != Tok::YieldFrom))
            {
                let line = self.line();
                self.bump();
                let name = if matches!(self.peek(), Tok::Ident | Tok::NameQualified) || self.peek().is_keyword() {
                    let t = self.bump();
                    Some(self.text(t))
                } else {
                    None
                };
                if seen_code {
                    self.defer(
                        "Namespace declaration statement has to be the very first statement or after any declare call in the script",
                        line,
                    );
                }
                if self.eat(Tok::LBrace) {
                    if ns_style == 1 {
                        self.defer("Cannot mix bracketed namespace declarations with unbracketed namespace declarations", line);
                    }
                    ns_style = 2;
                    let body = self.statements_until(&[Tok::RBrace], true)?;
                    self.expect(Tok::RBrace)?;
                    out.push(Stmt { line, kind: StmtKind::Namespace { name, body, braced: true } });
                } else {
                    if name.is_none() || self.peek() != Tok::Semicolon {
                        return self.unexpected_expecting("\"{\"");
                    }
                    self.bump();
                    if ns_style == 2 {
                        self.defer("Cannot mix bracketed namespace declarations with unbracketed namespace declarations", line);
                    }
                    ns_style = 1;
                    let mut body = self.vec();
                    while self.peek() != Tok::Eof
                        && !(self.peek() == Tok::Namespace
                            && matches!(self.peek_at(1), Tok::Ident | Tok::NameQualified | Tok::LBrace | Tok::Semicolon))
                    {
                        self.stmt_expect = Some("end of file");
                        body.push(self.statement(true)?);
                    }
                    out.push(Stmt { line, kind: StmtKind::Namespace { name, body: body.into_bump_slice(), braced: false } });
                }
                continue;
            }
            self.stmt_expect = Some("end of file");
            self.first_statement = only_declares;
            let s = self.statement(true)?;
            only_declares &= matches!(s.kind, StmtKind::Declare { .. });
            match &s.kind {
                StmtKind::Declare { .. } => {}
                StmtKind::HaltCompiler => {}
                StmtKind::InlineHtml(_) if !seen_code && out.is_empty() => {
                    // PHP allows a leading shebang-free opening tag only; inline HTML counts as code.
                    seen_code = true;
                }
                _ => {
                    seen_code = true;
                    if ns_style == 2 && !outside_code_after_braced {
                        outside_code_after_braced = true;
                        self.defer("No code may exist outside of namespace {}", s.line);
                    }
                }
            }
            out.push(s);
        }
        Ok(out.into_bump_slice())
    }

    /// Statements until one of `terms` (not consumed).
    fn statements_until(&mut self, terms: &[Tok], top: bool) -> R<&'a [Stmt<'a>]> {
        self.statements_until_x(terms, top, None)
    }

    /// `expect`: what PHP says it expected when a token that cannot start a
    /// statement comes where one could (the list's closing tokens, if few).
    fn statements_until_x(&mut self, terms: &[Tok], top: bool, expect: Option<&'static str>) -> R<&'a [Stmt<'a>]> {
        let mut out = self.vec();
        loop {
            let k = self.peek();
            if terms.contains(&k) {
                break;
            }
            if k == Tok::Eof {
                return match expect {
                    Some(x) => self.unexpected_expecting(x),
                    None => self.unexpected(),
                };
            }
            self.stmt_expect = expect;
            out.push(self.statement(top)?);
        }
        Ok(out.into_bump_slice())
    }

    /// The body of a control structure as a statement list.
    fn body(&mut self) -> R<&'a [Stmt<'a>]> {
        let s = self.statement(false)?;
        Ok(match s.kind {
            StmtKind::Block(b) => b,
            _ => self.a.alloc_slice_fill_iter(std::iter::once(s)),
        })
    }

    fn loop_body(&mut self, cost: u32) -> R<&'a [Stmt<'a>]> {
        self.loops.push(false);
        let r = self.costed(cost, |p| p.body());
        self.loops.pop();
        r
    }

    /// `f` as a nesting level of `cost` parser-stack entries (see `MAX_DEPTH`).
    fn costed<T>(&mut self, cost: u32, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.enter_n(cost)?;
        let r = f(self);
        self.leave_n(cost);
        r
    }

    /// `;` ending a statement (`?>` is lexed as `;`).
    fn semi(&mut self) -> R<()> {
        self.expect(Tok::Semicolon).map(|_| ())
    }

    fn statement(&mut self, top: bool) -> R<Stmt<'a>> {
        self.enter_n(2)?;
        let r = self.statement_inner(top);
        self.leave_n(2);
        r
    }

    fn statement_inner(&mut self, top: bool) -> R<Stmt<'a>> {
        let expect = self.stmt_expect.take();
        let first = std::mem::take(&mut self.first_statement);
        let t = self.tok();
        if !can_start_statement(t.kind) {
            return match expect {
                Some(x) => self.unexpected_expecting(x),
                None => self.unexpected(),
            };
        }
        let line = t.line;
        let kind = match t.kind {
            Tok::LBrace => {
                self.bump();
                let body = self.statements_until(&[Tok::RBrace], false)?;
                self.expect(Tok::RBrace)?;
                StmtKind::Block(body)
            }
            Tok::Semicolon => {
                self.bump();
                StmtKind::Nop
            }
            Tok::InlineHtml => {
                self.bump();
                StmtKind::InlineHtml(self.text(t))
            }
            Tok::Echo => {
                self.bump();
                let mut list = self.vec();
                loop {
                    list.push(self.expr_value()?);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::Semicolon, "\",\" or \";\"")?;
                StmtKind::Echo(list.into_bump_slice())
            }
            Tok::If => return self.if_stmt(),
            Tok::While => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                let cond = self.expr()?;
                self.expect(Tok::RParen)?;
                let body = if self.eat(Tok::Colon) {
                    self.loops.push(false);
                    let b = self.statements_until(&[Tok::EndWhile], false);
                    self.loops.pop();
                    let b = b?;
                    self.expect(Tok::EndWhile)?;
                    self.semi()?;
                    b
                } else {
                    self.loop_body(2)?
                };
                StmtKind::While { cond, body }
            }
            Tok::Do => {
                self.bump();
                let body = self.loop_body(2)?;
                self.expect_q(Tok::While)?;
                self.expect_q(Tok::LParen)?;
                let cond = self.expr()?;
                self.expect(Tok::RParen)?;
                self.expect_x(Tok::Semicolon, "\";\"")?;
                StmtKind::DoWhile { body, cond }
            }
            Tok::For => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                let init = self.for_exprs(Tok::Semicolon)?;
                self.expect_x(Tok::Semicolon, "\";\"")?;
                let cond = self.for_exprs(Tok::Semicolon)?;
                self.expect_x(Tok::Semicolon, "\";\"")?;
                let step = self.for_exprs(Tok::RParen)?;
                self.expect_x(Tok::RParen, "\")\"")?;
                let body = if self.eat(Tok::Colon) {
                    self.loops.push(false);
                    let b = self.statements_until(&[Tok::EndFor], false);
                    self.loops.pop();
                    let b = b?;
                    self.expect(Tok::EndFor)?;
                    self.semi()?;
                    b
                } else {
                    self.loop_body(2)?
                };
                StmtKind::For { init, cond, step, body }
            }
            Tok::Foreach => return self.foreach_stmt(),
            Tok::Switch => return self.switch_stmt(),
            Tok::Break | Tok::Continue => {
                self.bump();
                let word = if t.kind == Tok::Break { "break" } else { "continue" };
                let mut n = 1u32;
                if self.peek() != Tok::Semicolon {
                    if !can_start_expr(self.peek()) {
                        return self.unexpected_expecting("\";\"");
                    }
                    let e = self.expr()?;
                    match e.kind {
                        ExprKind::Int(v) if v >= 1 => n = v.min(u32::MAX as i64) as u32,
                        ExprKind::Int(_) => {
                            self.defer(&format!("'{}' operator accepts only positive integers", word), line)
                        }
                        _ => self.defer(
                            &format!("'{}' operator with non-integer operand is no longer supported", word),
                            line,
                        ),
                    }
                }
                self.expect_x(Tok::Semicolon, "\";\"")?;
                let depth = self.loops.len();
                if depth == 0 {
                    self.defer(&format!("'{}' not in the 'loop' or 'switch' context", word), line);
                } else if n as usize > depth {
                    self.defer(&format!("Cannot '{}' {} level{}", word, n, if n == 1 { "" } else { "s" }), line);
                } else if t.kind == Tok::Continue && self.loops[depth - n as usize] {
                    // zend_compile_break_continue: `continue` aimed at a switch.
                    let has_loop_outside = depth > n as usize;
                    let mut msg = if n == 1 {
                        "\"continue\" targeting switch is equivalent to \"break\"".to_string()
                    } else {
                        format!("\"continue {n}\" targeting switch is equivalent to \"break {n}\"")
                    };
                    if has_loop_outside {
                        msg.push_str(&format!(". Did you mean to use \"continue {}\"?", n + 1));
                    }
                    self.compile_warning(DiagnosticKind::Warning, msg, line);
                }
                if t.kind == Tok::Break {
                    StmtKind::Break(n)
                } else {
                    StmtKind::Continue(n)
                }
            }
            Tok::Return => {
                self.bump();
                if self.eat(Tok::Semicolon) {
                    StmtKind::Return(None)
                } else if !can_start_expr(self.peek()) {
                    return self.unexpected_expecting("\";\"");
                } else {
                    let e = self.expr_value()?;
                    self.expect_x(Tok::Semicolon, "\";\"")?;
                    StmtKind::Return(Some(e))
                }
            }
            Tok::Global => {
                self.bump();
                let mut list = self.vec();
                loop {
                    if !matches!(self.peek(), Tok::Variable | Tok::Dollar) {
                        return self.unexpected_expecting("variable or \"$\"");
                    }
                    list.push(self.simple_variable()?);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::Semicolon, "\",\" or \";\"")?;
                StmtKind::Global(list.into_bump_slice())
            }
            Tok::Static if self.peek_at(1) == Tok::Variable => {
                self.bump();
                let mut list = self.vec();
                loop {
                    let v = self.expect_x(Tok::Variable, "variable")?;
                    let default = if self.eat(Tok::Eq) { Some(self.expr()?) } else { None };
                    list.push(StaticVar { name: self.var_name(v), default });
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::Semicolon, "\",\" or \";\"")?;
                StmtKind::Static(list.into_bump_slice())
            }
            Tok::Unset => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                let mut list = self.vec();
                while self.peek() != Tok::RParen {
                    // unset_variable: a variable only.
                    let start = self.pos;
                    let (e, is_var) = self.costed(1, |p| p.postfix_expr())?;
                    if !is_var {
                        self.pos = start;
                        return self.unexpected();
                    }
                    if !matches!(self.peek(), Tok::Comma | Tok::RParen) {
                        return self.unexpected_expecting("\"->\" or \"?->\" or \"{\" or \"[\"");
                    }
                    if !Self::can_write_to_chain(e) {
                        self.defer("Can't use nullsafe operator in write context", line);
                    }
                    list.push(e);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_q(Tok::RParen)?;
                self.semi()?;
                StmtKind::Unset(list.into_bump_slice())
            }
            Tok::Function
                if self.peek_at(1) == Tok::Ident
                    || self.peek_at(1) == Tok::Readonly
                    || (self.peek_at(1) == Tok::Amp && matches!(self.peek_at(2), Tok::Ident | Tok::Readonly)) =>
            {
                let f = self.function_decl(&[])?;
                StmtKind::Function(f)
            }
            Tok::Abstract | Tok::Final | Tok::Class | Tok::Interface | Tok::Trait | Tok::Enum => {
                StmtKind::Class(self.class_decl(&[])?)
            }
            Tok::Readonly if matches!(self.peek_at(1), Tok::Class | Tok::Final | Tok::Abstract | Tok::Readonly) => {
                StmtKind::Class(self.class_decl(&[])?)
            }
            Tok::Attribute => {
                let attrs = self.attributes()?;
                match self.peek() {
                    Tok::Function if matches!(self.peek_at(1), Tok::Ident | Tok::Amp | Tok::Readonly) && self.peek_at(1) != Tok::Amp || (self.peek_at(1) == Tok::Amp && self.peek_at(2) == Tok::Ident) => {
                        StmtKind::Function(self.function_decl(attrs)?)
                    }
                    Tok::Abstract | Tok::Final | Tok::Class | Tok::Interface | Tok::Trait | Tok::Enum | Tok::Readonly => {
                        StmtKind::Class(self.class_decl(attrs)?)
                    }
                    Tok::Function | Tok::Fn | Tok::Static => {
                        let e = self.closure_with_attrs(attrs)?;
                        let e = self.continue_expr(e)?;
                        self.semi()?;
                        StmtKind::Expr(e)
                    }
                    _ => return self.unexpected(),
                }
            }
            Tok::Try => return self.try_stmt(),
            Tok::Goto => {
                self.bump();
                let name = self.plain_ident()?;
                self.expect_x(Tok::Semicolon, "\";\"")?;
                StmtKind::Goto(name)
            }
            Tok::Ident if self.peek_at(1) == Tok::Colon => {
                self.bump();
                self.bump();
                StmtKind::Label(self.text(t))
            }
            Tok::Declare => return self.declare_stmt(first),
            Tok::Namespace
                if top && matches!(self.peek_at(1), Tok::Ident | Tok::NameQualified | Tok::LBrace | Tok::Semicolon) =>
            {
                // Inside a braced namespace: PHP's grammar takes it, its compiler does not.
                self.bump();
                let name = if matches!(self.peek(), Tok::Ident | Tok::NameQualified) {
                    let n = self.bump();
                    Some(self.text(n))
                } else {
                    None
                };
                if self.eat(Tok::LBrace) {
                    self.defer("Namespace declarations cannot be nested", line);
                    let body = self.statements_until(&[Tok::RBrace], true)?;
                    self.expect(Tok::RBrace)?;
                    StmtKind::Namespace { name, body, braced: true }
                } else {
                    if name.is_none() {
                        return self.unexpected_expecting("\"{\"");
                    }
                    self.expect(Tok::Semicolon)?;
                    self.defer("Cannot mix bracketed namespace declarations with unbracketed namespace declarations", line);
                    StmtKind::Namespace { name, body: &[], braced: false }
                }
            }
            Tok::Use if top => return self.use_stmt(),
            Tok::Const if top => {
                self.bump();
                let mut list = self.vec();
                loop {
                    let l = self.line();
                    let name = self.plain_ident()?;
                    self.expect_q(Tok::Eq)?;
                    let value = self.expr()?;
                    self.check_const_expr(value, true);
                    list.push(ConstItem { line: l, name, value });
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::Semicolon, "\",\" or \";\"")?;
                StmtKind::Const(list.into_bump_slice())
            }
            Tok::HaltCompiler if !top => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                self.expect_q(Tok::RParen)?;
                self.expect_q(Tok::Semicolon)?;
                return self.fatal("__HALT_COMPILER() can only be used from the outermost scope", line);
            }
            Tok::HaltCompiler => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                self.expect_q(Tok::RParen)?;
                self.expect_q(Tok::Semicolon)?;
                // Everything after is data; the lexer stopped here.
                self.pos = self.toks.len().saturating_sub(1);
                StmtKind::HaltCompiler
            }
            _ => {
                let e = self.expr()?;
                self.semi()?;
                StmtKind::Expr(e)
            }
        };
        Ok(Stmt { line, kind })
    }

    /// A `for` clause: like `expr_list`, with PHP's message for a bad start.
    fn for_exprs(&mut self, end: Tok) -> R<&'a [&'a Expr<'a>]> {
        let k = self.peek();
        if k != end && !can_start_expr(k) {
            let w = format!("\"{}\"", end.fixed_text());
            return self.unexpected_expecting(&w);
        }
        self.expr_list(end)
    }

    /// Comma-separated expressions up to `end` (not consumed); may be empty.
    fn expr_list(&mut self, end: Tok) -> R<&'a [&'a Expr<'a>]> {
        let mut list = self.vec();
        if self.peek() != end {
            loop {
                list.push(self.expr_value()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        Ok(list.into_bump_slice())
    }

    fn if_stmt(&mut self) -> R<Stmt<'a>> {
        let line = self.bump().line;
        self.expect_q(Tok::LParen)?;
        let cond = self.expr()?;
        self.expect(Tok::RParen)?;
        let mut elseifs = self.vec();
        let mut else_ = None;
        let then;
        if self.eat(Tok::Colon) {
            then = self.statements_until_x(&[Tok::ElseIf, Tok::Else, Tok::EndIf], false, Some(ALT_IF))?;
            loop {
                match self.peek() {
                    Tok::ElseIf => {
                        let l = self.bump().line;
                        self.expect_q(Tok::LParen)?;
                        let c = self.expr()?;
                        self.expect(Tok::RParen)?;
                        self.expect_q(Tok::Colon)?;
                        let b = self.statements_until_x(&[Tok::ElseIf, Tok::Else, Tok::EndIf], false, Some(ALT_IF))?;
                        elseifs.push(ElseIf { line: l, cond: c, body: b });
                    }
                    Tok::Else => {
                        self.bump();
                        self.expect_q(Tok::Colon)?;
                        else_ = Some(self.statements_until(&[Tok::EndIf], false)?);
                        break;
                    }
                    _ => break,
                }
            }
            self.expect(Tok::EndIf)?;
            self.semi()?;
        } else {
            then = self.costed(2, |p| p.body())?;
            loop {
                match self.peek() {
                    Tok::ElseIf => {
                        let l = self.bump().line;
                        self.expect_q(Tok::LParen)?;
                        let c = self.expr()?;
                        self.expect(Tok::RParen)?;
                        let b = self.body()?;
                        elseifs.push(ElseIf { line: l, cond: c, body: b });
                    }
                    Tok::Else => {
                        self.bump();
                        else_ = Some(self.body()?);
                        break;
                    }
                    _ => break,
                }
            }
        }
        Ok(Stmt { line, kind: StmtKind::If { cond, then, elseifs: elseifs.into_bump_slice(), else_ } })
    }

    fn foreach_stmt(&mut self) -> R<Stmt<'a>> {
        let line = self.bump().line;
        self.expect_q(Tok::LParen)?;
        let subject = self.expr()?;
        self.expect(Tok::As)?;
        let (mut value, mut by_ref) = self.foreach_target()?;
        let mut key = None;
        if self.eat(Tok::DoubleArrow) {
            if by_ref {
                self.defer("Key element cannot be a reference", line);
            }
            if let ExprKind::List(_) = value.kind {
                self.defer("Cannot use list as key element", line);
            }
            key = Some(value);
            let (v, r) = self.foreach_target()?;
            value = v;
            by_ref = r;
        }
        if self.peek() != Tok::RParen {
            return self.unexpected_expecting("\"->\" or \"?->\" or \"{\" or \"[\"");
        }
        self.bump();
        let body = if self.eat(Tok::Colon) {
            self.loops.push(false);
            let b = self.statements_until(&[Tok::EndForeach], false);
            self.loops.pop();
            let b = b?;
            self.expect(Tok::EndForeach)?;
            self.semi()?;
            b
        } else {
            self.loop_body(4)?
        };
        Ok(Stmt { line, kind: StmtKind::Foreach { subject, key, value, by_ref, body } })
    }

    fn foreach_target(&mut self) -> R<(&'a Expr<'a>, bool)> {
        let by_ref = self.eat(Tok::Amp);
        let line = self.line();
        let start = self.pos;
        self.list_ok = true;
        let r = self.postfix_expr();
        self.list_ok = false;
        let (e, is_var) = r?;
        let e = match e.kind {
            _ if is_var => {
                self.check_write(e, line);
                e
            }
            ExprKind::Int(_) | ExprKind::Float(_) => {
                self.pos = start;
                return self.unexpected();
            }
            ExprKind::Array(_) if self.is_keyword_array(e) => {
                // `array(...)` is only a dereferenceable scalar here.
                return self.unexpected_expecting("\"->\" or \"?->\" or \"{\" or \"[\"");
            }
            ExprKind::String(_) | ExprKind::Interpolated(_) | ExprKind::Const(_) => {
                return self.unexpected_expecting("\"->\" or \"?->\" or \"{\" or \"[\"");
            }
            ExprKind::Array(_) | ExprKind::List(_) => self.to_list(e, line)?,
            _ => return self.unexpected(),
        };
        if let ExprKind::Var(b"this") = e.kind {
            self.defer("Cannot re-assign $this", line);
        }
        Ok((e, by_ref))
    }

    fn switch_stmt(&mut self) -> R<Stmt<'a>> {
        let line = self.bump().line;
        self.expect_q(Tok::LParen)?;
        let subject = self.expr()?;
        self.expect(Tok::RParen)?;
        let alt = if self.eat(Tok::Colon) {
            true
        } else {
            self.expect_x(Tok::LBrace, "\"{\"")?;
            false
        };
        self.eat(Tok::Semicolon);
        let end = if alt { Tok::EndSwitch } else { Tok::RBrace };
        let case_expect =
            if alt { "\"endswitch\" or \"case\" or \"default\"" } else { "\"case\" or \"default\" or \"}\"" };
        let mut cases = self.vec();
        let mut has_default = false;
        self.loops.push(true);
        let r: R<()> = (|| {
            while self.peek() != end {
                let l = self.line();
                let test = match self.peek() {
                    Tok::Case => {
                        self.bump();
                        Some(self.expr()?)
                    }
                    Tok::Default => {
                        self.bump();
                        if has_default {
                            self.defer("Switch statements may only contain one default clause", l);
                        }
                        has_default = true;
                        None
                    }
                    _ => return self.unexpected_expecting(case_expect),
                };
                if !self.eat(Tok::Colon) && !self.eat(Tok::Semicolon) {
                    return self.unexpected();
                }
                let body = self.statements_until_x(&[Tok::Case, Tok::Default, end], false, Some(case_expect))?;
                cases.push(Case { line: l, test, body });
            }
            Ok(())
        })();
        self.loops.pop();
        r?;
        self.bump();
        if alt {
            self.semi()?;
        }
        Ok(Stmt { line, kind: StmtKind::Switch { subject, cases: cases.into_bump_slice() } })
    }

    fn try_stmt(&mut self) -> R<Stmt<'a>> {
        let line = self.bump().line;
        self.expect_q(Tok::LBrace)?;
        let body = self.statements_until(&[Tok::RBrace], false)?;
        self.bump();
        let mut catches = self.vec();
        while self.peek() == Tok::Catch {
            let l = self.bump().line;
            self.expect_q(Tok::LParen)?;
            let mut types = self.vec();
            loop {
                if !Self::is_name_tok(self.peek()) && self.peek() != Tok::Static {
                    return self.unexpected();
                }
                if self.peek() == Tok::Static {
                    // `class_name: T_STATIC | name`; zend_compile_try refuses it.
                    let l = self.line();
                    self.bump();
                    self.defer("Bad class name in the catch statement", l);
                    types.push(Name { name: b"static", kind: NameKind::Unqualified });
                } else {
                    types.push(self.class_name()?);
                }
                if !self.eat(Tok::Pipe) {
                    break;
                }
            }
            let var = if self.peek() == Tok::Variable {
                let t = self.bump();
                Some(self.var_name(t))
            } else {
                None
            };
            self.expect_q(Tok::RParen)?;
            self.expect_q(Tok::LBrace)?;
            let b = self.statements_until(&[Tok::RBrace], false)?;
            self.bump();
            catches.push(Catch { line: l, types: types.into_bump_slice(), var, body: b });
        }
        let finally = if self.eat(Tok::Finally) {
            self.expect_q(Tok::LBrace)?;
            let b = self.statements_until(&[Tok::RBrace], false)?;
            self.bump();
            Some(b)
        } else {
            None
        };
        if catches.is_empty() && finally.is_none() {
            self.defer("Cannot use try without catch or finally", line);
        }
        Ok(Stmt { line, kind: StmtKind::Try { body, catches: catches.into_bump_slice(), finally } })
    }

    /// `first`: only declares precede it, at the file's top level
    /// (zend_is_first_statement).
    fn declare_stmt(&mut self, first: bool) -> R<Stmt<'a>> {
        let line = self.bump().line;
        self.expect_q(Tok::LParen)?;
        let mut dirs = self.vec();
        loop {
            let name = self.plain_ident()?;
            self.expect_q(Tok::Eq)?;
            let v = self.expr()?;
            dirs.push((name, v));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect_q(Tok::RParen)?;
        let body = if self.eat(Tok::Semicolon) {
            None
        } else if self.eat(Tok::Colon) {
            let b = self.statements_until(&[Tok::EndDeclare], false)?;
            self.bump();
            self.semi()?;
            Some(b)
        } else {
            Some(self.body()?)
        };
        if dirs.iter().any(|(n, _)| n.eq_ignore_ascii_case(b"strict_types")) {
            if !first {
                self.defer("strict_types declaration must be the very first statement in the script", line);
            } else if body.is_some() {
                self.defer("strict_types declaration must not use block mode", line);
            }
        }
        Ok(Stmt { line, kind: StmtKind::Declare { directives: dirs.into_bump_slice(), body } })
    }

    fn use_stmt(&mut self) -> R<Stmt<'a>> {
        let line = self.bump().line;
        let mut kind = UseKind::Normal;
        if self.eat(Tok::Function) {
            kind = UseKind::Function;
        } else if self.eat(Tok::Const) {
            kind = UseKind::Const;
        }
        let mut items = self.vec();
        loop {
            let l = self.line();
            let t = self.tok();
            let name: &'a [u8] = match t.kind {
                Tok::Ident | Tok::NameQualified => {
                    self.bump();
                    self.text(t)
                }
                Tok::NameFullyQualified => {
                    self.bump();
                    self.text(t).get(1..).unwrap_or(b"")
                }
                _ => return self.unexpected_expecting("identifier"),
            };
            if self.peek() == Tok::NsSeparator && self.peek_at(1) == Tok::LBrace {
                // Group use: prefix\{a, function b as c}
                self.bump();
                self.bump();
                while self.peek() != Tok::RBrace {
                    let l = self.line();
                    let mut k = kind;
                    if kind == UseKind::Normal {
                        if self.eat(Tok::Function) {
                            k = UseKind::Function;
                        } else if self.eat(Tok::Const) {
                            k = UseKind::Const;
                        }
                    }
                    let t = self.tok();
                    if !matches!(t.kind, Tok::Ident | Tok::NameQualified) {
                        return self.unexpected_expecting("identifier");
                    }
                    self.bump();
                    let mut full = bumpalo::collections::Vec::with_capacity_in(name.len() + 1 + self.text(t).len(), self.a);
                    full.extend_from_slice(name);
                    full.push(b'\\');
                    full.extend_from_slice(self.text(t));
                    let alias = if self.eat(Tok::As) { Some(self.plain_ident()?) } else { None };
                    items.push(UseItem { line: l, kind: k, name: full.into_bump_slice(), alias });
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::RBrace, "\"}\"")?;
            } else {
                let alias = if self.eat(Tok::As) { Some(self.plain_ident()?) } else { None };
                items.push(UseItem { line: l, kind, name, alias });
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect_x(Tok::Semicolon, "\",\" or \";\"")?;
        Ok(Stmt { line, kind: StmtKind::Use(items.into_bump_slice()) })
    }

    // ------------------------------------------------------------------
    // Functions and classes

    fn function_decl(&mut self, attrs: &'a [Attribute<'a>]) -> R<&'a Function<'a>> {
        let line = self.bump().line;
        let by_ref = self.eat(Tok::Amp);
        let t = self.tok();
        if !matches!(t.kind, Tok::Ident | Tok::Readonly) {
            return self.unexpected_expecting("\"(\"");
        }
        self.bump();
        let name = self.text(t);
        self.function_rest(line, name, by_ref, attrs, false, true)
    }

    /// Parameters, return type and body of a function / method / closure.
    fn function_rest(
        &mut self,
        line: u32,
        name: &'a [u8],
        by_ref: bool,
        attributes: &'a [Attribute<'a>],
        is_static: bool,
        body_required: bool,
    ) -> R<&'a Function<'a>> {
        let params = self.params(line)?;
        let mut uses: &'a [ClosureUse<'a>] = &[];
        if name.is_empty() && self.eat(Tok::Use) {
            self.expect_q(Tok::LParen)?;
            let mut list = self.vec();
            while self.peek() != Tok::RParen {
                let r = self.eat(Tok::Amp);
                let v = self.expect_x(Tok::Variable, "variable")?;
                let n = self.var_name(v);
                // zend_compile_closure_uses
                if n == b"this" {
                    self.defer("Cannot use $this as lexical variable", v.line);
                } else if is_superglobal(n) {
                    self.defer("Cannot use auto-global as lexical variable", v.line);
                } else if params.iter().any(|p| p.name == n) {
                    let m = format!("Cannot use lexical variable ${} as a parameter name", String::from_utf8_lossy(n));
                    self.defer(&m, v.line);
                } else if list.iter().any(|u: &ClosureUse| u.name == n) {
                    let m = format!("Cannot use variable ${} twice", String::from_utf8_lossy(n));
                    self.defer(&m, v.line);
                }
                list.push(ClosureUse { name: n, by_ref: r });
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect_q(Tok::RParen)?;
            uses = list.into_bump_slice();
        }
        let return_type = if self.eat(Tok::Colon) { Some(self.parse_type()?) } else { None };
        let mut is_generator = false;
        let body = if !body_required && self.eat(Tok::Semicolon) {
            None
        } else {
            self.expect_x(Tok::LBrace, if body_required { "\"{\"" } else { "\";\" or \"{\"" })?;
            let saved = std::mem::take(&mut self.loops);
            self.functions += 1;
            let outer_gen = std::mem::replace(&mut self.generator, false);
            let b = self.costed(9, |p| p.statements_until(&[Tok::RBrace], false));
            is_generator = std::mem::replace(&mut self.generator, outer_gen);
            self.functions -= 1;
            self.loops = saved;
            Some(b?)
        };
        let end_line = self.line();
        if body.is_some() {
            self.bump();
        }
        Ok(self.alloc(Function {
            line,
            end_line,
            name,
            params,
            by_ref,
            return_type,
            body,
            uses,
            is_static,
            is_generator,
            attributes,
            doc_comment: None,
        }))
    }

    /// `decl_line`: the function's line, where PHP reports parameter deprecations.
    fn params(&mut self, decl_line: u32) -> R<&'a [Param<'a>]> {
        self.expect_q(Tok::LParen)?;
        let mut list = self.vec();
        let mut variadic_seen = false;
        while self.peek() != Tok::RParen {
            let line = self.line();
            if !matches!(
                self.peek(),
                Tok::Variable | Tok::Amp | Tok::Ellipsis | Tok::Attribute | Tok::Ident | Tok::NameQualified
                    | Tok::NameFullyQualified | Tok::NameRelative | Tok::Array | Tok::Callable | Tok::Static
                    | Tok::Question | Tok::LParen | Tok::Public | Tok::Protected | Tok::Private | Tok::Readonly
            ) {
                return self.unexpected_expecting("variable");
            }
            let attributes = self.attributes()?;
            let mut promote = Modifiers(0);
            loop {
                let f = match self.peek() {
                    Tok::Public => Modifiers::PUBLIC,
                    Tok::Protected => Modifiers::PROTECTED,
                    Tok::Private => Modifiers::PRIVATE,
                    Tok::Readonly => Modifiers::READONLY,
                    _ => break,
                };
                self.bump();
                promote.0 |= f;
            }
            if self.peek() == Tok::Amp && !matches!(self.peek_at(1), Tok::Variable | Tok::Ellipsis) {
                // PHP 8.1's scanner: an `&` not before a variable is an intersection `&`.
                return self.unexpected_expecting("variable");
            }
            let ty = if matches!(self.peek(), Tok::Amp | Tok::Ellipsis | Tok::Variable) {
                None
            } else {
                Some(self.parse_type()?)
            };
            let by_ref = self.eat(Tok::Amp);
            let variadic = self.eat(Tok::Ellipsis);
            let v = self.expect_x(Tok::Variable, "variable")?;
            let default = if self.eat(Tok::Eq) { Some(self.expr()?) } else { None };
            if variadic_seen {
                self.defer("Only the last parameter can be variadic", line);
            }
            if variadic {
                variadic_seen = true;
                if default.is_some() {
                    self.defer("Variadic parameter cannot have a default value", line);
                }
            }
            list.push(Param { line, name: self.var_name(v), ty, default, by_ref, variadic, promote, attributes });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect_x(Tok::RParen, "\")\"")?;
        let params = list.into_bump_slice();
        // zend_compile_params: an optional parameter before a required one.
        if let Some(last_required) = params.iter().rposition(|p| p.default.is_none() && !p.variadic) {
            for p in &params[..last_required] {
                let Some(d) = p.default else { continue };
                let null_default = matches!(d.kind, ExprKind::Const(n) if n.name.eq_ignore_ascii_case(b"null"));
                if null_default && matches!(p.ty, Some(t) if !matches!(t, Type::Nullable(_))) {
                    continue; // `T $p = null` (not `?T`): the old spelling of a nullable type
                }
                let msg = format!(
                    "Optional parameter ${} declared before required parameter ${} is implicitly treated as a required parameter",
                    String::from_utf8_lossy(p.name),
                    String::from_utf8_lossy(params[last_required].name)
                );
                self.compile_warning(DiagnosticKind::Deprecated, msg, decl_line);
            }
        }
        Ok(params)
    }

    fn parse_type(&mut self) -> R<&'a Type<'a>> {
        let line = self.line();
        let t = self.parse_type_inner()?;
        // zend_compile_typename: types that must stand alone.
        let named = |t: &Type<'_>, n: &[u8]| matches!(t, Type::Named(x) if x.kind == NameKind::Unqualified && x.name.eq_ignore_ascii_case(n));
        let msg = match t {
            Type::Nullable(i) if named(i, b"void") => Some("Void can only be used as a standalone type"),
            Type::Nullable(i) if named(i, b"never") => Some("never can only be used as a standalone type"),
            Type::Nullable(i) if named(i, b"mixed") => {
                Some("Type mixed cannot be marked as nullable since mixed already includes null")
            }
            Type::Union(ts) if ts.iter().any(|x| named(x, b"void")) => Some("Void can only be used as a standalone type"),
            Type::Union(ts) if ts.iter().any(|x| named(x, b"never")) => Some("never can only be used as a standalone type"),
            Type::Union(ts) if ts.iter().any(|x| named(x, b"mixed")) => Some("Type mixed can only be used as a standalone type"),
            _ => None,
        };
        if let Some(m) = msg {
            self.defer(m, line);
        }
        Ok(t)
    }

    fn parse_type_inner(&mut self) -> R<&'a Type<'a>> {
        if self.eat(Tok::Question) {
            let t = self.single_type()?;
            return Ok(self.alloc(Type::Nullable(t)));
        }
        let first = self.union_member()?;
        if self.peek() == Tok::Pipe {
            let mut list = self.vec();
            list.push_type(first);
            while self.eat(Tok::Pipe) {
                let t = self.union_member()?;
                list.push_type(t);
            }
            return Ok(self.alloc(Type::Union(list.into_bump_slice())));
        }
        if self.is_intersection_amp() {
            let mut list = self.vec();
            list.push_type(first);
            while self.is_intersection_amp() {
                self.bump();
                let t = self.single_type()?;
                list.push_type(t);
            }
            return Ok(self.alloc(Type::Intersection(list.into_bump_slice())));
        }
        Ok(first)
    }

    /// `&` in a type is an intersection unless a by-ref parameter follows.
    fn is_intersection_amp(&self) -> bool {
        self.peek() == Tok::Amp && !matches!(self.peek_at(1), Tok::Variable | Tok::Ellipsis)
    }

    /// A member of a union type: a single type or `(A&B)`.
    fn union_member(&mut self) -> R<&'a Type<'a>> {
        if self.eat(Tok::LParen) {
            let mut list = self.vec();
            loop {
                let t = self.single_type()?;
                list.push_type(t);
                if !self.eat(Tok::Amp) {
                    break;
                }
            }
            self.expect_q(Tok::RParen)?;
            return Ok(self.alloc(Type::Intersection(list.into_bump_slice())));
        }
        self.single_type()
    }

    fn single_type(&mut self) -> R<&'a Type<'a>> {
        let t = self.tok();
        let name = match t.kind {
            Tok::Ident | Tok::NameQualified | Tok::NameFullyQualified | Tok::NameRelative => self.make_name(t),
            Tok::Array => Name { name: b"array", kind: NameKind::Unqualified },
            Tok::Callable => Name { name: b"callable", kind: NameKind::Unqualified },
            Tok::Static => Name { name: b"static", kind: NameKind::Unqualified },
            _ => return self.unexpected(),
        };
        self.bump();
        Ok(self.alloc(Type::Named(name)))
    }

    fn attributes(&mut self) -> R<&'a [Attribute<'a>]> {
        if self.peek() != Tok::Attribute {
            return Ok(&[]);
        }
        let mut list = self.vec();
        while self.eat(Tok::Attribute) {
            loop {
                let line = self.line();
                if !Self::is_name_tok(self.peek()) {
                    return self.unexpected();
                }
                let name = self.class_name()?;
                let args = if self.peek() == Tok::LParen {
                    match self.arg_list()? {
                        Args::List(a) => a,
                        Args::FirstClassCallable => return self.fatal("Cannot create Closure as attribute argument", line),
                    }
                } else {
                    &[]
                };
                for a in args {
                    self.check_const_expr(a.value, true);
                }
                list.push(Attribute { line, name, args });
                if !self.eat(Tok::Comma) || self.peek() == Tok::RBracket {
                    break;
                }
            }
            self.expect_x(Tok::RBracket, "\"]\"")?;
        }
        Ok(list.into_bump_slice())
    }

    fn class_decl(&mut self, attributes: &'a [Attribute<'a>]) -> R<&'a ClassDecl<'a>> {
        let line = self.line();
        let mut modifiers = Modifiers(0);
        loop {
            let f = match self.peek() {
                Tok::Abstract => Modifiers::ABSTRACT,
                Tok::Final => Modifiers::FINAL,
                Tok::Readonly => Modifiers::READONLY,
                _ => break,
            };
            if modifiers.has(f) {
                let w = match f {
                    Modifiers::ABSTRACT => "Multiple abstract modifiers are not allowed",
                    Modifiers::FINAL => "Multiple final modifiers are not allowed",
                    _ => "Multiple readonly modifiers are not allowed",
                };
                return self.fatal(w, self.line());
            }
            self.bump();
            modifiers.0 |= f;
        }
        let kind = match self.peek() {
            Tok::Class => ClassKind::Class,
            Tok::Interface if modifiers.0 == 0 => ClassKind::Interface,
            Tok::Trait if modifiers.0 == 0 => ClassKind::Trait,
            Tok::Enum if modifiers.0 == 0 => ClassKind::Enum,
            _ => return self.unexpected_expecting("\"abstract\" or \"final\" or \"readonly\" or \"class\""),
        };
        if modifiers.has(Modifiers::ABSTRACT) && modifiers.has(Modifiers::FINAL) {
            self.defer("Cannot use the final modifier on an abstract class", line);
        }
        self.bump();
        let t = self.tok();
        if t.kind != Tok::Ident {
            return self.unexpected_expecting("identifier");
        }
        self.bump();
        let name = self.text(t);
        self.class_rest(line, kind, Some(name), modifiers, attributes)
    }

    /// From after the class name (or `class` of an anonymous class) to the closing `}`.
    fn class_rest(
        &mut self,
        line: u32,
        kind: ClassKind,
        name: Option<&'a [u8]>,
        modifiers: Modifiers,
        attributes: &'a [Attribute<'a>],
    ) -> R<&'a ClassDecl<'a>> {
        let mut enum_backing = None;
        let mut extends = None;
        let mut implements: &'a [Name<'a>] = &[];
        if kind == ClassKind::Enum && self.eat(Tok::Colon) {
            let t = self.parse_type()?;
            match t {
                Type::Named(n) if n.kind == NameKind::Unqualified
                    && (n.name.eq_ignore_ascii_case(b"int") || n.name.eq_ignore_ascii_case(b"string")) => {}
                Type::Named(n) => {
                    let m = format!("Enum backing type must be int or string, {} given", String::from_utf8_lossy(n.name));
                    self.defer(&m, line);
                }
                _ => {}
            }
            enum_backing = Some(t);
        }
        if kind == ClassKind::Interface {
            if self.eat(Tok::Extends) {
                implements = self.name_list()?;
            }
        } else {
            if kind == ClassKind::Class && self.eat(Tok::Extends) {
                if self.peek() == Tok::Static {
                    // `class_name: T_STATIC | name`; zend_resolve_const_class_name_reference refuses it.
                    let l = self.line();
                    self.bump();
                    self.defer("Cannot use 'static' as class name, as it is reserved", l);
                    extends = Some(Name { name: b"static", kind: NameKind::Unqualified });
                } else {
                    if !Self::is_name_tok(self.peek()) {
                        return self.unexpected();
                    }
                    extends = Some(self.class_name()?);
                }
            }
            if kind != ClassKind::Trait && self.eat(Tok::Implements) {
                implements = self.name_list()?;
            }
        }
        self.expect_x(Tok::LBrace, "\"{\"")?;
        let mut members = self.vec();
        let saved_name = std::mem::replace(&mut self.class_name, name.unwrap_or(b"class@anonymous"));
        let saved = std::mem::take(&mut self.loops);
        let r: R<()> = (|| {
            while self.peek() != Tok::RBrace {
                let m = self.class_member(kind)?;
                members.push(m);
            }
            Ok(())
        })();
        self.loops = saved;
        self.class_name = saved_name;
        r?;
        let end_line = self.bump().line;
        Ok(self.alloc(ClassDecl {
            line,
            end_line,
            kind,
            name,
            modifiers,
            extends,
            implements,
            enum_backing,
            members: members.into_bump_slice(),
            attributes,
            doc_comment: None,
        }))
    }

    fn name_list(&mut self) -> R<&'a [Name<'a>]> {
        let mut list = self.vec();
        loop {
            if !Self::is_name_tok(self.peek()) {
                return self.unexpected();
            }
            list.push(self.class_name()?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        Ok(list.into_bump_slice())
    }

    fn class_member(&mut self, class_kind: ClassKind) -> R<ClassMember<'a>> {
        self.enter()?;
        let r = self.class_member_inner(class_kind);
        self.leave();
        r
    }

    fn class_member_inner(&mut self, class_kind: ClassKind) -> R<ClassMember<'a>> {
        let attributes = self.attributes()?;
        let line = self.line();
        if self.peek() == Tok::Use {
            self.bump();
            let traits = self.name_list()?;
            let mut adaptations = self.vec();
            if self.eat(Tok::LBrace) {
                while self.peek() != Tok::RBrace {
                    // [Trait::]method
                    let (trait_, method) = if Self::is_name_tok(self.peek()) && self.peek_at(1) == Tok::DoubleColon {
                        let n = self.class_name()?;
                        self.bump();
                        (Some(n), self.identifier()?)
                    } else {
                        (None, self.identifier()?)
                    };
                    if self.eat(Tok::Insteadof) {
                        let Some(trait_) = trait_ else { return self.unexpected() };
                        let instead_of = self.name_list()?;
                        adaptations.push(TraitAdaptation::Insteadof { trait_, method, instead_of });
                    } else {
                        self.expect_q(Tok::As)?;
                        let mut modifiers = Modifiers(0);
                        match self.peek() {
                            Tok::Public => modifiers.0 = Modifiers::PUBLIC,
                            Tok::Protected => modifiers.0 = Modifiers::PROTECTED,
                            Tok::Private => modifiers.0 = Modifiers::PRIVATE,
                            _ => {}
                        }
                        if modifiers.0 != 0 {
                            self.bump();
                        }
                        let alias = if self.peek() == Tok::Semicolon {
                            None
                        } else {
                            Some(self.identifier()?)
                        };
                        if modifiers.0 == 0 && alias.is_none() {
                            return self.unexpected();
                        }
                        adaptations.push(TraitAdaptation::Alias { trait_, method, modifiers, alias });
                    }
                    self.expect_x(Tok::Semicolon, "\";\"")?;
                }
                self.bump();
            } else {
                self.expect_x(Tok::Semicolon, "\",\" or \";\" or \"{\"")?;
            }
            return Ok(ClassMember::TraitUse { line, traits, adaptations: adaptations.into_bump_slice() });
        }
        if self.peek() == Tok::Case {
            self.bump();
            let t = self.tok();
            if !(t.kind == Tok::Ident || (t.kind.is_keyword() && t.kind != Tok::YieldFrom)) {
                return self.unexpected();
            }
            let name = self.identifier()?;
            let value = if self.eat(Tok::Eq) {
                Some(self.expr()?)
            } else {
                if self.peek() != Tok::Semicolon {
                    return self.unexpected_expecting("\";\"");
                }
                None
            };
            self.semi()?;
            if class_kind != ClassKind::Enum {
                self.defer("Case can only be used in enums", line);
            }
            return Ok(ClassMember::EnumCase { line, name, value, attributes });
        }
        let mut modifiers = Modifiers(0);
        loop {
            let f = match self.peek() {
                Tok::Public => Modifiers::PUBLIC,
                Tok::Protected => Modifiers::PROTECTED,
                Tok::Private => Modifiers::PRIVATE,
                Tok::Static => Modifiers::STATIC,
                Tok::Abstract => Modifiers::ABSTRACT,
                Tok::Final => Modifiers::FINAL,
                Tok::Readonly => Modifiers::READONLY,
                Tok::Var => Modifiers::VAR,
                _ => break,
            };
            let l = self.line();
            if f & Modifiers::VISIBILITY != 0 && modifiers.0 & Modifiers::VISIBILITY != 0 {
                return self.fatal("Multiple access type modifiers are not allowed", l);
            }
            if modifiers.has(f) {
                let msg = match f {
                    Modifiers::STATIC => "Multiple static modifiers are not allowed",
                    Modifiers::ABSTRACT => "Multiple abstract modifiers are not allowed",
                    Modifiers::FINAL => "Multiple final modifiers are not allowed",
                    Modifiers::READONLY => "Multiple readonly modifiers are not allowed",
                    _ => "Multiple access type modifiers are not allowed",
                };
                return self.fatal(msg, l);
            }
            self.bump();
            modifiers.0 |= f;
        }
        match self.peek() {
            Tok::Const => {
                self.bump();
                let mut consts = self.vec();
                loop {
                    let l = self.line();
                    let name = self.identifier()?;
                    self.expect_q(Tok::Eq)?;
                    let value = self.expr()?;
                    self.check_const_expr(value, false);
                    consts.push(ConstItem { line: l, name, value });
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::Semicolon, "\",\" or \";\"")?;
                Ok(ClassMember::Const { line, modifiers, consts: consts.into_bump_slice(), attributes, doc_comment: None })
            }
            Tok::Function => {
                self.bump();
                let by_ref = self.eat(Tok::Amp);
                let t = self.tok();
                if !(t.kind == Tok::Ident || (t.kind.is_keyword() && t.kind != Tok::YieldFrom)) {
                    return self.unexpected();
                }
                let name = self.identifier()?;
                let func = self.function_rest(line, name, by_ref, attributes, false, false)?;
                self.check_method(class_kind, modifiers, func);
                Ok(ClassMember::Method { modifiers, func })
            }
            _ => {
                if modifiers.0 == 0 {
                    return self.unexpected_expecting("\"function\" or \"const\"");
                }
                if !matches!(
                    self.peek(),
                    Tok::Variable | Tok::Ident | Tok::NameQualified | Tok::NameFullyQualified | Tok::NameRelative
                        | Tok::Array | Tok::Callable | Tok::Static | Tok::Question | Tok::LParen
                ) {
                    return self.unexpected_expecting("variable");
                }
                let ty = if self.peek() == Tok::Variable { None } else { Some(self.parse_type()?) };
                let mut props = self.vec();
                loop {
                    let v = self.expect_x(Tok::Variable, "variable")?;
                    let default = if self.eat(Tok::Eq) { Some(self.expr()?) } else { None };
                    self.check_property(class_kind, modifiers, ty.is_some(), self.var_name(v), default, v.line);
                    props.push(PropertyItem { name: self.var_name(v), default });
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::Semicolon, "\",\" or \";\"")?;
                Ok(ClassMember::Property {
                    line,
                    modifiers,
                    ty,
                    props: props.into_bump_slice(),
                    attributes,
                    doc_comment: None,
                })
            }
        }
    }

    // ------------------------------------------------------------------
    // Expressions

    /// A full expression.
    fn expr(&mut self) -> R<&'a Expr<'a>> {
        self.expr_bp(0)
    }

    /// An expression used as a value (`[]` is not allowed for reading).
    fn expr_value(&mut self) -> R<&'a Expr<'a>> {
        let e = self.expr_bp(0)?;
        self.check_read(e);
        Ok(e)
    }

    fn check_read(&mut self, e: &'a Expr<'a>) {
        if let ExprKind::Index { dim: None, .. } = e.kind {
            self.defer("Cannot use [] for reading", e.line);
        }
    }

    fn expr_bp(&mut self, min: u8) -> R<&'a Expr<'a>> {
        self.enter()?;
        let r = self.expr_bp_inner(min);
        self.leave();
        r
    }

    /// Continue parsing binary operators after an already-parsed operand (statement level).
    fn continue_expr(&mut self, left: &'a Expr<'a>) -> R<&'a Expr<'a>> {
        self.binary_loop(left, 0)
    }

    fn expr_bp_inner(&mut self, min: u8) -> R<&'a Expr<'a>> {
        let left = self.unary()?;
        self.binary_loop(left, min)
    }

    fn binary_loop(&mut self, mut left: &'a Expr<'a>, min: u8) -> R<&'a Expr<'a>> {
        // Some(short) if `left` is an unparenthesized ternary built here.
        let mut left_ternary: Option<bool> = None;
        let mut chain = 0;
        loop {
            let t = self.peek();
            let Some((prec, assoc, op)) = binary_info(t) else { break };
            if prec < min {
                break;
            }
            chain += 1;
            self.chain_link(chain)?;
            let line = left.line;
            match t {
                Tok::Question => {
                    self.bump();
                    let (then, short) = if self.eat(Tok::Colon) {
                        (None, true)
                    } else {
                        let th = self.expr()?;
                        self.expect(Tok::Colon)?;
                        (Some(th), false)
                    };
                    if let Some(inner_short) = left_ternary {
                        if !(inner_short && short) {
                            let msg = match (inner_short, short) {
                                (false, false) => "Unparenthesized `a ? b : c ? d : e` is not supported. Use either `(a ? b : c) ? d : e` or `a ? b : (c ? d : e)`",
                                (true, false) => "Unparenthesized `a ?: b ? c : d` is not supported. Use either `(a ?: b) ? c : d` or `a ?: (b ? c : d)`",
                                _ => "Unparenthesized `a ? b : c ?: d` is not supported. Use either `(a ? b : c) ?: d` or `a ? b : (c ?: d)`",
                            };
                            return self.fatal(msg, self.line());
                        }
                    }
                    self.check_read(left);
                    let else_ = self.costed(3, |p| p.expr_bp(P_TERNARY + 1))?;
                    left = self.expr_node(line, ExprKind::Ternary { cond: left, then, else_ });
                    left_ternary = Some(short);
                    continue;
                }
                Tok::Coalesce => {
                    self.bump();
                    let right = self.costed(1, |p| p.expr_bp(P_COALESCE))?;
                    left = self.expr_node(line, ExprKind::Coalesce { left, right });
                }
                Tok::Instanceof => {
                    self.bump();
                    self.check_read(left);
                    let class = self.class_ref()?;
                    left = self.expr_node(line, ExprKind::Instanceof { expr: left, class });
                }
                _ => {
                    self.bump();
                    let right = if assoc == Assoc::Right {
                        self.costed(1, |p| p.expr_bp(prec))?
                    } else {
                        self.expr_bp(prec + 1)?
                    };
                    self.check_read(left);
                    self.check_read(right);
                    let op = op.unwrap_or(BinaryOp::Add);
                    left = self.expr_node(line, ExprKind::Binary { op, left, right });
                    if assoc == Assoc::NonAssoc {
                        if let Some((p2, _, _)) = binary_info(self.peek()) {
                            if p2 == prec {
                                return self.unexpected();
                            }
                        }
                    }
                }
            }
            left_ternary = None;
        }
        Ok(left)
    }

    /// Prefix operators, then a postfix expression (with an assignment attached
    /// to it, as PHP's grammar binds `variable = expr` regardless of what precedes).
    fn unary(&mut self) -> R<&'a Expr<'a>> {
        let item_ok = std::mem::take(&mut self.list_item_ok);
        let t = self.tok();
        let line = t.line;
        let kind = match t.kind {
            Tok::Bang => {
                self.bump();
                let e = self.expr_bp(P_INSTANCEOF)?;
                self.check_read(e);
                ExprKind::Unary { op: UnaryOp::Not, expr: e }
            }
            Tok::Minus | Tok::Plus | Tok::Tilde => {
                self.bump();
                let e = self.expr_bp(P_POW)?;
                self.check_read(e);
                let op = match t.kind {
                    Tok::Minus => UnaryOp::Neg,
                    Tok::Plus => UnaryOp::Plus,
                    _ => UnaryOp::BitNot,
                };
                ExprKind::Unary { op, expr: e }
            }
            Tok::IntCast | Tok::DoubleCast | Tok::StringCast | Tok::ArrayCast | Tok::ObjectCast
            | Tok::BoolCast => {
                self.bump();
                let e = self.expr_bp(P_POW)?;
                self.check_read(e);
                let kind = match t.kind {
                    Tok::IntCast => CastKind::Int,
                    Tok::DoubleCast => CastKind::Float,
                    Tok::StringCast => CastKind::String,
                    Tok::ArrayCast => CastKind::Array,
                    Tok::ObjectCast => CastKind::Object,
                    _ => CastKind::Bool,
                };
                ExprKind::Cast { kind, expr: e }
            }
            Tok::UnsetCast => return self.fatal("The (unset) cast is no longer supported", line),
            Tok::At => {
                self.bump();
                let e = self.expr_bp(P_POW)?;
                ExprKind::Silence(e)
            }
            Tok::Inc | Tok::Dec => {
                self.bump();
                let (e, is_var) = self.postfix_expr()?;
                if !is_var {
                    return self.unexpected();
                }
                self.check_write(e, line);
                if t.kind == Tok::Inc {
                    ExprKind::PreInc(e)
                } else {
                    ExprKind::PreDec(e)
                }
            }
            Tok::Clone => {
                self.bump();
                ExprKind::Clone(self.expr_bp(P_CLONE)?)
            }
            Tok::Print => {
                self.bump();
                ExprKind::Print(self.expr_bp(P_PRINT + 1)?)
            }
            Tok::Yield => {
                self.bump();
                self.yield_context(line);
                // `yield` takes no value when what follows cannot start an
                // expression (`yield * -1` is `(yield) * -1`; `yield -1` yields -1).
                if !can_start_expr(self.peek()) {
                    ExprKind::Yield { key: None, value: None }
                } else {
                    let v = self.expr_bp(P_YIELD + 2)?;
                    if self.eat(Tok::DoubleArrow) {
                        let v2 = self.expr_bp(P_YIELD + 2)?;
                        ExprKind::Yield { key: Some(v), value: Some(v2) }
                    } else {
                        ExprKind::Yield { key: None, value: Some(v) }
                    }
                }
            }
            Tok::YieldFrom => {
                self.bump();
                self.yield_context(line);
                ExprKind::YieldFrom(self.expr_bp(P_YIELD_FROM + 1)?)
            }
            Tok::Throw => {
                self.bump();
                ExprKind::Throw(self.expr_bp(0)?)
            }
            Tok::Include | Tok::IncludeOnce | Tok::Require | Tok::RequireOnce => {
                self.bump();
                let kind = match t.kind {
                    Tok::Include => IncludeKind::Include,
                    Tok::IncludeOnce => IncludeKind::IncludeOnce,
                    Tok::Require => IncludeKind::Require,
                    _ => IncludeKind::RequireOnce,
                };
                ExprKind::Include { kind, expr: self.expr_bp(P_LOGICAL_OR)? }
            }
            Tok::New => return self.new_expr(),
            _ => return self.postfix_with_assign(item_ok),
        };
        Ok(self.expr_node(line, kind))
    }

    /// zend_begin_method_decl's checks.
    fn check_method(&mut self, kind: ClassKind, m: Modifiers, f: &'a Function<'a>) {
        let (class, name) = (String::from_utf8_lossy(self.class_name), String::from_utf8_lossy(f.name));
        let line = f.line;
        let mut abstract_ = m.has(Modifiers::ABSTRACT);
        if kind == ClassKind::Interface {
            if m.has(Modifiers::PROTECTED) || m.has(Modifiers::PRIVATE) {
                return self.defer(&format!("Access type for interface method {class}::{name}() must be public"), line);
            }
            if m.has(Modifiers::FINAL) {
                return self.defer(&format!("Interface method {class}::{name}() must not be final"), line);
            }
            if abstract_ {
                return self.defer(&format!("Interface method {class}::{name}() must not be abstract"), line);
            }
            abstract_ = true;
        }
        let what = if kind == ClassKind::Interface { "Interface" } else { "Abstract" };
        if abstract_ {
            if m.has(Modifiers::PRIVATE) && kind != ClassKind::Trait {
                self.defer(&format!("{what} function {class}::{name}() cannot be declared private"), line);
            } else if f.body.is_some() {
                self.defer(&format!("{what} function {class}::{name}() cannot contain body"), line);
            }
        } else if f.body.is_none() {
            self.defer(&format!("Non-abstract method {class}::{name}() must contain body"), line);
        }
        if f.params.iter().any(|p| p.promote.0 != 0) && !f.name.eq_ignore_ascii_case(b"__construct") {
            self.defer("Cannot declare promoted property outside a constructor", line);
        }
    }

    /// zend_compile_prop_decl's checks.
    fn check_property(
        &mut self,
        kind: ClassKind,
        m: Modifiers,
        typed: bool,
        name: &[u8],
        default: Option<&'a Expr<'a>>,
        line: u32,
    ) {
        let class = String::from_utf8_lossy(self.class_name).into_owned();
        let name = String::from_utf8_lossy(name);
        if kind == ClassKind::Interface {
            return self.defer("Interfaces may not include properties", line);
        }
        if kind == ClassKind::Enum {
            return self.defer(&format!("Enum {class} cannot include properties"), line);
        }
        if m.has(Modifiers::ABSTRACT) {
            return self.defer("Properties cannot be declared abstract", line);
        }
        if m.has(Modifiers::READONLY) {
            if !typed {
                return self.defer(&format!("Readonly property {class}::${name} must have type"), line);
            }
            if m.has(Modifiers::STATIC) {
                return self.defer(&format!("Static property {class}::${name} cannot be readonly"), line);
            }
            if default.is_some() {
                return self.defer(&format!("Readonly property {class}::${name} cannot have default value"), line);
            }
        }
        if let Some(d) = default {
            self.check_const_expr(d, false);
        }
    }

    /// zend_compile_const_expr: only constant operations (and `new` where
    /// `allow_new`), checked top-down as PHP does.
    fn check_const_expr(&mut self, e: &'a Expr<'a>, allow_new: bool) {
        if let Some(msg) = Self::const_expr_error(e, allow_new) {
            self.defer(msg, e.line);
        }
    }

    fn const_expr_error(e: &Expr<'a>, allow_new: bool) -> Option<&'static str> {
        use ExprKind as K;
        const INVALID: &str = "Constant expression contains invalid operations";
        match &e.kind {
            K::Int(_) | K::Float(_) | K::String(_) | K::Const(_) | K::MagicConst(_) => None,
            K::ClassConst { class: ClassRef::Name(_), .. } => None,
            K::ClassConst { class: ClassRef::Expr(c), .. } => Self::const_expr_error(c, allow_new),
            K::Array(items) => items.iter().find_map(|it| {
                if it.by_ref {
                    return Some(INVALID);
                }
                it.key.and_then(|k| Self::const_expr_error(k, allow_new)).or_else(|| Self::const_expr_error(it.value, allow_new))
            }),
            K::Unary { expr, .. } => Self::const_expr_error(expr, allow_new),
            K::Binary { left, right, .. } | K::Coalesce { left, right } => {
                Self::const_expr_error(left, allow_new).or_else(|| Self::const_expr_error(right, allow_new))
            }
            K::Ternary { cond, then, else_ } => Self::const_expr_error(cond, allow_new)
                .or_else(|| then.and_then(|t| Self::const_expr_error(t, allow_new)))
                .or_else(|| Self::const_expr_error(else_, allow_new)),
            K::Index { base, dim } => Self::const_expr_error(base, allow_new)
                .or_else(|| dim.and_then(|d| Self::const_expr_error(d, allow_new))),
            K::Prop { obj, name, .. } => Self::const_expr_error(obj, allow_new).or_else(|| match name {
                MemberName::Expr(x) => Self::const_expr_error(x, allow_new),
                MemberName::Ident(_) => None,
            }),
            K::New { class, args } => {
                if !allow_new {
                    return Some("New expressions are not supported in this context");
                }
                match class {
                    ClassRef::Anonymous(_) => Some("Cannot use anonymous class in constant expression"),
                    ClassRef::Expr(_) => Some("Cannot use dynamic class name in constant expression"),
                    ClassRef::Name(_) => args.iter().find_map(|a| {
                        if a.unpack {
                            Some("Argument unpacking in constant expressions is not supported")
                        } else {
                            Self::const_expr_error(a.value, allow_new)
                        }
                    }),
                }
            }
            _ => Some(INVALID),
        }
    }

    fn yield_context(&mut self, line: u32) {
        self.generator = true;
        if self.functions == 0 {
            self.defer("The \"yield\" expression can only be used inside a function", line);
        }
    }

    /// Report writes to things that cannot be written.
    fn check_write(&mut self, e: &'a Expr<'a>, line: u32) {
        match e.kind {
            ExprKind::Var(b"this") => self.defer("Cannot re-assign $this", line),
            ExprKind::Call { .. } => self.defer("Can't use function return value in write context", line),
            ExprKind::MethodCall { .. } | ExprKind::StaticCall { .. } => {
                self.defer("Can't use method return value in write context", line)
            }
            ExprKind::Prop { nullsafe: true, .. } => self.defer("Can't use nullsafe operator in write context", line),
            ExprKind::Index { base, .. } | ExprKind::Prop { obj: base, .. } => {
                // Writing into a temporary (`"abc"[0] = 1`, `f()->a[0] = 1` is fine).
                let mut b = base;
                loop {
                    match b.kind {
                        ExprKind::Index { base, .. } => b = base,
                        ExprKind::Prop { obj, nullsafe, .. } => {
                            if nullsafe {
                                self.defer("Can't use nullsafe operator in write context", line);
                                return;
                            }
                            b = obj
                        }
                        ExprKind::String(_) | ExprKind::Interpolated(_) | ExprKind::Array(_) | ExprKind::Const(_)
                        | ExprKind::ClassConst { .. } => {
                            if let ExprKind::Index { .. } = e.kind {
                                self.defer("Cannot use temporary expression in write context", line);
                            }
                            return;
                        }
                        _ => return,
                    }
                }
            }
            _ => {}
        }
    }

    fn postfix_with_assign(&mut self, item_ok: bool) -> R<&'a Expr<'a>> {
        let line = self.line();
        let (e, is_var) = self.postfix_expr()?;
        let t = self.peek();
        let is_list = matches!(e.kind, ExprKind::List(_));
        // `array(...) = ...` is not in PHP's grammar.
        let is_array = matches!(e.kind, ExprKind::Array(_)) && !self.is_keyword_array(e);
        if !(is_var || ((is_list || is_array) && t == Tok::Eq)) {
            if is_list && self.is_keyword_list(e) {
                // `list()` must be assigned to, unless it is an array element.
                if !item_ok {
                    return self.unexpected_expecting("\"=\"");
                }
                match t {
                    Tok::Comma | Tok::RBracket | Tok::RParen => {}
                    _ if self.array_close == Tok::RParen => return self.unexpected_expecting("\")\""),
                    _ => return self.unexpected_expecting("\"]\""),
                }
            }
            return Ok(e);
        }
        let Some(op) = assign_op(t) else { return Ok(e) };
        self.bump();
        if t == Tok::Eq {
            let target = if is_list || is_array { self.to_list(e, line)? } else { e };
            if !(is_list || is_array) {
                self.check_write(target, line);
            }
            if self.peek() == Tok::Amp {
                self.bump();
                let vline = self.line();
                if self.peek() == Tok::New {
                    return self.unexpected();
                }
                let start = self.pos;
                let (value, vis_var) = self.postfix_expr()?;
                if !vis_var {
                    if let ExprKind::Closure(_) | ExprKind::ArrowFn(_) = value.kind {
                    } else {
                        self.pos = start;
                        return self.unexpected();
                    }
                }
                if !Self::can_write_to_chain(value) {
                    self.defer("Cannot take reference of a nullsafe chain", vline);
                }
                return Ok(self.expr_node(line, ExprKind::AssignRef { target, value }));
            }
            let value = self.costed(1, |p| p.expr_bp(P_ASSIGN + 1))?;
            self.check_read(value);
            return Ok(self.expr_node(line, ExprKind::Assign { target, value }));
        }
        self.check_write(e, line);
        let value = self.costed(1, |p| p.expr_bp(P_ASSIGN + 1))?;
        self.check_read(value);
        if t == Tok::CoalesceEq {
            return Ok(self.expr_node(line, ExprKind::AssignCoalesce { target: e, value }));
        }
        let op = op.unwrap_or(BinaryOp::Add);
        Ok(self.expr_node(line, ExprKind::AssignOp { op, target: e, value }))
    }

    /// Turn an array literal into a destructuring pattern (recursively), with
    /// the checks of zend_compile_list_assign in its order.
    fn to_list(&mut self, e: &'a Expr<'a>, line: u32) -> R<&'a Expr<'a>> {
        let items: &'a [Option<ArrayItem<'a>>] = match e.kind {
            ExprKind::List(items) => items,
            ExprKind::Array(items) => {
                let mut v = self.vec();
                for it in items {
                    v.push(Some(ArrayItem { key: it.key, value: it.value, by_ref: it.by_ref, spread: it.spread }));
                }
                v.into_bump_slice()
            }
            _ => return Ok(e),
        };
        let list_style = self.is_keyword_list(e);
        let is_keyed = matches!(items.first(), Some(Some(it)) if it.key.is_some());
        let mut out = self.vec();
        let mut has_elems = false;
        for it in items {
            let Some(it) = it else {
                if is_keyed {
                    self.defer("Cannot use empty array entries in keyed array assignment", line);
                }
                out.push(None);
                continue;
            };
            if it.spread {
                self.defer("Spread operator is not supported in assignments", line);
            }
            has_elems = true;
            if it.key.is_some() != is_keyed {
                self.defer("Cannot mix keyed and unkeyed array entries in assignments", line);
            }
            let value = match it.value.kind {
                ExprKind::Array(_) | ExprKind::List(_) => {
                    if self.is_keyword_array(it.value) {
                        self.defer("Cannot assign to array(), use [] instead", line);
                    } else if self.is_keyword_list(it.value) != list_style {
                        self.defer("Cannot mix [] and list()", line);
                    }
                    self.to_list(it.value, line)?
                }
                _ => {
                    match it.value.kind {
                        ExprKind::Var(b"this") => self.defer("Cannot re-assign $this", line),
                        _ if !Self::can_write_to(it.value) => {
                            self.defer("Assignments can only happen to writable values", line)
                        }
                        ExprKind::Call { .. } => {
                            self.defer("Can't use function return value in write context", line)
                        }
                        ExprKind::MethodCall { .. } | ExprKind::StaticCall { .. } => {
                            self.defer("Can't use method return value in write context", line)
                        }
                        _ => {}
                    }
                    it.value
                }
            };
            out.push(Some(ArrayItem { key: it.key, value, by_ref: it.by_ref, spread: it.spread }));
        }
        if !has_elems {
            self.defer("Cannot use empty list", line);
        }
        Ok(self.expr_node(e.line, ExprKind::List(out.into_bump_slice())))
    }

    /// zend_can_write_to_variable: a variable or call under `[..]` / `->`, with no `?->`.
    fn can_write_to(mut e: &Expr<'_>) -> bool {
        loop {
            match e.kind {
                ExprKind::Index { base, .. } => e = base,
                ExprKind::Prop { obj, nullsafe: false, .. } => e = obj,
                ExprKind::Prop { nullsafe: true, .. } => return false,
                _ => break,
            }
        }
        match e.kind {
            ExprKind::Var(_) | ExprKind::VarVar(_) | ExprKind::StaticProp { .. } => true,
            ExprKind::Call { .. } | ExprKind::StaticCall { .. } => true,
            ExprKind::MethodCall { obj, nullsafe, .. } => !nullsafe && Self::can_write_to_chain(obj),
            _ => false,
        }
    }

    /// No `?->` anywhere down a chain (zend_ast_is_short_circuited).
    fn can_write_to_chain(mut e: &Expr<'_>) -> bool {
        loop {
            match e.kind {
                ExprKind::Index { base, .. } => e = base,
                ExprKind::Prop { obj, nullsafe, .. } | ExprKind::MethodCall { obj, nullsafe, .. } => {
                    if nullsafe {
                        return false;
                    }
                    e = obj
                }
                _ => return true,
            }
        }
    }

    /// A primary expression with its postfix operators (`[..]`, `->`, `::`, calls,
    /// `++`/`--`). Returns whether the result is a "variable" (assignable) in PHP's grammar.
    fn postfix_expr(&mut self) -> R<(&'a Expr<'a>, bool)> {
        let (mut e, mut derefable, mut is_var, mut bare_name) = self.primary()?;
        let mut chain = 0;
        loop {
            let t = self.peek();
            let line = e.line;
            chain += 1;
            self.chain_link(chain)?;
            match t {
                Tok::LBracket if derefable => {
                    self.bump();
                    let dim = if self.peek() == Tok::RBracket {
                        None
                    } else if !can_start_expr(self.peek()) {
                        return self.unexpected_expecting("\"]\"");
                    } else {
                        let saved = std::mem::replace(&mut self.array_nesting, 0);
                        let d = self.expr();
                        self.array_nesting = saved;
                        Some(d?)
                    };
                    self.expect_x(Tok::RBracket, "\"]\"")?;
                    e = self.expr_node(line, ExprKind::Index { base: e, dim });
                    is_var = true;
                }
                Tok::LBrace if derefable || is_var => {
                    // `$a{0}`: still in PHP 8's grammar, rejected by its compiler.
                    self.bump();
                    let saved = std::mem::replace(&mut self.array_nesting, 0);
                    let d = self.expr();
                    self.array_nesting = saved;
                    let d = d?;
                    self.expect(Tok::RBrace)?;
                    self.defer("Array and string offset access syntax with curly braces is no longer supported", line);
                    e = self.expr_node(line, ExprKind::Index { base: e, dim: Some(d) });
                    is_var = true;
                }
                Tok::ObjectOp | Tok::NullsafeObjectOp if derefable => {
                    self.bump();
                    let nullsafe = t == Tok::NullsafeObjectOp;
                    let name = self.member_name()?;
                    if self.peek() == Tok::LParen {
                        let args = self.arg_list()?;
                        e = self.expr_node(line, ExprKind::MethodCall { obj: e, name, args, nullsafe });
                    } else {
                        e = self.expr_node(line, ExprKind::Prop { obj: e, name, nullsafe });
                    }
                    is_var = true;
                }
                Tok::DoubleColon if derefable && !matches!(e.kind, ExprKind::MagicConst(_)) => {
                    self.bump();
                    let class = match (bare_name, &e.kind) {
                        (true, ExprKind::Const(n)) => ClassRef::Name(*n),
                        _ => ClassRef::Expr(e),
                    };
                    e = self.static_member(class, line)?;
                    is_var = !matches!(e.kind, ExprKind::ClassConst { .. });
                }
                Tok::LParen if derefable && !matches!(e.kind, ExprKind::Const(_) | ExprKind::MagicConst(_)) || (derefable && !bare_name && matches!(e.kind, ExprKind::Const(_))) => {
                    let args = self.arg_list()?;
                    e = self.expr_node(line, ExprKind::Call { callee: Callee::Expr(e), args });
                    is_var = true;
                }
                Tok::Inc | Tok::Dec if is_var => {
                    self.bump();
                    self.check_write(e, line);
                    let k = if t == Tok::Inc { ExprKind::PostInc(e) } else { ExprKind::PostDec(e) };
                    return Ok((self.expr_node(line, k), false));
                }
                _ => break,
            }
            derefable = true;
            bare_name = false;
        }
        Ok((e, is_var))
    }

    /// After `::`.
    fn static_member(&mut self, class: ClassRef<'a>, line: u32) -> R<&'a Expr<'a>> {
        let t = self.tok();
        match t.kind {
            Tok::Variable => {
                self.bump();
                let name = self.var_name(t);
                if self.peek() == Tok::LParen {
                    let var = self.expr_node(t.line, ExprKind::Var(name));
                    let args = self.arg_list()?;
                    return Ok(self.expr_node(line, ExprKind::StaticCall { class, name: MemberName::Expr(var), args }));
                }
                Ok(self.expr_node(line, ExprKind::StaticProp { class, name: MemberName::Ident(name) }))
            }
            Tok::Dollar => {
                // A::$$b, A::${expr}: the property name is computed.
                self.bump();
                let inner = if self.eat(Tok::LBrace) {
                    let e = self.expr()?;
                    self.expect(Tok::RBrace)?;
                    e
                } else {
                    self.simple_variable()?
                };
                Ok(self.expr_node(line, ExprKind::StaticProp { class, name: MemberName::Expr(inner) }))
            }
            Tok::LBrace => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RBrace)?;
                if self.peek() != Tok::LParen {
                    return self.unexpected_expecting("\"(\"");
                }
                let args = self.arg_list()?;
                Ok(self.expr_node(line, ExprKind::StaticCall { class, name: MemberName::Expr(e), args }))
            }
            k if k == Tok::Ident || k.is_keyword() => {
                self.bump();
                let name = self.text(t);
                if self.peek() == Tok::LParen {
                    let args = self.arg_list()?;
                    return Ok(self.expr_node(line, ExprKind::StaticCall { class, name: MemberName::Ident(name), args }));
                }
                if k == Tok::Class {
                    return Ok(self.expr_node(line, ExprKind::ClassConst { class, name: b"class" }));
                }
                Ok(self.expr_node(line, ExprKind::ClassConst { class, name }))
            }
            _ => self.unexpected(),
        }
    }

    /// After `->` / `?->`: `name`, `$var`, `{expr}`, `$$var`.
    fn member_name(&mut self) -> R<MemberName<'a>> {
        let t = self.tok();
        match t.kind {
            Tok::Ident => {
                self.bump();
                Ok(MemberName::Ident(self.text(t)))
            }
            k if k.is_keyword() => {
                self.bump();
                Ok(MemberName::Ident(self.text(t)))
            }
            Tok::Variable | Tok::Dollar => Ok(MemberName::Expr(self.simple_variable()?)),
            Tok::LBrace => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RBrace)?;
                Ok(MemberName::Expr(e))
            }
            _ => self.unexpected_expecting("identifier or variable or \"{\" or \"$\""),
        }
    }

    /// `$a`, `$$a`, `${expr}`.
    fn simple_variable(&mut self) -> R<&'a Expr<'a>> {
        self.enter()?;
        let r = self.simple_variable_inner();
        self.leave();
        r
    }

    fn simple_variable_inner(&mut self) -> R<&'a Expr<'a>> {
        let t = self.tok();
        match t.kind {
            Tok::Variable => {
                self.bump();
                Ok(self.expr_node(t.line, ExprKind::Var(self.var_name(t))))
            }
            Tok::Dollar => {
                self.bump();
                if self.eat(Tok::LBrace) {
                    let e = self.expr()?;
                    self.expect(Tok::RBrace)?;
                    return Ok(self.var_var(t.line, e));
                }
                if !matches!(self.peek(), Tok::Variable | Tok::Dollar) {
                    return self.unexpected_expecting("variable or \"{\" or \"$\"");
                }
                let inner = self.simple_variable()?;
                Ok(self.expr_node(t.line, ExprKind::VarVar(inner)))
            }
            _ => self.unexpected_expecting("variable"),
        }
    }

    /// `(args)`.
    fn arg_list(&mut self) -> R<Args<'a>> {
        self.expect_q(Tok::LParen)?;
        if self.peek() == Tok::Ellipsis && self.peek_at(1) == Tok::RParen {
            self.bump();
            self.bump();
            return Ok(Args::FirstClassCallable);
        }
        let saved = std::mem::replace(&mut self.array_nesting, 0);
        let r = self.costed(1, |p| p.arg_list_inner());
        self.array_nesting = saved;
        r
    }

    fn arg_list_inner(&mut self) -> R<Args<'a>> {
        let mut list = self.vec();
        let mut named_seen = false;
        while self.peek() != Tok::RParen {
            let line = self.line();
            let t = self.tok();
            let needs_paren = (matches!(t.kind, Tok::Array | Tok::List | Tok::Isset | Tok::Empty | Tok::Eval)
                && self.peek_at(1) != Tok::LParen)
                || (t.kind == Tok::Static && !matches!(self.peek_at(1), Tok::Function | Tok::Fn | Tok::DoubleColon));
            if (!can_start_expr(t.kind) || needs_paren) && t.kind != Tok::Ellipsis {
                if t.kind.is_keyword() && self.peek_at(1) != Tok::Colon {
                    // Only a named argument can start with a reserved word.
                    self.bump();
                    return self.unexpected_expecting("\":\"");
                }
                if !(t.kind.is_keyword() || t.kind == Tok::Ident) {
                    return if list.is_empty() { self.unexpected() } else { self.unexpected_expecting("\")\"") };
                }
            }
            if self.eat(Tok::Ellipsis) {
                let value = self.expr_value()?;
                if named_seen {
                    self.defer("Cannot use argument unpacking after named arguments", line);
                }
                list.push(Arg { line, name: None, value, unpack: true });
            } else if (t.kind == Tok::Ident || t.kind.is_keyword()) && self.peek_at(1) == Tok::Colon {
                self.bump();
                self.bump();
                let value = self.expr_value()?;
                named_seen = true;
                list.push(Arg { line, name: Some(self.text(t)), value, unpack: false });
            } else {
                let value = self.expr()?;
                if named_seen {
                    self.defer("Cannot use positional argument after named argument", line);
                }
                list.push(Arg { line, name: None, value, unpack: false });
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect_x(Tok::RParen, "\")\"")?;
        Ok(Args::List(list.into_bump_slice()))
    }

    /// Returns (expr, dereferencable, is_variable, bare_name).
    fn primary(&mut self) -> R<(&'a Expr<'a>, bool, bool, bool)> {
        let t = self.tok();
        let line = t.line;
        let kind = match t.kind {
            Tok::Variable => {
                self.bump();
                return Ok((self.expr_node(line, ExprKind::Var(self.var_name(t))), true, true, false));
            }
            Tok::Dollar => {
                let e = self.simple_variable()?;
                return Ok((e, true, true, false));
            }
            Tok::Ident | Tok::NameQualified | Tok::NameFullyQualified | Tok::NameRelative => {
                self.bump();
                let name = self.make_name(t);
                if self.peek() == Tok::LParen {
                    let args = self.arg_list()?;
                    let e = self.expr_node(line, ExprKind::Call { callee: Callee::Name(name), args });
                    return Ok((e, true, true, false));
                }
                return Ok((self.expr_node(line, ExprKind::Const(name)), true, false, true));
            }
            // `readonly(…)`: a call of a function named readonly (zend_language_parser.y's
            // `T_READONLY argument_list`); the lexer leaves T_READONLY to the parser.
            Tok::Readonly if self.peek_at(1) == Tok::LParen => {
                self.bump();
                let name = Name { name: b"readonly", kind: NameKind::Unqualified };
                let args = self.arg_list()?;
                let e = self.expr_node(line, ExprKind::Call { callee: Callee::Name(name), args });
                return Ok((e, true, true, false));
            }
            Tok::Static if self.peek_at(1) == Tok::DoubleColon => {
                self.bump();
                let name = Name { name: b"static", kind: NameKind::Unqualified };
                return Ok((self.expr_node(line, ExprKind::Const(name)), true, false, true));
            }
            Tok::Static | Tok::Function | Tok::Fn => {
                let e = self.closure_with_attrs(&[])?;
                return Ok((e, false, false, false));
            }
            Tok::Attribute => {
                let attrs = self.attributes()?;
                let e = self.closure_with_attrs(attrs)?;
                return Ok((e, false, false, false));
            }
            Tok::LParen => {
                self.bump();
                let saved = std::mem::replace(&mut self.array_nesting, 0);
                let e = self.expr();
                self.array_nesting = saved;
                let e = e?;
                self.expect(Tok::RParen)?;
                return Ok((e, true, false, false));
            }
            Tok::LBracket => {
                self.bump();
                let e = self.array_literal(Tok::RBracket, line, true)?;
                return Ok((e, true, false, false));
            }
            Tok::Array if self.peek_at(1) == Tok::LParen => {
                self.bump();
                self.bump();
                let e = self.array_literal(Tok::RParen, line, false)?;
                self.array_keyword.insert(e as *const Expr as usize);
                return Ok((e, true, false, false));
            }
            Tok::Array | Tok::Isset | Tok::Empty | Tok::Eval if self.peek_at(1) != Tok::LParen => {
                self.bump();
                return self.unexpected_expecting("\"(\"");
            }
            Tok::List => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                self.array_nesting += 1;
                let items = self.array_items(Tok::RParen);
                self.array_nesting -= 1;
                let items = items?;
                let e = self.expr_node(line, ExprKind::List(items));
                self.list_keyword.insert(e as *const Expr as usize);
                return Ok((e, false, false, false));
            }
            Tok::LNumber => {
                self.bump();
                match parse_int_literal(self.text(t)) {
                    Some(v) => ExprKind::Int(v),
                    None => ExprKind::Float(parse_float_literal(self.text(t))),
                }
            }
            Tok::DNumber => {
                self.bump();
                ExprKind::Float(parse_float_literal(self.text(t)))
            }
            Tok::ConstString => {
                self.bump();
                let mut text = self.text(t);
                if matches!(text.first(), Some(b'b' | b'B')) {
                    text = &text[1..]; // b'...' / b"..."
                }
                let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or(b"");
                let s = if text.first() == Some(&b'\'') {
                    unescape_single(self.a, inner)
                } else {
                    match unescape_double(self.a, inner, Some(b'"'), line, &mut self.scan_warnings) {
                        Ok(s) => s,
                        Err(m) => return Err(self.err_at(m.to_string(), line)),
                    }
                };
                return Ok((self.expr_node(line, ExprKind::String(s)), true, false, false));
            }
            Tok::DoubleQuote => {
                self.bump();
                let parts = self.interpolated(Tok::DoubleQuote, Some(b'"'), 0)?;
                return Ok((self.expr_node(line, parts), true, false, false));
            }
            Tok::Backtick => {
                self.bump();
                let parts = self.interpolated(Tok::Backtick, Some(b'`'), 0)?;
                let kind = match parts {
                    ExprKind::Interpolated(p) => ExprKind::ShellExec(p),
                    ExprKind::String(s) => {
                        let p = self.a.alloc_slice_fill_iter(std::iter::once(StrPart::Literal(s)));
                        ExprKind::ShellExec(p)
                    }
                    k => k,
                };
                ExprKind::ShellExec(match kind {
                    ExprKind::ShellExec(p) => p,
                    _ => &[],
                })
            }
            Tok::StartHeredoc => {
                self.bump();
                self.heredoc(t)?
            }
            Tok::MagicLine => {
                self.bump();
                return Ok((self.expr_node(line, ExprKind::MagicConst(MagicConst::Line)), true, false, false));
            }
            Tok::MagicFile | Tok::MagicDir | Tok::MagicClass | Tok::MagicTrait | Tok::MagicMethod
            | Tok::MagicFunction | Tok::MagicNamespace => {
                self.bump();
                // A constant is `array_object_dereferenceable`: `__FILE__[0]`, `__DIR__->p`.
                let k = ExprKind::MagicConst(match t.kind {
                    Tok::MagicFile => MagicConst::File,
                    Tok::MagicDir => MagicConst::Dir,
                    Tok::MagicClass => MagicConst::Class,
                    Tok::MagicTrait => MagicConst::Trait,
                    Tok::MagicMethod => MagicConst::Method,
                    Tok::MagicFunction => MagicConst::Function,
                    _ => MagicConst::Namespace,
                });
                return Ok((self.expr_node(line, k), true, false, false));
            }
            Tok::Isset => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                let mut list = self.vec();
                loop {
                    if self.peek() == Tok::RParen && !list.is_empty() {
                        break;
                    }
                    let e = self.expr()?;
                    list.push(e);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect_x(Tok::RParen, "\")\"")?;
                ExprKind::Isset(list.into_bump_slice())
            }
            Tok::Empty => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                let e = self.expr_value()?;
                self.expect_q(Tok::RParen)?;
                ExprKind::Empty(e)
            }
            Tok::Eval => {
                self.bump();
                self.expect_q(Tok::LParen)?;
                let e = self.expr()?;
                self.expect_q(Tok::RParen)?;
                ExprKind::Eval(e)
            }
            Tok::Exit => {
                self.bump();
                let mut arg = None;
                if self.eat(Tok::LParen) {
                    if self.peek() != Tok::RParen {
                        arg = Some(self.expr()?);
                    }
                    self.expect_q(Tok::RParen)?;
                }
                ExprKind::Exit(arg)
            }
            Tok::Match => return Ok((self.match_expr()?, false, false, false)),
            Tok::New => {
                let e = self.new_expr()?;
                return Ok((e, false, false, false));
            }
            _ => return self.unexpected(),
        };
        Ok((self.expr_node(line, kind), false, false, false))
    }

    /// Items of `[...]` / `array(...)` / `list(...)` up to `close` (consumed).
    fn array_items(&mut self, close: Tok) -> R<&'a [Option<ArrayItem<'a>>]> {
        let saved = std::mem::replace(&mut self.array_close, close);
        let r = self.array_items_inner(close);
        self.array_close = saved;
        r
    }

    fn array_items_inner(&mut self, close: Tok) -> R<&'a [Option<ArrayItem<'a>>]> {
        let mut items = self.vec();
        loop {
            let k = self.peek();
            if k == close {
                break;
            }
            if k == Tok::Comma {
                self.bump();
                items.push(None);
                continue;
            }
            if !can_start_expr(k) && !matches!(k, Tok::Ellipsis | Tok::Amp) {
                let w = format!("\"{}\"", close.fixed_text());
                return self.unexpected_expecting(&w);
            }
            let item = if self.eat(Tok::Ellipsis) {
                ArrayItem { key: None, value: self.expr_value()?, by_ref: false, spread: true }
            } else if self.eat(Tok::Amp) {
                ArrayItem { key: None, value: self.ref_target()?, by_ref: true, spread: false }
            } else {
                self.list_item_ok = true;
                let v = self.expr()?;
                if self.eat(Tok::DoubleArrow) {
                    self.check_read(v);
                    if self.eat(Tok::Amp) {
                        ArrayItem { key: Some(v), value: self.ref_target()?, by_ref: true, spread: false }
                    } else {
                        self.list_item_ok = true;
                        ArrayItem { key: Some(v), value: self.expr()?, by_ref: false, spread: false }
                    }
                } else {
                    ArrayItem { key: None, value: v, by_ref: false, spread: false }
                }
            };
            items.push(Some(item));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let w = format!("\"{}\"", close.fixed_text());
        self.expect_x(close, &w)?;
        Ok(items.into_bump_slice())
    }

    fn ref_target(&mut self) -> R<&'a Expr<'a>> {
        let (e, is_var) = self.postfix_expr()?;
        if !is_var && !matches!(e.kind, ExprKind::List(_) | ExprKind::Array(_)) {
            return self.unexpected();
        }
        Ok(e)
    }

    fn array_literal(&mut self, close: Tok, line: u32, short: bool) -> R<&'a Expr<'a>> {
        let list_ok = std::mem::take(&mut self.list_ok);
        self.array_nesting += 1;
        let items = self.array_items(close);
        self.array_nesting -= 1;
        let items = items?;
        let has_empty = items.iter().any(|i| i.is_none());
        let list_ctx = short && (self.array_nesting > 0 || self.peek() == Tok::Eq || list_ok);
        if !list_ctx {
            if let Some(msg) = self.value_array_error(items) {
                self.defer(msg, line);
            }
        }
        if has_empty {
            return Ok(self.expr_node(line, ExprKind::List(items)));
        }
        let mut out = self.vec();
        for it in items.iter().flatten() {
            out.push(ArrayItem { key: it.key, value: it.value, by_ref: it.by_ref, spread: it.spread });
        }
        Ok(self.expr_node(line, ExprKind::Array(out.into_bump_slice())))
    }

    /// The error zend_compile_array raises for an array literal used as a value
    /// (its nested literals were parsed as possible patterns, unchecked).
    fn value_array_error(&self, items: &[Option<ArrayItem<'a>>]) -> Option<&'static str> {
        for it in items {
            let Some(it) = it else { return Some("Cannot use empty array elements in arrays") };
            match it.value.kind {
                ExprKind::List(_) if self.is_keyword_list(it.value) => {
                    return Some("Cannot use list() as standalone expression")
                }
                ExprKind::List(inner) => {
                    if let Some(m) = self.value_array_error(inner) {
                        return Some(m);
                    }
                }
                ExprKind::Array(inner) => {
                    for i in inner {
                        if let ExprKind::List(_) | ExprKind::Array(_) = i.value.kind {
                            let one = [Some(ArrayItem { key: None, value: i.value, by_ref: false, spread: false })];
                            if let Some(m) = self.value_array_error(&one) {
                                return Some(m);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn is_keyword_list(&self, e: &Expr<'a>) -> bool {
        !self.list_keyword.is_empty() && self.list_keyword.contains(&(e as *const Expr as usize))
    }

    fn is_keyword_array(&self, e: &Expr<'a>) -> bool {
        !self.array_keyword.is_empty() && self.array_keyword.contains(&(e as *const Expr as usize))
    }

    fn closure_with_attrs(&mut self, attrs: &'a [Attribute<'a>]) -> R<&'a Expr<'a>> {
        let line = self.line();
        let is_static = self.eat(Tok::Static);
        match self.peek() {
            Tok::Function => {
                self.bump();
                let by_ref = self.eat(Tok::Amp);
                let f = self.function_rest(line, b"", by_ref, attrs, is_static, true)?;
                Ok(self.expr_node(line, ExprKind::Closure(f)))
            }
            Tok::Fn => {
                self.bump();
                let by_ref = self.eat(Tok::Amp);
                let params = self.params(line)?;
                let return_type = if self.eat(Tok::Colon) { Some(self.parse_type()?) } else { None };
                self.expect_x(Tok::DoubleArrow, "\"=>\"")?;
                let saved = std::mem::take(&mut self.loops);
                self.functions += 1;
                let outer_gen = std::mem::replace(&mut self.generator, false);
                let body = self.costed(9, |p| p.expr_bp(0));
                let is_generator = std::mem::replace(&mut self.generator, outer_gen);
                self.functions -= 1;
                self.loops = saved;
                let body = body?;
                let end_line = self.toks.get(self.pos.saturating_sub(1)).map(|t| t.line).unwrap_or(line);
                let ret = Stmt { line: body.line, kind: StmtKind::Return(Some(body)) };
                let f = self.alloc(Function {
                    line,
                    end_line,
                    name: b"",
                    params,
                    by_ref,
                    return_type,
                    body: Some(self.a.alloc_slice_fill_iter(std::iter::once(ret))),
                    uses: &[],
                    is_static,
                    is_generator,
                    attributes: attrs,
                    doc_comment: None,
                });
                Ok(self.expr_node(line, ExprKind::ArrowFn(f)))
            }
            _ if is_static && attrs.is_empty() => self.unexpected_expecting("\"::\""),
            _ if is_static => self.unexpected_expecting("\"function\" or \"fn\""),
            _ if !attrs.is_empty() => self.unexpected_expecting("\"function\" or \"fn\" or \"static\" or \"#[\""),
            _ => self.unexpected(),
        }
    }

    fn match_expr(&mut self) -> R<&'a Expr<'a>> {
        let line = self.bump().line;
        self.expect_q(Tok::LParen)?;
        let subject = self.expr()?;
        self.expect_q(Tok::RParen)?;
        self.expect_q(Tok::LBrace)?;
        let mut arms = self.vec();
        let mut has_default = false;
        while self.peek() != Tok::RBrace {
            let l = self.line();
            if !can_start_expr(self.peek()) && self.peek() != Tok::Default {
                return self.unexpected_expecting("\"}\"");
            }
            let conds = if self.peek() == Tok::Default {
                self.bump();
                self.eat(Tok::Comma);
                if has_default {
                    self.defer("Match expressions may only contain one default arm", l);
                }
                has_default = true;
                None
            } else {
                let mut list = self.vec();
                loop {
                    let e = self.expr_value()?;
                    list.push(e);
                    if !self.eat(Tok::Comma) || self.peek() == Tok::DoubleArrow {
                        break;
                    }
                    if !can_start_expr(self.peek()) {
                        return self.unexpected_expecting("\"=>\"");
                    }
                }
                Some(list.into_bump_slice())
            };
            self.expect_x(Tok::DoubleArrow, "\"=>\"")?;
            let body = self.costed(7, |p| p.expr_value())?;
            arms.push(MatchArm { line: l, conds: conds.map(|c| &*c), body });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect_q(Tok::RBrace)?;
        Ok(self.expr_node(line, ExprKind::Match { subject, arms: arms.into_bump_slice() }))
    }

    fn new_expr(&mut self) -> R<&'a Expr<'a>> {
        let line = self.bump().line;
        if matches!(self.peek(), Tok::Class | Tok::Attribute) {
            let attrs = self.attributes()?;
            let cl = self.line();
            self.expect_q(Tok::Class)?;
            let args = if self.peek() == Tok::LParen { self.new_args(line)? } else { &[] };
            let decl = self.class_rest(cl, ClassKind::Class, None, Modifiers(0), attrs)?;
            return Ok(self.expr_node(line, ExprKind::New { class: ClassRef::Anonymous(decl), args }));
        }
        let class = self.class_ref()?;
        let args = if self.peek() == Tok::LParen { self.new_args(line)? } else { &[] };
        Ok(self.expr_node(line, ExprKind::New { class, args }))
    }

    fn new_args(&mut self, line: u32) -> R<&'a [Arg<'a>]> {
        match self.costed(1, |p| p.arg_list())? {
            Args::List(a) => Ok(a),
            Args::FirstClassCallable => self.fatal("Cannot create Closure for new expression", line),
        }
    }

    /// The class operand of `new` / `instanceof`: a name, `static`, `(expr)`, or a
    /// variable with `[..]`, `->p`, `::$p` (but no calls).
    fn class_ref(&mut self) -> R<ClassRef<'a>> {
        let t = self.tok();
        match t.kind {
            Tok::Ident | Tok::NameQualified | Tok::NameFullyQualified | Tok::NameRelative | Tok::Static => {
                self.bump();
                let name = if t.kind == Tok::Static {
                    Name { name: b"static", kind: NameKind::Unqualified }
                } else {
                    self.make_name(t)
                };
                if self.peek() != Tok::DoubleColon {
                    return Ok(ClassRef::Name(name));
                }
                // `new A::$p`: the class named by a static property (new_variable).
                self.bump();
                let prop = match self.peek() {
                    Tok::Variable => {
                        let v = self.bump();
                        MemberName::Ident(self.var_name(v))
                    }
                    Tok::Dollar => {
                        self.bump();
                        MemberName::Expr(self.simple_variable()?)
                    }
                    _ => return self.unexpected_expecting("variable or \"$\""),
                };
                let e = self.expr_node(t.line, ExprKind::StaticProp { class: ClassRef::Name(name), name: prop });
                self.class_ref_tail(e)
            }
            Tok::LParen => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RParen)?;
                Ok(ClassRef::Expr(e))
            }
            Tok::Variable | Tok::Dollar => {
                let e = self.simple_variable()?;
                self.class_ref_tail(e)
            }
            _ => self.unexpected(),
        }
    }

    /// `[..]`, `->p`, `::$p` after the variable part of a `new`/`instanceof` class.
    fn class_ref_tail(&mut self, mut e: &'a Expr<'a>) -> R<ClassRef<'a>> {
        {
            {
                loop {
                    let line = e.line;
                    match self.peek() {
                        Tok::LBracket => {
                            self.bump();
                            let dim = if self.peek() == Tok::RBracket { None } else { Some(self.expr()?) };
                            self.expect_x(Tok::RBracket, "\"]\"")?;
                            e = self.expr_node(line, ExprKind::Index { base: e, dim });
                        }
                        Tok::ObjectOp | Tok::NullsafeObjectOp => {
                            let nullsafe = self.bump().kind == Tok::NullsafeObjectOp;
                            let name = self.member_name()?;
                            e = self.expr_node(line, ExprKind::Prop { obj: e, name, nullsafe });
                        }
                        Tok::DoubleColon if matches!(self.peek_at(1), Tok::Variable | Tok::Dollar) => {
                            self.bump();
                            let name = if self.peek() == Tok::Variable {
                                let v = self.bump();
                                MemberName::Ident(self.var_name(v))
                            } else {
                                self.bump();
                                MemberName::Expr(self.simple_variable()?)
                            };
                            e = self.expr_node(line, ExprKind::StaticProp { class: ClassRef::Expr(e), name });
                        }
                        _ => break,
                    }
                }
                Ok(ClassRef::Expr(e))
            }
        }
    }

    // ------------------------------------------------------------------
    // Strings

    /// Parts of `"..."` / `` `...` `` / heredoc up to `end` (consumed).
    /// `indent`: heredoc closing indentation to strip from literal lines.
    fn interpolated(&mut self, end: Tok, quote: Option<u8>, indent: usize) -> R<ExprKind<'a>> {
        let mut raw: BVec<'a, RawPart<'a>> = self.vec();
        loop {
            let t = self.tok();
            match t.kind {
                k if k == end => {
                    self.bump();
                    break;
                }
                Tok::EncapsedAndWhitespace => {
                    self.bump();
                    raw.push(RawPart::Lit(self.text(t), t.line));
                }
                Tok::Variable => {
                    self.bump();
                    let var = self.expr_node(t.line, ExprKind::Var(self.var_name(t)));
                    let e = match self.peek() {
                        Tok::LBracket => {
                            self.bump();
                            let k = self.tok();
                            let dim = match k.kind {
                                Tok::NumString => {
                                    self.bump();
                                    self.num_string_key(self.text(k), false, k.line)
                                }
                                Tok::Minus if self.peek_at(1) == Tok::NumString => {
                                    self.bump();
                                    let n = self.bump();
                                    self.num_string_key(self.text(n), true, k.line)
                                }
                                Tok::Ident => {
                                    self.bump();
                                    self.expr_node(k.line, ExprKind::String(self.text(k)))
                                }
                                Tok::Variable => {
                                    self.bump();
                                    self.expr_node(k.line, ExprKind::Var(self.var_name(k)))
                                }
                                _ => return self.unexpected_expecting("\"-\" or identifier or variable or number"),
                            };
                            self.expect_x(Tok::RBracket, "\"]\"")?;
                            self.expr_node(t.line, ExprKind::Index { base: var, dim: Some(dim) })
                        }
                        Tok::ObjectOp | Tok::NullsafeObjectOp => {
                            let nullsafe = self.bump().kind == Tok::NullsafeObjectOp;
                            let p = self.expect(Tok::Ident)?;
                            self.expr_node(
                                t.line,
                                ExprKind::Prop { obj: var, name: MemberName::Ident(self.text(p)), nullsafe },
                            )
                        }
                        _ => var,
                    };
                    raw.push(RawPart::Expr(e));
                }
                Tok::CurlyOpen => {
                    // `{$` variable `}`: a variable, with its `[..]`, `->`, `::$`, calls.
                    self.bump();
                    let (e, is_var) = self.costed(1, |p| p.postfix_expr())?;
                    if !is_var || self.peek() != Tok::RBrace {
                        return self.unexpected_expecting("\"->\" or \"?->\" or \"{\" or \"[\"");
                    }
                    self.bump();
                    raw.push(RawPart::Expr(e));
                }
                Tok::DollarOpenCurlyBraces => {
                    self.bump();
                    let msg = if self.peek() == Tok::StringVarname {
                        "Using ${var} in strings is deprecated, use {$var} instead"
                    } else {
                        "Using ${expr} (variable variables) in strings is deprecated, use {${expr}} instead"
                    };
                    self.compile_warning(DiagnosticKind::Deprecated, msg.to_string(), t.line);
                    let e = if self.peek() == Tok::StringVarname {
                        let n = self.bump();
                        let var = self.expr_node(n.line, ExprKind::Var(self.text(n)));
                        if self.eat(Tok::LBracket) {
                            let d = self.expr()?;
                            self.expect_x(Tok::RBracket, "\"]\"")?;
                            self.expr_node(n.line, ExprKind::Index { base: var, dim: Some(d) })
                        } else {
                            var
                        }
                    } else {
                        let inner = self.expr()?;
                        self.var_var(t.line, inner)
                    };
                    self.expect(Tok::RBrace)?;
                    raw.push(RawPart::Expr(e));
                }
                _ => {
                    let expecting = if end == Tok::EndHeredoc {
                        "variable or heredoc end or \"${\" or \"{$\""
                    } else {
                        "variable or \"${\" or \"{$\""
                    };
                    if t.kind == Tok::Eof {
                        // After an interpolated part, bison has too many choices to list.
                        if raw.iter().any(|p| matches!(p, RawPart::Expr(_))) {
                            return if end == Tok::Backtick { self.unexpected_expecting("\"`\"") } else { self.unexpected() };
                        }
                        return self.unexpected_expecting(expecting);
                    }
                    return self.unexpected();
                }
            }
        }
        // Dedent (heredoc) and unescape the literal parts.
        let mut parts = self.vec();
        let mut at_line_start = true;
        let n = raw.len();
        for (i, p) in raw.iter().enumerate() {
            match *p {
                RawPart::Lit(text, line) => {
                    let dedented: &[u8] = if indent > 0 {
                        match dedent(self.a, text, indent, at_line_start, i + 1 == n) {
                            Ok(d) => d,
                            Err((msg, lines)) => return Err(self.err_at(msg, line + lines)),
                        }
                    } else {
                        text
                    };
                    at_line_start = text.last() == Some(&b'\n');
                    let s = if quote == Some(b'\'') {
                        dedented
                    } else {
                        match unescape_double(self.a, dedented, quote, line, &mut self.scan_warnings) {
                            Ok(s) => s,
                            Err(m) => return Err(self.err_at(m.to_string(), line)),
                        }
                    };
                    if !s.is_empty() {
                        parts.push(StrPart::Literal(s));
                    }
                }
                RawPart::Expr(e) => {
                    if at_line_start && indent > 0 {
                        return Err(self.err_at(
                            format!("Invalid body indentation level (expecting an indentation level of at least {})", indent),
                            e.line,
                        ));
                    }
                    at_line_start = false;
                    parts.push(StrPart::Expr(e));
                }
            }
        }
        let all_literal = parts.iter().all(|p| matches!(p, StrPart::Literal(_)));
        if all_literal {
            let mut s = self.vec();
            for p in parts.iter() {
                if let StrPart::Literal(l) = p {
                    s.extend_from_slice(l);
                }
            }
            return Ok(ExprKind::String(s.into_bump_slice()));
        }
        Ok(ExprKind::Interpolated(parts.into_bump_slice()))
    }

    fn num_string_key(&self, text: &'a [u8], negative: bool, line: u32) -> &'a Expr<'a> {
        // A canonical decimal integer becomes an int key; anything else stays a string.
        let canonical = !text.is_empty()
            && text.iter().all(|c| c.is_ascii_digit())
            && (text.len() == 1 || text[0] != b'0')
            && !(negative && text == b"0");
        if canonical {
            let v = std::str::from_utf8(text).ok().and_then(|s| s.parse::<i64>().ok());
            if let Some(v) = v {
                return self.expr_node(line, ExprKind::Int(if negative { -v } else { v }));
            }
            if negative && text == b"9223372036854775808" {
                return self.expr_node(line, ExprKind::Int(i64::MIN));
            }
        }
        let s = if negative {
            let mut v = self.vec();
            v.push(b'-');
            v.extend_from_slice(text);
            v.into_bump_slice()
        } else {
            text
        };
        self.expr_node(line, ExprKind::String(s))
    }

    fn heredoc(&mut self, start: Token) -> R<ExprKind<'a>> {
        let nowdoc = self.text(start).contains(&b'\'');
        // The closing label's indentation is the whitespace before it.
        let mut indent = 0usize;
        let mut i = self.pos;
        while let Some(t) = self.toks.get(i) {
            if t.kind == Tok::EndHeredoc {
                let text = self.text(*t);
                indent = text.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
                let ws = &text[..indent];
                if ws.contains(&b' ') && ws.contains(&b'\t') {
                    // PHP's scanner finds it while looking ahead from the heredoc's first line.
                    return Err(self.err_at("Invalid indentation - tabs and spaces cannot be mixed".to_string(), start.line + 1));
                }
                break;
            }
            if matches!(t.kind, Tok::Eof | Tok::Error) {
                break;
            }
            i += 1;
        }
        let quote = if nowdoc { Some(b'\'') } else { None };
        self.interpolated(Tok::EndHeredoc, quote, indent)
    }
}

enum RawPart<'a> {
    Lit(&'a [u8], u32),
    Expr(&'a Expr<'a>),
}

trait PushType<'a> {
    fn push_type(&mut self, t: &'a Type<'a>);
}

impl<'a> PushType<'a> for BVec<'a, Type<'a>> {
    fn push_type(&mut self, t: &'a Type<'a>) {
        self.push(copy_type(t));
    }
}

fn copy_type<'a>(t: &'a Type<'a>) -> Type<'a> {
    match t {
        Type::Named(n) => Type::Named(*n),
        Type::Nullable(i) => Type::Nullable(i),
        Type::Union(l) => Type::Union(l),
        Type::Intersection(l) => Type::Intersection(l),
    }
}

/// Remove heredoc closing indentation from a raw literal part.
/// `at_line_start`: the part begins a line. `last`: the part ends the body.
/// An error gives the message and how many lines into `text` it is.
fn dedent<'a>(a: &'a Bump, text: &[u8], indent: usize, at_line_start: bool, last: bool) -> Result<&'a [u8], (String, u32)> {
    let _ = last;
    let mut out = BVec::with_capacity_in(text.len(), a);
    let mut i = 0;
    let mut line_start = at_line_start;
    while i < text.len() {
        if line_start {
            let mut n = 0;
            while n < indent && i < text.len() && (text[i] == b' ' || text[i] == b'\t') {
                i += 1;
                n += 1;
            }
            line_start = false;
            if n < indent {
                // Only an empty line may be less indented.
                match text.get(i) {
                    Some(b'\n') | Some(b'\r') => {}
                    _ => {
                        return Err((
                            format!(
                                "Invalid body indentation level (expecting an indentation level of at least {})",
                                indent
                            ),
                            text[..i].iter().filter(|&&c| c == b'\n').count() as u32,
                        ))
                    }
                }
            }
            continue;
        }
        let c = text[i];
        out.push(c);
        if c == b'\n' {
            line_start = true;
        }
        i += 1;
    }
    Ok(out.into_bump_slice())
}

/// `'...'` contents: only `\'` and `\\` are escapes.
fn unescape_single<'a>(a: &'a Bump, s: &'a [u8]) -> &'a [u8] {
    if !s.contains(&b'\\') {
        return s;
    }
    let mut out = BVec::with_capacity_in(s.len(), a);
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && (s.get(i + 1) == Some(&b'\'') || s.get(i + 1) == Some(&b'\\')) {
            out.push(s[i + 1]);
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out.into_bump_slice()
}

/// Double-quoted / heredoc / backtick escapes. `quote` is the delimiter that
/// `\` may escape (`"` or `` ` ``), `None` in heredocs.
/// `line` is the line `s` starts on; octal escapes above `\377` add a scanner
/// warning to `warnings`.
pub(crate) fn unescape_double<'a>(
    a: &'a Bump,
    s: &'a [u8],
    quote: Option<u8>,
    line: u32,
    warnings: &mut Vec<Diagnostic>,
) -> Result<&'a [u8], &'static str> {
    if !s.contains(&b'\\') {
        return Ok(s);
    }
    let mut out = BVec::with_capacity_in(s.len(), a);
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c != b'\\' || i + 1 >= s.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let n = s[i + 1];
        i += 2;
        match n {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'v' => out.push(0x0b),
            b'e' => out.push(0x1b),
            b'f' => out.push(0x0c),
            b'\\' => out.push(b'\\'),
            b'$' => out.push(b'$'),
            b'0'..=b'7' => {
                let start = i - 1;
                let mut v: u32 = (n - b'0') as u32;
                let mut k = 0;
                while k < 2 && i < s.len() && (b'0'..=b'7').contains(&s[i]) {
                    v = v * 8 + (s[i] - b'0') as u32;
                    i += 1;
                    k += 1;
                }
                if v > 0o377 {
                    let at = line + s[..start].iter().filter(|&&c| c == b'\n').count() as u32;
                    warnings.push(Diagnostic {
                        kind: DiagnosticKind::Warning,
                        message: format!(
                            "Octal escape sequence overflow \\{} is greater than \\377",
                            String::from_utf8_lossy(&s[start..i])
                        ),
                        line: at,
                    });
                }
                out.push(v as u8);
            }
            b'x' if i < s.len() && s[i].is_ascii_hexdigit() => {
                let mut v: u32 = 0;
                let mut k = 0;
                while k < 2 && i < s.len() && s[i].is_ascii_hexdigit() {
                    v = v * 16 + (s[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    k += 1;
                }
                out.push(v as u8);
            }
            b'u' if s.get(i) == Some(&b'{') => {
                let start = i + 1;
                let mut j = start;
                while j < s.len() && s[j].is_ascii_hexdigit() {
                    j += 1;
                }
                if j == start || s.get(j) != Some(&b'}') {
                    return Err("Invalid UTF-8 codepoint escape sequence");
                }
                let mut cp: u64 = 0;
                for &d in &s[start..j] {
                    cp = cp.saturating_mul(16).saturating_add((d as char).to_digit(16).unwrap_or(0) as u64);
                }
                if cp > 0x10FFFF {
                    return Err("Invalid UTF-8 codepoint escape sequence: Codepoint too large");
                }
                let cp = cp as u32;
                // Encode as UTF-8 (surrogates included, as PHP does).
                if cp < 0x80 {
                    out.push(cp as u8);
                } else if cp < 0x800 {
                    out.push(0xC0 | (cp >> 6) as u8);
                    out.push(0x80 | (cp & 0x3F) as u8);
                } else if cp < 0x10000 {
                    out.push(0xE0 | (cp >> 12) as u8);
                    out.push(0x80 | ((cp >> 6) & 0x3F) as u8);
                    out.push(0x80 | (cp & 0x3F) as u8);
                } else {
                    out.push(0xF0 | (cp >> 18) as u8);
                    out.push(0x80 | ((cp >> 12) & 0x3F) as u8);
                    out.push(0x80 | ((cp >> 6) & 0x3F) as u8);
                    out.push(0x80 | (cp & 0x3F) as u8);
                }
                i = j + 1;
            }
            _ if Some(n) == quote => out.push(n),
            _ => {
                out.push(b'\\');
                out.push(n);
            }
        }
    }
    Ok(out.into_bump_slice())
}

#[cfg(test)]
mod tests {
    //! Every PHP 8.2 construct parses into the AST it should (checked on the
    //! S-expression dump, `ast::dump_stmts`), and bad input gives PHP's error.

    use super::*;

    /// The dump of a `<?php`-prefixed snippet, one top-level statement a line.
    fn sx(code: &str) -> String {
        let src = format!("<?php {code}");
        let arena = Bump::new();
        match parse_program(&arena, src.as_bytes()) {
            Ok(p) => dump_stmts(p.stmts),
            Err(e) => panic!("{code}: {e}"),
        }
    }

    fn err(code: &str) -> String {
        let src = format!("<?php {code}");
        let arena = Bump::new();
        match parse_program(&arena, src.as_bytes()) {
            Ok(p) => panic!("{code}: parsed as {}", dump_stmts(p.stmts)),
            Err(e) => e.to_string(),
        }
    }

    fn has(code: &str, parts: &[&str]) {
        let d = sx(code);
        for p in parts {
            assert!(d.contains(p), "{code}\n  dump: {d}\n  missing: {p}");
        }
    }

    #[test]
    fn namespaces_and_grouped_use() {
        has(
            "namespace A\\B; use C\\{D, E as F, function g, const H}; use function a\\b as c; use const X\\Y;",
            &["(namespace A\\B {(use C\\D C\\E as F function C\\g const C\\H) (use function a\\b as c) (use const X\\Y)})"],
        );
        has("namespace A { echo 1; } namespace { echo 2; }", &["(namespace A braced {(echo 1)})", "(namespace <global> braced {(echo 2)})"]);
        has("echo \\A\\f(), namespace\\g(), A\\B::C;", &["(call \\A\\f ())", "(call namespace\\g ())", "(cconst A\\B C)"]);
    }

    #[test]
    fn class_like_declarations_with_every_modifier() {
        has(
            "#[Attr(1, name: 2)] final readonly class C extends P implements I, J { use T1, T2 { T1::m insteadof T2; m as protected n; } \
             final public const X = 1; protected static ?int $p = null; var $v; public readonly int $r; \
             public function __construct(private readonly int $x = 0) {} \
             abstract protected function &f(A&B $a, (X&Y)|null $b, int ...$rest): static; }",
            &[
                "#[Attr(1 name: 2)]",
                "final readonly class C extends P implements I J",
                "use T1 T2",
                "(const public final X = 1)",
                "protected static ?int $p = null",
                "var $v",
                "public readonly int $r",
                "__construct(private readonly int $x = 0)",
                "protected abstract &f((A&B) $a, ((X&Y)|null) $b, int ...$rest): static;",
            ],
        );
        has("abstract class A {} final class B {}", &["abstract class A", "final class B"]);
        has("interface I extends J, K { public function f(): void; }", &["(interface I implements J K { (method public f(): void;) })"]);
        has("trait T { abstract public function g(): never; }", &["(trait T { (method public abstract g(): never;) })"]);
        has(
            "enum E: string implements I { case A = 'a'; const B = self::A; public static function f(): self { return self::A; } }",
            &["(enum E: string implements I {", "(case A = \"a\")", "(const B = (cconst self A))", "(method public static f(): self"],
        );
        has("enum Status { case Active; case Inactive; }", &["(case Active)", "(case Inactive)"]);
    }

    #[test]
    fn attributes_everywhere() {
        has(
            "#[A] #[B(1), C] function f(#[P] $x) {} $c = #[D] fn() => 1; $o = new #[E] class {};",
            &["#[A] #[B(1)] #[C] f(#[P] $x)", "#[D] (", "#[E]"],
        );
    }

    #[test]
    fn type_syntax() {
        has(
            "function f(?int $a, int|string|null $b, A&B $c, (A&B)|C $d, null $e, false $f, true $g, mixed $h, iterable $i, callable $j, array $k, object $l, self $m, \\N\\C $n): never {}",
            &["?int $a", "(int|string|null) $b", "(A&B) $c", "((A&B)|C) $d", "null $e", "false $f", "true $g", "callable $j", "array $k", "\\N\\C $n", "): never"],
        );
    }

    #[test]
    fn closures_arrow_fns_and_first_class_callables() {
        has("$f = function ($a, &$b) use ($c, &$d): ?int { return 1; };", &["(closure ($a, &$b) use($c, &$d): ?int {(return 1)})"]);
        has("$g = static fn&(int $x): int => $x * 2;", &["(fn static &(int $x): int {(return (* $x 2))})"]);
        has("$s = static function () {};", &["(closure static ()"]);
        has("$h = strlen(...); $i = $o->m(...); $j = A::m(...); $k = $f(...);", &["(call strlen (...))", "(mcall $o m (...))", "(scall A m (...))", "(call $f (...))"]);
    }

    #[test]
    fn named_args_unpacking_variadics_and_references() {
        has("f(1, a: 2, b: $c); g(...$x, ...$y); new A(...$args);", &["(call f (1 a: 2 b: $c))", "(call g (...$x ...$y))", "(new A (...$args))"]);
        has("function &r(array &$a, &...$v) { return $a; }", &["(function &r(array &$a, &...$v) {(return $a)})"]);
        has("$a = &$b; $c = &f(); $d = &$o->p;", &["(=& $a $b)", "(=& $c (call f ()))", "(=& $d (-> $o p))"]);
        assert_eq!(err("f(a: 1, ...$rest);"), "Fatal error: Cannot use argument unpacking after named arguments on line 1");
        assert_eq!(err("f(a: 1, 2);"), "Fatal error: Cannot use positional argument after named argument on line 1");
    }

    #[test]
    fn match_and_switch() {
        has("$r = match ($x) { 1, 2 => 'a', default => 'b', };", &["(match $x (1, 2 => \"a\") (default => \"b\"))"]);
        has("switch ($x) { case 1: echo 1; break; default: echo 2; }", &["(switch $x (case 1 {(echo 1) (break 1)}) (default {(echo 2)}))"]);
        has("switch ($x): case 1; endswitch;", &["(switch $x (case 1 {}))"]);
    }

    #[test]
    fn alternative_syntax() {
        has("if ($a): echo 1; elseif ($b): echo 2; else: echo 3; endif;", &["(if $a {(echo 1)} (elseif $b {(echo 2)}) (else {(echo 3)}))"]);
        let d = sx("foreach ($a as $k => &$v): endforeach; while (0): endwhile; for (;;): endfor; declare(ticks=1): enddeclare;");
        assert_eq!(d, "(foreach $a $k => &$v {})\n(while 0 {})\n(for () () () {})\n(declare ticks=1 {})");
    }

    #[test]
    fn goto_and_labels() {
        assert_eq!(sx("goto L; L: echo 1;"), "(goto L)\n(label L)\n(echo 1)");
    }

    #[test]
    fn destructuring_with_keys_refs_and_nesting() {
        has("[$a, [$b, $c]] = $x;", &["(= (list $a (list $b $c)) $x)"]);
        has("['k' => &$r, 'j' => [, $z]] = $y;", &["(= (list \"k\" => &$r \"j\" => (list _ $z)) $y)"]);
        has("list($p, list(, $q)) = $w;", &["(= (list $p (list _ $q)) $w)"]);
        has("list('k' => list($l1, $l2)) = $w;", &["(= (list \"k\" => (list $l1 $l2)) $w)"]);
        has("foreach ($a as ['j' => $x, 'k' => $y]) {}", &["(foreach $a (list \"j\" => $x \"k\" => $y) {})"]);
        assert_eq!(err("[list($a)] = $b;"), "Fatal error: Cannot mix [] and list() on line 1");
        assert_eq!(err("['a' => $x, $y] = $a;"), "Fatal error: Cannot mix keyed and unkeyed array entries in assignments on line 1");
        assert_eq!(err("$x = [1, , 2];"), "Fatal error: Cannot use empty array elements in arrays on line 1");
    }

    #[test]
    fn global_static_unset_isset_empty() {
        has("function f() { global $g, $$h; static $s = 1, $t; }", &["(global $g $($h))", "(static $s = 1 $t)"]);
        assert_eq!(sx("unset($a['x'], $b->c); isset($a, $b['c']); empty($x);"), "(unset (idx $a \"x\") (-> $b c))\n(isset $a (idx $b \"c\"))\n(empty $x)");
    }

    #[test]
    fn eval_include_exit() {
        assert_eq!(
            sx("eval('1;'); include 'a.php'; include_once 'b'; require 'c'; require_once 'd'; exit(1); die; exit;"),
            "(eval \"1;\")\n(include \"a.php\")\n(includeonce \"b\")\n(require \"c\")\n(requireonce \"d\")\n(exit 1)\n(exit)\n(exit)"
        );
    }

    #[test]
    fn clone_new_anonymous_classes_instanceof() {
        has("$c = clone $o;", &["(= $c (clone $o))"]);
        has("$n = new class(1) extends B implements I { public $p; };", &["(new (class extends B implements I", "(1))"]);
        has("$n = new $cls; $m = new (f()); $s = new static;", &["(new $cls ())", "(new (call f ()) ())", "(new static ())"]);
        has("$n = new A::$p; $m = new $o->c['k'](1);", &["(new (sprop A $p) ())", "(new (idx (-> $o c) \"k\") (1))"]);
        has("$b = $o instanceof A; $c = !$o instanceof $d;", &["(instanceof $o A)", "(! (instanceof $o $d))"]);
    }

    #[test]
    fn nullsafe_class_constant_and_dynamic_members() {
        has("$n = $o?->p?->m();", &["(mcall? (?-> $o p) m ())"]);
        has("$c = A::class; $d = $o::class; $e = static::X;", &["(cconst A class)", "(cconst $o class)", "(cconst static X)"]);
        assert_eq!(
            sx("$o->$p; $o->{'x'}; A::$$s; A::$t; $$v; ${'a' . 'b'}; $o->$m(); A::{'f'}();"),
            "(-> $o {$p})\n(-> $o {\"x\"})\n(sprop A ${$s})\n(sprop A $t)\n$($v)\n$ab\n(mcall $o {$m} ())\n(scall A {\"f\"} ())"
        );
    }

    #[test]
    fn generators() {
        has(
            "function gen() { yield; yield 1; yield 'k' => 'v'; $x = yield; yield from g(); }",
            &["(yield) (yield 1) (yield \"k\" => \"v\") (= $x (yield)) (yield-from (call g ()))"],
        );
    }

    #[test]
    fn throw_print_backticks() {
        assert_eq!(
            sx("$x = $a ?? throw new E(); print 'x'; $s = `ls $dir`;"),
            "(= $x (?? $a (throw (new E ()))))\n(print \"x\")\n(= $s (shell \"ls \" $dir))"
        );
    }

    #[test]
    fn halt_compiler_stops_parsing() {
        let src = b"<?php echo 1; __halt_compiler(); raw } { data";
        let arena = Bump::new();
        let p = parse_program(&arena, src).unwrap();
        assert_eq!(dump_stmts(p.stmts), "(echo 1)\n(halt_compiler)");
        assert_eq!(p.halt_offset, Some(32));
    }

    #[test]
    fn heredoc_and_nowdoc() {
        has("echo <<<EOT\n  a $b {$c->d}\n   e\n  EOT;", &["(echo (interp \"a \" $b \" \" (-> $c d) \"\\n e\"))"]);
        has("echo <<<'EOT'\nraw $x\\n\nEOT;", &["(echo \"raw $x\\\\n\")"]);
        has("echo <<<\"EOT\"\nq\nEOT;", &["(echo \"q\")"]);
    }

    #[test]
    fn numeric_literals() {
        has(
            "$n = [0x1F, 0b101, 0o17, 017, 1_000, 1.5e3, .5, 1., 9223372036854775807, 9223372036854775808, 0x8000000000000000];",
            &["(array 31 5 15 15 1000 1500.0 0.5 1.0 9223372036854775807 9.223372036854776e18 9.223372036854776e18)"],
        );
    }

    #[test]
    fn string_escapes_and_interpolation() {
        has(
            r#"$s = "\n\t\v\e\f\r\\\x41\101\u{1F600}\$\"\q";"#,
            &["\"\\n\\t\\u{b}\\u{1b}\\u{c}\\r\\\\AA😀$\\\"\\\\q\""],
        );
        has("$s = 'a\\'b\\\\c\\n';", &["\"a'b\\\\c\\\\n\""]);
        has("$s = b'x' . B\"y\\n\" . b\"$z\";", &["(. (. \"x\" \"y\\n\") (interp $z))"]);
        has(
            r#"$s = "$a[0] $a[k] $a[$i] $a[-1] $a->b $a?->c {$a['x']} {$o->m()} ${a} ${a['k']} ${e . 'x'}";"#,
            &["(idx $a 0)", "(idx $a \"k\")", "(idx $a $i)", "(idx $a -1)", "(-> $a b)", "(?-> $a c)", "(idx $a \"x\")", "(mcall $o m ())", " $a ", "$((. e \"x\"))"],
        );
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(dump_stmts(&[]), "");
        has("$v = 1 + 2 * 3 ** 2 ** 2;", &["(+ 1 (* 2 (** 3 (** 2 2))))"]);
        has("$v = !$a instanceof B && $c || $d and $e;", &["(&& (= $v (|| (&& (! (instanceof $a B)) $c) $d)) $e)"]);
        has("$v = $a ?? $b ?? $c;", &["(?? $a (?? $b $c))"]);
        has("$v = -$a ** 2;", &["(neg (** $a 2))"]);
        has("$v = $a = $b += 3;", &["(= $v (= $a (+= $b 3)))"]);
        has("$v = (int) $a . 'x';", &["(. (cast-int $a) \"x\")"]);
        assert!(err("$v = $a == $b == $c;").starts_with("Parse error: syntax error, unexpected token \"==\""));
        assert!(err("$v = 1 ? 2 : 3 ? 4 : 5;").contains("Unparenthesized `a ? b : c ? d : e` is not supported"));
    }

    #[test]
    fn deep_nesting_is_memory_exhausted_not_a_crash() {
        let deep = format!("echo {}1{};", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(err(&deep), "Parse error: memory exhausted on line 1");
    }

    #[test]
    fn compile_warnings_are_collected_in_order() {
        let src = b"<?php\n$a = \"\\400 ${b}\";\nfunction f($x = 1, $y) {}\nwhile (1) { switch (1) { case 1: continue; } }\n";
        let arena = Bump::new();
        let mut diags = Vec::new();
        parse_program_with_diagnostics(&arena, src, &mut diags).unwrap();
        let got: Vec<String> = diags.iter().map(|d| format!("{}: {} @{}", d.kind.label(), d.message, d.line)).collect();
        assert_eq!(
            got,
            [
                "Warning: Octal escape sequence overflow \\400 is greater than \\377 @2",
                "Deprecated: Using ${var} in strings is deprecated, use {$var} instead @2",
                "Deprecated: Optional parameter $x declared before required parameter $y is implicitly treated as a required parameter @3",
                "Warning: \"continue\" targeting switch is equivalent to \"break\". Did you mean to use \"continue 2\"? @4",
            ]
        );
    }
}
