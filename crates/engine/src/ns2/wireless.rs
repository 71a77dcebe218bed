//! The wireless objects' commands (`$topo load_flatgrid`, `$god num_nodes`,
//! a mobile node's `setdest`, `log-movement`, ...) and the lines ns-2
//! writes for a node's movement: the trace's `M` line
//! (MobileNode::log_movement) and nam's `n ... -U -V -T` record
//! (MobileNode::set_destination), in ns-2 2.35's formats.

use crate::ns2::printf::{push_f, push_int};
use crate::ns2::tclcl::{atoi, fmt_int};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::rng::SeedSource;
use crate::wireless::propagation::Model;
use crate::wireless::{Move, Part};
use crate::wireless::dup::Warning;

/// The most nodes `create-god` (`$god num_nodes N`) takes: GOD's hop
/// table has N x N entries.
pub const MAX_GOD_NODES: i64 = 8192;

/// A number a command takes, which must be one (ns-2 reads it with `atof`,
/// so "abc" would silently be 0).
fn number(cmd: &str, what: &str, v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("{cmd}: {what} must be a number, got \"{v}\"")),
    }
}

fn integer(cmd: &str, what: &str, v: &str) -> Result<i32, String> {
    match v.trim().parse::<i64>() {
        Ok(x) if x >= i32::MIN as i64 && x <= i32::MAX as i64 => Ok(x as i32),
        _ => Err(format!("{cmd}: {what} must be an integer, got \"{v}\"")),
    }
}

impl Sim {
    /// Commands of `Topography`, `God` and the radio stack's objects.
    pub(super) fn wireless_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let cmd = argv[0];
        let n = argv.len();
        let Obj::Wireless(part) = &mut self.objs[id as usize] else { unreachable!() };
        match part {
            Part::Area(grid) => match cmd {
                // (ns-2 reads the sizes with atoi; they must be integers.)
                "load_flatgrid" if n == 3 || n == 4 => {
                    let x = integer(cmd, "the width", argv[1])?;
                    let y = integer(cmd, "the height", argv[2])?;
                    let res = if n == 4 { integer(cmd, "the resolution", argv[3])? } else { 1 };
                    if x <= 0 || y <= 0 || res <= 0 {
                        return Err(format!("load_flatgrid: the width, height and resolution must be above 0, got {x} {y} {res}"));
                    }
                    *grid = crate::wireless::FlatGrid::new(x, y, res);
                    Ok(String::new())
                }
                "load_flatgrid" => Err("load_flatgrid: expected a width and a height in metres, and optionally a resolution".into()),
                "load_demfile" => Err("Topography load_demfile (terrain from a DEM file) is not supported by Dumbbell yet".into()),
                // The channel the area tells of nodes' moves: kept with the
                // channel model (not built yet).
                "channel" if n == 2 => Ok(String::new()),
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Part::Observer { nodes, hops } => match cmd {
                // god.cc: "num_nodes is set N" with printf, once.
                "num_nodes" if n == 2 => {
                    if *nodes != 0 {
                        return Err(format!("God num_nodes: already set to {nodes} (ns-2 allows it once)"));
                    }
                    let k = integer("God num_nodes", "the number of nodes", argv[1])?;
                    if k <= 0 {
                        return Err(format!("God num_nodes: the number of nodes must be above 0, got {k}"));
                    }
                    // god.cc keeps a table of N x N hop counts (`new
                    // int[num_nodes * num_nodes]`): 256 MB at 8192 nodes;
                    // past 46340 its int product overflows and ns-2 dies
                    // (found by the fuzzer: 2147483647 was an engine panic)
                    if i64::from(k) > MAX_GOD_NODES {
                        return Err(format!("God num_nodes {k}: at most {MAX_GOD_NODES} nodes (GOD keeps a table of N x N hop counts)"));
                    }
                    *nodes = k as u32;
                    *hops = vec![0; (k as usize) * (k as usize)];
                    self.w.c_stdout.extend_from_slice(format!("num_nodes is set {k}\n").as_bytes());
                    Ok(String::new())
                }
                "num_nodes" if n == 1 => Ok(nodes.to_string()),
                // A movement scenario's hop counts (16777215: unreachable).
                // (ns-2 recomputes its own instead once GOD is turned `on`,
                // which nothing here does yet.)
                "set-dist" if n == 4 => {
                    let k = *nodes as i64;
                    let i = integer("God set-dist", "the first node", argv[1])?;
                    let j = integer("God set-dist", "the second node", argv[2])?;
                    let d = integer("God set-dist", "the distance", argv[3])?;
                    if !(0..k).contains(&(i as i64)) || !(0..k).contains(&(j as i64)) {
                        return Err(format!("God set-dist: nodes {i} and {j}: GOD knows nodes 0 to {} (create-god)", k - 1));
                    }
                    let k = k as usize;
                    hops[i as usize * k + j as usize] = d;
                    hops[j as usize * k + i as usize] = d;
                    Ok(String::new())
                }
                // The nodes GOD knows of, and their routes: nothing reads
                // them until the routing protocols are built.
                "new_node" if n == 2 => Ok(String::new()),
                // god.cc's `active`, off from the start: what it switches
                // on (GOD's own routes for the diffusion agents, its
                // shortest-path tables) is not modelled, so `on` is refused.
                "off" if n == 1 => Ok(String::new()),
                "on" if n == 1 => Err("God on: GOD's own route computation is not supported by Dumbbell yet (docs/wireless.md)".into()),
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Part::Propagation(model) => match (cmd, &*model) {
                // The model's own RNG (shadowing.cc): `seed raw N`, `seed
                // predef I` (one of the 64 predefined seeds), `seed
                // heuristic` (from the clock).
                ("seed", Model::Shadowing(sh)) if n == 3 => {
                    let stream = sh.stream as usize;
                    let source = match argv[1] {
                        "raw" => SeedSource::Raw,
                        "predef" => SeedSource::Predef,
                        "heuristic" => SeedSource::Heuristic,
                        other => return Err(format!("Propagation/Shadowing seed {other}: expected raw, predef or heuristic")),
                    };
                    let k = if source == SeedSource::Heuristic { 0 } else { integer("Propagation/Shadowing seed", "the seed", argv[2])? };
                    let rng = &mut self.w.rng;
                    rng.streams[stream]
                        .set_seed(&mut rng.package, source, k)
                        .map_err(|e| format!("Propagation/Shadowing seed {} {}: {e}", argv[1], argv[2]))?;
                    Ok(String::new())
                }
                ("seed", Model::Shadowing(_)) => Err("Propagation/Shadowing seed: expected raw N, predef I (0 to 63) or heuristic 0".into()),
                // (propagation.cc keeps it for the terrain models, which
                // are not built)
                ("topography", _) if n == 2 => match self.obj_arg(argv[1]) {
                    Ok(t) if matches!(self.objs[t as usize], Obj::Wireless(Part::Area(_))) => Ok(String::new()),
                    Ok(_) => Err(format!("{} topography: {} is not a Topography", self.name(id), argv[1])),
                    Err(e) => Err(e),
                },
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Part::Inert | Part::Channel(_) | Part::Router { .. } | Part::Entry { .. } => Err(format!(
                "{} {cmd}: this part of the wireless stack is not supported by Dumbbell yet (docs/wireless.md)",
                self.name(id)
            )),
        }
    }

    /// Commands of a mobile node beyond a node's (`None` if `argv` is none
    /// of them or the node is not mobile).
    pub(super) fn mobile_command(&mut self, id: ObjId, argv: &[&str]) -> Option<Result<String, String>> {
        if argv[0] == "wireless-join" {
            return Some(self.wireless_join_command(id, argv));
        }
        if argv[0] == "wireless-base-station" && argv.len() == 2 {
            // (`$node base-station A`: A is the packed address, as
            // `AddrParams addr2id` gives it)
            let a = atoi(argv[1]);
            return Some(self.wireless_base_station(id, a).map(|_| String::new()));
        }
        if argv[0] == "wireless-mac" {
            return Some(self.wireless_mac_command(id, argv));
        }
        if argv[0] == "wireless-grid-add" || argv[0] == "wireless-radius" {
            return Some(self.wireless_grid_command(id, argv));
        }
        if argv[0] == "wireless-reset" && argv.len() == 1 {
            self.wireless_reset(id);
            return Some(Ok(String::new()));
        }
        self.wireless_touch(id);
        let Obj::Node(node) = &mut self.objs[id as usize] else { return None };
        let addr = node.addr;
        let nodeid = node.id;
        let m = node.mobile.as_deref_mut()?;
        let cmd = argv[0];
        let n = argv.len();
        let now = self.w.now();
        Some(match cmd {
            "topography" if n == 2 => match self.obj_arg(argv[1]) {
                Ok(t) if matches!(self.objs[t as usize], Obj::Wireless(Part::Area(_))) => {
                    if let Obj::Node(node) = &mut self.objs[id as usize] {
                        node.mobile.as_deref_mut().unwrap().area = Some(t);
                    }
                    Ok(String::new())
                }
                Ok(_) => Err(format!("topography: {} is not a Topography", argv[1])),
                Err(e) => Err(e),
            },
            // The trace channel its movements are logged on (ns-2 gives it a
            // Trace/Generic attached to the trace-all file), and nam's.
            "log-channel" if n == 2 => {
                m.log = Some(self.w.out.channel(argv[1]));
                Ok(String::new())
            }
            "namattach" if n == 2 => {
                m.nam = Some(self.w.out.channel(argv[1]));
                Ok(String::new())
            }
            "setdest" if n == 4 => {
                let x = match number("setdest", "the destination's X", argv[1]) {
                    Ok(v) => v,
                    Err(e) => return Some(Err(e)),
                };
                let y = match number("setdest", "the destination's Y", argv[2]) {
                    Ok(v) => v,
                    Err(e) => return Some(Err(e)),
                };
                let speed = match number("setdest", "the speed", argv[3]) {
                    Ok(v) => v,
                    Err(e) => return Some(Err(e)),
                };
                let Some(area) = m.area else {
                    return Some(Err("setdest: the node has no topography (node-config -topoInstance)".into()));
                };
                let Obj::Wireless(Part::Area(grid)) = &self.objs[area as usize] else {
                    return Some(Err("setdest: the node's topography was deleted".into()));
                };
                let grid = *grid;
                let Obj::Node(node) = &mut self.objs[id as usize] else { unreachable!() };
                let m = node.mobile.as_deref_mut().unwrap();
                match m.pos.set_destination(now, x, y, speed, &grid) {
                    Ok(mv) => {
                        self.log_movement(id, addr);
                        self.nam_movement(id, nodeid, mv);
                        Ok(String::new())
                    }
                    Err(e) => Err(format!(
                        "setdest: destination ({}, {}) is not inside the topography, (0, 0) to ({}, {}) exclusive; ns-2 refuses it too",
                        argv[1], argv[2], fmt_int(e.upper_x as i64), fmt_int(e.upper_y as i64)
                    )),
                }
            }
            "setdest" => Err("setdest: expected X Y SPEED".into()),
            "log-movement" if n == 1 => {
                m.pos.update(now);
                self.log_movement(id, addr);
                Ok(String::new())
            }
            // Without random motion, starting a node logs where it is.
            "start" if n == 1 => {
                self.log_movement(id, addr);
                Ok(String::new())
            }
            "random-motion" if n == 2 => {
                if atoi(argv[1]) != 0 {
                    Err("random-motion (nodes moving at random) is not supported by Dumbbell yet; give movements with setdest".into())
                } else {
                    Ok(String::new())
                }
            }
            _ => return None,
        })
    }

    /// A grid keeper's commands on the node (python/dumbbell/ns2/lib/
    /// wireless.tcl's GridKeeper): `wireless-grid-add DIMX DIMY` (the
    /// keeper holds it: its channel then reaches through the keeper) and
    /// `wireless-radius R` (ns-2's `$node radius R`).
    fn wireless_grid_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let Obj::Node(node) = &self.objs[id as usize] else { return Err(format!("{}: not a node", argv[0])) };
        let Some((chan, slot)) = node.mobile.as_deref().and_then(|m| m.net) else {
            return Err(match argv[0] {
                "wireless-radius" => "$node radius: the node has no interface yet (give it the radius after $ns node or add-interface)".into(),
                _ => "GridKeeper addnode: the node has no interface yet (add it after $ns node or add-interface)".into(),
            });
        };
        let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] else {
            return Err(format!("{}: the node's channel was deleted", argv[0]));
        };
        let slot = slot as usize;
        match (argv[0], argv.len()) {
            ("wireless-radius", 2) => {
                let r = number("$node radius", "the radius (metres)", argv[1])?;
                if !r.is_finite() || r < 0.0 {
                    return Err(format!("$node radius {}: expected a radius of 0 metres or more", argv[1]));
                }
                n.core.air.radius[slot] = r;
            }
            ("wireless-grid-add", 3) => {
                let (dx, dy) = (atoi(argv[1]), atoi(argv[2]));
                let k = n.core.air.keeper.get_or_insert_with(|| crate::wireless::medium::Keeper { dim_x: dx, dim_y: dy, members: Vec::new() });
                if !k.members.contains(&slot) {
                    k.members.push(slot);
                }
            }
            _ => return Err(format!("{}: wrong number of arguments", argv[0])),
        }
        Ok(String::new())
    }

    /// "M %.5f %d (%.2f, %.2f, %.2f), (%.2f, %.2f), %.2f" on the node's log
    /// channel, if it has one.
    fn log_movement(&mut self, id: ObjId, addr: i32) {
        let now = self.w.now();
        let Obj::Node(node) = &self.objs[id as usize] else { return };
        let Some(m) = node.mobile.as_deref() else { return };
        let Some(ch) = m.log else { return };
        let p = m.pos.clone();
        // (ns-2 prints the node's address: the packed number when
        // addresses are hierarchical)
        let addr = self.w.routing.addr_out(addr);
        self.w.out.append(ch, |b| {
            b.extend_from_slice(b"M ");
            push_f(b, now, 5, 0, false);
            b.push(b' ');
            push_int(b, addr as i64, 0, false);
            b.extend_from_slice(b" (");
            push_f(b, p.x, 2, 0, false);
            b.extend_from_slice(b", ");
            push_f(b, p.y, 2, 0, false);
            b.extend_from_slice(b", ");
            push_f(b, p.z, 2, 0, false);
            b.extend_from_slice(b"), (");
            push_f(b, p.dest_x, 2, 0, false);
            b.extend_from_slice(b", ");
            push_f(b, p.dest_y, 2, 0, false);
            b.extend_from_slice(b"), ");
            push_f(b, p.speed, 2, 0, false);
            b.push(b'\n');
        });
    }

    /// "n -t %f -s %d -x %f -y %f -U %f -V %f -T %f" on nam's channel, if any.
    fn nam_movement(&mut self, id: ObjId, nodeid: i32, mv: Move) {
        let now = self.w.now();
        let Obj::Node(node) = &self.objs[id as usize] else { return };
        let Some(m) = node.mobile.as_deref() else { return };
        let Some(ch) = m.nam else { return };
        let p = m.pos.clone();
        self.w.out.append(ch, |b| {
            b.extend_from_slice(b"n -t ");
            push_f(b, now, 6, 0, false);
            b.extend_from_slice(b" -s ");
            push_int(b, nodeid as i64, 0, false);
            b.extend_from_slice(b" -x ");
            push_f(b, p.x, 6, 0, false);
            b.extend_from_slice(b" -y ");
            push_f(b, p.y, 6, 0, false);
            b.extend_from_slice(b" -U ");
            push_f(b, p.speed * p.dir_x, 6, 0, false);
            b.extend_from_slice(b" -V ");
            push_f(b, p.speed * p.dir_y, 6, 0, false);
            b.extend_from_slice(b" -T ");
            push_f(b, mv.duration(), 6, 0, false);
            b.push(b'\n');
        });
    }
}

/// What ns-2's channel prints on stdout (C stdio) at the first
/// transmission: the highest antenna of the channel and the carrier-sense
/// distance it computed.
pub fn carrier_sense_notice(highest_antenna: f64, distance: f64) -> String {
    let mut b = Vec::new();
    b.extend_from_slice(b"channel.cc:sendUp - Calc highestAntennaZ_ and distCST_\nhighestAntennaZ_ = ");
    push_f(&mut b, highest_antenna, 1, 0, false);
    b.extend_from_slice(b",  distCST_ = ");
    push_f(&mut b, distance, 1, 0, false);
    b.push(b'\n');
    String::from_utf8(b).unwrap()
}

/// What ns-2's 802.11 MAC prints on stdout (C stdio) for a unicast frame
/// from MAC `src` to `dst` when its duplicate memory has `nodes` places
/// (GOD's count) and `src` has none.
pub fn unknown_sender_warning(w: Warning, src: u32, dst: u32, nodes: u32) -> String {
    let line = || format!("MAC_802_11: accessing MAC cache_ array out of range (src {}, dst {}, size {})!\n", src, dst, nodes);
    match w {
        Warning::Warn => line(),
        Warning::Last => line() + "[suppressing additional MAC cache_ warnings]\n",
        Warning::Silent => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wireless::phy::{Antenna, Radio};
    use crate::wireless::propagation::Model;

    /// The stdout ns-2 wrote for seed 002's script (tests/wireless/seed):
    /// GOD's line, then the channel's at the first transmission, from the
    /// default radio and antenna with two-ray ground.
    #[test]
    fn the_channel_notice_of_seed_002s_run() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/wireless/seed/aodv/stdout");
        let want = std::fs::read_to_string(path).unwrap();
        let z = Antenna::default().z;
        let d = Radio::default().carrier_sense_range(&Model::two_ray_ground(), z);
        assert_eq!(format!("num_nodes is set 6\n{}", carrier_sense_notice(z, d)), want);
    }

    /// ns-2's stdout for tests/wireless/unknown_sender (GOD told of one
    /// node; 18 CBR frames from node 1 reach node 0's MAC).
    #[test]
    fn the_unknown_sender_warnings_are_ns2s() {
        use crate::wireless::dup::{Heard, Seen, UnknownSenderWarnings};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/wireless/unknown_sender/stdout");
        let ns2 = std::fs::read_to_string(path).unwrap();
        let want: String = ns2
            .lines()
            .filter(|l| l.starts_with("MAC_802_11") || l.starts_with("[suppressing"))
            .map(|l| format!("{}\n", l))
            .collect();
        let mut seen = Seen::new(1);
        let mut w = UnknownSenderWarnings::default();
        let mut got = String::new();
        for _ in 0..18 {
            assert_eq!(seen.hear(1, 1), Heard::Unknown);
            got.push_str(&unknown_sender_warning(w.note(), 1, 0, 1));
        }
        assert_eq!(got.lines().count(), 11);
        assert_eq!(got, want);
    }
}
