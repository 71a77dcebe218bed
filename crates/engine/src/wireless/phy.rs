//! The radio interface of a wireless node (ns-2 2.35's `Phy/WirelessPhy`,
//! mac/wireless-phy.cc) and its antenna (`Antenna/OmniAntenna`): transmit
//! power, frequency, system loss, and the three thresholds a reception is
//! judged by: below the carrier-sense threshold a frame is not heard at
//! all; below the receive threshold it is heard (the medium is busy) but
//! garbled; the capture threshold is the power ratio by which a frame
//! being received survives another arriving.

use super::propagation::{wavelength, Model};

/// An omnidirectional antenna: its offset from the node and its gains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Antenna {
    pub x: f64,
    pub y: f64,
    /// Height above the node (ns-2: 1.5 m).
    pub z: f64,
    pub tx_gain: f64,
    pub rx_gain: f64,
}

impl Default for Antenna {
    fn default() -> Antenna {
        Antenna { x: 0.0, y: 0.0, z: 1.5, tx_gain: 1.0, rx_gain: 1.0 }
    }
}

/// A radio's parameters; the defaults are ns-2 2.35's (914 MHz Lucent
/// WaveLAN: 250 m of range, 550 m of carrier sense with two-ray ground).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Radio {
    /// Transmit power (W), frequency (Hz), system loss.
    pub pt: f64,
    pub freq: f64,
    pub loss: f64,
    /// The wavelength, fixed when the interface is made (ns-2 computes it
    /// in the constructor: a later change of the frequency alone does not
    /// change it).
    pub lambda: f64,
    pub capture_threshold: f64,
    pub carrier_sense_threshold: f64,
    pub receive_threshold: f64,
}

impl Default for Radio {
    fn default() -> Radio {
        Radio::new(0.28183815, 914e6, 1.0, 10.0, 1.559e-11, 3.652e-10)
    }
}

/// How a frame arrives at a radio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reception {
    /// Below the carrier-sense threshold: as if never sent.
    Unheard,
    /// Heard but below the receive threshold: it occupies the receiver and
    /// is then discarded as an error.
    Garbled,
    /// Strong enough to be received (collisions aside).
    Clear,
}

impl Radio {
    pub fn new(pt: f64, freq: f64, loss: f64, capture: f64, carrier_sense: f64, receive: f64) -> Radio {
        Radio {
            pt,
            freq,
            loss,
            lambda: wavelength(freq),
            capture_threshold: capture,
            carrier_sense_threshold: carrier_sense,
            receive_threshold: receive,
        }
    }

    /// Judge a frame received at power `pr`.
    pub fn judge(&self, pr: f64) -> Reception {
        if pr < self.carrier_sense_threshold {
            Reception::Unheard
        } else if pr < self.receive_threshold {
            Reception::Garbled
        } else {
            Reception::Clear
        }
    }

    /// The distance beyond which no radio of the channel can hear this one
    /// (ns-2's `distCST_`, computed once, at the first transmission, from
    /// the highest antenna of the channel, with unit gains).
    pub fn carrier_sense_range(&self, model: &Model, highest_antenna: f64) -> f64 {
        model.distance(self.carrier_sense_threshold, self.pt, 1.0, 1.0, highest_antenna, highest_antenna, self.loss, self.lambda)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_outcomes_at_the_default_thresholds() {
        let r = Radio::default();
        assert_eq!(r.judge(1.0e-11), Reception::Unheard);
        assert_eq!(r.judge(1.559e-11), Reception::Garbled);
        assert_eq!(r.judge(3.651e-10), Reception::Garbled);
        assert_eq!(r.judge(3.652e-10), Reception::Clear);
    }

    #[test]
    fn carrier_sense_range_and_wavelength() {
        let r = Radio::default();
        assert_eq!(r.lambda, 300000000.0 / 914e6);
        assert_eq!(format!("{:.1}", r.carrier_sense_range(&Model::two_ray_ground(), 1.5)), "550.0");
        // free space: farther (1/d^2)
        let fs = r.carrier_sense_range(&Model::FreeSpace, 1.5);
        assert!(fs > 3000.0 && fs < 4000.0, "{fs}");
        // more power, farther
        let loud = Radio { pt: r.pt * 16.0, ..r };
        assert_eq!(format!("{:.1}", loud.carrier_sense_range(&Model::two_ray_ground(), 1.5)), "1100.0");
    }
}
