//! Delivery-rate estimation as ns-3.37's `TcpRateLinux` does it
//! (tcp-rate-ops.cc, after Linux's tcp_rate.c): each segment sent records
//! the connection's delivered count and times (`SkbSent`); each segment
//! delivered, SACKed or cumulatively acknowledged, moves the sample's prior
//! point to the most recently sent one (`SkbDelivered`); after the ACK the
//! sample is the bytes delivered since that point over the longer of its
//! send and ACK phases (`GenerateSample`); the application's writes mark
//! the connection application-limited when it has nothing more to send
//! (`CalculateAppLimited`).
//!
//! As in ns-3, the sample is one object updated in place: a field a step
//! does not write keeps its value from an earlier ACK (the delivery rate
//! too, which BBR reads even from an invalid sample).  Times are integer
//! ns; the socket keeps one record per segment of its scoreboard, in step
//! with it (`sent`, `delivered`, `discard`).  Only a congestion control
//! that reads rate samples (BBR) has the socket keep them.

use std::collections::VecDeque;

/// `TcpTxItem::RateInformation` of one segment.
#[derive(Clone, Copy, Debug)]
struct Seg {
    /// `m_delivered`: the connection's delivered bytes when it was sent.
    delivered: u64,
    /// `m_deliveredTime`; `DELIVERED` once counted (Time::Max in ns-3).
    delivered_time: i64,
    /// `m_firstSent`.
    first_sent: i64,
    app_limited: bool,
    /// `TcpTxItem::m_lastSent`.
    last_sent: i64,
}

const DELIVERED: i64 = i64::MAX;

/// `TcpRateOps::TcpRateConnection`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Connection {
    /// Bytes delivered so far.
    pub delivered: u64,
    /// When `delivered` last grew, and the send time of the packet that
    /// started the current sampling (ns).
    pub delivered_time: i64,
    pub first_sent_time: i64,
    /// The end of the application-limited stretch (bytes delivered), 0 if
    /// none.
    pub app_limited: u64,
    /// The last sample kept for its rate (`m_rateDelivered`,
    /// `m_rateInterval`, `m_rateAppLimited`).
    pub rate_delivered: i64,
    pub rate_interval: i64,
    pub rate_app_limited: bool,
    /// The delivered count of the last segment delivered.
    pub tx_item_delivered: u64,
}

/// `TcpRateOps::TcpRateSample`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    /// bit/s (`DataRate`).
    pub delivery_rate: u64,
    pub is_app_limited: bool,
    /// ns.
    pub interval: i64,
    /// Bytes delivered over the interval; -1 for an invalid sample.
    pub delivered: i64,
    pub prior_delivered: u64,
    pub prior_time: i64,
    pub send_elapsed: i64,
    pub ack_elapsed: i64,
    pub bytes_loss: u32,
    pub prior_in_flight: u32,
    pub acked_sacked: u32,
}

impl Sample {
    /// `IsValid`.
    pub fn is_valid(&self) -> bool {
        self.prior_time != 0 || self.interval != 0
    }
}

/// The rate sampler of one connection.
#[derive(Clone, Debug, Default)]
pub struct RateOps {
    segs: VecDeque<Seg>,
    pub conn: Connection,
    pub sample: Sample,
}

impl RateOps {
    /// `SkbSent` for a new segment (appended) or a retransmission of segment
    /// `idx`; `start` if nothing was in flight.
    pub fn sent(&mut self, idx: Option<usize>, start: bool, now: i64) {
        if start {
            self.conn.first_sent_time = now;
            self.conn.delivered_time = now;
        }
        let s = Seg {
            delivered: self.conn.delivered,
            delivered_time: self.conn.delivered_time,
            first_sent: self.conn.first_sent_time,
            app_limited: self.conn.app_limited != 0,
            last_sent: now,
        };
        match idx {
            Some(i) => self.segs[i] = s,
            None => self.segs.push_back(s),
        }
    }

    /// `SkbDelivered` for segment `idx` of `len` bytes.
    pub fn delivered(&mut self, idx: usize, len: u32, now: i64) {
        let s = &mut self.segs[idx];
        if s.delivered_time == DELIVERED {
            return;
        }
        self.conn.delivered += len as u64;
        self.conn.delivered_time = now;
        let rs = &mut self.sample;
        if rs.prior_delivered == 0 || s.delivered > rs.prior_delivered {
            rs.ack_elapsed = now - rs.prior_time;
            rs.prior_delivered = s.delivered;
            rs.prior_time = s.delivered_time;
            rs.is_app_limited = s.app_limited;
            rs.send_elapsed = s.last_sent - s.first_sent;
            self.conn.first_sent_time = s.last_sent;
        }
        s.delivered_time = DELIVERED;
        self.conn.tx_item_delivered = s.delivered;
    }

    /// The first `n` segments were acknowledged (after `delivered` on
    /// each).
    pub fn discard(&mut self, n: usize) {
        self.segs.drain(..n);
    }

    /// `GenerateSample` after an ACK: `delivered` the bytes it delivered,
    /// `lost` the change in the lost count, `prior_in_flight` the pipe
    /// before it, `min_rtt` ns-3's `m_minRtt` (ns).
    pub fn generate(&mut self, delivered: u32, lost: u32, prior_in_flight: u32, min_rtt: i64) -> &Sample {
        if self.conn.app_limited != 0 && self.conn.delivered > self.conn.app_limited {
            self.conn.app_limited = 0;
        }
        let rs = &mut self.sample;
        rs.acked_sacked = delivered;
        rs.bytes_loss = lost;
        rs.prior_in_flight = prior_in_flight;
        if rs.prior_time == 0 {
            rs.delivered = -1;
            rs.interval = 0;
            return &self.sample;
        }
        rs.interval = rs.send_elapsed.max(rs.ack_elapsed);
        rs.delivered = self.conn.delivered as i64 - rs.prior_delivered as i64;
        if rs.interval < min_rtt {
            rs.interval = 0;
            rs.prior_time = 0;
            return &self.sample;
        }
        // the last sample not application-limited, or the highest one that is
        if !rs.is_app_limited || rs.delivered as i128 * self.conn.rate_interval as i128 >= self.conn.rate_delivered as i128 * rs.interval as i128 {
            self.conn.rate_delivered = rs.delivered;
            self.conn.rate_interval = rs.interval;
            self.conn.rate_app_limited = rs.is_app_limited;
            // DataRate(bytes * 8.0 / seconds), truncated
            rs.delivery_rate = (rs.delivered as f64 * 8.0 / (rs.interval as f64 / 1e9)) as u64;
        }
        &self.sample
    }

    /// `CalculateAppLimited` when the application writes: less than a
    /// segment left to send (`unsent` bytes), the window not full, every
    /// lost segment resent: application-limited until what is in flight
    /// now is delivered.
    pub fn app_limited(&mut self, cwnd: u32, in_flight: u32, mss: u32, unsent: u64, lost: u32, retrans: u32) {
        if unsent < mss as u64 && in_flight < cwnd && lost <= retrans {
            self.conn.app_limited = (self.conn.delivered + in_flight as u64).max(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::scoreboard::Scoreboard;
    use super::*;

    const MS: i64 = 1_000_000;

    /// ns-3.37's tcp-rate-ops-test.cc, `TcpRateLinuxBasicTest`: 100
    /// one-byte segments sent every 10 ms from 0, each delivered at
    /// (i + 1) * 100 ms, cwnd 1000.  Each segment records the delivered
    /// count and the last delivery time (now, when nothing was in flight);
    /// with 9 bytes left to send (tail 20, next 11) the connection is never
    /// application-limited, with none (tail 11) always.
    #[test]
    fn ns3_basic_sent_and_delivered() {
        for (tail, app_limited) in [(20u64, false), (11, true)] {
            let mut r = RateOps::default();
            let (mut in_flight, mut delivered, mut delivered_time) = (0u32, 0u64, 0i64);
            let mut events: Vec<(i64, bool, usize)> = (0..100).map(|i| (i as i64 * 10 * MS, true, i)).collect();
            events.extend((0..100).map(|i| ((i as i64 + 1) * 100 * MS, false, i)));
            events.sort_by_key(|e| (e.0, e.1));
            for (now, send, i) in events {
                if send {
                    let start = in_flight == 0;
                    r.app_limited(1000, in_flight, 1, tail - 11, 0, 0);
                    r.sent(None, start, now);
                    in_flight += 1;
                    let s = r.segs[i];
                    assert_eq!(s.delivered, delivered);
                    assert_eq!(s.delivered_time, if start { now } else { delivered_time });
                } else {
                    r.delivered(i, 1, now);
                    in_flight -= 1;
                    delivered += 1;
                    delivered_time = now;
                    assert_eq!(r.segs[i].delivered_time, DELIVERED);
                    assert_eq!(r.segs[i].app_limited, app_limited, "segment {i}");
                }
            }
            assert_eq!(r.conn.delivered, 100);
        }
    }

    /// ns-3.37's tcp-rate-ops-test.cc, `TcpRateLinuxWithBufferTest` (MSS
    /// 1000 and 500) on the scoreboard: ten segments sent; two cumulative
    /// ACKs (one segment each); a SACK of segment 4, then of 3 and 4 (only
    /// 3 is new); the ACK of 0-4 delivers one more segment (2), not the
    /// SACKed ones again; the rest.  The delivered count follows, and each
    /// sample's acked/SACKed bytes are what it is given.
    #[test]
    fn ns3_with_buffer_sack_blocks() {
        for mss in [1000u32, 500] {
            let m = mss as u64;
            let (mut sb, mut r) = (Scoreboard::new(), RateOps::default());
            for _ in 0..10 {
                let start = sb.bytes_in_flight() == 0;
                sb.push_new(mss);
                r.sent(None, start, 0);
            }
            let mut una = 1u64;
            let mut expected = 0u64;
            let ack = |sb: &mut Scoreboard, r: &mut RateOps, una: &mut u64, upto: u64| {
                let n = ((upto - *una) / m) as usize;
                for i in 0..n {
                    r.delivered(i, mss, 0);
                }
                r.discard(n);
                sb.discard(n);
                *una = upto;
            };
            for i in 1..=2u64 {
                let prior = sb.bytes_in_flight();
                ack(&mut sb, &mut r, &mut una, m * i + 1);
                expected += m;
                assert_eq!(r.conn.delivered, expected);
                assert_eq!(r.generate(mss, 0, prior, 0).acked_sacked, mss);
            }
            let mut blocks = vec![(m * 4 + 1, m * 5 + 1)];
            for _ in 0..2 {
                let prior = sb.bytes_in_flight();
                sb.update_with(&blocks, una, mss, 3, |i, len| r.delivered(i, len, 0));
                expected += m;
                assert_eq!(r.conn.delivered, expected);
                assert_eq!(r.generate(mss, 0, prior, 0).acked_sacked, mss);
                blocks.push((m * 3 + 1, m * 4 + 1));
            }
            let prior = sb.bytes_in_flight();
            ack(&mut sb, &mut r, &mut una, m * 5 + 1);
            expected += m;
            assert_eq!(r.conn.delivered, expected);
            r.generate(mss, 0, prior, 0);
            let prior = sb.bytes_in_flight();
            for i in 6..=10 {
                ack(&mut sb, &mut r, &mut una, m * i + 1);
            }
            assert_eq!(r.conn.delivered, 10 * m);
            assert_eq!(r.generate(5 * mss, 0, prior, 0).acked_sacked, 5 * mss);
        }
    }

    /// The sample's arithmetic (Linux's tcp_rate_gen as ns-3 has it), and
    /// ns-3's quirks: ten 1000-byte segments sent 1 ms apart from t = 0;
    /// before any delivery there is no sample (-1).  Segment 0 delivered at
    /// 100 ms: its prior time is its delivered time, 0, which ns-3 takes as
    /// "no timing": no sample.  Segments 1-8 delivered at 150 ms, then one
    /// sent at 102 ms (delivered count 2000 at 101 ms, first sent 1 ms)
    /// delivered at 250 ms: the prior point moves to it (delivered 2000 >
    /// 0), the send phase is 102 - 1 = 101 ms, the ACK phase 250 ms less
    /// the *previous* prior time (0) = 250 ms, so 9000 bytes over 250 ms:
    /// 288 kb/s.  A minimum RTT above the interval makes the sample invalid
    /// and keeps the old rate.
    #[test]
    fn sample_rate_and_validity() {
        let mut r = RateOps::default();
        assert_eq!(r.generate(0, 0, 0, 0).delivered, -1);
        for i in 0..10 {
            r.sent(None, i == 0, i as i64 * MS);
        }
        r.delivered(0, 1000, 100 * MS);
        r.discard(1);
        let s = *r.generate(1000, 0, 10_000, 50 * MS);
        assert_eq!((s.prior_delivered, s.prior_time, s.send_elapsed, s.ack_elapsed), (0, 0, 0, 100 * MS));
        // segment 1 at 101 ms (the prior count still 0: it becomes the
        // prior point, again delivered 0 at time 0)
        r.delivered(0, 1000, 101 * MS);
        r.discard(1);
        assert_eq!(r.conn.delivered, 2000);
        r.sent(None, false, 102 * MS);
        for i in 0..8 {
            r.delivered(i, 1000, 150 * MS);
        }
        r.discard(8);
        r.delivered(0, 1000, 250 * MS);
        let s = *r.generate(1000, 0, 0, 10 * MS);
        assert_eq!((s.prior_delivered, s.prior_time), (2000, 101 * MS));
        assert_eq!(s.send_elapsed, 101 * MS);
        assert_eq!(s.ack_elapsed, 250 * MS);
        assert_eq!((s.interval, s.delivered), (250 * MS, 9000));
        assert_eq!(s.delivery_rate, 288_000);
        // the same with a minimum RTT above the interval: invalid, rate kept
        let s = *r.generate(0, 0, 0, 300 * MS);
        assert_eq!((s.interval, s.prior_time, s.delivery_rate), (0, 0, 288_000));
        assert!(!s.is_valid());
    }
}
