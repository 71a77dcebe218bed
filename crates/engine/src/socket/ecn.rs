//! Classic ECN (RFC 3168) as ns-3.37's `TcpSocketBase` runs it: the
//! negotiation on the SYN (ECE+CWR) and SYN+ACK (ECE), ECT(0) on data
//! segments, the receiver's ECE on every ACK from a CE mark until the
//! sender's CWR, and the sender's once-a-window reduction (`EnterCwr`, the
//! CWR state left when the cumulative ACK passes the recovery point).  The
//! state machine is ns-3's `TcpSocketState::EcnState_t`; the socket calls
//! it at ns-3's places (`socket/mod.rs`).
//!
//! On the wire: ECE and CWR are TCP flags (`tcp_flags`), ECT is the
//! packet's `ecn_capable` and CE its `ecn_to_echo` (ns-2's `ect_` and
//! `ce_`, which the queues' marking already sets on ECN-capable packets only).

use super::accecn::{self, AccEcn, IpEcn, Negotiated, AE};

/// TCP header flags of ECN.
pub const ECE: i32 = 0x40;
pub const CWR: i32 = 0x80;

/// [TcpSocketBase::UseEcn].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseEcn {
    Off,
    /// Ask for ECN on the SYN, and accept it.
    On,
    /// Accept ECN when the peer asks, never ask.
    AcceptOnly,
    /// Ask for Accurate ECN (RFC 9768, `accecn.rs`) on the SYN; accept
    /// AccECN, or classic ECN when only one end has AccECN.
    AccEcn,
}

/// ns-3's `EcnState_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EcnState {
    /// Not negotiated (or not yet).
    Disabled,
    Idle,
    /// The receiver saw CE and has not yet sent an ECE.
    CeRcvd,
    /// The receiver sends ECE on its ACKs until a CWR arrives.
    SendingEce,
    /// The sender got an ECE and has not yet sent CWR.
    EceRcvd,
    CwrSent,
}

/// A connection's ECN state and the sequence numbers ns-3 keeps with it.
#[derive(Clone, Copy, Debug)]
pub struct Ecn {
    pub mode: UseEcn,
    pub state: EcnState,
    /// The last ACK with a valid ECE (`m_ecnEchoSeq`), the last segment
    /// sent with CWR (`m_ecnCWRSeq`), the last segment received with CE
    /// (`m_ecnCESeq`).
    pub echo_seq: u64,
    pub cwr_seq: u64,
    pub ce_seq: u64,
    /// ns-3's `EcnMode` `DctcpEcn` (else `ClassicEcn`): every packet
    /// carries ECT, pure ACKs and SYNs included, negotiated or not.
    pub dctcp: bool,
    /// `m_ectCodePoint` is ECT(1) (else ECT(0)).
    pub ect1: bool,
    /// AccECN's counters; `acc.on` once it is negotiated (the classic
    /// echo's states then stay idle).
    pub acc: AccEcn,
}

impl Ecn {
    pub fn new(mode: UseEcn) -> Ecn {
        Ecn { mode, state: EcnState::Disabled, echo_seq: 0, cwr_seq: 0, ce_seq: 0, dctcp: false, ect1: false, acc: AccEcn::default() }
    }

    /// The flags of the first SYN (`DoConnect`).
    #[inline]
    pub fn syn_flags(&self) -> i32 {
        match self.mode {
            UseEcn::On => ECE | CWR,
            UseEcn::AccEcn => AE | ECE | CWR,
            _ => 0,
        }
    }

    /// A SYN arrived at a listening end: ECN is used if we accept it and
    /// the SYN asks (ECE and CWR); returns the SYN+ACK's extra flags.
    /// An AccECN end answers an AccECN SYN with AccECN (any combination
    /// but (0,0,0) and (0,1,1), RFC 9768 sections 3.1.1 and 3.1.3), the
    /// SYN/ACK's flags feeding back the SYN's IP-ECN field `ip`; a classic
    /// SYN (0,1,1) with classic ECN.
    pub fn syn_received(&mut self, flags: i32, ip: IpEcn) -> i32 {
        if self.mode == UseEcn::AccEcn && !matches!(accecn::ace_of(flags), 0b000 | 0b011) {
            self.state = EcnState::Idle;
            self.acc.start();
            return AccEcn::synack_flags(ip);
        }
        self.acc.on = false;
        if self.mode != UseEcn::Off && flags & (ECE | CWR) == ECE | CWR {
            self.state = EcnState::Idle;
            ECE
        } else {
            self.state = EcnState::Disabled;
            0
        }
    }

    /// The SYN+ACK arrived: ECN is used if it carries ECE without CWR.
    pub fn syn_ack_received(&mut self, flags: i32, ip: IpEcn) {
        if self.mode == UseEcn::AccEcn {
            // RFC 9768 section 3.1.2, Table 2
            self.state = match accecn::client_mode(flags) {
                Negotiated::AccEcn => {
                    self.acc.synack_received(ip);
                    EcnState::Idle
                }
                Negotiated::Classic => EcnState::Idle,
                Negotiated::NotEcn => EcnState::Disabled,
            };
            return;
        }
        self.state = if self.mode != UseEcn::Off && flags & (ECE | CWR) == ECE { EcnState::Idle } else { EcnState::Disabled };
    }

    /// A segment arrived with CE (`ForwardUp`): the receiver echoes it,
    /// once per new sequence number.  True if it is a new mark (ns-3's
    /// `CA_EVENT_ECN_IS_CE` follows).
    pub fn ce_received(&mut self, seq: u64) -> bool {
        if self.ce_seq < seq {
            self.ce_seq = seq;
            self.state = EcnState::CeRcvd;
            true
        } else {
            false
        }
    }

    /// The receiver's CE state machine (DCTCP's `CeState1to0`) stops the
    /// echo.
    pub fn echo_stopped(&mut self) {
        if matches!(self.state, EcnState::CeRcvd | EcnState::SendingEce) {
            self.state = EcnState::Idle;
        }
    }

    /// A CWR arrived in ESTABLISHED (`DoForwardUp`): stop echoing, unless a
    /// new CE came with it.
    pub fn cwr_received(&mut self) {
        if self.state != EcnState::CeRcvd {
            self.state = EcnState::Idle;
        }
    }

    /// The flags of a pure ACK the receiver sends after data: ECE while
    /// echoing (and then it is echoing).
    #[inline]
    pub fn ack_flags(&mut self) -> i32 {
        if matches!(self.state, EcnState::CeRcvd | EcnState::SendingEce) {
            self.state = EcnState::SendingEce;
            ECE
        } else {
            0
        }
    }

    /// The sender's reading of an ACK's ECE (`ReceivedAck`): true if the
    /// window is to be reduced now (a valid ECE, not already in CWR).
    pub fn ack_received(&mut self, ack: u64, old_head: u64, flags: i32, in_cwr: bool) -> bool {
        if ack > old_head && self.state != EcnState::Disabled && flags & ECE != 0 {
            if self.echo_seq < ack {
                self.echo_seq = ack;
                self.state = EcnState::EceRcvd;
                return !in_cwr;
            }
        } else if self.state == EcnState::EceRcvd && flags & ECE == 0 {
            self.state = EcnState::Idle;
        }
        false
    }

    /// A data segment goes out at `seq` (`SendDataPacket`): the CWR flag
    /// on the first new segment after an ECE.
    #[inline]
    pub fn data_flags(&mut self, seq: u64, retransmission: bool) -> i32 {
        if self.acc.on {
            return self.acc.ack_flags(false);
        }
        if self.state == EcnState::EceRcvd && self.echo_seq > self.cwr_seq && !retransmission {
            self.state = EcnState::CwrSent;
            self.cwr_seq = seq;
            CWR
        } else {
            0
        }
    }

    /// Data segments carry ECT once ECN is in use, or always in DCTCP's
    /// mode (`AddSocketTags`).
    #[inline]
    pub fn ect(&self) -> bool {
        self.dctcp || self.state != EcnState::Disabled
    }

    /// Segments without data carry ECT in DCTCP's mode only.
    #[inline]
    pub fn ect_empty(&self) -> bool {
        self.dctcp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-3.37's tcp-ecn-test.cc, negotiation cases 1-4 (sender, receiver
    /// On or Off: ECT on the data only when both are On), and AcceptOnly
    /// (ECN when the other end asks, never asking itself).
    #[test]
    fn negotiation_as_in_ns3_ecn_test() {
        for (snd, rcv, ect) in [(UseEcn::Off, UseEcn::Off, false), (UseEcn::On, UseEcn::On, true), (UseEcn::On, UseEcn::Off, false), (UseEcn::Off, UseEcn::On, false), (UseEcn::On, UseEcn::AcceptOnly, true), (UseEcn::AcceptOnly, UseEcn::On, false)] {
            let (mut a, mut b) = (Ecn::new(snd), Ecn::new(rcv));
            let syn = a.syn_flags();
            let synack = b.syn_received(syn, IpEcn::NotEct);
            a.syn_ack_received(synack | 0x12, IpEcn::NotEct);
            assert_eq!((a.ect(), b.ect()), (ect, ect), "{snd:?} -> {rcv:?}");
        }
    }

    /// Test case 5's sequence: CE on a data segment, ECE on the receiver's
    /// ACKs, CWR on the sender's next new segment, then no more ECE.
    #[test]
    fn ce_ece_cwr_round_trip() {
        let (mut a, mut b) = (Ecn::new(UseEcn::On), Ecn::new(UseEcn::On));
        let s = b.syn_received(a.syn_flags(), IpEcn::NotEct);
        a.syn_ack_received(s, IpEcn::NotEct);
        // a CE-marked segment at 1001: every ACK carries ECE until a CWR
        assert!(b.ce_received(1001));
        assert_eq!(b.ack_flags(), ECE);
        assert_eq!(b.ack_flags(), ECE);
        // a CE at an older sequence number does not re-arm
        assert!(!b.ce_received(1001));
        // the sender: one reduction for the first ECE, none for the next
        assert!(a.ack_received(2001, 1001, ECE | 0x10, false));
        assert!(!a.ack_received(3001, 2001, ECE | 0x10, true));
        // retransmissions carry no CWR; the next new segment does, once
        assert_eq!(a.data_flags(1001, true), 0);
        assert_eq!(a.data_flags(5001, false), CWR);
        assert_eq!(a.data_flags(6001, false), 0);
        b.cwr_received();
        assert_eq!(b.ack_flags(), 0);
        // an ECE that does not advance the ACK is not acted on
        assert!(!a.ack_received(3001, 3001, ECE, false));
    }

    /// AccECN beside classic ECN (RFC 9768 section 3.1.2, Table 2):
    /// AccECN at both ends: AccECN, the SYN/ACK feeding back the SYN's
    /// IP-ECN; an AccECN client and a classic server: classic ECN (the
    /// server answers the (1,1,1) SYN with ECE); a classic client and an
    /// AccECN server: classic ECN; AccECN and Off: no ECN.  In AccECN mode
    /// data segments carry ACE (r.cep = 5: AE and ECE), never CWR alone.
    #[test]
    fn accecn_negotiation_beside_classic() {
        for (snd, rcv, acc, ect) in [
            (UseEcn::AccEcn, UseEcn::AccEcn, true, true),
            (UseEcn::AccEcn, UseEcn::On, false, true),
            (UseEcn::On, UseEcn::AccEcn, false, true),
            (UseEcn::AccEcn, UseEcn::Off, false, false),
            (UseEcn::Off, UseEcn::AccEcn, false, false),
        ] {
            let (mut a, mut b) = (Ecn::new(snd), Ecn::new(rcv));
            let synack = b.syn_received(a.syn_flags(), IpEcn::NotEct);
            a.syn_ack_received(synack | 0x12, IpEcn::NotEct);
            assert_eq!((a.acc.on, b.acc.on, a.ect(), b.ect()), (acc, acc, ect, ect), "{snd:?} -> {rcv:?}");
        }
        let (mut a, mut b) = (Ecn::new(UseEcn::AccEcn), Ecn::new(UseEcn::AccEcn));
        assert_eq!(a.syn_flags(), AE | CWR | ECE);
        assert_eq!(b.syn_received(a.syn_flags(), IpEcn::Ect0), AE, "ECT(0) on the SYN: (1,0,0)");
        a.syn_ack_received(AE | 0x12, IpEcn::NotEct);
        assert_eq!(accecn::ace_of(a.acc.ack_flags(true)), 0b010, "handshake encoding");
        assert_eq!(a.data_flags(1, false), AE | ECE, "ACE = r.cep mod 8 = 5");
    }
}
