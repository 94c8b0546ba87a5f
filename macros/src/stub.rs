//! PHP stub signatures, as php-src's `*.stub.php` files write them:
//! `function str_pad(string $string, int $length, string $pad_string = " ", int $pad_type = STR_PAD_RIGHT): string`,
//! or for a method `ArrayObject::offsetGet(mixed $key): mixed`.

#[derive(Debug, Clone, PartialEq)]
pub struct Stub {
    /// The class, for a method.
    pub class: Option<String>,
    pub name: String,
    pub params: Vec<Param>,
    /// The declared return type, as written (`None`: none declared).
    pub ret: Option<String>,
    /// `static` (methods).
    pub is_static: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The declared type as written (`None`: none, i.e. mixed).
    pub ty: Option<String>,
    pub by_ref: bool,
    pub variadic: bool,
    pub name: String,
    /// The default as PHP source (`" "`, `STR_PAD_RIGHT`, `null`, `[]`).
    pub default: Option<String>,
}

/// What a declared type accepts, for choosing the argument conversion.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Int,
    Float,
    /// `int|float`
    Number,
    Str,
    Bool,
    Array,
    Object,
    /// A class or interface name.
    Class(String),
    Callable,
    /// `mixed`, no type, or a union the body inspects itself (the wrapper
    /// checks the value's kind against the union first).
    Mixed,
}

impl Param {
    /// The type without `null`, whether `null` is accepted, and the kind.
    pub fn kind(&self) -> (Kind, bool) {
        let Some(ty) = &self.ty else { return (Kind::Mixed, true) };
        let (ty, mut nullable) = match ty.strip_prefix('?') {
            Some(t) => (t.to_string(), true),
            None => (ty.clone(), false),
        };
        let parts: Vec<String> = ty
            .split('|')
            .filter(|p| {
                let null = p.eq_ignore_ascii_case("null");
                nullable |= null;
                !null
            })
            .map(|p| p.to_ascii_lowercase())
            .collect();
        let kind = match parts.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["int"] => Kind::Int,
            ["float"] => Kind::Float,
            ["int", "float"] | ["float", "int"] => Kind::Number,
            ["string"] => Kind::Str,
            ["bool"] => Kind::Bool,
            ["array"] => Kind::Array,
            ["object"] => Kind::Object,
            ["callable"] => Kind::Callable,
            ["mixed"] => {
                nullable = true;
                Kind::Mixed
            }
            [one] if !matches!(one, "iterable" | "true" | "false" | "static" | "self") => {
                Kind::Class(ty.split('|').find(|p| !p.eq_ignore_ascii_case("null")).unwrap_or_default().trim_start_matches('\\').to_string())
            }
            _ => Kind::Mixed,
        };
        (kind, nullable)
    }
}

pub fn parse(src: &str) -> Result<Stub, String> {
    let mut p = Parser { s: src.as_bytes(), i: 0 };
    p.parse()
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{}` at offset {}", c as char, self.i))
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_' || self.s[self.i] == b'\\') {
            self.i += 1;
        }
        if start == self.i {
            return Err(format!("expected a name at offset {}", self.i));
        }
        Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// A type: names joined by `|` or `&`, optionally `?`-prefixed, with
    /// DNF parentheses kept as written.
    fn ty(&mut self) -> Result<String, String> {
        self.ws();
        let start = self.i;
        loop {
            match self.s.get(self.i) {
                Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'\\' | b'?' | b'|' | b'(' | b')') => self.i += 1,
                // `&` inside a type is an intersection; before `$` or `...` it marks a reference.
                Some(b'&') if matches!(self.s.get(self.i + 1), Some(c) if c.is_ascii_alphabetic() || *c == b'\\' || *c == b'(') => self.i += 1,
                _ => break,
            }
        }
        Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// Raw PHP source up to the next `,` or `)` outside brackets and quotes.
    fn default(&mut self) -> Result<String, String> {
        self.ws();
        let start = self.i;
        let mut depth = 0i32;
        while let Some(&c) = self.s.get(self.i) {
            match c {
                b'"' | b'\'' => {
                    self.i += 1;
                    while let Some(&d) = self.s.get(self.i) {
                        self.i += 1;
                        if d == b'\\' {
                            self.i += 1;
                        } else if d == c {
                            break;
                        }
                    }
                    continue;
                }
                b'(' | b'[' => depth += 1,
                b')' | b']' if depth > 0 => depth -= 1,
                b',' | b')' if depth == 0 => break,
                _ => {}
            }
            self.i += 1;
        }
        let d = String::from_utf8_lossy(&self.s[start..self.i]).trim().to_string();
        if d.is_empty() {
            return Err(format!("empty default at offset {start}"));
        }
        Ok(d)
    }

    fn parse(&mut self) -> Result<Stub, String> {
        let mut is_static = false;
        let (class, name) = loop {
            let word = self.ident()?;
            match word.to_ascii_lowercase().as_str() {
                "public" | "protected" | "private" | "final" | "abstract" | "function" => continue,
                "static" => {
                    is_static = true;
                    continue;
                }
                _ => {}
            }
            if self.s[self.i..].starts_with(b"::") {
                self.i += 2;
                break (Some(word), self.ident()?);
            }
            break (None, word);
        };
        self.expect(b'(')?;
        let mut params = Vec::new();
        if !self.eat(b')') {
            loop {
                let ty = self.ty()?;
                let by_ref = self.eat(b'&');
                self.ws();
                let variadic = self.s[self.i..].starts_with(b"...");
                if variadic {
                    self.i += 3;
                }
                self.expect(b'$')?;
                let pname = self.ident()?;
                let default = if self.eat(b'=') { Some(self.default()?) } else { None };
                params.push(Param { ty: (!ty.is_empty()).then_some(ty), by_ref, variadic, name: pname, default });
                if self.eat(b')') {
                    break;
                }
                self.expect(b',')?;
            }
        }
        let ret = if self.eat(b':') { Some(self.ty()?) } else { None };
        self.eat(b'{');
        self.eat(b'}');
        self.eat(b';');
        if self.peek().is_some() {
            return Err(format!("unexpected text at offset {}", self.i));
        }
        for (i, p) in params.iter().enumerate() {
            if p.variadic && i + 1 != params.len() {
                return Err(format!("variadic ${} must be the last parameter", p.name));
            }
        }
        Ok(Stub { class, name, params, ret, is_static })
    }
}

/// A PHP string literal's bytes (single- or double-quoted, with PHP's
/// escapes), or `None` when `src` is not one.
pub fn string_literal(src: &str) -> Option<Vec<u8>> {
    let b = src.as_bytes();
    if b.len() < 2 || b[0] != b[b.len() - 1] || !matches!(b[0], b'"' | b'\'') {
        return None;
    }
    let q = b[0];
    let body = &b[1..b.len() - 1];
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != b'\\' || i + 1 == body.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let e = body[i + 1];
        i += 2;
        if q == b'\'' {
            match e {
                b'\\' | b'\'' => out.push(e),
                _ => out.extend_from_slice(&[b'\\', e]),
            }
            continue;
        }
        match e {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(0x0b),
            b'f' => out.push(0x0c),
            b'e' => out.push(0x1b),
            b'0'..=b'7' => {
                let mut v = (e - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < body.len() && (b'0'..=b'7').contains(&body[i]) {
                    v = v * 8 + (body[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            b'x' if i < body.len() && body[i].is_ascii_hexdigit() => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 2 && i < body.len() && body[i].is_ascii_hexdigit() {
                    v = v * 16 + (body[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            b'\\' | b'"' | b'$' => out.push(e),
            _ => out.extend_from_slice(&[b'\\', e]),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_function_stub() {
        let s = parse(r#"function str_pad(string $string, int $length, string $pad_string = " ", int $pad_type = STR_PAD_RIGHT): string"#).unwrap();
        assert_eq!(s.name, "str_pad");
        assert_eq!(s.class, None);
        assert_eq!(s.ret.as_deref(), Some("string"));
        assert_eq!(s.params.len(), 4);
        assert_eq!(s.params[2].default.as_deref(), Some("\" \""));
        assert_eq!(s.params[3].default.as_deref(), Some("STR_PAD_RIGHT"));
        assert_eq!(s.params[1].kind(), (Kind::Int, false));
    }

    #[test]
    fn parses_references_variadics_unions_and_methods() {
        let s = parse("function array_push(array &$array, mixed ...$values): int").unwrap();
        assert!(s.params[0].by_ref && !s.params[0].variadic);
        assert!(s.params[1].variadic && !s.params[1].by_ref);
        let s = parse("public static function Foo\\Bar::make(?int $a = null, array|string $b = [], A&B $c, &...$rest): static").unwrap();
        assert_eq!(s.class.as_deref(), Some("Foo\\Bar"));
        assert!(s.is_static);
        assert_eq!(s.params[0].kind(), (Kind::Int, true));
        assert_eq!(s.params[1].kind(), (Kind::Mixed, false));
        assert_eq!(s.params[2].ty.as_deref(), Some("A&B"));
        assert!(s.params[3].by_ref && s.params[3].variadic && s.params[3].ty.is_none());
        assert_eq!(parse("function f(int|float $n, string|null $s, Closure $c)").unwrap().params.iter().map(|p| p.kind()).collect::<Vec<_>>(),
            vec![(Kind::Number, false), (Kind::Str, true), (Kind::Class("Closure".into()), false)]);
    }

    #[test]
    fn defaults_keep_brackets_and_quotes() {
        let s = parse(r#"function f(string $a = ",)", array $b = [1, 2], int $c = E_ALL & ~E_NOTICE)"#).unwrap();
        assert_eq!(s.params[0].default.as_deref(), Some("\",)\""));
        assert_eq!(s.params[1].default.as_deref(), Some("[1, 2]"));
        assert_eq!(s.params[2].default.as_deref(), Some("E_ALL & ~E_NOTICE"));
    }

    #[test]
    fn rejects_malformed_stubs() {
        assert!(parse("function f(int $a").is_err());
        assert!(parse("function f(...$a, $b)").is_err());
        assert!(parse("function f(int a)").is_err());
        assert!(parse("function f() junk").is_err());
    }

    #[test]
    fn string_literals_unescape_as_php() {
        assert_eq!(string_literal(r#"" \n\r\t\v\0""#).unwrap(), b" \n\r\t\x0b\0");
        assert_eq!(string_literal(r#""\x41\101\$\q""#).unwrap(), b"AA$\\q");
        assert_eq!(string_literal(r"'a\'\n'").unwrap(), b"a'\\n");
        assert_eq!(string_literal("STR_PAD_RIGHT"), None);
    }
}
