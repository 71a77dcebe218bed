//! The typed builder's mobile nodes (ns-2's wireless scenarios): a flat
//! topography, GOD, one wireless channel and its propagation model, mobile
//! nodes with ns-2's radio stack (LL with ARP, Queue/DropTail/PriQueue,
//! 802.11's DCF or the preamble TDMA MAC, Phy/WirelessPhy,
//! Antenna/OmniAntenna) and AODV, DSDV, DSR or DumbAgent routing, their
//! positions and `setdest` moves, the new-format trace and nam's wireless
//! records.  Built without a Tcl interpreter.
//!
//! As build.rs does for wired scenarios, this mirrors what the ns-2
//! library (python/dumbbell/ns2/lib/wireless.tcl) does for the equivalent
//! script, object for object and in the same order, so the trace, nam file
//! and stdout are byte for byte the script's.  A node is put on the radio
//! by the same engine command the library calls (`wireless-join`,
//! ns2/wjoin.rs), with the values the library reads from the classes'
//! variables (`Mac/802_11 set dataRate_ ...`): there is one construction
//! of the stack, not two.  Each method names the procedure it mirrors.
//!
//! Set-up is flat per node: the values every node's stack shares are
//! gathered once (`Builder::wireless`).

use super::build::{err, num, Bandwidth, BuildError, Builder, NodeId, Result, Seconds};
use crate::sched::ObjId;

/// The ad hoc routing protocol of the mobile nodes (`node-config
/// -adhocRouting`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdHocRouting {
    Aodv,
    Dsdv,
    /// Dynamic Source Routing: the node's entry is the DSR agent and its
    /// interface queue a CMUPriQueue, as ns-2's DSR nodes need.
    Dsr,
    /// ns-2's DumbAgent: one hop, no routes.
    Dumb,
}

impl AdHocRouting {
    fn name(self) -> &'static str {
        match self {
            AdHocRouting::Aodv => "AODV",
            AdHocRouting::Dsdv => "DSDV",
            AdHocRouting::Dsr => "DSR",
            AdHocRouting::Dumb => "DumbAgent",
        }
    }
}

/// The MAC of the mobile nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WirelessMac {
    /// Mac/802_11 (DCF).  `None` keeps ns-2's class default.
    Dot11 {
        data_rate: Option<Bandwidth>,
        basic_rate: Option<Bandwidth>,
        /// Bytes (`RTSThreshold_`; 0: RTS/CTS before every unicast frame).
        rts_threshold: Option<u32>,
        short_retry_limit: Option<u32>,
        long_retry_limit: Option<u32>,
    },
    /// Mac/Tdma: a preamble slot and one slot per node.
    Tdma {
        /// `slot_packet_len_` (bytes).
        slot_bytes: Option<u32>,
        /// `max_node_num_`: the stations a frame of slots holds.
        max_nodes: Option<u32>,
    },
}

impl Default for WirelessMac {
    fn default() -> Self {
        WirelessMac::Dot11 { data_rate: None, basic_rate: None, rts_threshold: None, short_retry_limit: None, long_retry_limit: None }
    }
}

/// A wireless scenario's shared parts: what its script's class settings,
/// `Topography`, `create-god`, `Channel/WirelessChannel` and `node-config`
/// give.  `None` keeps ns-2's class default.
#[derive(Clone, Debug)]
pub struct WirelessSpec {
    /// The flat topography, whole metres (`load_flatgrid W H`).
    pub width: u32,
    pub height: u32,
    /// GOD's count of nodes (`create-god N`): the nodes to be made.
    pub nodes: u32,
    pub routing: AdHocRouting,
    pub mac: WirelessMac,
    /// Phy/WirelessPhy `Pt_` (W), `RXThresh_`, `CSThresh_` (W).
    pub tx_power: Option<f64>,
    pub rx_threshold: Option<f64>,
    pub cs_threshold: Option<f64>,
    /// The interface queue's limit (`-ifqLen`, packets; a DSR node's
    /// CMUPriQueue holds 50 packets a band whatever this says).
    pub ifq_len: u32,
    /// `-agentTrace`, `-routerTrace`, `-macTrace`.
    pub agent_trace: bool,
    pub router_trace: bool,
    pub mac_trace: bool,
    /// `$ns use-newtrace`.
    pub newtrace: bool,
    /// The trace-all channel (`$ns trace-all`), if any.
    pub trace: Option<String>,
    /// nam's channel (`$ns namtrace-all-wireless $nf W H`), if any.
    pub nam: Option<String>,
}

impl WirelessSpec {
    /// A scenario of `nodes` nodes on `width` x `height` m with ns-2's
    /// defaults, AODV and the new trace format (traced to nothing yet).
    pub fn new(width: u32, height: u32, nodes: u32, routing: AdHocRouting) -> WirelessSpec {
        WirelessSpec {
            width,
            height,
            nodes,
            routing,
            mac: WirelessMac::default(),
            tx_power: None,
            rx_threshold: None,
            cs_threshold: None,
            ifq_len: 50,
            agent_trace: true,
            router_trace: true,
            mac_trace: false,
            newtrace: true,
            trace: None,
            nam: None,
        }
    }
}

/// What the builder keeps of a wireless scenario.
#[derive(Debug)]
pub struct WirelessState {
    spec: WirelessSpec,
    topo: ObjId,
    god: ObjId,
    chan: ObjId,
    prop: ObjId,
    /// ns-2's count of MACs made (`Mac::index_`: a node's MAC address).
    macs: u32,
    /// The `wireless-join` values every node shares, after the MAC address
    /// (wireless.tcl's `dumbbell-join-radio`, in its order).
    join: Vec<(&'static str, String)>,
    /// Per node of the builder: is it mobile (not in the Simulator's
    /// `Node_` array, so `$ns run` does not reset its agents).
    pub(super) mobile: Vec<bool>,
    /// The `setdest` moves scheduled (`Action::Setdest` indexes them).
    moves: Vec<(ObjId, f64, f64, f64)>,
}

fn onoff(b: bool) -> &'static str {
    if b {
        "ON"
    } else {
        "OFF"
    }
}

impl Builder {
    /// A class's variable as a new object of it would get it (its own
    /// default, else its superclass's): `[Mac/802_11 set dataRate_]`.
    fn class_var(&self, class: &str, var: &str) -> Result<String> {
        let mut c = class;
        loop {
            if let Some(v) = self.defaults_ref().get(c, var) {
                return Ok(v.to_string());
            }
            match c.rfind('/') {
                Some(i) => c = &c[..i],
                None => return err(format!("wireless: no class default {class} {var}")),
            }
        }
    }

    /// The shared parts of a wireless scenario, made as its script makes
    /// them: the class settings (`Mac/802_11 set ...`, `Phy/WirelessPhy
    /// set ...`), `new Topography` and `load_flatgrid`, `create-god`, `new
    /// Channel/WirelessChannel` and node-config's `-propType` instance.
    /// Once, before the mobile nodes and after `seed`.
    pub fn wireless(&mut self, spec: WirelessSpec) -> Result<()> {
        self.before_start("wireless")?;
        if self.wireless.is_some() {
            return err("wireless: the scenario's wireless parts are already made");
        }
        if spec.width == 0 || spec.height == 0 || spec.width > i32::MAX as u32 || spec.height > i32::MAX as u32 {
            return err(format!("wireless: the topography's width and height must be 1 to {} m, got {} x {}", i32::MAX, spec.width, spec.height));
        }
        if spec.nodes == 0 {
            return err("wireless: GOD's count of nodes must be at least 1, got 0");
        }
        if spec.ifq_len == 0 {
            return err("wireless: the interface queue's limit (ifq_len) must be at least 1 packet, got 0");
        }
        for (what, v) in [("tx_power", spec.tx_power), ("rx_threshold", spec.rx_threshold), ("cs_threshold", spec.cs_threshold)] {
            if let Some(x) = v {
                if !(x > 0.0 && x.is_finite()) {
                    return err(format!("wireless: {what} must be a power above 0 W, got {x}"));
                }
            }
        }
        // the script's class settings, before anything is made
        match spec.mac {
            WirelessMac::Dot11 { data_rate, basic_rate, rts_threshold, short_retry_limit, long_retry_limit } => {
                for (var, v) in [("dataRate_", data_rate), ("basicRate_", basic_rate)] {
                    if let Some(b) = v {
                        if !(b.0 > 0.0 && b.0.is_finite()) {
                            return err(format!("wireless: Mac/802_11 {var} must be a rate above 0, got {}", b.0));
                        }
                        self.defaults_mut().set("Mac/802_11", var, &num(b.0));
                    }
                }
                for (var, v) in [("RTSThreshold_", rts_threshold), ("ShortRetryLimit_", short_retry_limit), ("LongRetryLimit_", long_retry_limit)] {
                    if let Some(k) = v {
                        self.defaults_mut().set("Mac/802_11", var, &k.to_string());
                    }
                }
            }
            WirelessMac::Tdma { slot_bytes, max_nodes } => {
                if let Some(s) = slot_bytes {
                    self.defaults_mut().set("Mac/Tdma", "slot_packet_len_", &s.to_string());
                }
                if let Some(m) = max_nodes {
                    self.defaults_mut().set("Mac/Tdma", "max_node_num_", &m.to_string());
                }
            }
        }
        for (var, v) in [("Pt_", spec.tx_power), ("RXThresh_", spec.rx_threshold), ("CSThresh_", spec.cs_threshold)] {
            if let Some(x) = v {
                self.defaults_mut().set("Phy/WirelessPhy", var, &num(x));
            }
        }
        // `set topo [new Topography]; $topo load_flatgrid W H`
        let topo = self.new_obj("Topography")?;
        let (w, h) = (spec.width.to_string(), spec.height.to_string());
        self.cmd(topo, &["load_flatgrid", &w, &h])?;
        // com.tcl's create-god: `new God`, `$god num_nodes N`
        let god = self.new_obj("God")?;
        self.cmd(god, &["num_nodes", &spec.nodes.to_string()])?;
        let chan = self.new_obj("Channel/WirelessChannel")?;
        // node-config -propType: one instance for all nodes
        let prop = self.new_obj("Propagation/TwoRayGround")?;
        let join = self.join_values(&spec)?;
        self.wireless = Some(Box::new(WirelessState { spec, topo, god, chan, prop, macs: 0, join, mobile: Vec::new(), moves: Vec::new() }));
        Ok(())
    }

    /// wireless.tcl's `dumbbell-join-radio`: the values of the node's LL,
    /// queue, MAC, radio and antenna from their classes' variables, after
    /// the MAC address (`mac`), in its order.
    fn join_values(&self, spec: &WirelessSpec) -> Result<Vec<(&'static str, String)>> {
        let mut kv: Vec<(&'static str, String)> = Vec::new();
        kv.push(("ll_delay", self.class_var("LL", "delay_")?));
        kv.push(("trace", spec.trace.clone().unwrap_or_default()));
        kv.push(("nam", spec.nam.clone().unwrap_or_default()));
        kv.push(("agent", onoff(spec.agent_trace).into()));
        kv.push(("router", onoff(spec.router_trace).into()));
        kv.push(("mactrace", onoff(spec.mac_trace).into()));
        kv.push(("newtrace", if spec.newtrace { "1" } else { "0" }.into()));
        kv.push(("wired", "0".into()));
        kv.push(("eot", self.class_var("Simulator", "EotTrace_")?));
        if spec.routing == AdHocRouting::Dsdv {
            const DSDV: [(&str, &str); 8] = [
                ("dsdv_wst0_", "wst0_"),
                ("dsdv_perup_", "perup_"),
                ("dsdv_use_mac_", "use_mac_"),
                ("dsdv_be_random_", "be_random_"),
                ("dsdv_alpha_", "alpha_"),
                ("dsdv_min_update_periods_", "min_update_periods_"),
                ("dsdv_verbose_", "verbose_"),
                ("dsdv_trace_wst_", "trace_wst_"),
            ];
            for (k, v) in DSDV {
                kv.push((k, self.class_var("Agent/DSDV", v)?));
            }
        }
        for v in ["Pt_", "freq_", "L_", "CPThresh_", "CSThresh_", "RXThresh_"] {
            kv.push((v, self.class_var("Phy/WirelessPhy", v)?));
        }
        for (k, v) in [("antX_", "X_"), ("antY_", "Y_"), ("antZ_", "Z_"), ("Gt_", "Gt_"), ("Gr_", "Gr_")] {
            kv.push((k, self.class_var("Antenna/OmniAntenna", v)?));
        }
        for v in [
            "CWMin_", "CWMax_", "SlotTime_", "SIFS_", "PreambleLength_", "PLCPHeaderLength_", "PLCPDataRate_", "RTSThreshold_", "ShortRetryLimit_",
            "LongRetryLimit_", "dataRate_", "basicRate_", "bugFix_timer_",
        ] {
            kv.push((v, self.class_var("Mac/802_11", v)?));
        }
        let tdma = matches!(spec.mac, WirelessMac::Tdma { .. });
        kv.push(("macType", if tdma { "Mac/Tdma" } else { "Mac/802_11" }.into()));
        if tdma {
            kv.push(("slot_packet_len_", self.class_var("Mac/Tdma", "slot_packet_len_")?));
            kv.push(("max_node_num_", self.class_var("Mac/Tdma", "max_node_num_")?));
            kv.push(("mac_bandwidth_", self.class_var("Mac/Tdma", "bandwidth_")?));
        }
        Ok(kv)
    }

    fn wl(&self, what: &str) -> Result<&WirelessState> {
        self.wireless.as_deref().ok_or_else(|| BuildError(format!("{what}: no wireless scenario (Builder::wireless first)")))
    }

    /// `$ns node` after node-config named a routing protocol
    /// (wireless.tcl's `create-wireless-node` and `dumbbell-join-radio`),
    /// then `$node set X_ x; ... Y_ y; ... Z_ z`.
    pub fn mobile_node(&mut self, x: f64, y: f64, z: f64) -> Result<NodeId> {
        self.before_start("mobile_node")?;
        self.wl("mobile_node")?;
        for (what, v) in [("x", x), ("y", y), ("z", z)] {
            if !v.is_finite() {
                return err(format!("mobile_node: {what} must be a finite coordinate (m), got {v}"));
            }
        }
        let id = self.new_obj("Node/MobileNode")?;
        let n = self.num_nodes() as u32;
        let s = n.to_string();
        self.cmd(id, &["nodeid", &s])?;
        self.cmd(id, &["addr", &s])?;
        self.push_node(id);
        let st = self.wireless.as_deref_mut().unwrap();
        st.mobile.resize(n as usize, false);
        st.mobile.push(true);
        let mac = st.macs;
        st.macs += 1;
        let (topo, god, chan, prop) = (st.topo, st.god, st.chan, st.prop);
        let (trace, nam) = (st.spec.trace.clone(), st.spec.nam.clone());
        let routing = st.spec.routing.name();
        let (ifq_len, god_nodes) = (st.spec.ifq_len, st.spec.nodes);
        // (a DSR node's queue is a CMUPriQueue: `-ifqType CMUPriQueue`)
        let ifq = if st.spec.routing == AdHocRouting::Dsr { "CMUPriQueue" } else { "Queue/DropTail/PriQueue" };
        let head = [
            ("ifq", ifq.to_string()),
            ("ifqlen", ifq_len.to_string()),
            ("god", god_nodes.to_string()),
            ("god_obj", self.name_of(god)),
            ("mac", mac.to_string()),
        ];
        // movements go to the trace-all file and nam's
        if let Some(t) = &trace {
            self.cmd(id, &["log-channel", t])?;
        }
        if let Some(t) = &nam {
            self.cmd(id, &["namattach", t])?;
        }
        let tn = self.name_of(topo);
        self.cmd(id, &["topography", &tn])?;
        let (cn, pn) = (self.name_of(chan), self.name_of(prop));
        let entry = format!("_dumbbell_wl_entry_{n}");
        let ragent = format!("_dumbbell_ragent_{n}");
        // (the shared values are lent out for the call, not copied)
        let join = std::mem::take(&mut self.wireless.as_deref_mut().unwrap().join);
        let mut argv: Vec<&str> = vec!["wireless-join", &cn, &pn, routing, &entry, &ragent];
        for (k, v) in head.iter().chain(join.iter()) {
            argv.push(k);
            argv.push(v);
        }
        let r = self.cmd(id, &argv);
        self.wireless.as_deref_mut().unwrap().join = join;
        r?;
        // the node's agents send to its routing agent
        let router = self.sim().lookup(&ragent).ok_or_else(|| BuildError("mobile_node: the routing agent was not made".into()))?;
        self.set_entry(n, router);
        for (var, v) in [("X_", x), ("Y_", y), ("Z_", z)] {
            self.set_var(id, var, &num(v))?;
        }
        Ok(NodeId(n))
    }

    /// Is node `n` a mobile node?
    pub fn is_mobile(&self, n: usize) -> bool {
        self.wireless.as_deref().is_some_and(|w| w.mobile.get(n).copied().unwrap_or(false))
    }

    /// `$ns at t "$node setdest x y speed"`: at `t`, mobile node `node`
    /// heads for (x, y) at `speed` m/s (the trace's `M` line, nam's `n`
    /// record).  The destination must lie inside the topography.
    pub fn setdest(&mut self, node: NodeId, t: Seconds, x: f64, y: f64, speed: f64) -> Result<u64> {
        self.before_start("setdest")?;
        let st = self.wl("setdest")?;
        if !st.mobile.get(node.0 as usize).copied().unwrap_or(false) {
            return err(format!("setdest: node {} is not a mobile node", node.0));
        }
        let (w, h) = (st.spec.width as f64, st.spec.height as f64);
        if !(x > 0.0 && x < w && y > 0.0 && y < h) {
            return err(format!("setdest: destination ({x}, {y}) of node {} is not inside the topography, (0, 0) to ({w}, {h}) exclusive", node.0));
        }
        if !(speed >= 0.0 && speed.is_finite()) {
            return err(format!("setdest: speed of node {} must be 0 m/s or more, got {speed}", node.0));
        }
        let obj = self.node_obj(node);
        let st = self.wireless.as_deref_mut().unwrap();
        st.moves.push((obj, x, y, speed));
        let k = (st.moves.len() - 1) as u32;
        self.at(t, super::build::Action::Setdest(k))
    }

    /// Carry out `Action::Setdest(k)`.
    pub(super) fn perform_setdest(&mut self, k: u32) -> Result<()> {
        let (obj, x, y, speed) = *self.wl("setdest")?.moves.get(k as usize).ok_or_else(|| BuildError(format!("no move {k}")))?;
        let (xs, ys, ss) = (num(x), num(y), num(speed));
        self.cmd(obj, &["setdest", &xs, &ys, &ss]).map(drop)
    }

    /// nam's configuration lines at `$ns run` (nam.tcl's `init-nam` for a
    /// wireless scenario: version, canvas, and the flat address format of
    /// address.tcl, one level of 30 bits; the mobile nodes are not in the
    /// Simulator's `Node_` array, so no node lines).
    pub(super) fn wireless_nam_config(&mut self) -> Result<()> {
        let Some(st) = self.wireless.as_deref() else { return Ok(()) };
        let Some(nam) = st.spec.nam.clone() else { return Ok(()) };
        let text = format!(
            "V -t * -v 1.0a5 -a 0\nW -t * -x {} -y {}\nA -t * -n 1 -p 0 -o 0x7fffffff -c 30 -a 1\nA -t * -h 1 -m 1073741823 -s 0\n",
            st.spec.width, st.spec.height
        );
        let out = self.sim_mut().out_mut();
        let ch = out.channel(&nam);
        out.append(ch, |b| b.extend_from_slice(text.as_bytes()));
        Ok(())
    }

    /// The wireless parts made (`wireless`): (topography, GOD, channel,
    /// propagation) objects.
    pub fn wireless_objs(&self) -> Option<(ObjId, ObjId, ObjId, ObjId)> {
        self.wireless.as_deref().map(|w| (w.topo, w.god, w.chan, w.prop))
    }

    /// ns-2's C stdout so far (GOD's `num_nodes is set N`, the channel's
    /// notices), taken.
    pub fn take_stdout(&mut self) -> Vec<u8> {
        self.sim_mut().take_c_stdout()
    }

    fn name_of(&self, id: ObjId) -> String {
        self.sim().name(id).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ns2::build::{Action, AgentKind, AppSpec, ClassDefaults, Step};

    const DEFAULTS: &str = include_str!("../../../../python/dumbbell/ns2/lib/defaults.tcl");

    fn builder() -> Builder {
        Builder::new(ClassDefaults::parse(&(crate::ns2::registry::defaults_tcl() + DEFAULTS)).unwrap()).unwrap()
    }

    /// A chain of `n` nodes 200 m apart, CBR from the first to the last
    /// over `routing`, the last node moving: (trace, nam, stdout).
    fn chain(n: u32, routing: AdHocRouting, until: f64) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let mut b = builder();
        b.seed(1).unwrap();
        let mut spec = WirelessSpec::new(1000, 300, n, routing);
        spec.trace = Some("t".into());
        spec.nam = Some("nam".into());
        b.wireless(spec).unwrap();
        let nodes: Vec<NodeId> = (0..n).map(|k| b.mobile_node(50.0 + 200.0 * k as f64, 150.0, 0.0).unwrap()).collect();
        b.setdest(nodes[n as usize - 1], Seconds(3.0), 990.0, 290.0, 20.0).unwrap();
        let udp = b.agent(AgentKind::Udp, &[("fid_".into(), "0".into())]).unwrap();
        b.attach(nodes[0], udp).unwrap();
        let null = b.agent(AgentKind::Null, &[]).unwrap();
        b.attach(nodes[n as usize - 1], null).unwrap();
        b.connect(udp, null).unwrap();
        let cbr = b.app(&AppSpec::Cbr { rate: Some(Bandwidth::kbps(16.0)), packet_size: None, random: None, maxpkts: None }, udp, &[]).unwrap();
        b.at(Seconds(1.0), Action::Start(cbr)).unwrap();
        b.at(Seconds(until), Action::Halt).unwrap();
        let (mut tr, mut nam) = (Vec::new(), Vec::new());
        loop {
            let step = b.run().unwrap();
            for (ch, data) in b.sim_mut().out_mut().drain() {
                if ch == "t" { tr.extend(data) } else { nam.extend(data) }
            }
            if step != Step::Output {
                break;
            }
        }
        (tr, nam, b.take_stdout())
    }

    #[test]
    fn aodv_chain_carries_cbr_hop_by_hop_and_repeats() {
        let (tr, nam, out) = chain(4, AdHocRouting::Aodv, 6.0);
        let text = String::from_utf8(tr.clone()).unwrap();
        // the last node's agent receives data that crossed the middle nodes
        assert!(text.lines().any(|l| l.starts_with("r ") && l.contains("-Ni 3 ") && l.contains("-Nl AGT") && l.contains("-It cbr")));
        assert!(text.lines().any(|l| l.starts_with("f ") && l.contains("-Ni 1 ") && l.contains("-It cbr")));
        assert!(text.contains("-It AODV"));
        // the move: the trace's M line, nam's n record
        assert!(text.contains("M 3.00000 3 (650.00, 150.00, 0.00), (990.00, 290.00), 20.00\n"), "{}", &text[..200]);
        let nam = String::from_utf8(nam).unwrap();
        assert!(nam.starts_with("V -t * -v 1.0a5 -a 0\nW -t * -x 1000 -y 300\nA -t * -n 1 -p 0 -o 0x7fffffff -c 30 -a 1\n"));
        assert!(nam.contains("n -t 3.000000 -s 3 -x 650.000000 -y 150.000000 -U "));
        assert!(String::from_utf8(out).unwrap().starts_with("num_nodes is set 4\n"));
        assert_eq!(chain(4, AdHocRouting::Aodv, 6.0).0, tr);
    }

    #[test]
    fn dsdv_and_dumb_agent_build_and_differ() {
        let (dsdv, _, _) = chain(3, AdHocRouting::Dsdv, 4.0);
        assert!(String::from_utf8(dsdv.clone()).unwrap().contains("-It message"));
        let (dumb, _, _) = chain(2, AdHocRouting::Dumb, 4.0);
        let dumb = String::from_utf8(dumb).unwrap();
        assert!(dumb.lines().any(|l| l.starts_with("r ") && l.contains("-Ni 1 ") && l.contains("-Nl AGT")));
        assert!(!dumb.contains("-It AODV") && !dumb.contains("-It message"));
    }

    #[test]
    fn dsr_chain_finds_a_source_route_over_a_cmu_queue() {
        let (tr, _, _) = chain(4, AdHocRouting::Dsr, 6.0);
        let text = String::from_utf8(tr.clone()).unwrap();
        // the agent's notes, its requests and replies, data forwarded by
        // the middle nodes to the last node's agent
        assert!(text.starts_with("Sconfig 0.00000 tap: on snoop: rts? on errs? on\n"), "{}", &text[..200]);
        assert!(text.lines().any(|l| l.starts_with("s ") && l.contains("-Nl RTR") && l.contains("-It DSR")));
        assert!(text.lines().any(|l| l.starts_with("f ") && l.contains("-Ni 2 ") && l.contains("-It cbr")));
        assert!(text.lines().any(|l| l.starts_with("r ") && l.contains("-Ni 3 ") && l.contains("-Nl AGT") && l.contains("-It cbr")));
        assert!(!text.contains("-It AODV"));
        assert_eq!(chain(4, AdHocRouting::Dsr, 6.0).0, tr);
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut b = builder();
        assert!(b.mobile_node(1.0, 1.0, 0.0).unwrap_err().0.contains("Builder::wireless first"));
        assert!(b.wireless(WirelessSpec::new(0, 10, 1, AdHocRouting::Aodv)).is_err());
        assert!(b.wireless(WirelessSpec { ifq_len: 0, ..WirelessSpec::new(10, 10, 1, AdHocRouting::Aodv) }).is_err());
        b.wireless(WirelessSpec::new(100, 100, 2, AdHocRouting::Aodv)).unwrap();
        assert!(b.wireless(WirelessSpec::new(100, 100, 2, AdHocRouting::Aodv)).is_err());
        let a = b.mobile_node(10.0, 10.0, 0.0).unwrap();
        assert!(b.setdest(a, Seconds(1.0), 100.0, 50.0, 1.0).is_err());
        assert!(b.setdest(a, Seconds(1.0), 50.0, 50.0, f64::NAN).is_err());
        let w = b.node().unwrap();
        assert!(!b.is_mobile(w.0 as usize) && b.is_mobile(a.0 as usize));
        assert!(b.setdest(w, Seconds(1.0), 50.0, 50.0, 1.0).is_err());
    }
}
