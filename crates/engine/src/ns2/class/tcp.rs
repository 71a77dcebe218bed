//! The TCP senders (tcp/tcp.cc `TcpAgent` and its flavours: tcp-reno.cc,
//! tcp-newreno.cc, tcp-sack1.cc, tcp-rfc793edu.cc, tcp-vegas.cc) and sinks
//! (tcp/tcp-sink.cc `TcpSink`, `DelAckSink`, `Sacker`).  ns-2 2.35 binds
//! every TcpAgent variable through delay binding (`TCP_DELAY_BIND_ALL`).

use crate::agent::{Agent, AgentBase, AgentKind};
use crate::ns2::bind::*;
use crate::packet::PacketType;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::sink::Sink;
use crate::tcp::fack::FackState;
use crate::tcp::rbp::{Paced, RbpState};
use crate::tcp::rfc793edu::Rfc793State;
use crate::tcp::sack1::Sack1State;
use crate::tcp::vegas::VegasState;
use crate::tcp::{Flavor, NewRenoState, Sender, Tcp, TracedValue, Tv};
use crate::tcp::growth::{binomial::Binomial, ecnmod::EcnMod, highspeed::HighSpeed, newecn::NewEcn, scaled::Scaled};
use crate::ns2::tclcl::VarType::*;

/// A TCP sender's agent fields and its sender state.
fn sender(o: &mut Obj) -> Option<(&mut AgentBase, &mut Sender)> {
    match agent_parts(o)? {
        (base, AgentKind::Tcp(t)) => Some((base, &mut t.sender)),
        _ => None,
    }
}

fn flavor(o: &mut Obj) -> Option<&mut Flavor> {
    match o {
        Obj::Agent(a) => match &mut a.kind {
            AgentKind::Tcp(t) => Some(&mut t.flavor),
            _ => None,
        },
        _ => None,
    }
}

fn newreno(o: &mut Obj) -> Option<&mut NewRenoState> {
    match flavor(o)? {
        Flavor::NewReno(s) => Some(s),
        _ => None,
    }
}

fn sack1(o: &mut Obj) -> Option<&mut Sack1State> {
    match flavor(o)? {
        Flavor::Sack1(s) => Some(s),
        _ => None,
    }
}

fn fack(o: &mut Obj) -> Option<&mut FackState> {
    match flavor(o)? {
        Flavor::Fack(s) => Some(s),
        _ => None,
    }
}

fn rfc793edu(o: &mut Obj) -> Option<&mut Rfc793State> {
    match flavor(o)? {
        Flavor::Rfc793edu(s) => Some(s),
        _ => None,
    }
}

fn vegas(o: &mut Obj) -> Option<&mut VegasState> {
    match flavor(o)? {
        Flavor::Vegas(s) => Some(s),
        Flavor::Rbp(r) => match &mut r.paced {
            Paced::Vegas(s) => Some(s),
            Paced::Reno => None,
        },
        _ => None,
    }
}

fn rbp(o: &mut Obj) -> Option<&mut RbpState> {
    match flavor(o)? {
        Flavor::Rbp(s) => Some(s),
        _ => None,
    }
}

/// What every TCP sender binds (tcp.cc `TcpAgent::delay_bind_dispatch`),
/// with ns-default.tcl's defaults.
pub static TCP: Table2<AgentBase, Sender> = Table2 {
    class: "Agent/TCP",
    part: sender,
    vars: &[
        var2("window_", Real, "20", |_, s, _| real(s.wnd()), |_, s, v, _| Ok(s.set_wnd(parse_real(v)))),
        var2("windowInit_", Real, "2", |_, s, _| real(s.wnd_init), |_, s, v, _| Ok(s.wnd_init = parse_real(v))),
        var2("windowInitOption_", Int, "1", |_, s, _| int(s.wnd_init_option), |_, s, v, _| Ok(s.wnd_init_option = parse_int(v))),
        var2("syn_", Bool, "true", |_, s, _| boolean(s.syn), |_, s, v, _| Ok(s.syn = parse_bool(v))),
        var2("max_connects_", Int, "-1", |_, s, _| int(s.max_connects), |_, s, v, _| Ok(s.max_connects = parse_int(v))),
        var2("windowOption_", Int, "1", |_, s, _| int(s.growth.option()), |_, s, v, w| Ok(s.select_growth(parse_int(v), w))),
        var2("newecn_", Bool, "false", |_, s, _| boolean(s.newecn), |_, s, v, w| { s.newecn = parse_bool(v); let option = s.growth.option(); s.select_growth(option, w); Ok(()) }),
        var2("newecn_alpha_wnd_", Real, "0.9", |_, s, _| real(s.growth.get::<NewEcn>().alpha_wnd), |_, s, v, _| Ok(s.growth.get_mut::<NewEcn>().alpha_wnd = parse_real(v))),
        var2("newecn_alpha_slp_", Real, "0.9", |_, s, _| real(s.growth.get::<NewEcn>().alpha_slp), |_, s, v, _| Ok(s.growth.get_mut::<NewEcn>().alpha_slp = parse_real(v))),
        var2("newecn_beta_", Real, "16", |_, s, _| real(s.growth.get::<NewEcn>().beta), |_, s, v, _| Ok(s.growth.get_mut::<NewEcn>().beta = parse_real(v))),
        var2("slope_window_", Real, "1.0", |_, s, _| real(s.growth.get::<NewEcn>().slope), |_, s, v, _| Ok(s.growth.get_mut::<NewEcn>().slope = parse_real(v))),
        var2("last_time_", Real, "0.0", |_, s, _| real(s.growth.get::<NewEcn>().last_time), |_, s, v, _| Ok(s.growth.get_mut::<NewEcn>().last_time = parse_real(v))),
        var2("first_time_", Int, "0", |_, s, _| int(s.growth.get::<NewEcn>().first_time), |_, s, v, _| Ok(s.growth.get_mut::<NewEcn>().first_time = parse_int(v))),
        // Dumbbell's own (seed 003's ECN-mod, `tcp/growth/ecnmod.rs`): the rule
        // whatever windowOption_, and eq. 5's c1 w^alpha and c2 w^beta.
        var2("ecnmod_", Bool, "false", |_, s, _| boolean(s.ecnmod), |_, s, v, w| { s.ecnmod = parse_bool(v); let option = s.growth.option(); s.select_growth(option, w); Ok(()) }),
        within2(var2("ecnmod_c1_", Real, "0.0625", |_, s, _| real(s.growth.get::<EcnMod>().c1), |_, s, v, _| Ok(s.growth.get_mut::<EcnMod>().c1 = positive("ecnmod_c1_", v)?)),
            Range::Positive, "the increase per unmarked ACK at w = 1 (seed 003): 0 or less never opens the window"),
        within2(var2("ecnmod_c2_", Real, "0.125", |_, s, _| real(s.growth.get::<EcnMod>().c2), |_, s, v, _| Ok(s.growth.get_mut::<EcnMod>().c2 = fraction("ecnmod_c2_", v)?)),
            Range::OpenUnit, "the share of the window a mark takes off: 0 is none, 1 or more leaves no window"),
        within2(var2("ecnmod_alpha_", Real, "0", |_, s, _| real(s.growth.get::<EcnMod>().alpha), |_, s, v, _| Ok(s.growth.get_mut::<EcnMod>().alpha = finite("ecnmod_alpha_", v)?)),
            Range::Finite, "an exponent of the window (seed 003): infinite or NaN makes the window NaN"),
        within2(var2("ecnmod_beta_", Real, "1", |_, s, _| real(s.growth.get::<EcnMod>().beta), |_, s, v, _| Ok(s.growth.get_mut::<EcnMod>().beta = finite("ecnmod_beta_", v)?)),
            Range::Finite, "an exponent of the window (seed 003): infinite or NaN makes the window NaN"),
        var2("mark_", Real, "0.0", |_, s, _| real(s.mark), |_, s, v, _| Ok(s.mark = parse_real(v))),
        var2("windowConstant_", Real, "4", |_, s, _| real(s.growth.get::<Scaled>().wnd_const), |_, s, v, _| Ok(s.growth.get_mut::<Scaled>().wnd_const = parse_real(v))),
        var2("windowThresh_", Real, "0.002", |_, s, _| real(s.wnd_th), |_, s, v, _| Ok(s.wnd_th = parse_real(v))),
        var2("delay_growth_", Bool, "true", |_, s, _| boolean(s.delay_growth), |_, s, v, _| Ok(s.delay_growth = parse_bool(v))),
        within2(var2("overhead_", Real, "0", |_, s, _| real(s.overhead), |_, s, v, _| Ok(s.overhead = parse_real(v))),
            Range::NonNegative, "the most a send is delayed by (uniform on [0, overhead_]): ns-2 schedules a negative one into the past and aborts: scheduler going backwards"),
        within2(var2("tcpTick_", Real, "0.01", |_, s, _| real(s.tcp_tick()), |_, s, v, _| Ok(s.set_tcp_tick(parse_real(v)))),
            Range::Positive, "the timer granularity: ns-2 divides the clock and the RTT samples by it (0: a floating-point exception)"),
        var2("ecn_", Bool, "0", |_, s, _| boolean(s.ecn), |_, s, v, _| Ok(s.ecn = parse_bool(v))),
        var2("SetCWRonRetransmit_", Bool, "true", |_, s, _| boolean(s.set_cwr_on_retransmit), |_, s, v, _| Ok(s.set_cwr_on_retransmit = parse_bool(v))),
        var2("old_ecn_", Bool, "0", |_, s, _| boolean(s.old_ecn), |_, s, v, _| Ok(s.old_ecn = parse_bool(v))),
        var2("bugfix_ss_", Bool, "1", |_, s, _| boolean(s.bugfix_ss), |_, s, v, _| Ok(s.bugfix_ss = parse_bool(v))),
        var2("eln_", Int, "0", |_, s, _| int(s.eln), |_, s, v, _| Ok(s.eln = parse_int(v))),
        var2("eln_rxmit_thresh_", Int, "1", |_, s, _| int(s.eln_rxmit_thresh), |_, s, v, _| Ok(s.eln_rxmit_thresh = parse_int(v))),
        var2("packetSize_", Int, "1000", |a, _, _| int(a.size), |a, _, v, _| Ok(a.size = parse_int(v))),
        var2("tcpip_base_hdr_size_", Int, "40", |_, s, _| int(s.tcpip_base_hdr_size), |_, s, v, _| Ok(s.tcpip_base_hdr_size = parse_int(v))),
        var2("ts_option_size_", Int, "10", |_, s, _| int(s.ts_option_size), |_, s, v, _| Ok(s.ts_option_size = parse_int(v))),
        var2("bugFix_", Bool, "true", |_, s, _| boolean(s.bug_fix), |_, s, v, _| Ok(s.bug_fix = parse_bool(v))),
        var2("bugFix_ack_", Bool, "false", |_, s, _| boolean(s.bugfix_ack), |_, s, v, _| Ok(s.bugfix_ack = parse_bool(v))),
        var2("bugFix_ts_", Bool, "false", |_, s, _| boolean(s.bugfix_ts), |_, s, v, _| Ok(s.bugfix_ts = parse_bool(v))),
        var2("lessCareful_", Bool, "false", |_, s, _| boolean(s.less_careful), |_, s, v, _| Ok(s.less_careful = parse_bool(v))),
        var2("timestamps_", Bool, "false", |_, s, _| boolean(s.ts_option), |_, s, v, _| Ok(s.ts_option = parse_bool(v))),
        var2("ts_resetRTO_", Bool, "false", |_, s, _| boolean(s.ts_reset_rto), |_, s, v, _| Ok(s.ts_reset_rto = parse_bool(v))),
        var2("slow_start_restart_", Bool, "true", |_, s, _| boolean(s.slow_start_restart), |_, s, v, _| Ok(s.slow_start_restart = parse_bool(v))),
        var2("restart_bugfix_", Bool, "true", |_, s, _| boolean(s.restart_bugfix), |_, s, v, _| Ok(s.restart_bugfix = parse_bool(v))),
        var2("maxburst_", Int, "0", |_, s, _| int(s.maxburst), |_, s, v, _| Ok(s.maxburst = parse_int(v))),
        var2("aggressive_maxburst_", Bool, "1", |_, s, _| boolean(s.aggressive_maxburst), |_, s, v, _| Ok(s.aggressive_maxburst = parse_bool(v))),
        var2("maxcwnd_", Int, "0", |_, s, _| int(s.maxcwnd), |_, s, v, _| Ok(s.maxcwnd = parse_int(v))),
        var2("numdupacks_", Int, "3", |_, s, _| int(s.numdupacks), |_, s, v, _| Ok(s.numdupacks = parse_int(v))),
        var2("numdupacksFrac_", Int, "-1", |_, s, _| int(s.numdupacks_frac), |_, s, v, _| Ok(s.numdupacks_frac = parse_int(v))),
        var2("exitFastRetrans_", Bool, "true", |_, s, _| boolean(s.exit_fast_retrans), |_, s, v, _| Ok(s.exit_fast_retrans = parse_bool(v))),
        var2("maxrto_", Real, "60", |_, s, _| real(s.maxrto()), |_, s, v, _| Ok(s.set_maxrto(parse_real(v)))),
        var2("minrto_", Real, "0.2", |_, s, _| real(s.minrto()), |_, s, v, _| Ok(s.set_minrto(parse_real(v)))),
        var2("srtt_init_", Int, "0", |_, s, _| int(s.srtt_init), |_, s, v, _| Ok(s.srtt_init = parse_int(v))),
        var2("rttvar_init_", Int, "12", |_, s, _| int(s.rttvar_init), |_, s, v, _| Ok(s.rttvar_init = parse_int(v))),
        var2("rtxcur_init_", Real, "3.0", |_, s, _| real(s.rtxcur_init), |_, s, v, _| Ok(s.rtxcur_init = parse_real(v))),
        var2("T_SRTT_BITS", Int, "3", |_, s, _| int(s.t_srtt_bits), |_, s, v, _| Ok(s.t_srtt_bits = parse_int(v))),
        var2("T_RTTVAR_BITS", Int, "2", |_, s, _| int(s.t_rttvar_bits), |_, s, v, _| Ok(s.t_rttvar_bits = parse_int(v))),
        var2("rttvar_exp_", Int, "2", |_, s, _| int(s.rttvar_exp), |_, s, v, _| Ok(s.rttvar_exp = parse_int(v))),
        var2("awnd_", Real, "0", |_, s, _| real(s.awnd), |_, s, v, _| Ok(s.awnd = parse_real(v))),
        var2("decrease_num_", Real, "0.5", |_, s, _| real(s.decrease_num), |_, s, v, _| Ok(s.decrease_num = parse_real(v))),
        var2("increase_num_", Real, "1.0", |_, s, _| real(s.increase_num), |_, s, v, _| Ok(s.increase_num = parse_real(v))),
        var2("k_parameter_", Real, "0.0", |_, s, _| real(s.growth.get::<Binomial>().k_parameter), |_, s, v, _| Ok(s.growth.get_mut::<Binomial>().k_parameter = parse_real(v))),
        var2("l_parameter_", Real, "1.0", |_, s, _| real(s.growth.get::<Binomial>().l_parameter), |_, s, v, _| Ok(s.growth.get_mut::<Binomial>().l_parameter = parse_real(v))),
        var2("trace_all_oneline_", Bool, "false", |_, s, _| boolean(s.trace_all_oneline), |_, s, v, _| Ok(s.trace_all_oneline = parse_bool(v))),
        var2("nam_tracevar_", Bool, "false", |_, s, _| boolean(s.nam_tracevar), |_, s, v, _| Ok(s.nam_tracevar = parse_bool(v))),
        var2("QOption_", Int, "0", |_, s, _| int(s.qopt.qoption), |_, s, v, _| Ok(s.qopt.qoption = parse_int(v))),
        var2("EnblRTTCtr_", Int, "0", |_, s, _| int(s.qopt.enbl_rtt_ctr), |_, s, v, _| Ok(s.qopt.enbl_rtt_ctr = parse_int(v))),
        var2("control_increase_", Int, "0", |_, s, _| int(s.control_increase), |_, s, v, _| Ok(s.control_increase = parse_int(v))),
        var2("noFastRetrans_", Bool, "false", |_, s, _| boolean(s.no_fast_retrans), |_, s, v, _| Ok(s.no_fast_retrans = parse_bool(v))),
        var2("precisionReduce_", Bool, "true", |_, s, _| boolean(s.precision_reduce), |_, s, v, _| Ok(s.precision_reduce = parse_bool(v))),
        var2("oldCode_", Bool, "false", |_, s, _| boolean(s.old_code), |_, s, v, _| Ok(s.old_code = parse_bool(v))),
        var2("useHeaders_", Bool, "true", |_, s, _| boolean(s.use_headers), |_, s, v, _| Ok(s.use_headers = parse_bool(v))),
        var2("low_window_", Int, "38", |_, s, _| int(s.growth.get::<HighSpeed>().low_window), |_, s, v, _| Ok(s.growth.get_mut::<HighSpeed>().low_window = parse_int(v))),
        var2("high_window_", Int, "83000", |_, s, _| int(s.growth.get::<HighSpeed>().high_window), |_, s, v, _| Ok(s.growth.get_mut::<HighSpeed>().high_window = parse_int(v))),
        var2("high_p_", Real, "0.0000001", |_, s, _| real(s.growth.get::<HighSpeed>().high_p), |_, s, v, _| Ok(s.growth.get_mut::<HighSpeed>().high_p = parse_real(v))),
        var2("high_decrease_", Real, "0.1", |_, s, _| real(s.growth.get::<HighSpeed>().high_decrease), |_, s, v, _| Ok(s.growth.get_mut::<HighSpeed>().high_decrease = parse_real(v))),
        var2("max_ssthresh_", Int, "0", |_, s, _| int(s.max_ssthresh), |_, s, v, _| Ok(s.max_ssthresh = parse_int(v))),
        var2("cwnd_range_", Int, "0", |_, s, _| int(s.growth.get::<HighSpeed>().cwnd_range), |_, s, v, _| Ok(s.growth.get_mut::<HighSpeed>().cwnd_range = parse_int(v))),
        var2("timerfix_", Bool, "true", |_, s, _| boolean(s.timerfix), |_, s, v, _| Ok(s.timerfix = parse_bool(v))),
        var2("rfc2988_", Bool, "true", |_, s, _| boolean(s.rfc2988()), |_, s, v, _| Ok(s.set_rfc2988(parse_bool(v)))),
        var2("LimTransmitFix_", Bool, "false", |_, s, _| boolean(s.lim_transmit_fix), |_, s, v, _| Ok(s.lim_transmit_fix = parse_bool(v))),
        var2("rate_request_", Int, "0", |_, s, _| int(s.qs.rate_request), |_, s, v, _| Ok(s.qs.rate_request = parse_int(v))),
        var2("qs_enabled_", Bool, "false", |_, s, _| boolean(s.qs.qs_enabled), |_, s, v, _| Ok(s.qs.qs_enabled = parse_bool(v))),
        var2("tcp_qs_recovery_", Bool, "true", |_, s, _| boolean(s.qs.tcp_qs_recovery), |_, s, v, _| Ok(s.qs.tcp_qs_recovery = parse_bool(v))),
        var2("qs_request_mode_", Int, "1", |_, s, _| int(s.qs.qs_request_mode), |_, s, v, _| Ok(s.qs.qs_request_mode = parse_int(v))),
        var2("qs_thresh_", Int, "4", |_, s, _| int(s.qs.qs_thresh), |_, s, v, _| Ok(s.qs.qs_thresh = parse_int(v))),
        var2("qs_rtt_", Int, "50", |_, s, _| int(s.qs.qs_rtt), |_, s, v, _| Ok(s.qs.qs_rtt = parse_int(v))),
        var2("print_request_", Bool, "false", |_, s, _| boolean(s.qs.print_request), |_, s, v, _| Ok(s.qs.print_request = parse_bool(v))),
        var2("frto_enabled_", Bool, "0", |_, s, _| boolean(s.frto.frto_enabled), |_, s, v, _| Ok(s.frto.frto_enabled = parse_bool(v))),
        var2("sfrto_enabled_", Bool, "0", |_, s, _| boolean(s.frto.sfrto_enabled), |_, s, v, _| Ok(s.frto.sfrto_enabled = parse_bool(v))),
        var2("spurious_response_", Int, "1", |_, s, _| int(s.frto.spurious_response), |_, s, v, _| Ok(s.frto.spurious_response = parse_int(v))),
    ],
};

/// A traced variable as tclcl reads it back (`%g` of a TracedDouble, `%d`
/// of a TracedInt).
fn traced(s: &mut Sender, tv: Tv) -> String {
    match tv {
        Tv::Cwnd => crate::ns2::tclcl::fmt_traced_real(s.cwnd),
        _ => int(s.traced_int(tv)),
    }
}


/// The Tcl name of each traced variable of a TCP sender (each spelled here
/// once; the table below and the variable traces' lines take it from here).
pub const fn tv_name(tv: Tv) -> &'static str {
    match tv {
        Tv::TSeqno => "t_seqno_",
        Tv::Dupacks => "dupacks_",
        Tv::Curseq => "seqno_",
        Tv::Ack => "ack_",
        Tv::Cwnd => "cwnd_",
        Tv::Ssthresh => "ssthresh_",
        Tv::Maxseq => "maxseq_",
        Tv::Rtt => "rtt_",
        Tv::Srtt => "srtt_",
        Tv::Rttvar => "rttvar_",
        Tv::Backoff => "backoff_",
        Tv::Ndatapack => "ndatapack_",
        Tv::Ndatabytes => "ndatabytes_",
        Tv::Nackpack => "nackpack_",
        Tv::Nrexmit => "nrexmit_",
        Tv::Nrexmitpack => "nrexmitpack_",
        Tv::Nrexmitbytes => "nrexmitbytes_",
        Tv::Necnresponses => "necnresponses_",
        Tv::Ncwndcuts => "ncwndcuts_",
        Tv::Ncwndcuts1 => "ncwndcuts1_",
        Tv::Singledup => "singledup_",
    }
}

/// The traced variable named `name`.
pub fn tv_from_name(name: &str) -> Option<Tv> {
    Tv::ALL.iter().copied().find(|t| tv_name(*t) == name)
}

/// A script's value for traced variable `tv`, read as tclcl reads a
/// `TracedDouble` (`cwnd_`) or a `TracedInt`.
fn traced_value(tv: Tv, s: &str) -> TracedValue {
    match tv {
        Tv::Cwnd => TracedValue::Real(crate::ns2::tclcl::parse_real(s)),
        _ => TracedValue::Int(crate::ns2::tclcl::parse_int(s)),
    }
}

macro_rules! traced_var {
    ($tv:expr, $ty:expr) => {
        var2(tv_name($tv), $ty, "0", |_, s, _| traced(s, $tv), |a, s, v, w| Ok(s.set_traced(a, w, $tv, traced_value($tv, v))))
    };
}

/// The traced variables (`TracedInt`/`TracedDouble` members): written from
/// Tcl, a traced one writes its trace line as a change made by the sender.
pub static TCP_TRACED: Table2<AgentBase, Sender> = Table2 {
    class: "Agent/TCP",
    part: sender,
    vars: &[
        traced_var!(Tv::TSeqno, TracedInt),
        traced_var!(Tv::Dupacks, TracedInt),
        traced_var!(Tv::Curseq, TracedInt),
        traced_var!(Tv::Ack, TracedInt),
        traced_var!(Tv::Cwnd, TracedReal),
        traced_var!(Tv::Ssthresh, TracedInt),
        traced_var!(Tv::Maxseq, TracedInt),
        traced_var!(Tv::Rtt, TracedInt),
        traced_var!(Tv::Srtt, TracedInt),
        traced_var!(Tv::Rttvar, TracedInt),
        traced_var!(Tv::Backoff, TracedInt),
        traced_var!(Tv::Ndatapack, TracedInt),
        traced_var!(Tv::Ndatabytes, TracedInt),
        traced_var!(Tv::Nackpack, TracedInt),
        traced_var!(Tv::Nrexmit, TracedInt),
        traced_var!(Tv::Nrexmitpack, TracedInt),
        traced_var!(Tv::Nrexmitbytes, TracedInt),
        traced_var!(Tv::Necnresponses, TracedInt),
        traced_var!(Tv::Ncwndcuts, TracedInt),
        traced_var!(Tv::Ncwndcuts1, TracedInt),
        Var2 { default: ClassDefault::Text("1"), ..traced_var!(Tv::Singledup, TracedInt) },
    ],
};

/// Variables ns-2's TcpAgent binds that nothing here reads: only their
/// class defaults exist.
pub static TCP_UNMODELLED: Table<Sender> = Table {
    class: "Agent/TCP",
    part: |o| sender(o).map(|(_, s)| s),
    vars: &[script_var("updated_rttvar_", "true"), script_var("CoarseTimer_", "0")],
    after_set: None,
};

/// `NewRenoTcpAgent`'s own (tcp-newreno.cc).
pub static NEWRENO: Table<NewRenoState> = Table {
    class: "Agent/TCP/Newreno",
    part: newreno,
    vars: &[
        var("newreno_changes_", Int, "0", |s, _| int(s.newreno_changes), |s, v, _| Ok(s.newreno_changes = parse_int(v))),
        var("newreno_changes1_", Int, "1", |s, _| int(s.newreno_changes1), |s, v, _| Ok(s.newreno_changes1 = parse_int(v))),
        var("exit_recovery_fix_", Int, "0", |s, _| int(s.exit_recovery_fix), |s, v, _| Ok(s.exit_recovery_fix = parse_int(v))),
        var("partial_window_deflation_", Int, "1", |s, _| int(s.partial_window_deflation), |s, v, _| Ok(s.partial_window_deflation = parse_int(v))),
    ],
    after_set: None,
};

/// `Sack1TcpAgent`'s `partial_ack_` (its default is set on `Agent/TCP`).
pub static SACK1: Table<Sack1State> = Table {
    class: "Agent/TCP",
    part: sack1,
    vars: &[var("partial_ack_", Bool, "false", |s, _| int(s.partial_ack), |s, v, _| Ok(s.partial_ack = crate::ns2::tclcl::parse_bool_int(v)))],
    after_set: None,
};

/// `FackTcpAgent`'s switches (tcp-fack.cc): quarter the window on a loss
/// in slow start, and ramp the window down gradually.
pub static FACK: Table<FackState> = Table {
    class: "Agent/TCP/Fack",
    part: fack,
    vars: &[
        var("ss-div4_", Bool, "false", |s, _| int(s.ss_div4), |s, v, _| Ok(s.ss_div4 = crate::ns2::tclcl::parse_bool_int(v))),
        var("rampdown_", Bool, "false", |s, _| int(s.rampdown), |s, v, _| Ok(s.rampdown = crate::ns2::tclcl::parse_bool_int(v))),
    ],
    after_set: None,
};

/// `RFC793eduTcpAgent`'s switches and RTO (tcp-rfc793edu.cc), and its own
/// default of `syn_`.
pub static RFC793EDU: Table<Rfc793State> = Table {
    class: "Agent/TCP/RFC793edu",
    part: rfc793edu,
    vars: &[
        var("add793expbackoff_", Bool, "true", |s, _| int(s.expbackoff), |s, v, _| Ok(s.expbackoff = crate::ns2::tclcl::parse_bool_int(v))),
        var("add793jacobsonrtt_", Bool, "false", |s, _| int(s.jacobsonrtt), |s, v, _| Ok(s.jacobsonrtt = crate::ns2::tclcl::parse_bool_int(v))),
        var("add793fastrtx_", Bool, "false", |s, _| int(s.fastrtx), |s, v, _| Ok(s.fastrtx = crate::ns2::tclcl::parse_bool_int(v))),
        var("add793slowstart_", Bool, "false", |s, _| int(s.slowstart), |s, v, _| Ok(s.slowstart = crate::ns2::tclcl::parse_bool_int(v))),
        var("add793additiveinc_", Bool, "false", |s, _| int(s.additiveinc), |s, v, _| Ok(s.additiveinc = crate::ns2::tclcl::parse_bool_int(v))),
        var("add793karnrtt_", Bool, "true", |s, _| int(s.karnrtt), |s, v, _| Ok(s.karnrtt = crate::ns2::tclcl::parse_bool_int(v))),
        var("add793exponinc_", Bool, "false", |s, _| int(s.exponinc), |s, v, _| Ok(s.exponinc = crate::ns2::tclcl::parse_bool_int(v))),
        var("rto_", Real, "60", |s, _| real(s.rto), |s, v, _| Ok(s.rto = parse_real(v))),
        script_var("syn_", "true"),
    ],
    after_set: None,
};

/// `VegasTcpAgent`'s (tcp-vegas.cc): none of them is traced.
pub static VEGAS: Table<VegasState> = Table {
    class: "Agent/TCP/Vegas",
    part: vegas,
    vars: &[
        var("v_alpha_", Int, "1", |s, _| int(s.alpha), |s, v, _| Ok(s.alpha = parse_int(v))),
        var("v_beta_", Int, "3", |s, _| int(s.beta), |s, v, _| Ok(s.beta = parse_int(v))),
        var("v_gamma_", Int, "1", |s, _| int(s.gamma), |s, v, _| Ok(s.gamma = parse_int(v))),
        var("v_rtt_", Real, "0", |s, _| real(s.rtt), |s, v, _| Ok(s.rtt = parse_real(v))),
    ],
    after_set: None,
};

/// `RBPRenoTcpAgent`'s pacing variables (tcp-rbp.cc); it has no
/// algorithm to choose.
pub static RBP_RENO: Table<RbpState> = Table {
    class: "Agent/TCP/Reno/RBP",
    part: rbp,
    vars: &[
        var("rbp_scale_", Real, "0.75", |s, _| real(s.scale), |s, v, _| Ok(s.scale = parse_real(v))),
        var("rbp_segs_actually_paced_", Int, "0", |s, _| int(s.segs_paced), |s, v, _| Ok(s.segs_paced = parse_int(v))),
        var("rbp_inter_pace_delay_", Real, "0", |s, _| real(s.inter_pace_delay), |s, v, _| Ok(s.inter_pace_delay = parse_real(v))),
    ],
    after_set: None,
};

/// `RBPVegasTcpAgent`'s: Reno's and the window estimate to pace
/// (`rbp_rate_algorithm_`: 1 Vegas's rate times its RTT, 2 cwnd).
pub static RBP_VEGAS: Table<RbpState> = Table {
    class: "Agent/TCP/Vegas/RBP",
    part: rbp,
    vars: &[
        var("rbp_scale_", Real, "0.75", |s, _| real(s.scale), |s, v, _| Ok(s.scale = parse_real(v))),
        var("rbp_rate_algorithm_", Int, "1", |s, _| int(s.rate_algorithm), |s, v, _| Ok(s.rate_algorithm = parse_int(v))),
        var("rbp_segs_actually_paced_", Int, "0", |s, _| int(s.segs_paced), |s, v, _| Ok(s.segs_paced = parse_int(v))),
        var("rbp_inter_pace_delay_", Real, "0", |s, _| real(s.inter_pace_delay), |s, v, _| Ok(s.inter_pace_delay = parse_real(v))),
    ],
    after_set: None,
};

/// A TCP sender of flavour `flavor`, with id `id` (`TcpAgent::TcpAgent`:
/// 1000-byte packets of type `tcp`).
pub fn make_tcp(sim: &mut Sim, id: ObjId, flavor: Flavor) -> Obj {
    let t = Tcp::new(flavor, sim, id);
    let mut base = AgentBase::new(id, PacketType::Tcp);
    base.size = 1000;
    Obj::Agent(Box::new(Agent { base, kind: AgentKind::Tcp(Box::new(t)) }))
}

/// NewReno with tcp-newreno.cc's constructor values.
pub fn newreno_flavor() -> Flavor {
    Flavor::NewReno(NewRenoState { newreno_changes1: 1, partial_window_deflation: 1, ..Default::default() })
}

// ---- sinks ---------------------------------------------------------------------------------------

/// A sink's agent fields and its sink state.
fn sink(o: &mut Obj) -> Option<(&mut AgentBase, &mut Sink)> {
    match agent_parts(o)? {
        (base, AgentKind::Sink(s)) => Some((base, s)),
        _ => None,
    }
}

fn delack_sink(o: &mut Obj) -> Option<&mut Sink> {
    sink(o).map(|(_, s)| s).filter(|s| s.delack_timer.is_some())
}

/// `TcpSink`'s (tcp-sink.cc `TcpSink::TcpSink`, `delay_bind_dispatch`;
/// `bytes_` and `maxSackBlocks_` are bound the ordinary way).
pub static SINK: Table2<AgentBase, Sink> = Table2 {
    class: "Agent/TCPSink",
    part: sink,
    vars: &[
        var2("packetSize_", Int, "40", |a, _, _| int(a.size), |a, _, v, _| Ok(a.size = parse_int(v))),
        var2("bytes_", Int, "0", |_, s, _| int(s.bytes), |_, s, v, _| Ok(s.bytes = parse_int(v))),
        var2("maxSackBlocks_", Int, "3", |_, s, _| int(s.max_sack_blocks), |_, s, v, w| Ok(set_max_sack_blocks(s, parse_int(v), w))),
        var2("ts_echo_bugfix_", Bool, "true", |_, s, _| boolean(s.ts_echo_bugfix), |_, s, v, _| Ok(s.ts_echo_bugfix = parse_bool(v))),
        var2("ts_echo_rfc1323_", Bool, "false", |_, s, _| boolean(s.ts_echo_rfc1323), |_, s, v, _| Ok(s.ts_echo_rfc1323 = parse_bool(v))),
        var2("generateDSacks_", Bool, "false", |_, s, _| boolean(s.generate_dsacks), |_, s, v, _| Ok(s.generate_dsacks = parse_bool(v))),
        var2("qs_enabled_", Bool, "false", |_, s, _| boolean(s.qs_enabled), |_, s, v, _| {
            s.qs_enabled = parse_bool(v);
            s.set_ack_extra();
            Ok(())
        }),
        var2("RFC2581_immediate_ack_", Bool, "true", |_, s, _| boolean(s.rfc2581_immediate_ack), |_, s, v, _| Ok(s.rfc2581_immediate_ack = parse_bool(v))),
        var2("SYN_immediate_ack_", Bool, "true", |_, s, _| boolean(s.syn_immediate_ack), |_, s, v, _| Ok(s.syn_immediate_ack = parse_bool(v))),
        var2("ecn_syn_", Bool, "false", |_, s, _| boolean(s.ecn_syn), |_, s, v, _| Ok(s.ecn_syn = parse_bool(v))),
        var2("windowOptionS_", Int, "1", |_, s, _| int(s.window_option_s), |_, s, v, w| Ok(set_window_option_s(s, parse_int(v), w))),
        // Dumbbell's own (seed 003's ECN-mod receiver): echo each CE mark once.
        var2("ecnmod_", Bool, "false", |_, s, _| boolean(s.ecnmod), |_, s, v, _| { s.ecnmod = parse_bool(v); s.set_echo_each_mark(); Ok(()) }),
        // Dumbbell's own (DCTCP, Prague): ECE echoes CE exactly (RFC 8257
        // section 3.2), with an immediate ACK where CE starts or stops.
        var2("dctcp_", Bool, "false", |_, s, _| boolean(s.dctcp), |_, s, v, _| Ok(s.dctcp = parse_bool(v))),
    ],
};

/// Variables ns-2's TcpSink has that nothing here reads.
pub static SINK_UNMODELLED: Table<Sink> = Table {
    class: "Agent/TCPSink",
    part: |o| sink(o).map(|(_, s)| s),
    vars: &[script_var("sport_", "0"), script_var("dport_", "0")],
    after_set: None,
};

/// `DelAckSink`'s delay (`interval_`), with the default of each delayed-ACK
/// class.
pub static DELACK: Table<Sink> = Table {
    class: "Agent/TCPSink/DelAck",
    part: delack_sink,
    vars: &[var("interval_", Time, "100ms", |s, _| real(s.interval), |s, v, _| Ok(s.interval = parse_time(v)))],
    after_set: None,
};

pub static SACK1_DELACK: Table<Sink> = Table { class: "Agent/TCPSink/Sack1/DelAck", ..DELACK };

/// The variables ns-2 binds with delay binding (`TcpSink::delay_bind_dispatch`):
/// tracing one that is not a TracedVar makes ns-2 abort.
pub const SINK_DELAY_BOUND: &[&str] = &[
    "packetSize_",
    "ts_echo_bugfix_",
    "ts_echo_rfc1323_",
    "generateDSacks_",
    "qs_enabled_",
    "RFC2581_immediate_ack_",
    "SYN_immediate_ack_",
    "ecn_syn_",
];

/// `maxSackBlocks_`: a SACK sink re-sizes its block stack (`Sacker::trace`);
/// the TCP header holds at most three blocks.
fn set_max_sack_blocks(s: &mut Sink, mut n: i32, w: &mut crate::sim::World) {
    if s.sacker.is_some() && n > crate::sink::NSA as i32 {
        w.warn_once(format!("warning(Sacker::trace): TCP header limits number of SACK blocks to {}, not {}", crate::sink::NSA, n));
        n = crate::sink::NSA as i32;
    }
    if s.max_sack_blocks != n {
        if let Some(sk) = s.sacker.as_mut() {
            *sk = crate::sink::Sacker::new(n);
        }
    }
    s.max_sack_blocks = n;
}

/// A share of the window a mark takes off: above 0, below 1.
fn fraction(name: &str, v: &str) -> Result<f64, String> {
    let x = parse_real(v);
    if x > 0.0 && x < 1.0 {
        Ok(x)
    } else {
        Err(format!("{name} must be a number above 0 and below 1, got \"{v}\""))
    }
}

/// `windowOptionS_` (seed 000's New-ECN patch): 8 makes `windowOption_ 8`
/// mean New-ECN for the whole script (the senders already made are
/// re-selected by the caller, which sees `newecn_compat` turn on).  The
/// warning that this changes a sender's meaning is given at `$ns run`
/// (`warn_newecn_compat`), and only for a sender that did not ask for New-ECN.
fn set_window_option_s(s: &mut Sink, v: i32, w: &mut crate::sim::World) {
    s.window_option_s = v;
    s.set_echo_each_mark();
    if v == 8 {
        w.newecn_compat = true;
    }
}

/// At `$ns run`: the one warning about a sink's `windowOptionS_ 8`, given
/// only where it changes a sender's meaning (`windowOption_ 8` without
/// `newecn_`, HighSpeed TCP in ns-2 2.35); scripts that set `newecn_ true`
/// as the docs say get none.
pub fn warn_newecn_compat(sim: &mut Sim) {
    if sim.newecn_compat_overrides_a_sender() {
        sim.w.warn_once("windowOptionS_ 8 (New-ECN receiver, ns-2 New-ECN patch): windowOption_ 8 means New-ECN in this script, not HighSpeed TCP".into());
    }
}

/// A sink (`TcpSink`, 40-byte ACKs of type `ack`), with a delayed-ACK timer
/// (`DelAckSink`) and a SACK block stack (`Sacker`) as its class asks.
pub fn make_sink(sim: &mut Sim, id: ObjId, delack: bool, sack: bool) -> Obj {
    let timer = if delack { Some(sim.w.s.new_timer(id, 0)) } else { None };
    let mut base = AgentBase::new(id, PacketType::Ack);
    base.size = 40;
    let mut sink = Sink::new(timer);
    if sack {
        sink.sacker = Some(crate::sink::Sacker::new(sink.max_sack_blocks));
    }
    Obj::Agent(Box::new(Agent { base, kind: AgentKind::Sink(Box::new(sink)) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::growth::InUse;

    fn sender(sim: &mut Sim, id: u32) -> &mut Sender {
        match &mut sim.agent_mut(id).expect("an agent").kind {
            AgentKind::Tcp(t) => &mut t.sender,
            _ => panic!("a TCP sender"),
        }
    }

    /// `windowOption_` reads back whatever integer was set, defined or not,
    /// and selects its rule; an undefined one is accepted and stops the
    /// run only when opencwnd reaches it (ns-2's `abort()` there).
    #[test]
    fn window_option_round_trips() {
        let mut sim = Sim::new();
        let tcp = sim.create("tcp", "Agent/TCP/Reno").unwrap();
        for (v, rule) in [
            ("0", InUse::PerWindow),
            ("1", InUse::Standard),
            ("2", InUse::Scaled),
            ("5", InUse::Scaled),
            ("6", InUse::Binomial),
            ("8", InUse::HighSpeed),
            ("7", InUse::Undefined),
            ("-1", InUse::Undefined),
            ("1000", InUse::Undefined),
        ] {
            assert_eq!(sim.set_var(tcp, "windowOption_", v).unwrap(), v);
            let g = &sender(&mut sim, tcp).growth;
            assert_eq!(g.in_use(), rule, "windowOption_ {v}");
            assert_eq!(g.option().to_string(), v);
            assert!(!sim.w.has_notices(), "windowOption_ {v}: no abort at set time");
        }
        // (ns-2 reads an int: "8.7" is 8)
        assert_eq!(sim.set_var(tcp, "windowOption_", "8.7").unwrap(), "8");
    }

    /// An undefined `windowOption_` stops the run when opencwnd reaches it
    /// in congestion avoidance, where ns-2 aborts.
    #[test]
    fn undefined_window_option_aborts_in_opencwnd() {
        let mut sim = Sim::new();
        let t = sim.create("t", "Agent/TCP/Reno").unwrap();
        sim.set_var(t, "windowOption_", "7").unwrap();
        sim.reset_agent(t);
        assert!(!sim.w.has_notices());
        let mut w = std::mem::replace(&mut sim.w, crate::sim::World::new_for_tests());
        assert_eq!(sender(&mut sim, t).growth_increase(&mut w), None);
        sim.w = w;
        assert_eq!(
            sim.w.take_notices(),
            vec![crate::notice::Notice::Abort(crate::notice::Abort::UndefinedWindowRule { option: 7, defined: "0-6 and 8" })]
        );
    }

    /// `newecn_` set before or after `windowOption_ 8`, and a sink's
    /// `windowOptionS_ 8` (for senders made before it and after).
    #[test]
    fn newecn_selects_new_ecn_for_8() {
        let mut sim = Sim::new();
        let a = sim.create("a", "Agent/TCP/Reno").unwrap();
        let b = sim.create("b", "Agent/TCP/Reno").unwrap();
        let is_newecn = |sim: &mut Sim, id| sender(sim, id).growth.is::<NewEcn>();
        sim.set_var(a, "newecn_", "true").unwrap();
        assert!(!is_newecn(&mut sim, a), "windowOption_ still 1");
        sim.set_var(a, "windowOption_", "8").unwrap();
        assert!(is_newecn(&mut sim, a));
        sim.set_var(b, "windowOption_", "8").unwrap();
        assert!(sender(&mut sim, b).growth.is::<HighSpeed>());
        sim.set_var(b, "newecn_", "1").unwrap();
        assert!(is_newecn(&mut sim, b));
        sim.set_var(b, "newecn_", "false").unwrap();
        assert!(sender(&mut sim, b).growth.is::<HighSpeed>());
        assert_eq!(sim.get_var(b, "windowOption_").as_deref(), Some("8"));
        // A sink's windowOptionS_ 8: every windowOption_ 8 is New-ECN, the
        // senders' made before and after, whatever their newecn_.
        let c = sim.create("c", "Agent/TCP/Newreno").unwrap();
        let sink = sim.create("sink", "Agent/TCPSink").unwrap();
        sim.set_var(sink, "windowOptionS_", "8").unwrap();
        assert!(is_newecn(&mut sim, b));
        assert!(!is_newecn(&mut sim, c), "windowOption_ 1");
        sim.set_var(c, "windowOption_", "8").unwrap();
        assert!(is_newecn(&mut sim, c));
        sim.set_var(c, "newecn_", "0").unwrap();
        assert!(is_newecn(&mut sim, c));
    }

    /// Parameters of a rule not in use are kept and read back, and the
    /// rule finds them when selected (ns-2's members exist whatever the
    /// option).
    #[test]
    fn rule_parameters_whatever_the_option() {
        let mut sim = Sim::new();
        let t = sim.create("t", "Agent/TCP").unwrap();
        for (var, v) in [
            ("k_parameter_", "0.5"),
            ("l_parameter_", "0.25"),
            ("windowConstant_", "2"),
            ("low_window_", "50"),
            ("high_window_", "1000"),
            ("high_p_", "0.0625"),
            ("high_decrease_", "0.25"),
            ("cwnd_range_", "3"),
            ("newecn_alpha_wnd_", "0.75"),
            ("newecn_beta_", "4"),
            ("slope_window_", "2.5"),
        ] {
            assert_eq!(sim.set_var(t, var, v).unwrap(), v, "{var}");
            for option in ["0", "2", "6", "8", "1"] {
                sim.set_var(t, "windowOption_", option).unwrap();
                assert_eq!(sim.get_var(t, var).as_deref(), Some(v), "{var} with windowOption_ {option}");
            }
        }
        sim.set_var(t, "windowOption_", "6").unwrap();
        let g = &sender(&mut sim, t).growth;
        assert!(g.is::<Binomial>());
        let r = g.get::<Binomial>();
        assert_eq!((r.k_parameter, r.l_parameter), (0.5, 0.25));
    }

    /// RFC793edu's switches and `rto_` are variables of its class only.
    #[test]
    fn rfc793edu_switches_are_its_own() {
        let mut sim = Sim::new();
        let t = sim.create("t", "Agent/TCP/RFC793edu").unwrap();
        assert_eq!(sim.get_var(t, "add793fastrtx_").as_deref(), Some("0"));
        assert_eq!(sim.set_var(t, "add793fastrtx_", "true").unwrap(), "1");
        assert_eq!(sim.set_var(t, "rto_", "42").unwrap(), "42");
        let tahoe = sim.create("tahoe", "Agent/TCP").unwrap();
        assert_eq!(sim.get_var(tahoe, "rto_"), None);
        assert!(sim.set_var(tahoe, "add793fastrtx_", "1").is_err());
        let bound = |k: &str| crate::ns2::objects::bound_vars(k).unwrap();
        assert!(bound("Agent/TCP/RFC793edu").iter().any(|(n, _)| *n == "add793exponinc_"));
        assert!(!bound("Agent/TCP").iter().any(|(n, _)| *n == "rto_"));
    }

    /// Every traced variable's name is bound, once, by every sender class.
    #[test]
    fn traced_variables_are_bound() {
        let bound = crate::ns2::objects::bound_vars("Agent/TCP/Vegas").unwrap();
        for tv in Tv::ALL {
            assert_eq!(bound.iter().filter(|(n, _)| *n == tv_name(tv)).count(), 1, "{}", tv_name(tv));
            assert_eq!(tv_from_name(tv_name(tv)), Some(tv));
        }
    }
}
