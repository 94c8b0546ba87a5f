//! Tokens produced by the lexer. Names follow `token_get_all`'s (`T_VARIABLE`
//! is `Tok::Variable`, `T_STRING` is `Tok::Ident`, ...). A token does not own
//! its text: it is `src[start..end]`.

/// The kind of a token.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Tok {
    // ---- produced by the lexer's data paths ----
    /// Text outside `<?php ... ?>` (T_INLINE_HTML).
    InlineHtml,
    /// `$name` (T_VARIABLE); text includes the `$`.
    Variable,
    /// A bare identifier (T_STRING), also `true`, `self`, ...
    Ident,
    /// `Foo\Bar` (T_NAME_QUALIFIED).
    NameQualified,
    /// `\Foo` (T_NAME_FULLY_QUALIFIED).
    NameFullyQualified,
    /// `namespace\Foo` (T_NAME_RELATIVE).
    NameRelative,
    /// Integer literal (T_LNUMBER).
    LNumber,
    /// Float literal, or an integer literal that overflows (T_DNUMBER).
    DNumber,
    /// A complete string literal without interpolation, quotes included
    /// (T_CONSTANT_ENCAPSED_STRING).
    ConstString,
    /// Literal text inside `"..."`, heredoc or backticks (T_ENCAPSED_AND_WHITESPACE), raw.
    EncapsedAndWhitespace,
    /// `"` opening or closing an interpolated string.
    DoubleQuote,
    /// `` ` `` opening or closing a shell command.
    Backtick,
    /// `<<<LABEL\n`, `<<<"LABEL"\n` or `<<<'LABEL'\n` (T_START_HEREDOC).
    StartHeredoc,
    /// The closing label with its indentation (T_END_HEREDOC).
    EndHeredoc,
    /// `${` inside a string (T_DOLLAR_OPEN_CURLY_BRACES).
    DollarOpenCurlyBraces,
    /// `{` of `{$` inside a string (T_CURLY_OPEN).
    CurlyOpen,
    /// `name` in `"${name}"` / `"${name[...]}"` (T_STRING_VARNAME).
    StringVarname,
    /// A numeric offset in `"$a[12]"` (T_NUM_STRING).
    NumString,
    /// A lexical error; the lexer's error message is reported when the parser reaches it.
    Error,
    /// End of input.
    Eof,

    // ---- keywords (case-insensitive) ----
    Abstract, LogicalAnd, Array, As, Break, Callable, Case, Catch, Class, Clone, Const,
    Continue, Declare, Default, Do, Echo, Else, ElseIf, Empty, EndDeclare, EndFor,
    EndForeach, EndIf, EndSwitch, EndWhile, Enum, Eval, Exit, Extends, Final, Finally, Fn,
    For, Foreach, Function, Global, Goto, HaltCompiler, If, Implements, Include,
    IncludeOnce, Instanceof, Insteadof, Interface, Isset, List, Match, Namespace, New,
    LogicalOr, Print, Private, Protected, Public, Readonly, Require, RequireOnce, Return,
    Static, Switch, Throw, Trait, Try, Unset, Use, Var, While, LogicalXor, Yield, YieldFrom,
    // magic constants
    MagicLine, MagicFile, MagicDir, MagicClass, MagicTrait, MagicMethod, MagicFunction,
    MagicNamespace,
    // casts
    IntCast, DoubleCast, StringCast, ArrayCast, ObjectCast, BoolCast, UnsetCast,

    // ---- operators and punctuation ----
    PlusEq, MinusEq, MulEq, DivEq, ConcatEq, ModEq, AndEq, OrEq, XorEq, SlEq, SrEq,
    CoalesceEq, PowEq,
    BoolOr, BoolAnd, IsEqual, IsNotEqual, IsIdentical, IsNotIdentical, IsSmallerOrEqual,
    IsGreaterOrEqual, Spaceship, Sl, Sr, Inc, Dec,
    /// `->`
    ObjectOp,
    /// `?->`
    NullsafeObjectOp,
    /// `=>`
    DoubleArrow,
    /// `::`
    DoubleColon,
    /// `...`
    Ellipsis,
    /// `??`
    Coalesce,
    /// `**`
    Pow,
    /// `#[`
    Attribute,
    /// A lone `\` (T_NS_SEPARATOR).
    NsSeparator,
    Semicolon, Comma, Dot, LParen, RParen, LBracket, RBracket, LBrace, RBrace, Plus, Minus,
    Star, Slash, Percent, Eq, Lt, Gt, Amp, Pipe, Caret, Tilde, Bang, Question, Colon, At,
    Dollar,

    // ---- only in the token stream of `lexer::lex_tokens` (token_get_all) ----
    /// `<?php` with the whitespace after it, or `<?` (T_OPEN_TAG).
    OpenTag,
    /// `<?=` (T_OPEN_TAG_WITH_ECHO).
    OpenTagWithEcho,
    /// `?>` with the newline after it (T_CLOSE_TAG).
    CloseTag,
    /// Spaces, tabs and newlines (T_WHITESPACE).
    Whitespace,
    /// `//`, `#` and `/* */` comments (T_COMMENT).
    Comment,
    /// `/** */` comments (T_DOC_COMMENT).
    DocComment,
    /// A byte PHP's scanner has no rule for (T_BAD_CHARACTER).
    BadCharacter,
}

/// One token: kind, first line, and its byte span in the source.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Tok,
    pub line: u32,
    pub start: u32,
    pub end: u32,
}

impl Tok {
    /// The keyword for a lowercase label, if it is one.
    pub fn keyword(lower: &[u8]) -> Option<Tok> {
        use Tok::*;
        Some(match lower {
            b"abstract" => Abstract,
            b"and" => LogicalAnd,
            b"array" => Array,
            b"as" => As,
            b"break" => Break,
            b"callable" => Callable,
            b"case" => Case,
            b"catch" => Catch,
            b"class" => Class,
            b"clone" => Clone,
            b"const" => Const,
            b"continue" => Continue,
            b"declare" => Declare,
            b"default" => Default,
            b"die" | b"exit" => Exit,
            b"do" => Do,
            b"echo" => Echo,
            b"else" => Else,
            b"elseif" => ElseIf,
            b"empty" => Empty,
            b"enddeclare" => EndDeclare,
            b"endfor" => EndFor,
            b"endforeach" => EndForeach,
            b"endif" => EndIf,
            b"endswitch" => EndSwitch,
            b"endwhile" => EndWhile,
            b"eval" => Eval,
            b"extends" => Extends,
            b"final" => Final,
            b"finally" => Finally,
            b"fn" => Fn,
            b"for" => For,
            b"foreach" => Foreach,
            b"function" => Function,
            b"global" => Global,
            b"goto" => Goto,
            b"__halt_compiler" => HaltCompiler,
            b"if" => If,
            b"implements" => Implements,
            b"include" => Include,
            b"include_once" => IncludeOnce,
            b"instanceof" => Instanceof,
            b"insteadof" => Insteadof,
            b"interface" => Interface,
            b"isset" => Isset,
            b"list" => List,
            b"match" => Match,
            b"namespace" => Namespace,
            b"new" => New,
            b"or" => LogicalOr,
            b"print" => Print,
            b"private" => Private,
            b"protected" => Protected,
            b"public" => Public,
            b"readonly" => Readonly,
            b"require" => Require,
            b"require_once" => RequireOnce,
            b"return" => Return,
            b"static" => Static,
            b"switch" => Switch,
            b"throw" => Throw,
            b"trait" => Trait,
            b"try" => Try,
            b"unset" => Unset,
            b"use" => Use,
            b"var" => Var,
            b"while" => While,
            b"xor" => LogicalXor,
            b"yield" => Yield,
            b"__line__" => MagicLine,
            b"__file__" => MagicFile,
            b"__dir__" => MagicDir,
            b"__class__" => MagicClass,
            b"__trait__" => MagicTrait,
            b"__method__" => MagicMethod,
            b"__function__" => MagicFunction,
            b"__namespace__" => MagicNamespace,
            _ => return None,
        })
    }

    /// Is this a keyword (usable as a member / method / constant name, PHP's
    /// `semi_reserved`)?
    pub fn is_keyword(self) -> bool {
        (self as u8) >= (Tok::Abstract as u8) && (self as u8) <= (Tok::MagicNamespace as u8)
    }

    /// How PHP quotes a fixed token in `unexpected token "..."`.
    pub fn fixed_text(self) -> &'static str {
        use Tok::*;
        match self {
            Abstract => "abstract", LogicalAnd => "and", Array => "array", As => "as",
            Break => "break", Callable => "callable", Case => "case", Catch => "catch",
            Class => "class", Clone => "clone", Const => "const", Continue => "continue",
            Declare => "declare", Default => "default", Do => "do", Echo => "echo",
            Else => "else", ElseIf => "elseif", Empty => "empty", EndDeclare => "enddeclare",
            EndFor => "endfor", EndForeach => "endforeach", EndIf => "endif",
            EndSwitch => "endswitch", EndWhile => "endwhile", Enum => "enum", Eval => "eval",
            Exit => "exit", Extends => "extends", Final => "final", Finally => "finally",
            Fn => "fn", For => "for", Foreach => "foreach", Function => "function",
            Global => "global", Goto => "goto", HaltCompiler => "__halt_compiler", If => "if",
            Implements => "implements", Include => "include", IncludeOnce => "include_once",
            Instanceof => "instanceof", Insteadof => "insteadof", Interface => "interface",
            Isset => "isset", List => "list", Match => "match", Namespace => "namespace",
            New => "new", LogicalOr => "or", Print => "print", Private => "private",
            Protected => "protected", Public => "public", Readonly => "readonly",
            Require => "require", RequireOnce => "require_once", Return => "return",
            Static => "static", Switch => "switch", Throw => "throw", Trait => "trait",
            Try => "try", Unset => "unset", Use => "use", Var => "var", While => "while",
            LogicalXor => "xor", Yield => "yield", YieldFrom => "yield from",
            MagicLine => "__LINE__", MagicFile => "__FILE__", MagicDir => "__DIR__",
            MagicClass => "__CLASS__", MagicTrait => "__TRAIT__", MagicMethod => "__METHOD__",
            MagicFunction => "__FUNCTION__", MagicNamespace => "__NAMESPACE__",
            IntCast => "(int)", DoubleCast => "(double)", StringCast => "(string)",
            ArrayCast => "(array)", ObjectCast => "(object)", BoolCast => "(bool)",
            UnsetCast => "(unset)",
            PlusEq => "+=", MinusEq => "-=", MulEq => "*=", DivEq => "/=", ConcatEq => ".=",
            ModEq => "%=", AndEq => "&=", OrEq => "|=", XorEq => "^=", SlEq => "<<=",
            SrEq => ">>=", CoalesceEq => "??=", PowEq => "**=", BoolOr => "||",
            BoolAnd => "&&", IsEqual => "==", IsNotEqual => "!=", IsIdentical => "===",
            IsNotIdentical => "!==", IsSmallerOrEqual => "<=", IsGreaterOrEqual => ">=",
            Spaceship => "<=>", Sl => "<<", Sr => ">>", Inc => "++", Dec => "--",
            ObjectOp => "->", NullsafeObjectOp => "?->", DoubleArrow => "=>",
            DoubleColon => "::", Ellipsis => "...", Coalesce => "??", Pow => "**",
            Attribute => "#[", NsSeparator => "\\", Semicolon => ";", Comma => ",", Dot => ".",
            LParen => "(", RParen => ")", LBracket => "[", RBracket => "]", LBrace => "{",
            RBrace => "}", Plus => "+", Minus => "-", Star => "*", Slash => "/",
            Percent => "%", Eq => "=", Lt => "<", Gt => ">", Amp => "&", Pipe => "|",
            Caret => "^", Tilde => "~", Bang => "!", Question => "?", Colon => ":", At => "@",
            Dollar => "$", DollarOpenCurlyBraces => "${", CurlyOpen => "{$",
            Backtick => "`",
            _ => "",
        }
    }
}
