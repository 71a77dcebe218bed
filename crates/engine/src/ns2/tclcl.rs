//! Parsing and printing of bound variables the way ns-2's tclcl does it.
//!
//! A Tcl script sets a C++ variable with `$obj set var value`; tclcl converts
//! the string with `strtol(s, 0, 0)` for integers, `atof` for reals, its own
//! unit-aware parsers for bandwidths and times, and a one-character test for
//! booleans (tclcl-1.20 Tcl.cc, `InstVar*::set`).  Reading a variable prints
//! reals with `%.17g`, integers with `%d`, and traced doubles with `%g`.
//! Bad strings are not errors in ns-2 (they parse as 0); the compatibility
//! layer warns about them before they reach here.

use crate::ns2::printf as fmt;

/// C `strtol(s, NULL, 0)` truncated to `int` as tclcl stores it.
pub fn parse_int(s: &str) -> i32 {
    parse_long(s) as i32
}

/// C `strtol(s, NULL, 0)` (base auto-detected: `0x` hex, leading `0` octal).
pub fn parse_long(s: &str) -> i64 {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && (b[i] as char).is_ascii_whitespace() {
        i += 1;
    }
    let mut neg = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        neg = b[i] == b'-';
        i += 1;
    }
    let mut base = 10u32;
    if i + 1 < b.len() && b[i] == b'0' && (b[i + 1] == b'x' || b[i + 1] == b'X') {
        // "0x" followed by a hex digit; otherwise the "0" alone is the number.
        if i + 2 < b.len() && (b[i + 2] as char).is_ascii_hexdigit() {
            base = 16;
            i += 2;
        }
    } else if i < b.len() && b[i] == b'0' {
        base = 8;
    }
    let mut v: i64 = 0;
    let mut overflow = false;
    while i < b.len() {
        let d = match (b[i] as char).to_digit(base) {
            Some(d) => d as i64,
            None => break,
        };
        match v.checked_mul(base as i64).and_then(|x| x.checked_add(d)) {
            Some(x) => v = x,
            None => overflow = true,
        }
        i += 1;
    }
    if overflow {
        return if neg { i64::MIN } else { i64::MAX };
    }
    if neg {
        -v
    } else {
        v
    }
}

/// C `atof` / `strtod`: the longest numeric prefix, 0.0 when there is none.
pub fn parse_real(s: &str) -> f64 {
    let t = s.trim_start();
    let n = float_prefix_len(t);
    if n == 0 {
        return 0.0;
    }
    let p = &t[..n];
    let lower = p.to_ascii_lowercase();
    let body = lower.trim_start_matches(['+', '-']);
    let neg = lower.starts_with('-');
    if body.starts_with("inf") {
        return if neg { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    if body.starts_with("nan") {
        return f64::NAN;
    }
    if body.starts_with("0x") {
        return parse_hex_float(body).map(|v| if neg { -v } else { v }).unwrap_or(0.0);
    }
    p.parse::<f64>().unwrap_or(0.0)
}

fn parse_hex_float(body: &str) -> Option<f64> {
    let h = &body[2..];
    let (mant, exp) = match h.find('p') {
        Some(i) => (&h[..i], h[i + 1..].parse::<i32>().ok()?),
        None => (h, 0),
    };
    let (ip, fp) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    let mut v = 0f64;
    for c in ip.chars() {
        v = v * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in fp.chars() {
        v += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(v * 2f64.powi(exp))
}

/// Length of the longest prefix of `t` that `strtod` would consume.
fn float_prefix_len(t: &str) -> usize {
    let b = t.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let rest = t[i..].to_ascii_lowercase();
    if rest.starts_with("infinity") {
        return i + 8;
    }
    if rest.starts_with("inf") || rest.starts_with("nan") {
        return i + 3;
    }
    if rest.starts_with("0x") {
        let mut j = i + 2;
        let mut digits = 0;
        while j < b.len() && (b[j] as char).is_ascii_hexdigit() {
            j += 1;
            digits += 1;
        }
        if j < b.len() && b[j] == b'.' {
            j += 1;
            while j < b.len() && (b[j] as char).is_ascii_hexdigit() {
                j += 1;
                digits += 1;
            }
        }
        if digits == 0 {
            return i + 1; // just the "0"
        }
        return exponent_end(b, j, b'p');
    }
    let mut j = i;
    let mut digits = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
        digits += 1;
    }
    if j < b.len() && b[j] == b'.' {
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return 0;
    }
    exponent_end(b, j, b'e')
}

/// Where a number ending at `j` ends with its exponent, if one follows:
/// `mark` (either case), an optional sign, at least one decimal digit
/// (`e` for decimal numbers, `p` for hexadecimal ones).
fn exponent_end(b: &[u8], j: usize, mark: u8) -> usize {
    if j < b.len() && b[j].to_ascii_lowercase() == mark {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        let s = k;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        if k > s {
            return k;
        }
    }
    j
}

/// tclcl `InstVarBool::set` as a truth value: a leading digit means `atoi`
/// (an `int`: "4294967296" is 0), `t`/`T` means 1, anything else
/// (including "false", "yes", "on") means 0.
pub fn parse_bool(s: &str) -> bool {
    parse_bool_int(s) != 0
}

/// Tcl 8.6's `Tcl_GetBoolean` on a C string (what C++ commands parse
/// switches with): exactly `0` or `1`, or `yes`/`no`/`true`/`false`/`on`/`off`
/// in any case and any unambiguous abbreviation; anything else (other
/// numbers, surrounding spaces) is an error.
pub fn tcl_get_boolean(s: &str) -> Result<bool, String> {
    let l = s.to_ascii_lowercase();
    let is = |word: &str, min: usize| l.len() >= min && word.starts_with(l.as_str());
    if s == "1" || is("yes", 1) || is("true", 1) || is("on", 2) {
        Ok(true)
    } else if s == "0" || is("no", 1) || is("false", 1) || is("off", 2) {
        Ok(false)
    } else {
        Err(format!("expected boolean value but got \"{s}\""))
    }
}

/// `InstVarBool::set` keeping the value as tclcl stores it (an `int`: "3"
/// reads back as 3, "true" as 1).
pub fn parse_bool_int(s: &str) -> i32 {
    match s.as_bytes().first() {
        Some(c) if c.is_ascii_digit() => parse_long_decimal(s) as i32,
        Some(b't') | Some(b'T') => 1,
        _ => 0,
    }
}

/// C `atoi`.
pub fn parse_long_decimal(s: &str) -> i64 {
    let t = s.trim_start();
    let b = t.as_bytes();
    let mut i = 0;
    let mut neg = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        neg = b[i] == b'-';
        i += 1;
    }
    let mut v: i64 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        v = v.wrapping_mul(10).wrapping_add((b[i] - b'0') as i64);
        i += 1;
    }
    if neg {
        -v
    } else {
        v
    }
}

/// C `atoi` truncated to int.
pub fn atoi(s: &str) -> i32 {
    parse_long_decimal(s) as i32
}

/// The numeric prefix tclcl's unit parsers copy: digits, `e`, `+`, `-`, `.`.
fn unit_split(s: &str) -> (f64, &str) {
    let n = s
        .bytes()
        .take_while(|c| c.is_ascii_digit() || matches!(c, b'e' | b'+' | b'-' | b'.'))
        .count();
    (parse_real(&s[..n]), &s[n..])
}

/// tclcl `InstVar::bw_atof`: `10Mb`, `800Kb`, `1.5Mbps`, `2MB` (bytes: x8).
pub fn parse_bw(s: &str) -> f64 {
    let (mut v, rest) = unit_split(s);
    let r = rest.as_bytes();
    match r.first() {
        Some(b'k') | Some(b'K') => v *= 1e3,
        Some(b'm') | Some(b'M') => v *= 1e6,
        Some(b'g') | Some(b'G') => v *= 1e9,
        Some(b't') | Some(b'T') => v *= 1e12,
        Some(b'p') | Some(b'P') => v *= 1e15,
        _ => {}
    }
    if !r.is_empty() && r.len() > 1 && r[1] == b'B' {
        v *= 8.0;
    }
    v
}

/// tclcl `InstVar::time_atof`: `10ms`, `5us`, `3ns`, `1ps`, plain seconds.
pub fn parse_time(s: &str) -> f64 {
    let (mut v, rest) = unit_split(s);
    match rest.as_bytes().first() {
        Some(b'm') => v *= 1e-3,
        Some(b'u') => v *= 1e-6,
        Some(b'n') => v *= 1e-9,
        Some(b'p') => v *= 1e-12,
        _ => {}
    }
    v
}

/// How a bound variable is parsed and printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarType {
    Int,
    Bool,
    Real,
    Bandwidth,
    Time,
    /// A traced integer (`TracedInt`): printed with `%d`.
    TracedInt,
    /// A traced double (`TracedDouble`): printed with `%g`.
    TracedReal,
}

/// Print a real the way tclcl's `InstVarReal::snget` does (`%.17g`).
pub fn fmt_real(v: f64) -> String {
    fmt::format_g(v, 17)
}

/// Print a traced double (`TracedDouble::value`, `%g`).
pub fn fmt_traced_real(v: f64) -> String {
    fmt::format_g(v, 6)
}

/// Print an integer (`%d`).
/// A bool as Tcl reads it back from a bound variable: "1" or "0".
pub fn fmt_bool(v: bool) -> String {
    if v { "1" } else { "0" }.to_string()
}

pub fn fmt_int(v: i64) -> String {
    v.to_string()
}

/// Does `s` look like a number tclcl would parse without silently dropping
/// characters?  Used by the compatibility layer to warn about typos.
pub fn looks_numeric(s: &str, ty: VarType) -> bool {
    let t = s.trim();
    if t.is_empty() {
        return false;
    }
    match ty {
        VarType::Bool => {
            matches!(t, "0" | "1" | "true" | "false" | "TRUE" | "FALSE" | "True" | "False")
                || t.parse::<i64>().is_ok()
        }
        VarType::Int | VarType::TracedInt => {
            let n = float_prefix_len(t);
            n == t.len() || (t.starts_with("0x") && i64::from_str_radix(&t[2..], 16).is_ok())
        }
        VarType::Real | VarType::TracedReal => float_prefix_len(t) == t.len(),
        VarType::Bandwidth => {
            let n = t
                .bytes()
                .take_while(|c| c.is_ascii_digit() || matches!(c, b'e' | b'+' | b'-' | b'.'))
                .count();
            let unit = &t[n..];
            n > 0
                && float_prefix_len(&t[..n]) == n
                && matches!(
                    unit,
                    "" | "b" | "bps" | "kb" | "Kb" | "kbps" | "Kbps" | "Mb" | "mb" | "Mbps" | "Gb"
                        | "gb" | "Gbps" | "KB" | "kB" | "MB" | "GB" | "k" | "K" | "M" | "G"
                        | "Tb" | "TB"
                )
        }
        VarType::Time => {
            let n = t
                .bytes()
                .take_while(|c| c.is_ascii_digit() || matches!(c, b'e' | b'+' | b'-' | b'.'))
                .count();
            let unit = &t[n..];
            n > 0
                && float_prefix_len(&t[..n]) == n
                && matches!(unit, "" | "s" | "ms" | "us" | "ns" | "ps" | "sec" | "msec")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_bools_are_tclcls_int() {
        assert_eq!(parse_bool_int("3"), 3);
        assert_eq!(parse_bool_int("true"), 1);
        assert_eq!(parse_bool_int("yes"), 0);
        assert!(parse_bool("1") && parse_bool("T") && parse_bool("4294967297"));
        // atoi's int: 2^32 is 0, as ns-2 reads it back
        assert!(!parse_bool("4294967296") && !parse_bool("on") && !parse_bool(""));
    }

    #[test]
    fn tcl_booleans() {
        // As libtcl 8.6's Tcl_GetBoolean answers for these strings.
        for t in ["ON", "on", "1", "yes", "Y", "true", "T", "tr"] {
            assert_eq!(tcl_get_boolean(t), Ok(true), "{t}");
        }
        for f in ["OFF", "of", "0", "no", "n", "false", "F", "NO"] {
            assert_eq!(tcl_get_boolean(f), Ok(false), "{f}");
        }
        for bad in ["o", "", "maybe", "onn", "2", "0.0", "1.5", "0x1", " 1", "1 ", "yes ", "+1", "00", "01", "true1"] {
            assert!(tcl_get_boolean(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strtol_auto_base() {
        assert_eq!(parse_int("20"), 20);
        assert_eq!(parse_int(" -7"), -7);
        assert_eq!(parse_int("0x10"), 16);
        assert_eq!(parse_int("010"), 8);
        assert_eq!(parse_int("1.5"), 1);
        assert_eq!(parse_int("true"), 0);
        assert_eq!(parse_int("0xffffffff"), -1, "long to int truncation");
    }

    #[test]
    fn atof_prefixes() {
        assert_eq!(parse_real("0.5"), 0.5);
        assert_eq!(parse_real("1e-3x"), 1e-3);
        assert_eq!(parse_real("abc"), 0.0);
        assert_eq!(parse_real(" 2.5ms"), 2.5);
        assert_eq!(parse_real("1e"), 1.0);
        assert_eq!(parse_real("-.25"), -0.25);
        assert!(parse_real("inf") > 1e308);
    }

    #[test]
    fn bool_is_first_character_test() {
        assert!(parse_bool("true"));
        assert!(parse_bool("T"));
        assert!(parse_bool("1"));
        assert!(parse_bool("2"));
        assert!(!parse_bool("false"));
        assert!(!parse_bool("0"));
        assert!(!parse_bool("yes"), "tclcl treats 'yes' as false");
    }

    #[test]
    fn bandwidth_units_multiply_like_tclcl() {
        assert_eq!(parse_bw("10Mb"), 10.0 * 1e6);
        assert_eq!(parse_bw("800Kb"), 800.0 * 1e3);
        assert_eq!(parse_bw("1.5Mbps"), 1.5 * 1e6);
        assert_eq!(parse_bw("2MB"), 2.0 * 1e6 * 8.0);
        assert_eq!(parse_bw("1000000"), 1e6);
        assert_eq!(parse_bw("0.8Mb"), 0.8 * 1e6);
    }

    #[test]
    fn time_units_multiply_like_tclcl() {
        assert_eq!(parse_time("10ms"), 10.0 * 1e-3);
        assert_eq!(parse_time("3ms"), 3.0 * 1e-3);
        assert_eq!(parse_time("5us"), 5.0 * 1e-6);
        assert_eq!(parse_time("0.1"), 0.1);
        assert_eq!(parse_time("2s"), 2.0);
    }

    #[test]
    fn numeric_checks_for_warnings() {
        assert!(looks_numeric("10Mb", VarType::Bandwidth));
        assert!(!looks_numeric("10Xb", VarType::Bandwidth));
        assert!(looks_numeric("10ms", VarType::Time));
        assert!(!looks_numeric("ten", VarType::Int));
        assert!(looks_numeric("0x1f", VarType::Int));
    }
}
