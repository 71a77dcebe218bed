//! Checks `dumbbell_engine::ns2::printf` against glibc `printf`.
//!
//! `testdata/fmt/gen_fmt_vectors.c` (run by `testdata/fmt/regen.sh`) prints
//! FNV-1a digests of glibc's output for 262,144 doubles x 52 float formats,
//! 262,144 integers x 25 integer formats and 3 x 65,536 whole trace-style
//! lines.  This test regenerates the same inputs with the same splitmix64
//! stream and constructions, formats them with `push_printf`, and compares
//! digests chunk by chunk.  `fmt_cases.txt` holds plain-text expected output
//! for a subset, which gives readable diffs.

use dumbbell_engine::ns2::printf::{push_f, push_float, push_g, push_printf, Arg, Spec};

const DIGESTS: &str = include_str!("../testdata/fmt/fmt_digests.txt");
const CASES: &str = include_str!("../testdata/fmt/fmt_cases.txt");

const SEED_VALUES: u64 = 0x5eed0f1e2d3c4b5a;
const SEED_INTS: u64 = 0x1234567890abcdef;
const SEED_LINES: u64 = 0x0ddba11cafef00d;

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
}

const P10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const TEN: [f64; 43] = [
    1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7,
    1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
    1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const SPECIAL_BITS: [u64; 13] = [
    0x0000000000000000,
    0x8000000000000000,
    0x7ff0000000000000,
    0xfff0000000000000,
    0x7ff8000000000000,
    0xfff8000000000000,
    0x7fefffffffffffff,
    0xffefffffffffffff,
    0x0010000000000000,
    0x0000000000000001,
    0x8000000000000001,
    0x000fffffffffffff,
    0x7ff0000000000001,
];
#[allow(clippy::excessive_precision)]
const SPECIAL_VALS: [f64; 60] = [
    0.5,
    1.0,
    0.1,
    0.125,
    0.375,
    2.5,
    1e15,
    1e16,
    1e17,
    123456789012345678.0,
    9.5,
    0.05,
    0.15,
    0.25,
    0.35,
    1e-5,
    1e-4,
    9.99995e-5,
    999999.5,
    1e21,
    1e22,
    1e23,
    0.3,
    99999.95,
    0.00001,
    1.0000000000000002,
    0.9999999999999999,
    4.35,
    2.675,
    1.005,
    1.115,
    5e-5,
    0.0005,
    0.00015,
    1.5e-5,
    999999.4999999999,
    9999995.0,
    0.000099999999999999991,
    123.456,
    1e100,
    1e-100,
    1e300,
    1e-300,
    1e308,
    2.2250738585072014e-308,
    4.9406564584124654e-324,
    18446744073709551616.0,
    9007199254740993.0,
    0.1 + 0.2,
    1.25,
    1.35,
    1.45,
    0.045,
    0.0625,
    0.9375,
    7.0,
    77.0,
    1024.0,
    65536.0,
    0.0, // padding, never selected (see NSPECIAL)
];
const NSPECIAL: u64 = 13 + 59;

fn special(k: u64) -> f64 {
    let k = k % NSPECIAL;
    if k < 13 {
        f64::from_bits(SPECIAL_BITS[k as usize])
    } else {
        SPECIAL_VALS[(k - 13) as usize]
    }
}

fn gen_value(sm: &mut SplitMix, i: u64) -> f64 {
    let r1 = sm.next();
    let r2 = sm.next();
    let neg = (r2 >> 63) != 0;
    let v = match i % 10 {
        0 => return f64::from_bits(r1),
        1 => {
            let e = 1023 - 70 + (r2 % 141);
            f64::from_bits((e << 52) | (r1 & 0x000fffffffffffff))
        }
        2 => return (r1 % 10_000_000_000) as f64 / 1e6,
        3 => (r1 % 10_000_000) as f64 / P10[(r2 % 23) as usize],
        4 => {
            let k = (r1 % (1 << 20)) | 1;
            let n = r2 % 30;
            k as f64 * f64::from_bits((1023 - n) << 52)
        }
        5 => {
            if r2 & 2 != 0 {
                (r1 % (1u64 << 54)) as f64
            } else {
                (r1 % 1_000_000_000_000_000_000) as f64
            }
        }
        6 => {
            let base = TEN[(r2 % 43) as usize];
            let j = (r1 % 7) as i64 - 3;
            f64::from_bits(base.to_bits().wrapping_add(j as u64))
        }
        7 => {
            if r2 & 2 != 0 {
                (99990 + r1 % 20) as f64 / P10[(4 + (r2 >> 2) % 6) as usize]
            } else {
                (2 * (r1 % 100000) + 1) as f64 / (2.0 * P10[((r2 >> 2) % 12) as usize])
            }
        }
        8 => return special(i / 10),
        _ => {
            return if r2 & 2 != 0 {
                (r1 % 10_000_000) as f64 / 1e6
            } else {
                (r1 % 10_000_000) as f64 * 1e-6
            }
        }
    };
    if neg {
        -v
    } else {
        v
    }
}

fn gen_int(sm: &mut SplitMix, i: u64) -> i64 {
    let r1 = sm.next();
    let r2 = sm.next();
    const SPEC: [i64; 19] = [
        0,
        1,
        -1,
        9,
        10,
        99,
        100,
        -10,
        2147483647,
        -2147483648,
        4294967295,
        i64::MAX,
        i64::MIN,
        1000000000000000000,
        -999999999999999999,
        65535,
        255,
        8,
        7,
    ];
    match i % 6 {
        0 => r1 as i64,
        1 => r1 as u32 as i32 as i64,
        2 => (r1 % 2001) as i64 - 1000,
        3 => {
            let p = P10[(r2 % 19) as usize] as i64;
            let d = (r1 % 3) as i64 - 1;
            if r1 & 1 != 0 {
                -(p + d)
            } else {
                p + d
            }
        }
        4 => SPEC[((i / 6) % 19) as usize],
        _ => (r1 % 100) as i64 - (r2 % 3) as i64,
    }
}

const STRS: [&str; 11] = [
    "tcp", "ack", "cbr", "-------", "---A---", "0", "1", "10", "255", "-1", "",
];
const EVENTS: &[u8] = b"+-dhr";

fn gen_time(sm: &mut SplitMix) -> f64 {
    let r = sm.next();
    match r % 4 {
        0 => ((r >> 8) % 100_000_000) as f64 / 1e6,
        1 => ((r >> 8) % 100_000_000) as f64 * 1e-6,
        2 => ((r >> 8) % 1_000_000) as f64 / 1e6 + ((r >> 40) % 100) as f64,
        _ => f64::from_bits(0x3f00000000000000 | ((r >> 8) & 0x00ffffffffffffff)) * 64.0,
    }
}

fn gen_line(sm: &mut SplitMix, k: u32, out: &mut Vec<u8>) {
    let s = |sm: &mut SplitMix| STRS[(sm.next() % STRS.len() as u64) as usize];
    match k {
        0 => {
            let ev = EVENTS[(sm.next() % 5) as usize];
            let t = gen_time(sm);
            let a = (sm.next() % 100) as i64;
            let b = (sm.next() % 100) as i64;
            let ty = s(sm);
            let sz = (sm.next() % 1500) as i64;
            let fl = s(sm);
            let fid = (sm.next() % 10) as i64;
            let (s1, s2, s3, s4) = (s(sm), s(sm), s(sm), s(sm));
            let seq = (sm.next() % 100000) as i64 - 1;
            let uid = (sm.next() % 1000000) as i64;
            push_printf(
                out,
                "%c %.15g %ld %ld %s %ld %s %ld %s.%s %s.%s %ld %ld",
                &[
                    Arg::Char(ev),
                    Arg::Float(t),
                    Arg::Int(a),
                    Arg::Int(b),
                    Arg::Str(ty),
                    Arg::Int(sz),
                    Arg::Str(fl),
                    Arg::Int(fid),
                    Arg::Str(s1),
                    Arg::Str(s2),
                    Arg::Str(s3),
                    Arg::Str(s4),
                    Arg::Int(seq),
                    Arg::Int(uid),
                ],
            )
            .unwrap();
        }
        1 => {
            let t = gen_time(sm);
            let a = (sm.next() % 120) as i64;
            let b = (sm.next() % 120) as i64;
            let c = (sm.next() % 120) as i64 - 5;
            let d = (sm.next() % 1200) as i64;
            let st = s(sm);
            let w = gen_time(sm) - 20.0;
            push_printf(
                out,
                "%-8.5f %-2ld %-2ld %-2ld %-2ld %s %-6.3f",
                &[
                    Arg::Float(t),
                    Arg::Int(a),
                    Arg::Int(b),
                    Arg::Int(c),
                    Arg::Int(d),
                    Arg::Str(st),
                    Arg::Float(w),
                ],
            )
            .unwrap();
        }
        _ => {
            let st = s(sm);
            let ch = (33 + sm.next() % 90) as u8;
            let w1 = (sm.next() % 12) as i64;
            let v1 = (sm.next() % 2000) as i64 - 1000;
            let w2 = (sm.next() % 12) as i64 - 6;
            let v2 = (sm.next() % 2000) as i64 - 1000;
            let p = (sm.next() % 9) as i64 - 1;
            let x = gen_time(sm) - 50.0;
            let y = f64::from_bits(sm.next());
            let u = sm.next();
            push_printf(
                out,
                "%5.2s|%-4c|%%|%*ld|%-*ld|%.*f|%+.3e|%#lx|%lu",
                &[
                    Arg::Str(st),
                    Arg::Char(ch),
                    Arg::Int(w1),
                    Arg::Int(v1),
                    Arg::Int(w2),
                    Arg::Int(v2),
                    Arg::Int(p),
                    Arg::Float(x),
                    Arg::Float(y),
                    Arg::Uint(u),
                    Arg::Uint(u),
                ],
            )
            .unwrap();
        }
    }
}

const FNV0: u64 = 0xcbf29ce484222325;
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

struct Digests {
    nvalues: usize,
    chunk: usize,
    nlines: usize,
    // (kind, format, chunk digests)
    rows: Vec<(String, String, Vec<u64>)>,
}

fn digests() -> Digests {
    let mut d = Digests {
        nvalues: 0,
        chunk: 0,
        nlines: 0,
        rows: Vec::new(),
    };
    for line in DIGESTS.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split('\t').collect();
        if parts[0] == "values" {
            d.nvalues = parts[1].parse().unwrap();
            d.chunk = parts[2].parse().unwrap();
            d.nlines = parts[3].parse().unwrap();
            continue;
        }
        assert_eq!(parts.len(), 3, "bad digest line {line:?}");
        let hs = parts[2]
            .split(' ')
            .map(|h| u64::from_str_radix(h, 16).unwrap())
            .collect();
        d.rows
            .push((parts[0].to_string(), parts[1].to_string(), hs));
    }
    assert!(d.nvalues > 0 && d.chunk > 0);
    d
}

fn all_values(n: usize) -> Vec<f64> {
    let mut sm = SplitMix(SEED_VALUES);
    (0..n as u64).map(|i| gen_value(&mut sm, i)).collect()
}

fn all_ints(n: usize) -> Vec<i64> {
    let mut sm = SplitMix(SEED_INTS);
    (0..n as u64).map(|i| gen_int(&mut sm, i)).collect()
}

#[test]
fn inputs_match_c_generator() {
    let d = digests();
    let vals = all_values(d.nvalues);
    let ints = all_ints(d.nvalues);
    let mut checked = 0;
    for (kind, what, hs) in &d.rows {
        if kind != "inputs" {
            continue;
        }
        for (c, &want) in hs.iter().enumerate() {
            let mut h = FNV0;
            for i in c * d.chunk..(c + 1) * d.chunk {
                let bytes = if what == "float" {
                    vals[i].to_bits().to_le_bytes()
                } else {
                    ints[i].to_le_bytes()
                };
                h = fnv(h, &bytes);
            }
            assert_eq!(
                h, want,
                "generated {what} inputs differ from the C generator in chunk {c}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// Checks every float-format row whose index is `part` mod `nparts`.
fn check_float_rows(part: usize, nparts: usize) {
    let d = digests();
    let vals = all_values(d.nvalues);
    let mut buf = Vec::with_capacity(1024);
    let mut failures = Vec::new();
    let mut n_formats = 0;
    for (idx, (_, f, hs)) in d.rows.iter().filter(|r| r.0 == "float").enumerate() {
        if idx % nparts != part {
            continue;
        }
        n_formats += 1;
        for (c, &want) in hs.iter().enumerate() {
            let mut h = FNV0;
            for &v in &vals[c * d.chunk..(c + 1) * d.chunk] {
                buf.clear();
                push_printf(&mut buf, f, &[Arg::Float(v)]).unwrap();
                buf.push(b'\n');
                h = fnv(h, &buf);
            }
            if h != want {
                failures.push(format!(
                    "format {f:?} chunk {c} (values {}..{})",
                    c * d.chunk,
                    (c + 1) * d.chunk
                ));
            }
        }
    }
    assert!(n_formats > 0);
    assert!(
        failures.is_empty(),
        "glibc mismatch:\n{}",
        failures.join("\n")
    );
}

#[test]
fn float_formats_part0() {
    check_float_rows(0, 4);
}
#[test]
fn float_formats_part1() {
    check_float_rows(1, 4);
}
#[test]
fn float_formats_part2() {
    check_float_rows(2, 4);
}
#[test]
fn float_formats_part3() {
    check_float_rows(3, 4);
}

#[test]
fn int_formats() {
    let d = digests();
    let ints = all_ints(d.nvalues);
    let mut buf = Vec::with_capacity(64);
    let mut failures = Vec::new();
    let mut n_formats = 0;
    for (_, f, hs) in d.rows.iter().filter(|r| r.0 == "int") {
        n_formats += 1;
        // Formats without 'l' were printed from a C int.
        let narrow = !f.contains('l');
        let conv = f.trim_end_matches('|').bytes().last().unwrap();
        for (c, &want) in hs.iter().enumerate() {
            let mut h = FNV0;
            for &v in &ints[c * d.chunk..(c + 1) * d.chunk] {
                let v = if narrow { v as i32 as i64 } else { v };
                let arg = match conv {
                    b'd' | b'i' => Arg::Int(v),
                    _ if narrow => Arg::Uint(v as u32 as u64),
                    _ => Arg::Uint(v as u64),
                };
                buf.clear();
                push_printf(&mut buf, f, &[arg]).unwrap();
                buf.push(b'\n');
                h = fnv(h, &buf);
            }
            if h != want {
                failures.push(format!("format {f:?} chunk {c}"));
            }
        }
    }
    assert_eq!(n_formats, 25);
    assert!(
        failures.is_empty(),
        "glibc mismatch:\n{}",
        failures.join("\n")
    );
}

#[test]
fn whole_lines() {
    let d = digests();
    let mut buf = Vec::with_capacity(256);
    let mut n = 0;
    for (_, k, hs) in d.rows.iter().filter(|r| r.0 == "line") {
        let k: u32 = k.parse().unwrap();
        let mut sm = SplitMix(SEED_LINES + u64::from(k));
        for (c, &want) in hs.iter().enumerate() {
            let mut h = FNV0;
            for _ in 0..d.chunk {
                buf.clear();
                gen_line(&mut sm, k, &mut buf);
                buf.push(b'\n');
                h = fnv(h, &buf);
                n += 1;
            }
            assert_eq!(
                h,
                want,
                "line kind {k} chunk {c}: last line {:?}",
                String::from_utf8_lossy(&buf)
            );
        }
    }
    assert_eq!(n, 3 * d.nlines);
}

#[test]
fn readable_cases() {
    let mut buf = Vec::new();
    let mut n = 0;
    let mut failures = Vec::new();
    for line in CASES.lines() {
        if line.starts_with('#') {
            continue;
        }
        let mut it = line.splitn(3, '\t');
        let (f, bits, want) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        let x = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
        buf.clear();
        push_printf(&mut buf, f, &[Arg::Float(x)]).unwrap();
        if buf != want.as_bytes() {
            failures.push(format!(
                "{f:?} of {x:e} ({bits}): want {want:?}, got {:?}",
                String::from_utf8_lossy(&buf)
            ));
        }
        n += 1;
    }
    assert!(n > 5000, "only {n} cases");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The convenience wrappers agree with the general path.
#[test]
fn wrappers_agree_with_printf() {
    let vals = all_values(20000);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &v in &vals {
        for p in [1usize, 6, 15, 17] {
            a.clear();
            b.clear();
            push_g(&mut a, v, p);
            push_printf(&mut b, "%.*g", &[Arg::Int(p as i64), Arg::Float(v)]).unwrap();
            assert_eq!(a, b);
        }
        a.clear();
        b.clear();
        push_f(&mut a, v, 5, 8, true);
        push_float(
            &mut b,
            v,
            b'f',
            &Spec {
                left: true,
                width: 8,
                precision: Some(5),
                ..Spec::default()
            },
        );
        assert_eq!(a, b);
    }
}
