//! CUBIC (Ha, Rhee, Xu, "CUBIC: a new TCP-friendly high-speed TCP variant",
//! SIGOPS OSR 2008; later RFC 8312/9438), as Linux 2.6.2x's tcp_cubic.c
//! version 2.1 (ns-2's copy tcp/linux/src/tcp_cubic.c): W(t) = C (t -
//! K)^3 + Wmax in fixed point (t in 1/1024 s, C = `bic_scale`/1024 * ...),
//! K from an integer cube root (table + one Newton step), `beta`/1024 kept
//! at a loss, fast convergence, the TCP-friendly region (`tcp_friendliness`),
//! the delayed-ACK ratio estimate.  No HyStart (Linux added it in 2.6.29).
//!
//! The derived constants (`beta_scale`, `cube_rtt_scale`, `cube_factor`)
//! are worked out once from the default `beta` and `bic_scale`, as the
//! module's init does: changing those parameters later changes the cut
//! and C only where the module reads them directly, as in ns-2.
//!
//! The ns-3 dialect is ns-3.37's TcpCubic (tcp-cubic.cc), its own model:
//! W(t) = C (t + delayMin - epoch - K)^3 + Wmax in doubles (C 0.4, K the
//! cube root of (Wmax - w)/C, t in s), the target's distance a 32-bit
//! integer; cnt = w / (target - w) (100 w at or above the target, 20 at
//! most before the first loss, at least 2); one MSS when the ACKs counted
//! reach cnt, cnt then taken off the count.  No TCP-friendly region (unless
//! `tcp_friendliness`, below), no delayed-ACK ratio.  Slow start adds every segment acknowledged (not one
//! per ACK) and runs HyStart: a round ends when the ACK passes the highest
//! byte sent at its start; at or above 16 MSS (and cwnd <= ssthresh) an ACK
//! train (ACKs 2 ms or less apart spanning more than delayMin) or a delay
//! rise (the least of the round's first 8 RTTs above delayMin plus
//! delayMin clamped to [4 ms, 1 s], i.e. twice delayMin, where Linux adds
//! delayMin/8) sets ssthresh to cwnd; `m_found` is a bool, so with
//! `HyStartDetect` 2 (delay only) a detection never counts (1 & 2 = 0).
//! The RTTs are those passed to PktsAcked (ns-3's SRTT); samples within
//! `CubicDelta` (10 ms) of an epoch's start are dropped.  At a loss:
//! Wmax = w (1 + beta) / 2 below the last Wmax (fast convergence), else
//! w; ssthresh max(w beta, 2) MSS with beta 0.7 (Linux 2.6: 819/1024);
//! an RTO (Loss) resets Wmax, K, delayMin and HyStart.  Attributes:
//! `fast_convergence`, `beta_pct` (70), `hystart`, `hystart_low_window`,
//! `hystart_detect`, `hystart_min_samples`, `hystart_ack_delta_ms`,
//! `hystart_delay_min_ms`, `hystart_delay_max_ms`, `cubic_delta_ms`,
//! `cnt_clamp`, `c_milli` (400), and one of ours, `tcp_friendliness`.
//!
//! `tcp_friendliness` (Linux's name; ns-3.37 has no such attribute, so the
//! default 0 keeps ns-3.37's CUBIC) adds RFC 9438 section 4.3's
//! Reno-friendly region to the ns-3 dialect: W_est starts at the window of
//! the epoch's start, grows by alpha_cubic x (segments acknowledged) / cwnd
//! per ACK in congestion avoidance, alpha_cubic = 3 (1 - beta) / (1 + beta)
//! (0.529 at beta 0.7), and the window is max(cubic's, W_est) in whole
//! segments.  1: the RFC's rule, alpha_cubic becomes 1 once W_est reaches
//! cwnd_prior (the window when ssthresh was last set; before any loss at
//! once); 2: alpha_cubic all along, as Linux's tcp_cubic (its `tcp_cwnd`,
//! one segment per cwnd x beta_scale / 8 ACKs).

use super::{cast_u32, div64_64, fls64, CaEvent, CaState, CongestionOps, Param, Sock, HZ};

const NS3_FAST_CONVERGENCE: usize = 0;
const NS3_BETA: usize = 1;
const NS3_HYSTART: usize = 2;
const NS3_LOW_WINDOW: usize = 3;
const NS3_DETECT: usize = 4;
const NS3_MIN_SAMPLES: usize = 5;
const NS3_ACK_DELTA: usize = 6;
const NS3_DELAY_MIN: usize = 7;
const NS3_DELAY_MAX: usize = 8;
const NS3_CUBIC_DELTA: usize = 9;
const NS3_CNT_CLAMP: usize = 10;
const NS3_C: usize = 11;
const NS3_TCP_FRIENDLINESS: usize = 12;
const NS3_SLOW_START_CAP: usize = 13;

/// ns-3's `Time::Min()`, the unset time.
const TMIN: i64 = i64::MIN;
const MS: i64 = 1_000_000;

/// ns-3.37's TcpCubic members (times in ns).
#[derive(Clone, Debug)]
pub struct Ns3Cubic {
    pub cwnd_cnt: u32,
    pub last_max: u32,
    pub origin: u32,
    pub k: f64,
    pub delay_min: i64,
    pub epoch_start: i64,
    pub found: bool,
    pub round_start: i64,
    pub end_seq: u64,
    pub last_ack: i64,
    pub curr_rtt: i64,
    pub sample_cnt: u32,
    /// RFC 9438's W_est, in segments (`tcp_friendliness` only).
    pub w_est: f64,
    /// RFC 9438's cwnd_prior: the window, in segments, when ssthresh was
    /// last set (0 before any).
    pub cwnd_prior: u32,
}

impl Default for Ns3Cubic {
    fn default() -> Self {
        Ns3Cubic {
            cwnd_cnt: 0,
            last_max: 0,
            origin: 0,
            k: 0.0,
            delay_min: TMIN,
            epoch_start: TMIN,
            found: false,
            round_start: TMIN,
            end_seq: 0,
            last_ack: TMIN,
            curr_rtt: TMIN,
            sample_cnt: 0,
            w_est: 0.0,
            cwnd_prior: 0,
        }
    }
}

impl Ns3Cubic {
    fn hystart_reset(&mut self, sk: &Sock) {
        self.round_start = sk.now_ns;
        self.last_ack = sk.now_ns;
        self.end_seq = sk.high_tx;
        self.curr_rtt = TMIN;
        self.sample_cnt = 0;
    }

    /// `Update`: segments to acknowledge per one-MSS increase.
    fn update(&mut self, sk: &Sock) -> u32 {
        let seg = sk.cwnd_segments();
        let c = sk.p[NS3_C] as f64 / 1000.0;
        if self.epoch_start == TMIN {
            self.epoch_start = sk.now_ns;
            // RFC 9438 (4.3): W_est = cwnd_epoch
            self.w_est = seg as f64;
            if self.last_max <= seg {
                self.k = 0.0;
                self.origin = seg;
            } else {
                self.k = ((self.last_max - seg) as f64 / c).powf(1.0 / 3.0);
                self.origin = self.last_max;
            }
        }
        let t = sk.now_ns.wrapping_add(self.delay_min).wrapping_sub(self.epoch_start) as f64 / 1e9;
        let offs = if t < self.k { self.k - t } else { t - self.k };
        let delta = cast_u32(c * offs.powi(3));
        let target = if t < self.k { self.origin.wrapping_sub(delta) } else { self.origin.wrapping_add(delta) };
        let mut cnt = if target > seg { seg / (target - seg) } else { seg.wrapping_mul(100) };
        let clamp = sk.p[NS3_CNT_CLAMP] as u8 as u32;
        if self.last_max == 0 && cnt > clamp {
            cnt = clamp;
        }
        cnt.max(2)
    }

    /// RFC 9438 section 4.3, per ACK in congestion avoidance after the
    /// cubic's own step (`seg`: the window before this ACK, in segments;
    /// `mode`: `tcp_friendliness`, 1 or 2):
    ///   alpha_cubic = 3 (1 - beta_cubic) / (1 + beta_cubic)
    ///   W_est = W_est + alpha_cubic x segments_acked / cwnd
    ///   alpha_cubic = 1 once W_est >= cwnd_prior             (mode 1 only)
    ///   cwnd = W_est when W_cubic < W_est: here the larger of the window the
    ///   cubic gave and W_est, in whole segments.
    fn reno_friendly(&mut self, sk: &mut Sock, seg: u32, segments_acked: u32, mode: i32) {
        let beta = sk.p[NS3_BETA] as f64 / 100.0;
        let alpha = if mode == 1 && self.w_est >= self.cwnd_prior as f64 {
            1.0
        } else {
            3.0 * (1.0 - beta) / (1.0 + beta)
        };
        self.w_est += alpha * segments_acked as f64 / seg.max(1) as f64;
        let w = cast_u32(self.w_est);
        if w > sk.cwnd_segments() {
            sk.cwnd_bytes = w.wrapping_mul(sk.mss_cache as u32);
        }
    }

    /// `HystartUpdate`.
    fn hystart_update(&mut self, sk: &mut Sock, delay: i64) {
        let detect = sk.p[NS3_DETECT];
        if self.found as i32 & detect != 0 {
            return;
        }
        let now = sk.now_ns;
        if now.wrapping_sub(self.last_ack) <= sk.p[NS3_ACK_DELTA] as i64 * MS {
            self.last_ack = now;
            if now.wrapping_sub(self.round_start) > self.delay_min {
                self.found = true;
            }
        }
        if self.sample_cnt < sk.p[NS3_MIN_SAMPLES] as u8 as u32 {
            if self.curr_rtt == TMIN || self.curr_rtt > delay {
                self.curr_rtt = delay;
            }
            self.sample_cnt += 1;
        } else {
            let (lo, hi) = (sk.p[NS3_DELAY_MIN] as i64 * MS, sk.p[NS3_DELAY_MAX] as i64 * MS);
            let thresh = if self.delay_min > hi { hi } else if self.delay_min < lo { lo } else { self.delay_min };
            if self.curr_rtt > self.delay_min.wrapping_add(thresh) {
                self.found = true;
            }
        }
        if self.found as i32 & detect != 0 {
            sk.ssthresh_bytes = sk.cwnd_bytes;
        }
    }
}

pub const BETA_SCALE: u64 = 1024;
/// `BICTCP_HZ`: time in 1/2^10 s.
pub const BICTCP_HZ: u32 = 10;
pub const ACK_RATIO_SHIFT: u32 = 4;

pub const FAST_CONVERGENCE: usize = 0;
pub const MAX_INCREMENT: usize = 1;
pub const BETA: usize = 2;
pub const INITIAL_SSTHRESH: usize = 3;
pub const BIC_SCALE: usize = 4;
pub const TCP_FRIENDLINESS: usize = 5;

const DEFAULT_BETA: u64 = 819;
const DEFAULT_BIC_SCALE: u64 = 41;
/// `beta_scale`: 8 (1024 + beta) / 3 / (1024 - beta).
pub const BETA_SCALE_FRIENDLY: u64 = 8 * (BETA_SCALE + DEFAULT_BETA) / 3 / (BETA_SCALE - DEFAULT_BETA);
/// `cube_rtt_scale`: bic_scale * 10.
pub const CUBE_RTT_SCALE: u64 = DEFAULT_BIC_SCALE * 10;
/// `cube_factor`: 2^(10 + 3 BICTCP_HZ) / (bic_scale * 10).
pub const CUBE_FACTOR: u64 = (1u64 << (10 + 3 * BICTCP_HZ)) / (DEFAULT_BIC_SCALE * 10);

#[derive(Clone, Debug, Default)]
pub struct Cubic {
    /// The ns-3 dialect's state.
    pub ns3: Ns3Cubic,
    pub cnt: u64,
    pub last_max_cwnd: u64,
    pub loss_cwnd: u64,
    pub last_cwnd: u64,
    pub last_time: u64,
    pub bic_origin_point: u64,
    /// K, in 1/1024 s.
    pub bic_k: u64,
    pub delay_min: u64,
    pub epoch_start: u64,
    pub ack_cnt: u64,
    /// The Reno window estimate of the TCP-friendly region.
    pub tcp_cwnd: u64,
    pub delayed_ack: u64,
}

/// `cubic_root`: the cube root of `a`, from a 64-entry table and one
/// Newton-Raphson step (relative error under 0.2%).
pub fn cubic_root(a: u64) -> u64 {
    const V: [u8; 64] = [
        0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164, 168, 170, 173, 176, 179,
        181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209, 211, 213, 215, 217, 219, 221, 222, 224, 225, 227,
        229, 231, 232, 234, 236, 237, 239, 240, 242, 244, 245, 246, 248, 250, 251, 252, 254,
    ];
    let mut b = fls64(a) as u64;
    if b < 7 {
        return (V[a as usize] as u64 + 35) >> 6;
    }
    b = ((b * 84) >> 8) - 1;
    let shift = a >> (b * 3);
    let mut x = ((V[shift as usize] as u64 + 10) << b) >> 6;
    x = 2 * x + div64_64(a, x * (x - 1));
    (x * 341) >> 10
}

impl Cubic {
    fn reset(&mut self) {
        *self = Cubic { delayed_ack: 2 << ACK_RATIO_SHIFT, ..Cubic::default() };
    }

    /// `bictcp_update`: ACKs per segment for the window `cwnd`.
    fn update(&mut self, sk: &Sock, cwnd: u64) {
        let now = sk.now_jiffies;
        self.ack_cnt = self.ack_cnt.wrapping_add(1);
        if self.last_cwnd == cwnd && (now.wrapping_sub(self.last_time) as i64) <= (HZ / 32) as i64 {
            return;
        }
        self.last_cwnd = cwnd;
        self.last_time = now;
        if self.epoch_start == 0 {
            self.epoch_start = now;
            self.ack_cnt = 1;
            self.tcp_cwnd = cwnd;
            if self.last_max_cwnd <= cwnd {
                self.bic_k = 0;
                self.bic_origin_point = cwnd;
            } else {
                self.bic_k = cubic_root(CUBE_FACTOR.wrapping_mul(self.last_max_cwnd - cwnd));
                self.bic_origin_point = self.last_max_cwnd;
            }
        }
        let t = (now.wrapping_add(self.delay_min >> 3).wrapping_sub(self.epoch_start) << BICTCP_HZ) / HZ;
        let offs = if t < self.bic_k { self.bic_k - t } else { t - self.bic_k };
        let delta = CUBE_RTT_SCALE.wrapping_mul(offs).wrapping_mul(offs).wrapping_mul(offs) >> (10 + 3 * BICTCP_HZ);
        let bic_target =
            if t < self.bic_k { self.bic_origin_point.wrapping_sub(delta) } else { self.bic_origin_point.wrapping_add(delta) };
        self.cnt = if bic_target > cwnd { cwnd / (bic_target - cwnd) } else { 100 * cwnd };
        if self.delay_min > 0 {
            let max_increment = sk.p[MAX_INCREMENT] as i64;
            let div = ((10 * max_increment) as u64).wrapping_mul(self.delay_min);
            let min_cnt = (cwnd * HZ * 8).checked_div(div).unwrap_or(0);
            if self.cnt < min_cnt && t >= self.bic_k {
                self.cnt = min_cnt;
            }
        }
        if self.loss_cwnd == 0 {
            self.cnt = 50;
        }
        if sk.p[TCP_FRIENDLINESS] != 0 {
            let delta = (cwnd * BETA_SCALE_FRIENDLY) >> 3;
            while self.ack_cnt > delta {
                self.ack_cnt -= delta;
                self.tcp_cwnd += 1;
            }
            if self.tcp_cwnd > cwnd {
                let delta = self.tcp_cwnd - cwnd;
                let max_cnt = cwnd / delta;
                if self.cnt > max_cnt {
                    self.cnt = max_cnt;
                }
            }
        }
        self.cnt = (self.cnt << ACK_RATIO_SHIFT).checked_div(self.delayed_ack).unwrap_or(0);
        if self.cnt == 0 {
            self.cnt = 1;
        }
    }

    /// `measure_delay`: the minimum RTT from timestamps, in jiffies << 3,
    /// from a second after the epoch started.
    fn measure_delay(&mut self, sk: &Sock) {
        if !(sk.saw_tstamp && sk.rcv_tsecr != 0) || (sk.now_jiffies.wrapping_sub(self.epoch_start) as i64) < HZ as i64 {
            return;
        }
        let mut delay = sk.now_jiffies.wrapping_sub(sk.rcv_tsecr) << 3;
        if delay == 0 {
            delay = 1;
        }
        if self.delay_min == 0 || self.delay_min > delay {
            self.delay_min = delay;
        }
    }
}

impl CongestionOps for Cubic {
    const NS3_CLOCK: bool = true;
    const NAME: &'static str = "cubic";
    const PARAMS: &'static [Param] = &[
        Param { name: "fast_convergence", default: 1, about: "turn on/off fast convergence" },
        Param { name: "max_increment", default: 16, about: "Limit on increment allowed during binary search" },
        Param { name: "beta", default: DEFAULT_BETA as i32, about: "beta for multiplicative increase" },
        Param { name: "initial_ssthresh", default: 0, about: "initial value of slow start threshold" },
        Param { name: "bic_scale", default: DEFAULT_BIC_SCALE as i32, about: "scale (scaled by 1024) value for bic function (bic_scale/1024)" },
        Param { name: "tcp_friendliness", default: 1, about: "turn on/off tcp friendliness" },
    ];
    const NS3_NATIVE: bool = true;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "fast_convergence", default: 1, about: "Enable (1) or disable (0) fast convergence [FastConvergence]" },
        Param { name: "beta_pct", default: 70, about: "Beta for multiplicative decrease, % [Beta]" },
        Param { name: "hystart", default: 1, about: "Enable (1) or disable (0) hybrid slow start [HyStart]" },
        Param { name: "hystart_low_window", default: 16, about: "Lower bound cWnd for hybrid slow start, segments [HyStartLowWindow]" },
        Param { name: "hystart_detect", default: 3, about: "1: packet train, 2: delay, 3: both [HyStartDetect]" },
        Param { name: "hystart_min_samples", default: 8, about: "Number of delay samples for detecting the increase of delay [HyStartMinSamples]" },
        Param { name: "hystart_ack_delta_ms", default: 2, about: "Spacing between ack's indicating train, ms [HyStartAckDelta]" },
        Param { name: "hystart_delay_min_ms", default: 4, about: "Minimum time for hystart algorithm, ms [HyStartDelayMin]" },
        Param { name: "hystart_delay_max_ms", default: 1000, about: "Maximum time for hystart algorithm, ms [HyStartDelayMax]" },
        Param { name: "cubic_delta_ms", default: 10, about: "Delta Time to wait after fast recovery before adjusting param, ms [CubicDelta]" },
        Param { name: "cnt_clamp", default: 20, about: "Counter value when no losses are detected [CntClamp]" },
        Param { name: "c_milli", default: 400, about: "Cubic Scaling factor, 1/1000 [C]" },
        Param { name: "tcp_friendliness", default: 0, about: "RFC 9438's Reno-friendly region: 0 off (ns-3.37), 1 the RFC's, 2 Linux's (alpha_cubic kept)" },
        Param { name: "slow_start_cap", default: 0, about: "slow start: 0 every segment acknowledged (ns-3.37), 1 up to ssthresh, the rest to congestion avoidance (Linux's tcp_slow_start)" },
    ];

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    /// `TcpCubic::GetSsThresh`.
    fn ns3_ssthresh(&mut self, sk: &mut Sock, _bytes_in_flight: u32) -> u32 {
        let seg = sk.cwnd_segments();
        let beta = sk.p[NS3_BETA] as f64 / 100.0;
        let c = &mut self.ns3;
        c.cwnd_prior = seg;
        c.last_max = if seg < c.last_max && sk.p[NS3_FAST_CONVERGENCE] != 0 { cast_u32(seg as f64 * (1.0 + beta) / 2.0) } else { seg };
        c.epoch_start = TMIN;
        cast_u32(seg as f64 * beta).max(2).wrapping_mul(sk.mss_cache as u32)
    }
    /// `TcpCubic::IncreaseWindow`.
    fn ns3_increase_window(&mut self, sk: &mut Sock, mut segments_acked: u32) {
        let m = sk.mss_cache as u32;
        let c = &mut self.ns3;
        if sk.cwnd_bytes < sk.ssthresh_bytes {
            if sk.p[NS3_HYSTART] != 0 && sk.snd_una > c.end_seq {
                c.hystart_reset(sk);
            }
            if sk.p[NS3_SLOW_START_CAP] != 0 {
                // Linux's `tcp_slow_start`: cwnd = min(cwnd + acked,
                // ssthresh), what is left of acked to congestion avoidance
                let room = (sk.ssthresh_bytes - sk.cwnd_bytes).div_ceil(m);
                let ss = segments_acked.min(room);
                sk.cwnd_bytes = (sk.cwnd_bytes + ss * m).min(sk.ssthresh_bytes);
                segments_acked -= ss;
            } else {
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(segments_acked.wrapping_mul(m));
                segments_acked = 0;
            }
        }
        if sk.cwnd_bytes >= sk.ssthresh_bytes && segments_acked > 0 {
            let seg = sk.cwnd_segments();
            c.cwnd_cnt = c.cwnd_cnt.wrapping_add(segments_acked);
            let cnt = c.update(sk);
            if c.cwnd_cnt >= cnt {
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(m);
                c.cwnd_cnt -= cnt;
            }
            let mode = sk.p[NS3_TCP_FRIENDLINESS];
            if mode != 0 {
                c.reno_friendly(sk, seg, segments_acked, mode);
            }
        }
    }
    /// `TcpCubic::PktsAcked`.
    fn ns3_pkts_acked(&mut self, sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        let c = &mut self.ns3;
        if c.epoch_start != TMIN && sk.now_ns.wrapping_sub(c.epoch_start) < sk.p[NS3_CUBIC_DELTA] as i64 * MS {
            return;
        }
        if c.delay_min == TMIN || c.delay_min > rtt_ns {
            c.delay_min = rtt_ns;
        }
        let low = (sk.p[NS3_LOW_WINDOW] as u32).wrapping_mul(sk.mss_cache as u32);
        if sk.p[NS3_HYSTART] != 0 && sk.cwnd_bytes <= sk.ssthresh_bytes && sk.cwnd_bytes >= low {
            c.hystart_update(sk, rtt_ns);
        }
    }
    /// `TcpCubic::CongestionStateSet`: an RTO resets the cubic state and
    /// HyStart (`CubicReset`, `HystartReset`).
    fn ns3_state_set(&mut self, sk: &mut Sock, new: CaState) {
        if new == CaState::Loss {
            let c = &mut self.ns3;
            c.last_max = 0;
            c.origin = 0;
            c.k = 0.0;
            c.delay_min = TMIN;
            c.found = false;
            c.hystart_reset(sk);
        }
    }
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn init(&mut self, sk: &mut Sock) {
        self.reset();
        if sk.p[INITIAL_SSTHRESH] != 0 {
            sk.snd_ssthresh = sk.p[INITIAL_SSTHRESH] as i64 as u64;
        }
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, good: bool) {
        if good {
            self.measure_delay(sk);
        }
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
        } else {
            self.update(sk, sk.snd_cwnd);
            if sk.snd_cwnd_cnt as u64 >= self.cnt {
                if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                    sk.snd_cwnd += 1;
                }
                sk.snd_cwnd_cnt = 0;
            } else {
                sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(1);
            }
        }
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        let beta = sk.p[BETA] as i64 as u64;
        self.epoch_start = 0;
        if sk.snd_cwnd < self.last_max_cwnd && sk.p[FAST_CONVERGENCE] != 0 {
            self.last_max_cwnd = sk.snd_cwnd.wrapping_mul(BETA_SCALE.wrapping_add(beta)) / (2 * BETA_SCALE);
        } else {
            self.last_max_cwnd = sk.snd_cwnd;
        }
        self.loss_cwnd = sk.snd_cwnd;
        (sk.snd_cwnd.wrapping_mul(beta) / BETA_SCALE).max(2)
    }

    fn undo_cwnd(&mut self, sk: &Sock) -> u64 {
        sk.snd_cwnd.max(self.last_max_cwnd)
    }

    fn set_state(&mut self, _sk: &mut Sock, new: CaState) {
        if new == CaState::Loss {
            self.reset();
        }
    }

    fn pkts_acked(&mut self, sk: &mut Sock, cnt: u64, _last: i64) {
        if cnt > 0 && sk.ca_state == CaState::Open {
            let cnt = cnt.wrapping_sub(self.delayed_ack >> ACK_RATIO_SHIFT);
            self.delayed_ack = self.delayed_ack.wrapping_add(cnt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_constants() {
        // 8*1843/3 = 4914, /205 = 23; 2^40/410 = 2681735677.
        assert_eq!(BETA_SCALE_FRIENDLY, 23);
        assert_eq!(CUBE_RTT_SCALE, 410);
        assert_eq!(CUBE_FACTOR, 2_681_735_677);
    }

    /// The cube root is within 0.2% (tiny arguments from the table).
    #[test]
    fn cube_root() {
        assert_eq!(cubic_root(0), 0);
        assert_eq!(cubic_root(1), 1, "(54 + 35) >> 6");
        // 27 < 64: from the table, v[27] = 190: (190 + 35) >> 6 = 3.
        assert_eq!(cubic_root(27), 3);
        for n in [100u64, 1000, 12345, 1 << 20, 2_681_735_677 * 20] {
            let exact = (n as f64).cbrt();
            let r = cubic_root(n) as f64;
            assert!((r - exact).abs() <= exact * 0.01 + 1.0, "cbrt({n}) = {r}, exact {exact}");
        }
    }

    /// A loss at cwnd 100 keeps 100*819/1024 = 79 and remembers Wmax 100.
    /// At cwnd 81 the epoch starts: K is the cube root of cube_factor *
    /// (100 - 81) = 2681735677*19 in 1/1024 s, (19 * 2^40/410)^(1/3) =
    /// 3705 (3.6 s; the integer root gives 3704 or 3705); at t = 0 the
    /// target is W(0) = 100 - 410 K^3 >> 40 = 100 - 18 = 82 (18.98
    /// truncated), one above cwnd: cnt = 81/1 = 81 ACKs per segment, times
    /// 16/32 for the assumed two segments per ACK: 40.
    #[test]
    fn cubic_function_after_loss() {
        let mut c = Cubic::default();
        let mut sk = Sock { snd_cwnd: 100, snd_ssthresh: 50, snd_cwnd_clamp: 100_000, ..Default::default() };
        for (i, p) in Cubic::PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        c.init(&mut sk);
        sk.snd_ssthresh = c.ssthresh(&sk);
        assert_eq!((sk.snd_ssthresh, c.last_max_cwnd, c.loss_cwnd), (79, 100, 100));
        sk.snd_cwnd = 81;
        sk.now_jiffies = 10_000;
        c.update(&sk, 81);
        let k = c.bic_k;
        let exact = ((19u64 * CUBE_FACTOR) as f64).cbrt();
        assert!((k as f64 - exact).abs() < exact * 0.002, "K {k} vs {exact}");
        assert_eq!(c.bic_origin_point, 100);
        assert_eq!(c.cnt, 81 * 16 / 32);
    }

    fn ns3_sock(cwnd: u32, ssthresh: u32) -> Sock {
        let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, mss_cache: 1000, ..Default::default() };
        for (i, p) in Cubic::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// ns-3's loss response: 100 segments, no earlier Wmax: Wmax 100,
    /// ssthresh 0.7 x 100 = 70 MSS (Linux 2.6: 79); again at 80 (< Wmax,
    /// fast convergence): Wmax 80 x 1.7 / 2 = 68, ssthresh 56.
    #[test]
    fn ns3_cubic_loss() {
        let mut c = Cubic::default();
        let mut sk = ns3_sock(100_000, 0);
        assert_eq!(c.ns3_ssthresh(&mut sk, 0), 70_000);
        assert_eq!(c.ns3.last_max, 100);
        sk.cwnd_bytes = 80_000;
        assert_eq!(c.ns3_ssthresh(&mut sk, 0), 56_000);
        assert_eq!((c.ns3.last_max, c.ns3.epoch_start), (68, TMIN));
    }

    /// The cubic: Wmax 100, 70 segments at the epoch's start (t = 0 s,
    /// delayMin 100 ms): K = (30 / 0.4)^(1/3) = 4.217 s; t = 0.1 s: target
    /// 100 - (uint)(0.4 x 4.117^3 = 27.91) = 73: cnt 70 / 3 = 23.  An ACK of
    /// 23 segments then adds one MSS (the count keeps 0); past K (t = 5 s,
    /// 0.4 x 0.783^3 = 0.19 -> 0: target 100 at 71 segments: cnt 71 / 29 =
    /// 2).  Before any loss cnt is at most 20; at or above the target 100 w.
    #[test]
    fn ns3_cubic_growth() {
        let mut c = Cubic::default();
        c.ns3.last_max = 100;
        c.ns3.delay_min = 100 * MS;
        let mut sk = ns3_sock(70_000, 50_000);
        assert_eq!(c.ns3.update(&sk), 23);
        assert!((c.ns3.k - 75f64.powf(1.0 / 3.0)).abs() < 1e-12);
        c.ns3_increase_window(&mut sk, 22);
        assert_eq!((sk.cwnd_bytes, c.ns3.cwnd_cnt), (70_000, 22));
        c.ns3_increase_window(&mut sk, 1);
        assert_eq!((sk.cwnd_bytes, c.ns3.cwnd_cnt), (71_000, 0));
        sk.now_ns = 4_900_000_000;
        assert_eq!(c.ns3.update(&sk), 2);
        // no loss yet: 10 segments, origin 10, target 10 + 0.4 x 0.1^3 -> 10
        let mut c = Cubic::default();
        c.ns3.delay_min = 100 * MS;
        let sk = ns3_sock(10_000, 5000);
        assert_eq!(c.ns3.update(&sk), 20);
        c.ns3.last_max = 5;
        c.ns3.epoch_start = TMIN;
        assert_eq!(c.ns3.update(&sk), 1000);
    }

    /// Congestion avoidance on the cubic's plateau: Wmax 100 and 100
    /// segments, so K = 0, origin 100 and at t = delayMin = 0.1 s the
    /// target is 100 + (uint)(0.4 x 0.1^3) = 100: cnt = 100 x 100, the
    /// cubic adds nothing within a few hundred ACKs; only W_est moves.
    fn plateau(mode: i32, beta_pct: i32, cwnd_prior: u32) -> (Cubic, Sock) {
        let mut c = Cubic::default();
        c.ns3.last_max = 100;
        c.ns3.delay_min = 100 * MS;
        c.ns3.cwnd_prior = cwnd_prior;
        let mut sk = ns3_sock(100_000, 50_000);
        sk.p[NS3_TCP_FRIENDLINESS] = mode;
        sk.p[NS3_BETA] = beta_pct;
        (c, sk)
    }

    fn acks(c: &mut Cubic, sk: &mut Sock, n: u32) {
        for _ in 0..n {
            c.ns3_increase_window(sk, 1);
        }
    }

    /// RFC 9438 (4.3), alpha_cubic kept (2, Linux's): alpha_cubic =
    /// 3 (1 - 0.7) / (1 + 0.7) = 0.9 / 1.7 = 0.529412; W_est starts at the
    /// epoch's 100 and W_est += alpha_cubic x 1 / cwnd adds 0.529412 / 100
    /// = 0.00529412 per one-segment ACK: 101 needs 1 / 0.00529412 = 188.9 ACKs, so 188 ACKs
    /// leave 100 segments (W_est 100.9953) and the 189th makes it 101
    /// (W_est 101.0006).  Then 0.529412 / 101 an ACK: 101 more ACKs give
    /// 101.5300, still 101.  With the region off (0, ns-3.37) 189 ACKs leave
    /// 100.  beta 0.5: alpha_cubic = 1.5 / 1.5 = 1, Reno's: 100 ACKs (one
    /// window) make 101.
    #[test]
    fn ns3_cubic_reno_friendly_linux() {
        let (mut c, mut sk) = plateau(2, 70, 0);
        acks(&mut c, &mut sk, 188);
        assert_eq!(sk.cwnd_bytes, 100_000);
        assert!((c.ns3.w_est - (100.0 + 188.0 * 0.9 / 1.7 / 100.0)).abs() < 1e-9, "{}", c.ns3.w_est);
        acks(&mut c, &mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 101_000);
        acks(&mut c, &mut sk, 101);
        assert_eq!(sk.cwnd_bytes, 101_000);
        assert!((c.ns3.w_est - 101.5300).abs() < 1e-4, "{}", c.ns3.w_est);
        // off: ns-3.37's CUBIC, the plateau holds
        let (mut c, mut sk) = plateau(0, 70, 0);
        acks(&mut c, &mut sk, 189);
        assert_eq!((sk.cwnd_bytes, c.ns3.cwnd_cnt), (100_000, 189));
        // beta 0.5: alpha_cubic 1
        let (mut c, mut sk) = plateau(2, 50, 0);
        acks(&mut c, &mut sk, 99);
        assert_eq!(sk.cwnd_bytes, 100_000);
        acks(&mut c, &mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 101_000);
    }

    /// The RFC's rule (1): alpha_cubic 1 once W_est >= cwnd_prior.  With
    /// cwnd_prior 101: 0.529412 per window as above until W_est reaches
    /// 101 (the 189th ACK: 101.0006), then 1 / 101 per ACK: 100 more ACKs
    /// give 101.9907 (101 segments), the 101st 102.0006 (102 segments);
    /// Linux's rule (2) there: 101.0006 + 0.529412 = 101.53, 101 segments.
    /// Before any loss cwnd_prior is 0, so alpha_cubic is 1 from the start:
    /// 100 ACKs make 101.
    #[test]
    fn ns3_cubic_reno_friendly_rfc() {
        let (mut c, mut sk) = plateau(1, 70, 101);
        acks(&mut c, &mut sk, 189);
        assert_eq!(sk.cwnd_bytes, 101_000);
        acks(&mut c, &mut sk, 100);
        assert_eq!(sk.cwnd_bytes, 101_000);
        acks(&mut c, &mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 102_000);
        let (mut c, mut sk) = plateau(2, 70, 101);
        acks(&mut c, &mut sk, 290);
        assert_eq!(sk.cwnd_bytes, 101_000);
        let (mut c, mut sk) = plateau(1, 70, 0);
        acks(&mut c, &mut sk, 99);
        assert_eq!(sk.cwnd_bytes, 100_000);
        acks(&mut c, &mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 101_000);
    }

    /// The loss sets cwnd_prior and the next epoch restarts W_est: a loss
    /// at 100 (ssthresh 70, cwnd_prior 100), 70 segments at the new epoch:
    /// W_est 70.  Where the cubic is the faster (ns3_cubic_growth's 23 ACKs
    /// for one segment at 70), its window stands: 23 one-segment ACKs
    /// give 71 segments either way, W_est only 70 + 23 x 0.529412 / 70 =
    /// 70.174 (the region never lowers the window).
    #[test]
    fn ns3_cubic_reno_friendly_epoch() {
        let (mut c, mut sk) = plateau(1, 70, 0);
        c.ns3.last_max = 0;
        assert_eq!(c.ns3_ssthresh(&mut sk, 0), 70_000);
        assert_eq!((c.ns3.cwnd_prior, c.ns3.last_max, c.ns3.epoch_start), (100, 100, TMIN));
        sk.cwnd_bytes = 70_000;
        sk.ssthresh_bytes = 70_000;
        acks(&mut c, &mut sk, 23);
        assert_eq!(sk.cwnd_bytes, 71_000);
        assert!((c.ns3.w_est - (70.0 + 23.0 * 0.9 / 1.7 / 70.0)).abs() < 1e-9, "{}", c.ns3.w_est);
    }

    /// Slow start adds every segment an ACK covers; HyStart (16 MSS or
    /// more): the round's first 8 RTTs set its least (120 ms), then one
    /// more sample finds it above delayMin 50 ms + 50 ms: ssthresh = cwnd.
    /// ACKs 2 ms or less apart whose span exceeds delayMin also end slow
    /// start (the ACK train).
    #[test]
    fn ns3_cubic_hystart() {
        let mut c = Cubic::default();
        let mut sk = ns3_sock(10_000, u32::MAX);
        sk.snd_una = 1;
        sk.high_tx = 30_000;
        c.ns3_increase_window(&mut sk, 3);
        assert_eq!((sk.cwnd_bytes, c.ns3.end_seq), (13_000, 30_000));
        // below 16 MSS: only delayMin is taken
        c.ns3_pkts_acked(&mut sk, 1, 50 * MS);
        assert_eq!((c.ns3.delay_min, c.ns3.sample_cnt), (50 * MS, 0));
        sk.cwnd_bytes = 20_000;
        for k in 0..8 {
            sk.now_ns = (k + 1) * 10 * MS;
            c.ns3_pkts_acked(&mut sk, 1, 120 * MS + k);
        }
        assert_eq!((c.ns3.curr_rtt, c.ns3.sample_cnt, sk.ssthresh_bytes), (120 * MS, 8, u32::MAX));
        sk.now_ns = 200 * MS;
        c.ns3_pkts_acked(&mut sk, 1, 120 * MS);
        assert_eq!(sk.ssthresh_bytes, 20_000);
        // the train: 51 ACKs 1 ms apart from the round's start
        let mut c = Cubic::default();
        let mut sk = ns3_sock(20_000, u32::MAX);
        c.ns3.delay_min = 50 * MS;
        c.ns3.hystart_reset(&sk);
        for k in 1..=51 {
            sk.now_ns = k * MS;
            c.ns3_pkts_acked(&mut sk, 1, 60 * MS);
        }
        assert_eq!(sk.ssthresh_bytes, 20_000);
        assert!(c.ns3.found);
    }
    /// After a timeout (cwnd 1 MSS, ssthresh 51) the retransmission fills
    /// the hole below 680 segments the receiver held: one cumulative ACK
    /// of 681 segments.  ns-3.37's slow start adds them all (682 segments,
    /// 13 times the 51 it fell back to: the burst that collapsed the
    /// classic flow of examples/l4s.py at 10 Mb/s, 40 ms, seed 3); with
    /// `slow_start_cap` 1 (Linux's `tcp_slow_start`) slow start stops at
    /// ssthresh, 51, and the 631 segments left go to congestion avoidance,
    /// whose step adds one MSS (cnt 20 before any Wmax): 52.
    #[test]
    fn ns3_cubic_slow_start_cap() {
        let mut c = Cubic::default();
        let mut sk = ns3_sock(1_000, 51_000);
        sk.p[NS3_HYSTART] = 0;
        c.ns3_increase_window(&mut sk, 681);
        assert_eq!(sk.cwnd_bytes, 682_000);
        let mut c = Cubic::default();
        c.ns3.delay_min = 100 * MS;
        let mut sk = ns3_sock(1_000, 51_000);
        sk.p[NS3_HYSTART] = 0;
        sk.p[NS3_SLOW_START_CAP] = 1;
        c.ns3_increase_window(&mut sk, 681);
        assert_eq!((sk.cwnd_bytes, c.ns3.cwnd_cnt), (52_000, 631 - 20));
        // below ssthresh by more than the ACK: every segment, as before
        let mut sk = ns3_sock(10_000, 51_000);
        sk.p[NS3_SLOW_START_CAP] = 1;
        sk.p[NS3_HYSTART] = 0;
        let mut c = Cubic::default();
        c.ns3_increase_window(&mut sk, 3);
        assert_eq!(sk.cwnd_bytes, 13_000);
    }
}
