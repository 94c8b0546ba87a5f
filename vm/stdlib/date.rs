//! ext/date basics in UTC (the default time zone of `php -n`): date,
//! gmdate, mktime, gmmktime, checkdate, time zone get/set, and a few
//! runtime facts (php_sapi_name, phpversion, memory_get_usage, …).

use super::{args, ret_str};
use crate::exec::{Thrown, Vm};
use crate::value::{Zval, IS_NULL};

type R = Result<(), Thrown>;

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// (year, month, day) of a day number.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if is_leap(y) {
                29
            } else {
                28
            }
        }
    }
}

const DAYS: [&str; 7] = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"];
const MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

fn weeks_in_year(y: i64) -> i64 {
    let p = |y: i64| (y + y.div_euclid(4) - y.div_euclid(100) + y.div_euclid(400)).rem_euclid(7);
    if p(y) == 4 || p(y - 1) == 3 {
        53
    } else {
        52
    }
}

/// ISO-8601 (year, week): `doy` 0-based, `wday` 1 = Monday .. 7 = Sunday.
fn iso_week(y: i64, doy: i64, wday: i64) -> (i64, i64) {
    let w = (doy + 1 - wday + 10).div_euclid(7);
    if w < 1 {
        return (y - 1, weeks_in_year(y - 1));
    }
    if w > weeks_in_year(y) {
        return (y + 1, 1);
    }
    (y, w)
}

/// PHP's `date()` format for a UTC timestamp.
pub fn format_date(fmt: &[u8], ts: i64) -> Vec<u8> {
    let days = ts.div_euclid(86400);
    let secs = ts.rem_euclid(86400);
    let (y, m, d) = civil_from_days(days);
    let (h, mi, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let dow = days.rem_euclid(7) as usize; // 0 = Thursday
    let wday_iso = ((dow + 3) % 7) as i64 + 1; // 1 = Monday
    let doy = days - days_from_civil(y, 1, 1);
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        let piece: String = match c {
            b'd' => format!("{:02}", d),
            b'D' => DAYS[dow][..3].to_string(),
            b'j' => d.to_string(),
            b'l' => DAYS[dow].to_string(),
            b'N' => wday_iso.to_string(),
            b'S' => match d {
                1 | 21 | 31 => "st",
                2 | 22 => "nd",
                3 | 23 => "rd",
                _ => "th",
            }
            .to_string(),
            b'w' => (wday_iso % 7).to_string(),
            b'z' => doy.to_string(),
            b'W' => format!("{:02}", iso_week(y, doy, wday_iso).1),
            b'o' => iso_week(y, doy, wday_iso).0.to_string(),
            b'F' => MONTHS[(m - 1) as usize].to_string(),
            b'm' => format!("{:02}", m),
            b'M' => MONTHS[(m - 1) as usize][..3].to_string(),
            b'n' => m.to_string(),
            b't' => days_in_month(y, m).to_string(),
            b'L' => (is_leap(y) as i32).to_string(),
            b'Y' => y.to_string(),
            b'y' => format!("{:02}", y.rem_euclid(100)),
            b'a' => (if h < 12 { "am" } else { "pm" }).to_string(),
            b'A' => (if h < 12 { "AM" } else { "PM" }).to_string(),
            b'g' => (if h % 12 == 0 { 12 } else { h % 12 }).to_string(),
            b'G' => h.to_string(),
            b'h' => format!("{:02}", if h % 12 == 0 { 12 } else { h % 12 }),
            b'H' => format!("{:02}", h),
            b'i' => format!("{:02}", mi),
            b's' => format!("{:02}", s),
            b'u' => "000000".to_string(),
            b'v' => "000".to_string(),
            b'e' | b'T' => "UTC".to_string(),
            b'I' => "0".to_string(),
            b'O' => "+0000".to_string(),
            b'P' => "+00:00".to_string(),
            b'p' => "Z".to_string(),
            b'Z' => "0".to_string(),
            b'c' => format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}+00:00", y, m, d, h, mi, s),
            b'r' => format!("{}, {:02} {} {:04} {:02}:{:02}:{:02} +0000", &DAYS[dow][..3], d, &MONTHS[(m - 1) as usize][..3], y, h, mi, s),
            b'U' => ts.to_string(),
            b'B' => (((ts + 3600).rem_euclid(86400)) * 10 / 864).to_string(),
            b'\\' => {
                if i < fmt.len() {
                    out.push(fmt[i]);
                    i += 1;
                }
                continue;
            }
            other => {
                out.push(other);
                continue;
            }
        };
        out.extend_from_slice(piece.as_bytes());
    }
    out
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

fn date_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, name, a, 1, 2)?;
    let f = args::string(vm, name, 1, "format", &a[0])?;
    let ts = match a.get(1) {
        Some(v) if v.deref().kind() != IS_NULL => args::long(vm, name, 2, "timestamp", v)?,
        _ => now(),
    };
    *r = ret_str(&format_date(&f, ts));
    Ok(())
}

pub fn date(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    date_impl(vm, "date", a, r)
}

pub fn gmdate(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    date_impl(vm, "gmdate", a, r)
}

fn mktime_impl(vm: &mut Vm, name: &str, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, name, a, 0, 6)?;
    let t = now();
    let (y0, m0, d0) = civil_from_days(t.div_euclid(86400));
    let secs = t.rem_euclid(86400);
    let defaults = [secs / 3600, secs / 60 % 60, secs % 60, m0, d0, y0];
    let names = ["hour", "minute", "second", "month", "day", "year"];
    let mut v = defaults;
    for i in 0..6 {
        if let Some(x) = a.get(i) {
            if x.deref().kind() != IS_NULL {
                v[i] = args::long(vm, name, i + 1, names[i], x)?;
            }
        }
    }
    let [h, mi, s, mo, d, mut y] = v;
    if a.len() >= 6 {
        if (0..70).contains(&y) {
            y += 2000;
        } else if (70..=100).contains(&y) {
            y += 1900;
        }
    }
    // Months and days overflow into the next units, as PHP does.
    let mo0 = mo - 1;
    let y = y + mo0.div_euclid(12);
    let mo = mo0.rem_euclid(12) + 1;
    let days = days_from_civil(y, mo, 1) + d - 1;
    *r = Zval::long(days * 86400 + h * 3600 + mi * 60 + s);
    Ok(())
}

pub fn mktime(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    mktime_impl(vm, "mktime", a, r)
}

pub fn gmmktime(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    mktime_impl(vm, "gmmktime", a, r)
}

pub fn checkdate(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "checkdate", a, 3, 3)?;
    let m = args::long(vm, "checkdate", 1, "month", &a[0])?;
    let d = args::long(vm, "checkdate", 2, "day", &a[1])?;
    let y = args::long(vm, "checkdate", 3, "year", &a[2])?;
    *r = Zval::bool((1..=12).contains(&m) && (1..=32767).contains(&y) && d >= 1 && d <= days_in_month(y, m));
    Ok(())
}

pub fn date_default_timezone_get(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "date_default_timezone_get", a, 0, 0)?;
    *r = ret_str(b"UTC");
    Ok(())
}

pub fn date_default_timezone_set(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "date_default_timezone_set", a, 1, 1)?;
    let tz = args::string(vm, "date_default_timezone_set", 1, "timezoneId", &a[0])?;
    if tz.eq_ignore_ascii_case(b"UTC") {
        *r = Zval::TRUE;
        return Ok(());
    }
    vm.notice(&format!("date_default_timezone_set(): Timezone ID '{}' is invalid", String::from_utf8_lossy(&tz)));
    *r = Zval::FALSE;
    Ok(())
}

pub fn php_sapi_name(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "php_sapi_name", a, 0, 0)?;
    *r = ret_str(b"cli");
    Ok(())
}

pub fn phpversion(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "phpversion", a, 0, 1)?;
    *r = if a.is_empty() { ret_str(b"8.2.36") } else { Zval::FALSE };
    Ok(())
}

pub fn memory_get_usage(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "memory_get_usage", a, 0, 1)?;
    *r = Zval::long(2 * 1024 * 1024);
    Ok(())
}

pub fn gc_collect_cycles(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "gc_collect_cycles", a, 0, 0)?;
    *r = Zval::long(0);
    Ok(())
}

pub fn usleep(vm: &mut Vm, a: &[Zval], _r: &mut Zval) -> R {
    args::count(vm, "usleep", a, 1, 1)?;
    let us = args::long(vm, "usleep", 1, "microseconds", &a[0])?;
    if us < 0 {
        return Err(vm.throw_error("ValueError", "usleep(): Argument #1 ($microseconds) must be greater than or equal to 0"));
    }
    std::thread::sleep(std::time::Duration::from_micros(us as u64));
    Ok(())
}

pub fn sleep(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "sleep", a, 1, 1)?;
    let s = args::long(vm, "sleep", 1, "seconds", &a[0])?;
    if s < 0 {
        return Err(vm.throw_error("ValueError", "sleep(): Argument #1 ($seconds) must be greater than or equal to 0"));
    }
    std::thread::sleep(std::time::Duration::from_secs(s as u64));
    *r = Zval::long(0);
    Ok(())
}

/// `version_compare`'s canonical form and part ordering.
fn canon_version(v: &[u8]) -> Vec<Vec<u8>> {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    let kind = |c: u8| if c.is_ascii_digit() { 1 } else if c == b'.' || c == b'-' || c == b'_' || c == b'+' { 0 } else { 2 };
    let mut last = 0;
    for &c in v {
        let k = kind(c);
        if k == 0 {
            if !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            last = 0;
            continue;
        }
        if !cur.is_empty() && k != last {
            parts.push(std::mem::take(&mut cur));
        }
        cur.push(c);
        last = k;
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    parts
}

fn special_order(p: &[u8]) -> i32 {
    let forms: [(&[u8], i32); 9] = [(b"dev", 0), (b"alpha", 1), (b"a", 1), (b"beta", 2), (b"b", 2), (b"RC", 3), (b"rc", 3), (b"#", 4), (b"pl", 5)];
    for (f, o) in forms {
        if p.starts_with(f) {
            return o;
        }
    }
    if p == b"p" {
        return 5;
    }
    -6
}

fn compare_versions(a: &[u8], b: &[u8]) -> i32 {
    let (pa, pb) = (canon_version(a), canon_version(b));
    let n = pa.len().max(pb.len());
    for i in 0..n {
        let (x, y) = (pa.get(i), pb.get(i));
        let c = match (x, y) {
            (Some(x), Some(y)) => {
                let (dx, dy) = (x[0].is_ascii_digit(), y[0].is_ascii_digit());
                match (dx, dy) {
                    (true, true) => {
                        let (nx, ny): (i64, i64) = (String::from_utf8_lossy(x).parse().unwrap_or(0), String::from_utf8_lossy(y).parse().unwrap_or(0));
                        nx.cmp(&ny) as i32
                    }
                    (false, false) => special_order(x).cmp(&special_order(y)) as i32,
                    (true, false) => special_order(b"#").cmp(&special_order(y)) as i32,
                    (false, true) => special_order(x).cmp(&special_order(b"#")) as i32,
                }
            }
            (Some(x), None) => {
                if x[0].is_ascii_digit() {
                    1
                } else {
                    special_order(x).cmp(&special_order(b"#")) as i32
                }
            }
            (None, Some(y)) => {
                if y[0].is_ascii_digit() {
                    -1
                } else {
                    special_order(b"#").cmp(&special_order(y)) as i32
                }
            }
            (None, None) => 0,
        };
        if c != 0 {
            return c;
        }
    }
    0
}

pub fn version_compare(vm: &mut Vm, a: &[Zval], r: &mut Zval) -> R {
    args::count(vm, "version_compare", a, 2, 3)?;
    let x = args::string(vm, "version_compare", 1, "version1", &a[0])?;
    let y = args::string(vm, "version_compare", 2, "version2", &a[1])?;
    let c = compare_versions(&x, &y);
    let Some(op) = a.get(2).filter(|v| v.deref().kind() != IS_NULL) else {
        *r = Zval::long(c as i64);
        return Ok(());
    };
    let op = args::string(vm, "version_compare", 3, "operator", op)?;
    *r = Zval::bool(match op.as_slice() {
        b"<" | b"lt" => c < 0,
        b"<=" | b"le" => c <= 0,
        b">" | b"gt" => c > 0,
        b">=" | b"ge" => c >= 0,
        b"==" | b"eq" => c == 0,
        b"!=" | b"<>" | b"ne" => c != 0,
        _ => return Err(vm.throw_error("ValueError", "version_compare(): Argument #3 ($operator) must be a valid comparison operator")),
    });
    Ok(())
}
