//! `Agent/TFRC` (tcp/tfrc.cc `TfrcAgent`) and `Agent/TFRCSink`
//! (tcp/tfrc-sink.cc `TfrcSinkAgent`): their bound variables in the order
//! the constructors bind them, with ns-default.tcl's defaults.

use crate::agent::{Agent, AgentBase, AgentKind};
use crate::ns2::bind::*;
use crate::ns2::tclcl::fmt_traced_real;
use crate::ns2::tclcl::VarType::*;
use crate::packet::PacketType;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::tfrc::receiver::Receiver;
use crate::tfrc::sender::{Sender, MAXSEQ, NO_FEEDBACK_TIMER, SEND_TIMER};

fn sender(o: &mut Obj) -> Option<(&mut AgentBase, &mut Sender)> {
    match agent_parts(o)? {
        (base, AgentKind::TfrcSender(t)) => Some((base, &mut **t)),
        _ => None,
    }
}

fn receiver(o: &mut Obj) -> Option<(&mut AgentBase, &mut Receiver)> {
    match agent_parts(o)? {
        (base, AgentKind::TfrcReceiver(r)) => Some((base, &mut **r)),
        _ => None,
    }
}

/// A tclcl boolean bound as an int flag.
fn flag(v: &str) -> bool {
    parse_bool(v)
}

/// `Agent/TFRC` (`TfrcAgent::TfrcAgent`).  `maxqueue_`'s class default is
/// the word `MAXSEQ`; tclcl reads it as 0 when it binds the variable, and
/// the constructor then sets 2^30, so an object starts with 2^30.  Here
/// the word itself reads as 2^30 (set later on an object, ns-2 would make
/// it 0).
pub static TFRC: Table2<AgentBase, Sender> = Table2 {
    class: "Agent/TFRC",
    part: sender,
    vars: &[
        within2(var2("packetSize_", Int, "1000", |b, _, _| int(b.size), |b, _, v, _| Ok(b.size = parse_int(v))),
            Range::PositiveInt, "the packet size: ns-2 paces packets size_/rate apart and divides by it (0: ns-2 dies of a floating-point exception, and the clock would not move)"),
        var2("rate_", Real, "0", |_, s, _| real(s.rate), |_, s, v, _| Ok(s.rate = parse_real(v))),
        within2(var2("df_", Real, "0.95", |_, s, _| real(s.df), |_, s, v, _| Ok(s.df = parse_real(v))),
            Range::Probability, "the weight of the old RTT estimate in its moving average: outside 0..1 the estimate is no average and can go negative"),
        within2(var2("tcp_tick_", Real, "0.1", |_, s, _| real(s.tcp_tick), |_, s, v, _| Ok(s.tcp_tick = parse_real(v))),
            Range::Positive, "the timer granularity: ns-2 divides the RTT samples by it (0: a floating-point exception)"),
        var2("ndatapack_", TracedInt, "0", |_, s, _| int(s.ndatapack), |_, s, v, _| Ok(s.ndatapack = parse_int(v))),
        var2("ndatabytes_", TracedInt, "0", |_, s, _| int(s.ndatabytes), |_, s, v, _| Ok(s.ndatabytes = parse_int(v))),
        var2("true_loss_rate_", TracedReal, "0.0", |_, s, _| fmt_traced_real(s.true_loss_rate), |_, s, v, _| Ok(s.true_loss_rate = parse_real(v))),
        var2("srtt_init_", Int, "0", |_, s, _| int(s.srtt_init), |_, s, v, _| Ok(s.srtt_init = parse_int(v))),
        var2("rttvar_init_", Int, "12", |_, s, _| int(s.rttvar_init), |_, s, v, _| Ok(s.rttvar_init = parse_int(v))),
        var2("rtxcur_init_", Real, "6.0", |_, s, _| real(s.rtxcur_init), |_, s, v, _| Ok(s.rtxcur_init = parse_real(v))),
        var2("rttvar_exp_", Int, "2", |_, s, _| int(s.rttvar_exp), |_, s, v, _| Ok(s.rttvar_exp = parse_int(v))),
        var2("T_SRTT_BITS", Int, "3", |_, s, _| int(s.srtt_bits), |_, s, v, _| Ok(s.srtt_bits = parse_int(v))),
        var2("T_RTTVAR_BITS", Int, "2", |_, s, _| int(s.rttvar_bits), |_, s, v, _| Ok(s.rttvar_bits = parse_int(v))),
        var2("InitRate_", Int, "300", |_, s, _| int(s.init_rate), |_, s, v, _| Ok(s.init_rate = parse_int(v))),
        var2("overhead_", Real, "0", |_, s, _| real(s.overhead), |_, s, v, _| Ok(s.overhead = parse_real(v))),
        var2("ssmult_", Real, "2", |_, s, _| real(s.ssmult), |_, s, v, _| Ok(s.ssmult = parse_real(v))),
        var2("bval_", Int, "1", |_, s, _| int(s.bval), |_, s, v, _| Ok(s.bval = parse_int(v))),
        var2("ca_", Int, "1", |_, s, _| int(s.ca), |_, s, v, _| Ok(s.ca = parse_int(v))),
        var2("printStatus_", Bool, "0", |_, _, _| boolean(false), |_, _, _, _| Ok(())),
        var2("conservative_", Bool, "0", |_, s, _| boolean(s.conservative), |_, s, v, _| Ok(s.conservative = flag(v))),
        var2("ecn_", Bool, "0", |_, s, _| boolean(s.ecn), |_, s, v, _| Ok(s.ecn = flag(v))),
        var2("minrto_", Real, "0.0", |_, s, _| real(s.minrto), |_, s, v, _| Ok(s.minrto = parse_real(v))),
        var2("maxHeavyRounds_", Int, "0", |_, s, _| int(s.max_heavy_rounds), |_, s, v, _| Ok(s.max_heavy_rounds = parse_int(v))),
        var2("SndrType_", Int, "0", |_, s, _| int(s.sndr_type), |_, s, v, _| Ok(s.sndr_type = parse_int(v))),
        var2("scmult_", Real, "1.5", |_, s, _| real(s.scmult), |_, s, v, _| Ok(s.scmult = parse_real(v))),
        var2("oldCode_", Bool, "false", |_, s, _| boolean(s.old_code), |_, s, v, _| Ok(s.old_code = flag(v))),
        var2("rate_init_", Real, "2", |_, s, _| real(s.rate_init), |_, s, v, _| Ok(s.rate_init = parse_real(v))),
        within2(var2("rate_init_option_", Int, "2", |_, s, _| int(s.rate_init_option), |_, s, v, _| Ok(s.rate_init_option = parse_int(v))),
            Range::OneOf(&[1, 2], "1 (rate_init_) or 2 (RFC 3390)"), "how the first rate is chosen: ns-2 aborts at the first report on any other"),
        var2("slow_increase_", Bool, "1", |_, s, _| boolean(s.slow_increase), |_, s, v, _| Ok(s.slow_increase = flag(v))),
        var2("voip_", Bool, "0", |_, s, _| boolean(s.voip), |_, s, v, _| Ok(s.voip = flag(v))),
        within2(var2("voip_max_pkt_rate_", Int, "100", |_, s, _| int(s.voip_max_pkt_rate), |_, s, v, _| Ok(s.voip_max_pkt_rate = parse_int(v))),
            Range::PositiveInt, "the VoIP mode's packet rate cap (packets/s): ns-2 divides 1 by it (0: ns-2 dies of a floating-point exception)"),
        var2("fsize_", Int, "1460", |_, s, _| int(s.fsize), |_, s, v, _| Ok(s.fsize = parse_int(v))),
        var2("useHeaders_", Bool, "true", |_, s, _| boolean(s.use_headers), |_, s, v, _| Ok(s.use_headers = flag(v))),
        var2("idleFix_", Bool, "true", |_, s, _| boolean(s.idle_fix), |_, s, v, _| Ok(s.idle_fix = flag(v))),
        within2(var2("headersize_", Int, "32", |_, s, _| int(s.headersize), |_, s, v, _| Ok(s.headersize = parse_int(v))),
            Range::NonNegativeInt, "the header bytes discounted from the rate: a negative size makes the discount a gain (ns-2 hangs at -1000; the rate grows without bound)"),
        var2("maxqueue_", Int, "MAXSEQ", |_, s, _| int(s.maxqueue), |_, s, v, _| {
            s.maxqueue = if v.trim() == "MAXSEQ" { MAXSEQ } else { parse_int(v) };
            Ok(())
        }),
    ],
};

/// `Agent/TFRCSink` (`TfrcSinkAgent::TfrcSinkAgent`).
pub static TFRC_SINK: Table2<AgentBase, Receiver> = Table2 {
    class: "Agent/TFRCSink",
    part: receiver,
    vars: &[
        var2("packetSize_", Int, "40", |b, _, _| int(b.size), |b, _, v, _| Ok(b.size = parse_int(v))),
        within2(var2("InitHistorySize_", Int, "100000", |_, r, _| int(r.hsz), |_, r, v, _| Ok(r.hsz = parse_int(v))),
            Range::PositiveInt, "the number of packets the loss history holds: ns-2 allocates and indexes it modulo this size (0: a division by zero)"),
        within2(var2("NumFeedback_", Real, "1", |_, r, _| real(r.num_feedback), |_, r, v, _| Ok(r.num_feedback = parse_real(v))),
            Range::Positive, "the reports per round-trip time: the receiver waits the RTT divided by it (0: ns-2 dies of a floating-point exception)"),
        var2("AdjustHistoryAfterSS_", Int, "1", |_, r, _| int(r.adjust_history_after_ss), |_, r, v, _| Ok(r.adjust_history_after_ss = parse_int(v))),
        var2("printLoss_", Int, "0", |_, r, _| int(r.print_loss), |_, r, v, _| Ok(r.print_loss = parse_int(v))),
        within2(var2("algo_", Int, "1", |_, r, _| int(r.algo), |_, r, v, _| Ok(r.algo = parse_int(v))),
            Range::OneOf(&[1, 2, 3, 4], "1 (WALI), 2 (EWMA), 3 (RBPH) or 4 (EBPH)"), "the loss-rate estimator: ns-2 has no other"),
        var2("PreciseLoss_", Int, "1", |_, r, _| int(r.precise_loss), |_, r, v, _| Ok(r.precise_loss = parse_int(v))),
        var2("numPkts_", Int, "1", |_, r, _| int(r.num_pkts), |_, r, v, _| Ok(r.num_pkts = parse_int(v))),
        within2(var2("minDiscountRatio_", Real, "0.5", |_, r, _| real(r.min_discount_ratio), |_, r, v, _| Ok(r.min_discount_ratio = parse_real(v))),
            Range::Probability, "the least factor the history discounting may apply (RFC 5348 5.5): outside 0..1 it is no discount"),
        var2("NumSamples_", Int, "-1", |_, r, _| int(r.numsamples), |_, r, v, _| Ok(r.numsamples = parse_int(v))),
        var2("discount_", Int, "1", |_, r, _| int(r.discount), |_, r, v, _| Ok(r.discount = parse_int(v))),
        var2("smooth_", Int, "1", |_, r, _| int(r.smooth), |_, r, v, _| Ok(r.smooth = parse_int(v))),
        var2("ShortIntervals_", Int, "0", |_, r, _| int(r.short_intervals), |_, r, v, _| Ok(r.short_intervals = parse_int(v))),
        var2("ShortRtts_", Int, "2", |_, r, _| int(r.short_rtts), |_, r, v, _| Ok(r.short_rtts = parse_int(v))),
        within2(var2("history_", Real, "0.75", |_, r, _| real(r.history), |_, r, v, _| Ok(r.history = parse_real(v))),
            Range::Probability, "the weight of the old loss rate in the EWMA estimator (algo_ 2): outside 0..1 the estimate is no average"),
        var2("minlc_", Int, "4", |_, r, _| int(r.minlc), |_, r, v, _| Ok(r.minlc = parse_int(v))),
        var2("bytes_", Int, "0", |_, r, _| int(r.bytes), |_, r, v, _| Ok(r.bytes = parse_int(v))),
    ],
};

/// ns-default.tcl's `maxint_`, which nothing binds.
pub static TFRC_SINK_SCRIPT: Table<Obj> = Table {
    class: "Agent/TFRCSink",
    part: whole,
    vars: &[script_var("maxint_", "1000")],
    after_set: None,
};

pub fn make_tfrc(sim: &mut Sim, id: ObjId) -> Obj {
    let send = sim.w.s.new_timer(id, SEND_TIMER);
    let nofeedback = sim.w.s.new_timer(id, NO_FEEDBACK_TIMER);
    let mut base = AgentBase::new(id, PacketType::Tfrc);
    base.size = 1000;
    let mut s = Sender::new(send, nofeedback);
    s.maxqueue = MAXSEQ;
    Obj::Agent(Box::new(Agent { base, kind: AgentKind::TfrcSender(Box::new(s)) }))
}

pub fn make_tfrc_sink(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    let mut base = AgentBase::new(id, PacketType::TfrcAck);
    base.size = 40;
    Obj::Agent(Box::new(Agent { base, kind: AgentKind::TfrcReceiver(Box::new(Receiver::new(id, timer))) }))
}
