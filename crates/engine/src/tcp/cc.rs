//! Congestion-avoidance window increase rules (`windowOption_`,
//! `TcpAgent::opencwnd` in tcp/tcp.cc).  Slow start is common to all; this
//! module decides how cwnd grows once cwnd >= ssthresh.  New rules (New-ECN,
//! Scalable, ...) are added here as further options.

use super::Sender;
use crate::sim::World;

/// The new cwnd after one ACK in congestion avoidance, or `None` if it does
/// not change.  Inlined: it is on every ACK's path in congestion
/// avoidance, and RFC793edu's `opencwnd` calls it too.
#[inline(always)]
pub(super) fn increase(t: &mut Sender, w: &mut World) -> Option<f64> {
    match t.wnd_option {
        0 => {
            t.count += 1;
            if t.count as f64 >= t.cwnd {
                t.count = 0;
                Some(t.cwnd + 1.0)
            } else {
                None
            }
        }
        1 => {
            // The standard rule: 1/cwnd per ACK.
            let mut increment = t.increase_num / t.cwnd;
            if (t.last_cwnd_action == 0 || t.last_cwnd_action == super::CWND_ACTION_TIMEOUT) && t.max_ssthresh > 0 {
                increment = t.limited_slow_start(t.cwnd, t.max_ssthresh, increment);
            }
            Some(t.cwnd + increment)
        }
        2 | 3 | 4 | 5 => {
            let mut f = match t.wnd_option {
                2 => {
                    let f = (t.t_srtt >> t.t_srtt_bits) as f64 * t.tcp_tick;
                    f * f * t.wnd_const
                }
                3 => t.awnd * t.awnd * t.wnd_const,
                4 => t.awnd * t.wnd_const,
                _ => (t.t_srtt >> t.t_srtt_bits) as f64 * t.tcp_tick * t.wnd_const,
            };
            f += t.fcnt;
            if f > t.cwnd {
                t.fcnt = 0.0;
                Some(t.cwnd + 1.0)
            } else {
                t.fcnt = f;
                None
            }
        }
        6 => Some(t.cwnd + t.increase_num / (t.cwnd * t.cwnd.powf(t.k_parameter))),
        8 if t.newecn_on(w) => Some(super::newecn::increase(t, w)),
        8 => {
            let mut increment = t.increase_param();
            if (t.last_cwnd_action == 0 || t.last_cwnd_action == super::CWND_ACTION_TIMEOUT) && t.max_ssthresh > 0 {
                increment = t.limited_slow_start(t.cwnd, t.max_ssthresh, increment);
            }
            Some(t.cwnd + increment)
        }
        other => {
            undefined_window_option(w, other, "0-6 and 8");
            None
        }
    }
}

/// A `windowOption_` ns-2's `opencwnd` does not define: ns-2 aborts there
/// (exit status 1, its buffered traces lost).  The run stops after the
/// current event with an error naming the value (traces flushed).
#[cold]
pub(super) fn undefined_window_option(w: &mut World, option: i32, defined: &str) {
    let now = crate::fmt::format_g(w.s.now, 17);
    w.abort(&format!(
        "windowOption_ {option} is not a window option ns-2 defines ({defined}) for this sender (at time {now}); ns-2 aborts here (exit status 1)"
    ));
}
