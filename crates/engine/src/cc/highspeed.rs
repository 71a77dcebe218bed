//! HighSpeed TCP (RFC 3649), as Linux 2.6.2x's tcp_highspeed.c (ns-2's
//! copy tcp/linux/src/tcp_highspeed.c): above ssthresh the window grows by
//! a(w) segments per window and is cut by b(w), both looked up in RFC
//! 3649's table (a(w) = index + 1; b(w) = md/256), found by walking from
//! the last entry used.
//!
//! The ns-3 dialect is ns-3.37's TcpHighSpeed (tcp-highspeed.cc): RFC
//! 3649's table with one more row (94717 segments, a = 73) and b(w) in
//! hundredths (0.50, 0.44, ...; Linux's md/256 rounds differently); above
//! ssthresh an ACK of n segments adds n a(w) to a counter, each whole
//! window of it one MSS (the window becomes whole segments); the loss
//! response is ssthresh = max(2, segments in flight x (1 - b)) segments,
//! b looked up at the segments in flight (Linux: at cwnd).  Slow start is
//! NewReno's.  No attributes.

use super::{reno, CaEvent, CaState, CongestionOps, Sock};

/// ns-3.37's `TableLookupA`/`TableLookupB`: a(w) is the index of the
/// first row at or above w, plus one (73 above the last); b(w) in
/// hundredths (9 above the last).
const NS3_ROWS: usize = 73;
const NS3_B: [u8; NS3_ROWS] = [
    50, 44, 41, 38, 37, 35, 34, 33, 32, 31, 30, 29, 28, 28, 27, 27, 26, 26, 25, 25, 24, 24, 23, 23, 22, 22, 22, 21, 21, 21, 20, 20, 20, 19, 19,
    19, 19, 18, 18, 18, 17, 17, 17, 17, 16, 16, 16, 16, 15, 15, 15, 15, 14, 14, 14, 14, 13, 13, 13, 13, 13, 12, 12, 12, 12, 11, 11, 11, 10, 10,
    10, 10, 9,
];

fn ns3_row(w: u32) -> Option<usize> {
    (0..NS3_ROWS).find(|&i| w as u64 <= if i < AIMD.len() { AIMD[i].0 } else { 94717 })
}

/// `TableLookupA`.
pub fn ns3_a(w: u32) -> u32 {
    ns3_row(w).map_or(73, |i| i as u32 + 1)
}

/// `TableLookupB`.
pub fn ns3_b(w: u32) -> f64 {
    ns3_row(w).map_or(9, |i| NS3_B[i]) as f64 / 100.0
}

/// RFC 3649's table: (window, decrease factor times 256).
pub const AIMD: &[(u64, u64)] = &[
    (38, 128),
    (118, 112),
    (221, 104),
    (347, 98),
    (495, 93),
    (663, 89),
    (851, 86),
    (1058, 83),
    (1284, 81),
    (1529, 78),
    (1793, 76),
    (2076, 74),
    (2378, 72),
    (2699, 71),
    (3039, 69),
    (3399, 68),
    (3778, 66),
    (4177, 65),
    (4596, 64),
    (5036, 62),
    (5497, 61),
    (5979, 60),
    (6483, 59),
    (7009, 58),
    (7558, 57),
    (8130, 56),
    (8726, 55),
    (9346, 54),
    (9991, 53),
    (10661, 52),
    (11358, 52),
    (12082, 51),
    (12834, 50),
    (13614, 49),
    (14424, 48),
    (15265, 48),
    (16137, 47),
    (17042, 46),
    (17981, 45),
    (18955, 45),
    (19965, 44),
    (21013, 43),
    (22101, 43),
    (23230, 42),
    (24402, 41),
    (25618, 41),
    (26881, 40),
    (28193, 39),
    (29557, 39),
    (30975, 38),
    (32450, 38),
    (33986, 37),
    (35586, 36),
    (37253, 36),
    (38992, 35),
    (40808, 35),
    (42707, 34),
    (44694, 33),
    (46776, 33),
    (48961, 32),
    (51258, 32),
    (53677, 31),
    (56230, 30),
    (58932, 30),
    (61799, 29),
    (64851, 28),
    (68113, 28),
    (71617, 27),
    (75401, 26),
    (79517, 26),
    (84035, 25),
    (89053, 24),
];

#[derive(Clone, Debug, Default)]
pub struct HighSpeed {
    /// Index into `AIMD`: the current a(w) - 1.
    pub ai: usize,
    /// The ns-3 dialect's `m_ackCnt`.
    pub ns3_ack_cnt: u32,
}

impl CongestionOps for HighSpeed {
    const NAME: &'static str = "highspeed";
    const HAS_MIN_CWND: bool = true;
    const NS3_NATIVE: bool = true;
    const NS3_PKTS_ACKED: bool = false;

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    /// `GetSsThresh`.
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        let m = sk.mss_cache as u32;
        let seg = if m == 0 { 0 } else { bytes_in_flight / m };
        let b = 1.0 - ns3_b(seg);
        let ss = (seg as f64 * b).max(2.0) as u32;
        ss.wrapping_mul(m)
    }
    /// NewReno's `IncreaseWindow` with HighSpeed's `CongestionAvoidance`.
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        let cnt = &mut self.ns3_ack_cnt;
        reno::ns3_increase_with(sk, segments_acked, |sk, n| {
            let old = sk.cwnd_segments();
            let mut seg = old;
            if n > 0 {
                *cnt = cnt.wrapping_add(n.wrapping_mul(ns3_a(seg)));
            }
            // (a window under one segment would loop for ever in ns-3)
            while seg > 0 && *cnt >= seg {
                *cnt -= seg;
                seg += 1;
            }
            if seg != old {
                sk.cwnd_bytes = seg.wrapping_mul(sk.mss_cache as u32);
            }
        });
    }
    fn ns3_pkts_acked(&mut self, _sk: &mut Sock, _segments_acked: u32, _rtt_ns: i64) {}
    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn init(&mut self, sk: &mut Sock) {
        self.ai = 0;
        // min_t(u32, clamp, 0xffffffff/128) with ns-2's 64-bit u32.
        sk.snd_cwnd_clamp = (sk.snd_cwnd_clamp as u64).min(0xffff_ffff / 128) as u32;
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        (sk.snd_cwnd - ((sk.snd_cwnd * AIMD[self.ai].1) >> 8)).max(2)
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
            return;
        }
        if sk.snd_cwnd > AIMD[self.ai].0 {
            while sk.snd_cwnd > AIMD[self.ai].0 && self.ai < AIMD.len() - 1 {
                self.ai += 1;
            }
        } else if self.ai > 0 && sk.snd_cwnd <= AIMD[self.ai - 1].0 {
            while self.ai > 0 && sk.snd_cwnd <= AIMD[self.ai - 1].0 {
                self.ai -= 1;
            }
        }
        if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
            sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(self.ai as u32 + 1);
            if sk.snd_cwnd_cnt as u64 >= sk.snd_cwnd {
                sk.snd_cwnd_cnt = (sk.snd_cwnd_cnt as u64 - sk.snd_cwnd) as u32;
                sk.snd_cwnd += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cwnd 38 (the table's first row): a = 1, one segment per 38 ACKs, cut
    /// by 128/256 to 19.  cwnd 120 (> 118, <= 221): the third row, a = 3
    /// (cnt grows by 3 per ACK: 40 ACKs per segment), cut by 104/256:
    /// 120 - 120*104/256 = 120 - 48 = 72.
    #[test]
    fn table_lookup() {
        let mut c = HighSpeed::default();
        let mut sk = Sock { snd_cwnd: 38, snd_ssthresh: 10, snd_cwnd_clamp: 100_000, ..Default::default() };
        c.init(&mut sk);
        for _ in 0..37 {
            c.cong_avoid(&mut sk, 0, 0, 38, true);
        }
        assert_eq!(sk.snd_cwnd, 38);
        c.cong_avoid(&mut sk, 0, 0, 38, true);
        assert_eq!(sk.snd_cwnd, 39);
        let mut c = HighSpeed::default();
        sk.snd_cwnd = 38;
        assert_eq!(c.ssthresh(&sk), 19);
        sk.snd_cwnd = 120;
        sk.snd_cwnd_cnt = 0;
        c.cong_avoid(&mut sk, 0, 0, 120, true);
        assert_eq!((c.ai, sk.snd_cwnd_cnt), (2, 3));
        assert_eq!(c.ssthresh(&sk), 72);
        // Back down: the walk returns to row 0 for cwnd 30.
        sk.snd_cwnd = 30;
        c.cong_avoid(&mut sk, 0, 0, 30, true);
        assert_eq!(c.ai, 0);
    }

    /// ns-3.37's tcp-highspeed-test.cc: for each window of its table
    /// (71 rows, as it lists them, 53677 included) in segments of 1, 536
    /// and 1446 bytes, in congestion avoidance (ssthresh 0):
    /// IncreaseWindow(w / a(w) + 1) adds exactly one MSS, and GetSsThresh
    /// with the window in flight is max(2, w (1 - b(w))) segments.  Also
    /// the table's ends: a(38) = 1, a(39) = 2, a(94717) = 73 and 73 beyond;
    /// b(39) = 0.44, 0.09 beyond.
    #[test]
    fn ns3_highspeed_test_suite() {
        const W: [u32; 71] = [
            38, 118, 221, 347, 495, 663, 851, 1058, 1284, 1529, 1793, 2076, 2378, 2699, 3039, 3399, 3778, 4177, 4596, 5036, 5497, 5979, 6483,
            7009, 7558, 8130, 8726, 9346, 9991, 10661, 11358, 12082, 12834, 13614, 14424, 15265, 16137, 17042, 17981, 18955, 19965, 21013,
            22101, 23230, 24402, 25618, 26881, 28193, 29557, 30975, 32450, 33986, 35586, 37253, 38992, 40808, 42707, 44694, 46776, 48961,
            51258, 53677, 56230, 58932, 61799, 64851, 68113, 71617, 75401, 79517, 84035,
        ];
        for w in W {
            for mss in [1u32, 536, 1446] {
                let mut c = HighSpeed::default();
                let mut sk = Sock { cwnd_bytes: w * mss, ssthresh_bytes: 0, mss_cache: mss as u64, ..Default::default() };
                c.ns3_increase_window(&mut sk, w / ns3_a(w) + 1);
                assert_eq!(sk.cwnd_bytes, w * mss + mss, "increase at {w} x {mss}");
                let want = (w as f64 * (1.0 - ns3_b(w))).max(2.0) as u32;
                assert_eq!(c.ns3_ssthresh(&mut sk, w * mss) / mss, want, "decrease at {w} x {mss}");
            }
        }
        assert_eq!((ns3_a(38), ns3_a(39), ns3_a(94717), ns3_a(94718)), (1, 2, 73, 73));
        assert_eq!((ns3_b(39), ns3_b(94718)), (0.44, 0.09));
        // 100 segments in flight: b 0.44, 100 x 0.56 = 56.00000000000001 -> 56
        let mut c = HighSpeed::default();
        let mut sk = Sock { mss_cache: 1000, ..Default::default() };
        assert_eq!(c.ns3_ssthresh(&mut sk, 100_500), 56_000);
        // a(w) = 2 at 40 segments: 20 ACKs add a segment, the counter keeps 0
        let mut sk = Sock { cwnd_bytes: 40_000, ssthresh_bytes: 1000, mss_cache: 1000, ..Default::default() };
        for _ in 0..19 {
            c.ns3_increase_window(&mut sk, 1);
        }
        assert_eq!((sk.cwnd_bytes, c.ns3_ack_cnt), (40_000, 38));
        c.ns3_increase_window(&mut sk, 1);
        assert_eq!((sk.cwnd_bytes, c.ns3_ack_cnt), (41_000, 0));
    }
}
