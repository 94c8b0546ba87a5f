//! The typed AST, allocated in a `bumpalo::Bump` arena (`'a`).
//!
//! Conventions:
//! - every `Stmt` and `Expr` carries `line`: the line of its first token;
//! - names, identifiers and string literals are bytes (`&'a [u8]`): PHP strings
//!   are not UTF-8. String literals are already unescaped. Variable names are
//!   stored without the `$`;
//! - children are arena references (`&'a Expr<'a>`) and arena slices
//!   (`&'a [Stmt<'a>]`);
//! - names are kept as written (`Name`); resolving them against the current
//!   namespace and `use` imports is the compiler's job, as in Zend;
//! - `self`, `parent` and `static` in class positions are plain `Name`s
//!   (`static` spelled in lowercase).

/// A parsed file.
#[derive(Debug)]
pub struct Program<'a> {
    pub stmts: &'a [Stmt<'a>],
    /// Byte offset just after `__halt_compiler();` (for `__COMPILER_HALT_OFFSET__`).
    pub halt_offset: Option<u32>,
    /// An upper bound on how deep the tree is (statements and expressions,
    /// left-nested chains included): the recursion depth a pass over it needs.
    pub nesting: u32,
}

/// How a name was written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NameKind {
    /// `Foo`
    Unqualified,
    /// `Foo\Bar`
    Qualified,
    /// `\Foo\Bar` (the leading `\` is not part of `Name::name`)
    FullyQualified,
    /// `namespace\Foo` (the `namespace\` prefix is not part of `Name::name`)
    Relative,
}

/// A class, function or constant name as written in the source.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Name<'a> {
    pub name: &'a [u8],
    pub kind: NameKind,
}

/// A statement.
#[derive(Debug)]
pub struct Stmt<'a> {
    pub line: u32,
    pub kind: StmtKind<'a>,
}

#[derive(Debug)]
pub enum StmtKind<'a> {
    /// `expr;`
    Expr(&'a Expr<'a>),
    /// `echo a, b;` and `<?= a, b ?>`
    Echo(&'a [&'a Expr<'a>]),
    /// Text outside `<?php ... ?>`.
    InlineHtml(&'a [u8]),
    /// `if` with its `elseif` / `else if` chain flattened. Alternative syntax
    /// (`if: ... endif;`) gives the same node.
    If {
        cond: &'a Expr<'a>,
        then: &'a [Stmt<'a>],
        elseifs: &'a [ElseIf<'a>],
        else_: Option<&'a [Stmt<'a>]>,
    },
    While { cond: &'a Expr<'a>, body: &'a [Stmt<'a>] },
    DoWhile { body: &'a [Stmt<'a>], cond: &'a Expr<'a> },
    /// `for (init; cond; step)`: each part is a comma list (the value of `cond` is its last element).
    For {
        init: &'a [&'a Expr<'a>],
        cond: &'a [&'a Expr<'a>],
        step: &'a [&'a Expr<'a>],
        body: &'a [Stmt<'a>],
    },
    /// `foreach (subject as key => value)`; `value` is a variable, `&$v`
    /// (`by_ref`) or a `List` destructuring pattern.
    Foreach {
        subject: &'a Expr<'a>,
        key: Option<&'a Expr<'a>>,
        value: &'a Expr<'a>,
        by_ref: bool,
        body: &'a [Stmt<'a>],
    },
    Switch { subject: &'a Expr<'a>, cases: &'a [Case<'a>] },
    /// `break N;` (N ≥ 1, default 1).
    Break(u32),
    /// `continue N;`
    Continue(u32),
    Return(Option<&'a Expr<'a>>),
    /// `global $a, $$b;`: each is a `Var` or `VarVar`.
    Global(&'a [&'a Expr<'a>]),
    /// `static $a = 1, $b;` in a function.
    Static(&'a [StaticVar<'a>]),
    /// `unset($a, $b[1]);`
    Unset(&'a [&'a Expr<'a>]),
    Function(&'a Function<'a>),
    Class(&'a ClassDecl<'a>),
    /// `const A = 1, B = 2;` at top level / in a namespace.
    Const(&'a [ConstItem<'a>]),
    /// `declare(strict_types=1);` (`body: None`), `declare(ticks=1) { ... }` or
    /// `declare(...): ... enddeclare;` (`body: Some`).
    Declare { directives: &'a [(&'a [u8], &'a Expr<'a>)], body: Option<&'a [Stmt<'a>]> },
    /// `{ ... }`
    Block(&'a [Stmt<'a>]),
    /// `;` or `?>` alone.
    Nop,
    /// `namespace A\B;` (`braced: false`: `body` holds the statements up to the
    /// next namespace declaration or the end of file) or `namespace A\B { ... }`.
    /// `name` is `None` for the global namespace `namespace { ... }`.
    Namespace { name: Option<&'a [u8]>, body: &'a [Stmt<'a>], braced: bool },
    /// `use A\B as C, D;`, `use function ...`, `use const ...`, `use A\{B, function c}`.
    /// Group uses are flattened: each item has its full name and own kind.
    Use(&'a [UseItem<'a>]),
    Try {
        body: &'a [Stmt<'a>],
        catches: &'a [Catch<'a>],
        finally: Option<&'a [Stmt<'a>]>,
    },
    Goto(&'a [u8]),
    Label(&'a [u8]),
    /// `__halt_compiler();`: compilation stops here.
    HaltCompiler,
}

#[derive(Debug)]
pub struct ElseIf<'a> {
    pub line: u32,
    pub cond: &'a Expr<'a>,
    pub body: &'a [Stmt<'a>],
}

/// `case expr:` or `default:` (`test: None`).
#[derive(Debug)]
pub struct Case<'a> {
    pub line: u32,
    pub test: Option<&'a Expr<'a>>,
    pub body: &'a [Stmt<'a>],
}

#[derive(Debug)]
pub struct StaticVar<'a> {
    pub name: &'a [u8],
    pub default: Option<&'a Expr<'a>>,
}

/// `NAME = value` in `const` statements and class constants.
#[derive(Debug)]
pub struct ConstItem<'a> {
    pub line: u32,
    pub name: &'a [u8],
    pub value: &'a Expr<'a>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UseKind {
    /// `use A\B;` (classes, interfaces, namespaces)
    Normal,
    Function,
    Const,
}

#[derive(Debug)]
pub struct UseItem<'a> {
    pub line: u32,
    pub kind: UseKind,
    /// Full name without a leading `\`.
    pub name: &'a [u8],
    pub alias: Option<&'a [u8]>,
}

/// `catch (A | B $e) { ... }`; `var` is `None` for `catch (A) { ... }`.
#[derive(Debug)]
pub struct Catch<'a> {
    pub line: u32,
    pub types: &'a [Name<'a>],
    pub var: Option<&'a [u8]>,
    pub body: &'a [Stmt<'a>],
}

/// An attribute `#[Name(args)]`; groups `#[A, B]` are flattened.
#[derive(Debug)]
pub struct Attribute<'a> {
    pub line: u32,
    pub name: Name<'a>,
    pub args: &'a [Arg<'a>],
}

/// A type declaration.
#[derive(Debug)]
pub enum Type<'a> {
    /// A class name or a builtin type name as written (`int`, `string`, `self`,
    /// `static`, `mixed`, `never`, `void`, `null`, `false`, `true`, `array`,
    /// `callable`, `iterable`, `object`...). `static` and `array`/`callable`
    /// (keywords) are given as unqualified names.
    Named(Name<'a>),
    /// `?T`
    Nullable(&'a Type<'a>),
    /// `A|B|(C&D)`
    Union(&'a [Type<'a>]),
    /// `A&B`
    Intersection(&'a [Type<'a>]),
}

/// Modifier flags of class members, promoted parameters and classes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Modifiers(pub u16);

impl Modifiers {
    pub const PUBLIC: u16 = 1;
    pub const PROTECTED: u16 = 2;
    pub const PRIVATE: u16 = 4;
    pub const STATIC: u16 = 8;
    pub const ABSTRACT: u16 = 16;
    pub const FINAL: u16 = 32;
    pub const READONLY: u16 = 64;
    /// `var $x;`
    pub const VAR: u16 = 128;
    pub const VISIBILITY: u16 = Self::PUBLIC | Self::PROTECTED | Self::PRIVATE;

    pub fn has(self, flag: u16) -> bool {
        self.0 & flag != 0
    }
}

/// A function parameter.
#[derive(Debug)]
pub struct Param<'a> {
    pub line: u32,
    pub name: &'a [u8],
    pub ty: Option<&'a Type<'a>>,
    pub default: Option<&'a Expr<'a>>,
    pub by_ref: bool,
    pub variadic: bool,
    /// Constructor promotion: visibility / readonly; empty if not promoted.
    pub promote: Modifiers,
    pub attributes: &'a [Attribute<'a>],
}

/// `use ($a, &$b)` of a closure.
#[derive(Debug)]
pub struct ClosureUse<'a> {
    pub name: &'a [u8],
    pub by_ref: bool,
}

/// A function, method, closure or arrow function.
#[derive(Debug)]
pub struct Function<'a> {
    pub line: u32,
    /// Line of the closing `}` (or of the arrow function's last token).
    pub end_line: u32,
    /// Empty for closures and arrow functions.
    pub name: &'a [u8],
    pub params: &'a [Param<'a>],
    /// `function &f()`
    pub by_ref: bool,
    pub return_type: Option<&'a Type<'a>>,
    /// `None` for abstract and interface methods. For an arrow function, a single
    /// `Return` statement holding its expression.
    pub body: Option<&'a [Stmt<'a>]>,
    /// Closures only.
    pub uses: &'a [ClosureUse<'a>],
    /// `static function` / `static fn` closures.
    pub is_static: bool,
    /// The body contains `yield` (not counting nested functions).
    pub is_generator: bool,
    pub attributes: &'a [Attribute<'a>],
    /// Doc comment `/** ... */` just before the declaration.
    pub doc_comment: Option<&'a [u8]>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClassKind {
    Class,
    Interface,
    Trait,
    Enum,
}

/// A class, interface, trait, enum or anonymous class.
#[derive(Debug)]
pub struct ClassDecl<'a> {
    pub line: u32,
    pub end_line: u32,
    pub kind: ClassKind,
    /// `None` for anonymous classes.
    pub name: Option<&'a [u8]>,
    /// `abstract`, `final`, `readonly`.
    pub modifiers: Modifiers,
    /// `extends` of a class.
    pub extends: Option<Name<'a>>,
    /// `implements` of a class or enum; `extends` of an interface.
    pub implements: &'a [Name<'a>],
    /// `enum E: string` backing type.
    pub enum_backing: Option<&'a Type<'a>>,
    pub members: &'a [ClassMember<'a>],
    pub attributes: &'a [Attribute<'a>],
    pub doc_comment: Option<&'a [u8]>,
}

#[derive(Debug)]
pub enum ClassMember<'a> {
    /// `public int $a = 1, $b;`
    Property {
        line: u32,
        modifiers: Modifiers,
        ty: Option<&'a Type<'a>>,
        props: &'a [PropertyItem<'a>],
        attributes: &'a [Attribute<'a>],
        doc_comment: Option<&'a [u8]>,
    },
    /// `final public const A = 1, B = 2;`
    Const {
        line: u32,
        modifiers: Modifiers,
        consts: &'a [ConstItem<'a>],
        attributes: &'a [Attribute<'a>],
        doc_comment: Option<&'a [u8]>,
    },
    Method { modifiers: Modifiers, func: &'a Function<'a> },
    /// `use A, B { A::x insteadof B; B::x as protected y; }`
    TraitUse { line: u32, traits: &'a [Name<'a>], adaptations: &'a [TraitAdaptation<'a>] },
    /// `case A = 'a';` in an enum.
    EnumCase { line: u32, name: &'a [u8], value: Option<&'a Expr<'a>>, attributes: &'a [Attribute<'a>] },
}

#[derive(Debug)]
pub struct PropertyItem<'a> {
    pub name: &'a [u8],
    pub default: Option<&'a Expr<'a>>,
}

#[derive(Debug)]
pub enum TraitAdaptation<'a> {
    /// `T::m insteadof A, B;`
    Insteadof { trait_: Name<'a>, method: &'a [u8], instead_of: &'a [Name<'a>] },
    /// `[T::]m as [visibility] [alias];`
    Alias {
        trait_: Option<Name<'a>>,
        method: &'a [u8],
        modifiers: Modifiers,
        alias: Option<&'a [u8]>,
    },
}

/// An expression.
#[derive(Debug)]
pub struct Expr<'a> {
    pub line: u32,
    pub kind: ExprKind<'a>,
}

#[derive(Debug)]
pub enum ExprKind<'a> {
    Int(i64),
    Float(f64),
    /// A string literal without interpolation, unescaped.
    String(&'a [u8]),
    /// `"a $b {$c->d}"` or a heredoc: literal parts (unescaped) and expressions.
    Interpolated(&'a [StrPart<'a>]),
    /// `` `cmd $x` ``
    ShellExec(&'a [StrPart<'a>]),
    /// `$name` (without the `$`). `$this` is `Var(b"this")`.
    Var(&'a [u8]),
    /// `$$a`, `${expr}`
    VarVar(&'a Expr<'a>),
    /// `[1, 'k' => 2, ...$x, &$r]` / `array(...)`.
    Array(&'a [ArrayItem<'a>]),
    /// A destructuring target `list(...)` / `[...]`; `None` items are skipped (`[, $b]`).
    List(&'a [Option<ArrayItem<'a>>]),
    /// `base[dim]`; `dim: None` is `base[]` (write context only).
    Index { base: &'a Expr<'a>, dim: Option<&'a Expr<'a>> },
    /// `obj->name` / `obj?->name`
    Prop { obj: &'a Expr<'a>, name: MemberName<'a>, nullsafe: bool },
    /// `A::$p`, `A::$$p`
    StaticProp { class: ClassRef<'a>, name: MemberName<'a> },
    /// `A::C`, `$o::C`, `A::class`
    ClassConst { class: ClassRef<'a>, name: &'a [u8] },
    /// A constant `FOO`, `\A\FOO`; also `true`, `false`, `null` (any case, as written).
    Const(Name<'a>),
    MagicConst(MagicConst),
    /// `f(args)`, `$f(args)`, `(expr)(args)`
    Call { callee: Callee<'a>, args: Args<'a> },
    /// `obj->name(args)`, `obj?->name(args)`
    MethodCall { obj: &'a Expr<'a>, name: MemberName<'a>, args: Args<'a>, nullsafe: bool },
    /// `A::m(args)`, `$c::m()`, `static::m()`, `A::$f()`
    StaticCall { class: ClassRef<'a>, name: MemberName<'a>, args: Args<'a> },
    /// `new A(args)`, `new $c`, `new (expr)`, `new class(args) {...}`.
    /// `args` is empty when there are no parentheses.
    New { class: ClassRef<'a>, args: &'a [Arg<'a>] },
    Clone(&'a Expr<'a>),
    /// `target = value`; the target may be a `List`.
    Assign { target: &'a Expr<'a>, value: &'a Expr<'a> },
    /// `target = &value`
    AssignRef { target: &'a Expr<'a>, value: &'a Expr<'a> },
    /// `target op= value` (`op` is never a logical or coalesce operator).
    AssignOp { op: BinaryOp, target: &'a Expr<'a>, value: &'a Expr<'a> },
    /// `target ??= value`
    AssignCoalesce { target: &'a Expr<'a>, value: &'a Expr<'a> },
    PreInc(&'a Expr<'a>),
    PreDec(&'a Expr<'a>),
    PostInc(&'a Expr<'a>),
    PostDec(&'a Expr<'a>),
    /// Arithmetic, bitwise, comparison, concatenation and logical operators.
    Binary { op: BinaryOp, left: &'a Expr<'a>, right: &'a Expr<'a> },
    Unary { op: UnaryOp, expr: &'a Expr<'a> },
    Cast { kind: CastKind, expr: &'a Expr<'a> },
    /// `@expr`
    Silence(&'a Expr<'a>),
    /// `cond ? then : else_`; `then: None` for `cond ?: else_`.
    Ternary { cond: &'a Expr<'a>, then: Option<&'a Expr<'a>>, else_: &'a Expr<'a> },
    /// `left ?? right`
    Coalesce { left: &'a Expr<'a>, right: &'a Expr<'a> },
    /// `expr instanceof Class` / `expr instanceof $c`
    Instanceof { expr: &'a Expr<'a>, class: ClassRef<'a> },
    Isset(&'a [&'a Expr<'a>]),
    Empty(&'a Expr<'a>),
    /// `exit`, `exit(expr)`, `die(...)`.
    Exit(Option<&'a Expr<'a>>),
    Print(&'a Expr<'a>),
    Include { kind: IncludeKind, expr: &'a Expr<'a> },
    Eval(&'a Expr<'a>),
    /// `function (...) use (...) {...}` (see `Function::uses`, `is_static`).
    Closure(&'a Function<'a>),
    /// `fn (...) => expr` (body: a single `Return`).
    ArrowFn(&'a Function<'a>),
    Match { subject: &'a Expr<'a>, arms: &'a [MatchArm<'a>] },
    Throw(&'a Expr<'a>),
    /// `yield`, `yield v`, `yield k => v`
    Yield { key: Option<&'a Expr<'a>>, value: Option<&'a Expr<'a>> },
    YieldFrom(&'a Expr<'a>),
}

/// A piece of an interpolated string.
#[derive(Debug)]
pub enum StrPart<'a> {
    Literal(&'a [u8]),
    Expr(&'a Expr<'a>),
}

/// An element of an array literal or destructuring pattern.
#[derive(Debug)]
pub struct ArrayItem<'a> {
    pub key: Option<&'a Expr<'a>>,
    pub value: &'a Expr<'a>,
    /// `&$v`
    pub by_ref: bool,
    /// `...$v`
    pub spread: bool,
}

/// A property or method name after `->`, `?->` or `::`.
#[derive(Debug, Clone, Copy)]
pub enum MemberName<'a> {
    /// `->name`, `::name`, `::$name` (for static properties, without the `$`)
    Ident(&'a [u8]),
    /// `->$p`, `->{expr}`, `::$$p`, `::{expr}`
    Expr(&'a Expr<'a>),
}

/// The class part of `new`, `instanceof`, `::`.
#[derive(Debug, Clone, Copy)]
pub enum ClassRef<'a> {
    /// `A`, `\A\B`, `self`, `parent`, `static`.
    Name(Name<'a>),
    /// `$c`, `$o->cls`, `(expr)`, `"A"` ...
    Expr(&'a Expr<'a>),
    /// `new class { ... }`
    Anonymous(&'a ClassDecl<'a>),
}

#[derive(Debug, Clone, Copy)]
pub enum Callee<'a> {
    Name(Name<'a>),
    Expr(&'a Expr<'a>),
}

/// Arguments of a call.
#[derive(Debug, Clone, Copy)]
pub enum Args<'a> {
    List(&'a [Arg<'a>]),
    /// `f(...)`: first-class callable syntax.
    FirstClassCallable,
}

#[derive(Debug)]
pub struct Arg<'a> {
    pub line: u32,
    /// `name: value`
    pub name: Option<&'a [u8]>,
    pub value: &'a Expr<'a>,
    /// `...$args`
    pub unpack: bool,
}

#[derive(Debug)]
pub struct MatchArm<'a> {
    pub line: u32,
    /// `None` for `default`.
    pub conds: Option<&'a [&'a Expr<'a>]>,
    pub body: &'a Expr<'a>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Concat,
    ShiftLeft,
    ShiftRight,
    BitAnd,
    BitOr,
    BitXor,
    /// `&&` and `and`
    BoolAnd,
    /// `||` and `or`
    BoolOr,
    /// `xor`
    BoolXor,
    Equal,
    NotEqual,
    Identical,
    NotIdentical,
    Smaller,
    SmallerOrEqual,
    Greater,
    GreaterOrEqual,
    Spaceship,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CastKind {
    Int,
    Float,
    String,
    Bool,
    Array,
    Object,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MagicConst {
    Line,
    File,
    Dir,
    Class,
    Trait,
    Method,
    Function,
    Namespace,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IncludeKind {
    Include,
    IncludeOnce,
    Require,
    RequireOnce,
}

impl BinaryOp {
    /// The operator as written (`and`/`or` print as `&&`/`||`).
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+", Sub => "-", Mul => "*", Div => "/", Mod => "%", Pow => "**",
            Concat => ".", ShiftLeft => "<<", ShiftRight => ">>", BitAnd => "&", BitOr => "|",
            BitXor => "^", BoolAnd => "&&", BoolOr => "||", BoolXor => "xor", Equal => "==",
            NotEqual => "!=", Identical => "===", NotIdentical => "!==", Smaller => "<",
            SmallerOrEqual => "<=", Greater => ">", GreaterOrEqual => ">=", Spaceship => "<=>",
        }
    }
}

// ----------------------------------------------------------------------
// S-expression dump, for tests and debugging: `(assign $a (+ 1 2))`.

/// Print statements as S-expressions, one top-level statement per line.
pub fn dump_stmts(stmts: &[Stmt<'_>]) -> String {
    let mut out = String::new();
    for (i, s) in stmts.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        dump_stmt(&mut out, s);
    }
    out
}

/// Print one expression as an S-expression.
pub fn dump_expr(e: &Expr<'_>) -> String {
    let mut out = String::new();
    expr_sx(&mut out, e);
    out
}

fn bstr(out: &mut String, b: &[u8]) {
    out.push_str(&String::from_utf8_lossy(b));
}

fn qstr(out: &mut String, b: &[u8]) {
    out.push_str(&format!("{:?}", String::from_utf8_lossy(b)));
}

fn name_sx(out: &mut String, n: &Name<'_>) {
    match n.kind {
        NameKind::FullyQualified => out.push('\\'),
        NameKind::Relative => out.push_str("namespace\\"),
        _ => {}
    }
    bstr(out, n.name);
}

fn block_sx(out: &mut String, stmts: &[Stmt<'_>]) {
    out.push('{');
    for (i, s) in stmts.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        dump_stmt(out, s);
    }
    out.push('}');
}

fn exprs_sx(out: &mut String, es: &[&Expr<'_>]) {
    for e in es {
        out.push(' ');
        expr_sx(out, e);
    }
}

fn type_sx(out: &mut String, t: &Type<'_>) {
    match t {
        Type::Named(n) => name_sx(out, n),
        Type::Nullable(t) => {
            out.push('?');
            type_sx(out, t);
        }
        Type::Union(ts) | Type::Intersection(ts) => {
            let sep = if matches!(t, Type::Union(_)) { "|" } else { "&" };
            out.push('(');
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                type_sx(out, t);
            }
            out.push(')');
        }
    }
}

fn mods_sx(out: &mut String, m: Modifiers) {
    for (f, w) in [
        (Modifiers::PUBLIC, "public"),
        (Modifiers::PROTECTED, "protected"),
        (Modifiers::PRIVATE, "private"),
        (Modifiers::STATIC, "static"),
        (Modifiers::ABSTRACT, "abstract"),
        (Modifiers::FINAL, "final"),
        (Modifiers::READONLY, "readonly"),
        (Modifiers::VAR, "var"),
    ] {
        if m.has(f) {
            out.push_str(w);
            out.push(' ');
        }
    }
}

fn attrs_sx(out: &mut String, attrs: &[Attribute<'_>]) {
    for a in attrs {
        out.push_str("#[");
        name_sx(out, &a.name);
        if !a.args.is_empty() {
            args_sx(out, &Args::List(a.args));
        }
        out.push_str("] ");
    }
}

fn func_sx(out: &mut String, f: &Function<'_>) {
    attrs_sx(out, f.attributes);
    if f.is_static {
        out.push_str("static ");
    }
    if f.by_ref {
        out.push('&');
    }
    bstr(out, f.name);
    out.push('(');
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        attrs_sx(out, p.attributes);
        mods_sx(out, p.promote);
        if let Some(t) = p.ty {
            type_sx(out, t);
            out.push(' ');
        }
        if p.by_ref {
            out.push('&');
        }
        if p.variadic {
            out.push_str("...");
        }
        out.push('$');
        bstr(out, p.name);
        if let Some(d) = p.default {
            out.push_str(" = ");
            expr_sx(out, d);
        }
    }
    out.push(')');
    if !f.uses.is_empty() {
        out.push_str(" use(");
        for (i, u) in f.uses.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if u.by_ref {
                out.push('&');
            }
            out.push('$');
            bstr(out, u.name);
        }
        out.push(')');
    }
    if let Some(t) = f.return_type {
        out.push_str(": ");
        type_sx(out, t);
    }
    match f.body {
        Some(b) => {
            out.push(' ');
            block_sx(out, b);
        }
        None => out.push(';'),
    }
}

fn class_sx(out: &mut String, c: &ClassDecl<'_>) {
    attrs_sx(out, c.attributes);
    mods_sx(out, c.modifiers);
    out.push_str(match c.kind {
        ClassKind::Class => "class",
        ClassKind::Interface => "interface",
        ClassKind::Trait => "trait",
        ClassKind::Enum => "enum",
    });
    if let Some(n) = c.name {
        out.push(' ');
        bstr(out, n);
    }
    if let Some(t) = c.enum_backing {
        out.push_str(": ");
        type_sx(out, t);
    }
    if let Some(e) = &c.extends {
        out.push_str(" extends ");
        name_sx(out, e);
    }
    if !c.implements.is_empty() {
        out.push_str(" implements");
        for n in c.implements {
            out.push(' ');
            name_sx(out, n);
        }
    }
    out.push_str(" {");
    for m in c.members {
        out.push(' ');
        match m {
            ClassMember::Property { modifiers, ty, props, attributes, .. } => {
                out.push_str("(prop ");
                attrs_sx(out, attributes);
                mods_sx(out, *modifiers);
                if let Some(t) = ty {
                    type_sx(out, t);
                    out.push(' ');
                }
                for (i, p) in props.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push('$');
                    bstr(out, p.name);
                    if let Some(d) = p.default {
                        out.push_str(" = ");
                        expr_sx(out, d);
                    }
                }
                out.push(')');
            }
            ClassMember::Const { modifiers, consts, attributes, .. } => {
                out.push_str("(const ");
                attrs_sx(out, attributes);
                mods_sx(out, *modifiers);
                for (i, c) in consts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    bstr(out, c.name);
                    out.push_str(" = ");
                    expr_sx(out, c.value);
                }
                out.push(')');
            }
            ClassMember::Method { modifiers, func } => {
                out.push_str("(method ");
                mods_sx(out, *modifiers);
                func_sx(out, func);
                out.push(')');
            }
            ClassMember::TraitUse { traits, adaptations, .. } => {
                out.push_str("(use");
                for t in *traits {
                    out.push(' ');
                    name_sx(out, t);
                }
                for a in *adaptations {
                    match a {
                        TraitAdaptation::Insteadof { trait_, method, instead_of } => {
                            out.push_str(" (");
                            name_sx(out, trait_);
                            out.push_str("::");
                            bstr(out, method);
                            out.push_str(" insteadof");
                            for n in *instead_of {
                                out.push(' ');
                                name_sx(out, n);
                            }
                            out.push(')');
                        }
                        TraitAdaptation::Alias { trait_, method, modifiers, alias } => {
                            out.push_str(" (");
                            if let Some(t) = trait_ {
                                name_sx(out, t);
                                out.push_str("::");
                            }
                            bstr(out, method);
                            out.push_str(" as ");
                            mods_sx(out, *modifiers);
                            if let Some(a) = alias {
                                bstr(out, a);
                            }
                            out.push(')');
                        }
                    }
                }
                out.push(')');
            }
            ClassMember::EnumCase { name, value, attributes, .. } => {
                out.push_str("(case ");
                attrs_sx(out, attributes);
                bstr(out, name);
                if let Some(v) = value {
                    out.push_str(" = ");
                    expr_sx(out, v);
                }
                out.push(')');
            }
        }
    }
    out.push_str(" }");
}

fn dump_stmt(out: &mut String, s: &Stmt<'_>) {
    match &s.kind {
        StmtKind::Expr(e) => expr_sx(out, e),
        StmtKind::Echo(es) => {
            out.push_str("(echo");
            exprs_sx(out, es);
            out.push(')');
        }
        StmtKind::InlineHtml(t) => {
            out.push_str("(html ");
            qstr(out, t);
            out.push(')');
        }
        StmtKind::If { cond, then, elseifs, else_ } => {
            out.push_str("(if ");
            expr_sx(out, cond);
            out.push(' ');
            block_sx(out, then);
            for ei in *elseifs {
                out.push_str(" (elseif ");
                expr_sx(out, ei.cond);
                out.push(' ');
                block_sx(out, ei.body);
                out.push(')');
            }
            if let Some(b) = else_ {
                out.push_str(" (else ");
                block_sx(out, b);
                out.push(')');
            }
            out.push(')');
        }
        StmtKind::While { cond, body } => {
            out.push_str("(while ");
            expr_sx(out, cond);
            out.push(' ');
            block_sx(out, body);
            out.push(')');
        }
        StmtKind::DoWhile { body, cond } => {
            out.push_str("(do ");
            block_sx(out, body);
            out.push(' ');
            expr_sx(out, cond);
            out.push(')');
        }
        StmtKind::For { init, cond, step, body } => {
            out.push_str("(for (");
            exprs_sx(out, init);
            out.push_str(") (");
            exprs_sx(out, cond);
            out.push_str(") (");
            exprs_sx(out, step);
            out.push_str(") ");
            block_sx(out, body);
            out.push(')');
        }
        StmtKind::Foreach { subject, key, value, by_ref, body } => {
            out.push_str("(foreach ");
            expr_sx(out, subject);
            if let Some(k) = key {
                out.push(' ');
                expr_sx(out, k);
                out.push_str(" =>");
            }
            out.push(' ');
            if *by_ref {
                out.push('&');
            }
            expr_sx(out, value);
            out.push(' ');
            block_sx(out, body);
            out.push(')');
        }
        StmtKind::Switch { subject, cases } => {
            out.push_str("(switch ");
            expr_sx(out, subject);
            for c in *cases {
                match c.test {
                    Some(t) => {
                        out.push_str(" (case ");
                        expr_sx(out, t);
                    }
                    None => out.push_str(" (default"),
                }
                out.push(' ');
                block_sx(out, c.body);
                out.push(')');
            }
            out.push(')');
        }
        StmtKind::Break(n) => out.push_str(&format!("(break {})", n)),
        StmtKind::Continue(n) => out.push_str(&format!("(continue {})", n)),
        StmtKind::Return(e) => {
            out.push_str("(return");
            if let Some(e) = e {
                out.push(' ');
                expr_sx(out, e);
            }
            out.push(')');
        }
        StmtKind::Global(es) => {
            out.push_str("(global");
            exprs_sx(out, es);
            out.push(')');
        }
        StmtKind::Static(vars) => {
            out.push_str("(static");
            for v in *vars {
                out.push_str(" $");
                bstr(out, v.name);
                if let Some(d) = v.default {
                    out.push_str(" = ");
                    expr_sx(out, d);
                }
            }
            out.push(')');
        }
        StmtKind::Unset(es) => {
            out.push_str("(unset");
            exprs_sx(out, es);
            out.push(')');
        }
        StmtKind::Function(f) => {
            out.push_str("(function ");
            func_sx(out, f);
            out.push(')');
        }
        StmtKind::Class(c) => {
            out.push('(');
            class_sx(out, c);
            out.push(')');
        }
        StmtKind::Const(items) => {
            out.push_str("(const");
            for c in *items {
                out.push(' ');
                bstr(out, c.name);
                out.push_str(" = ");
                expr_sx(out, c.value);
            }
            out.push(')');
        }
        StmtKind::Declare { directives, body } => {
            out.push_str("(declare");
            for (n, v) in *directives {
                out.push(' ');
                bstr(out, n);
                out.push('=');
                expr_sx(out, v);
            }
            if let Some(b) = body {
                out.push(' ');
                block_sx(out, b);
            }
            out.push(')');
        }
        StmtKind::Block(b) => block_sx(out, b),
        StmtKind::Nop => out.push_str("(nop)"),
        StmtKind::Namespace { name, body, braced } => {
            out.push_str("(namespace ");
            match name {
                Some(n) => bstr(out, n),
                None => out.push_str("<global>"),
            }
            if *braced {
                out.push_str(" braced");
            }
            out.push(' ');
            block_sx(out, body);
            out.push(')');
        }
        StmtKind::Use(items) => {
            out.push_str("(use");
            for u in *items {
                out.push(' ');
                match u.kind {
                    UseKind::Function => out.push_str("function "),
                    UseKind::Const => out.push_str("const "),
                    UseKind::Normal => {}
                }
                bstr(out, u.name);
                if let Some(a) = u.alias {
                    out.push_str(" as ");
                    bstr(out, a);
                }
            }
            out.push(')');
        }
        StmtKind::Try { body, catches, finally } => {
            out.push_str("(try ");
            block_sx(out, body);
            for c in *catches {
                out.push_str(" (catch ");
                for (i, t) in c.types.iter().enumerate() {
                    if i > 0 {
                        out.push('|');
                    }
                    name_sx(out, t);
                }
                if let Some(v) = c.var {
                    out.push_str(" $");
                    bstr(out, v);
                }
                out.push(' ');
                block_sx(out, c.body);
                out.push(')');
            }
            if let Some(f) = finally {
                out.push_str(" (finally ");
                block_sx(out, f);
                out.push(')');
            }
            out.push(')');
        }
        StmtKind::Goto(l) => {
            out.push_str("(goto ");
            bstr(out, l);
            out.push(')');
        }
        StmtKind::Label(l) => {
            out.push_str("(label ");
            bstr(out, l);
            out.push(')');
        }
        StmtKind::HaltCompiler => out.push_str("(halt_compiler)"),
    }
}

fn member_sx(out: &mut String, m: &MemberName<'_>) {
    match m {
        MemberName::Ident(n) => bstr(out, n),
        MemberName::Expr(e) => {
            out.push('{');
            expr_sx(out, e);
            out.push('}');
        }
    }
}

fn class_ref_sx(out: &mut String, c: &ClassRef<'_>) {
    match c {
        ClassRef::Name(n) => name_sx(out, n),
        ClassRef::Expr(e) => expr_sx(out, e),
        ClassRef::Anonymous(d) => {
            out.push('(');
            class_sx(out, d);
            out.push(')');
        }
    }
}

fn args_sx(out: &mut String, a: &Args<'_>) {
    match a {
        Args::FirstClassCallable => out.push_str("(...)"),
        Args::List(args) => {
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                if let Some(n) = a.name {
                    bstr(out, n);
                    out.push_str(": ");
                }
                if a.unpack {
                    out.push_str("...");
                }
                expr_sx(out, a.value);
            }
            out.push(')');
        }
    }
}

fn item_sx(out: &mut String, it: &ArrayItem<'_>) {
    if let Some(k) = it.key {
        expr_sx(out, k);
        out.push_str(" => ");
    }
    if it.by_ref {
        out.push('&');
    }
    if it.spread {
        out.push_str("...");
    }
    expr_sx(out, it.value);
}

fn parts_sx(out: &mut String, parts: &[StrPart<'_>]) {
    for p in parts {
        out.push(' ');
        match p {
            StrPart::Literal(s) => qstr(out, s),
            StrPart::Expr(e) => expr_sx(out, e),
        }
    }
}

fn expr_sx(out: &mut String, e: &Expr<'_>) {
    use ExprKind::*;
    match &e.kind {
        Int(v) => out.push_str(&v.to_string()),
        Float(v) => out.push_str(&format!("{:?}", v)),
        String(s) => qstr(out, s),
        Interpolated(parts) => {
            out.push_str("(interp");
            parts_sx(out, parts);
            out.push(')');
        }
        ShellExec(parts) => {
            out.push_str("(shell");
            parts_sx(out, parts);
            out.push(')');
        }
        Var(n) => {
            out.push('$');
            bstr(out, n);
        }
        VarVar(e) => {
            out.push_str("$(");
            expr_sx(out, e);
            out.push(')');
        }
        Array(items) => {
            out.push_str("(array");
            for it in *items {
                out.push(' ');
                item_sx(out, it);
            }
            out.push(')');
        }
        List(items) => {
            out.push_str("(list");
            for it in *items {
                out.push(' ');
                match it {
                    Some(it) => item_sx(out, it),
                    None => out.push('_'),
                }
            }
            out.push(')');
        }
        Index { base, dim } => {
            out.push_str("(idx ");
            expr_sx(out, base);
            if let Some(d) = dim {
                out.push(' ');
                expr_sx(out, d);
            }
            out.push(')');
        }
        Prop { obj, name, nullsafe } => {
            out.push_str(if *nullsafe { "(?-> " } else { "(-> " });
            expr_sx(out, obj);
            out.push(' ');
            member_sx(out, name);
            out.push(')');
        }
        StaticProp { class, name } => {
            out.push_str("(sprop ");
            class_ref_sx(out, class);
            out.push_str(" $");
            member_sx(out, name);
            out.push(')');
        }
        ClassConst { class, name } => {
            out.push_str("(cconst ");
            class_ref_sx(out, class);
            out.push(' ');
            bstr(out, name);
            out.push(')');
        }
        Const(n) => name_sx(out, n),
        MagicConst(m) => out.push_str(&format!("__{:?}__", m).to_uppercase()),
        Call { callee, args } => {
            out.push_str("(call ");
            match callee {
                Callee::Name(n) => name_sx(out, n),
                Callee::Expr(e) => expr_sx(out, e),
            }
            out.push(' ');
            args_sx(out, args);
            out.push(')');
        }
        MethodCall { obj, name, args, nullsafe } => {
            out.push_str(if *nullsafe { "(mcall? " } else { "(mcall " });
            expr_sx(out, obj);
            out.push(' ');
            member_sx(out, name);
            out.push(' ');
            args_sx(out, args);
            out.push(')');
        }
        StaticCall { class, name, args } => {
            out.push_str("(scall ");
            class_ref_sx(out, class);
            out.push(' ');
            member_sx(out, name);
            out.push(' ');
            args_sx(out, args);
            out.push(')');
        }
        New { class, args } => {
            out.push_str("(new ");
            class_ref_sx(out, class);
            out.push(' ');
            args_sx(out, &Args::List(args));
            out.push(')');
        }
        Clone(e) => {
            out.push_str("(clone ");
            expr_sx(out, e);
            out.push(')');
        }
        Assign { target, value } | AssignRef { target, value } | AssignCoalesce { target, value } => {
            out.push_str(match &e.kind {
                Assign { .. } => "(= ",
                AssignRef { .. } => "(=& ",
                _ => "(??= ",
            });
            expr_sx(out, target);
            out.push(' ');
            expr_sx(out, value);
            out.push(')');
        }
        AssignOp { op, target, value } => {
            out.push('(');
            out.push_str(op.symbol());
            out.push_str("= ");
            expr_sx(out, target);
            out.push(' ');
            expr_sx(out, value);
            out.push(')');
        }
        PreInc(x) | PreDec(x) | PostInc(x) | PostDec(x) => {
            out.push_str(match &e.kind {
                PreInc(_) => "(++pre ",
                PreDec(_) => "(--pre ",
                PostInc(_) => "(post++ ",
                _ => "(post-- ",
            });
            expr_sx(out, x);
            out.push(')');
        }
        Binary { op, left, right } => {
            out.push('(');
            out.push_str(op.symbol());
            out.push(' ');
            expr_sx(out, left);
            out.push(' ');
            expr_sx(out, right);
            out.push(')');
        }
        Unary { op, expr } => {
            out.push_str(match op {
                UnaryOp::Neg => "(neg ",
                UnaryOp::Plus => "(pos ",
                UnaryOp::Not => "(! ",
                UnaryOp::BitNot => "(~ ",
            });
            expr_sx(out, expr);
            out.push(')');
        }
        Cast { kind, expr } => {
            out.push_str(&format!("(cast-{:?} ", kind).to_lowercase());
            expr_sx(out, expr);
            out.push(')');
        }
        Silence(x) => {
            out.push_str("(@ ");
            expr_sx(out, x);
            out.push(')');
        }
        Ternary { cond, then, else_ } => {
            out.push_str("(? ");
            expr_sx(out, cond);
            out.push(' ');
            match then {
                Some(t) => expr_sx(out, t),
                None => out.push('_'),
            }
            out.push(' ');
            expr_sx(out, else_);
            out.push(')');
        }
        Coalesce { left, right } => {
            out.push_str("(?? ");
            expr_sx(out, left);
            out.push(' ');
            expr_sx(out, right);
            out.push(')');
        }
        Instanceof { expr, class } => {
            out.push_str("(instanceof ");
            expr_sx(out, expr);
            out.push(' ');
            class_ref_sx(out, class);
            out.push(')');
        }
        Isset(es) => {
            out.push_str("(isset");
            exprs_sx(out, es);
            out.push(')');
        }
        Empty(x) | Print(x) | Eval(x) | Throw(x) | YieldFrom(x) => {
            out.push_str(match &e.kind {
                Empty(_) => "(empty ",
                Print(_) => "(print ",
                Eval(_) => "(eval ",
                Throw(_) => "(throw ",
                _ => "(yield-from ",
            });
            expr_sx(out, x);
            out.push(')');
        }
        Exit(x) => {
            out.push_str("(exit");
            if let Some(x) = x {
                out.push(' ');
                expr_sx(out, x);
            }
            out.push(')');
        }
        Include { kind, expr } => {
            out.push_str(&format!("({:?} ", kind).to_lowercase());
            expr_sx(out, expr);
            out.push(')');
        }
        Closure(f) => {
            out.push_str("(closure ");
            func_sx(out, f);
            out.push(')');
        }
        ArrowFn(f) => {
            out.push_str("(fn ");
            func_sx(out, f);
            out.push(')');
        }
        Match { subject, arms } => {
            out.push_str("(match ");
            expr_sx(out, subject);
            for a in *arms {
                out.push_str(" (");
                match a.conds {
                    Some(c) => {
                        for (i, x) in c.iter().enumerate() {
                            if i > 0 {
                                out.push_str(", ");
                            }
                            expr_sx(out, x);
                        }
                    }
                    None => out.push_str("default"),
                }
                out.push_str(" => ");
                expr_sx(out, a.body);
                out.push(')');
            }
            out.push(')');
        }
        Yield { key, value } => {
            out.push_str("(yield");
            if let Some(k) = key {
                out.push(' ');
                expr_sx(out, k);
                out.push_str(" =>");
            }
            if let Some(v) = value {
                out.push(' ');
                expr_sx(out, v);
            }
            out.push(')');
        }
    }
}
