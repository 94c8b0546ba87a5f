pub struct Ast<'a> { pub stmts: &'a [Stmt<'a>], pub end_line: u32 }
pub struct Stmt<'a> { pub kind: StmtKind<'a>, pub line: u32 }
pub enum StmtKind<'a> {
    Expr(Expr<'a>),
    Echo(&'a [Expr<'a>]),
    InlineHtml(&'a [u8]),
    Block(&'a [Stmt<'a>]),
    Nop,
    If { branches: &'a [(Expr<'a>, Stmt<'a>)], else_branch: Option<&'a Stmt<'a>> },
    While { cond: Expr<'a>, body: &'a Stmt<'a> },
    DoWhile { body: &'a Stmt<'a>, cond: Expr<'a> },
    For { init: &'a [Expr<'a>], cond: &'a [Expr<'a>], step: &'a [Expr<'a>], body: &'a Stmt<'a> },
    Foreach { subject: Expr<'a>, key: Option<Expr<'a>>, value: Expr<'a>, by_ref: bool, body: &'a Stmt<'a> },
    Switch { subject: Expr<'a>, cases: &'a [SwitchCase<'a>] },
    Break(Option<Expr<'a>>),
    Continue(Option<Expr<'a>>),
    Return(Option<Expr<'a>>),
    Function(&'a FuncDecl<'a>),
    Static(&'a [(&'a [u8], Option<Expr<'a>>)]),
    Unset(&'a [Expr<'a>]),
    Global(&'a [&'a [u8]]),
}
pub struct SwitchCase<'a> { pub cond: Option<Expr<'a>>, pub body: &'a [Stmt<'a>], pub line: u32 }
pub struct FuncDecl<'a> { pub name: &'a [u8], pub params: &'a [Param<'a>], pub return_type: Option<TypeHint<'a>>, pub by_ref: bool, pub body: &'a [Stmt<'a>], pub line: u32, pub end_line: u32 }
pub struct Param<'a> { pub name: &'a [u8], pub ty: Option<TypeHint<'a>>, pub default: Option<Expr<'a>>, pub by_ref: bool, pub variadic: bool, pub line: u32 }
pub struct TypeHint<'a> { pub nullable: bool, pub names: &'a [&'a [u8]] }
pub struct Expr<'a> { pub kind: ExprKind<'a>, pub line: u32 }
pub struct ArrayItem<'a> { pub key: Option<Expr<'a>>, pub value: Option<Expr<'a>>, pub by_ref: bool, pub unpack: bool }
pub struct Arg<'a> { pub value: Expr<'a>, pub unpack: bool, pub name: Option<&'a [u8]> }
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum BinOp { Add, Sub, Mul, Div, Mod, Pow, Concat, Shl, Shr, BitOr, BitAnd, BitXor, Xor, Equal, NotEqual, Identical, NotIdentical, Smaller, SmallerEqual, Greater, GreaterEqual, Spaceship, And, Or }
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum UnOp { Minus, Plus, Not, BitNot }
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CastKind { Int, Float, String, Array, Object, Bool, Unset }
pub enum ExprKind<'a> {
    Int(i64), Float(f64), Str(&'a [u8]), Interp(&'a [Expr<'a>]),
    Var(&'a [u8]), Dim { base: &'a Expr<'a>, index: Option<&'a Expr<'a>> },
    Array(&'a [ArrayItem<'a>]), Const(&'a [u8]), Name(&'a [u8]),
    MagicLine, MagicFile, MagicDir, MagicFunction,
    Assign { target: &'a Expr<'a>, value: &'a Expr<'a> },
    AssignOp { op: BinOp, target: &'a Expr<'a>, value: &'a Expr<'a> },
    Binary { op: BinOp, left: &'a Expr<'a>, right: &'a Expr<'a> },
    Unary { op: UnOp, expr: &'a Expr<'a> },
    PreInc(&'a Expr<'a>), PreDec(&'a Expr<'a>), PostInc(&'a Expr<'a>), PostDec(&'a Expr<'a>),
    Ternary { cond: &'a Expr<'a>, then: Option<&'a Expr<'a>>, otherwise: &'a Expr<'a> },
    Coalesce { left: &'a Expr<'a>, right: &'a Expr<'a> },
    Call { name: &'a Expr<'a>, args: &'a [Arg<'a>] },
    Isset(&'a [Expr<'a>]), Empty(&'a Expr<'a>),
    Cast { kind: CastKind, expr: &'a Expr<'a> },
    Silence(&'a Expr<'a>), Print(&'a Expr<'a>), Exit(Option<&'a Expr<'a>>),
}
pub struct ParseError { pub message: String, pub line: u32 }
