//! `Application/Telnet` (apps/telnet.cc): a keystroke source that hands its
//! agent one packet's worth of data at random intervals -- exponential with
//! mean `interval_`, or, when `interval_` is 0, drawn from tcplib's
//! empirical telnet interarrival distribution (data/).

use crate::sched::ObjId;
use crate::sim::Sim;
use std::sync::OnceLock;

/// tcplib's telnet interarrival quantiles (see the data file's header).
fn tcplib_telnet() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        include_str!("../data/tcplib-telnet-interarrivals.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.trim().parse::<f64>().expect("tcplib table value"))
            .collect()
    })
}

/// `TelnetApp`.
#[derive(Clone, Debug)]
pub struct Telnet {
    pub interval: f64,
    pub running: bool,
    pub timer: u32,
}

impl Telnet {
    pub fn new(timer: u32) -> Telnet {
        Telnet { interval: 1.0, running: false, timer }
    }

    /// `TelnetApp::next`.
    fn next(&self, sim: &mut Sim) -> f64 {
        let rng = sim.w.rng.default_stream();
        if self.interval == 0.0 {
            let table = tcplib_telnet();
            let pos = (rng.uniform_double() * table.len() as f64) as usize;
            table[pos.min(table.len() - 1)]
        } else {
            rng.exponential() * self.interval
        }
    }

    pub fn start(&mut self, sim: &mut Sim) {
        self.running = true;
        let t = self.next(sim);
        sim.w.s.timer_resched(self.timer, t);
    }

    pub fn stop(&mut self) {
        self.running = false;
    }

    /// `TelnetApp::timeout`: one packet's worth of data to the agent.
    pub fn timeout(&mut self, sim: &mut Sim, agent: ObjId) {
        if !self.running {
            return;
        }
        let size = sim.agent_mut(agent).map(|a| a.size()).unwrap_or(0);
        sim.app_send(agent, size);
        let t = self.next(sim);
        sim.w.s.timer_resched(self.timer, t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcplib_table_is_complete_and_sorted() {
        let t = tcplib_telnet();
        assert_eq!(t.len(), 10_000);
        assert!(t.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(t[0], 0.000606425);
    }
}
