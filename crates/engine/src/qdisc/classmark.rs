//! The edges of a JoBS network (`jobs.rs`), as ns-2 2.35 models them
//! (queue/marker.cc, demarker.cc): FIFO queues that, on the way in, mark
//! each packet with its service class (the IP priority; every packet the
//! same class), and on the way out count each class's packets.  Both
//! count the arrivals per class for the script to read, and both drop an
//! arrival that leaves the queue at its limit (one packet fewer than
//! DropTail holds), saying so on standard output.

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::PktId;
use crate::sim::World;

/// Classes (1 to 4; index 0 unused, as in ns-2).
pub const CLASSES: usize = 4;

/// The marker at a network's entry.
#[derive(Debug, Default)]
pub struct ClassMarker {
    pub fifo: Fifo,
    /// Packets marked with each class.
    pub arrivals: [f64; CLASSES + 1],
    /// The class every packet gets (1 to 4).
    pub class: i32,
    /// The marking rule: 1, every packet `class` (the only one modelled).
    pub kind: i32,
}

impl Discipline for ClassMarker {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        let class = self.class;
        w.pool.get_mut(p).prio = class;
        if (0..=CLASSES as i32).contains(&class) {
            self.arrivals[class as usize] += 1.0;
        }
        self.fifo.push(&w.pool, p);
        if self.fifo.len() as i64 >= cap.limit as i64 {
            self.fifo.pop_back(&w.pool);
            w.c_stdout.extend_from_slice(format!("Packet drops in Marker of type:{}\n", self.kind).as_bytes());
            return Verdict::Dropped(p);
        }
        Verdict::Queued
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.fifo.pop(&w.pool)
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn bytes(&self) -> i64 {
        self.fifo.bytes()
    }
}

/// The queue at a network's exit.
#[derive(Debug, Default)]
pub struct ClassCounter {
    pub fifo: Fifo,
    /// Packets of each class sent on.
    pub departures: [f64; CLASSES + 1],
    /// What its drop message calls its type (2: no delay trace).
    pub kind: i32,
}

impl Discipline for ClassCounter {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.fifo.push(&w.pool, p);
        if self.fifo.len() as i64 >= cap.limit as i64 {
            self.fifo.pop_back(&w.pool);
            w.c_stdout.extend_from_slice(format!("Packet drops in Demarker of type:{}\n", self.kind).as_bytes());
            return Verdict::Dropped(p);
        }
        Verdict::Queued
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        let p = self.fifo.pop(&w.pool)?;
        let class = w.pool.get(p).prio;
        if !(1..=CLASSES as i32).contains(&class) {
            let pk = w.pool.get(p);
            let msg = format!(
                "Wrong class type in Demarker-deque (S={}, D={}, FID={}, Class={})\n",
                pk.saddr, pk.daddr, pk.fid, class
            );
            w.c_stdout.extend_from_slice(msg.as_bytes());
            w.abort(crate::notice::Abort::ServiceClass { class, at_exit: true });
            return Some(p);
        }
        self.departures[class as usize] += 1.0;
        Some(p)
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn bytes(&self) -> i64 {
        self.fifo.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Sim;

    /// The marker sets the class and counts it; both edges drop the
    /// arrival that brings them to their limit, saying so.
    #[test]
    fn marker_marks_counts_and_drops_at_its_limit() {
        let mut sim = Sim::new();
        let mut m = ClassMarker { class: 3, kind: 1, ..Default::default() };
        let cap = Capacity { limit: 3, ..Capacity::default() };
        let mut drops = Drops::default();
        let mut v = Vec::new();
        for _ in 0..3 {
            let p = sim.w.pool.alloc();
            v.push(m.enqueue(&cap, &mut sim.w, p, &mut drops));
        }
        assert_eq!(v[..2], [Verdict::Queued, Verdict::Queued]);
        assert!(matches!(v[2], Verdict::Dropped(_)));
        assert_eq!(m.arrivals[3], 3.0);
        assert_eq!(String::from_utf8_lossy(&sim.w.c_stdout), "Packet drops in Marker of type:1\n");
        let p = m.dequeue(&mut sim.w, &mut drops).unwrap();
        assert_eq!(sim.w.pool.get(p).prio, 3);
        let mut d = ClassCounter::default();
        d.enqueue(&cap, &mut sim.w, p, &mut drops);
        assert_eq!(d.dequeue(&mut sim.w, &mut drops), Some(p));
        assert_eq!(d.departures[3], 1.0);
    }
}
