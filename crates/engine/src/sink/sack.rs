//! The SACK sinks' `Sacker` (tcp/tcp-sink.cc `Sacker::configure`,
//! `append_ack`): the blocks an ACK reports, most recent first, with
//! D-SACK.

use super::Acker;

/// SACK blocks a TCP header can carry (`NSA` in tcp.h).
pub const NSA: usize = 3;

/// The SACK side of `Agent/TCPSink/Sack1` (ns-2's `Sacker` and its
/// `SackStack` of recently reported blocks).
#[derive(Clone, Debug)]
pub struct Sacker {
    base_nblocks: i32,
    stack: Vec<(i32, i32)>,
    cnt: usize,
}

impl Sacker {
    pub fn new(nblocks: i32) -> Sacker {
        let n = nblocks.max(0) as usize;
        Sacker { base_nblocks: nblocks, stack: vec![(-1, -1); n], cnt: 0 }
    }

    pub(super) fn reset(&mut self) {
        for e in self.stack.iter_mut().take(self.cnt) {
            *e = (-1, -1);
        }
        self.cnt = 0;
    }

    pub(super) fn head(&self, k: usize) -> (i32, i32) {
        self.stack.get(k).copied().unwrap_or((-1, -1))
    }

    pub(super) fn pop(&mut self, n: usize) {
        let mut i = n;
        while i + 1 < self.cnt {
            self.stack[i] = self.stack[i + 1];
            i += 1;
        }
        if i < self.stack.len() {
            self.stack[i] = (-1, -1);
        }
        self.cnt = self.cnt.saturating_sub(1);
    }

    pub(super) fn push_front(&mut self, b: (i32, i32)) {
        let size = self.stack.len();
        if size == 0 {
            return;
        }
        if self.cnt >= size {
            self.cnt = size - 1;
        }
        let mut i = self.cnt;
        while i > 0 {
            self.stack[i] = self.stack[i - 1];
            i -= 1;
        }
        self.cnt += 1;
        self.stack[0] = b;
    }

    /// `Sacker::append_ack`: the SACK blocks of the ACK for packet
    /// `old_seqno`: the block holding it first, then earlier blocks still
    /// above the cumulative ACK; with `dsacks` a duplicate is reported
    /// first as a D-SACK block.  Returns the blocks; messages ns-2 prints
    /// go to `c_stdout`.
    pub(super) fn blocks(&mut self, a: &Acker, old_seqno: i32, dsacks: bool, c_stdout: &mut Vec<u8>) -> ([(i32, i32); 4], usize) {
        let mut out = [(0, 0); 4];
        let mut n = 0usize;
        let seqno = a.seqno();
        let maxseen = a.maxseen;
        if old_seqno < 0 {
            c_stdout.extend_from_slice(format!("Error: invalid packet number {old_seqno}\n").as_bytes());
        } else if seqno >= maxseen && self.cnt != 0 {
            self.reset();
        } else if (seqno < maxseen || a.is_dup) && self.base_nblocks > 0 {
            if dsacks && a.is_dup {
                out[n] = (old_seqno, old_seqno + 1);
                n += 1;
            }
            if n as i32 >= self.base_nblocks {
                c_stdout.extend_from_slice(b"Error: can't use DSACK with less than 2 SACK blocks\n");
            } else {
                let mut right = -1;
                let mut i = old_seqno;
                while i <= maxseen {
                    if !a.has(i) {
                        right = i;
                        break;
                    }
                    i += 1;
                }
                if right == -1 {
                    right = maxseen + 1;
                }
                let mut left = -1;
                if old_seqno <= seqno {
                    left = 0;
                } else {
                    let mut i = right - 1;
                    while i > seqno {
                        if !a.has(i) {
                            left = i + 1;
                            break;
                        }
                        i -= 1;
                    }
                    out[n] = (left, right);
                    n += 1;
                }
                let (recent_left, recent_right) = (left, right);
                let mut k = 0usize;
                while (n as i32) < self.base_nblocks && n < out.len() {
                    let (l, r) = self.head(k);
                    if l < 0 || r < 0 || r > maxseen + 1 {
                        break;
                    }
                    if recent_left <= l && recent_right >= r {
                        self.pop(k);
                        continue;
                    }
                    out[n] = (l, r);
                    n += 1;
                    k += 1;
                }
                if old_seqno > seqno {
                    self.push_front((recent_left, recent_right));
                }
            }
        }
        (out, n)
    }
}
