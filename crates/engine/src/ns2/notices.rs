//! The core's notices as the ns-2 library hears them: each the Tcl ns-2
//! would evaluate (its C++ calls into OTcl) or the text it would print.

use crate::ns2::tclcl::fmt_real;
use crate::sim::{Obj, Sim};

/// A held packet's index for the Tcl side (-1: none held).
fn held(p: crate::packet::PktId) -> i64 {
    if p == crate::packet::PktId::NONE {
        -1
    } else {
        p.index() as i64
    }
}

impl Sim {
    /// The engine's notices since the last call, as the Tcl ns-2 would
    /// evaluate for each (C++ call-backs into OTcl), in order.  Notices for
    /// which ns-2's C++ prints (`printf`) add to the C standard output.
    pub fn tcl_calls(&mut self) -> Vec<String> {
        use crate::notice::{Abort, Notice, PingTimes};
        let mut calls = Vec::new();
        for n in self.take_notices() {
            let s = match n {
                Notice::Abort(why) => {
                    let what = match why {
                        Abort::UndefinedWindowRule { option, defined } => {
                            let now = crate::ns2::printf::format_g(self.w.s.now, 17);
                            format!("windowOption_ {option} is not a window option ns-2 defines ({defined}) for this sender (at time {now}); ns-2 aborts here (exit status 1)")
                        }
                        Abort::DelayerNotEmpty { .. } => {
                            self.w.c_stdout.extend_from_slice(b"delayer not empty!\n");
                            "a Delayer received a packet while holding one (its sender is not a link's queue); ns-2 exits here too (its trace files are left unflushed, Dumbbell's are flushed)".into()
                        }
                        Abort::DelayerCalledBack { .. } => {
                            self.w.c_stdout.extend_from_slice(b"Scheduler: Event UID not valid!\n\n");
                            "a Delayer was called back by its target (another Delayer chained behind it) while handing it a packet; ns-2 sends that packet twice and aborts".into()
                        }
                        Abort::VegasWindow { agent, window, megabytes } => {
                            let why = match megabytes {
                                None => "ns-2 crashes here (its send-time table cannot be allocated)".to_string(),
                                Some(mb) => format!("its send-time table would take {mb} MB"),
                            };
                            // (window_ as `$agent set window_` shows it)
                            format!("{} (Agent/TCP/Vegas): window_ {} cannot size Vegas's send-time table: {why}", self.name(agent), fmt_real(window))
                        }
                        Abort::Dsr(crate::wireless::dsr::Unbuilt::FlowError) => "a DSR node nested a fourth unknown-flow error in one packet (dsragent.cc's sendUnknownFlow checks the count of unknown default flows instead, and ns-2 2.35 writes past the header's three places); Dumbbell stops here".to_string(),
                        Abort::Dsr(crate::wireless::dsr::Unbuilt::QueueKind) => "a link failed under -adhocRouting DSR with an interface queue other than CMUPriQueue: ns-2 2.35's DSR agent takes its queue to be a CMUPriQueue and crashes here (DSRAgent::xmitFailed); use -ifqType CMUPriQueue".to_string(),
                        Abort::NoTrace { agent } => format!(
                            "the Application/Traffic/Trace sending through {} was started without a Tracefile (attach-tracefile) \
                             or with an empty one; ns-2 crashes here",
                            self.name(agent)
                        ),
                        Abort::PacingAlgorithm { agent, algorithm } => format!(
                            "{} (Agent/TCP/Vegas/RBP): rbp_rate_algorithm_ {algorithm} is neither 1 (RBP_VEGAS_RATE_ALGORITHM) \
                             nor 2 (RBP_CWND_ALGORITHM) when pacing starts; ns-2 aborts here",
                            self.name(agent)
                        ),
                        Abort::NegativeDelay { at, delay } => {
                            // Scheduler::schedule's warning and dispatch's abort, in ns-2's %f
                            let f = |x: f64| crate::ns2::printf::sprintf("%f", &[crate::ns2::printf::Arg::Float(x)]).unwrap_or_default();
                            format!(
                                "an event was scheduled with a negative delay ({}) at time {}: time would go backwards \
                                 (a negative interval, overhead_ or timer setting, a packetSize_ or segsize_ below minus the header, or a size that overflowed?); \
                                 ns-2 aborts here too (scheduler going backwards in time)",
                                f(delay),
                                f(at)
                            )
                        }
                        Abort::RedAverageOverflow { q_w } => format!(
                            "Queue/RED: the average queue overflowed: q_weight_ {} scales it by {} at each arrival, so it grows without bound \
                             (a flow queue of an FQ link is never reset, so q_weight_ -1 or -2, which reset turns into a weight from the link, stays as it is: \
                             set Queue/RED's q_weight_ between 0 and 1 for FQLink's RED flow queues); ns-2 stops here with a floating-point exception",
                            fmt_real(q_w),
                            fmt_real(1.0 - q_w)
                        ),
                        Abort::RedIdlePeriods { periods } => format!(
                            "Queue/RED: the link was idle for {} packet times (its bandwidth / (8 mean_pktsize_) x the idle time), \
                             more than a C int holds: the link is too fast, or mean_pktsize_ too small, for RED's averaging; \
                             ns-2 stops here with a floating-point exception",
                            fmt_real(periods)
                        ),
                        Abort::XcpZeroWindow { agent, cwnd } => format!(
                            "{} (an XCP sender): it sends with a window of 0 packets (cwnd_ {}, or window_ 0): \
                             XcpEndsys::send divides the RTT by the window; ns-2 crashes here (floating-point exception)",
                            self.name(agent),
                            fmt_real(cwnd)
                        ),
                        Abort::WindowNotAnInt { agent, window } => format!(
                            "{} (a TCP sender): window_ {} does not fit a C int when the sender is reset \
                             (TcpAgent::reset: ssthresh_ = int(window_)); ns-2 crashes here (floating-point exception)",
                            self.name(agent),
                            fmt_real(window)
                        ),
                        Abort::SourceRate { agent, rate } => format!(
                            "the traffic source on {} was started with rate_ {} b/s, which gives no time between its packets \
                             (rate_ and interval_ must be positive and finite); ns-2 crashes here (floating-point exception)",
                            self.name(agent),
                            fmt_real(rate)
                        ),
                        Abort::PacketSizeDivision { agent, bytes, size } => format!(
                            "{} (a TCP sender) was asked to send {bytes} bytes with packetSize_ {}: it counts them in packets \
                             of that size (TcpAgent::sendmsg: nbytes / size_); ns-2 crashes here (floating-point exception)",
                            self.name(agent),
                            size
                        ),
                        Abort::RateDivision { agent, what } => format!(
                            "{} ({}): {}; ns-2 crashes here (floating-point exception)",
                            self.name(agent),
                            match what {
                                crate::notice::RateDivisor::InitialRate => "InitRate_ 0",
                                crate::notice::RateDivisor::NoRtt => "no report yet",
                            },
                            crate::notice::Abort::RateDivision { agent, what }
                        ),
                        Abort::DiffServ(fault) => crate::ns2::dsred::fault_text(fault),
                        Abort::IdleTimerCancelled { agent } => format!(
                            "{} (Agent/BayTcpApp/FtpClient): its connection ended while it had no request pending, \
                             and it cancels its idle timer; ns-2 aborts here (Attempting to cancel timer which is not scheduled)",
                            self.name(agent)
                        ),
                        Abort::ServiceClass { class, at_exit } => format!(
                            "a packet of class (prio_) {class} {}: the classes are 1 to 4 (set by a Queue/Marker at the edge); ns-2 aborts here",
                            if at_exit { "left the network through a Queue/Demarker" } else { "arrived at a Queue/JoBS" }
                        ),
                        Abort::CbqUnboundFlow { fid } => Abort::CbqUnboundFlow { fid }.to_string(),
                        Abort::ErrorModel { model, what } => {
                            use crate::errmodel::{num, Trap};
                            let what = match what {
                                Trap::Period(v) | Trap::Offset(v) => format!(
                                    "{} {} is not a whole number of packets or bytes a C int holds (ns-2 converts it with int())",
                                    if matches!(what, Trap::Period(_)) { "period_" } else { "offset_" },
                                    num(v)
                                ),
                                Trap::ByteRate { rate, size } => format!(
                                    "rate_ {} per byte overflows the loss probability of a {size}-byte packet (1 - (1 - rate_)^{size})",
                                    num(rate)
                                ),
                                Trap::Bandwidth(b) => format!(
                                    "bandwidth_ {} gives no transmission time for a dropped packet, after which it resumes its queue",
                                    num(b)
                                ),
                                Trap::InfiniteDelay => "delay_ is infinite: a packet it delays (delay_pkt_) would never arrive".to_string(),
                            };
                            format!("{} (an error model): {what}; ns-2 crashes here (floating-point exception)", self.name(model))
                        }
                        Abort::DsdvHeldLoop { node, dst } => format!(
                            "the DSDV agent of node {node} re-sent the packets it held for node {dst} before its table had a route \
                             there, and a packet it sent went back to the end of the queue: ns-2 2.35 loops here for ever \
                             (dsdv.cc's processUpdate, \"XXX possible loop here\"); Dumbbell stops"
                        ),
                        Abort::Front(what) => what,
                    };
                    format!("::dumbbell::abort {{{what}}}")
                }
                Notice::NoSlot { node, local, port, dest, uid } => {
                    // The slot ns-2's no-slot call names, printed as an
                    // unsigned 32-bit value: the port, or a hash
                    // classifier's miss (-1).
                    let (kind, slot, what) = if local {
                        ("port", port as u32, format!("no agent at port {port} of node {node}"))
                    } else {
                        ("dest", u32::MAX, format!("no route from node {node} to node {dest}"))
                    };
                    format!("::dumbbell::no_slot {kind} {node} {slot} {uid} {{{what}}}")
                }
                // HashClassifier::unknown's `unknown-flow` (addresses and
                // flow id as %u), then the rest of Classifier::find
                // (python/dumbbell/ns2/lib/classifier.tcl)
                Notice::UnknownFlow { classifier, src, dst, fid, pkt } => format!(
                    "::dumbbell::unknown_flow {} {} {} {} {}",
                    self.name(classifier),
                    src as u32,
                    dst as u32,
                    fid as u32,
                    held(pkt)
                ),
                // Classifier::find's `no-slot` (the slot as %ld of an int)
                Notice::ClassifierNoSlot { classifier, slot, src, dst, fid, pkt } => format!(
                    "::dumbbell::classifier_no_slot {} {} {} {} {} {}",
                    self.name(classifier),
                    slot as u32,
                    src as u32,
                    dst as u32,
                    fid as u32,
                    held(pkt)
                ),
                Notice::NewFlow { classifier, flow } => format!("::dumbbell::adopt_flow {} {}", self.name(classifier), self.name(flow)),
                Notice::AppRecv { app, bytes } => format!("{} recv {bytes}", self.name(app)),
                Notice::AppResume { app } => format!("{} resume", self.name(app)),
                Notice::SenderDone { agent } => format!("{} done", self.name(agent)),
                Notice::SendBufferEmpty { agent } => format!("{} done_data", self.name(agent)),
                Notice::Loss { agent } => format!("{} log-loss", self.name(agent)),
                Notice::PingReply { agent, from, times } => {
                    // ns-2 formats the times with "%3.1f" and evaluates the call.
                    let mut s = format!("{} recv {from} ", self.name(agent)).into_bytes();
                    match times {
                        PingTimes::OneWay { seq, there, back } => {
                            crate::ns2::printf::push_int(&mut s, seq as i64, 0, false);
                            s.push(b' ');
                            crate::ns2::printf::push_f(&mut s, there, 1, 3, false);
                            s.push(b' ');
                            crate::ns2::printf::push_f(&mut s, back, 1, 3, false);
                        }
                        PingTimes::RoundTrip(rtt) => crate::ns2::printf::push_f(&mut s, rtt, 1, 3, false),
                    }
                    String::from_utf8(s).expect("ASCII")
                }
                // rtProtoDV::recv's call-back
                Notice::RouteMsg { agent, from, msg } => format!("{} recv-update {from} {msg}", self.name(agent)),
                Notice::PingBroadcast { agent, reply, from, sport } => {
                    let what = if reply { "REPLY" } else { "REQ" };
                    if let Some(Obj::Agent(a)) = self.objs.get(agent as usize) {
                        let line = format!("Recv BRDCAST Ping {what} : at {}.{} from {from}.{sport}\n", a.base.addr, a.base.port);
                        self.w.c_stdout.extend_from_slice(line.as_bytes());
                    }
                    continue;
                }
                Notice::LossHistory { rate, intervals, short, .. } => {
                    // TfrcSinkAgent's print_loss, print_loss_all,
                    // print_losses_all, print_count_losses_all and
                    // print_num_rtts_all.
                    use crate::ns2::printf::{push_f, push_int};
                    let now = self.w.s.now;
                    let mut out = Vec::new();
                    if let Some((sample, ave)) = rate {
                        let drops = 1.0 / ave;
                        out.extend_from_slice(b"time: ");
                        push_f(&mut out, now, 5, 7, false);
                        out.extend_from_slice(b" loss_rate: ");
                        push_f(&mut out, drops, 5, 7, false);
                        out.extend_from_slice(b" \ntime: ");
                        push_f(&mut out, now, 5, 7, false);
                        out.extend_from_slice(b" sample 0: ");
                        push_int(&mut out, sample as i64, 5, false);
                        out.extend_from_slice(b" loss_rate: ");
                        push_f(&mut out, drops, 5, 7, false);
                        out.extend_from_slice(b" \n");
                    }
                    let mut row = |label: &str, v: &[i32; 5]| {
                        push_f(&mut out, now, 6, 0, false);
                        out.extend_from_slice(b": ");
                        out.extend_from_slice(label.as_bytes());
                        for (i, x) in v.iter().enumerate() {
                            out.extend_from_slice(format!(" {i}: ").as_bytes());
                            push_int(&mut out, *x as i64, 5, false);
                        }
                        out.push(b'\n');
                    };
                    row("sample", &intervals);
                    if let Some([losses, count, rtts]) = short {
                        row("losses", &losses);
                        row("count?", &count);
                        row("rtts", &rtts);
                    }
                    self.w.c_stdout.extend_from_slice(&out);
                    continue;
                }
                Notice::DelayerState { last_sent, alloc_free, target_free, spike_free, .. } => {
                    let line = format!(
                        "now {} last_sent {} alloc_free {} target_free {}, spike_free {}\n",
                        crate::ns2::printf::format_f(self.w.s.now, 6),
                        crate::ns2::printf::format_f(last_sent, 6),
                        alloc_free as i32,
                        target_free as i32,
                        spike_free as i32
                    );
                    self.w.c_stdout.extend_from_slice(line.as_bytes());
                    continue;
                }
            };
            calls.push(s);
        }
        calls
    }

    /// The warnings since the last call, in ns-2's (or our) words.
    pub fn warning_texts(&mut self) -> Vec<String> {
        use crate::errmodel::Unmodelled;
        use crate::notice::Warning;
        self.take_warnings()
            .into_iter()
            .map(|w| match w {
                Warning::PacketSizeNotPositive { agent } => format!("{}: packetSize_ must be positive to send", self.name(agent)),
                Warning::HeaderTooSmall { agent, bytes } => format!("TcpAgent({}): warning: tcpip hdr size is only {bytes} bytes", self.name(agent)),
                Warning::InitialWindowOption { agent, option } => {
                    format!("{}: windowInitOption_ {option} is not 1 or 2 (ns-2 aborts)", self.name(agent))
                }
                Warning::ErrorModel { problem, .. } => match problem {
                    Unmodelled::UniformInTime => "ErrorModel: a uniform rate cannot be time-based (ns-2 corrupts nothing)".into(),
                    Unmodelled::ListInTime => "ListErrorModel: error, EU_TIME not supported".into(),
                    Unmodelled::EmptyList => "warning: ListErrorModel: null drop list".into(),
                },
                Warning::Front(s) => s,
            })
            .collect()
    }
}
