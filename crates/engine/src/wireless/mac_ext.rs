//! 802.11a's timing as ns-2 2.35's `Mac/802_11Ext` computes it
//! (mac/mac-802_11Ext.cc, its PHY and MAC MIBs): OFDM frames of whole
//! symbols after a fixed preamble and PLCP header, each frame's
//! modulation setting its bits per symbol, control frames and headers at
//! the basic modulation.  The control frames are the DCF's (mac80211.rs:
//! RTS 20 bytes, CTS and ACK 14); the data header has three addresses,
//! not four (28 bytes with its checksum); the interframe spaces derive
//! from `SIFS_` and `SlotTime_`.
//!
//! Only the timing is built so far; the MAC's state machine (its channel
//! state, backoff, transmission and reception coordinators) is not, nor
//! is it joined to a run (docs/wireless.md).

use super::mac80211::{usec, ACK_FRAME as ACK_LEN, CTS_FRAME as CTS_LEN, RTS_FRAME as RTS_LEN};

/// The data frame's header and checksum (hdr_mac802_11 of
/// mac-802_11Ext.h up to its body, and the FCS).
pub const DATA_HDR_LEN: u32 = 2 + 2 + 3 * 6 + 2 + 4;

/// Data bits per OFDM symbol of each modulation (BPSK, QPSK, QAM16,
/// QAM64 at ns-2's coding rates).
pub const BITS_PER_SYMBOL: [u32; 4] = [24, 48, 96, 192];

/// `Mac/802_11Ext`'s timing parameters (bound variables; defaults
/// ns-default.tcl's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// `SlotTime_`, `SIFS_` (s).
    pub slot: f64,
    pub sifs: f64,
    /// `HeaderDuration_` (preamble and PLCP header), `SymbolDuration_` (s).
    pub header_duration: f64,
    pub symbol_duration: f64,
    /// `BasicModulationScheme_`: control frames' modulation.
    pub basic: u8,
    /// `use_802_11a_flag_`: 22 bits (SERVICE and tail) before the padding.
    pub ofdm_bits: bool,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing { slot: 0.000009, sifs: 0.000016, header_duration: 0.000020, symbol_duration: 0.000004, basic: 0, ofdm_bits: true }
    }
}

impl Timing {
    /// The air time of a frame of `bytes` at modulation `m`: the header,
    /// then the bits (with 16 service and 6 tail bits in 802.11a) padded
    /// to whole symbols.
    pub fn txtime(&self, bytes: u32, m: u8) -> f64 {
        let mut bits = (bytes as i32) << 3;
        if self.ofdm_bits {
            bits += 16 + 6;
        }
        let symbols = (bits as f64 / BITS_PER_SYMBOL[m as usize] as f64).ceil() as i32;
        self.header_duration + symbols as f64 * self.symbol_duration
    }

    /// DIFS, EIFS (SIFS, DIFS and an ACK at the basic modulation), PIFS.
    pub fn difs(&self) -> f64 {
        self.sifs + 2.0 * self.slot
    }

    pub fn eifs(&self) -> f64 {
        self.sifs + self.difs() + self.txtime(ACK_LEN, self.basic)
    }

    pub fn pifs(&self) -> f64 {
        self.sifs + self.slot
    }

    /// A data frame's air time: its payload and the 802.11 header.
    pub fn data_txtime(&self, payload: u32, m: u8) -> f64 {
        self.txtime(payload + DATA_HDR_LEN, m)
    }

    /// A data frame's duration field (us): an ACK after a SIFS for a
    /// unicast, 0 for a broadcast.
    pub fn data_duration(&self, broadcast: bool) -> u16 {
        if broadcast {
            0
        } else {
            usec(self.txtime(ACK_LEN, self.basic) + self.sifs)
        }
    }

    /// An RTS's duration field (us) for a data frame of air time `data`:
    /// CTS, data and ACK, each after a SIFS.
    pub fn rts_duration(&self, data: f64) -> u16 {
        usec(self.sifs + self.txtime(CTS_LEN, self.basic) + self.sifs + data + self.sifs + self.txtime(ACK_LEN, self.basic))
    }

    /// The CTS's duration field (us) answering an RTS of duration `rts` us.
    pub fn cts_duration(&self, rts: u16) -> u16 {
        usec(rts as f64 * 1.0e-6 - self.sifs - self.txtime(CTS_LEN, self.basic))
    }

    /// An RTS's air time (at the basic modulation).
    pub fn rts_txtime(&self) -> f64 {
        self.txtime(RTS_LEN, self.basic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The suite wireless-lan-newnode-80211Ext's unicast test, as ns-2's
    // reference trace shows it (nodes 10 m apart: 33 ns of propagation):
    // a 1000-byte broadcast sent at 0.010025 is received at 0.011421033,
    // an ACK sent at 1.011437033 at 1.011481067, an RTS sent at 3.020025
    // at 3.020077033, a 2500-byte data frame sent at 3.020153067 at
    // 3.023549100; durations [3c ...], RTS [dcc ...], CTS [d90 ...].
    #[test]
    fn air_times_and_durations_are_the_suites() {
        let t = Timing::default();
        let us = |s: f64| (s * 1e6 * 1000.0).round() / 1000.0;
        assert_eq!(us(t.data_txtime(1000, 0)), 1396.0);
        assert_eq!(us(t.txtime(ACK_LEN, 0)), 44.0);
        assert_eq!(us(t.rts_txtime()), 52.0);
        assert_eq!(us(t.txtime(CTS_LEN, 0)), 44.0);
        assert_eq!(us(t.data_txtime(2500, 0)), 3396.0);
        assert_eq!(t.data_duration(false), 0x3c);
        assert_eq!(t.data_duration(true), 0);
        let rts = t.rts_duration(t.data_txtime(2500, 0));
        assert_eq!(rts, 0xdcc);
        assert_eq!(t.cts_duration(rts), 0xd90);
        // (the reference's gaps: 0.011421033 - 0.010025 - 33 ns)
        assert_eq!(us(0.011421033 - 0.010025 - 33e-9), 1396.0);
    }

    #[test]
    fn faster_modulations_pack_more_bits_per_symbol() {
        let t = Timing::default();
        // 1028 bytes = 8224 bits + 22: 344 symbols at BPSK, 172 at QPSK
        // (8246 / 48 = 171.8), 86 at QAM16, 43 at QAM64
        for (m, symbols) in [(0u8, 344.0), (1, 172.0), (2, 86.0), (3, 43.0)] {
            assert!((t.data_txtime(1000, m) - (20e-6 + symbols * 4e-6)).abs() < 1e-12, "{m}");
        }
        // without 802.11a's 22 bits, 8224 / 24 = 342.67: 343 symbols
        let plain = Timing { ofdm_bits: false, ..t };
        assert!((plain.data_txtime(1000, 0) - (20e-6 + 343.0 * 4e-6)).abs() < 1e-12);
        // interframe spaces: DIFS 34 us, PIFS 25, EIFS 16 + 34 + 44 = 94
        assert!((t.difs() - 34e-6).abs() < 1e-12);
        assert!((t.pifs() - 25e-6).abs() < 1e-12);
        assert!((t.eifs() - 94e-6).abs() < 1e-12);
    }
}
