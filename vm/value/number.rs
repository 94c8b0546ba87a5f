//! Number formatting exactly as PHP 8.2 prints numbers.
//!
//! Floats: Rust's correctly rounded formatter supplies the digits (shortest
//! round-trip for `serialize_precision = -1`, N significant digits for
//! `precision = N`) and `layout` places them the way Zend's `zend_gcvt` does.
//! Nothing here allocates except pushing onto the caller's `Vec`.

use core::fmt::Write;

/// "00".."99": two digits per division.
static DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes the decimal form of `v` into `buf`, returning the used tail.
#[inline]
pub fn fmt_i64(v: i64, buf: &mut [u8; 20]) -> &[u8] {
    let start = 20 - i64_len(v);
    write_i64(v, &mut buf[start..]);
    &buf[start..]
}

/// Length of the decimal form of `v` (sign included).
#[inline]
pub fn i64_len(v: i64) -> usize {
    let digits = v.unsigned_abs().checked_ilog10().unwrap_or(0) as usize + 1;
    digits + (v < 0) as usize
}

/// Writes the decimal form of `v` into `out`, which is exactly
/// `i64_len(v)` bytes long: straight into a new string's buffer, so that no
/// stack buffer is copied (a copy right after byte stores also stalls on
/// store forwarding).
#[inline]
pub fn write_i64(v: i64, out: &mut [u8]) {
    let mut n = v.unsigned_abs();
    let mut i = out.len();
    while n >= 100 {
        let d = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        out[i] = DIGIT_PAIRS[d];
        out[i + 1] = DIGIT_PAIRS[d + 1];
    }
    if n >= 10 {
        let d = n as usize * 2;
        i -= 2;
        out[i] = DIGIT_PAIRS[d];
        out[i + 1] = DIGIT_PAIRS[d + 1];
    } else {
        i -= 1;
        out[i] = b'0' + n as u8;
    }
    if v < 0 {
        i -= 1;
        out[i] = b'-';
    }
    debug_assert_eq!(i, 0, "out must be exactly i64_len(v) long");
}

/// Appends the decimal form of `v`.
#[inline]
pub fn push_i64(v: i64, out: &mut Vec<u8>) {
    let mut buf = [0u8; 20];
    out.extend_from_slice(fmt_i64(v, &mut buf));
}

/// A fixed stack buffer for `core::fmt` output.
struct StackBuf {
    buf: [u8; 96],
    len: usize,
}

impl Write for StackBuf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let b = s.as_bytes();
        let end = self.len.checked_add(b.len()).ok_or(core::fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dst.copy_from_slice(b);
        self.len = end;
        Ok(())
    }
}

/// Significant digits (no leading/trailing zeros, at least one digit) and
/// the decimal point position, as `zend_dtoa` returns them.
struct Digits {
    buf: [u8; 48],
    len: usize,
    decpt: i32,
}

impl Digits {
    /// Parses Rust's `{:e}` output of a finite, non-negative value
    /// ("d.ddde-7", "1e100", "0e0").
    fn from_exp_format(s: &[u8]) -> Digits {
        let mut d = Digits { buf: [0; 48], len: 0, decpt: 1 };
        let epos = s.iter().position(|&c| c == b'e').unwrap_or(s.len());
        for &c in &s[..epos] {
            if c.is_ascii_digit() && d.len < d.buf.len() {
                d.buf[d.len] = c;
                d.len += 1;
            }
        }
        let mut exp: i32 = 0;
        let mut neg = false;
        for &c in s.get(epos + 1..).unwrap_or(&[]) {
            match c {
                b'-' => neg = true,
                b'0'..=b'9' => exp = exp * 10 + (c - b'0') as i32,
                _ => {}
            }
        }
        if neg {
            exp = -exp;
        }
        if d.len == 0 {
            // Not produced by Rust's formatter; keeps `layout` total.
            d.buf[0] = b'0';
            d.len = 1;
        }
        while d.len > 1 && d.buf[d.len - 1] == b'0' {
            d.len -= 1;
        }
        if d.len == 1 && d.buf[0] == b'0' {
            d.decpt = 1;
        } else {
            d.decpt = exp + 1;
        }
        d
    }

    fn digits(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

fn push_special(v: f64, out: &mut Vec<u8>) -> bool {
    if v.is_nan() {
        out.extend_from_slice(b"NAN");
        true
    } else if v.is_infinite() {
        out.extend_from_slice(if v < 0.0 { b"-INF" } else { b"INF" });
        true
    } else {
        false
    }
}

/// `zend_gcvt`'s layout of `digits` with point at `decpt`; `ndigit` is the
/// threshold above which exponential form is used.
fn layout(neg: bool, d: &Digits, ndigit: i32, out: &mut Vec<u8>) {
    let digits = d.digits();
    let decpt = d.decpt;
    if neg {
        out.push(b'-');
    }
    if if decpt < 0 { decpt < -3 } else { decpt > ndigit } {
        let mut e = decpt - 1;
        let esign = if e < 0 {
            e = -e;
            b'-'
        } else {
            b'+'
        };
        out.push(digits[0]);
        out.push(b'.');
        if digits.len() > 1 {
            out.extend_from_slice(&digits[1..]);
        } else {
            out.push(b'0');
        }
        out.push(b'E');
        out.push(esign);
        push_i64(e as i64, out);
    } else if decpt < 0 {
        out.extend_from_slice(b"0.");
        for _ in decpt..0 {
            out.push(b'0');
        }
        out.extend_from_slice(digits);
    } else {
        let dp = decpt as usize;
        for i in 0..dp {
            out.push(*digits.get(i).unwrap_or(&b'0'));
        }
        if digits.len() > dp {
            if dp == 0 {
                out.push(b'0');
            }
            out.push(b'.');
            out.extend_from_slice(&digits[dp..]);
        }
    }
}

/// `%.{precision}G` as PHP prints it (echo, string conversion with
/// `precision = 14`): `0.1 + 0.2` → `0.3`, `1e15` → `1.0E+15`, `-0.0` → `-0`.
pub fn fmt_precision(v: f64, precision: i32, out: &mut Vec<u8>) {
    if push_special(v, out) {
        return;
    }
    let prec = precision.clamp(1, 40);
    let mut sb = StackBuf { buf: [0; 96], len: 0 };
    // Correctly rounded to `prec` significant digits.
    let _ = write!(sb, "{:.*e}", (prec - 1) as usize, v.abs());
    let d = Digits::from_exp_format(&sb.buf[..sb.len]);
    layout(v.is_sign_negative(), &d, prec, out);
}

/// `serialize_precision = -1` (var_dump, var_export, json_encode): the
/// shortest digits that round-trip, laid out by `zend_gcvt` with 17 as the
/// exponential threshold: `0.1 + 0.2` → `0.30000000000000004`, `1e100` →
/// `1.0E+100`.
pub fn fmt_repr(v: f64, out: &mut Vec<u8>) {
    if push_special(v, out) {
        return;
    }
    let a = v.abs();
    let mut sb = StackBuf { buf: [0; 96], len: 0 };
    // Rust's `{:e}` gives the shortest round-trip digit count, but when two
    // strings of that length round-trip it may not pick the one `zend_dtoa`
    // picks (the closest to the exact value, ties to even). The correctly
    // rounded string of the same length is that one whenever it round-trips.
    let _ = write!(sb, "{:e}", a);
    let d = Digits::from_exp_format(&sb.buf[..sb.len]);
    if d.len > 1 {
        let mut sb2 = StackBuf { buf: [0; 96], len: 0 };
        let _ = write!(sb2, "{:.*e}", d.len - 1, a);
        let round_trips = core::str::from_utf8(&sb2.buf[..sb2.len])
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .map_or(false, |back| back == a);
        if round_trips {
            let d2 = Digits::from_exp_format(&sb2.buf[..sb2.len]);
            layout(v.is_sign_negative(), &d2, 17, out);
            return;
        }
    }
    layout(v.is_sign_negative(), &d, 17, out);
}

/// `var_export`'s float form: `fmt_repr` plus `.0` when the result looks like
/// an integer (`1.0`, `-0.0`, but `1.0E+25` and `INF` unchanged).
pub fn fmt_export(v: f64, out: &mut Vec<u8>) {
    let start = out.len();
    fmt_repr(v, out);
    if v.is_finite() && !out[start..].iter().any(|&c| c == b'.' || c == b'e' || c == b'E') {
        out.extend_from_slice(b".0");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p14(v: f64) -> String {
        let mut o = Vec::new();
        fmt_precision(v, 14, &mut o);
        String::from_utf8(o).unwrap()
    }
    fn repr(v: f64) -> String {
        let mut o = Vec::new();
        fmt_repr(v, &mut o);
        String::from_utf8(o).unwrap()
    }
    fn export(v: f64) -> String {
        let mut o = Vec::new();
        fmt_export(v, &mut o);
        String::from_utf8(o).unwrap()
    }

    #[test]
    fn fmt_i64_matches_std() {
        let mut b = [0u8; 20];
        let mut vals = vec![0i64, 1, -1, 9, 10, 11, 99, 100, 101, 999, 1000, i64::MAX, i64::MIN, i64::MIN + 1];
        let mut p = 1i64;
        for _ in 0..18 {
            p *= 10;
            vals.extend([p - 1, p, p + 1, -p, -p + 1, -p - 1]);
        }
        for v in (-5000..5000).chain(vals) {
            assert_eq!(fmt_i64(v, &mut b), v.to_string().as_bytes(), "{v}");
        }
    }

    #[test]
    fn integers() {
        let _leaks = crate::value::LeakCheck::new();
        let mut b = [0u8; 20];
        assert_eq!(fmt_i64(0, &mut b), b"0");
        assert_eq!(fmt_i64(-7, &mut b), b"-7");
        assert_eq!(fmt_i64(i64::MAX, &mut b), b"9223372036854775807");
        assert_eq!(fmt_i64(i64::MIN, &mut b), b"-9223372036854775808");
    }

    /// (value, echo, var_dump, var_export), recorded from php 8.2 -n:
    /// `foreach ([...] as $f) { echo $f; var_dump($f); var_export($f); }`
    const CASES: &[(f64, &str, &str, &str)] = &[
        (1e14, "1.0E+14", "100000000000000", "100000000000000.0"),
        (1e15, "1.0E+15", "1000000000000000", "1000000000000000.0"),
        (1e16, "1.0E+16", "10000000000000000", "10000000000000000.0"),
        (1e17, "1.0E+17", "1.0E+17", "1.0E+17"),
        (1.5e15, "1.5E+15", "1500000000000000", "1500000000000000.0"),
        (123456789012345.0, "1.2345678901234E+14", "123456789012345", "123456789012345.0"),
        (1234567890123456.0, "1.2345678901235E+15", "1234567890123456", "1234567890123456.0"),
        (12345678901234567.0, "1.2345678901235E+16", "12345678901234568", "12345678901234568.0"),
        (0.0001, "0.0001", "0.0001", "0.0001"),
        (0.00001, "1.0E-5", "1.0E-5", "1.0E-5"),
        (1.5e-5, "1.5E-5", "1.5E-5", "1.5E-5"),
        (0.1 + 0.2, "0.3", "0.30000000000000004", "0.30000000000000004"),
        (1e100, "1.0E+100", "1.0E+100", "1.0E+100"),
        (-0.0, "-0", "-0", "-0.0"),
        (0.0, "0", "0", "0.0"),
        (1.5e-7, "1.5E-7", "1.5E-7", "1.5E-7"),
        (1.0, "1", "1", "1.0"),
        (100.0, "100", "100", "100.0"),
        (1e20, "1.0E+20", "1.0E+20", "1.0E+20"),
        (1e21, "1.0E+21", "1.0E+21", "1.0E+21"),
        (0.1, "0.1", "0.1", "0.1"),
        (1.0 / 3.0, "0.33333333333333", "0.3333333333333333", "0.3333333333333333"),
        (2.5, "2.5", "2.5", "2.5"),
        (-1.5e300, "-1.5E+300", "-1.5E+300", "-1.5E+300"),
        (5e-324, "4.9406564584125E-324", "5.0E-324", "5.0E-324"),
        (1.7976931348623157e308, "1.7976931348623E+308", "1.7976931348623157E+308", "1.7976931348623157E+308"),
        (f64::INFINITY, "INF", "INF", "INF"),
        (f64::NEG_INFINITY, "-INF", "-INF", "-INF"),
        (f64::NAN, "NAN", "NAN", "NAN"),
        (9007199254740993.0, "9.007199254741E+15", "9007199254740992", "9007199254740992.0"),
        (123456789.12345678, "123456789.12346", "123456789.12345678", "123456789.12345678"),
        (1e22, "1.0E+22", "1.0E+22", "1.0E+22"),
        (999999999999999.9, "1.0E+15", "999999999999999.9", "999999999999999.9"),
        (0.00012345, "0.00012345", "0.00012345", "0.00012345"),
        (-2.5, "-2.5", "-2.5", "-2.5"),
        (0.5, "0.5", "0.5", "0.5"),
        (-0.001, "-0.001", "-0.001", "-0.001"),
        (99999999999999.0, "99999999999999", "99999999999999", "99999999999999.0"),
        (3.14159265358979, "3.1415926535898", "3.14159265358979", "3.14159265358979"),
        (1e-10, "1.0E-10", "1.0E-10", "1.0E-10"),
        (123e-20, "1.23E-18", "1.23E-18", "1.23E-18"),
        (0.000123456789012345678, "0.00012345678901235", "0.00012345678901234567", "0.00012345678901234567"),
        (9.2233720368547758e18, "9.2233720368548E+18", "9.223372036854776E+18", "9.223372036854776E+18"),
        (-1e-300, "-1.0E-300", "-1.0E-300", "-1.0E-300"),
        (1.25, "1.25", "1.25", "1.25"),
        (0.30000000000000004 * 3.0, "0.9", "0.9000000000000001", "0.9000000000000001"),
        (7.0E-10, "7.0E-10", "7.0E-10", "7.0E-10"),
        (1.005, "1.005", "1.005", "1.005"),
        (2.675, "2.675", "2.675", "2.675"),
        (0.045, "0.045", "0.045", "0.045"),
        (1e15 + 0.3, "1.0E+15", "1000000000000000.2", "1000000000000000.2"),
        (4.35, "4.35", "4.35", "4.35"),
        (1234.5678, "1234.5678", "1234.5678", "1234.5678"),
        (0.1 + 0.7, "0.8", "0.7999999999999999", "0.7999999999999999"),
        (12345678901234.5, "12345678901234", "12345678901234.5", "12345678901234.5"),
        (12345678901235.5, "12345678901236", "12345678901235.5", "12345678901235.5"),
        (-123456.0, "-123456", "-123456", "-123456.0"),
    ];

    #[test]
    fn floats_match_php() {
        let _leaks = crate::value::LeakCheck::new();
        for &(v, echo, dump, exp) in CASES {
            assert_eq!(p14(v), echo, "echo {v:e}");
            assert_eq!(repr(v), dump, "var_dump {v:e}");
            assert_eq!(export(v), exp, "var_export {v:e}");
        }
    }

    #[test]
    fn other_precisions() {
        let _leaks = crate::value::LeakCheck::new();
        // php -n -d precision=N -r 'echo 1/3;'
        let mut o = Vec::new();
        fmt_precision(1.0 / 3.0, 17, &mut o);
        assert_eq!(o, b"0.33333333333333331");
        o.clear();
        fmt_precision(2.5, 1, &mut o);
        assert_eq!(o, b"2");
        o.clear();
        fmt_precision(1234.0, 2, &mut o);
        assert_eq!(o, b"1.2E+3");
    }
}
