//! `windowOption_ 2` to `5` of `TcpAgent::opencwnd` (tcp/tcp.cc), which
//! ns-2 keeps "for experimental purposes": each ACK adds
//! `f = windowConstant_ * X` to the accumulator `fcnt_`, and cwnd_ grows by
//! one packet (and `fcnt_` restarts) once the sum passes cwnd_, so that
//! the window grows by about `windowConstant_ * X` packets per RTT, X being
//!
//! * 2: RTT^2 (the smoothed RTT in seconds), the constant-rate increase of
//!   Floyd, "Connections with multiple congested gateways in
//!   packet-switched networks, part 1: one-way traffic" (CCR 1991);
//! * 3: awnd_^2, awnd_ being the sender's average window (`windowThresh_`);
//! * 4: awnd_;
//! * 5: RTT, the rule of Floyd and Jacobson, "On traffic phase effects in
//!   packet-switched gateways" (1992).
//!
//! The four share `fcnt_` (and `windowConstant_`); a window cut clears it.
//! RFC793edu's `opencwnd` has the same four.

use super::{Acked, Rule, Switches};
use crate::sim::World;

/// Which of the four (its `windowOption_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    RttSquared = 2,
    AwndSquared = 3,
    Awnd = 4,
    Rtt = 5,
}

impl By {
    /// The rule of `windowOption_` `option`, if it is one of these.
    pub fn of(option: i32) -> Option<By> {
        Some(match option {
            2 => By::RttSquared,
            3 => By::AwndSquared,
            4 => By::Awnd,
            5 => By::Rtt,
            _ => return None,
        })
    }
}

/// The rules' parameter and accumulator, and which of the four is
/// selected.
#[derive(Clone, Debug)]
pub struct Scaled {
    /// The `windowOption_` last selected of 2 to 5.
    pub by: By,
    /// `windowConstant_` (`wnd_const_`).
    pub wnd_const: f64,
    /// `fcnt_`.
    pub fcnt: f64,
}

impl Default for Scaled {
    /// ns-2's constructor values.
    fn default() -> Self {
        Scaled { by: By::RttSquared, wnd_const: 4.0, fcnt: 0.0 }
    }
}

impl Scaled {
    /// One ACK: cwnd_ + 1 once `fcnt_` passes cwnd_.  `srtt` is the smoothed
    /// RTT in seconds (`(t_srtt_ >> T_SRTT_BITS) * tcp_tick_`).
    #[inline]
    pub fn increase(&mut self, cwnd: f64, srtt: f64, awnd: f64) -> Option<f64> {
        let mut f = match self.by {
            By::RttSquared => srtt * srtt * self.wnd_const,
            By::AwndSquared => awnd * awnd * self.wnd_const,
            By::Awnd => awnd * self.wnd_const,
            By::Rtt => srtt * self.wnd_const,
        };
        f += self.fcnt;
        if f > cwnd {
            self.fcnt = 0.0;
            Some(cwnd + 1.0)
        } else {
            self.fcnt = f;
            None
        }
    }
}

impl Rule for Scaled {
    fn selects(option: i32, _sw: Switches) -> bool {
        By::of(option).is_some()
    }

    fn select(&mut self, option: i32) {
        self.by = By::of(option).expect("selected for 2 to 5 only");
    }

    fn option(&self) -> i32 {
        self.by as i32
    }

    #[inline]
    fn increase(&mut self, a: &Acked, _w: &mut World) -> Option<f64> {
        Scaled::increase(self, a.cwnd, a.srtt(), a.awnd)
    }

    /// slowdown clears `fcnt_` whichever rule is in use.
    fn after_cut(&mut self, _active: bool, _how: u32, _now: f64) {
        self.fcnt = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ACKs until cwnd_ grows by one from `cwnd`.
    fn acks_per_packet(by: By, cwnd: f64, srtt: f64, awnd: f64, wnd_const: f64) -> i32 {
        let mut r = Scaled { by, wnd_const, fcnt: 0.0 };
        let mut n = 1;
        while r.increase(cwnd, srtt, awnd).is_none() {
            n += 1;
        }
        assert_eq!(r.fcnt, 0.0);
        n
    }

    #[test]
    fn each_rule_adds_its_share_per_ack() {
        // 2: 4 * 0.5^2 = 1 per ACK: past cwnd 10 at the 11th.
        assert_eq!(acks_per_packet(By::RttSquared, 10.0, 0.5, 0.0, 4.0), 11);
        // 3: 0.5 * 2^2 = 2 per ACK: past 10 at the 6th.
        assert_eq!(acks_per_packet(By::AwndSquared, 10.0, 9.0, 2.0, 0.5), 6);
        // 4: 0.5 * 2 = 1 per ACK.
        assert_eq!(acks_per_packet(By::Awnd, 10.0, 9.0, 2.0, 0.5), 11);
        // 5: 4 * 0.25 = 1 per ACK.
        assert_eq!(acks_per_packet(By::Rtt, 10.0, 0.25, 9.0, 4.0), 11);
    }

    #[test]
    fn option_numbers() {
        for o in 2..=5 {
            assert_eq!(By::of(o).map(|by| by as i32), Some(o));
        }
        assert_eq!(By::of(1), None);
        assert_eq!(By::of(6), None);
    }
}
