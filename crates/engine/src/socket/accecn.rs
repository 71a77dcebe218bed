//! Accurate ECN feedback (AccECN), RFC 9768 (draft-ietf-tcpm-accurate-ecn
//! up to -34, the protocol the Linux and ns-3 L4S work uses): the
//! handshake negotiation, the 3-bit ACE field counting CE-marked packets
//! mod 8, and the AccECN option's 24-bit byte counters, for both halves of
//! a connection (the Data Receiver's `r.*` counters and the Data Sender's
//! `s.*` counters).  The socket (`socket/mod.rs`) calls it where it sends
//! and receives segments; this file holds the rules and their tests.
//!
//! On the wire: AE, CWR and ECE are the TCP flags `AE`, `ecn::CWR` and
//! `ecn::ECE`; after the handshake they are read together as ACE (AE the
//! most significant bit).  The IP-ECN field is the packet's `ecn_capable`
//! (ECT), the pool's ECT(1) mark and `ecn_to_echo` (CE).  The option
//! travels beside the packet (`PacketPool::set_accecn_option`) and its
//! bytes count in the TCP header's length.
//!
//! Not modelled: middlebox tests (mangling, zeroing, option stripping:
//! sections 3.2.2.3, 3.2.2.4, 3.2.3.2; nothing on a simulated path
//! mangles), SYN retransmission fall-back (3.1.4) and ECN-capable control
//! packets (an RFC 8311 experiment).

use super::ecn::{CWR, ECE};
use crate::packet::AccEcnOption;

/// The AE flag (formerly NS), section 3.1.1, Figure 2.
pub const AE: i32 = 0x100;

/// The 24-bit mask of the option's fields (section 3.2.3).
const MASK24: u64 = (1 << 24) - 1;

/// An IP-ECN codepoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpEcn {
    NotEct,
    Ect1,
    Ect0,
    Ce,
}

impl IpEcn {
    /// From a packet's ECT, ECT(1) and CE marks.
    #[inline]
    pub fn of(ect: bool, ect1: bool, ce: bool) -> IpEcn {
        if ce {
            IpEcn::Ce
        } else if !ect {
            IpEcn::NotEct
        } else if ect1 {
            IpEcn::Ect1
        } else {
            IpEcn::Ect0
        }
    }

    /// The handshake encoding (section 3.1.2 Table 2's top block on the
    /// SYN/ACK, section 3.2.2.1 Table 3 on the ACK of the SYN/ACK):
    /// Not-ECT 0b010, ECT(1) 0b011, ECT(0) 0b100, CE 0b110.
    pub fn handshake_ace(self) -> u8 {
        match self {
            IpEcn::NotEct => 0b010,
            IpEcn::Ect1 => 0b011,
            IpEcn::Ect0 => 0b100,
            IpEcn::Ce => 0b110,
        }
    }
}

/// The three flags as the 3-bit ACE field (AE, CWR, ECE; section 3.2.2
/// Figure 3).
#[inline]
pub fn ace_of(flags: i32) -> u8 {
    ((flags & AE != 0) as u8) << 2 | ((flags & CWR != 0) as u8) << 1 | (flags & ECE != 0) as u8
}

/// The flags that carry ACE value `ace`.
#[inline]
pub fn flags_of(ace: u8) -> i32 {
    (if ace & 4 != 0 { AE } else { 0 }) | (if ace & 2 != 0 { CWR } else { 0 }) | (if ace & 1 != 0 { ECE } else { 0 })
}

/// What a client's SYN/ACK says (section 3.1.2, Table 2, for a client
/// that sent (AE,CWR,ECE) = (1,1,1)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Negotiated {
    NotEcn,
    Classic,
    AccEcn,
}

/// The SYN/ACK's flags decide the client's mode: (0,0,0) and the
/// "broken" (1,1,1) reflection: no ECN; (0,0,1): classic ECN (RFC 3168);
/// the four combinations of the top block: AccECN; the reserved (1,0,1):
/// AccECN as if the SYN's IP-ECN field arrived unchanged (section 3.1.3).
pub fn client_mode(synack_flags: i32) -> Negotiated {
    match ace_of(synack_flags) {
        0b000 | 0b111 => Negotiated::NotEcn,
        0b001 => Negotiated::Classic,
        _ => Negotiated::AccEcn,
    }
}

/// One connection's AccECN state, both halves.
#[derive(Clone, Copy, Debug, Default)]
pub struct AccEcn {
    /// Both half connections are in AccECN mode.
    pub on: bool,
    // ---- Data Receiver (section 3.2.1: r.cep = 5, r.e0b = r.e1b = 1, r.ceb = 0)
    pub r_cep: u64,
    pub r_ceb: u64,
    pub r_e0b: u64,
    pub r_e1b: u64,
    /// The previous packet arrived CE (the change-triggered ACK rule).
    prev_ce: bool,
    /// CE marks since the last ACK sent (the increment-triggered rule).
    ce_since_ack: u32,
    /// An ACK is due at once by section 3.2.2.5.1's rules.
    ack_now: bool,
    /// The counters that ever changed (the option's fields, 3.2.3.3), and
    /// their values on the last option sent (to keep changed ones).
    changed: [bool; 3],
    sent: [u64; 3],
    /// The client's first ACK carries the handshake encoding of the
    /// SYN/ACK's IP-ECN field (section 3.2.2.1) instead of r.cep.
    handshake_ace: Option<u8>,
    // ---- Data Sender (section 3.2.1: s.cep = 5, s.e0b = s.e1b = 1, s.ceb = 0)
    pub s_cep: u64,
    pub s_ceb: u64,
    pub s_e0b: u64,
    pub s_e1b: u64,
    /// The highest acknowledgement number whose feedback was read (an
    /// ACK below it is superseded, Appendix A.1).
    high_ack: u64,
    /// The peer feeds back ACE 0 on the ACK of the SYN/ACK (Table 4,
    /// note 1): do not respond to its feedback.
    pub ignore_feedback: bool,
    /// The next ACK is the ACK of the SYN/ACK, read by `handshake_ack`.
    handshake_pending: bool,
}

/// The feedback one ACK brought the Data Sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Feedback {
    /// Newly CE-marked packets (the increase of s.cep).
    pub ce_packets: u64,
    /// Newly CE-marked payload bytes (the increase of s.ceb), from the
    /// option; 0 without one.
    pub ce_bytes: u64,
    /// The ACK carried an option.
    pub option: bool,
}

impl AccEcn {
    /// Both halves enter AccECN mode with the counters of section 3.2.1.
    pub fn start(&mut self) {
        *self = AccEcn { on: true, r_cep: 5, r_e0b: 1, r_e1b: 1, s_cep: 5, s_e0b: 1, s_e1b: 1, ..AccEcn::default() };
        self.sent = [1, 0, 1];
    }

    /// The server's SYN/ACK flags: the handshake encoding of the SYN's
    /// IP-ECN field (section 3.1.1, Table 2's top block).  A CE-marked SYN
    /// does not count in r.cep (section 3.2.2.2).
    pub fn synack_flags(syn: IpEcn) -> i32 {
        flags_of(syn.handshake_ace())
    }

    /// The client got the SYN/ACK that confirms AccECN, arriving with
    /// `ecn`: its ACK feeds that back in the handshake encoding; a CE mark
    /// counts in r.cep once, 5 -> 6 (section 3.2.2.2; Table 3).
    pub fn synack_received(&mut self, ecn: IpEcn) {
        self.start();
        if ecn == IpEcn::Ce {
            self.r_cep = 6;
        }
        self.handshake_ace = Some(ecn.handshake_ace());
    }

    /// The server, in SYN-RCVD, reads the ACK of its SYN/ACK (Table 4):
    /// 0b110 says the SYN/ACK arrived CE (s.cep 6); 0b000 that the client
    /// is not in AccECN mode (no response to its feedback, note 1); the
    /// other values leave s.cep at 5.  Returns true for a CE.
    pub fn handshake_ack(&mut self, flags: i32) -> bool {
        self.handshake_pending = true;
        match ace_of(flags) {
            0b110 => {
                self.s_cep = 6;
                true
            }
            0b000 => {
                self.ignore_feedback = true;
                false
            }
            _ => false,
        }
    }

    // ---- Data Receiver ----------------------------------------------------------

    /// A segment (SYN=0) arrived with IP-ECN `ecn` and `payload` bytes:
    /// the counters of section 3.2 (r.cep counts CE-marked packets, the
    /// byte counters their TCP payload bytes) and the ACK rules of section
    /// 3.2.2.5.1: a data packet marked CE after a packet that was not CE
    /// asks for an ACK at once (change-triggered), as do 2 CE marks since
    /// the last ACK with data unacknowledged, 3 without (increment-triggered).
    pub fn received(&mut self, ecn: IpEcn, payload: u64) {
        match ecn {
            IpEcn::Ce => {
                self.r_cep += 1;
                self.r_ceb += payload;
                self.ce_since_ack += 1;
                if payload > 0 && !self.prev_ce {
                    self.ack_now = true;
                }
                if self.ce_since_ack >= if payload > 0 { 2 } else { 3 } {
                    self.ack_now = true;
                }
            }
            IpEcn::Ect0 => self.r_e0b += payload,
            IpEcn::Ect1 => self.r_e1b += payload,
            IpEcn::NotEct => {}
        }
        self.prev_ce = ecn == IpEcn::Ce;
    }

    /// Whether the last segment asks for an immediate ACK.
    #[inline]
    pub fn ack_now(&self) -> bool {
        self.ack_now
    }

    /// The ACE field of an ACK (or data segment) being sent (SYN=0): the
    /// handshake encoding on the client's first ACK, else r.cep mod 8
    /// (section 3.2.2.2).
    pub fn ack_flags(&mut self, pure_ack: bool) -> i32 {
        self.ack_now = false;
        self.ce_since_ack = 0;
        if let Some(h) = self.handshake_ace {
            if pure_ack {
                self.handshake_ace = None;
                return flags_of(h);
            }
            self.handshake_ace = None;
        }
        flags_of((self.r_cep & 7) as u8)
    }

    /// The option for an ACK with `room` bytes of option space left
    /// (section 3.2.3.3's recommended simple scheme): a field for every
    /// byte counter that has changed during the connection, in the order
    /// that puts the ECT codepoint in use first; truncated from the tail to
    /// fit, but never dropping a field whose counter changed since the
    /// last option; none if that cannot fit, or if no counter ever
    /// changed.  Returns the option and its length in bytes.
    pub fn option(&mut self, room: u32) -> Option<(AccEcnOption, u32)> {
        let now = [self.r_e0b, self.r_ceb, self.r_e1b];
        for (i, v) in now.iter().enumerate() {
            if *v != [1, 0, 1][i] {
                self.changed[i] = true;
            }
        }
        if !self.changed.iter().any(|c| *c) {
            return None;
        }
        // order 1 when ECT(1) is the codepoint in use (L4S), else order 0
        let order1 = self.changed[2] && !self.changed[0];
        let seq: [usize; 3] = if order1 { [2, 1, 0] } else { [0, 1, 2] };
        let mut want = 0;
        let mut need = 0;
        for (k, &i) in seq.iter().enumerate() {
            if self.changed[i] {
                want = k + 1;
            }
            if now[i] != self.sent[i] {
                need = k + 1;
            }
        }
        let fits = (room.saturating_sub(2) / 3) as usize;
        if fits < need {
            return None;
        }
        let n = want.min(fits);
        for &i in &seq[..n] {
            self.sent[i] = now[i];
        }
        let o = AccEcnOption { e0b: (now[0] & MASK24) as u32, ceb: (now[1] & MASK24) as u32, e1b: (now[2] & MASK24) as u32, fields: n as u8, order1 };
        Some((o, 2 + 3 * n as u32))
    }

    // ---- Data Sender ------------------------------------------------------------

    /// An ACK (SYN=0) with flags `flags`, acknowledgement number `ack`,
    /// `newly_acked` bytes (cumulative and SACKed) and option `opt` (if
    /// any); `mss` is the segment size.  Returns the new CE feedback.
    ///
    /// An ACK below one already read is superseded and ignored (section
    /// 3.2.2.2, Appendix A.1).  The option's fields move s.e0b, s.ceb,
    /// s.e1b by their increase mod 2^24 (section 3.2.3.1).  ACE moves s.cep
    /// by (ACE - s.cep) mod 8 (section 3.2.2.2), then section 3.2.2.5.2's
    /// safety: with an option, the CE bytes bound how many CE packets there
    /// were (the ACE field wrapped as often as fits them, Appendix A.2.2's
    /// idea); without one, if the ACK covers more than 8 packets, the
    /// field is taken to have wrapped as often as the packets allow (the
    /// safest case, Appendix A.2.1's conservative reading).
    pub fn ack_received(&mut self, flags: i32, ack: u64, newly_acked: u64, opt: Option<AccEcnOption>, mss: u32) -> Feedback {
        if ack < self.high_ack {
            return Feedback::default();
        }
        if self.handshake_pending {
            // its ACE was the handshake encoding, read already
            self.handshake_pending = false;
            self.high_ack = ack;
            return Feedback::default();
        }
        self.high_ack = ack;
        let mut fb = Feedback { option: opt.is_some(), ..Feedback::default() };
        if let Some(o) = opt {
            let present = |field: usize| -> bool {
                // position of a field in the option's order
                let pos = if o.order1 { [2, 1, 0][field] } else { field };
                pos < o.fields as usize
            };
            let step = |s: &mut u64, v: u32| -> u64 {
                let d = (v as u64).wrapping_sub(*s & MASK24) & MASK24;
                *s += d;
                d
            };
            if present(0) {
                step(&mut self.s_e0b, o.e0b);
            }
            if present(1) {
                fb.ce_bytes = step(&mut self.s_ceb, o.ceb);
            }
            if present(2) {
                step(&mut self.s_e1b, o.e1b);
            }
        }
        let mut d = (ace_of(flags) as u64).wrapping_sub(self.s_cep & 7) & 7;
        let m = mss.max(1) as u64;
        if fb.option && fb.ce_bytes > 0 {
            // at least one CE packet per MSS of CE bytes
            let k = fb.ce_bytes.div_ceil(m);
            if k > d {
                d += (k - d) / 8 * 8;
            }
        } else if !fb.option && newly_acked > 0 {
            let pkts = newly_acked.div_ceil(m);
            if pkts >= d + 8 {
                d += (pkts - d) / 8 * 8;
            }
        }
        self.s_cep += d;
        fb.ce_packets = d;
        if self.ignore_feedback {
            return Feedback { option: fb.option, ..Feedback::default() };
        }
        fb
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Section 3.1.2, Table 2: the client's mode from the SYN/ACK's flags
    /// after an AccECN SYN (1,1,1).
    #[test]
    fn negotiation_table_2() {
        let f = |ae: u8, cwr: u8, ece: u8| flags_of(ae << 2 | cwr << 1 | ece);
        for (ae, cwr, ece, mode) in [
            (0, 1, 0, Negotiated::AccEcn),
            (0, 1, 1, Negotiated::AccEcn),
            (1, 0, 0, Negotiated::AccEcn),
            (1, 1, 0, Negotiated::AccEcn),
            // reserved "Nonce" (1,0,1): AccECN (section 3.1.3)
            (1, 0, 1, Negotiated::AccEcn),
            (0, 0, 1, Negotiated::Classic),
            (0, 0, 0, Negotiated::NotEcn),
            // a server that reflects the SYN's flags is broken
            (1, 1, 1, Negotiated::NotEcn),
        ] {
            assert_eq!(client_mode(f(ae, cwr, ece)), mode, "({ae},{cwr},{ece})");
        }
        // the server's SYN/ACK feeds back the SYN's IP-ECN (top block)
        assert_eq!(AccEcn::synack_flags(IpEcn::NotEct), CWR);
        assert_eq!(AccEcn::synack_flags(IpEcn::Ect1), CWR | ECE);
        assert_eq!(AccEcn::synack_flags(IpEcn::Ect0), AE);
        assert_eq!(AccEcn::synack_flags(IpEcn::Ce), AE | CWR);
    }

    /// Section 3.2.2.1, Tables 3 and 4: the ACK of the SYN/ACK carries the
    /// handshake encoding; a CE-marked SYN/ACK takes the client's r.cep
    /// to 6 and, fed back as 0b110, the server's s.cep to 6; then ACE is
    /// r.cep mod 8.
    #[test]
    fn handshake_encoding_tables_3_and_4() {
        let mut c = AccEcn::default();
        c.synack_received(IpEcn::Ce);
        assert_eq!(c.r_cep, 6);
        let f = c.ack_flags(true);
        assert_eq!(ace_of(f), 0b110);
        let mut s = AccEcn::default();
        s.start();
        assert!(s.handshake_ack(f));
        assert_eq!(s.s_cep, 6);
        // the ACK of the SYN/ACK is not read again as a counter
        assert_eq!(s.ack_received(f, 1, 0, None, 100).ce_packets, 0);
        assert_eq!(s.ack_received(flags_of(6), 1, 0, None, 100).ce_packets, 0);
        // the next ACK carries r.cep mod 8 = 6
        assert_eq!(ace_of(c.ack_flags(true)), 6);
        // an unmarked SYN/ACK: 0b010, s.cep stays 5, r.cep stays 5
        let mut c = AccEcn::default();
        c.synack_received(IpEcn::NotEct);
        assert_eq!(ace_of(c.ack_flags(true)), 0b010);
        assert_eq!(ace_of(c.ack_flags(true)), 5);
        let mut s = AccEcn::default();
        s.start();
        assert!(!s.handshake_ack(flags_of(0b010)));
        assert_eq!(s.s_cep, 5);
        // ACE 0 on the ACK of the SYN/ACK: no response to its feedback
        assert!(!s.handshake_ack(0));
        assert!(s.ignore_feedback);
        assert_eq!(s.ack_received(0, 1, 0, None, 100), Feedback::default(), "the handshake ACK itself");
        assert_eq!(s.ack_received(flags_of(7), 100, 100, None, 100).ce_packets, 0);
    }

    /// Section 3.2.1's initial values; section 3.2.2.2's encoding (r.cep
    /// mod 8 on every ACK) and decoding (s.cep += (ACE - s.cep) mod 8),
    /// across the wrap of the 3-bit field.
    #[test]
    fn ace_counts_ce_packets_mod_8() {
        let (mut r, mut s) = (AccEcn::default(), AccEcn::default());
        r.start();
        s.start();
        assert_eq!((r.r_cep, r.r_ceb, r.r_e0b, r.r_e1b), (5, 0, 1, 1));
        assert_eq!((s.s_cep, s.s_ceb, s.s_e0b, s.s_e1b), (5, 0, 1, 1));
        let mut ack = 0;
        let mut total = 0;
        // rounds of 1, 2 and 3 CE packets among 4, each ACKed
        for k in [1, 2, 3, 3, 2, 1] {
            for i in 0..4 {
                r.received(if i < k { IpEcn::Ce } else { IpEcn::Ect1 }, 1000);
            }
            ack += 4000;
            total += k;
            let f = r.ack_flags(true);
            let fb = s.ack_received(f, ack, 4000, None, 1000);
            assert_eq!(fb.ce_packets, k);
        }
        // 12 CE marks: s.cep 5 + 12 = 17, ACE 17 mod 8 = 1
        assert_eq!((total, s.s_cep, r.r_cep), (12, 17, 17));
        assert_eq!(ace_of(r.ack_flags(true)), 1);
        // a superseded ACK (below one already read) is ignored
        assert_eq!(s.ack_received(flags_of(4), ack - 1000, 0, None, 1000), Feedback::default());
    }

    /// Section 3.2.2.5.2 without the option: 10 CE packets under one ACK
    /// of 10 packets look like 2 (ACE moved 5 -> 7); the ACK covers more
    /// than 8 packets, so the field is taken to have wrapped once: 10.
    /// With the option, the CE bytes (10 MSS) settle it the same way, and
    /// a small ACK never over-counts.
    #[test]
    fn ace_wrap_safety() {
        let (mut r, mut s) = (AccEcn::default(), AccEcn::default());
        r.start();
        s.start();
        for _ in 0..10 {
            r.received(IpEcn::Ce, 1000);
        }
        let f = r.ack_flags(true);
        assert_eq!(ace_of(f), 7);
        let mut s2 = s;
        assert_eq!(s.ack_received(f, 10_000, 10_000, None, 1000).ce_packets, 10);
        let (o, _) = r.option(40).unwrap();
        let fb = s2.ack_received(f, 10_000, 10_000, Some(o), 1000);
        assert_eq!((fb.ce_packets, fb.ce_bytes), (10, 10_000));
        // 2 packets acknowledged, ACE +2: 2
        let mut s3 = AccEcn::default();
        s3.start();
        assert_eq!(s3.ack_received(flags_of(7), 2000, 2000, None, 1000).ce_packets, 2);
    }

    /// Section 3.2.3: the option's byte counters, and their decoding mod
    /// 2^24 (section 3.2.3.1), across a wrap of the 24-bit field; section
    /// 3.2.3.3's field choice: ECT(1) only -> order 1 with EE1B; after a CE
    /// mark EE1B and ECEB; truncation never drops a changed field.
    #[test]
    fn option_byte_counters() {
        let (mut r, mut s) = (AccEcn::default(), AccEcn::default());
        r.start();
        s.start();
        assert_eq!(r.option(40), None, "no counter changed yet");
        r.received(IpEcn::Ect1, 1448);
        let (o, len) = r.option(40).unwrap();
        assert_eq!((o.order1, o.fields, len, o.e1b), (true, 1, 5, 1449));
        s.ack_received(r.ack_flags(true), 1448, 1448, Some(o), 1448);
        assert_eq!(s.s_e1b, 1449);
        r.received(IpEcn::Ce, 1448);
        let (o, len) = r.option(40).unwrap();
        assert_eq!((o.fields, len, o.ceb), (2, 8, 1448));
        let fb = s.ack_received(r.ack_flags(true), 2896, 1448, Some(o), 1448);
        assert_eq!((fb.ce_packets, fb.ce_bytes), (1, 1448));
        // room for one field only while ECEB changed: no option at all
        r.received(IpEcn::Ce, 1448);
        assert_eq!(r.option(5), None);
        // across the 24-bit wrap: 2^24 - 1 CE bytes more (the field goes
        // from 1448 past 2^24 to 1447) come back exactly
        let mut r2 = r;
        let mut s2 = s;
        r2.r_ceb += (1 << 24) - 1 - 1448;
        let (o, _) = r2.option(40).unwrap();
        assert_eq!(o.ceb, 1447);
        let fb = s2.ack_received(r2.ack_flags(true), 4344, 1448, Some(o), 1448);
        assert_eq!(fb.ce_bytes, (1 << 24) - 1);
        assert_eq!(s2.s_ceb, r2.r_ceb);
    }

    /// Section 3.2.2.5.1: a CE-marked data packet after an unmarked one
    /// asks for an ACK at once, the next CE in a row does not, until two
    /// CE marks have gone unacknowledged (increment-triggered, n = 2).
    #[test]
    fn change_and_increment_triggered_acks() {
        let mut r = AccEcn::default();
        r.start();
        r.received(IpEcn::Ect1, 1000);
        assert!(!r.ack_now());
        r.received(IpEcn::Ce, 1000);
        assert!(r.ack_now(), "change-triggered");
        r.ack_flags(true);
        r.received(IpEcn::Ce, 1000);
        assert!(!r.ack_now(), "a run of CE: one mark unacknowledged");
        r.received(IpEcn::Ce, 1000);
        assert!(r.ack_now(), "increment-triggered at 2");
        r.ack_flags(true);
        // pure ACKs marked CE: 3 before an ACK is due
        r.received(IpEcn::Ce, 0);
        r.received(IpEcn::Ce, 0);
        assert!(!r.ack_now());
        r.received(IpEcn::Ce, 0);
        assert!(r.ack_now());
    }
}
