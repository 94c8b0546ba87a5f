//! The lexer: PHP source bytes → a `Vec<Token>`.
//!
//! PHP's scanner is a state machine (inline HTML, scripting, inside `"..."`,
//! heredoc, `"$a[...]"` offsets, `"${name}"`); this one keeps the same states
//! on a stack. Lexing does not depend on the parser, so the whole file is
//! lexed up front. A lexical error ends the token list with a `Tok::Error`
//! token: the parser reports it only if it gets that far (as PHP, which lexes
//! on demand, would).
//!
//! The lexer never allocates per token: tokens are spans into the source.

use super::token::{Tok, Token};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Html,
    Script,
    /// Scripting inside `{$...}` / `${...}` of a string: `}` pops it.
    ScriptInString,
    DoubleQuotes,
    Backticks,
    /// Heredoc with the label span; `nowdoc` for `<<<'X'`.
    Heredoc { label_start: u32, label_end: u32, nowdoc: bool },
    /// `"$a[` ... `]"`
    VarOffset,
    /// Just after `${` in a string.
    LookingForVarname,
}

/// Result of lexing: the tokens (ending with `Eof` or `Error`) and the error message,
/// if any (then the last token is `Tok::Error`).
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub error: Option<(String, u32)>,
    /// Byte offset just after `__halt_compiler();`, if present.
    pub halt_offset: Option<u32>,
}

pub fn is_label_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

pub fn is_label_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

struct Lexer<'s> {
    src: &'s [u8],
    pos: usize,
    line: u32,
    modes: Vec<Mode>,
    tokens: Vec<Token>,
    /// Open brackets `(`, `[`, `{` with their lines, for "Unclosed '{'" errors.
    brackets: Vec<(u8, u32)>,
    /// After `->`: the next label is a property name, never a keyword.
    after_arrow: bool,
    /// Token-stream mode (`lex_tokens`): whitespace, comments and open and
    /// close tags are tokens too, and the scanner never fails, as PHP's
    /// outside the parser (token_get_all).
    trivia: bool,
}

pub fn lex(src: &[u8]) -> Lexed {
    let mut lx = Lexer {
        src,
        pos: 0,
        line: 1,
        modes: vec![Mode::Html],
        tokens: Vec::with_capacity(src.len() / 5 + 16),
        brackets: Vec::new(),
        after_arrow: false,
        trivia: false,
    };
    let mut halt_offset = None;
    let mut halt_countdown: Option<u8> = None;
    loop {
        if let Some(n) = halt_countdown {
            // After `__halt_compiler`, only `(`, `)` and `;` (or `?>`) are lexed.
            if n == 0 {
                halt_offset = Some(lx.pos as u32);
                lx.push(Tok::Eof, lx.pos, lx.pos);
                break;
            }
        }
        match lx.next_token() {
            Ok(true) => {}
            Ok(false) => {
                if let Some(&(b, line)) = lx.brackets.last() {
                    let msg = if line == lx.line {
                        format!("Unclosed '{}'", b as char)
                    } else {
                        format!("Unclosed '{}' on line {}", b as char, line)
                    };
                    let (p, l) = (lx.pos, lx.line);
                    lx.push(Tok::Error, p, p);
                    return Lexed { tokens: lx.tokens, error: Some((msg, l)), halt_offset };
                }
                let p = lx.pos;
                lx.push(Tok::Eof, p, p);
                break;
            }
            Err((msg, line)) => {
                let p = lx.pos.min(src.len());
                lx.push(Tok::Error, p, p);
                return Lexed { tokens: lx.tokens, error: Some((msg, line)), halt_offset };
            }
        }
        if let Some(t) = lx.tokens.last() {
            if t.kind == Tok::HaltCompiler && halt_countdown.is_none() {
                halt_countdown = Some(3);
            } else if let Some(n) = halt_countdown.as_mut() {
                *n = n.saturating_sub(1);
                if t.kind == Tok::Semicolon && *n > 0 {
                    *n = 0;
                }
            }
        }
    }
    Lexed { tokens: lx.tokens, error: None, halt_offset }
}

/// The token stream PHP's scanner gives `token_get_all`: every token with
/// its exact text, whitespace, comments and tags included; bad bytes are
/// `BadCharacter` tokens rather than errors, and brackets are not checked.
/// After `__halt_compiler` and three more tokens, the rest of the source is
/// one `InlineHtml` token. Ends with `Eof`.
pub fn lex_tokens(src: &[u8]) -> Vec<Token> {
    let mut lx = Lexer {
        src,
        pos: 0,
        line: 1,
        modes: vec![Mode::Html],
        tokens: Vec::with_capacity(src.len() / 3 + 16),
        brackets: Vec::new(),
        after_arrow: false,
        trivia: true,
    };
    // Tokens still to read after `__halt_compiler` (whitespace, comments
    // and open tags not counted), and the line of the last one read.
    let mut halt: Option<u8> = None;
    let mut halt_line = 1;
    loop {
        if halt == Some(0) {
            if lx.pos < src.len() {
                let (p, line) = (lx.pos, halt_line);
                lx.push_multiline(Tok::InlineHtml, p, src.len(), line);
                lx.count_lines(p, src.len());
                lx.pos = src.len();
            }
            break;
        }
        let n = lx.tokens.len();
        let (pos, depth) = (lx.pos, lx.modes.len());
        match lx.next_token() {
            Ok(true) => {}
            // Not reached in this mode; stop cleanly if it is.
            Ok(false) | Err(_) => break,
        }
        if lx.pos == pos && lx.tokens.len() == n && lx.modes.len() == depth {
            // No progress: never loop.
            break;
        }
        for i in n..lx.tokens.len() {
            let k = lx.tokens[i].kind;
            if matches!(k, Tok::Whitespace | Tok::Comment | Tok::DocComment | Tok::OpenTag) {
                continue;
            }
            halt_line = lx.tokens[i].line;
            if k == Tok::HaltCompiler && halt.is_none() {
                halt = Some(3);
            } else if let Some(h) = halt.as_mut() {
                *h = h.saturating_sub(1);
                if *h == 0 {
                    // One scan may give several tokens: the rest starts
                    // right after the third.
                    lx.pos = lx.tokens[i].end as usize;
                    lx.tokens.truncate(i + 1);
                    break;
                }
            }
        }
    }
    let p = lx.pos.min(src.len());
    lx.push(Tok::Eof, p, p);
    lx.tokens
}

type LexResult = Result<bool, (String, u32)>;

impl<'s> Lexer<'s> {
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn cur(&self) -> u8 {
        self.at(self.pos)
    }

    fn peek(&self, n: usize) -> u8 {
        self.at(self.pos + n)
    }

    fn eof(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn push(&mut self, kind: Tok, start: usize, end: usize) {
        self.tokens.push(Token { kind, line: self.line, start: start as u32, end: end as u32 });
    }

    /// Push a token starting at `start` whose first line is `line`, and count the newlines in it.
    fn push_multiline(&mut self, kind: Tok, start: usize, end: usize, line: u32) {
        self.tokens.push(Token { kind, line, start: start as u32, end: end as u32 });
    }

    fn count_lines(&mut self, start: usize, end: usize) {
        let end = end.min(self.src.len());
        if start < end {
            let text = &self.src[start..end];
            self.line += text.iter().filter(|&&c| c == b'\n').count() as u32;
            if self.trivia {
                // PHP's scanner also counts a lone `\r` as a line end.
                let lone_cr = text.iter().enumerate().filter(|&(k, &c)| c == b'\r' && self.src.get(start + k + 1) != Some(&b'\n')).count();
                self.line += lone_cr as u32;
            }
        }
    }

    fn starts_with_ci(&self, at: usize, word: &[u8]) -> bool {
        match self.src.get(at..at + word.len()) {
            Some(s) => s.eq_ignore_ascii_case(word),
            None => false,
        }
    }

    fn mode(&self) -> Mode {
        self.modes.last().copied().unwrap_or(Mode::Script)
    }

    /// Lex one token (or several, for some constructs). `Ok(false)` at end of input.
    fn next_token(&mut self) -> LexResult {
        match self.mode() {
            Mode::Html => self.lex_html(),
            Mode::Script | Mode::ScriptInString => self.lex_script(),
            Mode::DoubleQuotes => self.lex_string_body(b'"'),
            Mode::Backticks => self.lex_string_body(b'`'),
            Mode::Heredoc { label_start, label_end, nowdoc } => {
                self.lex_heredoc_body(label_start as usize, label_end as usize, nowdoc)
            }
            Mode::VarOffset => self.lex_var_offset(),
            Mode::LookingForVarname => {
                self.modes.pop();
                self.modes.push(Mode::ScriptInString);
                let s = self.pos;
                if is_label_start(self.cur()) {
                    let mut e = s;
                    while is_label_char(self.at(e)) {
                        e += 1;
                    }
                    if self.at(e) == b'[' || self.at(e) == b'}' {
                        self.pos = e;
                        self.push(Tok::StringVarname, s, e);
                        return Ok(true);
                    }
                }
                self.lex_script()
            }
        }
    }

    fn lex_html(&mut self) -> LexResult {
        if self.eof() {
            return Ok(false);
        }
        let start = self.pos;
        let line = self.line;
        let mut i = self.pos;
        while i < self.src.len() {
            if self.src[i] == b'<' && self.at(i + 1) == b'?' {
                if self.at(i + 2) == b'=' {
                    self.emit_html(start, i, line);
                    self.pos = i + 3;
                    self.push(if self.trivia { Tok::OpenTagWithEcho } else { Tok::Echo }, i, i + 3);
                    self.modes.pop();
                    self.modes.push(Mode::Script);
                    return Ok(true);
                }
                let long_tag = self.starts_with_ci(i + 2, b"php")
                    && (matches!(self.at(i + 5), b' ' | b'\t' | b'\n' | b'\r') || i + 5 >= self.src.len());
                if !long_tag {
                    // `<?`: short_open_tag is on by default (and under `php -n`).
                    self.emit_html(start, i, line);
                    self.pos = i + 2;
                    if self.trivia {
                        self.push(Tok::OpenTag, i, i + 2);
                    }
                    self.modes.pop();
                    self.modes.push(Mode::Script);
                    return Ok(true);
                }
                {
                    let after = self.at(i + 5);
                    {
                        self.emit_html(start, i, line);
                        let mut end = i + 5;
                        if after == b'\r' && self.at(end + 1) == b'\n' {
                            end += 2;
                        } else if end < self.src.len() {
                            end += 1;
                        }
                        if self.trivia {
                            let l = self.line;
                            self.push_multiline(Tok::OpenTag, i, end, l);
                        }
                        self.count_lines(i, end);
                        self.pos = end;
                        self.modes.pop();
                        self.modes.push(Mode::Script);
                        return Ok(true);
                    }
                }
            }
            i += 1;
        }
        self.emit_html(start, i, line);
        self.pos = i;
        Ok(true)
    }

    fn emit_html(&mut self, start: usize, end: usize, line: u32) {
        if end > start {
            self.push_multiline(Tok::InlineHtml, start, end, line);
            self.count_lines(start, end);
        }
    }

    fn skip_ws_and_comments(&mut self) -> Result<(), (String, u32)> {
        loop {
            let c = self.cur();
            match c {
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'#' if self.peek(1) != b'[' => self.skip_line_comment(),
                b'/' if self.peek(1) == b'/' => self.skip_line_comment(),
                b'/' if self.peek(1) == b'*' => {
                    let start_line = self.line;
                    let mut i = self.pos + 2;
                    loop {
                        if i + 1 >= self.src.len() {
                            self.count_lines(self.pos, self.src.len());
                            self.pos = self.src.len();
                            return Err((
                                format!("Unterminated comment starting line {}", start_line),
                                start_line,
                            ));
                        }
                        if self.src[i] == b'*' && self.src[i + 1] == b'/' {
                            break;
                        }
                        i += 1;
                    }
                    self.count_lines(self.pos, i);
                    self.pos = i + 2;
                }
                _ => return Ok(()),
            }
        }
    }

    /// `//` and `#` comments end at a newline (`\n` or `\r`) or just before `?>`.
    fn skip_line_comment(&mut self) {
        while !self.eof() {
            let c = self.cur();
            if c == b'\n' || c == b'\r' {
                return;
            }
            if c == b'?' && self.peek(1) == b'>' {
                return;
            }
            self.pos += 1;
        }
    }

    /// Token-stream mode: one whitespace or comment token at the current
    /// position, if there is one.
    fn lex_trivia(&mut self) -> bool {
        let s = self.pos;
        let line = self.line;
        let c = self.cur();
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n') && !self.eof() {
            let mut e = s;
            while matches!(self.at(e), b' ' | b'\t' | b'\r' | b'\n') && e < self.src.len() {
                e += 1;
            }
            self.push_multiline(Tok::Whitespace, s, e, line);
            self.count_lines(s, e);
            self.pos = e;
            return true;
        }
        // After `->`, `#[` starts a comment, not an attribute (PHP's
        // property-name state has no attribute rule).
        let kind = if (c == b'#' && (self.peek(1) != b'[' || self.after_arrow)) || (c == b'/' && self.peek(1) == b'/') {
            self.skip_line_comment();
            Tok::Comment
        } else if c == b'/' && self.peek(1) == b'*' {
            let doc = self.peek(2) == b'*' && matches!(self.peek(3), b' ' | b'\t' | b'\r' | b'\n');
            let mut i = s + 2;
            while i + 1 < self.src.len() && !(self.src[i] == b'*' && self.src[i + 1] == b'/') {
                i += 1;
            }
            // Unterminated: the comment runs to the end.
            self.pos = if i + 1 < self.src.len() { i + 2 } else { self.src.len() };
            if doc { Tok::DocComment } else { Tok::Comment }
        } else {
            return false;
        };
        let e = self.pos;
        self.push_multiline(kind, s, e, line);
        self.count_lines(s, e);
        true
    }

    fn label_end(&self, mut i: usize) -> usize {
        while i < self.src.len() && is_label_char(self.src[i]) {
            i += 1;
        }
        i
    }

    fn lex_script(&mut self) -> LexResult {
        if self.trivia {
            if self.lex_trivia() {
                return Ok(true);
            }
        } else {
            self.skip_ws_and_comments()?;
        }
        if self.eof() {
            return Ok(false);
        }
        let s = self.pos;
        let c = self.cur();
        let after_arrow = std::mem::replace(&mut self.after_arrow, false);
        if (c | 0x20) == b'b'
            && !after_arrow
            && (matches!(self.peek(1), b'\'' | b'"') || self.src.get(s + 1..s + 4) == Some(b"<<<"))
        {
            // `b"..."`, `b'...'`, `b<<<EOT`: the binary-string prefix means nothing,
            // but a constant string's token keeps it (PHP's messages show it).
            self.pos = s + 1;
            let n = self.tokens.len();
            let r = self.lex_script();
            let trivia = self.trivia;
            if let Some(t) = self.tokens.get_mut(n) {
                if t.kind == Tok::ConstString || (trivia && matches!(t.kind, Tok::DoubleQuote | Tok::StartHeredoc)) {
                    t.start = s as u32;
                }
            }
            return r;
        }
        if is_label_start(c) {
            let e = self.label_end(s);
            if after_arrow {
                self.pos = e;
                self.push(Tok::Ident, s, e);
                return Ok(true);
            }
            return self.lex_label(s, e);
        }
        if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) {
            return self.lex_number();
        }
        let two = [c, self.peek(1)];
        let three = [c, self.peek(1), self.peek(2)];
        let (kind, len) = match &three {
            b"===" => (Tok::IsIdentical, 3),
            b"!==" => (Tok::IsNotIdentical, 3),
            b"<=>" => (Tok::Spaceship, 3),
            b"<<=" => (Tok::SlEq, 3),
            b">>=" => (Tok::SrEq, 3),
            b"**=" => (Tok::PowEq, 3),
            b"..." => (Tok::Ellipsis, 3),
            b"??=" => (Tok::CoalesceEq, 3),
            b"?->" => (Tok::NullsafeObjectOp, 3),
            b"<<<" => return self.lex_heredoc_start(),
            _ => match &two {
                b"==" => (Tok::IsEqual, 2),
                b"!=" => (Tok::IsNotEqual, 2),
                b"<>" => (Tok::IsNotEqual, 2),
                b"<=" => (Tok::IsSmallerOrEqual, 2),
                b">=" => (Tok::IsGreaterOrEqual, 2),
                b"<<" => (Tok::Sl, 2),
                b">>" => (Tok::Sr, 2),
                b"++" => (Tok::Inc, 2),
                b"--" => (Tok::Dec, 2),
                b"->" => (Tok::ObjectOp, 2),
                b"=>" => (Tok::DoubleArrow, 2),
                b"::" => (Tok::DoubleColon, 2),
                b"??" => (Tok::Coalesce, 2),
                b"**" => (Tok::Pow, 2),
                b"||" => (Tok::BoolOr, 2),
                b"&&" => (Tok::BoolAnd, 2),
                b"+=" => (Tok::PlusEq, 2),
                b"-=" => (Tok::MinusEq, 2),
                b"*=" => (Tok::MulEq, 2),
                b"/=" => (Tok::DivEq, 2),
                b".=" => (Tok::ConcatEq, 2),
                b"%=" => (Tok::ModEq, 2),
                b"&=" => (Tok::AndEq, 2),
                b"|=" => (Tok::OrEq, 2),
                b"^=" => (Tok::XorEq, 2),
                b"#[" => {
                    self.brackets.push((b'[', self.line));
                    (Tok::Attribute, 2)
                }
                b"?>" => {
                    // `?>` is an implicit `;`; one newline right after it belongs to it.
                    let mut e = s + 2;
                    if self.at(e) == b'\n' {
                        e += 1;
                    } else if self.at(e) == b'\r' {
                        e += if self.at(e + 1) == b'\n' { 2 } else { 1 };
                    }
                    if self.trivia {
                        let l = self.line;
                        self.push_multiline(Tok::CloseTag, s, e, l);
                    } else {
                        self.push(Tok::Semicolon, s, s + 2);
                    }
                    self.count_lines(s, e);
                    self.pos = e;
                    if self.trivia {
                        // PHP's BEGIN(INITIAL): the states below stay (a
                        // later `}` may return to an unfinished string).
                        self.modes.pop();
                    } else {
                        self.modes.clear();
                    }
                    self.modes.push(Mode::Html);
                    return Ok(true);
                }
                _ => {
                    let k = match c {
                        b';' => Tok::Semicolon,
                        b',' => Tok::Comma,
                        b'.' => Tok::Dot,
                        b'(' => return self.lex_paren(),
                        b')' | b']' | b'}' => return self.lex_close(c),
                        b'[' => {
                            self.brackets.push((b'[', self.line));
                            Tok::LBracket
                        }
                        b'{' => {
                            self.brackets.push((b'{', self.line));
                            self.modes.push(Mode::Script);
                            Tok::LBrace
                        }
                        b'+' => Tok::Plus,
                        b'-' => Tok::Minus,
                        b'*' => Tok::Star,
                        b'/' => Tok::Slash,
                        b'%' => Tok::Percent,
                        b'=' => Tok::Eq,
                        b'<' => Tok::Lt,
                        b'>' => Tok::Gt,
                        b'&' => Tok::Amp,
                        b'|' => Tok::Pipe,
                        b'^' => Tok::Caret,
                        b'~' => Tok::Tilde,
                        b'!' => Tok::Bang,
                        b'?' => Tok::Question,
                        b':' => Tok::Colon,
                        b'@' => Tok::At,
                        b'$' => {
                            if is_label_start(self.peek(1)) {
                                let e = self.label_end(s + 1);
                                self.pos = e;
                                self.push(Tok::Variable, s, e);
                                return Ok(true);
                            }
                            Tok::Dollar
                        }
                        b'\\' => {
                            if is_label_start(self.peek(1)) {
                                let e = self.qualified_end(s + 1);
                                self.pos = e;
                                self.push(Tok::NameFullyQualified, s, e);
                                return Ok(true);
                            }
                            Tok::NsSeparator
                        }
                        b'\'' => return self.lex_single_quoted(),
                        b'"' => return self.lex_double_quote_start(),
                        b'`' => {
                            self.pos += 1;
                            self.push(Tok::Backtick, s, s + 1);
                            self.modes.push(Mode::Backticks);
                            return Ok(true);
                        }
                        _ if self.trivia => {
                            self.pos = s + 1;
                            self.push(Tok::BadCharacter, s, s + 1);
                            return Ok(true);
                        }
                        _ => {
                            // PHP: "Unexpected character in input" is a warning and the
                            // character is skipped; we report it as an error token.
                            return Err((
                                format!("syntax error, unexpected character 0x{:02X}", c),
                                self.line,
                            ));
                        }
                    };
                    (k, 1)
                }
            },
        };
        if kind == Tok::ObjectOp || kind == Tok::NullsafeObjectOp {
            self.after_arrow = true;
        }
        self.pos = s + len;
        self.push(kind, s, s + len);
        Ok(true)
    }

    fn lex_close(&mut self, c: u8) -> LexResult {
        let s = self.pos;
        let open = match c {
            b')' => b'(',
            b']' => b'[',
            _ => b'{',
        };
        match self.brackets.last().copied() {
            _ if self.trivia => {
                self.brackets.pop();
            }
            None => {
                return Err((format!("Unmatched '{}'", c as char), self.line));
            }
            Some((b, line)) if b != open => {
                let msg = if line == self.line {
                    format!("Unclosed '{}' does not match '{}'", b as char, c as char)
                } else {
                    format!("Unclosed '{}' on line {} does not match '{}'", b as char, line, c as char)
                };
                return Err((msg, self.line));
            }
            _ => {
                self.brackets.pop();
            }
        }
        self.pos = s + 1;
        let kind = match c {
            b')' => Tok::RParen,
            b']' => Tok::RBracket,
            _ => {
                // `}` closes a `{` in code, or a `{$`/`${` in a string.
                match self.modes.last() {
                    Some(Mode::ScriptInString) | Some(Mode::Script) if self.modes.len() > 1 => {
                        self.modes.pop();
                    }
                    _ => {}
                }
                Tok::RBrace
            }
        };
        self.push(kind, s, s + 1);
        Ok(true)
    }

    /// `(` or a cast such as `( int )`.
    fn lex_paren(&mut self) -> LexResult {
        let s = self.pos;
        let mut i = s + 1;
        while matches!(self.at(i), b' ' | b'\t') {
            i += 1;
        }
        let ls = i;
        while self.at(i).is_ascii_alphabetic() {
            i += 1;
        }
        let le = i;
        while matches!(self.at(i), b' ' | b'\t') {
            i += 1;
        }
        if le > ls && self.at(i) == b')' {
            let word = self.src[ls..le].to_ascii_lowercase();
            let kind = match &word[..] {
                b"int" | b"integer" => Some(Tok::IntCast),
                b"float" | b"double" => Some(Tok::DoubleCast),
                b"real" if self.trivia => Some(Tok::DoubleCast),
                b"real" => {
                    return Err(("The (real) cast has been removed, use (float) instead".to_string(), self.line));
                }
                b"string" | b"binary" => Some(Tok::StringCast),
                b"array" => Some(Tok::ArrayCast),
                b"object" => Some(Tok::ObjectCast),
                b"bool" | b"boolean" => Some(Tok::BoolCast),
                b"unset" => Some(Tok::UnsetCast),
                _ => None,
            };
            if let Some(kind) = kind {
                self.pos = i + 1;
                self.push(kind, s, i + 1);
                return Ok(true);
            }
        }
        self.brackets.push((b'(', self.line));
        self.pos = s + 1;
        self.push(Tok::LParen, s, s + 1);
        Ok(true)
    }

    /// End of `Foo\Bar\Baz` starting at a label.
    fn qualified_end(&self, i: usize) -> usize {
        let mut e = self.label_end(i);
        while self.at(e) == b'\\' && is_label_start(self.at(e + 1)) {
            e = self.label_end(e + 1);
        }
        e
    }

    fn lex_label(&mut self, s: usize, e: usize) -> LexResult {
        // Namespaced names are single tokens.
        if self.at(e) == b'\\' && is_label_start(self.at(e + 1)) {
            let qe = self.qualified_end(e + 1);
            let kind = if self.src[s..e].eq_ignore_ascii_case(b"namespace") {
                Tok::NameRelative
            } else {
                Tok::NameQualified
            };
            self.pos = qe;
            self.push(kind, s, qe);
            return Ok(true);
        }
        let mut kind = Tok::Ident;
        if e - s <= 15 {
            let mut buf = [0u8; 16];
            let lower = &mut buf[..e - s];
            lower.copy_from_slice(&self.src[s..e]);
            lower.make_ascii_lowercase();
            if let Some(k) = Tok::keyword(lower) {
                kind = k;
            } else if lower == b"enum" {
                // `enum` is a keyword only when a class-like name follows.
                let mut i = e;
                while matches!(self.at(i), b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                if i > e && is_label_start(self.at(i)) {
                    let we = self.label_end(i);
                    let w = &self.src[i..we];
                    if !w.eq_ignore_ascii_case(b"extends") && !w.eq_ignore_ascii_case(b"implements") {
                        kind = Tok::Enum;
                    }
                }
            }
        }
        let mut end = e;
        match kind {
            Tok::Yield => {
                // `yield from` is one token.
                let mut i = e;
                while matches!(self.at(i), b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                if i > e && self.starts_with_ci(i, b"from") && !is_label_char(self.at(i + 4)) {
                    kind = Tok::YieldFrom;
                    end = i + 4;
                }
            }
            _ => {}
        }
        let line = self.line;
        self.pos = end;
        self.push_multiline(kind, s, end, line);
        self.count_lines(e, end);
        Ok(true)
    }

    fn lex_number(&mut self) -> LexResult {
        let s = self.pos;
        let c = self.cur();
        let p1 = self.peek(1) | 0x20;
        if c == b'0' && (p1 == b'x' || p1 == b'b' || p1 == b'o') {
            let digit_ok = |d: u8| match p1 {
                b'x' => d.is_ascii_hexdigit(),
                b'b' => d == b'0' || d == b'1',
                _ => (b'0'..=b'7').contains(&d),
            };
            let mut i = s + 2;
            if !digit_ok(self.at(i)) {
                // `0x` alone: PHP lexes `0` then an identifier.
                self.pos = s + 1;
                self.push(Tok::LNumber, s, s + 1);
                return Ok(true);
            }
            loop {
                if digit_ok(self.at(i)) {
                    i += 1;
                } else if self.at(i) == b'_' && digit_ok(self.at(i + 1)) {
                    i += 2;
                } else {
                    break;
                }
            }
            self.pos = i;
            let kind = if parse_int_literal(&self.src[s..i]).is_some() { Tok::LNumber } else { Tok::DNumber };
            self.push(kind, s, i);
            return Ok(true);
        }
        let digits = |lx: &Self, mut i: usize| -> usize {
            if !lx.at(i).is_ascii_digit() {
                return i;
            }
            loop {
                if lx.at(i).is_ascii_digit() {
                    i += 1;
                } else if lx.at(i) == b'_' && lx.at(i + 1).is_ascii_digit() {
                    i += 2;
                } else {
                    return i;
                }
            }
        };
        let mut i = digits(self, s);
        let mut is_float = false;
        if self.at(i) == b'.' && (i > s || self.at(i + 1).is_ascii_digit()) {
            // `1.` is a float; `1..2` is `1.` `.2`.
            is_float = true;
            i = digits(self, i + 1);
        }
        if self.at(i) | 0x20 == b'e' {
            let mut j = i + 1;
            if self.at(j) == b'+' || self.at(j) == b'-' {
                j += 1;
            }
            if self.at(j).is_ascii_digit() {
                is_float = true;
                i = digits(self, j);
            }
        }
        self.pos = i;
        if is_float {
            self.push(Tok::DNumber, s, i);
            return Ok(true);
        }
        let text = &self.src[s..i];
        if text.len() > 1 && text[0] == b'0' {
            // Legacy octal: every digit must be octal.
            if !self.trivia && text.iter().any(|&d| d == b'8' || d == b'9') {
                return Err(("Invalid numeric literal".to_string(), self.line));
            }
        }
        // token_get_all: a legacy octal with an 8 or 9 is T_LNUMBER unless
        // its octal digits overflow (PHP's strtol stops at the bad digit).
        let bad_octal_fits = || {
            let mut v: i64 = 0;
            for &d in &text[1..] {
                match d {
                    b'0'..=b'7' => match v.checked_mul(8).and_then(|v| v.checked_add((d - b'0') as i64)) {
                        Some(n) => v = n,
                        None => return false,
                    },
                    b'_' => {}
                    _ => return true,
                }
            }
            true
        };
        let kind = if parse_int_literal(text).is_some() || (self.trivia && text.len() > 1 && text[0] == b'0' && text.iter().any(|&d| d == b'8' || d == b'9') && bad_octal_fits()) {
            Tok::LNumber
        } else {
            Tok::DNumber
        };
        self.push(kind, s, i);
        Ok(true)
    }

    fn lex_single_quoted(&mut self) -> LexResult {
        let s = self.pos;
        let line = self.line;
        let mut i = s + 1;
        loop {
            match self.src.get(i) {
                None => {
                    // PHP: unterminated '...' is T_ENCAPSED_AND_WHITESPACE up to the end
                    // (token_get_all's text includes the quote).
                    self.pos = self.src.len();
                    let from = if self.trivia { s } else { s + 1 };
                    self.push_multiline(Tok::EncapsedAndWhitespace, from, self.src.len(), line);
                    self.count_lines(s, self.src.len());
                    return Ok(true);
                }
                Some(b'\\') => i += 2,
                Some(b'\'') => break,
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        self.push_multiline(Tok::ConstString, s, i + 1, line);
        self.count_lines(s, i + 1);
        Ok(true)
    }

    /// Does `"...` starting at `s+1` contain interpolation? Returns the closing quote's index if not.
    fn lex_double_quote_start(&mut self) -> LexResult {
        let s = self.pos;
        let mut i = s + 1;
        loop {
            match self.src.get(i) {
                None => break,
                Some(b'\\') => i += 2,
                Some(b'"') => {
                    let line = self.line;
                    self.pos = i + 1;
                    self.push_multiline(Tok::ConstString, s, i + 1, line);
                    self.count_lines(s, i + 1);
                    return Ok(true);
                }
                Some(b'$') if is_label_start(self.at(i + 1)) || self.at(i + 1) == b'{' => break,
                Some(b'{') if self.at(i + 1) == b'$' => break,
                Some(_) => i += 1,
            }
        }
        self.pos = s + 1;
        self.push(Tok::DoubleQuote, s, s + 1);
        self.modes.push(Mode::DoubleQuotes);
        Ok(true)
    }

    /// Inside `"..."` or backticks: literal text, `$var...`, `${`, `{$`, or the closing quote.
    fn lex_string_body(&mut self, quote: u8) -> LexResult {
        if self.eof() {
            return Ok(false);
        }
        if self.cur() == quote {
            let s = self.pos;
            self.pos += 1;
            self.modes.pop();
            self.push(if quote == b'"' { Tok::DoubleQuote } else { Tok::Backtick }, s, s + 1);
            return Ok(true);
        }
        if self.lex_interpolation_start()? {
            return Ok(true);
        }
        let s = self.pos;
        let mut i = s;
        while i < self.src.len() {
            let c = self.src[i];
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == quote || self.is_interpolation_at(i) {
                break;
            }
            i += 1;
        }
        let i = i.min(self.src.len());
        let line = self.line;
        self.push_multiline(Tok::EncapsedAndWhitespace, s, i, line);
        self.count_lines(s, i);
        self.pos = i;
        Ok(true)
    }

    fn is_interpolation_at(&self, i: usize) -> bool {
        match self.at(i) {
            b'$' => is_label_start(self.at(i + 1)) || self.at(i + 1) == b'{',
            b'{' => self.at(i + 1) == b'$',
            _ => false,
        }
    }

    /// At `$name`, `${` or `{$` inside a string: lex it. Returns false if not there.
    fn lex_interpolation_start(&mut self) -> Result<bool, (String, u32)> {
        let s = self.pos;
        match (self.cur(), self.peek(1)) {
            (b'$', c) if is_label_start(c) => {
                let e = self.label_end(s + 1);
                self.pos = e;
                self.push(Tok::Variable, s, e);
                if self.at(e) == b'[' {
                    self.modes.push(Mode::VarOffset);
                } else if self.at(e) == b'-' && self.at(e + 1) == b'>' && is_label_start(self.at(e + 2)) {
                    self.push(Tok::ObjectOp, e, e + 2);
                    let pe = self.label_end(e + 2);
                    self.push(Tok::Ident, e + 2, pe);
                    self.pos = pe;
                } else if self.at(e) == b'?'
                    && self.at(e + 1) == b'-'
                    && self.at(e + 2) == b'>'
                    && is_label_start(self.at(e + 3))
                {
                    self.push(Tok::NullsafeObjectOp, e, e + 3);
                    let pe = self.label_end(e + 3);
                    self.push(Tok::Ident, e + 3, pe);
                    self.pos = pe;
                }
                Ok(true)
            }
            (b'$', b'{') => {
                self.pos = s + 2;
                self.push(Tok::DollarOpenCurlyBraces, s, s + 2);
                self.brackets.push((b'{', self.line));
                self.modes.push(Mode::LookingForVarname);
                Ok(true)
            }
            (b'{', b'$') => {
                self.pos = s + 1;
                self.push(Tok::CurlyOpen, s, s + 1);
                self.brackets.push((b'{', self.line));
                self.modes.push(Mode::ScriptInString);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Inside `"$a[` ... `]"`.
    fn lex_var_offset(&mut self) -> LexResult {
        let s = self.pos;
        let c = self.cur();
        match c {
            b'[' => {
                self.pos += 1;
                self.push(Tok::LBracket, s, s + 1);
            }
            b']' => {
                self.pos += 1;
                self.modes.pop();
                self.push(Tok::RBracket, s, s + 1);
            }
            b'-' => {
                self.pos += 1;
                self.push(Tok::Minus, s, s + 1);
            }
            b'0'..=b'9' if self.trivia => {
                // PHP's LNUM|HNUM|BNUM|ONUM: `12abc` is `12` then `abc`.
                let p1 = self.peek(1) | 0x20;
                let digit_ok = |d: u8| match p1 {
                    b'x' => d.is_ascii_hexdigit(),
                    b'b' => d == b'0' || d == b'1',
                    _ => (b'0'..=b'7').contains(&d),
                };
                let prefixed = c == b'0' && matches!(p1, b'x' | b'b' | b'o') && digit_ok(self.peek(2));
                let ok = |d: u8| if prefixed { digit_ok(d) } else { d.is_ascii_digit() };
                let mut e = if prefixed { s + 2 } else { s };
                loop {
                    if ok(self.at(e)) {
                        e += 1;
                    } else if self.at(e) == b'_' && ok(self.at(e + 1)) {
                        e += 2;
                    } else {
                        break;
                    }
                }
                self.pos = e;
                self.push(Tok::NumString, s, e);
            }
            b'0'..=b'9' => {
                let mut e = s;
                while is_label_char(self.at(e)) {
                    e += 1;
                }
                self.pos = e;
                self.push(Tok::NumString, s, e);
            }
            b'$' if is_label_start(self.peek(1)) => {
                let e = self.label_end(s + 1);
                self.pos = e;
                self.push(Tok::Variable, s, e);
            }
            c if is_label_start(c) => {
                let e = self.label_end(s);
                self.pos = e;
                self.push(Tok::Ident, s, e);
            }
            // token_get_all: input ends inside the offset; a NUL byte is
            // T_BAD_CHARACTER (PHP's `{ANY_CHAR}` rule of this state).
            0 if self.trivia && self.eof() => return Ok(false),
            0 if self.trivia => {
                self.pos += 1;
                self.push(Tok::BadCharacter, s, s + 1);
            }
            b' ' | b'\n' | b'\r' | b'\t' | b'\\' | b'\'' | b'#' | 0 => {
                // PHP: an empty T_ENCAPSED_AND_WHITESPACE, back to the string.
                self.modes.pop();
                self.push(Tok::EncapsedAndWhitespace, s, s);
            }
            _ => {
                // Any other single character is returned as itself.
                self.pos += 1;
                let k = match c {
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b';' => Tok::Semicolon,
                    b'"' => Tok::DoubleQuote,
                    _ => Tok::Tilde,
                };
                self.push(k, s, s + 1);
            }
        }
        Ok(true)
    }

    /// `<<<LABEL`, `<<<"LABEL"`, `<<<'LABEL'` followed by a newline.
    fn lex_heredoc_start(&mut self) -> LexResult {
        let s = self.pos;
        let mut i = s + 3;
        while matches!(self.at(i), b' ' | b'\t') {
            i += 1;
        }
        let q = self.at(i);
        let quoted = q == b'"' || q == b'\'';
        if quoted {
            i += 1;
        }
        if !is_label_start(self.at(i)) {
            // Not a heredoc: `<<` then `<`.
            self.pos = s + 2;
            self.push(Tok::Sl, s, s + 2);
            return Ok(true);
        }
        let ls = i;
        let le = self.label_end(i);
        i = le;
        if quoted {
            if self.at(i) != q {
                self.pos = s + 2;
                self.push(Tok::Sl, s, s + 2);
                return Ok(true);
            }
            i += 1;
        }
        let nl_end = match self.at(i) {
            b'\n' => i + 1,
            b'\r' if self.at(i + 1) == b'\n' => i + 2,
            b'\r' => i + 1,
            _ => {
                self.pos = s + 2;
                self.push(Tok::Sl, s, s + 2);
                return Ok(true);
            }
        };
        let line = self.line;
        // token_get_all's T_START_HEREDOC includes the newline.
        let end = if self.trivia { nl_end } else { i };
        self.push_multiline(Tok::StartHeredoc, s, end, line);
        self.line += 1;
        self.pos = nl_end;
        self.modes.push(Mode::Heredoc {
            label_start: ls as u32,
            label_end: le as u32,
            nowdoc: q == b'\'',
        });
        Ok(true)
    }

    /// If a closing label starts at line start `i`, the index after it.
    fn closing_label_at(&self, i: usize, ls: usize, le: usize) -> Option<usize> {
        let mut j = i;
        while matches!(self.at(j), b' ' | b'\t') {
            j += 1;
        }
        let label = &self.src[ls..le];
        // token_get_all: PHP's scanner wants a byte after the label (one
        // that ends the input is body text).
        if self.trivia && j + label.len() >= self.src.len() {
            return None;
        }
        if self.src.get(j..j + label.len()) == Some(label) && !is_label_char(self.at(j + label.len())) {
            Some(j + label.len())
        } else {
            None
        }
    }

    fn lex_heredoc_body(&mut self, ls: usize, le: usize, nowdoc: bool) -> LexResult {
        if self.eof() {
            return Ok(false);
        }
        // Is the current position at a line start (start of body or after a newline)?
        let at_line_start = |lx: &Self, i: usize| -> bool {
            i == 0 || lx.src.get(i - 1) == Some(&b'\n') || lx.src.get(i - 1) == Some(&b'\r') || {
                // just after the StartHeredoc token's newline
                false
            }
        };
        let s = self.pos;
        if at_line_start(self, s) {
            if let Some(e) = self.closing_label_at(s, ls, le) {
                self.finish_heredoc(s, e);
                return Ok(true);
            }
        }
        if !nowdoc && self.lex_interpolation_start()? {
            return Ok(true);
        }
        let mut i = s;
        let line = self.line;
        while i < self.src.len() {
            let c = self.src[i];
            if c == b'\n' || c == b'\r' {
                let mut nl = i + 1;
                if c == b'\r' && self.at(nl) == b'\n' {
                    nl += 1;
                }
                if let Some(e) = self.closing_label_at(nl, ls, le) {
                    // The newline before the closing label is not part of the
                    // body's value (it is of token_get_all's token).
                    let body_end = if self.trivia { nl } else { i };
                    if body_end > s {
                        self.push_multiline(Tok::EncapsedAndWhitespace, s, body_end, line);
                    }
                    self.count_lines(s, nl);
                    self.finish_heredoc(nl, e);
                    return Ok(true);
                }
                i = nl;
                continue;
            }
            if !nowdoc {
                // A backslash escapes the next byte, but not a newline: the
                // closing label may follow it (PHP's heredoc scanner).
                if c == b'\\' && !matches!(self.at(i + 1), b'\n' | b'\r') {
                    i += 2;
                    continue;
                }
                if self.is_interpolation_at(i) {
                    break;
                }
            }
            i += 1;
        }
        let i = i.min(self.src.len());
        if i == self.src.len() {
            // No closing label: PHP reports the unexpected end of file.
            self.push_multiline(Tok::EncapsedAndWhitespace, s, i, line);
            self.count_lines(s, i);
            self.pos = i;
            return Ok(false);
        }
        self.push_multiline(Tok::EncapsedAndWhitespace, s, i, line);
        self.count_lines(s, i);
        self.pos = i;
        Ok(true)
    }

    fn finish_heredoc(&mut self, s: usize, e: usize) {
        self.push(Tok::EndHeredoc, s, e);
        self.pos = e;
        self.modes.pop();
    }
}

/// Value of an integer literal (decimal, `0x`, `0o`, `0b`, legacy octal, `_`
/// separators); `None` if it overflows `i64` (PHP then makes it a float).
pub fn parse_int_literal(text: &[u8]) -> Option<i64> {
    let (radix, digits): (u32, &[u8]) = if text.len() > 1 && text[0] == b'0' {
        match text[1] | 0x20 {
            b'x' => (16, &text[2..]),
            b'b' => (2, &text[2..]),
            b'o' => (8, &text[2..]),
            _ => (8, &text[1..]),
        }
    } else {
        (10, text)
    };
    let mut v: i64 = 0;
    for &d in digits {
        if d == b'_' {
            continue;
        }
        let x = (d as char).to_digit(radix)? as i64;
        v = v.checked_mul(radix as i64)?.checked_add(x)?;
    }
    Some(v)
}

/// Value of a float literal, or of an integer literal that overflowed.
pub fn parse_float_literal(text: &[u8]) -> f64 {
    let clean: Vec<u8> = text.iter().copied().filter(|&c| c != b'_').collect();
    let hex = clean.len() > 1 && clean[0] == b'0' && clean[1] | 0x20 == b'x';
    if hex || (clean.len() > 1 && clean[0] == b'0' && !clean.contains(&b'.') && !clean.iter().any(|&c| c | 0x20 == b'e')) {
        let (radix, digits): (f64, &[u8]) = match clean[1] | 0x20 {
            b'x' => (16.0, &clean[2..]),
            b'b' => (2.0, &clean[2..]),
            b'o' => (8.0, &clean[2..]),
            _ => (8.0, &clean[1..]),
        };
        // Zend's zend_oct_strtod and zend_bin_strtod evaluate
        // `value * base + c - '0'` left to right in doubles: the character
        // code is added before '0' is taken off, and that rounding shows in
        // the last digits of overflowing literals. zend_hex_strtod adds the
        // digit's value.
        let mut v = 0.0f64;
        for &d in digits {
            let Some(x) = (d as char).to_digit(radix as u32) else { break };
            v = if radix == 16.0 { v * radix + x as f64 } else { v * radix + d as f64 - b'0' as f64 };
        }
        return v;
    }
    std::str::from_utf8(&clean).ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0)
}
