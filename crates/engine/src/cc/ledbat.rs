//! LEDBAT (RFC 6817, Low Extra Delay Background Transport) as ns-3.37's
//! TcpLedbat (src/internet/model/tcp-ledbat.cc), on the full TCP only.
//!
//! The one-way delay of an ACK is TSval - TSecr of its timestamp option
//! (the receiver's clock at the ACK less the echoed clock of the sender
//! at the segment; both ms ticks, 32-bit unsigned arithmetic).  Each
//! `PktsAcked` with a positive RTT estimate adds it to the noise filter
//! (the last `noise_filter_len` - 1 delays: ns-3's circular buffer drops
//! its oldest once it reaches the length, so it holds one fewer) and to
//! the base-delay history: one minimum per minute bucket (a new bucket when
//! more than 60 whole seconds passed since the last rollover; the first
//! sample opens one without moving the rollover time, which starts at 0),
//! `base_history_len` - 1 buckets kept.  Queuing delay = min(noise filter)
//! - min(history); in congestion avoidance the window moves by
//! gain * (target - queuing delay) / target * MSS * segments acked * MSS
//! / cwnd (RFC 6817 section 2.4.2; a delay below the base counts as a
//! negative queuing delay, ns-3's `offset = target + (base - current)`),
//! capped at the flight plus what this ACK acknowledged and floored at
//! `min_cwnd` segments; when the window is at or below ssthresh, ssthresh
//! becomes cwnd - 1.  Slow start (NewReno's) runs only while `do_ss` is on,
//! the window is at or below ssthresh and LEDBAT has not yet left it (it
//! may again once the window falls to one MSS).  An ACK without both
//! timestamps (TSval or TSecr 0) makes the delay invalid and congestion
//! avoidance NewReno's.  The loss response is NewReno's (ns-3's TcpLedbat
//! inherits `GetSsThresh`).
//!
//! ns-3's arithmetic kept: `static_cast<int32_t>` of the byte count
//! (x86-64's cvttsd2si: out of range is i32::MIN), the window as a 32-bit
//! unsigned sum of a double, the target in whole ms.
//!
//! ns-2 2.35 has no LEDBAT module, so `Agent/TCP/Linux`'s `select_ca`
//! refuses it (`LINUX_DIALECT`); the Linux hooks below are NewReno's (what
//! TcpLedbat falls back to) for the seam's completeness only.

use super::{reno, cast_u32, CongestionOps, Param, Sock};

/// The ns-3 attributes' slots in `Sock::p`.
pub const TARGET_DELAY_MS: usize = 0;
pub const BASE_HISTORY_LEN: usize = 1;
pub const NOISE_FILTER_LEN: usize = 2;
pub const GAIN_MILLI: usize = 3;
pub const DO_SS: usize = 4;
pub const MIN_CWND: usize = 5;

/// ns-3's `OwdCircBuf`: the delays and the index of the least.
#[derive(Clone, Debug, Default)]
pub struct OwdBuf {
    pub buffer: Vec<u32>,
    pub min: usize,
}

impl OwdBuf {
    /// `MinCircBuf`: the least delay, `~0U` when empty.
    pub fn least(&self) -> u32 {
        if self.buffer.is_empty() {
            u32::MAX
        } else {
            self.buffer[self.min]
        }
    }

    /// `AddDelay` with ns-3's order: append, note a new least, and at
    /// `maxlen` drop the oldest and look for the least again.
    pub fn add(&mut self, owd: u32, maxlen: usize) {
        if self.buffer.is_empty() {
            self.buffer.push(owd);
            self.min = 0;
            return;
        }
        self.buffer.push(owd);
        if self.buffer[self.min] > owd {
            self.min = self.buffer.len() - 1;
        }
        if self.buffer.len() >= maxlen {
            self.buffer.remove(0);
            self.min = 0;
            // (ns-3 scans indices 1 .. maxlen - 1, which is the buffer's
            // length here: maxlen is at least 1, refused below that)
            for i in 1..maxlen.saturating_sub(1).min(self.buffer.len()) {
                if self.buffer[i] < self.buffer[self.min] {
                    self.min = i;
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct Ledbat {
    pub base_history: OwdBuf,
    pub noise_filter: OwdBuf,
    /// Whole seconds of the last base-history rollover.
    pub last_rollover: u64,
    /// `m_sndCwndCnt`: the last step's bytes, times the target (ms).
    pub snd_cwnd_cnt: i32,
    /// `LEDBAT_VALID_OWD`: the last ACK had both timestamps.
    pub valid_owd: bool,
    /// `LEDBAT_CAN_SS`: slow start is still allowed.
    pub can_ss: bool,
}

impl Default for Ledbat {
    fn default() -> Self {
        Ledbat { base_history: OwdBuf::default(), noise_filter: OwdBuf::default(), last_rollover: 0, snd_cwnd_cnt: 0, valid_owd: false, can_ss: true }
    }
}

/// `static_cast<int32_t>` of a double as gcc compiles it on x86-64
/// (cvttsd2si with a 32-bit destination: NaN and out of range give
/// i32::MIN).
#[inline]
fn cast_i32(x: f64) -> i32 {
    if x.is_finite() && x > -2_147_483_649.0 && x < 2_147_483_648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// The ranges `socket::cc` enforces for these attributes.
pub fn param_range(name: &str) -> Option<(i32, i32)> {
    match name {
        // a target of 0 divides by zero
        "target_delay_ms" => Some((1, 3_600_000)),
        // a length of 0 makes ns-3 read beyond its buffer; the filter
        // holds length - 1 delays, each looked through at every rollover
        "base_history_len" | "noise_filter_len" => Some((1, 100_000)),
        "gain_milli" => Some((0, 1_000_000)),
        "do_ss" => Some((0, 1)),
        "min_cwnd" => Some((1, 65_535)),
        _ => None,
    }
}

impl Ledbat {
    /// `UpdateBaseDelay`.
    fn update_base_delay(&mut self, sk: &Sock, owd: u32) {
        let maxlen = sk.p[BASE_HISTORY_LEN].max(1) as usize;
        if self.base_history.buffer.is_empty() {
            self.base_history.add(owd, maxlen);
            return;
        }
        // `static_cast<uint64_t>(Simulator::Now().GetSeconds())`
        let now_s = (sk.now_ns.max(0) as f64 / 1e9) as u64;
        if now_s.wrapping_sub(self.last_rollover) > 60 {
            self.last_rollover = now_s;
            self.base_history.add(owd, maxlen);
        } else {
            let b = &mut self.base_history;
            let last = b.buffer.len() - 1;
            if owd < b.buffer[last] {
                b.buffer[last] = owd;
                if owd < b.buffer[b.min] {
                    b.min = last;
                }
            }
        }
    }

    /// `CongestionAvoidance`.
    fn congestion_avoidance(&mut self, sk: &mut Sock, segments_acked: u32) {
        if !self.valid_owd {
            return reno::ns3_congestion_avoidance(sk, segments_acked);
        }
        let target = sk.p[TARGET_DELAY_MS] as i64;
        let gain = sk.p[GAIN_MILLI] as f64 / 1000.0;
        let mss = sk.mss_cache as u32;
        let current = self.noise_filter.least() as u64;
        let base = self.base_history.least() as u64;
        let mut offset = if current > base {
            (target - (current - base) as i64) as f64
        } else {
            (target + (base - current) as i64) as f64
        };
        offset *= gain;
        self.snd_cwnd_cnt = cast_i32(offset * segments_acked as f64 * mss as f64);
        let inc = self.snd_cwnd_cnt as f64 / (target * sk.cwnd_bytes as i64) as f64;
        let mut cwnd = cast_u32(sk.cwnd_bytes as f64 + inc * mss as f64);
        // SequenceNumber32's difference, then segments acked in bytes
        let max_cwnd = (sk.high_tx as u32).wrapping_sub(sk.snd_una as u32).wrapping_add(segments_acked.wrapping_mul(mss));
        cwnd = cwnd.min(max_cwnd);
        cwnd = cwnd.max((sk.p[MIN_CWND] as u32).wrapping_mul(mss));
        sk.cwnd_bytes = cwnd;
        if sk.cwnd_bytes <= sk.ssthresh_bytes {
            sk.ssthresh_bytes = sk.cwnd_bytes.wrapping_sub(1);
        }
    }
}

impl CongestionOps for Ledbat {
    const NAME: &'static str = "ledbat";
    const NS3_NATIVE: bool = true;
    const NS3_CLOCK: bool = true;
    const LINUX_DIALECT: bool = false;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "target_delay_ms", default: 100, about: "Targeted queue delay, ms [TargetDelay]" },
        Param { name: "base_history_len", default: 10, about: "Number of base delay samples (minute buckets) [BaseHistoryLen]" },
        Param { name: "noise_filter_len", default: 4, about: "Number of current delay samples [NoiseFilterLen]" },
        Param { name: "gain_milli", default: 1000, about: "Offset gain, 1/1000 [Gain]" },
        Param { name: "do_ss", default: 1, about: "Slow start (1) or not (0) [SSParam]" },
        Param { name: "min_cwnd", default: 2, about: "Minimum cWnd, segments [MinCwnd]" },
    ];

    fn ns3_init(&mut self, _sk: &mut Sock) {}

    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        reno::ns3_ssthresh(sk, bytes_in_flight)
    }

    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        if sk.cwnd_bytes as u64 <= sk.mss_cache {
            self.can_ss = true;
        }
        if sk.p[DO_SS] != 0 && sk.cwnd_bytes <= sk.ssthresh_bytes && self.can_ss {
            reno::ns3_slow_start(sk, segments_acked);
        } else {
            self.can_ss = false;
            self.congestion_avoidance(sk, segments_acked);
        }
    }

    fn ns3_pkts_acked(&mut self, sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        let (tsval, tsecr) = (sk.rcv_tsval as u32, sk.rcv_tsecr as u32);
        self.valid_owd = tsval != 0 && tsecr != 0;
        if rtt_ns > 0 {
            let owd = tsval.wrapping_sub(tsecr);
            let n = sk.p[NOISE_FILTER_LEN].max(1) as usize;
            self.noise_filter.add(owd, n);
            self.update_base_delay(sk, owd);
        }
    }

    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: super::CaState) {}

    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: super::CaEvent) {}

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        reno::ssthresh(sk)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        reno::cong_avoid(sk, in_flight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ns-3 view of ns-3.37's tests: cwnd, ssthresh, MSS 1446,
    /// m_highTxMark 4753, m_lastAckedSeq 3216, the attributes' defaults.
    fn sock(cwnd: u32, ssthresh: u32) -> Sock {
        let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, mss_cache: 1446, high_tx: 4753, snd_una: 3216, ..Sock::default() };
        for (i, p) in Ledbat::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    fn newreno(cwnd: u32, ssthresh: u32, segs: u32) -> u32 {
        let mut sk = sock(cwnd, ssthresh);
        reno::ns3_increase_window(&mut sk, segs);
        sk.cwnd_bytes
    }

    /// tcp-ledbat-test.cc, TcpLedbatToNewReno: "falls to New Reno for
    /// slowstart" (2 MSS, ssthresh 4 MSS: slow start, +1 MSS) and "if
    /// timestamps are not found" (4 MSS over ssthresh 2 MSS, no delay:
    /// NewReno's 1446²/5784 = 361 bytes).
    #[test]
    fn ns3_falls_to_newreno() {
        for (cwnd, ss, want) in [(2 * 1446, 4 * 1446, 3 * 1446), (4 * 1446, 2 * 1446, 4 * 1446 + 361)] {
            let mut l = Ledbat::default();
            let mut sk = sock(cwnd, ss);
            l.ns3_increase_window(&mut sk, 2);
            assert_eq!(sk.cwnd_bytes, newreno(cwnd, ss, 2));
            assert_eq!(sk.cwnd_bytes, want);
        }
    }

    /// The same ACK with do_ss 0, noise filter 1, delays 1 then 3 ms (so
    /// the filter holds 3, the base 1): queuing delay 2 ms, offset 98:
    /// 2892 + 98 * 2 * 1446 / (100 * 2892) * 1446 = 2892 + 1417.08 = 4309
    /// (test expectation: cwnd + 0.98 * 2 * 1446² / cwnd), under the cap
    /// 4753 - 3216 + 2 * 1446 = 4429.  Slow start was allowed (2 MSS <=
    /// 4 MSS) but is off.
    #[test]
    fn ns3_increment() {
        let mut l = Ledbat::default();
        let mut sk = sock(2 * 1446, 4 * 1446);
        sk.p[DO_SS] = 0;
        sk.p[NOISE_FILTER_LEN] = 1;
        (sk.rcv_tsval, sk.rcv_tsecr) = (2, 1);
        l.ns3_pkts_acked(&mut sk, 2, 100_000_000);
        (sk.rcv_tsval, sk.rcv_tsecr) = (7, 4);
        l.ns3_pkts_acked(&mut sk, 2, 100_000_000);
        assert_eq!((l.noise_filter.least(), l.base_history.least()), (3, 1));
        l.ns3_increase_window(&mut sk, 2);
        let expect = (2892.0 + (0.98 * 2.0 * 1446.0 * 1446.0) / 2892.0) as u32;
        assert_eq!(sk.cwnd_bytes, expect);
        assert_eq!(sk.cwnd_bytes, 4309);
        // at or below ssthresh: ssthresh follows at cwnd - 1
        assert_eq!(sk.ssthresh_bytes, 4308);
    }

    /// Delays 1 then 199 ms: queuing delay 198, offset -98: 2892 - 1417.08
    /// = 1474, floored at MinCwnd 2 MSS = 2892 (test expectation).  With
    /// min_cwnd 1 the floor is 1446 and the step's 1474 stands.
    #[test]
    fn ns3_decrement() {
        for (min_cwnd, want) in [(2, 2892), (1, 1474)] {
            let mut l = Ledbat::default();
            let mut sk = sock(2 * 1446, 4 * 1446);
            sk.p[DO_SS] = 0;
            sk.p[NOISE_FILTER_LEN] = 1;
            sk.p[MIN_CWND] = min_cwnd;
            (sk.rcv_tsval, sk.rcv_tsecr) = (2, 1);
            l.ns3_pkts_acked(&mut sk, 2, 100_000_000);
            (sk.rcv_tsval, sk.rcv_tsecr) = (205, 6);
            l.ns3_pkts_acked(&mut sk, 2, 100_000_000);
            l.ns3_increase_window(&mut sk, 2);
            assert_eq!(sk.cwnd_bytes, want);
        }
    }

    /// The filters: a length-4 noise filter keeps the last three delays
    /// and their least; the base history keeps one least per minute (the
    /// first sample opens a bucket, the next one after more than 60 whole
    /// seconds another).  No RTT estimate yet: nothing is recorded.
    #[test]
    fn filters_and_minute_buckets() {
        let mut b = OwdBuf::default();
        for d in [5, 9, 7, 8] {
            b.add(d, 4);
        }
        assert_eq!((b.buffer.clone(), b.least()), (vec![9, 7, 8], 7));
        b.add(6, 4);
        assert_eq!((b.buffer.clone(), b.least()), (vec![7, 8, 6], 6));

        let mut l = Ledbat::default();
        let mut sk = sock(10 * 1446, 5 * 1446);
        let mut ack = |l: &mut Ledbat, t_s: f64, owd: u32, rtt: i64| {
            sk.now_ns = (t_s * 1e9) as i64;
            (sk.rcv_tsval, sk.rcv_tsecr) = (1000 + owd as u64, 1000);
            l.ns3_pkts_acked(&mut sk, 1, rtt);
        };
        ack(&mut l, 0.5, 40, 0);
        assert!(l.base_history.buffer.is_empty() && l.valid_owd);
        ack(&mut l, 1.0, 40, 1);
        ack(&mut l, 30.0, 30, 1);
        ack(&mut l, 60.9, 35, 1); // 60 s since 0: same bucket
        assert_eq!(l.base_history.buffer, vec![30]);
        ack(&mut l, 61.0, 50, 1); // 61 > 60: a new bucket
        ack(&mut l, 100.0, 45, 1);
        assert_eq!((l.base_history.buffer.clone(), l.base_history.least(), l.last_rollover), (vec![30, 45], 30, 61));
        // ten buckets at most hold nine minutes
        for m in 2..20u64 {
            ack(&mut l, 61.0 * m as f64 + 0.5, 100 + m as u32, 1);
        }
        assert_eq!(l.base_history.buffer.len(), 9);
        assert_eq!(l.base_history.least(), 111);
        // a zero TSecr: no valid delay, NewReno's avoidance
        sk.rcv_tsecr = 0;
        l.ns3_pkts_acked(&mut sk, 1, 1);
        assert!(!l.valid_owd);
    }

    /// Slow start stops for good once left (even below ssthresh again),
    /// until the window falls to one MSS; the cap holds the window to the
    /// flight plus the bytes acked.
    #[test]
    fn slow_start_once_and_the_cap() {
        let mut l = Ledbat::default();
        let mut sk = sock(4 * 1446, 2 * 1446);
        sk.high_tx = 3216 + 100 * 1446;
        (sk.rcv_tsval, sk.rcv_tsecr) = (11, 1);
        l.ns3_pkts_acked(&mut sk, 1, 1);
        l.ns3_increase_window(&mut sk, 1); // congestion avoidance: leaves slow start
        assert!(!l.can_ss);
        // queuing delay 0: offset 100, + 1 MSS * 1446 / cwnd
        assert_eq!(sk.cwnd_bytes, 4 * 1446 + 361);
        sk.ssthresh_bytes = 100 * 1446;
        l.ns3_increase_window(&mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 4 * 1446 + 361 + 1446 * 1446 / (4 * 1446 + 361));
        sk.cwnd_bytes = 1446;
        l.ns3_increase_window(&mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 2 * 1446); // slow start again
        // the cap: nothing in flight beyond the ACK
        let mut sk = sock(4 * 1446, 2 * 1446);
        (sk.high_tx, sk.snd_una) = (10_000, 10_000);
        (sk.rcv_tsval, sk.rcv_tsecr) = (11, 1);
        let mut l = Ledbat::default();
        l.ns3_pkts_acked(&mut sk, 1, 1);
        l.ns3_increase_window(&mut sk, 3);
        assert_eq!(sk.cwnd_bytes, 3 * 1446);
    }

    #[test]
    fn casts_as_gcc() {
        assert_eq!(cast_i32(-1.9), -1);
        assert_eq!(cast_i32(3e9), i32::MIN);
        assert_eq!(cast_i32(f64::NAN), i32::MIN);
    }
}
