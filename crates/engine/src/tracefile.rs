//! Reading ns-2 trace files into columns.
//!
//! A trace written by `trace-all`/`trace-queue` mixes packet event lines
//! (`+ 0.1 0 1 tcp 1000 ------- 0 0.0 2.0 1 2`) with variable-trace lines
//! (`0.12086  0  0  2  0  cwnd_ 2.000`) and other records.  `parse` reads
//! the file in large blocks and splits it into two column sets; lines of
//! any other shape are counted, not parsed.  No per-line allocation except
//! for new string categories (packet types, flags, variable names).

use std::collections::HashMap;
use std::io::Read;

/// Dictionary-encoded string column.
#[derive(Default, Debug)]
pub struct Categories {
    pub codes: Vec<u32>,
    pub names: Vec<String>,
    index: HashMap<Vec<u8>, u32>,
}

impl Categories {
    #[inline]
    fn push(&mut self, s: &[u8]) {
        let code = match self.index.get(s) {
            Some(&c) => c,
            None => {
                let c = self.names.len() as u32;
                self.names.push(String::from_utf8_lossy(s).into_owned());
                self.index.insert(s.to_vec(), c);
                c
            }
        };
        self.codes.push(code);
    }
}

/// Packet event records.
#[derive(Default, Debug)]
pub struct Events {
    pub event: Vec<u8>,
    pub time: Vec<f64>,
    pub from_node: Vec<i32>,
    pub to_node: Vec<i32>,
    pub ptype: Categories,
    pub size: Vec<i32>,
    pub flags: Categories,
    pub fid: Vec<i32>,
    pub src_node: Vec<i32>,
    pub src_port: Vec<i32>,
    pub dst_node: Vec<i32>,
    pub dst_port: Vec<i32>,
    pub seqno: Vec<i64>,
    pub uid: Vec<i64>,
}

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

#[inline]
fn int<T: std::str::FromStr>(b: &[u8]) -> Option<T> {
    std::str::from_utf8(b).ok()?.parse().ok()
}

#[inline]
fn float(b: &[u8]) -> Option<f64> {
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
        self.other_lines += 1;
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
