//! C `printf`-compatible number formatting with glibc semantics.
//!
//! ns-2 writes its traces with C format strings (`"%c %.15g %d ..."`,
//! `"%-8.5f %-2d ..."`) and hands doubles to Tcl with `%.17g` / `%g`.  To
//! reproduce its output byte for byte we need exactly what glibc's `printf`
//! prints, including:
//!
//! * correct rounding of the *exact* binary value, with ties (which only
//!   occur when the binary value is exactly halfway in decimal, e.g. `0.125`
//!   printed with `%.2f`) going to the even digit, as glibc does under the
//!   default round-to-nearest mode;
//! * `%g`'s choice between fixed and exponential style (exponent `X` of the
//!   value rounded to `P` significant digits; fixed iff `P > X >= -4`) and
//!   its removal of trailing zeros;
//! * exponents with at least two digits (`1e+05`, `1e-07`, `1e+300`);
//! * `inf`, `-inf`, `nan`, `-nan` (glibc prints the sign bit of a NaN) and
//!   `-0`;
//! * the flags `-`, `+`, space, `#`, `0`, field width and precision.
//!
//! All `push_*` functions append to a caller-supplied `Vec<u8>` and never
//! allocate on the heap themselves: when the vector already has enough spare
//! capacity, no allocation happens at all.  Digit generation is delegated to
//! Rust's `core::fmt` float formatting (`{:.N}` and `{:.Ne}`), which is exact
//! (it prints the exact binary value, correctly rounded, ties to even — the
//! same rule glibc applies); the text is written straight into the output
//! vector and rearranged in place into C's layout.
//!
//! Every behaviour here was checked against glibc's `printf` with the vectors
//! in `crates/engine/testdata/fmt/` (see `tests/fmt_vectors.rs`).

use core::fmt::Write as _;

/// Conversion flags, width and precision of one C conversion specification
/// (`%[flags][width][.precision]conv`), with the meaning C99 7.19.6.1 and
/// glibc give them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    /// `-`: left-justify within the field (pad with spaces on the right).
    pub left: bool,
    /// `+`: always print a sign for signed conversions.
    pub plus: bool,
    /// space: print a space where a `+` would go (ignored if `plus`).
    pub space: bool,
    /// `#`: alternative form (`0x` prefix, leading `0` for octal, keep the
    /// decimal point and, for `%g`, trailing zeros).
    pub alt: bool,
    /// `0`: pad numbers with zeros after the sign/prefix instead of spaces
    /// (ignored with `-`, for integers with an explicit precision, and for
    /// `inf`/`nan`, as glibc does).
    pub zero: bool,
    /// Minimum field width.
    pub width: usize,
    /// Precision; `None` means the conversion's default (6 for floats, 1
    /// for integers, unlimited for strings).
    pub precision: Option<usize>,
}

impl Spec {
    /// A spec with only a precision set (e.g. `%.15g`).
    pub const fn prec(precision: usize) -> Spec {
        Spec {
            left: false,
            plus: false,
            space: false,
            alt: false,
            zero: false,
            width: 0,
            precision: Some(precision),
        }
    }

    /// A spec with width, optional precision and the `-` flag (e.g. `%-8.5f`).
    pub const fn width_prec(width: usize, precision: Option<usize>, left: bool) -> Spec {
        Spec {
            left,
            plus: false,
            space: false,
            alt: false,
            zero: false,
            width,
            precision,
        }
    }
}

/// Adapter so `core::fmt` can write straight into the output vector.
struct VecWriter<'a>(&'a mut Vec<u8>);

impl core::fmt::Write for VecWriter<'_> {
    #[inline]
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Inserts `count` copies of `byte` at `pos`, shifting the tail right.
/// Allocation-free when `out` has spare capacity.
fn insert_fill(out: &mut Vec<u8>, pos: usize, byte: u8, count: usize) {
    if count == 0 {
        return;
    }
    let old_len = out.len();
    out.resize(old_len + count, byte);
    out.copy_within(pos..old_len, pos + count);
    for b in &mut out[pos..pos + count] {
        *b = byte;
    }
}

/// Pads the field that starts at `start` (and whose sign/prefix ends at
/// `digits_start`) to `spec.width`, the way C does: spaces on the right with
/// `-`, zeros between sign/prefix and digits with `0` (when `zero_ok`), and
/// spaces on the left otherwise.
fn pad_field(out: &mut Vec<u8>, start: usize, digits_start: usize, spec: &Spec, zero_ok: bool) {
    let len = out.len() - start;
    if len >= spec.width {
        return;
    }
    let fill = spec.width - len;
    if spec.left {
        out.resize(out.len() + fill, b' ');
    } else if spec.zero && zero_ok {
        insert_fill(out, digits_start, b'0', fill);
    } else {
        insert_fill(out, start, b' ', fill);
    }
}

/// Writes the exponent suffix C style: `e`/`E`, sign, at least two digits.
fn push_exponent(out: &mut Vec<u8>, exp: i32, upper: bool) {
    out.push(if upper { b'E' } else { b'e' });
    out.push(if exp < 0 { b'-' } else { b'+' });
    let mut e = exp.unsigned_abs();
    let mut buf = [0u8; 10];
    let mut n = 0;
    while e > 0 || n < 2 {
        buf[n] = b'0' + (e % 10) as u8;
        e /= 10;
        n += 1;
    }
    for i in (0..n).rev() {
        out.push(buf[i]);
    }
}

/// Formats `a` (finite, non-negative, or -0.0 handled by the caller) in
/// Rust's `{:.ne}` style, then splits off the exponent: the vector ends with
/// `d[.ddd]` and the decimal exponent is returned.
fn push_sci_digits(out: &mut Vec<u8>, a: f64, digits_after_point: usize) -> i32 {
    let start = out.len();
    let _ = write!(VecWriter(out), "{:.*e}", digits_after_point, a);
    // Rust writes e.g. "1.2345e-7" or "3e5"; find the 'e' from the end.
    let mut epos = out.len();
    while epos > start {
        epos -= 1;
        if out[epos] == b'e' {
            break;
        }
    }
    let mut exp: i32 = 0;
    let mut neg = false;
    for &c in &out[epos + 1..] {
        if c == b'-' {
            neg = true;
        } else {
            exp = exp * 10 + i32::from(c - b'0');
        }
    }
    out.truncate(epos);
    if neg {
        -exp
    } else {
        exp
    }
}

/// For `%#g`: given the rounded digits `1.000…` with exponent `p`, tells
/// whether the exact value `a` is below `10^p`, i.e. has exactly `p` integer
/// digits, so the exponent came from a rounding carry.  The check writes the
/// integer part of `a` past the end of `out` and removes it again.
fn glibc_alt_g_carry(out: &mut Vec<u8>, digits_start: usize, a: f64, p: usize) -> bool {
    let digits = &out[digits_start..];
    if digits.first() != Some(&b'1') || digits[2..].iter().any(|&c| c != b'0') {
        return false;
    }
    let end = out.len();
    let _ = write!(VecWriter(out), "{:.0}", a.trunc());
    let int_digits = out.len() - end;
    out.truncate(end);
    int_digits == p
}

/// Removes trailing zeros after a decimal point, and the point itself if
/// nothing follows it (the `%g` rule), in the bytes after `from`.
fn strip_trailing_zeros(out: &mut Vec<u8>, from: usize) {
    if !out[from..].contains(&b'.') {
        return;
    }
    while out.last() == Some(&b'0') {
        out.pop();
    }
    if out.last() == Some(&b'.') {
        out.pop();
    }
}

/// Appends the sign character a C float conversion prints, if any.
fn push_sign(out: &mut Vec<u8>, negative: bool, spec: &Spec) {
    if negative {
        out.push(b'-');
    } else if spec.plus {
        out.push(b'+');
    } else if spec.space {
        out.push(b' ');
    }
}

/// C `printf` floating-point conversion (`conv` one of `f F e E g G`) of `x`
/// with `spec`, appended to `out` — exactly as glibc prints it.
///
/// `inf`/`nan` are lower case for `f e g` and upper case for `F E G`; a NaN
/// with its sign bit set prints as `-nan` (glibc behaviour).
///
/// # Panics
/// If `conv` is not one of `f F e E g G`.
pub fn push_float(out: &mut Vec<u8>, x: f64, conv: u8, spec: &Spec) {
    let upper = matches!(conv, b'F' | b'E' | b'G');
    let start = out.len();
    let negative = x.is_sign_negative();
    push_sign(out, negative, spec);
    let digits_start = out.len();
    if !x.is_finite() {
        let word: &[u8] = match (x.is_nan(), upper) {
            (true, false) => b"nan",
            (true, true) => b"NAN",
            (false, false) => b"inf",
            (false, true) => b"INF",
        };
        out.extend_from_slice(word);
        pad_field(out, start, digits_start, spec, false);
        return;
    }
    let a = x.abs();
    match conv {
        b'f' | b'F' => {
            let p = spec.precision.unwrap_or(6);
            let _ = write!(VecWriter(out), "{:.*}", p, a);
            if p == 0 && spec.alt {
                out.push(b'.');
            }
        }
        b'e' | b'E' => {
            let p = spec.precision.unwrap_or(6);
            let exp = push_sci_digits(out, a, p);
            if p == 0 && spec.alt {
                out.push(b'.');
            }
            push_exponent(out, exp, upper);
        }
        b'g' | b'G' => {
            let p = match spec.precision {
                None => 6,
                Some(0) => 1,
                Some(p) => p,
            };
            // Round to p significant digits; this also yields the exponent X
            // that decides the style (C99 7.19.6.1p8).
            let exp = push_sci_digits(out, a, p - 1);
            if exp < -4 || exp >= p as i32 {
                // Exponential style with precision p - 1.
                if spec.alt {
                    if p == 1 {
                        out.push(b'.');
                    } else if exp == p as i32 && glibc_alt_g_carry(out, digits_start, a, p) {
                        // glibc quirk: the value had p integer digits (so
                        // fixed style with no fraction digits was chosen)
                        // and rounding carried into a (p+1)-th digit; glibc
                        // then switches to exponential style but keeps the
                        // zero fraction digits of the fixed form:
                        // printf("%#.3g", 999.96) gives "1.e+03", not
                        // "1.00e+03".  Only visible with '#'.
                        out.truncate(digits_start + 2);
                    }
                } else {
                    strip_trailing_zeros(out, digits_start);
                }
                push_exponent(out, exp, upper);
            } else if exp >= 0 {
                // Fixed style with precision p - 1 - X: the same p digits,
                // with the decimal point moved right by X places.
                let x = exp as usize;
                if p > 1 {
                    // out[digits_start..] = d '.' d1 d2 ... d(p-1)
                    out[digits_start + 1..digits_start + 2 + x].rotate_left(1);
                    if x == p - 1 {
                        // The point ended up last.
                        if !spec.alt {
                            out.pop();
                        }
                    }
                } else if spec.alt {
                    out.push(b'.');
                }
                if !spec.alt {
                    strip_trailing_zeros(out, digits_start);
                }
            } else {
                // -4 <= X < 0: "0." then (-X - 1) zeros then the p digits.
                let lead = (-exp) as usize; // "0" + "." + (lead - 1) zeros
                if p > 1 {
                    // Drop the point after the first digit.
                    out.copy_within(digits_start + 2.., digits_start + 1);
                    out.pop();
                }
                insert_fill(out, digits_start, b'0', lead + 1);
                out[digits_start + 1] = b'.';
                if !spec.alt {
                    strip_trailing_zeros(out, digits_start);
                }
            }
        }
        _ => panic!("push_float: unsupported conversion {:?}", conv as char),
    }
    pad_field(out, start, digits_start, spec, true);
}

/// Writes the digits of `v` in `base` (lower/upper hex) into the tail of
/// `buf`, returning the index of the first digit.
fn digits_u64(mut v: u64, base: u64, upper: bool, buf: &mut [u8; 24]) -> usize {
    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = table[(v % base) as usize];
        v /= base;
        if v == 0 {
            break;
        }
    }
    i
}

/// Shared body of the integer conversions: `prefix` is the sign or `0x`.
fn push_int_body(out: &mut Vec<u8>, prefix: &[u8], digits: &[u8], spec: &Spec) {
    let start = out.len();
    out.extend_from_slice(prefix);
    let digits_start = out.len();
    let min_digits = spec.precision.unwrap_or(1);
    // C: precision 0 with value 0 prints no digits at all.
    let is_zero = digits == b"0";
    let shown: &[u8] = if is_zero && min_digits == 0 {
        b""
    } else {
        digits
    };
    if shown.len() < min_digits {
        out.resize(out.len() + (min_digits - shown.len()), b'0');
    }
    out.extend_from_slice(shown);
    pad_field(out, start, digits_start, spec, spec.precision.is_none());
}

/// C `%d` / `%i` of a signed value with `spec` (flags `- + space 0`, width,
/// precision = minimum number of digits), as glibc prints it.
pub fn push_signed(out: &mut Vec<u8>, v: i64, spec: &Spec) {
    let mut buf = [0u8; 24];
    let first = digits_u64(v.unsigned_abs(), 10, false, &mut buf);
    let sign: &[u8] = if v < 0 {
        b"-"
    } else if spec.plus {
        b"+"
    } else if spec.space {
        b" "
    } else {
        b""
    };
    push_int_body(out, sign, &buf[first..], spec);
}

/// C `%u`, `%x`, `%X`, `%o` (selected by `conv`) of an unsigned value with
/// `spec`, as glibc prints it (`#` adds `0x`/`0X` to non-zero hex values and
/// makes octal output start with `0`).
///
/// # Panics
/// If `conv` is not one of `u x X o`.
pub fn push_unsigned(out: &mut Vec<u8>, v: u64, conv: u8, spec: &Spec) {
    let mut buf = [0u8; 24];
    let (base, upper) = match conv {
        b'u' => (10, false),
        b'x' => (16, false),
        b'X' => (16, true),
        b'o' => (8, false),
        _ => panic!("push_unsigned: unsupported conversion {:?}", conv as char),
    };
    let first = digits_u64(v, base, upper, &mut buf);
    let digits = &buf[first..];
    let prefix: &[u8] = match conv {
        b'x' if spec.alt && v != 0 => b"0x",
        b'X' if spec.alt && v != 0 => b"0X",
        _ => b"",
    };
    if conv == b'o' && spec.alt {
        // '#' for octal raises the precision so the first digit is 0.
        let mut s = *spec;
        let need = if v == 0 { 1 } else { digits.len() + 1 };
        s.precision = Some(spec.precision.unwrap_or(1).max(need));
        if spec.precision.is_none() {
            // Zero padding still applies when precision was implicit.
            let start = out.len();
            let digits_start = out.len();
            if v != 0 {
                out.push(b'0');
            }
            out.extend_from_slice(digits);
            pad_field(out, start, digits_start, spec, true);
            return;
        }
        push_int_body(out, prefix, digits, &s);
        return;
    }
    push_int_body(out, prefix, digits, spec);
}

/// C `%s` (with optional precision = maximum bytes printed) and width.
pub fn push_str(out: &mut Vec<u8>, s: &[u8], spec: &Spec) {
    let s = match spec.precision {
        Some(p) if p < s.len() => &s[..p],
        _ => s,
    };
    let start = out.len();
    out.extend_from_slice(s);
    pad_field(out, start, start, spec, false);
}

/// C `%c` with width.
pub fn push_char(out: &mut Vec<u8>, c: u8, spec: &Spec) {
    let start = out.len();
    out.push(c);
    pad_field(out, start, start, spec, false);
}

// ---------------------------------------------------------------------------
// Convenience wrappers for the formats ns-2 uses.
// ---------------------------------------------------------------------------

/// C `%.<precision>g` (precision 0 is treated as 1, as C specifies).
/// `push_g(out, t, 15)` is ns-2's trace time format `%.15g`; `push_g(out, x,
/// 17)` is the exact round-trip format ns-2 uses for Tcl values; `%g` is
/// `push_g(out, x, 6)`.
#[inline]
pub fn push_g(out: &mut Vec<u8>, x: f64, precision: usize) {
    push_float(out, x, b'g', &Spec::prec(precision));
}

/// C `%<->?<width>.<precision>g`.
#[inline]
pub fn push_g_width(out: &mut Vec<u8>, x: f64, precision: usize, width: usize, left_align: bool) {
    push_float(
        out,
        x,
        b'g',
        &Spec::width_prec(width, Some(precision), left_align),
    );
}

/// C `%<->?<width>.<precision>f`, e.g. ns-2's queue-monitor `%-8.5f`.
/// Small negative values print as `-0.000`, as glibc does.
#[inline]
pub fn push_f(out: &mut Vec<u8>, x: f64, precision: usize, width: usize, left_align: bool) {
    push_float(
        out,
        x,
        b'f',
        &Spec::width_prec(width, Some(precision), left_align),
    );
}

/// C `%<->?<width>.<precision>e`; ns-2's RandomVariable `value` command uses
/// `%6e`, i.e. `push_e(out, x, 6, 6, false)`.
#[inline]
pub fn push_e(out: &mut Vec<u8>, x: f64, precision: usize, width: usize, left_align: bool) {
    push_float(
        out,
        x,
        b'e',
        &Spec::width_prec(width, Some(precision), left_align),
    );
}

/// C `%<->?<width>d` for any integer up to 64 bits (`%d`, `%-2d`, `%5d`).
#[inline]
pub fn push_int(out: &mut Vec<u8>, v: i64, width: usize, left_align: bool) {
    push_signed(out, v, &Spec::width_prec(width, None, left_align));
}

/// C `%<->?<width>u` for an unsigned value.  (A C `int` printed with `%u`
/// must be passed as `v as u32 as u64`.)
#[inline]
pub fn push_uint(out: &mut Vec<u8>, v: u64, width: usize, left_align: bool) {
    push_unsigned(out, v, b'u', &Spec::width_prec(width, None, left_align));
}

/// `%.<precision>g` into a new `String`.
pub fn format_g(x: f64, precision: usize) -> String {
    let mut v = Vec::with_capacity(32);
    push_g(&mut v, x, precision);
    bytes_to_string(v)
}

/// `%.<precision>f` into a new `String`.
pub fn format_f(x: f64, precision: usize) -> String {
    let mut v = Vec::with_capacity(32);
    push_f(&mut v, x, precision, 0, false);
    bytes_to_string(v)
}

/// `%.<precision>e` into a new `String`.
pub fn format_e(x: f64, precision: usize) -> String {
    let mut v = Vec::with_capacity(32);
    push_e(&mut v, x, precision, 0, false);
    bytes_to_string(v)
}

/// `%d` into a new `String`.
pub fn format_int(v: i64) -> String {
    let mut o = Vec::with_capacity(24);
    push_int(&mut o, v, 0, false);
    bytes_to_string(o)
}

fn bytes_to_string(v: Vec<u8>) -> String {
    // Only ASCII is ever produced by the number conversions.
    String::from_utf8(v).expect("number formatting produced non-ASCII")
}

// ---------------------------------------------------------------------------
// A small printf interpreter, so C format strings can be used verbatim.
// ---------------------------------------------------------------------------

/// One argument of [`push_printf`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg<'a> {
    /// A signed integer (`%d`, `%i`; also accepted by `%u %x %o %c`, where
    /// it is reinterpreted as `u64` like C's `%lu` of a `long`).
    Int(i64),
    /// An unsigned integer (`%u`, `%x`, `%X`, `%o`; `%d` reinterprets it as
    /// `i64`).
    Uint(u64),
    /// A double (`%f %F %e %E %g %G`).
    Float(f64),
    /// A string (`%s`).
    Str(&'a str),
    /// A byte string (`%s`).
    Bytes(&'a [u8]),
    /// A character (`%c`).
    Char(u8),
}

/// Why [`push_printf`] could not format its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Fewer arguments than conversions.
    MissingArgument,
    /// More arguments than conversions.
    ExtraArguments,
    /// An argument does not fit its conversion (e.g. a string for `%d`).
    TypeMismatch {
        /// Byte offset of the conversion in the format string.
        at: usize,
    },
    /// An unsupported or malformed conversion (`%n`, `%p`, `%a`, trailing `%`).
    BadConversion {
        /// Byte offset of the conversion in the format string.
        at: usize,
    },
}

impl core::fmt::Display for FormatError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FormatError::MissingArgument => write!(f, "too few arguments for format"),
            FormatError::ExtraArguments => write!(f, "too many arguments for format"),
            FormatError::TypeMismatch { at } => write!(f, "argument type mismatch at byte {at}"),
            FormatError::BadConversion { at } => write!(f, "bad conversion at byte {at}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// Formats `args` according to the C format string `fmt` and appends the
/// result to `out`, with glibc `printf` semantics for `%d %i %u %x %X %o %c
/// %s %f %F %e %E %g %G %%`, the flags `- + space # 0`, width and precision
/// (either may be `*`, taken from an `Arg::Int`; a negative `*` width means
/// `-`, a negative `*` precision means none).  Length modifiers (`h hh l ll
/// L q j z t`) are accepted and ignored: arguments are always 64-bit, so a C
/// `int` printed with `%u`/`%x` must be passed as `Arg::Uint(v as u32 as
/// u64)`.
///
/// Does not allocate when `out` has enough spare capacity.  On error, `out`
/// keeps whatever was written before the failing conversion.
pub fn push_printf(out: &mut Vec<u8>, fmt: &str, args: &[Arg<'_>]) -> Result<(), FormatError> {
    let f = fmt.as_bytes();
    let mut i = 0;
    let mut next_arg = 0;
    let take = |next_arg: &mut usize| -> Result<Arg<'_>, FormatError> {
        let a = args
            .get(*next_arg)
            .copied()
            .ok_or(FormatError::MissingArgument)?;
        *next_arg += 1;
        Ok(a)
    };
    while i < f.len() {
        // Copy literal text up to the next '%'.
        let lit_start = i;
        while i < f.len() && f[i] != b'%' {
            i += 1;
        }
        out.extend_from_slice(&f[lit_start..i]);
        if i >= f.len() {
            break;
        }
        let conv_at = i;
        i += 1; // skip '%'
        let mut spec = Spec::default();
        // Flags.
        while i < f.len() {
            match f[i] {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                b'0' => spec.zero = true,
                _ => break,
            }
            i += 1;
        }
        // Width.
        if i < f.len() && f[i] == b'*' {
            i += 1;
            let w = match take(&mut next_arg)? {
                Arg::Int(v) => v,
                Arg::Uint(v) => v as i64,
                _ => return Err(FormatError::TypeMismatch { at: conv_at }),
            };
            if w < 0 {
                spec.left = true;
            }
            spec.width = w.unsigned_abs() as usize;
        } else {
            while i < f.len() && f[i].is_ascii_digit() {
                spec.width = spec.width * 10 + usize::from(f[i] - b'0');
                i += 1;
            }
        }
        // Precision.
        if i < f.len() && f[i] == b'.' {
            i += 1;
            if i < f.len() && f[i] == b'*' {
                i += 1;
                let p = match take(&mut next_arg)? {
                    Arg::Int(v) => v,
                    Arg::Uint(v) => v as i64,
                    _ => return Err(FormatError::TypeMismatch { at: conv_at }),
                };
                spec.precision = if p < 0 { None } else { Some(p as usize) };
            } else {
                let mut p = 0usize;
                while i < f.len() && f[i].is_ascii_digit() {
                    p = p * 10 + usize::from(f[i] - b'0');
                    i += 1;
                }
                spec.precision = Some(p);
            }
        }
        // Length modifiers (ignored).
        while i < f.len() && matches!(f[i], b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't') {
            i += 1;
        }
        if i >= f.len() {
            return Err(FormatError::BadConversion { at: conv_at });
        }
        let conv = f[i];
        i += 1;
        match conv {
            b'%' => out.push(b'%'),
            b'd' | b'i' => {
                let v = match take(&mut next_arg)? {
                    Arg::Int(v) => v,
                    Arg::Uint(v) => v as i64,
                    Arg::Char(c) => i64::from(c),
                    _ => return Err(FormatError::TypeMismatch { at: conv_at }),
                };
                push_signed(out, v, &spec);
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = match take(&mut next_arg)? {
                    Arg::Int(v) => v as u64,
                    Arg::Uint(v) => v,
                    Arg::Char(c) => u64::from(c),
                    _ => return Err(FormatError::TypeMismatch { at: conv_at }),
                };
                push_unsigned(out, v, conv, &spec);
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                let v = match take(&mut next_arg)? {
                    Arg::Float(v) => v,
                    _ => return Err(FormatError::TypeMismatch { at: conv_at }),
                };
                push_float(out, v, conv, &spec);
            }
            b'c' => {
                let c = match take(&mut next_arg)? {
                    Arg::Char(c) => c,
                    Arg::Int(v) => v as u8,
                    Arg::Uint(v) => v as u8,
                    _ => return Err(FormatError::TypeMismatch { at: conv_at }),
                };
                push_char(out, c, &spec);
            }
            b's' => {
                let s: &[u8] = match take(&mut next_arg)? {
                    Arg::Str(s) => s.as_bytes(),
                    Arg::Bytes(b) => b,
                    _ => return Err(FormatError::TypeMismatch { at: conv_at }),
                };
                push_str(out, s, &spec);
            }
            _ => return Err(FormatError::BadConversion { at: conv_at }),
        }
    }
    if next_arg < args.len() {
        return Err(FormatError::ExtraArguments);
    }
    Ok(())
}

/// [`push_printf`] into a new `String` (C `sprintf`).  Non-UTF-8 bytes from
/// `Arg::Bytes`/`Arg::Char` are replaced with U+FFFD.
pub fn sprintf(fmt: &str, args: &[Arg<'_>]) -> Result<String, FormatError> {
    let mut v = Vec::with_capacity(fmt.len() + 16 * args.len());
    push_printf(&mut v, fmt, args)?;
    Ok(match String::from_utf8(v) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(fmt: &str, args: &[Arg<'_>]) -> String {
        sprintf(fmt, args).unwrap()
    }

    #[test]
    fn g_basics() {
        assert_eq!(format_g(0.0, 6), "0");
        assert_eq!(format_g(-0.0, 6), "-0");
        assert_eq!(format_g(100000.0, 6), "100000");
        assert_eq!(format_g(1000000.0, 6), "1e+06");
        assert_eq!(format_g(0.0001, 6), "0.0001");
        assert_eq!(format_g(0.00001, 6), "1e-05");
        assert_eq!(format_g(1.5, 0), "2");
        assert_eq!(format_g(2.5, 1), "2");
        assert_eq!(format_g(0.1, 17), "0.10000000000000001");
        assert_eq!(format_g(1e300, 17), "1.0000000000000001e+300");
        assert_eq!(format_g(f64::INFINITY, 6), "inf");
        assert_eq!(format_g(f64::NEG_INFINITY, 6), "-inf");
        assert_eq!(format_g(f64::NAN, 6), "nan");
        assert_eq!(format_g(-f64::NAN, 6), "-nan");
        assert_eq!(format_g(9.9996, 3), "10");
        assert_eq!(format_g(123456.0, 3), "1.23e+05");
        assert_eq!(format_g(0.000123456, 3), "0.000123");
        assert_eq!(format_g(1.0 / 3.0, 15), "0.333333333333333");
    }

    #[test]
    fn f_and_e_basics() {
        assert_eq!(format_f(0.125, 2), "0.12");
        assert_eq!(format_f(0.375, 2), "0.38");
        assert_eq!(format_f(-0.0001, 3), "-0.000");
        assert_eq!(format_f(2.5, 0), "2");
        assert_eq!(format_e(123456.0, 2), "1.23e+05");
        assert_eq!(format_e(0.0, 3), "0.000e+00");
        assert_eq!(format_e(1e-300, 0), "1e-300");
        let mut v = Vec::new();
        push_f(&mut v, 1.5, 5, 8, true);
        v.push(b'|');
        push_f(&mut v, -1.5, 3, 8, false);
        assert_eq!(v, b"1.50000 |  -1.500");
    }

    #[test]
    fn alt_forms() {
        assert_eq!(p("%#g", &[Arg::Float(1.0)]), "1.00000");
        assert_eq!(p("%#.3g", &[Arg::Float(100.0)]), "100.");
        assert_eq!(p("%#.1g", &[Arg::Float(0.0)]), "0.");
        assert_eq!(p("%#.0f", &[Arg::Float(3.0)]), "3.");
        assert_eq!(p("%#.0e", &[Arg::Float(3.0)]), "3.e+00");
        assert_eq!(p("%#.2g", &[Arg::Float(1e-5)]), "1.0e-05");
        assert_eq!(p("%#.3g", &[Arg::Float(0.0001)]), "0.000100");
        // glibc's carry quirk (checked against glibc 2.36 printf).
        assert_eq!(p("%#.3g", &[Arg::Float(999.96)]), "1.e+03");
        assert_eq!(p("%#g", &[Arg::Float(999999.5)]), "1.e+06");
        assert_eq!(p("%#g", &[Arg::Float(9999999.5)]), "1.00000e+07");
        assert_eq!(p("%#.3g", &[Arg::Float(1000.0)]), "1.00e+03");
        assert_eq!(p("%#.2g", &[Arg::Float(9.9996)]), "10.");
        assert_eq!(p("%#.2g", &[Arg::Float(9.9996e-5)]), "0.00010");
        assert_eq!(
            p(
                "%#x %#o %#o %#X",
                &[Arg::Uint(255), Arg::Uint(8), Arg::Uint(0), Arg::Uint(255)]
            ),
            "0xff 010 0 0XFF"
        );
    }

    #[test]
    fn ints() {
        assert_eq!(format_int(i64::MIN), "-9223372036854775808");
        let mut v = Vec::new();
        push_int(&mut v, 3, 2, true);
        push_int(&mut v, -42, 5, false);
        push_uint(&mut v, 7, 0, false);
        assert_eq!(v, b"3   -427");
        assert_eq!(
            p(
                "%05d|%-5d|%+d|% d|%.3d|%.0d|%08.3d",
                &[
                    Arg::Int(-42),
                    Arg::Int(42),
                    Arg::Int(5),
                    Arg::Int(5),
                    Arg::Int(7),
                    Arg::Int(0),
                    Arg::Int(-7)
                ]
            ),
            "-0042|42   |+5| 5|007||    -007"
        );
    }

    #[test]
    fn printf_trace_line() {
        let s = p(
            "%c %.15g %d %d %s %d %s %d %s.%s %s.%s %d %d",
            &[
                Arg::Char(b'+'),
                Arg::Float(1.0251),
                Arg::Int(0),
                Arg::Int(2),
                Arg::Str("tcp"),
                Arg::Int(1040),
                Arg::Str("-------"),
                Arg::Int(1),
                Arg::Str("0"),
                Arg::Str("0"),
                Arg::Str("3"),
                Arg::Str("0"),
                Arg::Int(2),
                Arg::Int(6),
            ],
        );
        assert_eq!(s, "+ 1.0251 0 2 tcp 1040 ------- 1 0.0 3.0 2 6");
        assert_eq!(
            p(
                "%5.2s|%-4c|%%|%*d|%-*d|%.*f",
                &[
                    Arg::Str("abc"),
                    Arg::Char(b'x'),
                    Arg::Int(4),
                    Arg::Int(1),
                    Arg::Int(-3),
                    Arg::Int(2),
                    Arg::Int(2),
                    Arg::Float(1.005)
                ]
            ),
            "   ab|x   |%|   1|2  |1.00"
        );
        assert_eq!(sprintf("%d", &[]), Err(FormatError::MissingArgument));
        assert_eq!(
            sprintf("%d", &[Arg::Int(1), Arg::Int(2)]),
            Err(FormatError::ExtraArguments)
        );
        assert_eq!(
            sprintf("%d", &[Arg::Str("x")]),
            Err(FormatError::TypeMismatch { at: 0 })
        );
        assert_eq!(
            sprintf("ab%", &[]),
            Err(FormatError::BadConversion { at: 2 })
        );
    }

    #[test]
    fn no_allocation_with_capacity() {
        let mut v: Vec<u8> = Vec::with_capacity(4096);
        let ptr = v.as_ptr();
        for i in 0..200 {
            v.clear();
            let x = i as f64 * 0.37 - 20.0;
            push_g(&mut v, x, 15);
            push_g(&mut v, x * 1e-9, 6);
            push_f(&mut v, x, 5, 8, true);
            push_e(&mut v, x * 1e200, 6, 6, false);
            push_int(&mut v, i, 5, false);
            push_printf(
                &mut v,
                "%c %.15g %-6.3f %s\n",
                &[
                    Arg::Char(b'r'),
                    Arg::Float(x),
                    Arg::Float(x),
                    Arg::Str("cbr"),
                ],
            )
            .unwrap();
        }
        assert_eq!(ptr, v.as_ptr());
    }
}
