//! IEEE 802.11 DCF's timing as ns-2 2.35's `Mac/802_11` computes it
//! (mac/mac-802_11.h's PHY_MIB and mac/mac-802_11.cc's `txtime`,
//! `sendRTS`, `sendCTS`, `sendDATA`): frame lengths, inter-frame spaces,
//! transmission times and the duration (NAV) fields the frames carry.  The
//! state machine (carrier sense, backoff, retries) builds on these.
//!
//! Lengths are in bytes and include the PLCP preamble and header, which
//! are sent at the PLCP rate; the rest of a frame goes at the data rate
//! (unicast data) or the basic rate (control frames, broadcasts).

/// The parameters of the PHY (ns-2's PHY_MIB) and the two rates; the
/// defaults are ns-2 2.35's (DSSS at 1 Mb/s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mib {
    pub cw_min: u32,
    pub cw_max: u32,
    /// Seconds.
    pub slot_time: f64,
    pub sifs: f64,
    /// Bits.
    pub preamble_length: u32,
    pub plcp_header_length: u32,
    /// Bits per second.
    pub plcp_data_rate: f64,
    /// Frames longer than this (bytes) go after an RTS/CTS exchange
    /// (0: every unicast frame).
    pub rts_threshold: u32,
    pub short_retry_limit: u32,
    pub long_retry_limit: u32,
    /// Bits per second: unicast data, and control frames and broadcasts.
    pub data_rate: f64,
    pub basic_rate: f64,
}

impl Default for Mib {
    fn default() -> Mib {
        Mib {
            cw_min: 31,
            cw_max: 1023,
            slot_time: 0.000020,
            sifs: 0.000010,
            preamble_length: 144,
            plcp_header_length: 48,
            plcp_data_rate: 1.0e6,
            rts_threshold: 0,
            short_retry_limit: 7,
            long_retry_limit: 4,
            data_rate: 1.0e6,
            basic_rate: 1.0e6,
        }
    }
}

/// The MAC frame bodies' sizes in bytes (frame control 2, duration 2,
/// addresses 6 each, sequence control 2, FCS 4).
pub(super) const RTS_FRAME: u32 = 2 + 2 + 6 + 6 + 4;
pub(super) const CTS_FRAME: u32 = 2 + 2 + 6 + 4;
pub(super) const ACK_FRAME: u32 = 2 + 2 + 6 + 4;
/// The data frame's header (four addresses) before its body, and the FCS.
const DATA_HEADER: u32 = 2 + 2 + 4 * 6 + 2;
const FCS: u32 = 4;

/// Seconds as the whole microseconds a duration field holds (rounded to
/// the nearest, kept in 16 bits as ns-2's `usec`).
pub fn usec(t: f64) -> u16 {
    (t * 1e6 + 0.5).floor() as u16
}

/// Microseconds back to seconds (ns-2's `sec`).
pub fn sec(us: f64) -> f64 {
    us * 1.0e-6
}

impl Mib {
    /// The PLCP preamble and header, in bytes.
    pub fn plcp_len(&self) -> u32 {
        (self.preamble_length + self.plcp_header_length) >> 3
    }

    pub fn pifs(&self) -> f64 {
        self.sifs + self.slot_time
    }

    pub fn difs(&self) -> f64 {
        self.sifs + 2.0 * self.slot_time
    }

    /// The wait after a frame received in error: long enough for the ACK
    /// the sender may be expecting.
    pub fn eifs(&self) -> f64 {
        self.sifs + self.difs() + (8 * self.ack_len()) as f64 / self.plcp_data_rate
    }

    pub fn rts_len(&self) -> u32 {
        self.plcp_len() + RTS_FRAME
    }

    pub fn cts_len(&self) -> u32 {
        self.plcp_len() + CTS_FRAME
    }

    pub fn ack_len(&self) -> u32 {
        self.plcp_len() + ACK_FRAME
    }

    /// What the MAC adds to a packet it sends as data.
    pub fn data_overhead(&self) -> u32 {
        self.plcp_len() + DATA_HEADER + FCS
    }

    /// Transmission time of a frame of `len` bytes (PLCP included), the
    /// rest at `rate` b/s.  (ns-2 truncates the size to whole bytes.)
    pub fn txtime(&self, len: f64, rate: f64) -> f64 {
        let rest = len - self.plcp_len() as f64;
        let plcp_bits = (self.plcp_len() << 3) as i32;
        let rest_bits = (rest as i32) << 3;
        (plcp_bits as f64) / self.plcp_data_rate + (rest_bits as f64) / rate
    }

    /// The duration field of an RTS before a data frame that takes
    /// `data_txtime` seconds: CTS, data and ACK with their SIFS.
    pub fn rts_duration(&self, data_txtime: f64) -> u16 {
        usec(self.sifs + self.txtime(self.cts_len() as f64, self.basic_rate) + self.sifs + data_txtime + self.sifs + self.txtime(self.ack_len() as f64, self.basic_rate))
    }

    /// The duration field of the CTS answering an RTS that carried
    /// `rts_duration`.
    pub fn cts_duration(&self, rts_duration: u16) -> u16 {
        usec(sec(rts_duration as f64) - self.sifs - self.txtime(self.cts_len() as f64, self.basic_rate))
    }

    /// The duration field of a unicast data frame: its ACK and a SIFS
    /// (a broadcast's is 0, an ACK's too).
    pub fn data_duration(&self) -> u16 {
        usec(self.txtime(self.ack_len() as f64, self.basic_rate) + self.sifs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The figures below are read off the trace ns-2 2.35 writes for seed
    // 002's script with its MAC trace on (node 0 and the mover, 150 m
    // apart: 0.5 us of propagation).

    #[test]
    fn lengths_and_spaces_of_the_default_phy() {
        let m = Mib::default();
        assert_eq!(m.plcp_len(), 24);
        assert_eq!((m.rts_len(), m.cts_len(), m.ack_len()), (44, 38, 38));
        // a 48-byte AODV request leaves the MAC as 106 bytes
        assert_eq!(48 + m.data_overhead(), 106);
        assert_eq!(usec(m.difs()), 50);
        assert_eq!(usec(m.pifs()), 30);
        assert_eq!(usec(m.eifs()), 364);
    }

    #[test]
    fn transmission_times() {
        let m = Mib::default();
        // the broadcast request: sent at 0.000535, received at 0.0013835
        assert_eq!(usec(m.txtime(106.0, m.basic_rate)), 848);
        // RTS at 0.002667, received at 0.0030195
        assert_eq!(usec(m.txtime(m.rts_len() as f64, m.basic_rate)), 352);
        // CTS at 0.0030295, received at 0.003334
        assert_eq!(usec(m.txtime(m.cts_len() as f64, m.basic_rate)), 304);
        // the ARP reply (28 bytes) as data: 0.003344 to 0.0040325
        assert_eq!(usec(m.txtime((28 + m.data_overhead()) as f64, m.data_rate)), 688);
        // at 11 Mb/s only the part after the PLCP is faster
        let fast = Mib { data_rate: 11e6, ..m };
        assert_eq!(fast.txtime(590.0, fast.data_rate), 192e-6 + (566.0 * 8.0) / 11e6);
        // a fractional size is truncated to whole bytes
        assert_eq!(m.txtime(106.9, m.basic_rate), m.txtime(106.0, m.basic_rate));
    }

    #[test]
    fn duration_fields() {
        let m = Mib::default();
        // the ARP reply's RTS: -Ma 52e; the CTS: -Ma 3f4; data: -Ma 13a
        let data = m.txtime((28 + m.data_overhead()) as f64, m.data_rate);
        let rts = m.rts_duration(data);
        assert_eq!(rts, 0x52e);
        assert_eq!(m.cts_duration(rts), 0x3f4);
        assert_eq!(m.data_duration(), 0x13a);
    }

    #[test]
    fn usec_rounds_to_the_nearest_microsecond() {
        assert_eq!(usec(313.5e-6), 314);
        assert_eq!(usec(313.4999e-6), 313);
        assert_eq!(sec(314.0), 314.0e-6);
    }
}
