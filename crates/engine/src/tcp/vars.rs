//! The Tcl names of the TCP sender's bound variables (tcp/tcp.cc
//! `delay_bind_dispatch`, tcp-newreno.cc constructor) and their conversion.

use super::{Flavor, Sender, Tcp, Tv};
use crate::agent::AgentBase;
use crate::sim::World;
use crate::vars::{fmt_bool as b2s, fmt_int, fmt_real, parse_bool, parse_int, parse_real, VarType};

/// Bound parameters: (Tcl name, type).
pub const PARAMS: &[(&str, VarType)] = &[
    ("window_", VarType::Real),
    ("windowInit_", VarType::Real),
    ("windowInitOption_", VarType::Int),
    ("syn_", VarType::Bool),
    ("max_connects_", VarType::Int),
    ("windowOption_", VarType::Int),
    ("newecn_", VarType::Bool),
    ("newecn_alpha_wnd_", VarType::Real),
    ("newecn_alpha_slp_", VarType::Real),
    ("newecn_beta_", VarType::Real),
    ("slope_window_", VarType::Real),
    ("last_time_", VarType::Real),
    ("first_time_", VarType::Int),
    ("mark_", VarType::Real),
    ("windowConstant_", VarType::Real),
    ("windowThresh_", VarType::Real),
    ("delay_growth_", VarType::Bool),
    ("overhead_", VarType::Real),
    ("tcpTick_", VarType::Real),
    ("ecn_", VarType::Bool),
    ("SetCWRonRetransmit_", VarType::Bool),
    ("old_ecn_", VarType::Bool),
    ("bugfix_ss_", VarType::Bool),
    ("eln_", VarType::Int),
    ("eln_rxmit_thresh_", VarType::Int),
    ("packetSize_", VarType::Int),
    ("tcpip_base_hdr_size_", VarType::Int),
    ("ts_option_size_", VarType::Int),
    ("bugFix_", VarType::Bool),
    ("bugFix_ack_", VarType::Bool),
    ("bugFix_ts_", VarType::Bool),
    ("lessCareful_", VarType::Bool),
    ("timestamps_", VarType::Bool),
    ("ts_resetRTO_", VarType::Bool),
    ("slow_start_restart_", VarType::Bool),
    ("restart_bugfix_", VarType::Bool),
    ("maxburst_", VarType::Int),
    ("aggressive_maxburst_", VarType::Bool),
    ("maxcwnd_", VarType::Int),
    ("numdupacks_", VarType::Int),
    ("numdupacksFrac_", VarType::Int),
    ("exitFastRetrans_", VarType::Bool),
    ("maxrto_", VarType::Real),
    ("minrto_", VarType::Real),
    ("srtt_init_", VarType::Int),
    ("rttvar_init_", VarType::Int),
    ("rtxcur_init_", VarType::Real),
    ("T_SRTT_BITS", VarType::Int),
    ("T_RTTVAR_BITS", VarType::Int),
    ("rttvar_exp_", VarType::Int),
    ("awnd_", VarType::Real),
    ("decrease_num_", VarType::Real),
    ("increase_num_", VarType::Real),
    ("k_parameter_", VarType::Real),
    ("l_parameter_", VarType::Real),
    ("trace_all_oneline_", VarType::Bool),
    ("nam_tracevar_", VarType::Bool),
    ("QOption_", VarType::Int),
    ("EnblRTTCtr_", VarType::Int),
    ("control_increase_", VarType::Int),
    ("noFastRetrans_", VarType::Bool),
    ("precisionReduce_", VarType::Bool),
    ("oldCode_", VarType::Bool),
    ("useHeaders_", VarType::Bool),
    ("low_window_", VarType::Int),
    ("high_window_", VarType::Int),
    ("high_p_", VarType::Real),
    ("high_decrease_", VarType::Real),
    ("max_ssthresh_", VarType::Int),
    ("cwnd_range_", VarType::Int),
    ("timerfix_", VarType::Bool),
    ("rfc2988_", VarType::Bool),
    ("LimTransmitFix_", VarType::Bool),
    ("rate_request_", VarType::Int),
    ("qs_enabled_", VarType::Bool),
    ("tcp_qs_recovery_", VarType::Bool),
    ("qs_request_mode_", VarType::Int),
    ("qs_thresh_", VarType::Int),
    ("qs_rtt_", VarType::Int),
    ("print_request_", VarType::Bool),
    ("frto_enabled_", VarType::Bool),
    ("sfrto_enabled_", VarType::Bool),
    ("spurious_response_", VarType::Int),
];

/// NewReno's extra bound variables.
pub const NEWRENO_PARAMS: &[(&str, VarType)] = &[
    ("newreno_changes_", VarType::Int),
    ("newreno_changes1_", VarType::Int),
    ("exit_recovery_fix_", VarType::Int),
    ("partial_window_deflation_", VarType::Int),
];

/// Vegas's extra bound variables (tcp-vegas.cc `delay_bind_dispatch`):
/// none of them is traced.
pub const VEGAS_PARAMS: &[(&str, VarType)] = &[
    ("v_alpha_", VarType::Int),
    ("v_beta_", VarType::Int),
    ("v_gamma_", VarType::Int),
    ("v_rtt_", VarType::Real),
];

/// `RFC793eduTcpAgent::delay_bind_dispatch`.
pub const RFC793EDU_PARAMS: &[(&str, VarType)] = &[
    ("add793expbackoff_", VarType::Bool),
    ("add793jacobsonrtt_", VarType::Bool),
    ("add793fastrtx_", VarType::Bool),
    ("add793slowstart_", VarType::Bool),
    ("add793additiveinc_", VarType::Bool),
    ("add793karnrtt_", VarType::Bool),
    ("add793exponinc_", VarType::Bool),
    ("rto_", VarType::Real),
];

/// All bound variable names of a TCP sender of this flavour (without the
/// generic agent ones).
pub fn names(kind: &str) -> Vec<(&'static str, VarType)> {
    let newreno = kind == "Agent/TCP/Newreno";
    let mut v: Vec<(&'static str, VarType)> = PARAMS.to_vec();
    for tv in Tv::ALL {
        let ty = if tv == Tv::Cwnd { VarType::TracedReal } else { VarType::TracedInt };
        v.push((tv.name(), ty));
    }
    if newreno {
        v.extend_from_slice(NEWRENO_PARAMS);
    }
    if kind == "Agent/TCP/Sack1" {
        v.push(("partial_ack_", VarType::Bool));
    }
    if kind == "Agent/TCP/RFC793edu" {
        v.extend_from_slice(RFC793EDU_PARAMS);
    }
    if kind == "Agent/TCP/Vegas" {
        v.extend_from_slice(VEGAS_PARAMS);
    }
    v
}

impl Tcp {
    /// Read a bound variable as Tcl sees it, or None if not a TCP variable.
    pub fn get_var(&self, base: &AgentBase, name: &str) -> Option<String> {
        if let Some(tv) = Tv::from_name(name) {
            return Some(self.sender.traced_value_of(tv));
        }
        if let (Flavor::Sack1(s), "partial_ack_") = (&self.flavor, name) {
            return Some(fmt_int(s.partial_ack as i64));
        }
        if let Flavor::Rfc793edu(s) = &self.flavor {
            if name == "rto_" {
                return Some(fmt_real(s.rto));
            }
            // (one name-to-field mapping, `switch_mut`, for get and set)
            let mut copy = s.clone();
            if let Some(v) = copy.switch_mut(name) {
                return Some(fmt_int(*v as i64));
            }
        }
        if let Flavor::Vegas(s) = &self.flavor {
            match name {
                "v_alpha_" => return Some(fmt_int(s.alpha as i64)),
                "v_beta_" => return Some(fmt_int(s.beta as i64)),
                "v_gamma_" => return Some(fmt_int(s.gamma as i64)),
                "v_rtt_" => return Some(fmt_real(s.rtt)),
                _ => {}
            }
        }
        if let Flavor::NewReno(s) = &self.flavor {
            match name {
                "newreno_changes_" => return Some(fmt_int(s.newreno_changes as i64)),
                "newreno_changes1_" => return Some(fmt_int(s.newreno_changes1 as i64)),
                "exit_recovery_fix_" => return Some(fmt_int(s.exit_recovery_fix as i64)),
                "partial_window_deflation_" => return Some(fmt_int(s.partial_window_deflation as i64)),
                _ => {}
            }
        }
        self.sender.get_common(base, name)
    }

    /// Set a bound variable from Tcl; returns false if `name` is not one.
    pub fn set_var(&mut self, base: &mut AgentBase, w: &mut World, name: &str, v: &str) -> bool {
        if let Some(tv) = Tv::from_name(name) {
            self.sender.set_traced(base, w, tv, v);
            return true;
        }
        if let (Flavor::Sack1(s), "partial_ack_") = (&mut self.flavor, name) {
            s.partial_ack = crate::vars::parse_bool_int(v);
            return true;
        }
        if let Flavor::Rfc793edu(s) = &mut self.flavor {
            if name == "rto_" {
                s.rto = parse_real(v);
                return true;
            }
            if let Some(slot) = s.switch_mut(name) {
                *slot = crate::vars::parse_bool_int(v);
                return true;
            }
        }
        if let Flavor::Vegas(s) = &mut self.flavor {
            match name {
                "v_alpha_" => s.alpha = parse_int(v),
                "v_beta_" => s.beta = parse_int(v),
                "v_gamma_" => s.gamma = parse_int(v),
                "v_rtt_" => s.rtt = parse_real(v),
                _ => return self.sender.set_common(base, w, name, v),
            }
            return true;
        }
        if let Flavor::NewReno(s) = &mut self.flavor {
            match name {
                "newreno_changes_" => {
                    s.newreno_changes = parse_int(v);
                    return true;
                }
                "newreno_changes1_" => {
                    s.newreno_changes1 = parse_int(v);
                    return true;
                }
                "exit_recovery_fix_" => {
                    s.exit_recovery_fix = parse_int(v);
                    return true;
                }
                "partial_window_deflation_" => {
                    s.partial_window_deflation = parse_int(v);
                    return true;
                }
                _ => {}
            }
        }
        self.sender.set_common(base, w, name, v)
    }
}

impl Sender {
    /// Read one of the variables every TCP sender has.
    fn get_common(&self, base: &AgentBase, name: &str) -> Option<String> {
        let i = |v: i32| Some(fmt_int(v as i64));
        let r = |v: f64| Some(fmt_real(v));
        let b = |v: bool| Some(b2s(v));
        match name {
            "window_" => r(self.wnd),
            "windowInit_" => r(self.wnd_init),
            "windowInitOption_" => i(self.wnd_init_option),
            "syn_" => b(self.syn),
            "max_connects_" => i(self.max_connects),
            "windowOption_" => i(self.growth.option()),
            "newecn_" => b(self.newecn),
            "newecn_alpha_wnd_" => r(self.newecn_rule().alpha_wnd),
            "newecn_alpha_slp_" => r(self.newecn_rule().alpha_slp),
            "newecn_beta_" => r(self.newecn_rule().beta),
            "slope_window_" => r(self.newecn_rule().slope),
            "last_time_" => r(self.newecn_rule().last_time),
            "first_time_" => i(self.newecn_rule().first_time),
            "mark_" => r(self.mark),
            "windowConstant_" => r(self.scaled().wnd_const),
            "windowThresh_" => r(self.wnd_th),
            "delay_growth_" => b(self.delay_growth),
            "overhead_" => r(self.overhead),
            "tcpTick_" => r(self.tcp_tick),
            "ecn_" => b(self.ecn),
            "SetCWRonRetransmit_" => b(self.set_cwr_on_retransmit),
            "old_ecn_" => b(self.old_ecn),
            "bugfix_ss_" => b(self.bugfix_ss),
            "eln_" => i(self.eln),
            "eln_rxmit_thresh_" => i(self.eln_rxmit_thresh),
            "packetSize_" => i(base.size),
            "tcpip_base_hdr_size_" => i(self.tcpip_base_hdr_size),
            "ts_option_size_" => i(self.ts_option_size),
            "bugFix_" => b(self.bug_fix),
            "bugFix_ack_" => b(self.bugfix_ack),
            "bugFix_ts_" => b(self.bugfix_ts),
            "lessCareful_" => b(self.less_careful),
            "timestamps_" => b(self.ts_option),
            "ts_resetRTO_" => b(self.ts_reset_rto),
            "slow_start_restart_" => b(self.slow_start_restart),
            "restart_bugfix_" => b(self.restart_bugfix),
            "maxburst_" => i(self.maxburst),
            "aggressive_maxburst_" => b(self.aggressive_maxburst),
            "maxcwnd_" => i(self.maxcwnd),
            "numdupacks_" => i(self.numdupacks),
            "numdupacksFrac_" => i(self.numdupacks_frac),
            "exitFastRetrans_" => b(self.exit_fast_retrans),
            "maxrto_" => r(self.maxrto),
            "minrto_" => r(self.minrto),
            "srtt_init_" => i(self.srtt_init),
            "rttvar_init_" => i(self.rttvar_init),
            "rtxcur_init_" => r(self.rtxcur_init),
            "T_SRTT_BITS" => i(self.t_srtt_bits),
            "T_RTTVAR_BITS" => i(self.t_rttvar_bits),
            "rttvar_exp_" => i(self.rttvar_exp),
            "awnd_" => r(self.awnd),
            "decrease_num_" => r(self.decrease_num),
            "increase_num_" => r(self.increase_num),
            "k_parameter_" => r(self.binomial().k_parameter),
            "l_parameter_" => r(self.binomial().l_parameter),
            "trace_all_oneline_" => b(self.trace_all_oneline),
            "nam_tracevar_" => b(self.nam_tracevar),
            "QOption_" => i(self.qopt.qoption),
            "EnblRTTCtr_" => i(self.qopt.enbl_rtt_ctr),
            "control_increase_" => i(self.control_increase),
            "noFastRetrans_" => b(self.no_fast_retrans),
            "precisionReduce_" => b(self.precision_reduce),
            "oldCode_" => b(self.old_code),
            "useHeaders_" => b(self.use_headers),
            "low_window_" => i(self.highspeed().low_window),
            "high_window_" => i(self.highspeed().high_window),
            "high_p_" => r(self.highspeed().high_p),
            "high_decrease_" => r(self.highspeed().high_decrease),
            "max_ssthresh_" => i(self.max_ssthresh),
            "cwnd_range_" => i(self.highspeed().cwnd_range),
            "timerfix_" => b(self.timerfix),
            "rfc2988_" => b(self.rfc2988),
            "LimTransmitFix_" => b(self.lim_transmit_fix),
            "rate_request_" => i(self.qs.rate_request),
            "qs_enabled_" => b(self.qs.qs_enabled),
            "tcp_qs_recovery_" => b(self.qs.tcp_qs_recovery),
            "qs_request_mode_" => i(self.qs.qs_request_mode),
            "qs_thresh_" => i(self.qs.qs_thresh),
            "qs_rtt_" => i(self.qs.qs_rtt),
            "print_request_" => b(self.qs.print_request),
            "frto_enabled_" => b(self.frto.frto_enabled),
            "sfrto_enabled_" => b(self.frto.sfrto_enabled),
            "spurious_response_" => i(self.frto.spurious_response),
            _ => None,
        }
    }

    fn traced_value_of(&self, tv: Tv) -> String {
        match tv {
            Tv::Cwnd => crate::vars::fmt_traced_real(self.cwnd),
            _ => fmt_int(self.traced_int(tv) as i64),
        }
    }

    /// Set one of the variables every TCP sender has.
    fn set_common(&mut self, base: &mut AgentBase, w: &World, name: &str, v: &str) -> bool {
        let i = parse_int(v);
        let r = parse_real(v);
        let b = parse_bool(v);
        match name {
            "window_" => self.set_wnd(r),
            "windowInit_" => self.wnd_init = r,
            "windowInitOption_" => self.wnd_init_option = i,
            "syn_" => self.syn = b,
            "max_connects_" => self.max_connects = i,
            // The integer selects the rule (any value: an undefined one
            // stops the run only when opencwnd reaches it, as in ns-2).
            "windowOption_" => self.select_growth(i, w),
            "newecn_" => {
                self.newecn = b;
                let option = self.growth.option();
                self.select_growth(option, w);
            }
            "newecn_alpha_wnd_" => self.newecn_rule_mut().alpha_wnd = r,
            "newecn_alpha_slp_" => self.newecn_rule_mut().alpha_slp = r,
            "newecn_beta_" => self.newecn_rule_mut().beta = r,
            "slope_window_" => self.newecn_rule_mut().slope = r,
            "last_time_" => self.newecn_rule_mut().last_time = r,
            "first_time_" => self.newecn_rule_mut().first_time = i,
            "mark_" => self.mark = r,
            "windowConstant_" => self.scaled_mut().wnd_const = r,
            "windowThresh_" => self.wnd_th = r,
            "delay_growth_" => self.delay_growth = b,
            "overhead_" => self.overhead = r,
            "tcpTick_" => self.set_tcp_tick(r),
            "ecn_" => self.ecn = b,
            "SetCWRonRetransmit_" => self.set_cwr_on_retransmit = b,
            "old_ecn_" => self.old_ecn = b,
            "bugfix_ss_" => self.bugfix_ss = b,
            "eln_" => self.eln = i,
            "eln_rxmit_thresh_" => self.eln_rxmit_thresh = i,
            "packetSize_" => base.size = i,
            "tcpip_base_hdr_size_" => self.tcpip_base_hdr_size = i,
            "ts_option_size_" => self.ts_option_size = i,
            "bugFix_" => self.bug_fix = b,
            "bugFix_ack_" => self.bugfix_ack = b,
            "bugFix_ts_" => self.bugfix_ts = b,
            "lessCareful_" => self.less_careful = b,
            "timestamps_" => self.ts_option = b,
            "ts_resetRTO_" => self.ts_reset_rto = b,
            "slow_start_restart_" => self.slow_start_restart = b,
            "restart_bugfix_" => self.restart_bugfix = b,
            "maxburst_" => self.maxburst = i,
            "aggressive_maxburst_" => self.aggressive_maxburst = b,
            "maxcwnd_" => self.maxcwnd = i,
            "numdupacks_" => self.numdupacks = i,
            "numdupacksFrac_" => self.numdupacks_frac = i,
            "exitFastRetrans_" => self.exit_fast_retrans = b,
            "maxrto_" => {
                self.maxrto = r;
                self.note_rto();
            }
            "minrto_" => {
                self.minrto = r;
                self.note_rto();
            }
            "srtt_init_" => self.srtt_init = i,
            "rttvar_init_" => self.rttvar_init = i,
            "rtxcur_init_" => self.rtxcur_init = r,
            "T_SRTT_BITS" => self.t_srtt_bits = i,
            "T_RTTVAR_BITS" => self.t_rttvar_bits = i,
            "rttvar_exp_" => self.rttvar_exp = i,
            "awnd_" => self.awnd = r,
            "decrease_num_" => self.decrease_num = r,
            "increase_num_" => self.increase_num = r,
            "k_parameter_" => self.binomial_mut().k_parameter = r,
            "l_parameter_" => self.binomial_mut().l_parameter = r,
            "trace_all_oneline_" => self.trace_all_oneline = b,
            "nam_tracevar_" => self.nam_tracevar = b,
            "QOption_" => self.qopt.qoption = i,
            "EnblRTTCtr_" => self.qopt.enbl_rtt_ctr = i,
            "control_increase_" => self.control_increase = i,
            "noFastRetrans_" => self.no_fast_retrans = b,
            "precisionReduce_" => self.precision_reduce = b,
            "oldCode_" => self.old_code = b,
            "useHeaders_" => self.use_headers = b,
            "low_window_" => self.highspeed_mut().low_window = i,
            "high_window_" => self.highspeed_mut().high_window = i,
            "high_p_" => self.highspeed_mut().high_p = r,
            "high_decrease_" => self.highspeed_mut().high_decrease = r,
            "max_ssthresh_" => self.max_ssthresh = i,
            "cwnd_range_" => self.highspeed_mut().cwnd_range = i,
            "timerfix_" => self.timerfix = b,
            "rfc2988_" => {
                self.rfc2988 = b;
                self.note_rto();
            }
            "LimTransmitFix_" => self.lim_transmit_fix = b,
            "rate_request_" => self.qs.rate_request = i,
            "qs_enabled_" => self.qs.qs_enabled = b,
            "tcp_qs_recovery_" => self.qs.tcp_qs_recovery = b,
            "qs_request_mode_" => self.qs.qs_request_mode = i,
            "qs_thresh_" => self.qs.qs_thresh = i,
            "qs_rtt_" => self.qs.qs_rtt = i,
            "print_request_" => self.qs.print_request = b,
            "frto_enabled_" => self.frto.frto_enabled = b,
            "sfrto_enabled_" => self.frto.sfrto_enabled = b,
            "spurious_response_" => self.frto.spurious_response = i,
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::agent::{AgentBase, AgentKind};
    use crate::packet::PacketType;
    use crate::sim::Sim;
    use crate::tcp::{Flavor, Growth, Sender, Tcp};

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
            ("0", "PerWindow"),
            ("1", "Standard"),
            ("2", "Scaled(RttSquared"),
            ("3", "Scaled(AwndSquared"),
            ("4", "Scaled(Awnd,"),
            ("5", "Scaled(Rtt,"),
            ("6", "Binomial"),
            ("8", "HighSpeed"),
            ("7", "Undefined(7)"),
            ("9", "Undefined(9)"),
            ("-1", "Undefined(-1)"),
            ("1000", "Undefined(1000)"),
        ] {
            assert_eq!(sim.set_var(tcp, "windowOption_", v).unwrap(), v);
            let g = format!("{:?}", sender(&mut sim, tcp).growth);
            assert!(g.starts_with(rule), "windowOption_ {v}: {g}");
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
        let mut t = Tcp::new(Flavor::Reno, &mut sim, 0);
        let mut b = AgentBase::new(0, PacketType::Tcp);
        assert!(t.set_var(&mut b, &mut sim.w, "windowOption_", "7"));
        t.reset(&mut b, &mut sim);
        assert!(!sim.w.has_notices());
        assert_eq!(t.sender.growth_increase(&mut sim.w), None);
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
        let is_newecn = |sim: &mut Sim, id| sender(sim, id).growth.is_newecn();
        sim.set_var(a, "newecn_", "true").unwrap();
        assert!(!is_newecn(&mut sim, a), "windowOption_ still 1");
        sim.set_var(a, "windowOption_", "8").unwrap();
        assert!(is_newecn(&mut sim, a));
        sim.set_var(b, "windowOption_", "8").unwrap();
        assert!(matches!(sender(&mut sim, b).growth, Growth::HighSpeed(_)));
        sim.set_var(b, "newecn_", "1").unwrap();
        assert!(is_newecn(&mut sim, b));
        sim.set_var(b, "newecn_", "false").unwrap();
        assert!(matches!(sender(&mut sim, b).growth, Growth::HighSpeed(_)));
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
        let Growth::Binomial(r) = &sender(&mut sim, t).growth else { panic!("6") };
        assert_eq!((r.k_parameter, r.l_parameter), (0.5, 0.25));
    }
}
