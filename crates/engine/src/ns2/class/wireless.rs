//! The wireless classes (ns-2 2.35's mobile/ and mac/ directories, and
//! tcl/lib/ns-default.tcl's defaults for them).  Built so far:
//! `Node/MobileNode`'s position (`X_`, `Y_`, `Z_`, `speed_`: the core's
//! wireless::Mobility), `Topography` (`load_flatgrid`) and `God`.  The
//! classes of the radio stack a script names (`Channel/WirelessChannel`,
//! `Phy/WirelessPhy`, `Mac/802_11`, `LL`, `Antenna/OmniAntenna`, the
//! propagation models, `Queue/DropTail/PriQueue`) exist with their class
//! defaults, so scripts configure them as in ns-2, but have no model yet:
//! their objects hold nothing (docs/wireless.md).

use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::objs::Node;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::wireless::propagation::{Model, Nakagami, Shadowing};
use crate::wireless::{FlatGrid, MobileNode, Part};

fn mobile(o: &mut Obj) -> Option<&mut MobileNode> {
    match o {
        Obj::Node(Node { mobile: Some(m), .. }) => Some(m),
        _ => None,
    }
}

/// `Node/MobileNode`'s (common/mobilenode.cc's binds and ns-default.tcl).
/// ns-2 reads and writes the stored position: a read does not bring it up
/// to date (only the node's own events and `log-movement` do).
pub static MOBILE_NODE: Table<MobileNode> = Table {
    class: "Node/MobileNode",
    part: mobile,
    vars: &[
        within(var("X_", Real, "0", |m, _| real(m.pos.x), |m, v, _| Ok(m.pos.x = parse_real(v))),
            Range::Finite, "a coordinate (m): an infinite or NaN one makes every distance, and so every reception, NaN"),
        within(var("Y_", Real, "0", |m, _| real(m.pos.y), |m, v, _| Ok(m.pos.y = parse_real(v))),
            Range::Finite, "a coordinate (m): an infinite or NaN one makes every distance, and so every reception, NaN"),
        within(var("Z_", Real, "0", |m, _| real(m.pos.z), |m, v, _| Ok(m.pos.z = parse_real(v))),
            Range::Finite, "a coordinate (m): an infinite or NaN one makes every distance, and so every reception, NaN"),
        within(var("speed_", Real, "0", |m, _| real(m.pos.speed), |m, v, _| Ok(m.pos.speed = parse_real(v))),
            Range::Finite, "a speed (m/s): an infinite or NaN one makes the next position NaN"),
        script_var("position_update_interval_", "0"),
        script_var("bandwidth_", "0"),
        script_var("delay_", "0"),
        script_var("REGAGENT_PORT", "0"),
        script_var("DECAP_PORT", "1"),
    ],
    after_set: None,
};

/// `God`'s (`debug_`, which nothing reads).
pub static GOD: Table<Obj> = debug_only("God");

/// The classes of the radio stack: their ns-2 class defaults only.
pub static CHANNEL: Table<Obj> = Table { class: "Channel", part: whole, vars: &[script_var("delay_", "4us")], after_set: None };

pub static PHY: Table<Obj> = Table { class: "Phy", part: whole, vars: &[script_var("debug_", "false")], after_set: None };

pub static WIRELESS_PHY: Table<Obj> = Table {
    class: "Phy/WirelessPhy",
    part: whole,
    vars: &[
        script_var("CPThresh_", "10.0"),
        script_var("CSThresh_", "1.559e-11"),
        script_var("RXThresh_", "3.652e-10"),
        script_var("bandwidth_", "2e6"),
        script_var("Pt_", "0.28183815"),
        script_var("freq_", "914e+6"),
        script_var("L_", "1.0"),
    ],
    after_set: None,
};

pub static MAC: Table<Obj> = Table {
    class: "Mac",
    part: whole,
    vars: &[script_var("debug_", "false"), script_var("abstract_", "false"), script_var("bandwidth_", "2Mb"), script_var("delay_", "0us")],
    after_set: None,
};

pub static MAC_802_11: Table<Obj> = Table {
    class: "Mac/802_11",
    part: whole,
    vars: &[
        script_var("CWMin_", "31"),
        script_var("CWMax_", "1023"),
        script_var("SlotTime_", "0.000020"),
        script_var("SIFS_", "0.000010"),
        script_var("PreambleLength_", "144"),
        script_var("PLCPHeaderLength_", "48"),
        script_var("PLCPDataRate_", "1.0e6"),
        script_var("RTSThreshold_", "0"),
        script_var("ShortRetryLimit_", "7"),
        script_var("LongRetryLimit_", "4"),
        script_var("bugFix_timer_", "true"),
        script_var("BeaconInterval_", "0.1"),
        script_var("ScanType_", "PASSIVE"),
        script_var("ProbeDelay_", "0.0001"),
        script_var("MaxChannelTime_", "0.011"),
        script_var("MinChannelTime_", "0.005"),
        script_var("ChannelTime_", "0.12"),
        script_var("basicRate_", "1Mb"),
        script_var("dataRate_", "1Mb"),
    ],
    after_set: None,
};

/// `Mac/802_11Ext`'s (mac-802_11Ext.cc's binds, ns-default.tcl's values).
pub static MAC_802_11EXT: Table<Obj> = Table {
    class: "Mac/802_11Ext",
    part: whole,
    vars: &[
        script_var("HeaderDuration_", "0.000020"),
        script_var("SymbolDuration_", "0.000004"),
        script_var("BasicModulationScheme_", "0"),
        script_var("use_802_11a_flag_", "true"),
        script_var("CWMin_", "15"),
        script_var("CWMax_", "1023"),
        script_var("SlotTime_", "0.000009"),
        script_var("SIFS_", "0.000016"),
        script_var("RTSThreshold_", "3000"),
        script_var("ShortRetryLimit_", "7"),
        script_var("LongRetryLimit_", "4"),
        script_var("MAC_DBG", "0"),
    ],
    after_set: None,
};

/// `Phy/WirelessPhyExt`'s (wireless-phyExt.cc's binds, ns-default.tcl's
/// values; `bandwidth_` is the ordinary radio's).
pub static WIRELESS_PHY_EXT: Table<Obj> = Table {
    class: "Phy/WirelessPhyExt",
    part: whole,
    vars: &[
        script_var("CSThresh_", "6.30957e-12"),
        script_var("noise_floor_", "7.96159e-14"),
        script_var("PowerMonitorThresh_", "2.653e-14"),
        script_var("Pt_", "0.1"),
        script_var("freq_", "5.18e+9"),
        script_var("HeaderDuration_", "0.000020"),
        script_var("BasicModulationScheme_", "0"),
        script_var("L_", "1.0"),
        script_var("PreambleCaptureSwitch_", "1"),
        script_var("DataCaptureSwitch_", "0"),
        script_var("SINR_PreambleCapture_", "3.1623"),
        script_var("SINR_DataCapture_", "10.0"),
        script_var("trace_dist_", "1e6"),
        script_var("PHY_DBG_", "0"),
        script_var("CPThresh_", "0"),
        script_var("RXThresh_", "0"),
        script_var("bandwidth_", "2e6"),
    ],
    after_set: None,
};

/// `Mac/Tdma`'s (mac-tdma.cc's binds, ns-default.tcl's values).
pub static MAC_TDMA: Table<Obj> = Table {
    class: "Mac/Tdma",
    part: whole,
    vars: &[script_var("slot_packet_len_", "1500"), script_var("max_node_num_", "64")],
    after_set: None,
};

pub static LL: Table<Obj> = Table {
    class: "LL",
    part: whole,
    vars: &[
        script_var("mindelay_", "50us"),
        script_var("delay_", "25us"),
        script_var("bandwidth_", "0"),
        script_var("debug_", "false"),
        script_var("avoidReordering_", "false"),
        script_var("macDA_", "0"),
    ],
    after_set: None,
};

pub static OMNI_ANTENNA: Table<Obj> = Table {
    class: "Antenna/OmniAntenna",
    part: whole,
    vars: &[
        script_var("X_", "0"),
        script_var("Y_", "0"),
        script_var("Z_", "1.5"),
        script_var("Gt_", "1.0"),
        script_var("Gr_", "1.0"),
    ],
    after_set: None,
};

pub static PRI_QUEUE: Table<Obj> = Table {
    class: "Queue/DropTail/PriQueue",
    part: whole,
    vars: &[script_var("Prefer_Routing_Protocols", "1")],
    after_set: None,
};

/// `CMUPriQueue`'s (queue/dsr-priqueue.cc binds the two thresholds of its
/// statistics log, which nothing in ns-2 2.35 calls).  Its objects are
/// the nodes' queues, made by the engine (`-ifqType CMUPriQueue`).
pub static CMU_PRI_QUEUE: Table<Obj> = Table {
    class: "CMUPriQueue",
    part: whole,
    vars: &[script_var("qlen_logthresh_", "10"), script_var("fw_logthresh_", "25"), script_var("debug_", "false")],
    after_set: None,
};

/// `Agent/DSDV`'s class variables (tcl/mobility/dsdv.tcl), which a mobile
/// node's DSDV agent reads when the node is made (wireless.tcl passes
/// them to `wireless-join`).  Its objects are the nodes' agents, which
/// Dumbbell does not make as OTcl objects: one made by hand holds nothing.
pub static AGENT_DSDV: Table<Obj> = Table {
    class: "Agent/DSDV",
    part: whole,
    vars: &[
        script_var("sport_", "0"),
        script_var("dport_", "0"),
        script_var("wst0_", "6"),
        script_var("perup_", "15"),
        script_var("use_mac_", "0"),
        script_var("be_random_", "1"),
        script_var("alpha_", "0.875"),
        script_var("min_update_periods_", "3"),
        script_var("verbose_", "0"),
        script_var("trace_wst_", "0"),
    ],
    after_set: None,
};

fn shadowing(o: &mut Obj) -> Option<&mut Shadowing> {
    match o {
        Obj::Wireless(Part::Propagation(Model::Shadowing(s))) => Some(s),
        _ => None,
    }
}

/// `Propagation/Shadowing`'s (mobile/shadowing.cc's binds, ns-default.tcl's
/// defaults).  `seed_` is read once, when the model is made (its stream is
/// then seeded from that predefined seed, as ns-2's constructor does); a
/// later write only changes the variable, as in ns-2.
pub static SHADOWING: Table<Shadowing> = Table {
    class: "Propagation/Shadowing",
    part: shadowing,
    vars: &[
        within(var("pathlossExp_", Real, "2.0", |s, _| real(s.pathloss_exp), |s, v, _| Ok(s.pathloss_exp = parse_real(v))),
            Range::Finite, "the path-loss exponent: an infinite or NaN one makes every received power NaN or 0"),
        within(var("std_db_", Real, "4.0", |s, _| real(s.std_db), |s, v, _| Ok(s.std_db = parse_real(v))),
            Range::Finite, "the shadowing's deviation (dB): an infinite or NaN one makes every received power NaN"),
        within(var("dist0_", Real, "1.0", |s, _| real(s.dist0), |s, v, _| Ok(s.dist0 = parse_real(v))),
            Range::Positive, "the reference distance (m): the path loss divides the distance by it"),
        within(var("seed_", Int, "0", |s, _| int(s.seed), |s, v, _| Ok(s.seed = parse_int(v))),
            Range::NonNegativeInt, "the index (0 to 63) of one of ns-2's 64 predefined seeds the model's stream starts from"),
    ],
    after_set: None,
};

fn nakagami(o: &mut Obj) -> Option<&mut Nakagami> {
    match o {
        Obj::Wireless(Part::Propagation(Model::Nakagami(n))) => Some(&mut **n),
        _ => None,
    }
}

const EXPONENT: &str = "a path-loss exponent: an infinite or NaN one makes every received power NaN or 0";
const BOUND: &str = "a distance (m) where the model changes its parameters";
const SHAPE: &str = "a Nakagami shape m above 0 (1 is Rayleigh fading) and at most 65536: a whole m draws m exponentials \
    for each frame received (nakagami.cc's Erlang draw), so near 2^31 ns-2 spends minutes on one frame (it hangs); \
    above 65536 the fading's deviation is under 0.4% of the mean power";
/// The largest Nakagami shape (`SHAPE`).
const MAX_SHAPE: u32 = 65536;

/// `Propagation/Nakagami`'s (mobile/nakagami.cc's binds, ns-default.tcl's
/// defaults).  Read when a node joins the channel, as the other models'.
pub static NAKAGAMI: Table<Nakagami> = Table {
    class: "Propagation/Nakagami",
    part: nakagami,
    vars: &[
        within(var("gamma0_", Real, "1.9", |n, _| real(n.gamma[0]), |n, v, _| Ok(n.gamma[0] = parse_real(v))), Range::Finite, EXPONENT),
        within(var("gamma1_", Real, "3.8", |n, _| real(n.gamma[1]), |n, v, _| Ok(n.gamma[1] = parse_real(v))), Range::Finite, EXPONENT),
        within(var("gamma2_", Real, "3.8", |n, _| real(n.gamma[2]), |n, v, _| Ok(n.gamma[2] = parse_real(v))), Range::Finite, EXPONENT),
        within(var("d0_gamma_", Real, "200", |n, _| real(n.d0_gamma), |n, v, _| Ok(n.d0_gamma = parse_real(v))), Range::Positive, BOUND),
        within(var("d1_gamma_", Real, "500", |n, _| real(n.d1_gamma), |n, v, _| Ok(n.d1_gamma = parse_real(v))), Range::Positive, BOUND),
        var("use_nakagami_dist_", Bool, "false", |n, _| boolean(n.fading), |n, v, _| Ok(n.fading = parse_bool(v))),
        within(var("m0_", Real, "1.5", |n, _| real(n.m[0]), |n, v, _| Ok(n.m[0] = parse_real(v))), Range::PositiveAtMost(MAX_SHAPE), SHAPE),
        within(var("m1_", Real, "0.75", |n, _| real(n.m[1]), |n, v, _| Ok(n.m[1] = parse_real(v))), Range::PositiveAtMost(MAX_SHAPE), SHAPE),
        within(var("m2_", Real, "0.75", |n, _| real(n.m[2]), |n, v, _| Ok(n.m[2] = parse_real(v))), Range::PositiveAtMost(MAX_SHAPE), SHAPE),
        within(var("d0_m_", Real, "80", |n, _| real(n.d0_m), |n, v, _| Ok(n.d0_m = parse_real(v))), Range::Positive, BOUND),
        within(var("d1_m_", Real, "200", |n, _| real(n.d1_m), |n, v, _| Ok(n.d1_m = parse_real(v))), Range::Positive, BOUND),
    ],
    after_set: None,
};

pub fn make_nakagami(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Wireless(Part::Propagation(Model::Nakagami(Box::default())))
}

pub fn make_two_ray_ground(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Wireless(Part::Propagation(Model::two_ray_ground()))
}

pub fn make_free_space(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Wireless(Part::Propagation(Model::FreeSpace))
}

/// `new Propagation/Shadowing`: the model's own RNG (`new RNG` in ns-2's
/// constructor: the package's next stream), seeded once the class
/// defaults are in (`Sim::init_defaults`).
pub fn make_shadowing(sim: &mut Sim, _: ObjId) -> Obj {
    let stream = sim.w.rng.new_stream();
    Obj::Wireless(Part::Propagation(Model::Shadowing(Shadowing { stream, ..Shadowing::default() })))
}

pub fn make_mobile_node(_: &mut Sim, _: ObjId) -> Obj {
    let mut n = Node::new(-1);
    n.mobile = Some(Box::default());
    Obj::Node(n)
}

pub fn make_topography(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Wireless(Part::Area(FlatGrid::default()))
}

pub fn make_god(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Wireless(Part::Observer { nodes: 0, hops: Vec::new() })
}

pub fn make_inert(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Wireless(Part::Inert)
}
