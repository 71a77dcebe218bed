//! A preamble TDMA MAC for one hop, as ns-2 2.35's `Mac/Tdma` runs it
//! (mac/mac-tdma.cc): time is cut into frames of one preamble slot and
//! one slot per station; each station owns the slot it was given when it
//! was made (in the order the stations were made).  In the preamble slot
//! every radio is on and each station writes into the shared preamble the
//! MAC address its buffered frame goes to (or that it has nothing to
//! send); in each later slot the slot's owner sends that frame, the
//! stations it is for (its receiver, or all for a broadcast) turn their
//! radios on, and the others turn theirs off.  There is no carrier
//! sense, no acknowledgement and no retry: a frame is sent once.
//!
//! The MAC holds one frame at a time (the interface queue stays blocked
//! until the frame has been sent).  A radio turned off hears nothing; a
//! frame that arrives while one is being received, or while the station
//! transmits, is what ns-2 says "should not happen" and complains of on
//! stdout.  As in ns-2, what is received is passed up whatever the radio
//! judged it (garbled frames included: the MAC looks at no error flag
//! but its own collision state, which nothing sets).
//!
//! The schedule (the stations' count, the slot length, the preamble) is
//! shared by all the TDMA MACs of a channel ([`Schedule`]; ns-2 keeps it
//! in static members, shared by every TDMA MAC of the process).  The
//! MAC's three timers run as the node's MAC timers through dcf.rs's
//! [`Host`]: the slot timer as `Timer::Defer`, the end of a reception as
//! `Timer::Recv`, the end of a transmission as `Timer::Send`.

use super::dcf::{Frame, Host, Kind, Outgoing, Timer, Why, BROADCAST};

/// A preamble entry: the slot's owner has nothing to send.
pub const NOTHING_TO_SEND: i32 = -2;

/// The slot count before the first preamble.
const FIRST_ROUND: i32 = -1;

/// The MAC header's length (bytes): the PLCP preamble and header of
/// 802.11's DSSS (144 and 48 bits), the 24-byte 802.11 header and the
/// 4-byte check sum, as mac-tdma.h's `ETHER_HDR_LEN`.
pub const HEADER_LEN: u32 = 144 / 8 + 48 / 8 + 24 + 4;

/// The duration field of a unicast frame (mac-tdma.h's `DATA_DURATION`).
const DATA_DURATION: u16 = 5;

/// Seconds to send `bytes` at `bandwidth` b/s (mac-tdma.h's `DATA_Time`).
pub fn data_time(bytes: u32, bandwidth: f64) -> f64 {
    (8 * bytes as u64) as f64 / bandwidth
}

/// What the TDMA MACs of a channel share.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// Stations made so far (a frame has one slot per station).
    pub active: u32,
    /// The next slot to give.
    next_slot: u32,
    /// Per slot, the MAC address its owner's frame goes to, or
    /// [`NOTHING_TO_SEND`] (a broadcast is -1).
    pub preamble: Vec<i32>,
    /// A slot's length (s), set by each station made: the time to send
    /// its `slot_packet_len_` bytes.
    pub slot_time: f64,
}

impl Schedule {
    /// A station joins: its slot.  `max_nodes` is its `max_node_num_`,
    /// `slot_bytes` its `slot_packet_len_`.  ns-2 gives up the run (with
    /// `Too many nodes taking part in the simulations, aborting...`)
    /// when there are more stations than `max_nodes`: the error is the
    /// count of stations.
    pub fn join(&mut self, max_nodes: u32, slot_bytes: u32, bandwidth: f64) -> Result<u32, u32> {
        self.slot_time = data_time(slot_bytes, bandwidth);
        // (ns-2 makes a new preamble of `max_nodes` entries each time, of
        // which only this station's is written: the others are read only
        // after the first preamble slot has written them)
        self.preamble.clear();
        self.preamble.resize(max_nodes as usize, NOTHING_TO_SEND);
        self.active += 1;
        if self.active > max_nodes {
            return Err(self.active);
        }
        let slot = self.next_slot;
        self.next_slot += 1;
        self.preamble[slot as usize] = NOTHING_TO_SEND;
        Ok(slot)
    }
}

/// What the MAC tells the node beyond dcf.rs's [`Host`]: the radio turned
/// on or off, the schedule, ns-2's complaints.
pub trait TdmaHost<P>: Host<P> {
    fn radio(&mut self, on: bool);
    fn schedule(&mut self) -> &mut Schedule;
    fn complain(&mut self, c: Complaint);
}

/// ns-2's stdout lines for what "should not happen".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Complaint {
    /// `<%d>, can't receive while transmitting!`
    ReceiveWhileSending,
    /// `<%d>, receiving, but the channel is not idle....???`
    ReceiveWhileReceiving,
    /// `<%d>, %f, no packet buffered.`
    NothingBuffered,
    /// `<%d>, %f, transmitting, but the channel is not idle...???`
    SendWhileBusy,
}

/// One station's TDMA MAC.
#[derive(Clone, Debug)]
pub struct Tdma<P> {
    pub addr: u32,
    /// The MAC's `bandwidth_` (b/s).
    pub bandwidth: f64,
    slot: u32,
    slot_count: i32,
    sending: bool,
    receiving: bool,
    radio_on: bool,
    callback: bool,
    pkt_tx: Option<Frame<P>>,
    pkt_rx: Option<Frame<P>>,
}

impl<P: Copy> Tdma<P> {
    /// A station with address `addr` given slot `slot` (its schedule's
    /// [`Schedule::join`]); the caller starts its slot timer (`Defer`) at
    /// once, as ns-2's constructor does.
    pub fn new(addr: u32, slot: u32, bandwidth: f64) -> Tdma<P> {
        Tdma { addr, bandwidth, slot, slot_count: FIRST_ROUND, sending: false, receiving: false, radio_on: false, callback: false, pkt_tx: None, pkt_rx: None }
    }

    pub fn slot(&self) -> u32 {
        self.slot
    }

    fn tx_time(&self, f: &Frame<P>) -> f64 {
        data_time(f.size, self.bandwidth)
    }

    fn radio_switch<H: TdmaHost<P>>(&mut self, h: &mut H, on: bool) {
        self.radio_on = on;
        h.radio(on);
    }

    /// A packet from the interface queue: buffered (with its MAC header)
    /// until the station's slot.
    pub fn send<H: TdmaHost<P>>(&mut self, _: &mut H, o: Outgoing<P>) {
        self.callback = true;
        let duration = if o.ra != BROADCAST { DATA_DURATION } else { 0 };
        self.pkt_tx = Some(Frame { kind: Kind::Data, ra: o.ra, ta: o.ta, duration, size: o.size + HEADER_LEN, txtime: 0.0, retry: false, seq: 0, error: false, rx_power: 0.0, payload: Some(o.payload) });
    }

    /// The first bit of a frame reaches the radio.
    pub fn arrive<H: TdmaHost<P>>(&mut self, h: &mut H, mut f: Frame<P>) {
        if !self.radio_on {
            return h.free(f);
        }
        if self.sending && !f.error {
            h.complain(Complaint::ReceiveWhileSending);
            f.error = true;
        }
        if self.receiving {
            // (ns-2 forgets the frame)
            h.complain(Complaint::ReceiveWhileReceiving);
            return h.free(f);
        }
        self.receiving = true;
        let t = self.tx_time(&f);
        self.pkt_rx = Some(f);
        h.start(Timer::Recv, t);
    }

    /// One of the MAC's timers fired.
    pub fn expired<H: TdmaHost<P>>(&mut self, h: &mut H, t: Timer) {
        match t {
            Timer::Defer => self.slot_handler(h),
            Timer::Recv => self.recv_handler(h),
            Timer::Send => self.send_handler(h),
            _ => unreachable!("the TDMA MAC runs no {t:?} timer"),
        }
    }

    fn make_preamble<H: TdmaHost<P>>(&mut self, h: &mut H) {
        let v = match &self.pkt_tx {
            Some(f) => f.ra as i32,
            None => NOTHING_TO_SEND,
        };
        let slot = self.slot as usize;
        h.schedule().preamble[slot] = v;
    }

    fn slot_handler<H: TdmaHost<P>>(&mut self, h: &mut H) {
        let s = h.schedule();
        let (slot_time, active) = (s.slot_time, s.active as i32);
        h.start(Timer::Defer, slot_time);
        if self.slot_count == active || self.slot_count == FIRST_ROUND {
            self.radio_switch(h, true);
            self.make_preamble(h);
            self.slot_count = 0;
            return;
        }
        if self.slot_count == self.slot as i32 {
            if h.schedule().preamble[self.slot as usize] != NOTHING_TO_SEND {
                self.transmit(h);
            } else {
                self.radio_switch(h, false);
            }
            self.slot_count += 1;
            return;
        }
        let heard = h.schedule().preamble.get(self.slot_count as usize).copied().unwrap_or(NOTHING_TO_SEND);
        self.slot_count += 1;
        let on = heard == self.addr as i32 || heard as u32 == BROADCAST;
        self.radio_switch(h, on);
    }

    /// ns-2's `send`: the buffered frame on the air.
    fn transmit<H: TdmaHost<P>>(&mut self, h: &mut H) {
        let Some(mut f) = self.pkt_tx else {
            return h.complain(Complaint::NothingBuffered);
        };
        if self.sending || self.receiving {
            return h.complain(Complaint::SendWhileBusy);
        }
        f.txtime = self.tx_time(&f);
        self.sending = true;
        self.radio_switch(h, true);
        h.start(Timer::Send, f.txtime);
        h.transmit(&f);
        h.free(f);
        self.pkt_tx = None;
    }

    fn recv_handler<H: TdmaHost<P>>(&mut self, h: &mut H) {
        self.receiving = false;
        let mut f = self.pkt_rx.take().expect("a frame being received");
        self.radio_switch(h, false);
        if f.ra != BROADCAST && f.ra != self.addr {
            return h.drop(f, Why::NotForUs);
        }
        f.size -= HEADER_LEN;
        h.up(f);
    }

    fn send_handler<H: TdmaHost<P>>(&mut self, h: &mut H) {
        self.sending = false;
        self.radio_switch(h, false);
        if self.callback {
            self.callback = false;
            if let Some(o) = h.resume() {
                self.send(h, o);
            }
        }
    }

    /// Whether the radio is on (as the MAC last switched it).
    pub fn radio_on(&self) -> bool {
        self.radio_on
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wireless::dcf::Failure;

    /// A host that records what the MAC does.
    #[derive(Default)]
    struct Rec {
        now: f64,
        sched: Schedule,
        log: Vec<String>,
        queue: Vec<Outgoing<u32>>,
    }

    impl Host<u32> for Rec {
        fn now(&self) -> f64 {
            self.now
        }
        fn random(&mut self) -> i32 {
            unreachable!("the TDMA MAC draws nothing")
        }
        fn start(&mut self, t: Timer, delay: f64) {
            self.log.push(format!("start {t:?} {delay:.6}"));
        }
        fn stop(&mut self, t: Timer) {
            self.log.push(format!("stop {t:?}"));
        }
        fn transmit(&mut self, f: &Frame<u32>) {
            self.log.push(format!("tx {} to {:x} {} {:.6}", f.payload.unwrap(), f.ra, f.size, f.txtime));
        }
        fn up(&mut self, f: Frame<u32>) {
            self.log.push(format!("up {} {}", f.payload.unwrap(), f.size));
        }
        fn log(&mut self, _: Frame<u32>) {}
        fn drop(&mut self, f: Frame<u32>, why: Why) {
            self.log.push(format!("drop {} {why:?}", f.payload.unwrap()));
        }
        fn free(&mut self, _: Frame<u32>) {}
        fn has_failure_callback(&self, _: &Frame<u32>) -> bool {
            false
        }
        fn failed(&mut self, _: &Frame<u32>, _: Failure) {}
        fn unknown_sender(&mut self, _: u32, _: u32) {}
        fn resume(&mut self) -> Option<Outgoing<u32>> {
            self.log.push("resume".into());
            if self.queue.is_empty() {
                None
            } else {
                Some(self.queue.remove(0))
            }
        }
    }

    impl TdmaHost<u32> for Rec {
        fn radio(&mut self, on: bool) {
            self.log.push(format!("radio {}", if on { "on" } else { "off" }));
        }
        fn schedule(&mut self) -> &mut Schedule {
            &mut self.sched
        }
        fn complain(&mut self, c: Complaint) {
            self.log.push(format!("{c:?}"));
        }
    }

    fn frame(p: u32, ra: u32, size: u32) -> Frame<u32> {
        Frame { kind: Kind::Data, ra, ta: 9, duration: 0, size, txtime: 0.0, retry: false, seq: 0, error: false, rx_power: 0.0, payload: Some(p) }
    }

    #[test]
    fn header_and_slot_length() {
        // (the wireless-tdma suite's DSDV update: 32 bytes, 84 on the air,
        // 336 us at 2 Mb/s; a slot of 1500 bytes: 6 ms)
        assert_eq!(HEADER_LEN, 52);
        assert_eq!(data_time(32 + HEADER_LEN, 2e6), 0.000336);
        let mut s = Schedule::default();
        assert_eq!(s.join(64, 1500, 2e6), Ok(0));
        assert_eq!(s.join(64, 1500, 2e6), Ok(1));
        assert_eq!(s.slot_time, 0.006);
        assert_eq!(s.active, 2);
    }

    #[test]
    fn too_many_stations() {
        let mut s = Schedule::default();
        assert!(s.join(2, 1500, 2e6).is_ok());
        assert!(s.join(2, 1500, 2e6).is_ok());
        assert_eq!(s.join(2, 1500, 2e6), Err(3));
    }

    /// Three stations; station 1 has a unicast frame for station 2 when
    /// the preamble is made: slot 0 (station 0's, nothing) all radios go
    /// off, slot 1 station 1 sends and station 2 listens, slot 2 nothing.
    #[test]
    fn a_frame_waits_for_the_preamble_then_its_slot() {
        let mut h = Rec::default();
        let slots: Vec<u32> = (0..3).map(|_| h.sched.join(64, 1500, 2e6).unwrap()).collect();
        let mut macs: Vec<Tdma<u32>> = slots.iter().map(|&s| Tdma::new(s, s, 2e6)).collect();
        // a frame before the first preamble: in it
        macs[1].send(&mut h, Outgoing { payload: 7, size: 100, ra: 2, ta: 1 });
        for m in macs.iter_mut() {
            m.expired(&mut h, Timer::Defer);
        }
        assert_eq!(h.sched.preamble[..3], [NOTHING_TO_SEND, 2, NOTHING_TO_SEND]);
        assert!(macs.iter().all(|m| m.radio_on()));
        h.log.clear();
        // slot 0: nobody sends, every radio off
        for m in macs.iter_mut() {
            m.expired(&mut h, Timer::Defer);
        }
        assert!(macs.iter().all(|m| !m.radio_on()));
        h.log.clear();
        // slot 1: station 1 sends, station 2 listens, station 0 off
        macs[0].expired(&mut h, Timer::Defer);
        macs[1].expired(&mut h, Timer::Defer);
        assert_eq!(h.log[3..], ["radio on", "start Send 0.000608", "tx 7 to 2 152 0.000608"]);
        macs[2].expired(&mut h, Timer::Defer);
        assert!(!macs[0].radio_on() && macs[2].radio_on());
        // station 0 hears nothing (radio off); station 2 receives it
        h.log.clear();
        macs[0].arrive(&mut h, frame(70, 2, 152));
        assert!(h.log.is_empty());
        macs[2].arrive(&mut h, frame(72, 2, 152));
        assert_eq!(h.log, ["start Recv 0.000608"]);
        h.log.clear();
        macs[2].expired(&mut h, Timer::Recv);
        assert_eq!(h.log, ["radio off", "up 72 100"]);
        // the end of the transmission: radio off, the queue's call-back,
        // whose next packet waits for the next preamble
        h.log.clear();
        h.queue.push(Outgoing { payload: 8, size: 20, ra: BROADCAST, ta: 1 });
        macs[1].expired(&mut h, Timer::Send);
        assert_eq!(h.log, ["radio off", "resume"]);
        // slot 2 (station 2's, nothing), then the next preamble: the
        // broadcast is announced, and everyone listens in slot 1
        for _ in 0..2 {
            for m in macs.iter_mut() {
                m.expired(&mut h, Timer::Defer);
            }
        }
        assert_eq!(h.sched.preamble[1], -1);
        for m in macs.iter_mut() {
            m.expired(&mut h, Timer::Defer); // slot 0
        }
        h.log.clear();
        for m in macs.iter_mut() {
            m.expired(&mut h, Timer::Defer); // slot 1
        }
        assert!(macs.iter().all(|m| m.radio_on()));
        assert!(h.log.contains(&"tx 8 to ffffffff 72 0.000288".to_string()), "{:?}", h.log);
    }

    #[test]
    fn a_frame_for_another_station_is_dropped() {
        let mut h = Rec::default();
        let mut m: Tdma<u32> = Tdma::new(3, h.sched.join(64, 1500, 2e6).unwrap(), 2e6);
        m.expired(&mut h, Timer::Defer); // the preamble: radio on
        m.arrive(&mut h, frame(5, 4, 100));
        // a second frame while receiving is forgotten, with ns-2's complaint
        m.arrive(&mut h, frame(6, 3, 100));
        m.expired(&mut h, Timer::Recv);
        assert_eq!(h.log[h.log.len() - 4..], ["start Recv 0.000400", "ReceiveWhileReceiving", "radio off", "drop 5 NotForUs"]);
    }
}
