//! TCP receivers (tcp/tcp-sink.cc): `Agent/TCPSink` ACKs every packet,
//! `Agent/TCPSink/DelAck` delays in-order ACKs by `interval_`.

use crate::agent::AgentBase;
use crate::packet::PktId;
use crate::sched::TimerStatus;
use crate::sim::Sim;

/// Initial size of the receive bitmap (`MWS` in tcp-sink.h).
const MWS: usize = 64;

/// ns-2's `Acker`: which packets have arrived, and the cumulative ACK.
#[derive(Clone, Debug)]
pub struct Acker {
    /// The last packet seen was a duplicate (`is_dup_`).
    pub is_dup: bool,
    pub next: i32,
    pub maxseen: i32,
    /// `seen.len() - 1` (a power of two less one): private, so that
    /// nothing but `resize_buffers` changes the two, which `at` relies on.
    wndmask: i32,
    pub ecn_unacked: bool,
    pub ts_to_echo: f64,
    pub last_ack_sent: i32,
    /// Packets of size <= 0 seen since the last look (ns-2 prints an error).
    pub size_errors: u32,
    seen: Vec<i32>,
}

impl Default for Acker {
    fn default() -> Self {
        Acker {
            is_dup: false,
            next: 0,
            maxseen: 0,
            wndmask: (MWS - 1) as i32,
            ecn_unacked: false,
            ts_to_echo: 0.0,
            last_ack_sent: 0,
            size_errors: 0,
            seen: vec![0; MWS],
        }
    }
}

impl Acker {
    pub fn reset(&mut self) {
        self.next = 0;
        self.maxseen = 0;
        for s in self.seen.iter_mut() {
            *s = 0;
        }
    }

    /// Has packet `i` arrived (within the receive window)?
    #[inline]
    fn has(&self, i: i32) -> bool {
        self.seen[(i & self.wndmask) as usize] != 0
    }

    /// `seen_[i & m]`, `m` being `wndmask`, without a bounds check: the
    /// sink's per-packet `update` indexes `seen` five or six times.
    #[inline(always)]
    fn at(seen: &mut [i32], m: i32, i: i32) -> &mut i32 {
        let k = (i & m) as usize;
        debug_assert!(m >= 0 && seen.len() == m as usize + 1);
        // SAFETY: `m` is `wndmask`, which is `seen.len() - 1` and not
        // negative (see there), so `i & m` is in 0..=m.
        unsafe { seen.get_unchecked_mut(k) }
    }

    /// The cumulative ACK (`Seqno()`).
    #[inline]
    pub fn seqno(&self) -> i32 {
        self.next - 1
    }

    fn resize_buffers(&mut self, sz: usize) {
        let mut new_seen = vec![0; sz];
        let new_mask = (sz - 1) as i32;
        let mut i = self.next;
        while i <= self.maxseen + 1 {
            new_seen[(i & new_mask) as usize] = self.seen[(i & self.wndmask) as usize];
            i += 1;
        }
        self.seen = new_seen;
        self.wndmask = new_mask;
    }

    pub fn update_ts(&mut self, seqno: i32, ts: f64, rfc1323: bool) {
        if rfc1323 && seqno == self.last_ack_sent + 1 {
            self.ts_to_echo = ts;
        } else if ts >= self.ts_to_echo && seqno <= self.last_ack_sent + 1 {
            self.ts_to_echo = ts;
        }
    }

    /// Record packet `seq` of `num_bytes`; returns the bytes now deliverable
    /// in order (`Acker::update`).
    pub fn update(&mut self, seq: i32, num_bytes: i32) -> i32 {
        let mut just_marked_as_seen = false;
        self.is_dup = false;
        if num_bytes <= 0 {
            self.size_errors += 1;
        }
        let mut num_to_deliver = 0;
        while seq + 1 - self.next >= self.wndmask {
            let sz = ((self.wndmask + 1) * 2) as usize;
            self.resize_buffers(sz);
        }
        let m = self.wndmask;
        let seen = &mut self.seen[..];
        if seq > self.maxseen {
            let mut i = self.maxseen + 1;
            while i < seq {
                *Self::at(seen, m, i) = 0;
                i += 1;
            }
            self.maxseen = seq;
            *Self::at(seen, m, seq) = num_bytes;
            *Self::at(seen, m, seq + 1) = 0;
            just_marked_as_seen = true;
        }
        let mut next = self.next;
        if seq < next {
            self.is_dup = true;
        }
        if seq >= next && seq <= self.maxseen {
            if *Self::at(seen, m, seq) != 0 && !just_marked_as_seen {
                self.is_dup = true;
            }
            *Self::at(seen, m, seq) = num_bytes;
            while *Self::at(seen, m, next) != 0 {
                num_to_deliver += *Self::at(seen, m, next);
                next += 1;
            }
            self.next = next;
        }
        num_to_deliver
    }
}

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

    fn reset(&mut self) {
        for e in self.stack.iter_mut().take(self.cnt) {
            *e = (-1, -1);
        }
        self.cnt = 0;
    }

    fn head(&self, k: usize) -> (i32, i32) {
        self.stack.get(k).copied().unwrap_or((-1, -1))
    }

    fn pop(&mut self, n: usize) {
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

    fn push_front(&mut self, b: (i32, i32)) {
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
    fn blocks(&mut self, a: &Acker, old_seqno: i32, dsacks: bool, c_stdout: &mut Vec<u8>) -> ([(i32, i32); 4], usize) {
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

/// What an ACK copies from the packet it acknowledges.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    seqno: i32,
    ts: f64,
    fid: i32,
    cong_action: bool,
    ect: bool,
    ce: bool,
    ecnecho: bool,
}

impl Seen {
    #[inline]
    fn of(pk: &crate::packet::Packet) -> Seen {
        Seen {
            seqno: pk.seqno,
            ts: pk.ts,
            fid: pk.fid,
            cong_action: pk.cong_action,
            ect: pk.ecn_capable,
            ce: pk.ecn_to_echo,
            ecnecho: pk.ecn,
        }
    }
}

/// `TcpSink` and `DelAckSink`.
#[derive(Clone, Debug)]
pub struct Sink {
    pub acker: Acker,
    pub bytes: i32,
    pub lastreset: f64,
    pub ts_echo_bugfix: bool,
    pub ts_echo_rfc1323: bool,
    pub generate_dsacks: bool,
    pub qs_enabled: bool,
    pub rfc2581_immediate_ack: bool,
    pub syn_immediate_ack: bool,
    pub ecn_syn: bool,
    pub max_sack_blocks: i32,
    /// `Some` for `Agent/TCPSink/DelAck`: its delayed-ACK timer.
    pub delack_timer: Option<u32>,
    pub interval: f64,
    /// `Some` for the SACK sinks.
    pub sacker: Option<Sacker>,
    /// `windowOptionS_` (New-ECN patch): 8 echoes each CE mark once.
    pub window_option_s: i32,
    /// The packet whose ACK is being delayed (`save_`).
    save: Option<Seen>,
}

impl Sink {
    pub fn new(delack_timer: Option<u32>) -> Sink {
        Sink {
            acker: Acker::default(),
            bytes: 0,
            lastreset: 0.0,
            ts_echo_bugfix: true,
            ts_echo_rfc1323: false,
            generate_dsacks: false,
            qs_enabled: false,
            rfc2581_immediate_ack: true,
            syn_immediate_ack: true,
            ecn_syn: false,
            max_sack_blocks: 3,
            delack_timer,
            interval: 0.1,
            sacker: None,
            window_option_s: 1,
            save: None,
        }
    }

    pub fn reset(&mut self, sim: &mut Sim) {
        if let Some(t) = self.delack_timer {
            if sim.w.s.timer_status(t) == TimerStatus::Pending {
                sim.w.s.timer_cancel(t);
            }
        }
        if let Some(sk) = self.sacker.as_mut() {
            sk.reset();
        }
        self.acker.reset();
        self.save = None;
        self.lastreset = sim.w.s.now;
    }

    /// `TcpSink::ack`: build and send the ACK for packet `o`; `sf` is the
    /// saved delayed packet (`save_`), if any.  The ACK is written into
    /// packet `np`, which `initpkt` makes a fresh packet of this agent.
    ///
    /// Inlined so that a plain `TcpSink`'s call, where `sf` is a constant
    /// `None`, drops every test of the saved packet.
    #[inline(always)]
    fn ack(&mut self, b: &mut AgentBase, sim: &mut Sim, np: PktId, o: &Seen, sf: Option<Seen>) {
        b.initpkt(sim, np);
        let now = sim.w.s.now;
        let seqno = self.acker.seqno();
        if sf.map_or(false, |s| s.cong_action) || o.cong_action {
            self.acker.ecn_unacked = false;
        }
        if sf.map_or(false, |s| s.ect && s.ce) || (o.ect && o.ce) {
            self.acker.ecn_unacked = true;
        }
        let ts_echo = if self.ts_echo_bugfix { self.acker.ts_to_echo } else { o.ts };
        {
            let pk = sim.w.pool.get_mut(np);
            pk.seqno = seqno;
            pk.ts = now;
            pk.ts_echo = ts_echo;
            pk.fid = o.fid;
            if self.window_option_s == 8 {
                // New-ECN: echo the mark of this packet (or the delayed one)
                // only, not until the sender's CWR.
                if sf.map_or(false, |s| s.ce) || (o.ect && o.ce) {
                    pk.ecn = true;
                }
            } else if sf.map_or(false, |s| s.ect) || o.ect {
                pk.ecn = self.acker.ecn_unacked;
            }
            if (!o.ect && o.ecnecho) || sf.map_or(false, |s| !s.ect && s.ecnecho) {
                pk.ecn = true;
                if self.ecn_syn {
                    pk.ecn_capable = true;
                }
            }
        }
        let nb = match self.sacker.as_mut() {
            Some(sk) => {
                let (blocks, nb) = sk.blocks(&self.acker, o.seqno, self.generate_dsacks, &mut sim.w.c_stdout);
                let pk = sim.w.pool.get_mut(np);
                if nb > 0 {
                    pk.sa = blocks;
                    pk.size += 8 * nb as i32;
                }
                nb
            }
            None => 0,
        };
        sim.w.pool.get_mut(np).sa_len = nb as u8;
        self.acker.last_ack_sent = seqno;
        b.send(sim, np);
    }

    /// `TcpSink::recv` / `DelAckSink::recv`.  Kept out of line: inlined
    /// into the agents' shared `recv`, its registers and stack cost the
    /// TCP sender's path as well (measured: more instructions overall).
    #[inline(never)]
    pub fn recv(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        let (num_bytes, seq, ts) = {
            let pk = sim.w.pool.get(p);
            (pk.size, pk.seqno, pk.ts)
        };
        if ts < self.lastreset {
            sim.w.pool.free(p);
            return;
        }
        self.acker.update_ts(seq, ts, self.ts_echo_rfc1323);
        let n = self.acker.update(seq, num_bytes);
        if self.acker.size_errors > 0 {
            self.acker.size_errors = 0;
            sim.w.c_stdout.extend_from_slice(b"Error, received TCP packet size <= 0\n");
        }
        if n != 0 {
            self.bytes = self.bytes.wrapping_add(n);
            b.recv_bytes(sim, n);
        }
        // ns-2 allocates the ACK, sends it, then frees `p`; the ACK is
        // written into `p` instead (see `AgentBase::initpkt`).  What the
        // ACK copies from `p` is read only now (nothing above changes `p`):
        // a plain sink's path then keeps none of it across the calls above,
        // and the delayed-ACK sink's path reads its own.
        match self.delack_timer {
            None => {
                let seen = Seen::of(sim.w.pool.get(p));
                self.ack(b, sim, p, &seen, None)
            }
            Some(t) => self.delack_recv(b, sim, p, t),
        }
    }

    /// `DelAckSink::recv` after the `Acker`'s update: ACK now, or save the
    /// packet's details and start the delayed-ACK timer.  Out of line: a
    /// plain sink's path is the inlined one.
    #[inline(never)]
    fn delack_recv(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId, t: u32) {
        let seen = Seen::of(sim.w.pool.get(p));
        let seq = seen.seqno;
        if sim.w.s.timer_status(t) != TimerStatus::Pending && seq == self.acker.seqno() {
            let immediate = (self.rfc2581_immediate_ack && seq < self.acker.maxseen)
                || (self.syn_immediate_ack && seq == 0);
            if !immediate {
                self.save = Some(seen);
                sim.w.s.timer_resched(t, self.interval);
                sim.w.pool.free(p);
                return;
            }
        }
        if sim.w.s.timer_status(t) == TimerStatus::Pending {
            sim.w.s.timer_cancel(t);
        }
        let sf = self.save;
        self.delack_ack(b, sim, p, &seen, sf);
        self.save = None;
    }

    /// `ack` for the delayed-ACK sink, kept out of line: a plain sink's
    /// path is the inlined one.
    #[inline(never)]
    fn delack_ack(&mut self, b: &mut AgentBase, sim: &mut Sim, np: PktId, o: &Seen, sf: Option<Seen>) {
        self.ack(b, sim, np, o, sf)
    }

    /// `DelAckSink::timeout`: ACK the saved packet.
    pub fn timeout(&mut self, b: &mut AgentBase, sim: &mut Sim) {
        if let Some(s) = self.save {
            // ns-2 calls ack(save_) with save_ still set, so the saved packet
            // is both "o" and "sf".
            let np = sim.w.pool.alloc();
            self.delack_ack(b, sim, np, &s, Some(s));
            self.save = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acker_delivers_in_order_and_buffers_holes() {
        let mut a = Acker::default();
        assert_eq!(a.update(0, 40), 40);
        assert_eq!(a.seqno(), 0);
        assert_eq!(a.update(2, 1000), 0, "hole at 1");
        assert_eq!(a.seqno(), 0);
        assert_eq!(a.update(1, 1000), 2000);
        assert_eq!(a.seqno(), 2);
        assert_eq!(a.update(1, 1000), 0, "duplicate delivers nothing");
    }

    #[test]
    fn acker_grows_its_window() {
        let mut a = Acker::default();
        a.update(0, 1);
        assert_eq!(a.update(200, 1), 0);
        assert!(a.wndmask >= 255);
        let mut total = 0;
        for s in 1..200 {
            total += a.update(s, 1);
        }
        assert_eq!(total, 200);
        assert_eq!(a.seqno(), 200);
    }
}
