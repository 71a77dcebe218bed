//! 802.11's sequence numbers and duplicate detection, as ns-2 2.35's
//! Mac/802_11 keeps them (mac/mac-802_11.cc's `send` and `recvDATA`).
//!
//! * Each MAC numbers the frames it is handed (broadcast ones too) from 1,
//!   in 16 bits, wrapping to 0; a retransmission keeps its number.
//! * A receiver remembers, per sending MAC, the number of the last unicast
//!   data frame it took; a unicast frame from the same sender with the same
//!   number is a duplicate (dropped as `DUP`, after it was acknowledged
//!   again).  Number 0 means "none yet", so a frame numbered 0 (after the
//!   wrap) is never a duplicate.  Broadcast frames are not looked at.
//! * The memory has one place per node GOD was told of (`create-god N`):
//!   a sender at or beyond N is not remembered, and ns-2 prints a warning
//!   on stdout for the first ten such frames of the whole run, the tenth
//!   followed by a line saying the rest are suppressed (its text is the
//!   ns-2 layer's, ns2/wireless.rs).

/// The numbers a MAC gives the frames it sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbering {
    next: u16,
}

impl Default for Numbering {
    fn default() -> Self {
        Numbering { next: 1 }
    }
}

impl Numbering {
    /// The number of the next frame handed to the MAC.
    pub fn take(&mut self) -> u16 {
        let n = self.next;
        self.next = self.next.wrapping_add(1);
        n
    }
}

/// What a unicast data frame heard is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    New,
    Duplicate,
    /// Its sender has no place in the memory (warn, then take it).
    Unknown,
}

/// A receiver's memory of the last number taken from each sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    last: Vec<u16>,
}

impl Seen {
    /// A memory for senders `0..nodes` (GOD's node count).
    pub fn new(nodes: u32) -> Self {
        Seen { last: vec![0; nodes as usize] }
    }

    /// A unicast data frame numbered `n` from MAC `src`.
    pub fn hear(&mut self, src: u32, n: u16) -> Heard {
        match self.last.get_mut(src as usize) {
            None => Heard::Unknown,
            Some(last) if *last != 0 && *last == n => Heard::Duplicate,
            Some(last) => {
                *last = n;
                Heard::New
            }
        }
    }
}

/// Whether to warn about a frame from a sender with no place in a memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warning {
    /// Warn.
    Warn,
    /// Warn, and say that the rest are suppressed (the tenth).
    Last,
    /// Say nothing.
    Silent,
}

/// The run's count of warnings about senders with no place in a memory
/// (one count for all MACs, as ns-2's is a static variable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnknownSenderWarnings {
    count: u32,
}

impl UnknownSenderWarnings {
    /// One more frame from an unknown sender: ten warnings, then silence.
    pub fn note(&mut self) -> Warning {
        self.count = self.count.saturating_add(1);
        match self.count {
            1..=9 => Warning::Warn,
            10 => Warning::Last,
            _ => Warning::Silent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_start_at_one_and_wrap_to_zero() {
        let mut n = Numbering::default();
        assert_eq!(n.take(), 1);
        assert_eq!(n.take(), 2);
        let mut n = Numbering { next: 65535 };
        assert_eq!(n.take(), 65535);
        assert_eq!(n.take(), 0);
        assert_eq!(n.take(), 1);
    }

    #[test]
    fn a_repeated_number_from_the_same_sender_is_a_duplicate() {
        let mut s = Seen::new(3);
        assert_eq!(s.hear(1, 5), Heard::New);
        assert_eq!(s.hear(1, 5), Heard::Duplicate);
        // another sender's numbers are its own
        assert_eq!(s.hear(2, 5), Heard::New);
        // only the last number is remembered
        assert_eq!(s.hear(1, 6), Heard::New);
        assert_eq!(s.hear(1, 5), Heard::New);
        assert_eq!(s.hear(1, 5), Heard::Duplicate);
        // 0 is "nothing yet": never a duplicate
        assert_eq!(s.hear(0, 0), Heard::New);
        assert_eq!(s.hear(0, 0), Heard::New);
    }

    #[test]
    fn a_sender_beyond_gods_count_is_not_remembered() {
        let mut s = Seen::new(2);
        assert_eq!(s.hear(2, 7), Heard::Unknown);
        assert_eq!(s.hear(2, 7), Heard::Unknown);
    }

    #[test]
    fn ten_warnings_then_silence() {
        let mut w = UnknownSenderWarnings::default();
        for _ in 0..9 {
            assert_eq!(w.note(), Warning::Warn);
        }
        assert_eq!(w.note(), Warning::Last);
        assert_eq!(w.note(), Warning::Silent);
        assert_eq!(w.note(), Warning::Silent);
    }
}
