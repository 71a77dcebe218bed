//! A trace-driven traffic source (ns-2 2.35's trace/traffictrace.cc): it
//! sends packets with the sizes and gaps a recorded trace gives, starting
//! at a random record and wrapping at the end.
//!
//! The trace (`Records`) is a sequence of records of two unsigned 32-bit
//! big-endian integers: the time to the next packet in microseconds, and
//! the packet's size in bytes.  Several sources may share one trace.

use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};

/// A trace's records: (gap in microseconds, size in bytes).
#[derive(Clone, Debug, Default)]
pub struct Records {
    pub recs: Vec<(u32, u32)>,
}

impl Records {
    /// The records of a trace file's bytes; an error says why the bytes
    /// are not a whole number of 8-byte records.
    pub fn parse(bytes: &[u8]) -> Result<Records, String> {
        if bytes.len() % 8 != 0 {
            return Err(format!("{} bytes is not a whole number of 8-byte records", bytes.len()));
        }
        let word = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        Ok(Records { recs: bytes.chunks_exact(8).map(|r| (word(&r[..4]), word(&r[4..]))).collect() })
    }
}

/// The source's state.
#[derive(Clone, Debug)]
pub struct TraceSource {
    /// The trace object (`Obj::Records`), or `NONE`.
    pub records: ObjId,
    /// The next record.
    ndx: usize,
    /// The size of the next packet.
    size: i32,
    pub running: bool,
    pub timer: u32,
}

impl TraceSource {
    pub fn new(timer: u32) -> TraceSource {
        TraceSource { records: NONE, ndx: 0, size: 0, running: false, timer }
    }

    /// The next record's gap (seconds), taking its size.
    fn next_interval(&mut self, sim: &Sim) -> f64 {
        let Some(Obj::Records(r)) = sim.objs.get(self.records as usize) else { return 0.0 };
        let (gap, size) = r.recs[self.ndx];
        self.ndx += 1;
        if self.ndx == r.recs.len() {
            self.ndx = 0;
        }
        self.size = size as i32;
        gap as f64 / 1_000_000.0
    }

    /// `TrafficGenerator::start` with `init`: a random first record (a
    /// draw from the default stream at every start), then the first gap.
    pub fn start(&mut self, sim: &mut Sim, agent: ObjId) {
        let n = match sim.objs.get(self.records as usize) {
            Some(Obj::Records(r)) if !r.recs.is_empty() => r.recs.len(),
            _ => {
                // ns-2 reads through a null (or empty) trace and crashes
                sim.w.abort(crate::notice::Abort::NoTrace { agent });
                return;
            }
        };
        // (ns-2 may start one past the last record, reading beyond its
        // table; that start is the first record here)
        let start = (sim.w.rng.default_stream().uniform(n as f64) + 0.5) as usize;
        self.ndx = if start >= n { 0 } else { start };
        self.running = true;
        let gap = self.next_interval(sim);
        sim.w.s.timer_resched(self.timer, gap);
    }

    pub fn stop(&mut self, sim: &mut Sim) {
        crate::udp::stop_source(sim, &mut self.running, self.timer);
    }

    /// `TrafficTrace::timeout`: send this packet, wait the next gap.
    pub fn timeout(&mut self, sim: &mut Sim, agent: ObjId) {
        if !self.running {
            return;
        }
        sim.app_send(agent, self.size);
        let gap = self.next_interval(sim);
        sim.w.s.timer_resched(self.timer, gap);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_big_endian_pairs() {
        let r = Records::parse(&[0, 0, 0x03, 0xe8, 0, 0, 0, 200, 0, 1, 0, 0, 0, 0, 5, 220]).unwrap();
        assert_eq!(r.recs, vec![(1000, 200), (65536, 1500)]);
        assert!(Records::parse(&[0; 12]).unwrap_err().contains("12 bytes"));
    }
}
