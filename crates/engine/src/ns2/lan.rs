//! The commands of the wired LAN classes (class/lan.rs): what
//! tcl/lan/vlan.tcl and abslan.tcl call to wire a LAN's objects together,
//! as mac/ll.cc, mac.cc, channel.cc, phy.cc, lanRouter.cc, varp.cc and
//! mcast/replicator.cc answer them.

use crate::lan::Part;
use crate::ns2::tclcl::parse_int;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

impl Sim {
    /// `$ll snoop-params SRTT RTTVAR G SNOOPTICK MAXBUFS LRU`: the
    /// parameters an LL/LLSnoop's agents start with (`Snoop`'s class
    /// variables, which ns-2's agents read when they are made).
    fn snoop_params(&mut self, id: ObjId, a: &[&str]) -> Result<String, String> {
        use crate::ns2::tclcl::{parse_real, parse_time};
        if a.len() != 6 {
            return Err("snoop-params: expected SRTT RTTVAR G SNOOPTICK MAXBUFS LRU".into());
        }
        let maxbufs = parse_int(a[4]);
        if !(0..=crate::lan::snoop::MAX_WINDOW).contains(&maxbufs) {
            return Err(format!("Snoop maxbufs_ {}: a cache of 0 (the default, {} segments) to {} segments is needed", a[4], crate::lan::snoop::MAX_WINDOW, crate::lan::snoop::MAX_WINDOW));
        }
        let p = crate::lan::snoop::Params { srtt: parse_time(a[0]), rttvar: parse_time(a[1]), g: parse_real(a[2]), snoop_tick: parse_real(a[3]), maxbufs, lru: parse_int(a[5]) != 0 };
        for (what, v) in [("srtt_", p.srtt), ("rttvar_", p.rttvar), ("g_", p.g), ("snoopTick_", p.snoop_tick)] {
            if !v.is_finite() || v < 0.0 {
                return Err(format!("Snoop {what}: a finite value of 0 or more is needed, got {v}"));
            }
        }
        match self.lan_part(id) {
            Some(Part::Ll(crate::lan::Ll { snoop: Some(s), .. })) => {
                s.params = p;
                Ok(String::new())
            }
            _ => Err("snoop-params: not an LL/LLSnoop".into()),
        }
    }

    /// The target slot `up-target`, `down-target`, `target` or
    /// `drop-target` names on LAN object `id`.
    fn lan_slot(&mut self, id: ObjId, which: &str) -> Option<&mut ObjId> {
        let Some(Obj::Lan(p)) = self.objs.get_mut(id as usize) else { return None };
        match (&mut **p, which) {
            (Part::Ll(l), "up-target") => Some(&mut l.up_target),
            (Part::Ll(l), "down-target") => Some(&mut l.down_target),
            (Part::Ll(l), "drop-target") => Some(&mut l.drop_target),
            (Part::Mac(m), "up-target" | "target") => Some(&mut m.up_target),
            (Part::Mac(m), "down-target") => Some(&mut m.down_target),
            (Part::Mac(m), "drop-target") => Some(&mut m.drop_target),
            (Part::Phy(x), "up-target" | "target") => Some(&mut x.up_target),
            (Part::Iface { target, .. }, "target") => Some(target),
            _ => None,
        }
    }

    /// `$obj cmd args` on a LAN object.
    pub(crate) fn lan_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let cmd = argv[0];
        let n = argv.len();
        if matches!(cmd, "up-target" | "down-target" | "target" | "drop-target") && self.lan_slot(id, cmd).is_some() {
            if n == 1 {
                let t = *self.lan_slot(id, cmd).unwrap();
                return Ok(self.name(t).to_string());
            }
            let t = self.obj_arg(argv[1])?;
            *self.lan_slot(id, cmd).unwrap() = t;
            return Ok(String::new());
        }
        if cmd == "snoop-params" {
            return self.snoop_params(id, &argv[1..]);
        }
        let arg = if n == 2 { Some(self.obj_arg(argv[1])) } else { None };
        let Obj::Lan(p) = &self.objs[id as usize] else { unreachable!() };
        let kind: &Part = p;
        match (kind, cmd, arg) {
            (Part::Ll(_), "mac", Some(m)) => {
                let m = m?;
                let addr = match self.lan_part(m) {
                    Some(Part::Mac(x)) => x.addr,
                    _ => return Err(format!("LL mac: {} is not a wired LAN's MAC", argv[1])),
                };
                if let Some(Part::Ll(l)) = self.lan_part(id) {
                    l.mac_addr = addr;
                }
                Ok(String::new())
            }
            (Part::Ll(_), "varp", Some(v)) => {
                let v = v?;
                if !matches!(self.lan_part(v), Some(Part::Varp(_))) {
                    return Err(format!("LL varp: {} is not a VARPTable", argv[1]));
                }
                if let Some(Part::Ll(l)) = self.lan_part(id) {
                    l.varp = v;
                }
                Ok(String::new())
            }
            (Part::Ll(_), "lanrouter", Some(r)) => {
                let r = r?;
                if !matches!(self.lan_part(r), Some(Part::Router(_))) {
                    return Err(format!("LL lanrouter: {} is not a LanRouter", argv[1]));
                }
                if let Some(Part::Ll(l)) = self.lan_part(id) {
                    l.router = r;
                }
                Ok(String::new())
            }
            // the interface queue: ll.cc keeps it for nothing a wired LAN uses
            (Part::Ll(_), "ifq", Some(q)) => {
                let q = q?;
                if let Some(Part::Ll(l)) = self.lan_part(id) {
                    l.ifq = q;
                }
                Ok(String::new())
            }
            (Part::Ll(_), "arptable", _) => Err("LL arptable (ARP on a wired LAN) is not supported by Dumbbell yet".into()),
            (Part::Mac(_), "netif", Some(phy)) => {
                let phy = phy?;
                if !matches!(self.lan_part(phy), Some(Part::Phy(_))) {
                    return Err(format!("Mac netif: {} is not a Phy/WiredPhy", argv[1]));
                }
                if let Some(Part::Mac(m)) = self.lan_part(id) {
                    m.phy = phy;
                }
                Ok(String::new())
            }
            (Part::Mac(m), "id", None) => Ok(m.addr.to_string()),
            (Part::Phy(_), "node", Some(node)) => {
                let node = node?;
                let nid = match &self.objs[node as usize] {
                    Obj::Node(x) => x.id,
                    _ => return Err(format!("Phy node: {} is not a node", argv[1])),
                };
                if let Some(Part::Phy(x)) = self.lan_part(id) {
                    x.node = nid;
                }
                Ok(String::new())
            }
            (Part::Phy(_), "channel", Some(c)) => {
                let c = c?;
                if !matches!(self.lan_part(c), Some(Part::Channel(_))) {
                    return Err(format!("Phy channel: {} is not a Channel", argv[1]));
                }
                if let Some(Part::Phy(x)) = self.lan_part(id) {
                    x.channel = c;
                }
                Ok(String::new())
            }
            (Part::Channel(_), "addif", Some(phy)) => {
                let phy = phy?;
                match self.lan_part(phy) {
                    Some(Part::Phy(x)) => x.channel = id,
                    _ => return Err(format!("Channel addif: {} is not a Phy/WiredPhy", argv[1])),
                }
                if let Some(Part::Channel(c)) = self.lan_part(id) {
                    c.add(phy);
                }
                Ok(String::new())
            }
            (Part::Router(_), "routing", _) if n == 2 => match argv[1] {
                // (hierarchical routes are the LAN node's own, in the
                // world's routing: the same lookup)
                "flat" | "hier" => Ok(String::new()),
                other => Err(format!("LanRouter routing: expected flat or hier, got \"{other}\"")),
            },
            (Part::Router(_), "lanaddr", _) if n == 2 => {
                let a = parse_int(argv[1]);
                if let Some(Part::Router(r)) = self.lan_part(id) {
                    r.lan = a;
                }
                self.w.routing.add_node(a);
                Ok(String::new())
            }
            // (the route logic is the world's; the switch serves multicast)
            (Part::Router(_), "routelogic", Some(_)) => Ok(String::new()),
            (Part::Router(_), "switch", _) => Err("multicast on a LAN is not supported by Dumbbell yet".into()),
            (Part::Varp(_), "mac-addr", _) if n == 3 => {
                let (node, mac) = (parse_int(argv[1]), parse_int(argv[2]));
                if let Some(Part::Varp(v)) = self.lan_part(id) {
                    v.insert(node, mac);
                }
                Ok(String::new())
            }
            (Part::Iface { label, .. }, "label", None) => Ok(label.to_string()),
            (Part::Iface { .. }, "label", Some(_)) => {
                let v = parse_int(argv[1]);
                if let Some(Part::Iface { label, .. }) = self.lan_part(id) {
                    *label = v;
                }
                Ok(String::new())
            }
            (Part::Replicator(_), "installNext", Some(o)) => {
                let o = o?;
                let Some(Part::Replicator(r)) = self.lan_part(id) else { unreachable!() };
                r.slots.push(o);
                Ok((r.slots.len() - 1).to_string())
            }
            (Part::Replicator(r), "slots", None) => {
                Ok(r.slots.iter().map(|&s| self.name(s).to_string()).collect::<Vec<_>>().join(" "))
            }
            (_, "reset", _) => Ok(String::new()),
            _ => Err(format!("unknown command \"{cmd}\"")),
        }
    }
}
