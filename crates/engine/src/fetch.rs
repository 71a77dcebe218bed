//! A file-fetch client and server over the Bay two-way TCP (`tcp/bay.rs`),
//! as ns-2 2.35's baytcp/ftpc.cc and ftps.cc model them: the client asks
//! for a file with an 80-byte request when started, and again once the
//! connection has closed (or five seconds after the last of a response
//! arrived); the server answers each request with its file size in bytes
//! and a close once it is sent.
//!
//! Both are agents without a node: the TCP calls them back from its
//! `recv` (`upcall`), and the client's timer calls into its TCP.

use crate::agent::{AgentBase, AgentKind};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};
use crate::tcp::bay::Upcall;
use crate::tcp::{Flavor, Tcp};

/// The client's one timer: ask for the next file.
pub const TIMER_NEW_FILE: u8 = 0;

/// The client's request size, bytes.
const REQUEST_BYTES: i32 = 80;

/// Where the client is in its exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientState {
    RequestSent,
    DataReceived,
    EndReceived,
}

#[derive(Clone, Debug)]
pub struct Client {
    pub running: bool,
    pub state: Option<ClientState>,
    /// When the last request went out.
    pub start_trans: f64,
    /// The TCP it sends its requests on.
    pub tcp: ObjId,
    pub timer: u32,
}

#[derive(Clone, Debug)]
pub struct Server {
    /// Bytes sent in answer to each request.
    pub file_size: i32,
}

/// A fetch agent.
#[derive(Clone, Debug)]
pub enum Fetch {
    Client(Client),
    Server(Server),
}

impl Fetch {
    pub fn client(sim: &mut Sim, owner: ObjId) -> Fetch {
        Fetch::Client(Client { running: false, state: None, start_trans: 0.0, tcp: NONE, timer: sim.w.s.new_timer(owner, TIMER_NEW_FILE) })
    }

    pub fn server() -> Fetch {
        // (ns-2's "for ever" default)
        Fetch::Server(Server { file_size: 0x10000000 })
    }

    /// The client's timer: send a request on its TCP.
    pub fn timeout(&mut self, _b: &AgentBase, sim: &mut Sim) {
        let Fetch::Client(c) = self else { return };
        if !c.running {
            return;
        }
        if send_request(sim, c.tcp) {
            c.state = Some(ClientState::RequestSent);
            c.start_trans = sim.w.s.now;
        } else {
            sim.w.c_stdout.extend_from_slice(b"ftpclient:timeout erroneous tcp state\n");
        }
    }
}

impl Client {
    /// `start`: ask for a file now.
    pub fn start(&mut self, sim: &mut Sim) {
        self.running = true;
        sim.w.s.timer_resched(self.timer, 0.0);
    }

    pub fn stop(&mut self) {
        self.running = false;
    }
}

/// Is `id` a Bay TCP agent (one a client can send on)?
pub fn is_bay_tcp(sim: &Sim, id: ObjId) -> bool {
    matches!(sim.objs.get(id as usize), Some(Obj::Agent(a)) if matches!(&a.kind, AgentKind::Tcp(t) if matches!(t.flavor, Flavor::Bay(_))))
}

/// The request: 80 bytes on TCP `tcp`, no close; false if the TCP cannot
/// take it now (opening or closing).
fn send_request(sim: &mut Sim, tcp: ObjId) -> bool {
    if !is_bay_tcp(sim, tcp) {
        return false;
    }
    let mut o = sim.take(tcp);
    let mut ok = false;
    if let Obj::Agent(a) = &mut o {
        let crate::agent::Agent { base, kind } = &mut **a;
        if let AgentKind::Tcp(t) = kind {
            let Tcp { flavor, sender } = &mut **t;
            if let Flavor::Bay(f) = flavor {
                ok = crate::tcp::bay::Bay { t: sender, f, b: base }.advance_bytes(sim, REQUEST_BYTES, false);
            }
        }
    }
    sim.put(tcp, o);
    ok
}

/// A Bay TCP calls its application `app` back.  A client rearms its timer
/// (a response's end: in five seconds; the connection's end: now); a
/// server returns the bytes to send in answer (with a close), which the
/// TCP, still in its `recv`, takes at once.
pub fn upcall(sim: &mut Sim, app: ObjId, what: Upcall) -> Option<i32> {
    let Some(Obj::Agent(a)) = sim.objs.get_mut(app as usize) else { return None };
    let AgentKind::Fetch(f) = &mut a.kind else { return None };
    match &mut **f {
        Fetch::Server(s) => (what == Upcall::DataPush).then_some(s.file_size),
        Fetch::Client(c) => {
            if c.running {
                let sched = &mut sim.w.s;
                match what {
                    Upcall::DataPush => {
                        c.state = Some(ClientState::DataReceived);
                        sched.timer_resched(c.timer, 5.0);
                    }
                    Upcall::ConnectionEnd => {
                        c.state = Some(ClientState::EndReceived);
                        if sched.timer_status(c.timer) != crate::sched::TimerStatus::Pending {
                            sim.w.abort(crate::notice::Abort::IdleTimerCancelled { agent: app });
                            return None;
                        }
                        sched.timer_cancel(c.timer);
                        sched.timer_resched(c.timer, 0.0);
                    }
                }
            }
            None
        }
    }
}
