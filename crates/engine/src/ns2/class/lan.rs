//! The classes of ns-2's wired LANs (tcl/lan/, mac/): `LL`, `Mac`,
//! `Mac/802_3`, `Phy/WiredPhy`, `Channel`, `LanRouter`, `VARPTable`,
//! `NetworkInterface`, `Classifier/Replicator` and `Trace/Collision`, with
//! their bound variables and ns-2's defaults (ns-default.tcl, ns-mac.tcl,
//! ns-ll.tcl).  Their commands are in ns2/lan.rs.

use crate::lan::{Channel, Ll, Mac, MacKind, Part, Phy, Replicator, Router, Varp};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::objs::Trace;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

fn ll(o: &mut Obj) -> Option<&mut Ll> {
    match o {
        Obj::Lan(p) => match &mut **p {
            Part::Ll(l) => Some(l),
            _ => None,
        },
        _ => None,
    }
}

fn mac(o: &mut Obj) -> Option<&mut Mac> {
    match o {
        Obj::Lan(p) => match &mut **p {
            Part::Mac(m) => Some(m),
            _ => None,
        },
        _ => None,
    }
}

fn phy(o: &mut Obj) -> Option<&mut Phy> {
    match o {
        Obj::Lan(p) => match &mut **p {
            Part::Phy(x) => Some(x),
            _ => None,
        },
        _ => None,
    }
}

fn channel(o: &mut Obj) -> Option<&mut Channel> {
    match o {
        Obj::Lan(p) => match &mut **p {
            Part::Channel(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

fn replicator(o: &mut Obj) -> Option<&mut Replicator> {
    match o {
        Obj::Lan(p) => match &mut **p {
            Part::Replicator(r) => Some(r),
            _ => None,
        },
        _ => None,
    }
}

/// `LL`'s (mac/ll.cc: `LinkDelay`'s delay and bandwidth, `macDA_`).
pub static LAN_LL: Table<Ll> = Table {
    class: "LL",
    part: ll,
    vars: &[
        script_var("mindelay_", "50us"),
        within(var("delay_", Time, "25us", |l, _| real(l.delay), |l, v, _| Ok(l.delay = parse_time(v))),
            Range::NonNegativeTime, "a packet goes on this long after it arrives: a negative delay schedules into the past"),
        script_var("bandwidth_", "0"),
        debug(),
        script_var("avoidReordering_", "false"),
        var("macDA_", Int, "0", |l, _| int(l.default_da), |l, v, _| Ok(l.default_da = parse_int(v))),
    ],
    after_set: None,
};

/// `LL/LLSnoop`'s (tcp/snoop.h's bind, tcl/lan/ns-ll.tcl's values; its
/// `delay_` default, 0 ms, is in defaults.tcl).
pub static LL_SNOOP: Table<Ll> = Table {
    class: "LL/LLSnoop",
    part: ll,
    vars: &[
        var("integrate_", Int, "0", |_, _| int(0), |_, v, _| match parse_int(v) {
            0 => Ok(()),
            _ => Err(format!("integrate_ {v}: the loss recovery shared across a snoop link layer's connections is not supported by Dumbbell yet (0 only)")),
        }),
        script_var("snoopTick_", "0.1"),
    ],
    after_set: None,
};

/// `Snoop`'s class defaults (ns-ll.tcl's; its agents are made by their
/// `LL/LLSnoop`, which reads these when its LAN interface is made).
pub static SNOOP: Table<Obj> = Table {
    class: "Snoop",
    part: whole,
    vars: &[
        script_var("snoopTick_", "0.1"),
        script_var("snoopDisable_", "0"),
        script_var("srtt_", "0.1"),
        script_var("rttvar_", "0.25"),
        script_var("g_", "0.125"),
        script_var("tailTime_", "0"),
        script_var("rxmitStatus_", "0"),
        script_var("lru_", "0"),
        script_var("maxbufs_", "0"),
        script_var("debug_", "false"),
    ],
    after_set: None,
};

/// `Mac`'s (mac/mac.cc), bound; their defaults (ns-mac.tcl's) are the
/// wireless table's, which `Mac/802_11` shares.
pub static LAN_MAC: Table<Mac> = Table {
    class: "Mac",
    part: mac,
    vars: &[
        var_unset("abstract_", Bool, |m, _| boolean(matches!(m.kind, MacKind::Plain { abstract_lan: true })), |m, v, _| {
            if let MacKind::Plain { abstract_lan } = &mut m.kind {
                *abstract_lan = parse_bool(v);
            }
            Ok(())
        }),
        within(var_unset("bandwidth_", Bandwidth, |m, _| real(m.bandwidth), |m, v, _| Ok(m.bandwidth = parse_bw(v))),
            Range::Bandwidth, "the plain MAC divides a frame's bits by it"),
        within(var_unset("delay_", Time, |m, _| real(m.delay), |m, v, _| Ok(m.delay = parse_time(v))),
            Range::NonNegativeTime, "a frame goes up this long after it arrives: a negative delay schedules into the past"),
    ],
    after_set: None,
};

/// `Mac/802_3`'s: `trace_` (collisions traced as drops).
pub static MAC_802_3: Table<Mac> = Table {
    class: "Mac/802_3",
    part: mac,
    vars: &[var("trace_", Bool, "false", |m, _| boolean(m.trace), |m, v, _| Ok(m.trace = parse_bool(v)))],
    after_set: None,
};

/// `Phy/WiredPhy`'s bandwidth (the MAC's transmission times).
pub static WIRED_PHY: Table<Phy> = Table {
    class: "Phy/WiredPhy",
    part: phy,
    vars: &[within(var("bandwidth_", Bandwidth, "10e6", |p, _| real(p.bandwidth), |p, v, _| Ok(p.bandwidth = parse_bw(v))),
        Range::Bandwidth, "802.3 divides a frame's bits by it")],
    after_set: None,
};

/// `Channel`'s delay, bound (its default is the wireless table's).
pub static LAN_CHANNEL: Table<Channel> = Table {
    class: "Channel",
    part: channel,
    vars: &[within(var_unset("delay_", Time, |c, _| real(c.delay), |c, v, _| Ok(c.delay = parse_time(v))),
        Range::NonNegativeTime, "a frame reaches the other interfaces this long after it is sent: a negative delay schedules into the past")],
    after_set: None,
};

/// `Classifier/Replicator`'s `direction_`.
pub static REPLICATOR: Table<Replicator> = Table {
    class: "Classifier/Replicator",
    part: replicator,
    vars: &[
        script_var("ignore_", "0"),
        var("direction_", Bool, "false", |r, _| boolean(r.direction), |r, v, _| Ok(r.direction = parse_bool(v))),
    ],
    after_set: None,
};

/// `NetworkInterface`'s (`debug_` only).
pub static NETWORK_INTERFACE: Table<Obj> = debug_only("NetworkInterface");

fn lan(p: Part) -> Obj {
    Obj::Lan(Box::new(p))
}

pub fn make_ll(_: &mut Sim, _: ObjId) -> Obj {
    lan(Part::Ll(Ll::default()))
}

pub fn make_ll_snoop(_: &mut Sim, _: ObjId) -> Obj {
    lan(Part::Ll(Ll { snoop: Some(Box::default()), ..Ll::default() }))
}

/// ns-2 numbers its MACs in one count.
fn next_mac(sim: &mut Sim) -> i32 {
    let a = sim.w.macs;
    sim.w.macs += 1;
    a
}

pub fn make_mac(sim: &mut Sim, _: ObjId) -> Obj {
    let a = next_mac(sim);
    lan(Part::Mac(Mac::new(MacKind::Plain { abstract_lan: false }, a)))
}

pub fn make_mac_802_3(sim: &mut Sim, id: ObjId) -> Obj {
    let a = next_mac(sim);
    let mut m = Mac::new(MacKind::Ether, a);
    crate::lan::mac::timers(sim, id, &mut m);
    lan(Part::Mac(m))
}

pub fn make_phy(_: &mut Sim, _: ObjId) -> Obj {
    lan(Part::Phy(Phy::default()))
}

pub fn make_channel(_: &mut Sim, _: ObjId) -> Obj {
    lan(Part::Channel(Channel::default()))
}

pub fn make_router(_: &mut Sim, _: ObjId) -> Obj {
    lan(Part::Router(Router { lan: -1 }))
}

pub fn make_varp(_: &mut Sim, _: ObjId) -> Obj {
    lan(Part::Varp(Varp::default()))
}

pub fn make_iface(_: &mut Sim, id: ObjId) -> Obj {
    lan(Part::Iface { target: crate::sim::NONE, label: id as i32 })
}

pub fn make_replicator(_: &mut Sim, _: ObjId) -> Obj {
    lan(Part::Replicator(Replicator::default()))
}

pub fn make_collision(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Trace(Trace::new(b'c'))
}
