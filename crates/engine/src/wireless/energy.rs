//! A node's battery (ns-2 2.35's `EnergyModel`, mobile/energy-model.cc)
//! and the way its radio drains it (the accounting in
//! mac/wireless-phy.cc's `sendDown` and `sendUp`).
//!
//! The radio draws a fixed power in each of its states: transmitting,
//! receiving, idle, asleep.  ns-2 charges a transmission or a reception
//! when it starts, for the whole frame, and the idle time since the last
//! charge at the same moment; a frame that overlaps one already charged
//! (the radio is busy until `busy_until`) is charged only for the part
//! beyond it.  Each charge is cut at the energy left: a node never goes
//! below zero, and at zero it is dead: it neither sends nor receives and
//! its trace points stay silent (cmu-trace.cc's `node_energy`).
//!
//! The totals spent in each state (`idle`, `sleep`, `tx`, `rx`) are what
//! the old trace format prints as `ei es et er`.

/// The default thresholds of nam's colours: green above half the initial
/// energy, yellow above a fifth, red above zero, black at zero
/// (ns-lib.tcl's `energy-color-change` changes them).
pub const LEVEL1: f64 = 0.5;
pub const LEVEL2: f64 = 0.2;

/// The power a radio draws in each state (W) and the cost of waking up
/// (`-txPower`, `-rxPower`, `-idlePower`, `-sleepPower`,
/// `-transitionPower`, `-transitionTime`); the defaults are
/// WirelessPhy's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Powers {
    pub tx: f64,
    pub rx: f64,
    pub idle: f64,
    pub sleep: f64,
    pub transition: f64,
    pub transition_time: f64,
}

impl Default for Powers {
    fn default() -> Powers {
        Powers { tx: 0.660, rx: 0.395, idle: 0.0, sleep: 0.0, transition: 0.0, transition_time: 0.0 }
    }
}

/// A node's energy and its radio's accounting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Energy {
    /// Joules left, and at the start.
    pub energy: f64,
    pub initial: f64,
    /// nam's colour thresholds, as fractions of `initial`.
    pub level1: f64,
    pub level2: f64,
    /// Joules spent idle, asleep, transmitting, receiving.
    pub idle: f64,
    pub sleep: f64,
    pub tx: f64,
    pub rx: f64,
    pub powers: Powers,
    /// The end of the last frame charged (WirelessPhy's
    /// `channel_idle_time_`), the time up to which the energy is
    /// accounted (`update_energy_time_`), and the end of the last
    /// transmission (`last_send_time_`).
    busy_until: f64,
    charged_until: f64,
    last_send: f64,
    /// The radio asleep (WirelessPhy's `SLEEP` state: only a TDMA MAC
    /// puts it there); it hears nothing.
    pub asleep: bool,
}

/// The four colours nam shows a node in, by its energy left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Dead,
    Low,
    Half,
    Full,
}

impl Energy {
    /// A battery of `initial` joules, made at `now` (the radio's clocks
    /// start there).
    pub fn new(initial: f64, level1: f64, level2: f64, powers: Powers, now: f64) -> Energy {
        Energy {
            energy: initial,
            initial,
            level1,
            level2,
            idle: 0.0,
            sleep: 0.0,
            tx: 0.0,
            rx: 0.0,
            powers,
            busy_until: now,
            charged_until: now,
            last_send: now,
            asleep: false,
        }
    }

    pub fn alive(&self) -> bool {
        self.energy > 0.0
    }

    /// Take `joules` (cut at what is left).
    fn drain(&mut self, joules: f64) {
        if self.energy <= joules {
            self.energy = 0.0;
        } else {
            self.energy -= joules;
        }
    }

    fn charge_idle(&mut self, start: f64) {
        if start > self.charged_until {
            let j = self.powers.idle * (start - self.charged_until);
            self.drain(j);
            self.idle += j;
            self.charged_until = start;
        }
    }

    /// The radio starts sending a frame of `txtime` seconds at `now`.
    /// False when the node is dead: the frame is not sent.
    pub fn send(&mut self, now: f64, txtime: f64) -> bool {
        if self.asleep {
            // (the time asleep, however it compares with the last charge)
            let j = self.powers.sleep * (now - self.charged_until);
            self.drain(j);
            self.sleep += j;
            self.charged_until = now;
        }
        if !self.alive() {
            return false;
        }
        let start = self.busy_until.max(now);
        let end = self.busy_until.max(now + txtime);
        self.charge_idle(start);
        // (ns-2 charges the overlap with a reception at the difference of
        // the powers only in its receiving state, which 2.35 never
        // enters: the overlap is not charged at all)
        let j = self.powers.tx * (end - start);
        self.drain(j);
        self.tx += j;
        self.last_send = now + txtime;
        self.busy_until = end;
        self.charged_until = end;
        self.asleep = false;
        true
    }

    /// The cost of a change between sleep and idle.
    fn transition(&mut self) {
        let j = self.powers.transition * self.powers.transition_time;
        self.drain(j);
    }

    /// The MAC puts the radio to sleep at `now` (WirelessPhy's
    /// `node_sleep`): only an idle radio whose charges end before `now`
    /// goes to sleep (one still charged for a frame stays idle), paying
    /// the change and its idle time.  True when it did (ns-2 then logs
    /// the energy).
    pub fn go_to_sleep(&mut self, now: f64) -> bool {
        if self.asleep || now <= self.charged_until {
            return false;
        }
        self.transition();
        self.charge_idle(now);
        self.asleep = true;
        true
    }

    /// The MAC wakes the radio at `now` (`node_wakeup`): a radio asleep
    /// since before `now` pays the change and its time asleep.  True when
    /// it woke (ns-2 then logs the energy).
    pub fn wake_up(&mut self, now: f64) -> bool {
        if !self.asleep || now <= self.charged_until {
            return false;
        }
        self.transition();
        self.charge_sleep(now);
        self.asleep = false;
        true
    }

    /// The radio's periodic account of its sleep (`UpdateSleepEnergy`,
    /// every 10 s from 1 s): true when it charged (and ns-2 logs).
    pub fn sleep_tick(&mut self, now: f64) -> bool {
        if !self.asleep || now <= self.charged_until {
            return false;
        }
        self.charge_sleep(now);
        true
    }

    fn charge_sleep(&mut self, now: f64) {
        let j = self.powers.sleep * (now - self.charged_until);
        self.drain(j);
        self.sleep += j;
        self.charged_until = now;
    }

    /// A frame of `rxtime` seconds starts arriving at `now`, heard (above
    /// the carrier-sense threshold).  False when the node is dead: the
    /// radio does not hear it.
    pub fn receive(&mut self, now: f64, rxtime: f64) -> bool {
        if !self.alive() {
            return false;
        }
        let start = self.busy_until.max(now);
        let end = self.busy_until.max(now + rxtime);
        self.charge_idle(start);
        let j = self.powers.rx * (end - start);
        self.drain(j);
        self.rx += j;
        self.busy_until = end;
        self.charged_until = end;
        true
    }

    /// nam's colour for the energy left (cmu-trace.cc's levels).
    pub fn level(&self) -> Level {
        let left = self.energy / self.initial;
        if left <= 1.0 && left >= self.level1 {
            Level::Full
        } else if left >= self.level2 && left < self.level1 {
            Level::Half
        } else if left > 0.0 && left < self.level2 {
            Level::Low
        } else {
            Level::Dead
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn battery(j: f64) -> Energy {
        Energy::new(j, LEVEL1, LEVEL2, Powers { tx: 0.6, rx: 0.3, idle: 0.1, ..Powers::default() }, 0.0)
    }

    #[test]
    fn idle_time_then_the_frame_is_charged() {
        let mut e = battery(10.0);
        assert!(e.send(2.0, 0.5));
        // 2 s idle at 0.1 W, 0.5 s sending at 0.6 W
        assert!((e.idle - 0.2).abs() < 1e-12, "{}", e.idle);
        assert!((e.tx - 0.3).abs() < 1e-12, "{}", e.tx);
        assert!((e.energy - 9.5).abs() < 1e-12, "{}", e.energy);
        // a reception that starts during the transmission is charged from
        // its end only, and no idle time in between
        assert!(e.receive(2.25, 0.5));
        assert!((e.rx - 0.3 * 0.25).abs() < 1e-12, "{}", e.rx);
        assert!((e.idle - 0.2).abs() < 1e-12);
        // a frame wholly inside the busy time costs nothing
        assert!(e.receive(2.3, 0.1));
        assert!((e.rx - 0.3 * 0.25).abs() < 1e-12);
    }

    #[test]
    fn a_drained_node_stops_at_zero_and_is_dead() {
        let mut e = battery(0.1);
        assert!(e.send(0.0, 1.0)); // 0.6 J wanted, 0.1 J left
        assert_eq!(e.energy, 0.0);
        assert!((e.tx - 0.6).abs() < 1e-12, "the total counts what was asked");
        assert!(!e.alive());
        assert!(!e.send(2.0, 0.1));
        assert!(!e.receive(2.0, 0.1));
        assert_eq!(e.level(), Level::Dead);
    }

    #[test]
    fn sleep_and_wake_up_as_the_radio_does() {
        let mut e = Energy::new(1.0, LEVEL1, LEVEL2, Powers { tx: 0.6, rx: 0.3, idle: 0.1, sleep: 0.01, transition: 0.5, transition_time: 0.1 }, 0.0);
        // a reception charged to 1.5: the radio cannot sleep before then
        assert!(e.receive(1.0, 0.5));
        assert!(!e.go_to_sleep(1.5), "not while charged up to now");
        assert!(!e.asleep);
        assert!(e.go_to_sleep(2.0));
        // 1 s idle and the reception (0.1 + 0.15 J), then the change
        // (0.05 J) and 0.5 s idle (0.05 J)
        assert!((e.energy - (1.0 - 0.25 - 0.05 - 0.05)).abs() < 1e-12, "{}", e.energy);
        assert!(!e.go_to_sleep(2.5), "asleep already");
        assert!(e.sleep_tick(3.0));
        assert!((e.sleep - 0.01).abs() < 1e-12);
        assert!(!e.sleep_tick(3.0));
        assert!(e.wake_up(4.0));
        assert!((e.sleep - 0.02).abs() < 1e-12);
        assert!(!e.asleep);
        assert!(!e.wake_up(5.0), "awake already");
        // sending while asleep: the time asleep, then the frame; awake
        assert!(e.go_to_sleep(5.0));
        assert!(e.send(6.0, 0.1));
        assert!((e.sleep - 0.03).abs() < 1e-12, "{}", e.sleep);
        assert!(!e.asleep);
    }

    #[test]
    fn levels_follow_the_fraction_left() {
        let mut e = battery(1.0);
        assert_eq!(e.level(), Level::Full);
        e.energy = 0.5;
        assert_eq!(e.level(), Level::Full);
        e.energy = 0.49;
        assert_eq!(e.level(), Level::Half);
        e.energy = 0.2;
        assert_eq!(e.level(), Level::Half);
        e.energy = 0.19;
        assert_eq!(e.level(), Level::Low);
    }
}
