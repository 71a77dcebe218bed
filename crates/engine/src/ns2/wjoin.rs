//! The ns-2 side of the radio stack joined to a run (wireless/net.rs): a
//! mobile node's `wireless-join` command, which reads what ns-2's
//! `create-wireless-node` would give the node's LL, interface queue,
//! 802.11 MAC, radio and antenna (the classes' variables, passed by
//! wireless.tcl), and the trace points' lines and nam records
//! (cmutrace.rs's formats) and stdout notices.

use crate::ns2::cmutrace::{self, push_line_energy, push_nam_color, Body, EnergyFields, Event, IpFields, MacFields, Op, Upper};
use crate::ns2::printf::push_e;
use crate::ns2::tclcl::{parse_bw, parse_time, tcl_get_boolean};
use crate::ns2::wireless::{carrier_sense_notice, unknown_sender_warning};
use crate::packet::PacketType;
use crate::sched::ObjId;
use crate::sim::{Obj, Outputs, Sim};
use crate::wireless::aodv::{self, Aodv, Message};
use crate::wireless::dsdv::{self, Dsdv};
use crate::wireless::dsr::{self, Dsr};
use crate::wireless::dcf::{Dcf, InfraMib, InfraNotice, Kind, Scan, Why};
use crate::wireless::mac80211::Mib;
use crate::wireless::energy::{self, Energy, Level, Powers};
use crate::ns2::printf::{push_f, push_int};
use crate::wireless::medium::{Medium, Station};
use crate::wireless::net::{Carried, DropWhy, DsdvAgent, Layer, Net, Point, RadioNotice, Routing, TraceOp, TraceSetup, Traced};
use crate::wireless::phy::{Antenna, Radio};
use crate::wireless::propagation::Model;
use crate::wireless::ifq::InterfaceQueue;
use crate::wireless::stack::{Ext, Stack};
use crate::wireless::mac_ext::{MacExt, Params as ExtParams, Timing};
use crate::wireless::phy_ext::{Params as PhyParams, PhyExt};
use crate::wireless::tdma::{Complaint, Tdma};
use crate::wireless::{Mobility, Part};

/// `new Channel/WirelessChannel`.
pub fn make_channel(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Wireless(Part::Channel(Box::new(Net::new(Medium::new(Model::two_ray_ground())))))
}

/// The most slots of a TDMA frame (`max_node_num_`).
const MAX_TDMA_SLOTS: u32 = 1 << 20;

fn num(key: &str, v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("wireless-join: {key} must be a number, got \"{v}\"")),
    }
}

fn count(key: &str, v: &str) -> Result<u32, String> {
    match v.trim().parse::<f64>() {
        Ok(x) if x >= 0.0 && x <= u32::MAX as f64 && x.fract() == 0.0 => Ok(x as u32),
        _ => Err(format!("wireless-join: {key} must be a whole number of 0 or more, got \"{v}\"")),
    }
}

fn positive(what: &str, v: f64) -> Result<f64, String> {
    if v > 0.0 && v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{what}: a time above 0 is needed, got {v}"))
    }
}

fn nonnegative(what: &str, v: f64) -> Result<f64, String> {
    if v >= 0.0 && v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{what}: a value of 0 or more is needed, got {v}"))
    }
}

fn flag(key: &str, v: &str) -> Result<bool, String> {
    match v {
        "ON" | "on" => Ok(true),
        "OFF" | "off" | "" => Ok(false),
        _ => tcl_get_boolean(v).map_err(|_| format!("wireless-join: {key} must be ON or OFF, got \"{v}\"")),
    }
}

impl Sim {
    /// `$node wireless-join CHANNEL PROPAGATION ROUTING ENTRY ROUTER key
    /// value ...`: put mobile node `id` on the channel with the stack the
    /// values describe; ENTRY and ROUTER name the node's two new objects
    /// (its routing agent is ROUTER, its agents' target).
    pub(super) fn wireless_join_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        if argv.len() < 6 || (argv.len() - 6) % 2 != 0 {
            return Err("wireless-join: expected CHANNEL PROPAGATION ROUTING ENTRY ROUTER and key value pairs".into());
        }
        let chan = self.obj_arg(argv[1])?;
        if !matches!(self.objs[chan as usize], Obj::Wireless(Part::Channel(_))) {
            return Err(format!("node-config -channel: {} is not a Channel/WirelessChannel", argv[1]));
        }
        let model = match self.obj_arg(argv[2]).map(|o| &self.objs[o as usize]) {
            Ok(Obj::Wireless(Part::Propagation(m))) => m.clone(),
            _ => return Err(format!(
                "node-config -propType/-propInstance {}: a wireless node needs a Propagation/TwoRayGround, /FreeSpace, /Shadowing or /Nakagami (docs/wireless.md)",
                argv[2]
            )),
        };
        let addr = match &self.objs[id as usize] {
            Obj::Node(n) => n.addr,
            _ => unreachable!(),
        };
        if !matches!(argv[3], "DumbAgent" | "AODV" | "DSDV" | "DSR") {
            return Err(format!("node-config -adhocRouting {}: not joined to the radio yet", argv[3]));
        }
        let mut dsdv_params = dsdv::Params::default();
        let (mut radio, mut antenna, mut mib) = (Radio::default(), Antenna::default(), Mib::default());
        let (mut pt, mut freq, mut loss) = (radio.pt, radio.freq, radio.loss);
        let mut infra = InfraMib::default();
        let (mut bugfix, mut ll_delay, mut ifqlen, mut god, mut mac_addr) = (true, 25e-6, 50u32, 0u32, 0u32);
        let mut trace = TraceSetup::default();
        let mut god_obj = None;
        let mut wired = false;
        let mut cmu_queue = false;
        // the MAC's type, and a TDMA MAC's variables
        let (mut tdma, mut slot_bytes, mut max_nodes, mut mac_bandwidth) = (false, 1500u32, 64u32, 2e6);
        // the extended MAC and radio (Mac/802_11Ext, Phy/WirelessPhyExt)
        let mut ext = false;
        let mut ext_vars: Vec<(&str, &str)> = Vec::new();
        // the energy model (node-config -energyModel and the radio's powers)
        let (mut initial, mut level1, mut level2, mut powers) = (None, energy::LEVEL1, energy::LEVEL2, Powers::default());
        for kv in argv[6..].chunks(2) {
            let (k, v) = (kv[0], kv[1]);
            match k {
                "Pt_" => pt = num(k, v)?,
                "freq_" => freq = num(k, v)?,
                "L_" => loss = num(k, v)?,
                "CPThresh_" => radio.capture_threshold = num(k, v)?,
                "CSThresh_" => radio.carrier_sense_threshold = num(k, v)?,
                "RXThresh_" => radio.receive_threshold = num(k, v)?,
                "antX_" => antenna.x = num(k, v)?,
                "antY_" => antenna.y = num(k, v)?,
                "antZ_" => antenna.z = num(k, v)?,
                "Gt_" => antenna.tx_gain = num(k, v)?,
                "Gr_" => antenna.rx_gain = num(k, v)?,
                "CWMin_" => mib.cw_min = count(k, v)?,
                "CWMax_" => mib.cw_max = count(k, v)?,
                "SlotTime_" => mib.slot_time = num(k, v)?,
                "SIFS_" => mib.sifs = num(k, v)?,
                "PreambleLength_" => mib.preamble_length = count(k, v)?,
                "PLCPHeaderLength_" => mib.plcp_header_length = count(k, v)?,
                "PLCPDataRate_" => mib.plcp_data_rate = parse_bw(v),
                "RTSThreshold_" => mib.rts_threshold = count(k, v)?,
                "ShortRetryLimit_" => mib.short_retry_limit = count(k, v)?,
                "LongRetryLimit_" => mib.long_retry_limit = count(k, v)?,
                "dataRate_" => mib.data_rate = parse_bw(v),
                "basicRate_" => mib.basic_rate = parse_bw(v),
                "bugFix_timer_" => bugfix = flag(k, v)?,
                // (infrastructure mode's: dcf/infra.rs)
                "BeaconInterval_" => infra.beacon_interval = nonnegative("Mac/802_11 BeaconInterval_", num(k, v)?)?,
                "ProbeDelay_" => infra.probe_delay = nonnegative("Mac/802_11 ProbeDelay_", num(k, v)?)?,
                "MinChannelTime_" => infra.min_channel_time = nonnegative("Mac/802_11 MinChannelTime_", num(k, v)?)?,
                "MaxChannelTime_" => infra.max_channel_time = nonnegative("Mac/802_11 MaxChannelTime_", num(k, v)?)?,
                "ChannelTime_" => infra.channel_time = nonnegative("Mac/802_11 ChannelTime_", num(k, v)?)?,
                "macType" => {
                    (tdma, ext) = match v {
                        "Mac/Tdma" => (true, false),
                        "Mac/802_11" => (false, false),
                        "Mac/802_11Ext" => (false, true),
                        _ => return Err(format!("node-config -macType {v}: Dumbbell's wireless nodes have Mac/802_11, Mac/802_11Ext or Mac/Tdma")),
                    }
                }
                "phytrace" => trace.phy = flag(k, v)?,
                _ if k.starts_with("ext_") || k.starts_with("xphy_") => ext_vars.push((k, v)),
                "slot_packet_len_" => slot_bytes = count("Mac/Tdma slot_packet_len_", v)?,
                "max_node_num_" => {
                    max_nodes = count("Mac/Tdma max_node_num_", v)?;
                    // (the preamble ns-2 allocates per frame has a slot per
                    // station: 2^31 of them is std::bad_alloc, and a frame
                    // of a million slots is hours long)
                    if max_nodes > MAX_TDMA_SLOTS {
                        return Err(format!(
                            "Mac/Tdma max_node_num_ {v}: a TDMA frame has a slot for each of max_node_num_ stations; \
                             at most {MAX_TDMA_SLOTS} here (ns-2 aborts allocating 2^31 of them)"
                        ));
                    }
                }
                "mac_bandwidth_" => mac_bandwidth = parse_bw(v),
                "ll_delay" => ll_delay = parse_time(v),
                "ifqlen" => ifqlen = count(k, v)?,
                "ifq" => cmu_queue = match v {
                    "CMUPriQueue" => true,
                    "Queue/DropTail/PriQueue" => false,
                    _ => return Err(format!("node-config -ifqType {v}: Dumbbell's wireless nodes have Queue/DropTail/PriQueue or CMUPriQueue")),
                },
                "god" => god = count(k, v)?,
                "god_obj" => god_obj = if v.is_empty() { None } else { Some(self.obj_arg(v)?) },
                "mac" => mac_addr = count(k, v)?,
                "trace" => trace.trace = if v.is_empty() { None } else { Some(self.w.out.channel(v)) },
                "nam" => trace.nam = if v.is_empty() { None } else { Some(self.w.out.channel(v)) },
                "agent" => trace.agent = flag(k, v)?,
                "router" => trace.router = flag(k, v)?,
                "mactrace" => trace.mac = flag(k, v)?,
                "newtrace" => trace.newtrace = flag(k, v)?,
                "tagged" => trace.tagged = flag(k, v)?,
                "wired" => wired = flag(k, v)?,
                "eot" => trace.eot = flag(k, v)?,
                "initialEnergy" => initial = Some(nonnegative("node-config -initialEnergy", num("node-config -initialEnergy", v)?)?),
                "level1" => level1 = num("energy-color-change level1", v)?,
                "level2" => level2 = num("energy-color-change level2", v)?,
                "txPower" => powers.tx = nonnegative("node-config -txPower", num("node-config -txPower", v)?)?,
                "rxPower" => powers.rx = nonnegative("node-config -rxPower", num("node-config -rxPower", v)?)?,
                "idlePower" => powers.idle = nonnegative("node-config -idlePower", num("node-config -idlePower", v)?)?,
                "sleepPower" => powers.sleep = nonnegative("node-config -sleepPower", num("node-config -sleepPower", v)?)?,
                "transitionPower" => powers.transition = nonnegative("node-config -transitionPower", num("node-config -transitionPower", v)?)?,
                "transitionTime" => powers.transition_time = nonnegative("node-config -transitionTime", parse_time(v))?,
                "dsdv_wst0_" => dsdv_params.wst0 = positive("Agent/DSDV wst0_", parse_time(v))?,
                "dsdv_perup_" => dsdv_params.period = positive("Agent/DSDV perup_", parse_time(v))?,
                "dsdv_alpha_" => dsdv_params.alpha = num("Agent/DSDV alpha_", v)?,
                "dsdv_min_update_periods_" => dsdv_params.min_update_periods = count("Agent/DSDV min_update_periods_", v)?,
                "dsdv_be_random_" => dsdv_params.be_random = count("Agent/DSDV be_random_", v)? != 0,
                // (what ns-2 does with these is not modelled: the link
                // layer's failures seen as broken links, a trace line per
                // weighted settling time, printouts)
                "dsdv_use_mac_" | "dsdv_verbose_" | "dsdv_trace_wst_" => {
                    let name = format!("Agent/DSDV {}", &k[5..]);
                    if count(&name, v)? != 0 {
                        return Err(format!("{name} {v}: only 0 is supported by Dumbbell yet (docs/wireless.md)"));
                    }
                }
                _ => return Err(format!("wireless-join: unknown key \"{k}\"")),
            }
        }
        for (what, v) in [("Mac/802_11 dataRate_", mib.data_rate), ("Mac/802_11 basicRate_", mib.basic_rate), ("Mac/802_11 PLCPDataRate_", mib.plcp_data_rate)] {
            if !(v > 0.0 && v.is_finite()) {
                return Err(format!("{what}: a rate above 0 is needed, got {v}"));
            }
        }
        // (ns-2 draws the backoff as `random() % cw`: a window of 0
        // divides by zero; the window doubles, so it must stay well
        // inside an int)
        for (what, v) in [("Mac/802_11 CWMin_", mib.cw_min), ("Mac/802_11 CWMax_", mib.cw_max)] {
            if !(1..=1 << 30).contains(&v) {
                return Err(format!("{what}: a contention window of 1 to {} slots is needed, got {v}", 1u32 << 30));
            }
        }
        if ifqlen == 0 && !cmu_queue {
            return Err("node-config -ifqLen: the interface queue needs room for at least one packet, got 0".into());
        }
        if god == 0 {
            return Err("$ns node: a wireless node's MAC needs GOD's count of nodes (create-god N before the nodes)".into());
        }
        let routing = match argv[3] {
            "AODV" => Routing::Aodv(Box::new(Aodv::new(addr))),
            "DSR" => {
                if self.w.routing.hier.is_some() {
                    return Err("node-config -adhocRouting DSR with hierarchical addresses (base stations): not built yet (docs/wireless.md)".into());
                }
                Routing::Dsr(Box::new(Dsr::new(addr)))
            }
            "DSDV" => {
                // (with hierarchical addresses the agent knows the packed
                // numbers, and its subnet)
                let mut d = Dsdv::new(self.w.routing.addr_out(addr), dsdv_params);
                d.subnet_mask = self.w.routing.hier.as_deref().map_or(0, |h| h.subnet_mask());
                Routing::Dsdv(Box::new(DsdvAgent::new(d)))
            }
            _ => Routing::Dumb,
        };
        let capture = radio.capture_threshold;
        radio = Radio { pt, freq, loss, lambda: crate::wireless::propagation::wavelength(freq), ..radio };
        let mut mac = Dcf::new(mib, mac_addr, god, capture);
        mac.bugfix_timer = bugfix;
        // (ns-2's SRNodeNew installs the DSR agent as the MAC's tap)
        mac.tap = matches!(routing, Routing::Dsr(_));
        mac.infra_mib = infra;
        let mut stack = Stack::new(mac, addr, ifqlen as usize);
        stack.ll_delay = ll_delay;
        if cmu_queue {
            // (its four bands hold 50 packets each, whatever -ifqLen says)
            stack.queue = InterfaceQueue::cmu();
        }
        if tdma {
            if !(mac_bandwidth > 0.0 && mac_bandwidth.is_finite()) {
                return Err(format!("Mac/Tdma bandwidth_: a rate above 0 is needed, got {mac_bandwidth}"));
            }
            if slot_bytes == 0 {
                return Err("Mac/Tdma slot_packet_len_: a slot needs room for at least one byte, got 0".into());
            }
            let slot = self.wireless_tdma_slot(chan, max_nodes, slot_bytes, mac_bandwidth).map_err(|e| match e {
                Some(n) => format!(
                    "Mac/Tdma: {n} stations but max_node_num_ is {max_nodes} (ns-2: \"Too many nodes taking part in the simulations, aborting...\"); set Mac/Tdma max_node_num_ to at least the number of nodes"
                ),
                None => format!("{} is not a wireless channel", argv[1]),
            })?;
            stack.tdma = Some(Box::new(Tdma::new(mac_addr, slot, mac_bandwidth)));
        }
        if ext {
            if initial.is_some() {
                return Err("node-config -energyModel with -macType Mac/802_11Ext: Dumbbell's extended radio (Phy/WirelessPhyExt) has no energy model yet".into());
            }
            let (x, xradio) = ext_stack(&ext_vars, mac_addr, god, &antenna, &model)?;
            radio = xradio;
            stack.ext = Some(Box::new(x));
        }
        let station = Station { pos: Mobility::default(), radio, antenna };
        let entry = self.add(argv[4], Obj::Empty);
        let router = self.add(argv[5], Obj::Empty);
        if let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] {
            n.core.air.model = model;
        }
        self.wireless_god_nodes(chan, god, god_obj);
        self.wireless_join(id, chan, station, stack, routing, trace, entry, router)?;
        if wired {
            self.wireless_base(id)?;
        }
        if let Some(j) = initial {
            let now = self.w.now();
            self.wireless_energy(id, Energy::new(j, level1, level2, powers, now))?;
        }
        Ok(String::new())
    }
}

impl Sim {
    /// `$node cmd wireless-mac ...`: what a script asks of a mobile
    /// node's MAC (`[$node getMac 0]`, python/dumbbell/ns2/lib/wireless.tcl):
    /// `ap` (make it an access point), `ScanType ACTIVE|PASSIVE`, `set
    /// RTSThreshold_ V`.
    pub(super) fn wireless_mac_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        match argv[1..] {
            ["ap"] => self.wireless_infra(id, None).map(|_| String::new()),
            ["ScanType", s] => {
                let scan = match s {
                    "ACTIVE" => Scan::Active,
                    "PASSIVE" => Scan::Passive,
                    // (ns-2 does nothing with another word)
                    _ => return Err(format!("$mac ScanType {s}: expected ACTIVE or PASSIVE")),
                };
                self.wireless_infra(id, Some(scan)).map(|_| String::new())
            }
            ["RTSThreshold_", v] => {
                let n = count("Mac/802_11 RTSThreshold_", v).map_err(|_| format!("$mac set RTSThreshold_ {v}: expected a whole number of bytes, 0 or more"))?;
                self.wireless_rts_threshold(id, n).map(|_| String::new())
            }
            _ => Err(format!("wireless-mac {}: expected ap, ScanType ACTIVE|PASSIVE or RTSThreshold_ V", argv[1..].join(" "))),
        }
    }
}

fn why_code(w: DropWhy) -> &'static str {
    match w {
        DropWhy::None | DropWhy::QueueFull | DropWhy::Mac(Why::NotForUs) => "---",
        DropWhy::Arp => "ARP",
        DropWhy::BandFull => "IFQ",
        DropWhy::End => "END",
        DropWhy::Phy(d) => d.code(),
        DropWhy::Mac(Why::Collision) => "COL",
        DropWhy::Mac(Why::Duplicate) => "DUP",
        DropWhy::Mac(Why::RetryExceeded) => "RET",
        DropWhy::Mac(Why::InvalidState) => "STA",
        DropWhy::Mac(Why::Busy) => "BSY",
        DropWhy::Aodv(aodv::Drop::LinkFailed) => "CBK",
        DropWhy::Aodv(aodv::Drop::NoRoute) => "NRTE",
        DropWhy::Aodv(aodv::Drop::Loop) => "LOOP",
        DropWhy::Aodv(aodv::Drop::Ttl) => "TTL",
        DropWhy::Aodv(aodv::Drop::BufferFull) => "IFQ",
        DropWhy::Aodv(aodv::Drop::BufferTimeout) => "TOUT",
        DropWhy::Dsr(dsr::Drop::Timeout) => "TOUT",
        DropWhy::Dsr(dsr::Drop::NoRoute) => "NRTE",
        DropWhy::Dsr(dsr::Drop::Ttl) => "TTL",
        DropWhy::Dsr(dsr::Drop::Loop) => "LOOP",
        DropWhy::Dsr(dsr::Drop::Salvage) => "SAL",
        DropWhy::Dsr(dsr::Drop::Callback) => "CBK",
        DropWhy::Dsr(dsr::Drop::End) => "END",
        DropWhy::Dsdv(dsdv::Drop::LinkFailed) => "CBK",
        DropWhy::Dsdv(dsdv::Drop::QueueFull) => "IFQ",
        DropWhy::Dsdv(dsdv::Drop::Loop) => "LOOP",
        DropWhy::Dsdv(dsdv::Drop::Ttl) => "TTL",
    }
}

/// An AODV message as ns-2's trace shows it (an error's bytes read as a
/// reply's).
fn aodv_fields(m: &Message) -> cmutrace::Aodv {
    match *m {
        Message::Request { hops, bcast_id, dst, dst_seqno, src, src_seqno, .. } => {
            cmutrace::Aodv::Request { kind: aodv::TYPE_REQUEST, hops: hops as i32, bcast_id: bcast_id as i32, dst, dst_seqno: dst_seqno as i32, src, src_seqno: src_seqno as i32 }
        }
        Message::Reply { hops, dst, dst_seqno, lifetime, .. } => cmutrace::Aodv::Reply { kind: aodv::TYPE_REPLY, hops: hops as i32, dst, dst_seqno: dst_seqno as i32, lifetime },
        Message::Error(u) => {
            let (hops, dst, dst_seqno, lifetime) = u.as_reply();
            cmutrace::Aodv::Reply { kind: aodv::TYPE_ERROR, hops: hops as i32, dst, dst_seqno: dst_seqno as i32, lifetime }
        }
        // (2.35 sends none; a HELLO would be traced as a reply)
        Message::Hello => cmutrace::Aodv::Reply { kind: 0x10, hops: 0, dst: 0, dst_seqno: 0, lifetime: 0.0 },
    }
}

/// The extended MAC and radio of a node (`Mac/802_11Ext`'s and
/// `Phy/WirelessPhyExt`'s class variables, `ext_` and `xphy_` keys), and
/// the radio as the channel sees it (its power, wavelength, loss and
/// carrier-sense threshold).
fn ext_stack(vars: &[(&str, &str)], mac_addr: u32, god: u32, antenna: &Antenna, model: &Model) -> Result<(Ext<crate::packet::PktId>, Radio), String> {
    let (mut t, mut p, mut x) = (Timing::default(), ExtParams::default(), PhyParams::default());
    let (mut pt, mut freq, mut loss) = (0.1, 5.18e9, 1.0);
    let modulation = |what: &str, v: &str| -> Result<u8, String> {
        match v.trim().parse::<f64>() {
            Ok(m) if (0.0..=3.0).contains(&m) && m.fract() == 0.0 => Ok(m as u8),
            _ => Err(format!("{what}: a modulation of 0 (BPSK), 1 (QPSK), 2 (QAM16) or 3 (QAM64) is needed, got \"{v}\"")),
        }
    };
    for &(k, v) in vars {
        let (class, name) = if let Some(n) = k.strip_prefix("ext_") { ("Mac/802_11Ext", n) } else { ("Phy/WirelessPhyExt", &k[5..]) };
        let what = format!("{class} {name}");
        let real = |v: &str| num(&what, v);
        match (class, name) {
            ("Mac/802_11Ext", "CWMin_") => p.cw_min = count(&what, v)?,
            ("Mac/802_11Ext", "CWMax_") => p.cw_max = count(&what, v)?,
            ("Mac/802_11Ext", "SlotTime_") => t.slot = nonnegative(&what, real(v)?)?,
            ("Mac/802_11Ext", "SIFS_") => t.sifs = nonnegative(&what, real(v)?)?,
            ("Mac/802_11Ext", "RTSThreshold_") => p.rts_threshold = count(&what, v)?,
            ("Mac/802_11Ext", "ShortRetryLimit_") => p.short_retry_limit = count(&what, v)?,
            ("Mac/802_11Ext", "LongRetryLimit_") => p.long_retry_limit = count(&what, v)?,
            ("Mac/802_11Ext", "HeaderDuration_") => t.header_duration = nonnegative(&what, real(v)?)?,
            ("Mac/802_11Ext", "SymbolDuration_") => t.symbol_duration = positive(&what, real(v)?)?,
            ("Mac/802_11Ext", "BasicModulationScheme_") => t.basic = modulation(&what, v)?,
            ("Mac/802_11Ext", "use_802_11a_flag_") => t.ofdm_bits = tcl_get_boolean(v).map_err(|_| format!("{what}: true or false is needed, got \"{v}\""))?,
            ("Phy/WirelessPhyExt", "CSThresh_") => x.carrier_sense = real(v)?,
            ("Phy/WirelessPhyExt", "Pt_") => pt = real(v)?,
            ("Phy/WirelessPhyExt", "freq_") => freq = positive(&what, real(v)?)?,
            ("Phy/WirelessPhyExt", "L_") => loss = real(v)?,
            ("Phy/WirelessPhyExt", "noise_floor_") => x.noise_floor = real(v)?,
            ("Phy/WirelessPhyExt", "PowerMonitorThresh_") => x.monitor_threshold = real(v)?,
            ("Phy/WirelessPhyExt", "HeaderDuration_") => x.header_duration = nonnegative(&what, real(v)?)?,
            ("Phy/WirelessPhyExt", "BasicModulationScheme_") => x.basic = modulation(&what, v)?,
            ("Phy/WirelessPhyExt", "PreambleCaptureSwitch_") => x.preamble_capture = real(v)? != 0.0,
            ("Phy/WirelessPhyExt", "DataCaptureSwitch_") => x.data_capture = real(v)? != 0.0,
            ("Phy/WirelessPhyExt", "SINR_PreambleCapture_") => x.sinr_preamble_capture = real(v)?,
            ("Phy/WirelessPhyExt", "SINR_DataCapture_") => x.sinr_data_capture = real(v)?,
            ("Phy/WirelessPhyExt", "trace_dist_") => x.trace_distance = real(v)?,
            (_, "MAC_DBG" | "PHY_DBG_") => {
                if real(v)? != 0.0 {
                    return Err(format!("{what} {v}: the debugging printouts are not supported by Dumbbell (only 0)"));
                }
            }
            _ => return Err(format!("wireless-join: unknown key \"{k}\"")),
        }
    }
    if !(1..=1 << 30).contains(&p.cw_min) || !(1..=1 << 30).contains(&p.cw_max) {
        return Err(format!("Mac/802_11Ext CWMin_ {} CWMax_ {}: a contention window of 1 to {} slots is needed", p.cw_min, p.cw_max, 1u32 << 30));
    }
    // (the channel's reach, distCST_, is where the power falls to the
    // monitor's threshold, with the antennas' gains: channel.cc's
    // calcHighestAntennaZ for an extended radio)
    let gains = antenna.tx_gain * antenna.rx_gain;
    let reach = if gains == 1.0 { x.monitor_threshold } else { x.monitor_threshold / gains };
    if matches!(model, Model::TwoRayGround { .. } | Model::FreeSpace) && !(x.monitor_threshold > 0.0) {
        return Err(format!(
            "Phy/WirelessPhyExt PowerMonitorThresh_ {}: with two-ray ground or free space the channel's reach is where the power falls to this threshold, so it must be above 0 (ns-2 2.35 divides by it at the first transmission and stops with a floating-point exception)",
            x.monitor_threshold
        ));
    }
    let radio = Radio { pt, freq, loss, lambda: crate::wireless::propagation::wavelength(freq), carrier_sense_threshold: reach, ..Radio::default() };
    let mac = MacExt::new(t, p, mac_addr, god);
    Ok((Ext::new(mac, PhyExt::new(x), pt), radio))
}

fn layer_name(l: Layer) -> &'static str {
    match l {
        Layer::Agent => "AGT",
        Layer::Router => "RTR",
        Layer::Queue => "IFQ",
        Layer::Mac => "MAC",
        Layer::Phy => "PHY",
    }
}

/// A trace point's event as its line(s): on `trace` in the old or the new
/// format, on `nam` as nam's records.
pub fn write_wireless(out: &mut Outputs, trace: Option<u32>, nam: Option<u32>, pt: &Point, what: &Traced) {
    let op = match pt.op {
        TraceOp::Send => Op::Send,
        TraceOp::Recv => Op::Recv,
        TraceOp::Forward => Op::Forward,
        TraceOp::Drop => Op::Drop,
        TraceOp::Eot => Op::Eot,
    };
    let mut nam_next_hop = None;
    let (uid, ptype, size, mac, body, next_hop, dst) = match *what {
        Traced::Packet { pkt, hdr, size, msg, nam_hop, sr } => {
            nam_next_hop = nam_hop;
            let mac = MacFields { duration: hdr.duration, ra: hdr.ra, ta: hdr.ta, ether_type: hdr.ether_type };
            match hdr.arp {
                Some(a) => {
                    let body = Body::Arp { request: a.request, sender_mac: a.sender_mac, sender: a.sender, target_mac: a.target_mac, target: a.target };
                    (pkt.uid, "ARP", size, mac, body, hdr.next_hop, 0)
                }
                None if hdr.carried == Carried::Dsdv => {
                    let ip = IpFields { src: pkt.saddr, sport: pkt.sport, dst: pkt.daddr, dport: pkt.dport, flow: pkt.fid, ttl: pkt.ttl };
                    (pkt.uid, "message", size, mac, Body::Ip(ip, Upper::Nothing), hdr.next_hop, pkt.daddr)
                }
                None if hdr.carried == Carried::Dsr => {
                    let ip = IpFields { src: pkt.saddr, sport: pkt.sport, dst: pkt.daddr, dport: pkt.dport, flow: pkt.fid, ttl: pkt.ttl };
                    let upper = match sr {
                        Some(h) => Upper::Dsr(cmutrace::dsr_fields(h)),
                        None => Upper::Nothing,
                    };
                    (pkt.uid, "DSR", size, mac, Body::Ip(ip, upper), hdr.next_hop, pkt.daddr)
                }
                None if hdr.carried == Carried::Aodv => {
                    let ip = IpFields { src: pkt.saddr, sport: pkt.sport, dst: pkt.daddr, dport: pkt.dport, flow: pkt.fid, ttl: pkt.ttl };
                    let upper = match msg {
                        Some(m) => Upper::Aodv(aodv_fields(m)),
                        None => Upper::Nothing,
                    };
                    (pkt.uid, "AODV", size, mac, Body::Ip(ip, upper), hdr.next_hop, pkt.daddr)
                }
                None => {
                    let ip = IpFields { src: pkt.saddr, sport: pkt.sport, dst: pkt.daddr, dport: pkt.dport, flow: pkt.fid, ttl: pkt.ttl };
                    let upper = match pkt.ptype {
                        PacketType::Tcp | PacketType::Ack => Upper::Tcp { seqno: pkt.seqno, ackno: pkt.ackno, forwards: hdr.forwards, opt_forwards: hdr.opt_forwards },
                        // (cmu-trace.cc has no format of its own for it;
                        // `udp`, Mobile IP's messages among them, has
                        // format_msg's, which prints nothing)
                        PacketType::Pbc | PacketType::Udp => Upper::Nothing,
                        _ => Upper::Cbr { seqno: pkt.seqno, forwards: hdr.forwards, opt_forwards: hdr.opt_forwards },
                    };
                    (pkt.uid, pkt.ptype.name(), size, mac, Body::Ip(ip, upper), hdr.next_hop, pkt.daddr)
                }
            }
        }
        Traced::Energy => {
            // (MobileNode::log_energy)
            let (Some(ch), Some(en)) = (trace, pt.energy) else { return };
            return out.append(ch, |b| {
                b.extend_from_slice(b"N -t ");
                push_f(b, pt.time, 6, 0, false);
                b.extend_from_slice(b" -n ");
                push_int(b, pt.node as i64, 0, false);
                if en.alive() {
                    b.extend_from_slice(b" -e ");
                    push_f(b, en.energy, 6, 0, false);
                    b.push(b'\n');
                } else {
                    b.extend_from_slice(b" -e 0 \n");
                }
            });
        }
        Traced::Control { kind, size, duration, ra, ta } => {
            let name = match kind {
                Kind::Rts => "RTS",
                Kind::Cts => "CTS",
                Kind::Ack => "ACK",
                Kind::Data => "DATA",
                Kind::Beacon => "BCN",
                Kind::ProbeReq => "PRRQ",
                Kind::ProbeRep => "PRRP",
                Kind::Auth => "AUTH",
                Kind::AssocReq => "ACRQ",
                Kind::AssocRep => "ACRP",
            };
            (0, name, size, MacFields { duration, ra, ta, ether_type: 0 }, Body::Mac, crate::wireless::net::NO_NEXT_HOP, 0)
        }
    };
    let e = Event {
        op,
        time: pt.time,
        node: pt.node,
        next_hop,
        x: pt.x,
        y: pt.y,
        z: pt.z,
        layer: layer_name(pt.layer),
        why: why_code(pt.why),
        uid,
        ptype,
        size: size as i32,
        mac,
        body,
    };
    let energy = pt.energy.map(|en| EnergyFields { energy: en.energy, idle: en.idle, sleep: en.sleep, tx: en.tx, rx: en.rx });
    // (the next hop as a node id, as nam's records and the tagged format
    // show it: an address no node has is -1; a base station's wired hop,
    // its node)
    let by_node = if pt.nobody { Event { next_hop: -1, ..e } } else { Event { next_hop: nam_next_hop.unwrap_or(e.next_hop), ..e } };
    if let Some(ch) = trace {
        if pt.tagged {
            out.append(ch, |b| cmutrace::push_tagged(b, &by_node, energy.as_ref()));
        } else {
            out.append(ch, |b| push_line_energy(b, &e, pt.newtrace, energy.as_ref()));
        }
    }
    if let Some(ch) = nam {
        let e = by_node;
        out.append(ch, |b| push_nam_color(b, &e, dst, pt.color.map(nam_colors)));
    }
}

/// nam's colour change to an energy level: the new colour and the old
/// (cmu-trace.cc's levels).
fn nam_colors(l: Level) -> &'static str {
    match l {
        Level::Dead => "-c black -o red",
        Level::Low => "-c red -o yellow",
        Level::Half => "-c yellow -o green",
        Level::Full => "-c green -o black",
    }
}

/// The radio stack's stdout lines (ns-2's C `printf`s).
pub fn write_radio_notice(stdout: &mut Vec<u8>, n: &RadioNotice) {
    match *n {
        RadioNotice::Range(r) => stdout.extend_from_slice(carrier_sense_notice(r.highest_antenna, r.carrier_sense).as_bytes()),
        RadioNotice::UnknownSender { warning, src, dst, nodes } => stdout.extend_from_slice(unknown_sender_warning(warning, src, dst, nodes).as_bytes()),
        // propagation.cc's FreeSpace::Pr: printf("%lf: d: %lf, Pr: %e\n")
        RadioNotice::Reception { now, distance, power } => {
            push_f(stdout, now, 6, 0, false);
            stdout.extend_from_slice(b": d: ");
            push_f(stdout, distance, 6, 0, false);
            stdout.extend_from_slice(b", Pr: ");
            push_e(stdout, power, 6, 0, false);
            stdout.push(b'\n');
        }
        // mac-802_11.cc's printfs in infrastructure mode
        RadioNotice::Infra(n) => match n {
            InfraNotice::HandoffAttempted { client } => {
                stdout.extend_from_slice(b"Client ");
                push_int(stdout, client as i64, 0, false);
                stdout.extend_from_slice(b": Handoff Attempted\n");
            }
            InfraNotice::Handoff { client, from, to } => {
                stdout.extend_from_slice(b"Client ");
                push_int(stdout, client as i64, 0, false);
                stdout.extend_from_slice(b": Handoff from AP ");
                push_int(stdout, from as i32 as i64, 0, false);
                stdout.extend_from_slice(b" to AP ");
                push_int(stdout, to as i32 as i64, 0, false);
                stdout.push(b'\n');
            }
            InfraNotice::NoAps => stdout.extend_from_slice(b"No APs in range\n"),
            InfraNotice::OutOfSequence => stdout.extend_from_slice(b"Out of sequence\n"),
        },
        // mac-tdma.cc's printfs
        RadioNotice::Tdma { complaint, addr, now } => {
            stdout.push(b'<');
            push_int(stdout, addr as i64, 0, false);
            stdout.extend_from_slice(b">, ");
            let timed = |b: &mut Vec<u8>| {
                push_f(b, now, 6, 0, false);
                b.extend_from_slice(b", ");
            };
            match complaint {
                Complaint::ReceiveWhileSending => stdout.extend_from_slice(b"can't receive while transmitting!\n"),
                Complaint::ReceiveWhileReceiving => stdout.extend_from_slice(b"receiving, but the channel is not idle....???\n"),
                Complaint::NothingBuffered => {
                    timed(stdout);
                    stdout.extend_from_slice(b"no packet buffered.\n");
                }
                Complaint::SendWhileBusy => {
                    timed(stdout);
                    stdout.extend_from_slice(b"transmitting, but the channel is not idle...???\n");
                }
            }
        }
    }
}

/// A line a DSR agent writes into the trace-all file (its `trace` calls).
pub fn write_dsr_note(out: &mut Outputs, ch: u32, now: f64, node: i32, n: &dsr::Note) {
    use cmutrace::{DsrNote, PathDump, SrRoute};
    let time = now;
    let b_route;
    let note = match n {
        dsr::Note::Config => {
            out.append(ch, |b| {
                cmutrace::push_dsr_note(b, &DsrNote::Config { time });
                cmutrace::push_dsr_note(b, &DsrNote::Cache { time });
            });
            return;
        }
        dsr::Note::FlowError { src, dst, flow } => {
            // ("SFErr %.5f _%s_ %d -> %d : %d")
            let line = format!("SFErr {} _{node}_ {src} -> {dst} : {flow}\n", fixed(now, 5));
            return out.append(ch, |b| b.extend_from_slice(line.as_bytes()));
        }
        dsr::Note::FlowErrorHeard { from, dst, flow, count } => {
            // ("SFEr %.9f _%s_ from %d re %d : %d [%d]")
            let line = format!("SFEr {} _{node}_ from {from} re {dst} : {flow} [{count}]\n", fixed(now, 9));
            return out.append(ch, |b| b.extend_from_slice(line.as_bytes()));
        }
        dsr::Note::FlowErrorDumped { src, dst } => {
            let line = format!("SYFU  {} _{node}_ dumping maximally nested Flow error {src} -> {dst}\n", fixed(now, 5));
            return out.append(ch, |b| b.extend_from_slice(line.as_bytes()));
        }
        dsr::Note::ErrorDumped { tell, from, to } => {
            // ("SDFU  %.5f _%s_ dumping maximally nested error %s  %d -> %d")
            let line = format!("SDFU  {} _{node}_ dumping maximally nested error {tell}  {from} -> {to}\n", fixed(now, 5));
            return out.append(ch, |b| b.extend_from_slice(line.as_bytes()));
        }
        dsr::Note::Dfu(text) => {
            return out.append(ch, |b| {
                b.extend_from_slice(text.as_bytes());
                b.push(b'\n');
            });
        }
        dsr::Note::SendBufferDrop { src, dst } => DsrNote::SendBufferDrop { time, node, src: *src, dst: *dst },
        dsr::Note::FlowSend { uid, src, dst, flow, flow_header, next_hop, route } => {
            b_route = *route;
            DsrNote::FlowSend { time, node, uid: *uid, src: *src, dst: *dst, flow: *flow, flow_header: *flow_header, next_hop: *next_hop, route: b_route.as_ref().map(|r| SrRoute { addrs: r.slice(), cur: r.cur }) }
        }
        dsr::Note::FlowForward { uid, src, dst, flow, next_hop } => DsrNote::FlowForward { time, node, uid: *uid, src: *src, dst: *dst, flow: *flow, next_hop: *next_hop },
        dsr::Note::Salvaging { src, dst, uid, route } => DsrNote::Salvaging { time, node, src: *src, dst: *dst, uid: *uid, route: PathDump { addrs: route.slice(), cur: route.cur } },
        dsr::Note::SalvageToBuffer { uid, src, dst, salvaged } => DsrNote::SalvageToBuffer { time, node, uid: *uid, src: *src, dst: *dst, salvaged: *salvaged },
        dsr::Note::SendFailure { uid, ptype, src, sport, dst, dport, from, to, hops, route } => DsrNote::SendFailure {
            time,
            node,
            uid: *uid,
            ptype: *ptype,
            src: *src,
            sport: *sport,
            dst: *dst,
            dport: *dport,
            from: *from,
            to: *to,
            hops: *hops,
            route: SrRoute { addrs: route.slice(), cur: route.cur },
        },
    };
    out.append(ch, |b| cmutrace::push_dsr_note(b, &note));
}

/// `%.Nf` of C's printf.
fn fixed(v: f64, n: usize) -> String {
    let mut b = Vec::new();
    push_f(&mut b, v, n, 0, false);
    String::from_utf8(b).unwrap_or_default()
}
