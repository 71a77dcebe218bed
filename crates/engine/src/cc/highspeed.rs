//! HighSpeed TCP (RFC 3649), as Linux 2.6.2x's tcp_highspeed.c (ns-2's
//! copy tcp/linux/src/tcp_highspeed.c): above ssthresh the window grows by
//! a(w) segments per window and is cut by b(w), both looked up in RFC
//! 3649's table (a(w) = index + 1; b(w) = md/256), found by walking from
//! the last entry used.
//!
//! ns-3.37's TcpHighSpeed works a(w) and b(w) out of the same table but
//! grows by `segmentsAcked * a(w) / cwnd` of a byte-based window.

use super::{reno, CongestionOps, Sock};

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
}

impl CongestionOps for HighSpeed {
    const NAME: &'static str = "highspeed";
    const HAS_MIN_CWND: bool = true;

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
}
