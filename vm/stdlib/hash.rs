//! Digests (md5, sha1, hash()) and encodings (base64, urlencode).

use super::{args, ret_str};
use crate::exec::{Thrown, Vm};
use crate::value::Zval;

type R = Result<(), Thrown>;

fn md5_digest(input: &[u8]) -> [u8; 16] {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16,
        23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: Vec<u32> = (0..64).map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32).collect();
    let (mut a0, mut b0, mut c0, mut d0) = (0x67452301u32, 0xefcdab89u32, 0x98badcfeu32, 0x10325476u32);
    let mut msg = input.to_vec();
    let bits = (input.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_le_bytes());
    for chunk in msg.chunks(64) {
        let m: Vec<u32> = chunk.chunks(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
        let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f2 = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f2.rotate_left(S[i]));
        }
        a0 = a0.wrapping_add(a);
        b0 = b0.wrapping_add(b);
        c0 = c0.wrapping_add(c);
        d0 = d0.wrapping_add(d);
    }
    let mut out = [0u8; 16];
    for (i, v) in [a0, b0, c0, d0].iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    out
}

fn pad_be(input: &[u8]) -> Vec<u8> {
    let mut msg = input.to_vec();
    let bits = (input.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    msg
}

fn sha1_digest(input: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    for chunk in pad_be(input).chunks(64) {
        let mut w = [0u32; 80];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([chunk[4 * i], chunk[4 * i + 1], chunk[4 * i + 2], chunk[4 * i + 3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let (mut a, mut b, mut c, mut d, mut e) = (h[0], h[1], h[2], h[3], h[4]);
        for (i, &wi) in w.iter().enumerate() {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A827999),
                1 => (b ^ c ^ d, 0x6ED9EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
                _ => (b ^ c ^ d, 0xCA62C1D6u32),
            };
            let t = a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(v);
        }
    }
    let mut out = [0u8; 20];
    for (i, v) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&v.to_be_bytes());
    }
    out
}

fn sha256_digest(input: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
        0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
        0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];
    let mut h: [u32; 8] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    for chunk in pad_be(input).chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([chunk[4 * i], chunk[4 * i + 1], chunk[4 * i + 2], chunk[4 * i + 3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7].wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [t1.wrapping_add(t2), v[0], v[1], v[2], v[3].wrapping_add(t1), v[4], v[5], v[6]];
        }
        for (x, y) in h.iter_mut().zip(v) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, v) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&v.to_be_bytes());
    }
    out
}

fn crc32b(s: &[u8]) -> u32 {
    super::string::crc32_of(s)
}

fn hex(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len() * 2);
    for c in b {
        out.extend_from_slice(format!("{:02x}", c).as_bytes());
    }
    out
}

fn digest_fn(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval, f: fn(&[u8]) -> Vec<u8>) -> R {
    args::count(vm, name, a, 1, 2)?;
    let s = args::string(vm, name, 1, "string", &a[0])?;
    let binary = match a.get(1) {
        Some(v) => args::boolean(vm, name, 2, "binary", v)?,
        None => false,
    };
    let d = f(&s);
    *r = ret_str(&if binary { d } else { hex(&d) });
    Ok(())
}

pub fn md5(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    digest_fn(vm, "md5", a, r, |s| md5_digest(s).to_vec())
}

pub fn sha1(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    digest_fn(vm, "sha1", a, r, |s| sha1_digest(s).to_vec())
}

pub fn hash(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "hash", a, 2, 4)?;
    let algo = args::string(vm, "hash", 1, "algo", &a[0])?.to_ascii_lowercase();
    let s = args::string(vm, "hash", 2, "data", &a[1])?;
    let binary = match a.get(2) {
        Some(v) => args::boolean(vm, "hash", 3, "binary", v)?,
        None => false,
    };
    let d: Vec<u8> = match algo.as_slice() {
        b"md5" => md5_digest(&s).to_vec(),
        b"sha1" => sha1_digest(&s).to_vec(),
        b"sha256" => sha256_digest(&s).to_vec(),
        b"crc32b" => crc32b(&s).to_be_bytes().to_vec(),
        _ => {
            let msg = "hash(): Argument #1 ($algo) must be a valid hashing algorithm";
            return Err(vm.throw_error("ValueError", msg));
        }
    };
    *r = ret_str(&if binary { d } else { hex(&d) });
    Ok(())
}

pub fn hash_algos(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "hash_algos", a, 0, 0)?;
    let arr = crate::value::ZArray::new();
    for n in ["md5", "sha1", "sha256", "crc32b"] {
        // SAFETY: `arr` is new and unshared.
        unsafe { (*arr).append(ret_str(n.as_bytes())) };
    }
    *r = Zval::array(arr);
    Ok(())
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64_encode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "base64_encode", a, 1, 1)?;
    let s = args::string(vm, "base64_encode", 1, "string", &a[0])?;
    let mut out = Vec::with_capacity((s.len() + 2) / 3 * 4);
    for c in s.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        out.push(B64[(n >> 18) as usize & 63]);
        out.push(B64[(n >> 12) as usize & 63]);
        out.push(if c.len() > 1 { B64[(n >> 6) as usize & 63] } else { b'=' });
        out.push(if c.len() > 2 { B64[n as usize & 63] } else { b'=' });
    }
    *r = ret_str(&out);
    Ok(())
}

pub fn base64_decode(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "base64_decode", a, 1, 2)?;
    let s = args::string(vm, "base64_decode", 1, "string", &a[0])?;
    let strict = match a.get(1) {
        Some(v) => args::boolean(vm, "base64_decode", 2, "strict", v)?,
        None => false,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut pad = 0;
    for &c in &s {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            _ => {
                if strict && !c.is_ascii_whitespace() {
                    *r = Zval::FALSE;
                    return Ok(());
                }
                continue;
            }
        };
        if strict && pad > 0 {
            *r = Zval::FALSE;
            return Ok(());
        }
        acc = acc << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if strict && (bits >= 6 || pad > 2) {
        *r = Zval::FALSE;
        return Ok(());
    }
    *r = ret_str(&out);
    Ok(())
}

fn url_encode(s: &[u8], raw: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'.' || (raw && c == b'~') {
            out.push(c);
        } else if c == b' ' && !raw {
            out.push(b'+');
        } else {
            out.extend_from_slice(format!("%{:02X}", c).as_bytes());
        }
    }
    out
}

fn url_decode(s: &[u8], raw: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'+' && !raw {
            out.push(b' ');
        } else if c == b'%' && i + 2 < s.len() && s[i + 1].is_ascii_hexdigit() && s[i + 2].is_ascii_hexdigit() {
            let h = (s[i + 1] as char).to_digit(16).unwrap_or(0) * 16 + (s[i + 2] as char).to_digit(16).unwrap_or(0);
            out.push(h as u8);
            i += 2;
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

macro_rules! url_fn {
    ($fn:ident, $name:literal, $f:expr) => {
        pub fn $fn(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
            args::count(vm, $name, a, 1, 1)?;
            let s = args::string(vm, $name, 1, "string", &a[0])?;
            *r = ret_str(&$f(&s));
            Ok(())
        }
    };
}

url_fn!(urlencode, "urlencode", |s| url_encode(s, false));
url_fn!(rawurlencode, "rawurlencode", |s| url_encode(s, true));
url_fn!(urldecode, "urldecode", |s| url_decode(s, false));
url_fn!(rawurldecode, "rawurldecode", |s| url_decode(s, true));

pub fn uniqid(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "uniqid", a, 0, 2)?;
    let prefix = match a.first() {
        Some(v) => args::string(vm, "uniqid", 1, "prefix", v)?,
        None => Vec::new(),
    };
    let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut out = prefix;
    out.extend_from_slice(format!("{:08x}{:05x}", d.as_secs(), d.subsec_micros()).as_bytes());
    *r = ret_str(&out);
    Ok(())
}

/// `parse_str($string, &$result)`: a query string into nested arrays, as
/// PHP's `php_default_treat_data` + `php_register_variable_ex` do (`a[]`
/// appends, `a[k][j]` nests, `.` and ` ` in the base name become `_`).
use crate::value::ZArray;

pub fn parse_str(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> Result<(), Thrown> {
    super::args::count(vm, "parse_str", a, 2, 2)?;
    let s = super::args::string(vm, "parse_str", 1, "string", &a[0])?;
    let out = ZArray::new();
    for pair in s.split(|&c| c == b'&') {
        if pair.is_empty() {
            continue;
        }
        let (k, v) = match pair.iter().position(|&c| c == b'=') {
            Some(i) => (&pair[..i], &pair[i + 1..]),
            None => (pair, &b""[..]),
        };
        let key = url_decode(k, false);
        let val = url_decode(v, false);
        // SAFETY: `out` is a new array owned here.
        unsafe { register(&mut *out, &key, Zval::string(crate::value::ZString::new(&val))) };
    }
    super::set_ref(&a[1], Zval::array(out));
    Ok(())
}

/// Stores `v` under a `base[k1][k2]…` name.
unsafe fn register(out: &mut ZArray, name: &[u8], v: Zval) {
    let name = match name.iter().position(|&c| c != b' ') {
        Some(i) => &name[i..],
        None => {
            v.ptr_dtor();
            return;
        }
    };
    let (base, mut rest) = match name.iter().position(|&c| c == b'[') {
        Some(i) if name[i..].contains(&b']') => (&name[..i], &name[i..]),
        _ => (name, &b""[..]),
    };
    let mut base: Vec<u8> = base.iter().map(|&c| if c == b'.' || c == b' ' { b'_' } else { c }).collect();
    if rest.is_empty() {
        // An unmatched `[` also becomes `_` (only the first).
        if let Some(i) = base.iter().position(|&c| c == b'[') {
            base[i] = b'_';
        }
    }
    if base.is_empty() {
        v.ptr_dtor();
        return;
    }
    let mut keys: Vec<Option<Vec<u8>>> = vec![Some(base)];
    while rest.first() == Some(&b'[') {
        let Some(end) = rest.iter().position(|&c| c == b']') else { break };
        let k = &rest[1..end];
        keys.push(if k.is_empty() { None } else { Some(k.to_vec()) });
        rest = &rest[end + 1..];
    }
    let mut cur: *mut ZArray = out;
    let last = keys.len() - 1;
    for (i, k) in keys.iter().enumerate() {
        let slot: *mut Zval = match k {
            None => match (*cur).append(Zval::NULL) {
                Some(p) => p,
                None => {
                    v.ptr_dtor();
                    return;
                }
            },
            Some(k) => {
                let ks = crate::value::ZString::new(k);
                let (p, _) = (*cur).lookup(&crate::value::Key::normalize(ks));
                Zval::string(ks).ptr_dtor();
                p
            }
        };
        if i == last {
            let old = *slot;
            *slot = v;
            old.ptr_dtor();
            return;
        }
        if !(*slot).is_array() {
            let old = *slot;
            *slot = Zval::array(ZArray::new());
            old.ptr_dtor();
        }
        cur = ZArray::separate(slot);
    }
}
