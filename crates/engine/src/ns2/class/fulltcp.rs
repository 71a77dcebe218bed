//! ns-2's two-way TCP (tcp/tcp-full.cc `FullTcpAgent`, its Tahoe and
//! NewReno variants): the variables it binds on top of TcpAgent's
//! (`FullTcpAgent::delay_bind_dispatch`, `NewRenoFullTcpAgent`'s
//! `recov_maxburst_`), with ns-default.tcl's defaults, and its objects.

use crate::agent::{Agent, AgentBase, AgentKind};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::packet::PacketType;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::tcp::full::{FullState, SackState, Variant};
use crate::tcp::{Flavor, Tcp};

/// A two-way TCP agent's own state.
pub fn full(o: &mut Obj) -> Option<&mut FullState> {
    match agent_parts(o)? {
        (_, AgentKind::Tcp(t)) => match &mut t.flavor {
            Flavor::Full(f) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

fn newreno_full(o: &mut Obj) -> Option<&mut FullState> {
    full(o).filter(|f| f.variant == Variant::NewReno)
}

/// `FullTcpAgent`'s (all delay-bound).
pub static FULLTCP: Table<FullState> = Table {
    class: "Agent/TCP/FullTcp",
    part: full,
    vars: &[
        var("segsperack_", Int, "1", |f, _| int(f.segs_per_ack), |f, v, _| Ok(f.segs_per_ack = parse_int(v))),
        var("spa_thresh_", Int, "0", |f, _| int(f.spa_thresh), |f, v, _| Ok(f.spa_thresh = parse_int(v))),
        var("segsize_", Int, "536", |f, _| int(f.maxseg), |f, v, _| Ok(f.maxseg = parse_int(v))),
        var("tcprexmtthresh_", Int, "3", |f, _| int(f.tcprexmtthresh), |f, v, _| Ok(f.tcprexmtthresh = parse_int(v))),
        var("iss_", Int, "0", |f, _| int(f.iss), |f, v, _| Ok(f.iss = parse_int(v))),
        var("nodelay_", Bool, "false", |f, _| boolean(f.nodelay), |f, v, _| Ok(f.nodelay = parse_bool(v))),
        var("data_on_syn_", Bool, "false", |f, _| boolean(f.data_on_syn), |f, v, _| Ok(f.data_on_syn = parse_bool(v))),
        var("dupseg_fix_", Bool, "true", |f, _| boolean(f.dupseg_fix), |f, v, _| Ok(f.dupseg_fix = parse_bool(v))),
        var("dupack_reset_", Bool, "false", |f, _| boolean(f.dupack_reset), |f, v, _| Ok(f.dupack_reset = parse_bool(v))),
        var("interval_", Time, "0.1", |f, _| real(f.delack_interval), |f, v, _| Ok(f.delack_interval = parse_time(v))),
        var("close_on_empty_", Bool, "false", |f, _| boolean(f.close_on_empty), |f, v, _| Ok(f.close_on_empty = parse_bool(v))),
        var("signal_on_empty_", Bool, "false", |f, _| boolean(f.signal_on_empty), |f, v, _| Ok(f.signal_on_empty = parse_bool(v))),
        var("ts_option_size_", Int, "10", |f, _| int(f.ts_option_size), |f, v, _| Ok(f.ts_option_size = parse_int(v))),
        var("reno_fastrecov_", Bool, "true", |f, _| boolean(f.reno_fastrecov), |f, v, _| Ok(f.reno_fastrecov = parse_bool(v))),
        var("pipectrl_", Bool, "false", |f, _| boolean(f.pipectrl), |f, v, _| Ok(f.pipectrl = parse_bool(v))),
        var("open_cwnd_on_pack_", Bool, "true", |f, _| boolean(f.open_cwnd_on_pack), |f, v, _| Ok(f.open_cwnd_on_pack = parse_bool(v))),
        var("halfclose_", Bool, "false", |f, _| boolean(f.halfclose), |f, v, _| Ok(f.halfclose = parse_bool(v))),
        var("nopredict_", Bool, "false", |f, _| boolean(f.nopredict), |f, v, _| Ok(f.nopredict = parse_bool(v))),
        var("ecn_syn_", Bool, "false", |f, _| boolean(f.ecn_syn), |f, v, _| Ok(f.ecn_syn = parse_bool(v))),
        var("ecn_syn_wait_", Int, "0", |f, _| int(f.ecn_syn_wait), |f, v, _| Ok(f.ecn_syn_wait = parse_int(v))),
        var("debug_", Bool, "false", |f, _| boolean(f.debug), |f, v, _| Ok(f.debug = parse_bool(v))),
    ],
    after_set: None,
};

/// `NewRenoFullTcpAgent`'s burst limit during recovery.
pub static NEWRENO_FULLTCP: Table<FullState> = Table {
    class: "Agent/TCP/FullTcp/Newreno",
    part: newreno_full,
    vars: &[var("recov_maxburst_", Int, "2", |f, _| int(f.recov_maxburst), |f, v, _| Ok(f.recov_maxburst = parse_int(v)))],
    after_set: None,
};

fn sack_full(o: &mut Obj) -> Option<&mut SackState> {
    full(o)?.sack.as_deref_mut()
}

/// `SackFullTcpAgent`'s (all delay-bound).
pub static SACK_FULLTCP: Table<SackState> = Table {
    class: "Agent/TCP/FullTcp/Sack",
    part: sack_full,
    vars: &[
        var("clear_on_timeout_", Bool, "true", |k, _| boolean(k.clear_on_timeout), |k, v, _| Ok(k.clear_on_timeout = parse_bool(v))),
        var("sack_rtx_cthresh_", Int, "1", |k, _| int(k.sack_rtx_cthresh), |k, v, _| Ok(k.sack_rtx_cthresh = parse_int(v))),
        var("sack_rtx_bthresh_", Int, "1", |k, _| int(k.sack_rtx_bthresh), |k, v, _| Ok(k.sack_rtx_bthresh = parse_int(v))),
        var("sack_block_size_", Int, "8", |k, _| int(k.sack_block_size), |k, v, _| Ok(k.sack_block_size = parse_int(v))),
        var("sack_option_size_", Int, "2", |k, _| int(k.sack_option_size), |k, v, _| Ok(k.sack_option_size = parse_int(v))),
        within(var("max_sack_blocks_", Int, "3", |k, _| int(k.max_sack_blocks), |k, v, _| Ok(k.max_sack_blocks = parse_int(v))),
            Range::IntAtMost(4), "the blocks a SACK option carries: a TCP header holds at most four (ns-2 writes past its array)"),
        var("sack_rtx_threshmode_", Int, "1", |k, _| int(k.sack_rtx_threshmode), |k, v, _| Ok(k.sack_rtx_threshmode = parse_int(v))),
    ],
    after_set: None,
};

/// A two-way TCP agent of variant `variant`, with id `id`.
pub fn make_full(sim: &mut Sim, id: ObjId, variant: Variant) -> Obj {
    let state = FullState::new(variant, sim, id);
    let t = Tcp::new(Flavor::Full(Box::new(state)), sim, id);
    let mut base = AgentBase::new(id, PacketType::Tcp);
    base.size = 1000;
    Obj::Agent(Box::new(Agent { base, kind: AgentKind::Tcp(Box::new(t)) }))
}

/// Is agent `o` a two-way TCP agent?
pub fn is_full(o: &Obj) -> bool {
    match o {
        Obj::Agent(a) => matches!(&a.kind, AgentKind::Tcp(t) if matches!(t.flavor, Flavor::Full(_))),
        _ => false,
    }
}

/// `FullTcpAgent::command`'s own commands (`listen`, `close`,
/// `advance-bytes`, `sendmsg NBYTES FLAGS`); `None` for the others, which
/// are TcpAgent's.
pub fn command(t: &mut Tcp, b: &mut AgentBase, sim: &mut Sim, argv: &[&str]) -> Option<Result<String, String>> {
    let Tcp { flavor, sender } = t;
    let Flavor::Full(f) = flavor else { return None };
    let mut full = crate::tcp::full::Full { t: sender, f, b };
    match argv {
        ["listen"] => full.listen(PacketType::Ack),
        ["close"] => full.usrclosed(sim),
        ["advance-bytes", n] => full.advance_bytes(sim, crate::ns2::tclcl::atoi(n)),
        ["sendmsg", n, flags] => {
            full.sendmsg(sim, crate::ns2::tclcl::atoi(n), *flags == "MSG_EOF", *flags == "DAT_EOF")
        }
        _ => return None,
    }
    Some(Ok(String::new()))
}
