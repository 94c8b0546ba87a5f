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
    Echo(&'a [Expr<'a>]),
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
        init: &'a [Expr<'a>],
        cond: &'a [Expr<'a>],
        step: &'a [Expr<'a>],
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
    Global(&'a [Expr<'a>]),
    /// `static $a = 1, $b;` in a function.
    Static(&'a [StaticVar<'a>]),
    /// `unset($a, $b[1]);`
    Unset(&'a [Expr<'a>]),
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
    Isset(&'a [Expr<'a>]),
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
    pub conds: Option<&'a [Expr<'a>]>,
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
