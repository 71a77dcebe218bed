//! Engine objects as the ns-2 library sees them: made by ns-2 class name
//! (through the registry), given their class defaults, their bound
//! variables read and written by name.  Their commands are in commands.rs.

use crate::agent::AgentKind;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};
use crate::ns2::tclcl::VarType;

/// Does ns-2 bind `var` of an agent of this kind through tclcl's delay
/// binding (`delay_bind_dispatch`)?  Tracing such a variable that is not a
/// TracedVar makes ns-2 abort (exit 1); tracing one bound the ordinary way
/// (`bind`, e.g. NewReno's and Sack1's own switches, a sink's `bytes_`, a
/// UDP agent's `packetSize_`) is an error a script can catch.  ns-2.35 is
/// built with `TCP_DELAY_BIND_ALL`, so every TcpAgent variable is delay-bound
/// (but NewReno's and Sack1's own).
pub(super) fn delay_bound(class: &crate::ns2::registry::Class, kind: &AgentKind, var: &str) -> bool {
    use crate::ns2::class::{agent, tcp};
    let in_table = |t: &dyn crate::ns2::bind::Bindings| {
        let mut found = false;
        t.each(&mut |n, _, _, bound| found |= bound && n == var);
        found
    };
    if in_table(&agent::AGENT) {
        return true;
    }
    match kind {
        AgentKind::Tcp(_) => {
            in_table(&tcp::TCP)
                || in_table(&tcp::TCP_TRACED)
                || (class.name == "Agent/TCP/Vegas" && in_table(&tcp::VEGAS))
                || (class.name == "Agent/TCP/RFC793edu" && in_table(&tcp::RFC793EDU))
        }
        AgentKind::Sink(_) => tcp::SINK_DELAY_BOUND.contains(&var),
        _ => false,
    }
}

/// Engine classes, by the ns-2 name a script uses with `new`.
pub fn kinds() -> Vec<&'static str> {
    crate::ns2::registry::CLASSES.iter().map(|c| c.name).collect()
}

/// Bound variables of an engine class.
pub fn bound_vars(kind: &str) -> Option<Vec<(&'static str, VarType)>> {
    crate::ns2::registry::find(kind).map(|(_, c)| c.bound())
}

/// Type of a bound variable of `kind`.
pub fn var_type(kind: &str, var: &str) -> Option<VarType> {
    bound_vars(kind)?.into_iter().find(|(n, _)| *n == var).map(|(_, t)| t)
}

impl Sim {
    /// A simulation as the ns-2 layer runs it: the core's, writing ns-2's
    /// trace, nam and variable-trace formats.
    pub fn ns2() -> Sim {
        let mut sim = Sim::new();
        sim.w.out.set_tracer(Box::new(super::trace::Ns2Tracer::default()));
        sim
    }

    /// Format the current time with `%.17g` as `$ns now` prints it.
    pub fn now_string(&self) -> String {
        super::printf::format_g(self.w.s.now, 17)
    }

    /// Create an engine object of class `kind` named `name`.  Class
    /// defaults are applied separately with `init_defaults`.
    pub fn create(&mut self, name: &str, kind: &str) -> Result<ObjId, String> {
        let id = self.objs.len() as ObjId;
        if let Some((ci, c)) = crate::ns2::registry::find(kind) {
            let obj = (c.make)(self, id);
            let id = self.add(name, obj);
            self.tags[id as usize] = ci;
            return Ok(id);
        }
        // ns-2 creates these two RNGs at start-up (ns-random.tcl,
        // route-proto.tcl); the front end binds its Tcl objects to the
        // engine's first two streams.
        if let Some(stream) = match kind {
            "RNG/default" => Some(0),
            "RNG/rtglib" => Some(1),
            _ => None,
        } {
            let id = self.add(name, Obj::Rng(stream));
            self.tags[id as usize] = crate::ns2::registry::find("RNG").map_or(u16::MAX, |(ci, _)| ci);
            return Ok(id);
        }
        Err(format!("no engine class named \"{kind}\""))
    }

    /// Apply class defaults (`Agent/TCP set window_ 20` ...) to a new object
    /// and finish its construction as ns-2's `delay_bind_init_all` does
    /// (a TCP sender resets itself, drawing its boot time).
    pub fn init_defaults(&mut self, id: ObjId, defaults: &[(String, String)]) -> Result<(), String> {
        for (k, v) in defaults {
            self.store_var(id, k, v)?;
        }
        if self.is_tcp(id) {
            self.reset_agent(id);
            if self.resets_twice(id) {
                // RFC793edu's, Vegas's and the two-way TCPs' delay_bind_init_all reset once
                // more after TcpAgent's (a second boot-time draw).
                self.reset_agent(id);
            }
        }
        // Shadowing's constructor seeds its new RNG from `seed_` as bound
        // then (the class default).
        if let Obj::Wireless(crate::wireless::Part::Propagation(crate::wireless::propagation::Model::Shadowing(s))) = &self.objs[id as usize] {
            let (stream, seed) = (s.stream as usize, s.seed);
            let rng = &mut self.w.rng;
            rng.streams[stream]
                .set_seed(&mut rng.package, crate::rng::SeedSource::Predef, seed)
                .map_err(|e| format!("Propagation/Shadowing seed_ {seed}: {e}"))?;
        }
        let now = self.w.s.now;
        if let Obj::QueueMonitor(q) = &mut self.objs[id as usize] {
            q.created(now);
        }
        Ok(())
    }

    /// Register a list of class defaults once; returns a handle for
    /// `init_defaults_ref` (objects of one class share the same list).
    pub fn register_defaults(&mut self, defaults: Vec<(String, String)>) -> u32 {
        self.defaults.push(defaults);
        (self.defaults.len() - 1) as u32
    }

    /// `init_defaults` with a registered list.
    pub fn init_defaults_ref(&mut self, id: ObjId, handle: u32) -> Result<(), String> {
        let d = std::mem::take(&mut self.defaults[handle as usize]);
        let r = self.init_defaults(id, &d);
        self.defaults[handle as usize] = d;
        r
    }

    /// Read a bound variable (None: not bound for this object).
    pub fn get_var(&mut self, id: ObjId, var: &str) -> Option<String> {
        if let Some(r) = self.with_xcp_vq(id, |s| s.get_var(id, var)) {
            return r;
        }
        self.mobile_touch(id);
        if let Some(c) = self.class(id) {
            return match c.get(&mut self.objs[id as usize], &mut self.w, var) {
                // Any object answers `debug_` (0 where its class does not
                // bind it).
                None if var == "debug_" => Some("0".into()),
                v => v,
            };
        }
        if var == "debug_" {
            return Some("0".into());
        }
        None
    }

    /// Write a bound variable; returns the value read back.
    pub fn set_var(&mut self, id: ObjId, var: &str, v: &str) -> Result<String, String> {
        self.store_var(id, var, v)?;
        Ok(self.get_var(id, var).unwrap_or_default())
    }

    /// Write a bound variable without reading it back.
    pub fn store_var(&mut self, id: ObjId, var: &str, v: &str) -> Result<(), String> {
        if let Some(r) = self.with_xcp_vq(id, |s| s.store_var(id, var, v)) {
            return r;
        }
        self.mobile_touch(id);
        let Some(c) = self.class(id) else {
            // Any object takes a `debug_`.
            return if var == "debug_" { Ok(()) } else { Err(self.not_bound(id, var)) };
        };
        let compat = self.w.newecn_compat;
        let r = match c.set(&mut self.objs[id as usize], &mut self.w, var, v) {
            Some(r) => r,
            // Any object takes a `debug_` (ignored where its class does
            // not bind it).
            None if var == "debug_" => Ok(()),
            None => Err(self.not_bound(id, var)),
        };
        if var == "bandwidth_" && matches!(&self.objs[id as usize], Obj::Link(l) if l.rate_watched) {
            self.cbq_link_rate_changed(id);
        }
        if self.w.newecn_compat && !compat {
            // A sink's `windowOptionS_ 8`: the senders already made with
            // `windowOption_ 8` become New-ECN.
            for o in &mut self.objs {
                if let Obj::Agent(a) = o {
                    if let AgentKind::Tcp(t) = &mut a.kind {
                        t.sender.newecn_compat_set();
                    }
                }
            }
        }
        r
    }

    /// A mobile node's position is about to be read or written: bring it
    /// from its channel (wireless/net.rs `wireless_touch`).
    #[inline]
    fn mobile_touch(&mut self, id: ObjId) {
        if let Some(Obj::Node(n)) = self.objs.get(id as usize) {
            if n.mobile.is_some() {
                self.wireless_touch(id);
            }
        }
    }

    /// The ns-2 layer's tracer (installed with the world).
    pub(super) fn ns2_tracer(&mut self) -> &mut crate::ns2::trace::Ns2Tracer {
        self.w.out.tracer_mut::<crate::ns2::trace::Ns2Tracer>().expect("the ns-2 layer's tracer")
    }

    /// The registry's class of object `id`: the one it was made from, or
    /// for a flow a flow monitor made itself (sim.rs `find_flow`),
    /// `QueueMonitor/ED/Flow`.  None for the TCP senders and sinks.
    pub(super) fn class(&self, id: ObjId) -> Option<&'static crate::ns2::registry::Class> {
        let c = *self.tags.get(id as usize)?;
        if c == u16::MAX {
            return match &self.objs[id as usize] {
                // a flow the engine made: a RED-PD flow if it has a policy
                Obj::QueueMonitor(q) if q.policy.is_some() => crate::ns2::registry::find("QueueMonitor/ED/Flow/RedPD").map(|(_, c)| c),
                Obj::QueueMonitor(q) if q.flow.is_some() => crate::ns2::registry::find("QueueMonitor/ED/Flow").map(|(_, c)| c),
                _ => None,
            };
        }
        crate::ns2::registry::CLASSES.get(c as usize)
    }

    pub(super) fn not_bound(&self, id: ObjId, var: &str) -> String {
        format!("{} has no bound variable \"{}\"", self.name(id), var)
    }

    pub(super) fn obj_arg(&self, s: &str) -> Result<ObjId, String> {
        if s.is_empty() || s == "0" {
            return Ok(NONE);
        }
        self.lookup(s).ok_or_else(|| format!("no object named \"{s}\""))
    }
}
