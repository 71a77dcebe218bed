//! ns-2's Bay two-way TCP (baytcp/tcp-full-bay.cc `BayFullTcpAgent`) and
//! the file-fetch applications it calls back (baytcp/ftpc.cc, ftps.cc:
//! `Agent/BayTcpApp/FtpClient` and `FtpServer`): the variables the TCP
//! binds on top of TcpAgent's, with ns-default.tcl's defaults, the
//! objects, and their commands.

use crate::agent::{Agent, AgentBase, AgentKind};
use crate::fetch::Fetch;
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::packet::PacketType;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::tcp::bay::{Bay, BayState};
use crate::tcp::{Flavor, Tcp};

fn bay(o: &mut Obj) -> Option<&mut BayState> {
    match agent_parts(o)? {
        (_, AgentKind::Tcp(t)) => match &mut t.flavor {
            Flavor::Bay(f) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// `BayFullTcpAgent`'s, and the class variables ns-default.tcl gives it
/// that its C++ never binds.
pub static BAYFULLTCP: Table<BayState> = Table {
    class: "Agent/TCP/BayFullTcp",
    part: bay,
    vars: &[
        var("segsperack_", Int, "1", |f, _| int(f.segs_per_ack), |f, v, _| Ok(f.segs_per_ack = parse_int(v))),
        within(var("segsize_", Int, "536", |f, _| int(f.maxseg), |f, v, _| Ok(f.maxseg = parse_int(v))),
            Range::PositiveBytes, "the segment size: windows count in segments of it, and ns-2 divides by it (0: a floating-point exception)"),
        var("tcprexmtthresh_", Int, "3", |f, _| int(f.tcprexmtthresh), |f, v, _| Ok(f.tcprexmtthresh = parse_int(v))),
        var("iss_", Int, "0", |f, _| int(f.iss), |f, v, _| Ok(f.iss = parse_int(v))),
        var("nodelay_", Bool, "false", |f, _| boolean(f.nodelay), |f, v, _| Ok(f.nodelay = parse_bool(v))),
        var("data_on_syn_", Bool, "false", |f, _| boolean(f.data_on_syn), |f, v, _| Ok(f.data_on_syn = parse_bool(v))),
        var("dupseg_fix_", Bool, "true", |f, _| boolean(f.dupseg_fix), |f, v, _| Ok(f.dupseg_fix = parse_bool(v))),
        var("dupack_reset_", Bool, "false", |f, _| boolean(f.dupack_reset), |f, v, _| Ok(f.dupack_reset = parse_bool(v))),
        within(var("interval_", Time, "0.1", |f, _| real(f.delack_interval), |f, v, _| Ok(f.delack_interval = parse_time(v))),
            Range::PositiveTime, "the delayed-ACK timer's period: the timer is set to its next multiple (0 divides by zero, and the timer would re-arm itself without time passing)"),
        script_var("close_on_empty_", "false"),
        script_var("reno_fastrecov_", "true"),
        script_var("pipectrl_", "false"),
        script_var("open_cwnd_on_pack_", "true"),
        script_var("halfclose_", "false"),
    ],
    after_set: None,
};

/// A Bay TCP agent with id `id`.
pub fn make_bay(sim: &mut Sim, id: ObjId) -> Obj {
    let state = BayState::new(sim, id);
    let t = Tcp::new(Flavor::Bay(Box::new(state)), sim, id);
    let mut base = AgentBase::new(id, PacketType::Tcp);
    base.size = 1000;
    Obj::Agent(Box::new(Agent { base, kind: AgentKind::Tcp(Box::new(t)) }))
}

/// Is agent `o` a Bay TCP agent?
pub fn is_bay(o: &Obj) -> bool {
    match o {
        Obj::Agent(a) => matches!(&a.kind, AgentKind::Tcp(t) if matches!(t.flavor, Flavor::Bay(_))),
        _ => false,
    }
}

/// `BayFullTcpAgent::command`'s own commands (`listen`, `close`, `advance
/// N`, `attach-application APP`, `initial-window N`); `None` for the
/// others, which are TcpAgent's.
pub fn command(t: &mut Tcp, b: &mut AgentBase, sim: &mut Sim, argv: &[&str]) -> Option<Result<String, String>> {
    let Tcp { flavor, sender } = t;
    let Flavor::Bay(f) = flavor else { return None };
    match argv {
        ["attach-application", app] => {
            return Some(match sim.lookup(app) {
                Some(id) if matches!(&sim.objs[id as usize], Obj::Agent(a) if matches!(a.kind, AgentKind::Fetch(_))) => {
                    f.app = id;
                    Ok(String::new())
                }
                Some(_) => Err(format!(
                    "attach-application {app}: not a Bay TCP application (Agent/BayTcpApp/FtpClient or FtpServer)"
                )),
                None => Err(format!("no such agent {app}")),
            });
        }
        _ => {}
    }
    let mut bay = Bay { t: sender, f, b };
    match argv {
        ["listen"] => bay.listen(),
        ["close"] => bay.usrclosed(sim),
        ["advance", n] => bay.advance(sim, crate::ns2::tclcl::atoi(n)),
        ["initial-window", n] => bay.initial_window(sim, crate::ns2::tclcl::atoi(n)),
        _ => return None,
    }
    Some(Ok(String::new()))
}

/// `Agent/BayTcpApp/FtpClient`.
pub fn make_fetch_client(sim: &mut Sim, id: ObjId) -> Obj {
    let f = Fetch::client(sim, id);
    Obj::Agent(Box::new(Agent { base: AgentBase::new(id, PacketType::Udp), kind: AgentKind::Fetch(Box::new(f)) }))
}

/// `Agent/BayTcpApp/FtpServer`.
pub fn make_fetch_server(_: &mut Sim, id: ObjId) -> Obj {
    Obj::Agent(Box::new(Agent { base: AgentBase::new(id, PacketType::Udp), kind: AgentKind::Fetch(Box::new(Fetch::server())) }))
}

/// The fetch agents' commands: a client's `start`, `stop` and `tcp TCP`,
/// a server's `file_size BYTES`; `None` for the others (Agent's).
pub fn fetch_command(f: &mut Fetch, sim: &mut Sim, argv: &[&str]) -> Option<Result<String, String>> {
    let r = match (f, argv) {
        (Fetch::Client(c), ["start"]) => {
            c.start(sim);
            Ok(String::new())
        }
        (Fetch::Client(c), ["stop"]) => {
            c.stop();
            Ok(String::new())
        }
        (Fetch::Client(c), ["tcp", tcp]) => match sim.lookup(tcp) {
            Some(id) if crate::fetch::is_bay_tcp(sim, id) => {
                c.tcp = id;
                Ok(String::new())
            }
            Some(_) => Err(format!("tcp {tcp}: not an Agent/TCP/BayFullTcp (the client sends its requests on one)")),
            None => Err(format!("no such agent {tcp}")),
        },
        (Fetch::Server(s), ["file_size", n]) => {
            s.file_size = crate::ns2::tclcl::atoi(n);
            Ok(String::new())
        }
        _ => return None,
    };
    Some(r)
}
