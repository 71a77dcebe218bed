//! Reading ns-2 trace files into columns.
//!
//! A trace written by `trace-all`/`trace-queue` mixes packet event lines
//! (`+ 0.1 0 1 tcp 1000 ------- 0 0.0 2.0 1 2`) with variable-trace lines
//! (`0.12086  0  0  2  0  cwnd_ 2.000`) and other records.  `parse` reads
//! the file in large blocks and splits it into two column sets; lines of
//! any other shape are counted, not parsed.  No per-line allocation except
//! for new string categories (packet types, flags, variable names).

pub use crate::trace::{Categories, Events};
use std::io::Read;

/// Variable-trace records.
#[derive(Default, Debug)]
pub struct VarRecords {
    pub time: Vec<f64>,
    pub src_node: Vec<i32>,
    pub src_port: Vec<i32>,
    pub dst_node: Vec<i32>,
    pub dst_port: Vec<i32>,
    pub var: Categories,
    pub value: Vec<f64>,
}

#[derive(Default, Debug)]
pub struct Parsed {
    pub events: Events,
    pub vars: VarRecords,
    /// Lines that are neither (nam, queue-monitor, annotations, ...).
    pub other_lines: u64,
}

/// A decimal integer (optional sign), no allocation.
#[inline]
fn int<T: TryFrom<i64>>(b: &[u8]) -> Option<T> {
    let (neg, d) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if d.is_empty() || d.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in d {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (c - b'0') as i64;
    }
    T::try_from(if neg { -v } else { v }).ok()
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22,
];

/// A float.  Plain decimals with at most 15 significant digits take
/// Clinger's fast path (an exact integer divided by an exact power of ten is
/// correctly rounded); anything else goes to the standard parser.
#[inline]
fn float(b: &[u8]) -> Option<f64> {
    let (neg, d) = match b.first()? {
        b'-' => (true, &b[1..]),
        _ => (false, b),
    };
    let mut mant: u64 = 0;
    let mut digits = 0;
    let mut frac = 0usize;
    let mut seen_dot = false;
    let mut ok = !d.is_empty();
    for &c in d {
        if c.is_ascii_digit() {
            if mant != 0 || c != b'0' {
                digits += 1;
            }
            mant = mant.wrapping_mul(10).wrapping_add((c - b'0') as u64);
            if seen_dot {
                frac += 1;
            }
        } else if c == b'.' && !seen_dot {
            seen_dot = true;
        } else {
            ok = false;
            break;
        }
    }
    if ok && digits <= 15 && frac < POW10.len() {
        let v = mant as f64 / POW10[frac];
        return Some(if neg { -v } else { v });
    }
    std::str::from_utf8(b).ok()?.parse().ok()
}

fn addr(b: &[u8]) -> Option<(i32, i32)> {
    let dot = b.iter().rposition(|&c| c == b'.')?;
    Some((int(&b[..dot])?, int(&b[dot + 1..])?))
}

impl Parsed {
    fn line(&mut self, l: &[u8]) {
        let mut f: [&[u8]; 13] = [&[]; 13];
        let mut n = 0;
        for tok in l.split(|&c| c == b' ' || c == b'\t').filter(|t| !t.is_empty()) {
            if n == 13 {
                n += 1;
                break;
            }
            f[n] = tok;
            n += 1;
        }
        if n == 12 && f[0].len() == 1 && matches!(f[0][0], b'+' | b'-' | b'r' | b'd' | b'h' | b'e' | b'c') {
            if self.event_line(&f) {
                return;
            }
        }
        if n == 7 && self.var_line(&f) {
            return;
        }
        // The rarer records (the tagged format of `use-taggedtrace`, RED's
        // `Q|a|p|c time value`) through the strict reader; what it refuses,
        // and `v` lines, count as other lines here.
        if self.line_strict(l).is_err() {
            self.other_lines += 1;
        }
    }

    fn event_line(&mut self, f: &[&[u8]; 13]) -> bool {
        let (Some(t), Some(a), Some(b), Some(sz), Some(fid), Some(s), Some(d), Some(seq), Some(uid)) = (
            float(f[1]),
            int::<i32>(f[2]),
            int::<i32>(f[3]),
            int::<i32>(f[5]),
            int::<i32>(f[7]),
            addr(f[8]),
            addr(f[9]),
            int::<i64>(f[10]),
            int::<i64>(f[11]),
        ) else {
            return false;
        };
        let e = &mut self.events;
        e.event.push(f[0][0]);
        e.time.push(t);
        e.from_node.push(a);
        e.to_node.push(b);
        e.ptype.push(f[4]);
        e.size.push(sz);
        e.flags.push(f[6]);
        e.fid.push(fid);
        e.src_node.push(s.0);
        e.src_port.push(s.1);
        e.dst_node.push(d.0);
        e.dst_port.push(d.1);
        e.seqno.push(seq);
        e.uid.push(uid);
        true
    }

    fn var_line(&mut self, f: &[&[u8]; 13]) -> bool {
        let (Some(t), Some(sn), Some(sp), Some(dn), Some(dp), Some(v)) =
            (float(f[0]), int::<i32>(f[1]), int::<i32>(f[2]), int::<i32>(f[3]), int::<i32>(f[4]), float(f[6]))
        else {
            return false;
        };
        let r = &mut self.vars;
        r.time.push(t);
        r.src_node.push(sn);
        r.src_port.push(sp);
        r.dst_node.push(dn);
        r.dst_port.push(dp);
        r.var.push(f[5]);
        r.value.push(v);
        true
    }
}

/// Parse a whole trace from a reader, in 8 MB blocks.
pub fn parse<R: Read>(mut r: R) -> std::io::Result<Parsed> {
    let mut p = Parsed::default();
    let mut buf = vec![0u8; 8 << 20];
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        let last_nl = match chunk.iter().rposition(|&c| c == b'\n') {
            Some(i) => i,
            None => {
                carry.extend_from_slice(chunk);
                continue;
            }
        };
        let (head, tail) = chunk.split_at(last_nl + 1);
        let mut lines = head.split(|&c| c == b'\n');
        if !carry.is_empty() {
            let first = lines.next().unwrap_or(&[]);
            carry.extend_from_slice(first);
            let l = std::mem::take(&mut carry);
            p.line(&l);
        }
        for l in lines {
            if !l.is_empty() {
                p.line(l);
            }
        }
        carry.extend_from_slice(tail);
    }
    if !carry.is_empty() {
        p.line(&carry);
    }
    Ok(p)
}

impl Parsed {
    fn extend(&mut self, o: Parsed) {
        let (a, b) = (&mut self.events, o.events);
        a.event.extend(b.event);
        a.time.extend(b.time);
        a.from_node.extend(b.from_node);
        a.to_node.extend(b.to_node);
        a.ptype.extend(b.ptype);
        a.size.extend(b.size);
        a.flags.extend(b.flags);
        a.fid.extend(b.fid);
        a.src_node.extend(b.src_node);
        a.src_port.extend(b.src_port);
        a.dst_node.extend(b.dst_node);
        a.dst_port.extend(b.dst_port);
        a.seqno.extend(b.seqno);
        a.uid.extend(b.uid);
        let (a, b) = (&mut self.vars, o.vars);
        a.time.extend(b.time);
        a.src_node.extend(b.src_node);
        a.src_port.extend(b.src_port);
        a.dst_node.extend(b.dst_node);
        a.dst_port.extend(b.dst_port);
        a.var.extend(b.var);
        a.value.extend(b.value);
        self.other_lines += o.other_lines;
    }
}

/// Parse a trace file, splitting it at line boundaries into `threads`
/// parts parsed in parallel; the result is in file order.
pub fn parse_file(path: &std::path::Path, threads: usize) -> std::io::Result<Parsed> {
    let len = std::fs::metadata(path)?.len();
    let threads = threads.max(1);
    if threads == 1 || len < (64 << 20) {
        return parse(std::fs::File::open(path)?);
    }
    // Cut points: the byte after the first newline at or after k*len/threads.
    use std::io::{Seek, SeekFrom};
    let mut cuts = vec![0u64];
    for k in 1..threads as u64 {
        let mut f = std::fs::File::open(path)?;
        let mut pos = k * len / threads as u64;
        f.seek(SeekFrom::Start(pos))?;
        let mut b = [0u8; 4096];
        'find: loop {
            let n = f.read(&mut b)?;
            if n == 0 {
                pos = len;
                break;
            }
            for (i, &c) in b[..n].iter().enumerate() {
                if c == b'\n' {
                    pos += i as u64 + 1;
                    break 'find;
                }
            }
            pos += n as u64;
        }
        cuts.push(pos.max(*cuts.last().unwrap()));
    }
    cuts.push(len);
    let parts: Vec<std::io::Result<Parsed>> = std::thread::scope(|s| {
        let hs: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                s.spawn(move || -> std::io::Result<Parsed> {
                    let mut f = std::fs::File::open(path)?;
                    f.seek(SeekFrom::Start(a))?;
                    parse(f.take(b - a))
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("parser thread")).collect()
    });
    let mut it = parts.into_iter();
    let mut acc = it.next().expect("at least one part")?;
    for p in it {
        acc.extend(p?);
    }
    Ok(acc)
}

// ---- strict reading, in chunks (`dumbbell convert`) ---------------------------

/// RED's variable-trace lines (`REDQueue::trace`: `Q|a|p|c time value`)
/// under the names of the variables they trace.
fn red_var(tag: u8) -> Option<&'static [u8]> {
    Some(match tag {
        b'Q' => b"curq_",
        b'a' => b"ave_",
        b'p' => b"prob1_",
        b'c' => b"cur_max_p_",
        _ => return None,
    })
}

const EVENT_FIELDS: [&str; 12] = [
    "event", "time", "from node", "to node", "packet type", "size", "flags", "flow id", "source address",
    "destination address", "sequence number", "packet id",
];

impl Parsed {
    /// Line `l` as a packet event (positional or tagged), a variable-trace
    /// record (TCP's `time saddr sport daddr dport var value`, RED's
    /// `Q|a|p|c time value`), or a `v` line (annotations, link dynamics:
    /// counted in `other_lines`); anything else is an error saying what
    /// was expected.
    fn line_strict(&mut self, l: &[u8]) -> Result<(), String> {
        let mut f: [&[u8]; 23] = [&[]; 23];
        let mut n = 0;
        for tok in l.split(|&c| c == b' ' || c == b'\t' || c == b'\r').filter(|t| !t.is_empty()) {
            if n == f.len() {
                n += 1;
                break;
            }
            f[n] = tok;
            n += 1;
        }
        if n == 0 || (f[0] == b"v" && n > 1) {
            self.other_lines += 1;
            return Ok(());
        }
        let ev = f[0].len() == 1 && matches!(f[0][0], b'+' | b'-' | b'r' | b'd' | b'h' | b'e' | b'c');
        if ev && n >= 3 && f[2] == b"-s" {
            return self.tagged_line(&f[..n]);
        }
        if ev && n == 12 {
            let g: &[&[u8]; 13] = &[f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], &[]];
            if self.event_line(g) {
                return Ok(());
            }
            let ok = [
                true,
                float(f[1]).is_some(),
                int::<i32>(f[2]).is_some(),
                int::<i32>(f[3]).is_some(),
                true,
                int::<i32>(f[5]).is_some(),
                true,
                int::<i32>(f[7]).is_some(),
                addr(f[8]).is_some(),
                addr(f[9]).is_some(),
                int::<i64>(f[10]).is_some(),
                int::<i64>(f[11]).is_some(),
            ];
            let i = ok.iter().position(|&o| !o).unwrap_or(0);
            return Err(format!("packet event: bad {} {:?} (field {})", EVENT_FIELDS[i], String::from_utf8_lossy(f[i]), i + 1));
        }
        if ev && n == 16 {
            return Err("packet event with show_tcphdr_'s four extra fields: not supported".into());
        }
        if n == 7 && float(f[0]).is_some() {
            let g: &[&[u8]; 13] = &[f[0], f[1], f[2], f[3], f[4], f[5], f[6], &[], &[], &[], &[], &[], &[]];
            if self.var_line(g) {
                return Ok(());
            }
            return Err(format!("variable-trace record: expected time saddr sport daddr dport variable value, got {:?}", String::from_utf8_lossy(l)));
        }
        if n == 3 && f[0].len() == 1 {
            if let (Some(name), Some(t), Some(v)) = (red_var(f[0][0]), float(f[1]), float(f[2])) {
                let r = &mut self.vars;
                r.time.push(t);
                r.src_node.push(-1);
                r.src_port.push(-1);
                r.dst_node.push(-1);
                r.dst_port.push(-1);
                r.var.push(name);
                r.value.push(v);
                return Ok(());
            }
        }
        let shown: String = String::from_utf8_lossy(&l[..l.len().min(80)]).into_owned();
        Err(format!(
            "not an ns-2 trace record: expected a packet event (\"+ 0.1 0 1 tcp 1000 ------- 0 0.0 1.0 0 0\" or the tagged \"+ 0.1 -s 0 -d 1 ...\"), a variable-trace record (\"0.1 0 0 1 0 cwnd_ 1.000\", \"Q 0.1 3\") or a \"v\" line; got {shown:?}"
        ))
    }

    /// The tagged format: `kind time -s src -d dst -p type -e size -c fid
    /// -i uid -a attr -x {saddr.sport daddr.dport seqno flags name}`.
    fn tagged_line(&mut self, f: &[&[u8]]) -> Result<(), String> {
        let bad = |what: &str| Err(format!("tagged packet event: {what}"));
        if f.len() != 22 {
            return bad(&format!("expected 22 fields (kind time -s -d -p -e -c -i -a -x {{...}}), got {}", f.len()));
        }
        for (i, tag) in [(2, "-s"), (4, "-d"), (6, "-p"), (8, "-e"), (10, "-c"), (12, "-i"), (14, "-a"), (16, "-x")] {
            if f[i] != tag.as_bytes() {
                return bad(&format!("expected {tag} at field {}, got {:?}", i + 1, String::from_utf8_lossy(f[i])));
            }
        }
        let (Some(x0), Some(name)) = (f[17].strip_prefix(b"{"), f[21].strip_suffix(b"}")) else {
            return bad("expected -x {saddr.sport daddr.dport seqno flags name}");
        };
        let _ = name;
        let g: &[&[u8]; 13] = &[f[0], f[1], f[3], f[5], f[7], f[9], f[20], f[11], x0, f[18], f[19], f[13], &[]];
        if self.event_line(g) {
            Ok(())
        } else {
            bad("a number or address does not parse")
        }
    }
}

/// A trace read strictly, a chunk of lines at a time: memory stays bounded
/// whatever the file's size.
pub struct Chunks<R: std::io::BufRead> {
    r: R,
    line: Vec<u8>,
    /// Lines read so far.
    pub lineno: u64,
}

impl<R: std::io::BufRead> Chunks<R> {
    pub fn new(r: R) -> Self {
        Chunks { r, line: Vec::with_capacity(256), lineno: 0 }
    }

    /// The next `max_lines` lines (fewer at the end; `None` after it), or
    /// the number of the first line that is not a trace record, and why.
    pub fn next_chunk(&mut self, max_lines: usize) -> Result<Option<Parsed>, (u64, String)> {
        let mut p = Parsed::default();
        let mut n = 0;
        while n < max_lines {
            self.line.clear();
            let got = self.r.read_until(b'\n', &mut self.line).map_err(|e| (self.lineno, e.to_string()))?;
            if got == 0 {
                break;
            }
            self.lineno += 1;
            n += 1;
            let l = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            p.line_strict(l).map_err(|e| (self.lineno, e))?;
        }
        Ok(if n == 0 { None } else { Some(p) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_reader_takes_tagged_events_and_red_records() {
        // The same packet event positional and tagged, a RED record, a `v`
        // line and a line that is no record: two events, one variable
        // record, two other lines.
        let text = b"+ 0.1 0 2 tcp 40 ------- 1 0.0 3.0 0 0\n\
+ 0.1 -s 0 -d 2 -p tcp -e 40 -c 1 -i 0 -a 1 -x {0.0 3.0 0 ------- null}\n\
Q 0.25 3\n\
v 0 eval {set sim_annotation {x}}\n\
not a trace line\n";
        let p = parse(&text[..]).unwrap();
        assert_eq!(p.events.time, vec![0.1, 0.1]);
        assert_eq!(p.events.to_node, vec![2, 2]);
        assert_eq!(p.events.fid, vec![1, 1]);
        assert_eq!(p.events.dst_node, vec![3, 3]);
        assert_eq!(p.events.flags.codes, vec![0, 0]);
        assert_eq!(p.vars.var.names, vec!["curq_"]);
        assert_eq!(p.vars.value, vec![3.0]);
        assert_eq!(p.other_lines, 2);
    }

    #[test]
    fn parses_events_and_variable_records() {
        let text = b"+ 0.120864 0 1 tcp 1000 ------- 0 0.0 2.0 1 2\n\
0.12086  0  0  2  0  cwnd_ 2.000 \n\
d 0.58616 1 2 tcp 1000 ---A-N- 3 0.1 2.7 28 43\n\
v 0 eval {set sim_annotation {x}}\n\
r 1.5 2 1 ack 40 C------ 0 2.0 0.0 5 77";
        let p = parse(&text[..]).unwrap();
        assert_eq!(p.events.time, vec![0.120864, 0.58616, 1.5]);
        assert_eq!(p.events.event, vec![b'+', b'd', b'r']);
        assert_eq!(p.events.ptype.names, vec!["tcp", "ack"]);
        assert_eq!(p.events.ptype.codes, vec![0, 0, 1]);
        assert_eq!(p.events.src_port, vec![0, 1, 0]);
        assert_eq!(p.events.dst_port, vec![0, 7, 0]);
        assert_eq!(p.events.flags.names[1], "---A-N-");
        assert_eq!(p.vars.var.names, vec!["cwnd_"]);
        assert_eq!(p.vars.value, vec![2.0]);
        assert_eq!(p.other_lines, 1);
    }

    #[test]
    fn fast_float_path_matches_the_standard_parser() {
        for t in ["0.58616", "1.234567", "0", "0.0", "12.5", "-3.25", "9.99029", "100.000001", "0.000001", "123456789.123456"] {
            assert_eq!(float(t.as_bytes()), t.parse::<f64>().ok(), "{t}");
        }
        for t in ["1e-5", "2.5E3", "nan", "12345678901234567.5", "0.12345678901234567"] {
            assert_eq!(float(t.as_bytes()).map(|v| v.to_bits()), t.parse::<f64>().ok().map(|v| v.to_bits()), "{t}");
        }
        assert_eq!(int::<i32>(b"-17"), Some(-17));
        assert_eq!(int::<i32>(b"1x"), None);
    }

    #[test]
    fn parallel_parse_equals_sequential() {
        let dir = std::env::temp_dir().join(format!("dbtrace{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.tr");
        let mut text = Vec::new();
        let mut i = 0u64;
        while text.len() < (70 << 20) {
            text.extend_from_slice(format!("{} {}.{:06} 1 2 {} 1000 ------- {} 0.0 2.0 {i} {i}\n", if i % 3 == 0 { "r" } else { "+" }, i / 1000, i % 1000, if i % 5 == 0 { "ack" } else { "tcp" }, i % 7).as_bytes());
            if i % 11 == 0 {
                text.extend_from_slice(format!("{}.00000  0  0  2  0  cwnd_ {}.000\n", i / 1000, i % 40).as_bytes());
            }
            i += 1;
        }
        std::fs::write(&path, &text).unwrap();
        let a = parse(&text[..]).unwrap();
        let b = parse_file(&path, 2).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(a.events.seqno, b.events.seqno);
        assert_eq!(a.events.time, b.events.time);
        let names = |c: &Categories| c.codes.iter().map(|&x| c.names[x as usize].clone()).collect::<Vec<_>>();
        assert_eq!(names(&a.events.ptype), names(&b.events.ptype));
        assert_eq!(a.vars.value, b.vars.value);
        assert_eq!(a.other_lines, b.other_lines);
    }

    #[test]
    fn lines_split_across_blocks_are_joined() {
        let mut text = Vec::new();
        for i in 0..200_000 {
            text.extend_from_slice(format!("r {}.5 1 2 tcp 1000 ------- 0 0.0 2.0 {i} {i}\n", i).as_bytes());
        }
        let p = parse(&text[..]).unwrap();
        assert_eq!(p.events.seqno.len(), 200_000);
        assert_eq!(p.events.seqno[199_999], 199_999);
        assert_eq!(p.other_lines, 0);
    }

    #[test]
    fn strict_chunks_read_every_format_and_name_the_bad_line() {
        let text = b"+ 0.1 -s 0 -d 2 -p tcp -e 40 -c 1 -i 0 -a 1 -x {0.0 3.0 0 ------- null}\n\
h 0.1 -s 0 -d 2 -p tcp -e 40 -c 1 -i 0 -a 1 -x {0.0 3.0 -1 ---A--- null}\n\
r 1.5 2 1 ack 40 C------ 0 2.0 0.0 5 77\n\
v 0.5 link-down 0 1\n\
0.12086  0  0  2  0  cwnd_ 2.000\n\
a 0.108253 2.76964\n";
        let mut c = Chunks::new(&text[..]);
        let a = c.next_chunk(4).unwrap().unwrap();
        assert_eq!(a.events.event, vec![b'+', b'h', b'r']);
        assert_eq!(a.events.seqno, vec![0, -1, 5]);
        assert_eq!(a.events.dst_node, vec![3, 3, 0]);
        assert_eq!(a.events.flags.names, vec!["-------", "---A---", "C------"]);
        assert_eq!(a.other_lines, 1);
        let b = c.next_chunk(4).unwrap().unwrap();
        assert_eq!(b.vars.var.names, vec!["cwnd_", "ave_"]);
        assert_eq!(b.vars.src_node, vec![0, -1]);
        assert!(c.next_chunk(4).unwrap().is_none());
        let bad = b"r 1.5 2 1 ack 40 C------ 0 2.0 0.0 5 77\nr 1.5 2 x ack 40 C------ 0 2.0 0.0 5 77\n";
        let e = Chunks::new(&bad[..]).next_chunk(10).unwrap_err();
        assert_eq!(e, (2, "packet event: bad to node \"x\" (field 4)".to_string()));
        let e = Chunks::new(&b"hello world\n"[..]).next_chunk(10).unwrap_err();
        assert_eq!(e.0, 1);
        assert!(e.1.starts_with("not an ns-2 trace record"), "{}", e.1);
    }
}
