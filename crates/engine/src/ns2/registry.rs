//! The ns-2 classes the engine implements: one line each, with the tables
//! of its bound variables (own and inherited, in the order a new object
//! gets its class defaults) and the engine object it makes.
//!
//! Everything the ns-2 layer knows of a class follows from here: the class
//! list the Tcl library registers, each class's bound variables and types,
//! the class defaults it starts with, and `new`.

use super::bind::{Bindings, ClassDefault, Range};
use super::class::{agent, app, aqm, bay, cbq, dsred, errmodel, l4s, fairq, fq, fulltcp, jobs, lan, link, misc, monitor, pi, queue, ranvar, redpd, rem, rio, srr, tagger, tcp, tcp_linux, tfrc, trace, wireless, xcp};
use crate::tcp::full::Variant;
use crate::tcp::Flavor;
use crate::tcp::rbp::{Paced, RbpState};
use crate::qdisc::{Cobalt, CoDel, FqCobalt, FqCoDel, FqPie, Pi, Pie, Qdisc, Queue, Red, Scfq};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::ns2::tclcl::VarType;

/// An ns-2 class the engine implements.
pub struct Class {
    /// Its ns-2 name (`Queue/RED`).
    pub name: &'static str,
    /// Its bound variables, table by table.
    pub tables: &'static [&'static dyn Bindings],
    /// Make its engine object, which will have id `id`.
    pub make: fn(&mut Sim, ObjId) -> Obj,
}

fn make_queue(sim: &mut Sim, id: ObjId, disc: Qdisc) -> Obj {
    let slot = sim.w.s.new_resume(id);
    Obj::Queue(Box::new(Queue::new(disc, slot)))
}

/// The classes, one line each, in the order the Tcl library registers them.
pub static CLASSES: &[Class] = &[
    Class { name: "Connector", tables: &[&misc::CONNECTOR], make: misc::make_connector },
    Class { name: "TTLChecker", tables: &[&misc::TTL_CHECKER], make: misc::make_ttl_checker },
    Class { name: "Classifier", tables: &[&misc::CLASSIFIER], make: misc::make_classifier },
    Class { name: "Trace", tables: &[&trace::TRACE], make: trace::make_trace },
    Class { name: "Trace/Enque", tables: &[&trace::TRACE], make: trace::make_enque },
    Class { name: "Trace/Deque", tables: &[&trace::TRACE], make: trace::make_deque },
    Class { name: "Trace/Drop", tables: &[&trace::TRACE], make: trace::make_drop },
    Class { name: "Trace/Recv", tables: &[&trace::TRACE], make: trace::make_recv },
    Class { name: "Trace/Hop", tables: &[&trace::TRACE], make: trace::make_hop },
    Class { name: "Queue/DropTail", tables: &[&queue::QUEUE, &queue::DROPTAIL], make: |s, id| make_queue(s, id, Qdisc::DropTail(Default::default())) },
    Class { name: "Queue/RED", tables: &[&queue::QUEUE, &queue::RED_QUEUE, &queue::RED], make: |s, id| make_queue(s, id, Qdisc::boxed(Red::new())) },
    Class { name: "Queue/FQ", tables: &[&queue::QUEUE, &fq::FQ], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::FinishFq::new())) },
    Class { name: "Queue/SRR", tables: &[&queue::QUEUE, &srr::SRR], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Srr::new())) },
    Class { name: "Queue/RED/PD", tables: &[&queue::QUEUE, &queue::RED_QUEUE, &queue::RED, &redpd::REDPD], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::RedPd::new())) },
    Class { name: "Queue/RED/RIO", tables: &[&queue::QUEUE, &queue::RED_QUEUE, &queue::RED, &rio::RIO], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Rio::new())) },
    Class { name: "Queue/REM", tables: &[&queue::QUEUE, &rem::REM], make: rem::make_rem },
    Class { name: "Queue/CoDel", tables: &[&queue::QUEUE, &queue::CODEL_QUEUE, &queue::CODEL], make: |s, id| make_queue(s, id, Qdisc::boxed(CoDel::new())) },
    Class { name: "Queue/PI", tables: &[&queue::QUEUE, &pi::PI_QUEUE, &pi::PI], make: |s, id| make_queue(s, id, Qdisc::boxed(Pi::new())) },
    Class { name: "Queue/PIE", tables: &[&queue::QUEUE, &queue::PIE_QUEUE, &queue::PIE], make: |s, id| make_queue(s, id, Qdisc::boxed(Pie::new())) },
    Class { name: "Queue/FQ_CoDel", tables: &[&queue::QUEUE, &aqm::FQ_CODEL], make: |s, id| make_queue(s, id, Qdisc::boxed(FqCoDel::new())) },
    Class { name: "Queue/DRR", tables: &[&queue::QUEUE, &fairq::DRR], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Drr::new())) },
    Class { name: "Queue/SFQ", tables: &[&queue::QUEUE, &fairq::SFQ], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Sfq::new())) },
    Class { name: "Queue/Vq", tables: &[&queue::QUEUE, &fairq::VQ], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Vq::new())) },
    Class { name: "Queue/GK", tables: &[&queue::QUEUE, &fairq::GK], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Gk::new())) },
    Class { name: "Queue/COBALT", tables: &[&queue::QUEUE, &aqm::COBALT_QUEUE, &aqm::COBALT], make: |s, id| make_queue(s, id, Qdisc::boxed(Cobalt::new())) },
    Class { name: "Queue/FQ_PIE", tables: &[&queue::QUEUE, &aqm::FQ_PIE], make: |s, id| make_queue(s, id, Qdisc::boxed(FqPie::new())) },
    Class { name: "Queue/FQ_COBALT", tables: &[&queue::QUEUE, &aqm::FQ_COBALT], make: |s, id| make_queue(s, id, Qdisc::boxed(FqCobalt::new())) },
    Class { name: "Queue/DualPI2", tables: &[&queue::QUEUE, &l4s::DUALPI2_QUEUE, &l4s::DUALPI2], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::DualPi2::new())) },
    Class { name: "Queue/StepMark", tables: &[&queue::QUEUE, &l4s::STEP_MARK_QUEUE, &l4s::STEP_MARK], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::StepMark::new())) },
    Class { name: "Queue/XCP", tables: &[&queue::QUEUE, &xcp::XCP], make: xcp::make_queue },
    Class { name: "Queue/SCFQ", tables: &[&queue::QUEUE, &queue::SCFQ_QUEUE], make: |s, id| make_queue(s, id, Qdisc::boxed(Scfq::new())) },
    Class { name: "Queue/CBQ", tables: &[&queue::QUEUE, &cbq::CBQ], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Cbq::new(false))) },
    Class { name: "Queue/CBQ/WRR", tables: &[&queue::QUEUE, &cbq::CBQ], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::Cbq::new(true))) },
    Class { name: "Queue/dsRED", tables: &[&queue::QUEUE, &dsred::DSRED], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::DsRed::new(false))) },
    Class { name: "Queue/dsRED/core", tables: &[&queue::QUEUE, &dsred::DSRED], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::DsRed::new(false))) },
    Class { name: "Queue/dsRED/edge", tables: &[&queue::QUEUE, &dsred::DSRED], make: |s, id| make_queue(s, id, Qdisc::boxed(crate::qdisc::DsRed::new(true))) },
    Class { name: "Queue/JoBS", tables: &[&queue::QUEUE, &jobs::JOBS], make: jobs::make_jobs },
    Class { name: "Queue/Marker", tables: &[&queue::QUEUE, &jobs::MARKER], make: jobs::make_marker },
    Class { name: "Queue/Demarker", tables: &[&queue::QUEUE, &jobs::DEMARKER], make: jobs::make_demarker },
    Class { name: "DelayLink", tables: &[&link::DELAY_LINK], make: link::make_delay_link },
    Class { name: "DynamicLink", tables: &[&link::DYNAMIC_LINK], make: link::make_dynamic_link },
    Class { name: "RouteLogic", tables: &[], make: misc::make_route_logic },
    Class { name: "Node", tables: &[&misc::NODE], make: misc::make_node },
    Class { name: "SnoopQueue/In", tables: &[&monitor::SNOOP_IN], make: monitor::make_snoop_in },
    Class { name: "SnoopQueue/Out", tables: &[&monitor::SNOOP_OUT], make: monitor::make_snoop_out },
    Class { name: "SnoopQueue/Drop", tables: &[&monitor::SNOOP_DROP], make: monitor::make_snoop_drop },
    Class { name: "SnoopQueue/EDrop", tables: &[&monitor::SNOOP_EDROP], make: monitor::make_snoop_edrop },
    Class { name: "QueueMonitor", tables: &[&monitor::QUEUE_MONITOR], make: monitor::make_queue_monitor },
    Class { name: "Integrator", tables: &[&monitor::INTEGRATOR], make: monitor::make_integrator },
    Class { name: "QueueMonitor/ED", tables: &[&monitor::QUEUE_MONITOR, &monitor::ED], make: monitor::make_queue_monitor },
    Class { name: "QueueMonitor/ED/Flowmon", tables: &[&monitor::QUEUE_MONITOR, &monitor::ED, &monitor::FLOWMON], make: monitor::make_flowmon },
    Class { name: "QueueMonitor/ED/Flow", tables: &[&monitor::QUEUE_MONITOR, &monitor::ED, &monitor::FLOW], make: monitor::make_flow },
    Class { name: "QueueMonitor/ED/Tagger", tables: &[&monitor::QUEUE_MONITOR, &monitor::ED], make: tagger::make_tagger },
    Class { name: "QueueMonitor/ED/Flow/RedPD", tables: &[&monitor::QUEUE_MONITOR, &monitor::ED, &monitor::FLOW, &redpd::REDPD_FLOW], make: redpd::make_redpd_flow },
    Class { name: "QueueMonitor/ED/Flow/TB", tables: &[&monitor::QUEUE_MONITOR, &monitor::ED, &monitor::FLOW, &tagger::TB_FLOW], make: tagger::make_tb_flow },
    Class { name: "SnoopQueue/Tagger", tables: &[&tagger::SNOOP_TAGGER], make: tagger::make_snoop_tagger },
    Class { name: "Samples", tables: &[], make: monitor::make_samples },
    // (a bare Agent, and the shadow of OTcl classes derived from it, as
    // test-suite-xcp's GeneralSender: it frees what it receives)
    Class { name: "Agent", tables: &[&agent::AGENT], make: agent::make_null },
    Class { name: "Agent/Null", tables: &[&agent::AGENT, &agent::NULL], make: agent::make_null },
    Class { name: "Agent/TCP", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED], make: |s, id| tcp::make_tcp(s, id, Flavor::Tahoe) },
    Class { name: "Agent/TCP/Reno", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED], make: |s, id| tcp::make_tcp(s, id, Flavor::Reno) },
    Class { name: "Agent/TCP/Newreno", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp::NEWRENO], make: |s, id| tcp::make_tcp(s, id, tcp::newreno_flavor()) },
    Class { name: "Agent/TCP/Sack1", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp::SACK1], make: |s, id| tcp::make_tcp(s, id, Flavor::Sack1(Box::default())) },
    Class { name: "Agent/TCP/Fack", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp::FACK], make: |s, id| tcp::make_tcp(s, id, Flavor::Fack(Box::default())) },
    Class { name: "Agent/TCP/SackRH", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED], make: |s, id| tcp::make_tcp(s, id, Flavor::SackRh(Box::default())) },
    Class { name: "Agent/TCP/RFC793edu", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp::RFC793EDU], make: |s, id| tcp::make_tcp(s, id, Flavor::Rfc793edu(Box::default())) },
    Class { name: "Agent/TCP/Vegas", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp::VEGAS], make: |s, id| tcp::make_tcp(s, id, Flavor::Vegas(Box::default())) },
    Class { name: "Agent/TCP/Reno/XCP", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &xcp::RENO_XCP], make: xcp::make_reno },
    Class { name: "Agent/TCP/Reno/RBP", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp::RBP_RENO], make: |s, id| tcp::make_tcp(s, id, Flavor::Rbp(Box::new(RbpState::new(Paced::Reno)))) },
    Class { name: "Agent/TCP/Vegas/RBP", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp::VEGAS, &tcp::RBP_VEGAS], make: |s, id| tcp::make_tcp(s, id, Flavor::Rbp(Box::new(RbpState::new(Paced::Vegas(Box::default()))))) },
    Class { name: "Agent/TCP/Linux", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &tcp_linux::LINUX], make: |s, id| tcp::make_tcp(s, id, Flavor::Linux(Box::default())) },
    Class { name: "Agent/TCP/FullTcp", tables: FULLTCP, make: |s, id| fulltcp::make_full(s, id, Variant::Reno) },
    Class { name: "Agent/TCP/FullTcp/Tahoe", tables: FULLTCP, make: |s, id| fulltcp::make_full(s, id, Variant::Tahoe) },
    Class { name: "Agent/TCP/FullTcp/Newreno", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &fulltcp::FULLTCP, &fulltcp::NEWRENO_FULLTCP], make: |s, id| fulltcp::make_full(s, id, Variant::NewReno) },
    Class { name: "Agent/TCP/FullTcp/Newreno/XCP", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &fulltcp::FULLTCP, &fulltcp::NEWRENO_FULLTCP, &xcp::FULL_XCP], make: xcp::make_full },
    Class { name: "Agent/TCP/FullTcp/Sack", tables: &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &fulltcp::FULLTCP, &fulltcp::SACK_FULLTCP], make: |s, id| fulltcp::make_full(s, id, Variant::Sack) },
    Class { name: "Agent/TCP/BayFullTcp", tables: BAYFULLTCP, make: bay::make_bay },
    Class { name: "Agent/BayTcpApp/FtpClient", tables: &[&agent::AGENT], make: bay::make_fetch_client },
    Class { name: "Agent/BayTcpApp/FtpServer", tables: &[&agent::AGENT], make: bay::make_fetch_server },
    Class { name: "Agent/TCPSink", tables: &[&agent::AGENT, &tcp::SINK, &tcp::SINK_UNMODELLED], make: |s, id| tcp::make_sink(s, id, false, false) },
    Class { name: "Agent/TCPSink/XCPSink", tables: &[&agent::AGENT, &tcp::SINK, &tcp::SINK_UNMODELLED], make: xcp::make_sink_xcp },
    Class { name: "Agent/TCPSink/DelAck", tables: &[&agent::AGENT, &tcp::SINK, &tcp::SINK_UNMODELLED, &tcp::DELACK], make: |s, id| tcp::make_sink(s, id, true, false) },
    Class { name: "Agent/TCPSink/Sack1", tables: &[&agent::AGENT, &tcp::SINK, &tcp::SINK_UNMODELLED], make: |s, id| tcp::make_sink(s, id, false, true) },
    Class { name: "Agent/TCPSink/Sack1/DelAck", tables: &[&agent::AGENT, &tcp::SINK, &tcp::SINK_UNMODELLED, &tcp::SACK1_DELACK], make: |s, id| tcp::make_sink(s, id, true, true) },
    Class { name: "Application", tables: &[], make: app::make_application },
    Class { name: "RNG", tables: &[], make: ranvar::make_rng },
    Class { name: "BaseTrace/Event", tables: &[&trace::EVENT_TRACE], make: trace::make_event },
    Class { name: "Agent/UDP", tables: &[&agent::AGENT, &agent::UDP], make: agent::make_udp },
    Class { name: "Agent/LossMonitor", tables: &[&agent::AGENT, &agent::LOSS_MONITOR], make: agent::make_loss_monitor },
    Class { name: "Agent/Ping", tables: &[&agent::AGENT, &agent::PING], make: agent::make_ping },
    Class { name: "Agent/PBC", tables: &[&agent::AGENT, &agent::PBC], make: agent::make_pbc },
    Class { name: "Agent/MIPBS", tables: &[&agent::AGENT, &agent::MIPBS_SIZE, &agent::MIPBS], make: agent::make_mipbs },
    Class { name: "Agent/MIPMH", tables: &[&agent::AGENT, &agent::MIPMH_SIZE, &agent::MIPMH], make: agent::make_mipmh },
    Class { name: "Classifier/Addr/MIPDecapsulator", tables: &[], make: agent::make_mip_decap },
    Class { name: "Agent/rtProto/DV", tables: &[&agent::AGENT], make: agent::make_rtproto_dv },
    Class { name: "Agent/QSAgent", tables: &[&agent::AGENT, &super::class::quickstart::QSAGENT], make: super::class::quickstart::make_qs_agent },
    Class { name: "Classifier/QS", tables: &[&misc::CLASSIFIER], make: super::class::quickstart::make_qs_classifier },
    Class { name: "Agent/TFRC", tables: &[&agent::AGENT, &tfrc::TFRC], make: tfrc::make_tfrc },
    Class { name: "Agent/TFRCSink", tables: &[&agent::AGENT, &tfrc::TFRC_SINK, &tfrc::TFRC_SINK_SCRIPT], make: tfrc::make_tfrc_sink },
    Class { name: "Application/Traffic/CBR", tables: &[&app::CBR], make: app::make_cbr },
    Class { name: "Application/Telnet", tables: &[&app::TELNET], make: app::make_telnet },
    Class { name: "Application/Traffic/Exponential", tables: &[&app::EXPONENTIAL], make: app::make_exponential },
    Class { name: "Application/Traffic/VoIPCalls", tables: &[&app::VOIP_CALLS], make: app::make_voip_calls },
    Class { name: "Application/Traffic/Pareto", tables: &[&app::PARETO, &app::PARETO_SHAPE], make: app::make_pareto },
    Class { name: "Application/Traffic/Trace", tables: &[], make: crate::ns2::traffictrace::make_traffic_trace },
    Class { name: "Tracefile", tables: &[&crate::ns2::traffictrace::TRACEFILE], make: crate::ns2::traffictrace::make_tracefile },
    Class { name: "RandomVariable/Uniform", tables: &[&ranvar::UNIFORM], make: ranvar::make_uniform },
    Class { name: "RandomVariable/Exponential", tables: &[&ranvar::EXPONENTIAL], make: ranvar::make_exponential },
    Class { name: "RandomVariable/Erlang", tables: &[&ranvar::ERLANG], make: ranvar::make_erlang },
    Class { name: "RandomVariable/Gamma", tables: &[&ranvar::GAMMA], make: ranvar::make_gamma },
    Class { name: "RandomVariable/Pareto", tables: &[&ranvar::PARETO], make: ranvar::make_pareto },
    Class { name: "RandomVariable/ParetoII", tables: &[&ranvar::PARETO_II], make: ranvar::make_pareto2 },
    Class { name: "RandomVariable/Normal", tables: &[&ranvar::NORMAL], make: ranvar::make_normal },
    Class { name: "RandomVariable/LogNormal", tables: &[&ranvar::LOGNORMAL], make: ranvar::make_lognormal },
    Class { name: "RandomVariable/Constant", tables: &[&ranvar::CONSTANT], make: ranvar::make_constant },
    Class { name: "RandomVariable/HyperExponential", tables: &[&ranvar::HYPEREXPONENTIAL], make: ranvar::make_hyperexp },
    Class { name: "RandomVariable/Weibull", tables: &[&ranvar::WEIBULL], make: ranvar::make_weibull },
    Class { name: "RandomVariable/Empirical", tables: &[&ranvar::EMPIRICAL, &ranvar::EMPIRICAL_SIZE], make: ranvar::make_empirical },
    Class { name: "ErrorModule", tables: &[&errmodel::ERROR_MODULE], make: errmodel::make_error_module },
    Class { name: "ErrorModel", tables: &[&errmodel::ERROR_MODEL], make: errmodel::make_error_model },
    Class { name: "ErrorModel/Periodic", tables: &[&errmodel::ERROR_MODEL, &errmodel::PERIODIC], make: errmodel::make_periodic },
    Class { name: "ErrorModel/List", tables: &[&errmodel::ERROR_MODEL], make: errmodel::make_list },
    Class { name: "Classifier/Hash/Fid", tables: HASH, make: errmodel::make_hash_fid },
    Class { name: "Classifier/Hash/Dest", tables: HASH, make: errmodel::make_hash_dest },
    Class { name: "Classifier/Hash/SrcDest", tables: HASH, make: errmodel::make_hash_src_dest },
    Class { name: "Classifier/Hash/SrcDestFid", tables: HASH, make: errmodel::make_hash_src_dest_fid },
    Class { name: "Classifier/DelayBox", tables: &[], make: misc::make_delaybox },
    Class { name: "Delayer", tables: &[&misc::DELAYER], make: misc::make_delayer },
    Class { name: "Node/MobileNode", tables: &[&misc::NODE, &wireless::MOBILE_NODE], make: wireless::make_mobile_node },
    Class { name: "Topography", tables: &[], make: wireless::make_topography },
    Class { name: "God", tables: &[&wireless::GOD], make: wireless::make_god },
    Class { name: "Channel/WirelessChannel", tables: &[&wireless::CHANNEL], make: crate::ns2::wjoin::make_channel },
    Class { name: "Phy/WirelessPhy", tables: &[&wireless::PHY, &wireless::WIRELESS_PHY], make: wireless::make_inert },
    Class { name: "Mac/802_11", tables: &[&wireless::MAC, &wireless::MAC_802_11], make: wireless::make_inert },
    Class { name: "Mac/Tdma", tables: &[&wireless::MAC, &wireless::MAC_TDMA], make: wireless::make_inert },
    Class { name: "Mac/802_11Ext", tables: &[&wireless::MAC, &wireless::MAC_802_11EXT], make: wireless::make_inert },
    Class { name: "Phy/WirelessPhyExt", tables: &[&wireless::PHY, &wireless::WIRELESS_PHY_EXT], make: wireless::make_inert },
    Class { name: "LL", tables: &[&lan::LAN_LL], make: lan::make_ll },
    Class { name: "Antenna/OmniAntenna", tables: &[&wireless::OMNI_ANTENNA], make: wireless::make_inert },
    Class { name: "Propagation/TwoRayGround", tables: &[], make: wireless::make_two_ray_ground },
    Class { name: "Propagation/FreeSpace", tables: &[], make: wireless::make_free_space },
    Class { name: "Propagation/Shadowing", tables: &[&wireless::SHADOWING], make: wireless::make_shadowing },
    Class { name: "Propagation/Nakagami", tables: &[&wireless::NAKAGAMI], make: wireless::make_nakagami },
    // On a wired link (or a LAN interface) ns-2's PriQueue is a DropTail
    // that puts routing-protocol packets (DSR, Agent/Message, TORA, AODV,
    // AOMDV, M-DART) at the head: none of them travels a wired link here,
    // so it is DropTail; mobile nodes' interface queues are the wireless
    // stack's (wireless/ifq.rs), made from the class name, not by `new`.
    Class { name: "Queue/DropTail/PriQueue", tables: &[&queue::QUEUE, &queue::DROPTAIL, &wireless::PRI_QUEUE], make: |s, id| make_queue(s, id, Qdisc::DropTail(Default::default())) },
    Class { name: "CMUPriQueue", tables: &[&wireless::CMU_PRI_QUEUE], make: wireless::make_inert },
    Class { name: "Mac", tables: &[&wireless::MAC, &lan::LAN_MAC], make: lan::make_mac },
    Class { name: "LL/LLSnoop", tables: &[&lan::LAN_LL, &lan::LL_SNOOP], make: lan::make_ll_snoop },
    Class { name: "Snoop", tables: &[&lan::SNOOP], make: wireless::make_inert },
    Class { name: "Mac/802_3", tables: &[&wireless::MAC, &lan::LAN_MAC, &lan::MAC_802_3], make: lan::make_mac_802_3 },
    Class { name: "Phy/WiredPhy", tables: &[&wireless::PHY, &lan::WIRED_PHY], make: lan::make_phy },
    Class { name: "Channel", tables: &[&wireless::CHANNEL, &lan::LAN_CHANNEL], make: lan::make_channel },
    Class { name: "LanRouter", tables: &[], make: lan::make_router },
    Class { name: "VARPTable", tables: &[], make: lan::make_varp },
    Class { name: "NetworkInterface", tables: &[&lan::NETWORK_INTERFACE], make: lan::make_iface },
    Class { name: "Classifier/Replicator", tables: &[&misc::CLASSIFIER, &lan::REPLICATOR], make: lan::make_replicator },
    Class { name: "Trace/Collision", tables: &[&trace::TRACE], make: lan::make_collision },
    Class { name: "Agent/DSDV", tables: &[&wireless::AGENT_DSDV], make: wireless::make_inert },
];

/// The two-way TCP classes' tables: TcpAgent's, then FullTcpAgent's.
const FULLTCP: &[&dyn Bindings] = &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &fulltcp::FULLTCP];

/// The Bay two-way TCP's tables: TcpAgent's, then BayFullTcpAgent's.
const BAYFULLTCP: &[&dyn Bindings] = &[&agent::AGENT, &tcp::TCP, &tcp::TCP_TRACED, &tcp::TCP_UNMODELLED, &bay::BAYFULLTCP];

/// The hash classifiers' tables: `Classifier`'s, then `Classifier/Hash`'s.
const HASH: &[&dyn Bindings] = &[&misc::CLASSIFIER, &errmodel::CLASSIFIER_FIELDS, &errmodel::HASH];

/// The class named `name`.
pub fn find(name: &str) -> Option<(u16, &'static Class)> {
    CLASSES.iter().enumerate().find(|(_, c)| c.name == name).map(|(i, c)| (i as u16, c))
}

impl Class {
    /// Its variables the engine binds, in order: (name, type).
    pub fn bound(&self) -> Vec<(&'static str, VarType)> {
        let mut v = Vec::new();
        for t in self.tables {
            t.each(&mut |name, ty, _, bound| {
                if bound && !v.iter().any(|(n, _)| *n == name) {
                    v.push((name, ty));
                }
            });
        }
        v
    }

    /// Read `var` of object `obj` (made by this class).
    pub fn get(&self, obj: &mut Obj, w: &mut crate::sim::World, var: &str) -> Option<String> {
        self.tables.iter().rev().find_map(|t| t.get(obj, w, var))
    }

    /// Write `var` of object `obj`; `None` if the class binds no such variable.
    pub fn set(&self, obj: &mut Obj, w: &mut crate::sim::World, var: &str, value: &str) -> Option<Result<(), String>> {
        self.tables.iter().rev().find_map(|t| t.set(obj, w, var, value))
    }
}

/// Every declared range (`bind::Range`, not `Any`): (the class of its
/// table, variable, range, why), a table several classes share once, in
/// the registry's order.
pub fn declared_ranges() -> Vec<(&'static str, &'static str, Range, &'static str)> {
    let mut seen: Vec<*const ()> = Vec::new();
    let mut out = Vec::new();
    for c in CLASSES {
        for t in c.tables {
            let key = *t as *const dyn Bindings as *const ();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            t.ranges(&mut |name, range, why| {
                if range != Range::Any && !out.iter().any(|(c, n, _, _)| *c == t.class() && *n == name) {
                    out.push((t.class(), name, range, why));
                }
            });
        }
    }
    out
}

/// The declared ranges as the Markdown table docs/reliability.md shows
/// (between its `declared-ranges` markers; tests/ranges.rs checks it).
pub fn ranges_markdown() -> String {
    let mut s = String::from("| class | variable | must be | outside it |\n|---|---|---|---|\n");
    for (class, var, range, why) in declared_ranges() {
        s.push_str(&format!("| `{class}` | `{var}` | {} | {why} |\n", range.describe()));
    }
    s
}

/// The class defaults of every table, as the Tcl the library evaluates at
/// start-up: `::dumbbell::class_vars CLASS {var value ...}` per table, in
/// the registry's order (a table several classes share, once), and `CLASS
/// set var [OTHER set var]` for a default that is another's.
pub fn defaults_tcl() -> String {
    // (Built with push_str rather than format!: it runs at every start-up;
    // docs/performance.md.)
    let mut seen: Vec<*const ()> = Vec::with_capacity(64);
    let mut out = String::with_capacity(8192);
    let mut same = String::new();
    for c in CLASSES {
        for t in c.tables {
            let key = *t as *const dyn Bindings as *const ();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let start = out.len();
            out.push_str("::dumbbell::class_vars ");
            out.push_str(t.class());
            out.push_str(" {\n");
            let head = out.len();
            t.each(&mut |name, _, default, _| match default {
                ClassDefault::None => {}
                ClassDefault::Text(v) => {
                    for s in ["    ", name, " ", v, "\n"] {
                        out.push_str(s);
                    }
                }
                ClassDefault::SameAs(cls, var) => {
                    for s in [t.class(), " set ", name, " [", cls, " set ", var, "]\n"] {
                        same.push_str(s);
                    }
                }
            });
            if out.len() == head {
                out.truncate(start);
            } else {
                out.push_str("}\n");
            }
            out.push_str(&same);
            same.clear();
        }
    }
    out
}
