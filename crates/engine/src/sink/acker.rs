//! ns-2's `Acker` (tcp/tcp-sink.cc): which packets have arrived, the
//! cumulative ACK, and the timestamps to echo.

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
    pub(super) wndmask: i32,
    pub ecn_unacked: bool,
    pub ts_to_echo: f64,
    pub last_ack_sent: i32,
    /// Packets of size <= 0 seen since the last look (ns-2 prints an error).
    pub size_errors: u32,
    pub(super) seen: Vec<i32>,
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
    pub(super) fn has(&self, i: i32) -> bool {
        self.seen[(i & self.wndmask) as usize] != 0
    }

    /// `seen_[i & m]`, `m` being `wndmask`, without a bounds check: the
    /// sink's per-packet `update` indexes `seen` five or six times.
    #[inline(always)]
    pub(super) fn at(seen: &mut [i32], m: i32, i: i32) -> &mut i32 {
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

    pub(super) fn resize_buffers(&mut self, sz: usize) {
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
