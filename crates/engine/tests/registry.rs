//! The ns-2 classes of the registry (ns2/registry.rs) against what the
//! engine's ns-2 surface gave before the classes moved there: the same
//! bound variables (names and tclcl types) and, with what is left of the
//! library's defaults.tcl, the same class defaults.  The expectations were
//! written from iface.rs's `bound_vars` and defaults.tcl as they were
//! before the port (the TCP senders' and sinks' from the code before
//! theirs); variables added since are in them too (seed 003's `ecnmod_*`,
//! RED's `geometric_` and `pmod_*`).

use dumbbell_engine::ns2::objects;
use dumbbell_engine::ns2::bind::ClassDefault;
use dumbbell_engine::ns2::registry::{self, CLASSES};
use dumbbell_engine::ns2::tclcl::VarType::{self, *};
use std::collections::BTreeSet;

/// Each class's bound variables before the port, in iface.rs's order.
#[rustfmt::skip]
const BOUND_BEFORE: &[(&str, &[(&str, VarType)])] = &[
    ("Agent/TCP", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt)]),
    ("Agent/TCP/Reno", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt)]),
    ("Agent/TCP/Newreno", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("newreno_changes_", Int), ("newreno_changes1_", Int), ("exit_recovery_fix_", Int), ("partial_window_deflation_", Int)]),
    ("Agent/TCP/Sack1", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("partial_ack_", Bool)]),
    ("Agent/TCP/RFC793edu", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("add793expbackoff_", Bool), ("add793jacobsonrtt_", Bool), ("add793fastrtx_", Bool), ("add793slowstart_", Bool), ("add793additiveinc_", Bool), ("add793karnrtt_", Bool), ("add793exponinc_", Bool), ("rto_", Real)]),
    ("Agent/TCP/Vegas", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("v_alpha_", Int), ("v_beta_", Int), ("v_gamma_", Int), ("v_rtt_", Real)]),
    ("Agent/TCP/FullTcp", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("segsperack_", Int), ("spa_thresh_", Int), ("segsize_", Int), ("tcprexmtthresh_", Int), ("iss_", Int), ("nodelay_", Bool), ("data_on_syn_", Bool), ("dupseg_fix_", Bool), ("dupack_reset_", Bool), ("interval_", Time), ("close_on_empty_", Bool), ("signal_on_empty_", Bool), ("reno_fastrecov_", Bool), ("pipectrl_", Bool), ("open_cwnd_on_pack_", Bool), ("halfclose_", Bool), ("nopredict_", Bool), ("ecn_syn_", Bool), ("ecn_syn_wait_", Int)]),
    ("Agent/TCP/FullTcp/Sack", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("segsperack_", Int), ("spa_thresh_", Int), ("segsize_", Int), ("tcprexmtthresh_", Int), ("iss_", Int), ("nodelay_", Bool), ("data_on_syn_", Bool), ("dupseg_fix_", Bool), ("dupack_reset_", Bool), ("interval_", Time), ("close_on_empty_", Bool), ("signal_on_empty_", Bool), ("reno_fastrecov_", Bool), ("pipectrl_", Bool), ("open_cwnd_on_pack_", Bool), ("halfclose_", Bool), ("nopredict_", Bool), ("ecn_syn_", Bool), ("ecn_syn_wait_", Int), ("clear_on_timeout_", Bool), ("sack_rtx_cthresh_", Int), ("sack_rtx_bthresh_", Int), ("sack_block_size_", Int), ("sack_option_size_", Int), ("max_sack_blocks_", Int), ("sack_rtx_threshmode_", Int)]),
    ("Agent/TCP/FullTcp/Tahoe", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("segsperack_", Int), ("spa_thresh_", Int), ("segsize_", Int), ("tcprexmtthresh_", Int), ("iss_", Int), ("nodelay_", Bool), ("data_on_syn_", Bool), ("dupseg_fix_", Bool), ("dupack_reset_", Bool), ("interval_", Time), ("close_on_empty_", Bool), ("signal_on_empty_", Bool), ("reno_fastrecov_", Bool), ("pipectrl_", Bool), ("open_cwnd_on_pack_", Bool), ("halfclose_", Bool), ("nopredict_", Bool), ("ecn_syn_", Bool), ("ecn_syn_wait_", Int)]),
    ("Agent/TCP/FullTcp/Newreno", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("window_", Real), ("windowInit_", Real), ("windowInitOption_", Int), ("syn_", Bool), ("max_connects_", Int), ("windowOption_", Int), ("newecn_", Bool), ("newecn_alpha_wnd_", Real), ("newecn_alpha_slp_", Real), ("newecn_beta_", Real), ("slope_window_", Real), ("last_time_", Real), ("first_time_", Int), ("ecnmod_", Bool), ("ecnmod_c1_", Real), ("ecnmod_c2_", Real), ("ecnmod_alpha_", Real), ("ecnmod_beta_", Real), ("mark_", Real), ("windowConstant_", Real), ("windowThresh_", Real), ("delay_growth_", Bool), ("overhead_", Real), ("tcpTick_", Real), ("ecn_", Bool), ("SetCWRonRetransmit_", Bool), ("old_ecn_", Bool), ("bugfix_ss_", Bool), ("eln_", Int), ("eln_rxmit_thresh_", Int), ("packetSize_", Int), ("tcpip_base_hdr_size_", Int), ("ts_option_size_", Int), ("bugFix_", Bool), ("bugFix_ack_", Bool), ("bugFix_ts_", Bool), ("lessCareful_", Bool), ("timestamps_", Bool), ("ts_resetRTO_", Bool), ("slow_start_restart_", Bool), ("restart_bugfix_", Bool), ("maxburst_", Int), ("aggressive_maxburst_", Bool), ("maxcwnd_", Int), ("numdupacks_", Int), ("numdupacksFrac_", Int), ("exitFastRetrans_", Bool), ("maxrto_", Real), ("minrto_", Real), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("rttvar_exp_", Int), ("awnd_", Real), ("decrease_num_", Real), ("increase_num_", Real), ("k_parameter_", Real), ("l_parameter_", Real), ("trace_all_oneline_", Bool), ("nam_tracevar_", Bool), ("QOption_", Int), ("EnblRTTCtr_", Int), ("control_increase_", Int), ("noFastRetrans_", Bool), ("precisionReduce_", Bool), ("oldCode_", Bool), ("useHeaders_", Bool), ("low_window_", Int), ("high_window_", Int), ("high_p_", Real), ("high_decrease_", Real), ("max_ssthresh_", Int), ("cwnd_range_", Int), ("timerfix_", Bool), ("rfc2988_", Bool), ("LimTransmitFix_", Bool), ("rate_request_", Int), ("qs_enabled_", Bool), ("tcp_qs_recovery_", Bool), ("qs_request_mode_", Int), ("qs_thresh_", Int), ("qs_rtt_", Int), ("print_request_", Bool), ("frto_enabled_", Bool), ("sfrto_enabled_", Bool), ("spurious_response_", Int), ("t_seqno_", TracedInt), ("dupacks_", TracedInt), ("seqno_", TracedInt), ("ack_", TracedInt), ("cwnd_", TracedReal), ("ssthresh_", TracedInt), ("maxseq_", TracedInt), ("rtt_", TracedInt), ("srtt_", TracedInt), ("rttvar_", TracedInt), ("backoff_", TracedInt), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("nackpack_", TracedInt), ("nrexmit_", TracedInt), ("nrexmitpack_", TracedInt), ("nrexmitbytes_", TracedInt), ("necnresponses_", TracedInt), ("ncwndcuts_", TracedInt), ("ncwndcuts1_", TracedInt), ("singledup_", TracedInt), ("segsperack_", Int), ("spa_thresh_", Int), ("segsize_", Int), ("tcprexmtthresh_", Int), ("iss_", Int), ("nodelay_", Bool), ("data_on_syn_", Bool), ("dupseg_fix_", Bool), ("dupack_reset_", Bool), ("interval_", Time), ("close_on_empty_", Bool), ("signal_on_empty_", Bool), ("reno_fastrecov_", Bool), ("pipectrl_", Bool), ("open_cwnd_on_pack_", Bool), ("halfclose_", Bool), ("nopredict_", Bool), ("ecn_syn_", Bool), ("ecn_syn_wait_", Int), ("recov_maxburst_", Int)]),
    ("Agent/TCPSink", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int), ("bytes_", Int), ("maxSackBlocks_", Int), ("ts_echo_bugfix_", Bool), ("ts_echo_rfc1323_", Bool), ("generateDSacks_", Bool), ("qs_enabled_", Bool), ("RFC2581_immediate_ack_", Bool), ("SYN_immediate_ack_", Bool), ("ecn_syn_", Bool), ("windowOptionS_", Int), ("ecnmod_", Bool)]),
    ("Agent/TCPSink/DelAck", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int), ("bytes_", Int), ("maxSackBlocks_", Int), ("ts_echo_bugfix_", Bool), ("ts_echo_rfc1323_", Bool), ("generateDSacks_", Bool), ("qs_enabled_", Bool), ("RFC2581_immediate_ack_", Bool), ("SYN_immediate_ack_", Bool), ("ecn_syn_", Bool), ("windowOptionS_", Int), ("ecnmod_", Bool), ("interval_", Time)]),
    ("Agent/TCPSink/Sack1", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int), ("bytes_", Int), ("maxSackBlocks_", Int), ("ts_echo_bugfix_", Bool), ("ts_echo_rfc1323_", Bool), ("generateDSacks_", Bool), ("qs_enabled_", Bool), ("RFC2581_immediate_ack_", Bool), ("SYN_immediate_ack_", Bool), ("ecn_syn_", Bool), ("windowOptionS_", Int), ("ecnmod_", Bool)]),
    ("Agent/TCPSink/Sack1/DelAck", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int), ("bytes_", Int), ("maxSackBlocks_", Int), ("ts_echo_bugfix_", Bool), ("ts_echo_rfc1323_", Bool), ("generateDSacks_", Bool), ("qs_enabled_", Bool), ("RFC2581_immediate_ack_", Bool), ("SYN_immediate_ack_", Bool), ("ecn_syn_", Bool), ("windowOptionS_", Int), ("ecnmod_", Bool), ("interval_", Time)]),
    ("Queue/DropTail", &[("limit_", Int), ("blocked_", Bool), ("unblock_on_resume_", Bool), ("debug_", Bool), ("util_weight_", Real), ("util_check_intv_", Real), ("util_records_", Int), ("drop_front_", Bool), ("summarystats_", Bool), ("queue_in_bytes_", Bool), ("mean_pktsize_", Int)]),
    ("Queue/RED", &[("limit_", Int), ("blocked_", Bool), ("unblock_on_resume_", Bool), ("debug_", Bool), ("util_weight_", Real), ("util_check_intv_", Real), ("util_records_", Int), ("queue_in_bytes_", Bool), ("mean_pktsize_", Int), ("drop_front_", Bool), ("summarystats_", Bool), ("bytes_", Bool), ("thresh_", Real), ("maxthresh_", Real), ("thresh_queue_", Real), ("maxthresh_queue_", Real), ("idle_pktsize_", Int), ("q_weight_", Real), ("wait_", Bool), ("linterm_", Real), ("mark_p_", Real), ("use_mark_p_", Bool), ("setbit_", Bool), ("gentle_", Bool), ("drop_tail_", Bool), ("drop_rand_", Bool), ("ns1_compat_", Bool), ("ave_", TracedReal), ("prob1_", TracedReal), ("curq_", TracedInt), ("cur_max_p_", TracedReal), ("alpha_", Real), ("beta_", Real), ("adaptive_", Int), ("interval_", Real), ("targetdelay_", Real), ("top_", Real), ("bottom_", Real), ("cautious_", Int), ("feng_adaptive_", Int), ("ecnm_", Bool), ("mark_front_", Bool), ("aecn_", Bool), ("aecn_robust_min_", Real), ("aecn_robust_max_", Real), ("aecn_fragile_min_", Real), ("aecn_a_", Real), ("aecn_b_", Real), ("geometric_", Bool), ("pmod_", Bool), ("pmod_c1_", Real), ("pmod_c2_", Real)]),
    ("Queue/CoDel", &[("limit_", Int), ("blocked_", Bool), ("unblock_on_resume_", Bool), ("debug_", Bool), ("util_weight_", Real), ("util_check_intv_", Real), ("util_records_", Int), ("queue_in_bytes_", Bool), ("mean_pktsize_", Int), ("interval_", Time), ("target_", Time), ("curq_", Int), ("d_exp_", Real), ("minbytes_", Int), ("setbit_", Bool), ("ce_threshold_", Time)]),
    ("Queue/PIE", &[("limit_", Int), ("blocked_", Bool), ("unblock_on_resume_", Bool), ("debug_", Bool), ("util_weight_", Real), ("util_check_intv_", Real), ("util_records_", Int), ("queue_in_bytes_", Bool), ("mean_pktsize_", Int), ("a_", Real), ("b_", Real), ("tUpdate_", Time), ("sUpdate_", Time), ("qdelay_ref_", Time), ("burst_allowance_", Time), ("dq_threshold_", Int), ("use_dq_rate_estimator_", Bool), ("cap_drop_adjustment_", Bool), ("setbit_", Bool), ("mark_p_", Real), ("derandomize_", Bool), ("active_threshold_", Time), ("prob_", Real), ("curq_", Int), ("qdelay_", Time)]),
    ("Queue/FQ_CoDel", &[("limit_", Int), ("blocked_", Bool), ("unblock_on_resume_", Bool), ("debug_", Bool), ("util_weight_", Real), ("util_check_intv_", Real), ("util_records_", Int), ("target_", Time), ("interval_", Time), ("setbit_", Bool), ("ce_threshold_", Time), ("flows_", Int), ("quantum_", Int), ("drop_batch_size_", Int), ("perturbation_", Int), ("set_associative_hash_", Bool), ("set_ways_", Int), ("curq_", Int)]),
    ("Queue/SCFQ", &[("limit_", Int), ("blocked_", Bool), ("unblock_on_resume_", Bool), ("debug_", Bool), ("util_weight_", Real), ("util_check_intv_", Real), ("util_records_", Int), ("queue_in_bytes_", Bool), ("mean_pktsize_", Int), ("summarystats_", Bool)]),
    ("Connector", &[("debug_", Bool)]),
    ("TTLChecker", &[("debug_", Bool)]),
    ("Trace", &[("src_", Int), ("dst_", Int), ("callback_", Int), ("show_tcphdr_", Int), ("show_sctphdr_", Int), ("debug_", Bool)]),
    ("Trace/Enque", &[("src_", Int), ("dst_", Int), ("callback_", Int), ("show_tcphdr_", Int), ("show_sctphdr_", Int), ("debug_", Bool)]),
    ("Trace/Deque", &[("src_", Int), ("dst_", Int), ("callback_", Int), ("show_tcphdr_", Int), ("show_sctphdr_", Int), ("debug_", Bool)]),
    ("Trace/Drop", &[("src_", Int), ("dst_", Int), ("callback_", Int), ("show_tcphdr_", Int), ("show_sctphdr_", Int), ("debug_", Bool)]),
    ("Trace/Recv", &[("src_", Int), ("dst_", Int), ("callback_", Int), ("show_tcphdr_", Int), ("show_sctphdr_", Int), ("debug_", Bool)]),
    ("Trace/Hop", &[("src_", Int), ("dst_", Int), ("callback_", Int), ("show_tcphdr_", Int), ("show_sctphdr_", Int), ("debug_", Bool)]),
    ("BaseTrace/Event", &[("debug_", Bool)]),
    ("DelayLink", &[("bandwidth_", Bandwidth), ("delay_", Time), ("avoidReordering_", Bool), ("debug_", Bool)]),
    ("DynamicLink", &[("status_", Int), ("debug_", Bool)]),
    ("RouteLogic", &[]),
    ("Node", &[]),
    ("SnoopQueue/In", &[("debug_", Bool)]),
    ("SnoopQueue/Out", &[("debug_", Bool)]),
    ("SnoopQueue/Drop", &[("debug_", Bool)]),
    ("QueueMonitor", &[("size_", Int), ("pkts_", Int), ("parrivals_", Int), ("barrivals_", Int), ("pdepartures_", Int), ("bdepartures_", Int), ("pdrops_", Int), ("pmarks_", Int), ("bdrops_", Int), ("qs_pkts_", Int), ("qs_bytes_", Int), ("qs_drops_", Int), ("first_pkt_", Real), ("last_pkt_", Real), ("k_", Real), ("prevTime_", Real), ("startTime_", Real), ("estRate_", Real), ("estimate_rate_", Bool), ("keepRTTstats_", Bool), ("maxRTT_", Int), ("binsPerSec_", Int), ("keepSeqnoStats_", Bool), ("maxSeqno_", Int), ("SeqnoBinSize_", Int)]),
    ("QueueMonitor/ED", &[("size_", Int), ("pkts_", Int), ("parrivals_", Int), ("barrivals_", Int), ("pdepartures_", Int), ("bdepartures_", Int), ("pdrops_", Int), ("pmarks_", Int), ("bdrops_", Int), ("qs_pkts_", Int), ("qs_bytes_", Int), ("qs_drops_", Int), ("first_pkt_", Real), ("last_pkt_", Real), ("k_", Real), ("prevTime_", Real), ("startTime_", Real), ("estRate_", Real), ("estimate_rate_", Bool), ("keepRTTstats_", Bool), ("maxRTT_", Int), ("binsPerSec_", Int), ("keepSeqnoStats_", Bool), ("maxSeqno_", Int), ("SeqnoBinSize_", Int), ("ebdrops_", Int), ("epdrops_", Int), ("mon_ebdrops_", Int), ("mon_epdrops_", Int)]),
    ("QueueMonitor/ED/Flowmon", &[("size_", Int), ("pkts_", Int), ("parrivals_", Int), ("barrivals_", Int), ("pdepartures_", Int), ("bdepartures_", Int), ("pdrops_", Int), ("pmarks_", Int), ("bdrops_", Int), ("qs_pkts_", Int), ("qs_bytes_", Int), ("qs_drops_", Int), ("first_pkt_", Real), ("last_pkt_", Real), ("k_", Real), ("prevTime_", Real), ("startTime_", Real), ("estRate_", Real), ("estimate_rate_", Bool), ("keepRTTstats_", Bool), ("maxRTT_", Int), ("binsPerSec_", Int), ("keepSeqnoStats_", Bool), ("maxSeqno_", Int), ("SeqnoBinSize_", Int), ("ebdrops_", Int), ("epdrops_", Int), ("mon_ebdrops_", Int), ("mon_epdrops_", Int), ("enable_in_", Bool), ("enable_out_", Bool), ("enable_drop_", Bool), ("enable_edrop_", Bool)]),
    ("QueueMonitor/ED/Flow", &[("size_", Int), ("pkts_", Int), ("parrivals_", Int), ("barrivals_", Int), ("pdepartures_", Int), ("bdepartures_", Int), ("pdrops_", Int), ("pmarks_", Int), ("bdrops_", Int), ("qs_pkts_", Int), ("qs_bytes_", Int), ("qs_drops_", Int), ("first_pkt_", Real), ("last_pkt_", Real), ("k_", Real), ("prevTime_", Real), ("startTime_", Real), ("estRate_", Real), ("estimate_rate_", Bool), ("keepRTTstats_", Bool), ("maxRTT_", Int), ("binsPerSec_", Int), ("keepSeqnoStats_", Bool), ("maxSeqno_", Int), ("SeqnoBinSize_", Int), ("ebdrops_", Int), ("epdrops_", Int), ("mon_ebdrops_", Int), ("mon_epdrops_", Int), ("src_", Int), ("dst_", Int), ("flowid_", Int)]),
    ("SnoopQueue/EDrop", &[("debug_", Bool)]),
    ("Samples", &[]),
    ("RandomVariable/Uniform", &[("min_", Real), ("max_", Real)]),
    ("RandomVariable/Exponential", &[("avg_", Real)]),
    ("RandomVariable/Erlang", &[("lambda_", Real), ("k_", Int)]),
    ("RandomVariable/Gamma", &[("alpha_", Real), ("beta_", Real)]),
    ("RandomVariable/Pareto", &[("avg_", Real), ("shape_", Real)]),
    ("RandomVariable/ParetoII", &[("avg_", Real), ("shape_", Real)]),
    ("RandomVariable/Normal", &[("avg_", Real), ("std_", Real)]),
    ("RandomVariable/LogNormal", &[("avg_", Real), ("std_", Real)]),
    ("RandomVariable/Constant", &[("val_", Real)]),
    ("RandomVariable/HyperExponential", &[("avg_", Real), ("cov_", Real)]),
    ("RandomVariable/Weibull", &[("shape_", Real), ("scale_", Real)]),
    ("RandomVariable/Empirical", &[("minCDF_", Real), ("maxCDF_", Real), ("interpolation_", Int), ("maxEntry_", Int)]),
    ("Integrator", &[("lastx_", Real), ("lasty_", Real), ("sum_", Real)]),
    ("Agent/Null", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool)]),
    ("Application", &[]),
    ("Application/Traffic/CBR", &[("rate_", Bandwidth), ("random_", Real), ("packetSize_", Int), ("maxpkts_", Int)]),
    ("Application/Traffic/Exponential", &[("burst_time_", Time), ("idle_time_", Time), ("rate_", Bandwidth), ("packetSize_", Int)]),
    ("Application/Traffic/Pareto", &[("burst_time_", Time), ("idle_time_", Time), ("rate_", Bandwidth), ("packetSize_", Int), ("shape_", Real)]),
    ("Application/Traffic/VoIPCalls", &[("lambda_", Real), ("holding_", Time), ("mu_", Real), ("burst_time_", Time), ("idle_time_", Time), ("packetSize_", Int), ("interval_", Time), ("stationary_start_", Bool), ("max_calls_", Int), ("calls_started_", Real), ("calls_ended_", Real), ("calls_blocked_", Real), ("calls_", Int), ("pkts_sent_", Real), ("mean_calls_", Real)]),
    ("Application/Telnet", &[("interval_", Real)]),
    ("Agent/UDP", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int)]),
    ("Agent/LossMonitor", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("nlost_", Int), ("npkts_", Int), ("bytes_", Int), ("lastPktTime_", Real), ("expected_", Int)]),
    // (Agent/TFRC and Agent/TFRCSink: from tfrc.cc's and tfrc-sink.cc's binds.)
    ("Agent/TFRC", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int), ("rate_", Real), ("df_", Real), ("tcp_tick_", Real), ("ndatapack_", TracedInt), ("ndatabytes_", TracedInt), ("true_loss_rate_", TracedReal), ("srtt_init_", Int), ("rttvar_init_", Int), ("rtxcur_init_", Real), ("rttvar_exp_", Int), ("T_SRTT_BITS", Int), ("T_RTTVAR_BITS", Int), ("InitRate_", Int), ("overhead_", Real), ("ssmult_", Real), ("bval_", Int), ("ca_", Int), ("printStatus_", Bool), ("conservative_", Bool), ("ecn_", Bool), ("minrto_", Real), ("maxHeavyRounds_", Int), ("SndrType_", Int), ("scmult_", Real), ("oldCode_", Bool), ("rate_init_", Real), ("rate_init_option_", Int), ("slow_increase_", Bool), ("voip_", Bool), ("voip_max_pkt_rate_", Int), ("fsize_", Int), ("useHeaders_", Bool), ("idleFix_", Bool), ("headersize_", Int), ("maxqueue_", Int)]),
    ("Agent/TFRCSink", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int), ("InitHistorySize_", Int), ("NumFeedback_", Real), ("AdjustHistoryAfterSS_", Int), ("printLoss_", Int), ("algo_", Int), ("PreciseLoss_", Int), ("numPkts_", Int), ("minDiscountRatio_", Real), ("NumSamples_", Int), ("discount_", Int), ("smooth_", Int), ("ShortIntervals_", Int), ("ShortRtts_", Int), ("history_", Real), ("minlc_", Int), ("bytes_", Int)]),
    ("Agent/Ping", &[("agent_addr_", Int), ("agent_port_", Int), ("dst_addr_", Int), ("dst_port_", Int), ("fid_", Int), ("prio_", Int), ("flags_", Int), ("ttl_", Int), ("class_", Int), ("debug_", Bool), ("packetSize_", Int)]),
    ("RNG", &[]),
    ("Classifier", &[("debug_", Bool)]),
    ("ErrorModule", &[("debug_", Bool)]),
    ("ErrorModel", &[("enable_", Int), ("rate_", Real), ("delay_", Real), ("bandwidth_", Bandwidth), ("markecn_", Bool), ("delay_pkt_", Bool), ("debug_", Bool)]),
    ("ErrorModel/Periodic", &[("enable_", Int), ("rate_", Real), ("delay_", Real), ("bandwidth_", Bandwidth), ("markecn_", Bool), ("delay_pkt_", Bool), ("debug_", Bool), ("period_", Real), ("offset_", Real), ("burstlen_", Real), ("default_drop_", Int)]),
    ("ErrorModel/List", &[("enable_", Int), ("rate_", Real), ("delay_", Real), ("bandwidth_", Bandwidth), ("markecn_", Bool), ("delay_pkt_", Bool), ("debug_", Bool)]),
    ("Classifier/Hash/Fid", &[("default_", Int), ("offset_", Int), ("shift_", Int), ("mask_", Int), ("debug_", Bool)]),
    ("Classifier/Hash/Dest", &[("default_", Int), ("offset_", Int), ("shift_", Int), ("mask_", Int), ("debug_", Bool)]),
    ("Classifier/Hash/SrcDest", &[("default_", Int), ("offset_", Int), ("shift_", Int), ("mask_", Int), ("debug_", Bool)]),
    ("Classifier/Hash/SrcDestFid", &[("default_", Int), ("offset_", Int), ("shift_", Int), ("mask_", Int), ("debug_", Bool)]),
    ("Delayer", &[("debug_", Bool)]),
];

/// Every class default that defaults.tcl and the registry's defaults
/// (queues) set before the port: (class, variable, value as written).
#[rustfmt::skip]
const DEFAULTS_BEFORE: &[(&str, &str, &str)] = &[
    ("Agent", "agent_addr_", "-1"),
    ("Agent", "agent_port_", "-1"),
    ("Agent", "class_", "0"),
    ("Agent", "debug_", "false"),
    ("Agent", "dst_addr_", "-1"),
    ("Agent", "dst_port_", "-1"),
    ("Agent", "fid_", "0"),
    ("Agent", "flags_", "0"),
    ("Agent", "prio_", "0"),
    ("Agent", "ttl_", "32"),
    ("Agent/LossMonitor", "bytes_", "0"),
    ("Agent/LossMonitor", "expected_", "0"),
    ("Agent/LossMonitor", "lastPktTime_", "0"),
    ("Agent/LossMonitor", "nlost_", "0"),
    ("Agent/LossMonitor", "npkts_", "0"),
    ("Agent/Null", "dport_", "0"),
    ("Agent/Null", "sport_", "0"),
    // (Agent/TFRC and Agent/TFRCSink: ns-default.tcl's.)
    ("Agent/TFRC", "rate_", "0"),
    ("Agent/TFRC", "ndatapack_", "0"),
    ("Agent/TFRC", "ndatabytes_", "0"),
    ("Agent/TFRC", "true_loss_rate_", "0.0"),
    ("Agent/TFRC", "srtt_init_", "0"),
    ("Agent/TFRC", "rttvar_init_", "12"),
    ("Agent/TFRC", "rtxcur_init_", "6.0"),
    ("Agent/TFRC", "rttvar_exp_", "2"),
    ("Agent/TFRC", "T_SRTT_BITS", "3"),
    ("Agent/TFRC", "T_RTTVAR_BITS", "2"),
    ("Agent/TFRC", "voip_", "0"),
    ("Agent/TFRC", "voip_max_pkt_rate_", "100"),
    ("Agent/TFRC", "fsize_", "1460"),
    ("Agent/TFRC", "headersize_", "32"),
    ("Agent/TFRC", "rate_init_option_", "2"),
    ("Agent/TFRC", "slow_increase_", "1"),
    ("Agent/TFRC", "maxHeavyRounds_", "0"),
    ("Agent/TFRC", "conservative_", "0"),
    ("Agent/TFRC", "scmult_", "1.5"),
    ("Agent/TFRC", "oldCode_", "false"),
    ("Agent/TFRC", "packetSize_", "1000"),
    ("Agent/TFRC", "df_", "0.95"),
    ("Agent/TFRC", "tcp_tick_", "0.1"),
    ("Agent/TFRC", "InitRate_", "300"),
    ("Agent/TFRC", "overhead_", "0"),
    ("Agent/TFRC", "ssmult_", "2"),
    ("Agent/TFRC", "bval_", "1"),
    ("Agent/TFRC", "ca_", "1"),
    ("Agent/TFRC", "printStatus_", "0"),
    ("Agent/TFRC", "ecn_", "0"),
    ("Agent/TFRC", "minrto_", "0.0"),
    ("Agent/TFRC", "SndrType_", "0"),
    ("Agent/TFRC", "maxqueue_", "MAXSEQ"),
    ("Agent/TFRC", "rate_init_", "2"),
    ("Agent/TFRC", "useHeaders_", "true"),
    ("Agent/TFRC", "idleFix_", "true"),
    ("Agent/TFRCSink", "packetSize_", "40"),
    ("Agent/TFRCSink", "InitHistorySize_", "100000"),
    ("Agent/TFRCSink", "NumFeedback_", "1"),
    ("Agent/TFRCSink", "AdjustHistoryAfterSS_", "1"),
    ("Agent/TFRCSink", "NumSamples_", "-1"),
    ("Agent/TFRCSink", "discount_", "1"),
    ("Agent/TFRCSink", "minDiscountRatio_", "0.5"),
    ("Agent/TFRCSink", "printLoss_", "0"),
    ("Agent/TFRCSink", "smooth_", "1"),
    ("Agent/TFRCSink", "ShortIntervals_", "0"),
    ("Agent/TFRCSink", "ShortRtts_", "2"),
    ("Agent/TFRCSink", "minlc_", "4"),
    ("Agent/TFRCSink", "algo_", "1"),
    ("Agent/TFRCSink", "maxint_", "1000"),
    ("Agent/TFRCSink", "history_", "0.75"),
    ("Agent/TFRCSink", "PreciseLoss_", "1"),
    ("Agent/TFRCSink", "numPkts_", "1"),
    ("Agent/TFRCSink", "bytes_", "0"),
    ("Agent/Ping", "packetSize_", "64"),
    ("Agent/TCP", "CoarseTimer_", "0"),
    ("Agent/TCP", "EnblRTTCtr_", "0"),
    ("Agent/TCP", "LimTransmitFix_", "false"),
    ("Agent/TCP", "QOption_", "0"),
    ("Agent/TCP", "SetCWRonRetransmit_", "true"),
    ("Agent/TCP", "T_RTTVAR_BITS", "2"),
    ("Agent/TCP", "T_SRTT_BITS", "3"),
    ("Agent/TCP", "ack_", "0"),
    ("Agent/TCP", "aggressive_maxburst_", "1"),
    ("Agent/TCP", "awnd_", "0"),
    ("Agent/TCP", "backoff_", "0"),
    ("Agent/TCP", "bugFix_", "true"),
    ("Agent/TCP", "bugFix_ack_", "false"),
    ("Agent/TCP", "bugFix_ts_", "false"),
    ("Agent/TCP", "bugfix_ss_", "1"),
    ("Agent/TCP", "control_increase_", "0"),
    ("Agent/TCP", "cwnd_", "0"),
    ("Agent/TCP", "cwnd_range_", "0"),
    ("Agent/TCP", "decrease_num_", "0.5"),
    ("Agent/TCP", "delay_growth_", "true"),
    ("Agent/TCP", "dupacks_", "0"),
    ("Agent/TCP", "ecn_", "0"),
    ("Agent/TCP", "eln_", "0"),
    ("Agent/TCP", "eln_rxmit_thresh_", "1"),
    ("Agent/TCP", "exitFastRetrans_", "true"),
    ("Agent/TCP", "first_time_", "0"),
    ("Agent/TCP", "frto_enabled_", "0"),
    ("Agent/TCP", "high_decrease_", "0.1"),
    ("Agent/TCP", "high_p_", "0.0000001"),
    ("Agent/TCP", "high_window_", "83000"),
    ("Agent/TCP", "increase_num_", "1.0"),
    ("Agent/TCP", "k_parameter_", "0.0"),
    ("Agent/TCP", "l_parameter_", "1.0"),
    ("Agent/TCP", "last_time_", "0.0"),
    ("Agent/TCP", "lessCareful_", "false"),
    ("Agent/TCP", "low_window_", "38"),
    ("Agent/TCP", "mark_", "0.0"),
    ("Agent/TCP", "max_connects_", "-1"),
    ("Agent/TCP", "max_ssthresh_", "0"),
    ("Agent/TCP", "maxburst_", "0"),
    ("Agent/TCP", "maxcwnd_", "0"),
    ("Agent/TCP", "maxrto_", "60"),
    ("Agent/TCP", "maxseq_", "0"),
    ("Agent/TCP", "minrto_", "0.2"),
    ("Agent/TCP", "nackpack_", "0"),
    ("Agent/TCP", "nam_tracevar_", "false"),
    ("Agent/TCP", "ncwndcuts1_", "0"),
    ("Agent/TCP", "ncwndcuts_", "0"),
    ("Agent/TCP", "ndatabytes_", "0"),
    ("Agent/TCP", "ndatapack_", "0"),
    ("Agent/TCP", "necnresponses_", "0"),
    ("Agent/TCP", "newecn_", "false"),
    ("Agent/TCP", "newecn_alpha_slp_", "0.9"),
    ("Agent/TCP", "newecn_alpha_wnd_", "0.9"),
    ("Agent/TCP", "newecn_beta_", "16"),
    ("Agent/TCP", "ecnmod_", "false"),
    ("Agent/TCP", "ecnmod_c1_", "0.0625"),
    ("Agent/TCP", "ecnmod_c2_", "0.125"),
    ("Agent/TCP", "ecnmod_alpha_", "0"),
    ("Agent/TCP", "ecnmod_beta_", "1"),
    ("Agent/TCP", "noFastRetrans_", "false"),
    ("Agent/TCP", "nrexmit_", "0"),
    ("Agent/TCP", "nrexmitbytes_", "0"),
    ("Agent/TCP", "nrexmitpack_", "0"),
    ("Agent/TCP", "numdupacksFrac_", "-1"),
    ("Agent/TCP", "numdupacks_", "3"),
    ("Agent/TCP", "oldCode_", "false"),
    ("Agent/TCP", "old_ecn_", "0"),
    ("Agent/TCP", "overhead_", "0"),
    ("Agent/TCP", "packetSize_", "1000"),
    ("Agent/TCP", "partial_ack_", "false"),
    ("Agent/TCP", "precisionReduce_", "true"),
    ("Agent/TCP", "print_request_", "false"),
    ("Agent/TCP", "qs_enabled_", "false"),
    ("Agent/TCP", "qs_request_mode_", "1"),
    ("Agent/TCP", "qs_rtt_", "50"),
    ("Agent/TCP", "qs_thresh_", "4"),
    ("Agent/TCP", "rate_request_", "0"),
    ("Agent/TCP", "restart_bugfix_", "true"),
    ("Agent/TCP", "rfc2988_", "true"),
    ("Agent/TCP", "rtt_", "0"),
    ("Agent/TCP", "rttvar_", "0"),
    ("Agent/TCP", "rttvar_exp_", "2"),
    ("Agent/TCP", "rttvar_init_", "12"),
    ("Agent/TCP", "rtxcur_init_", "3.0"),
    ("Agent/TCP", "seqno_", "0"),
    ("Agent/TCP", "sfrto_enabled_", "0"),
    ("Agent/TCP", "singledup_", "1"),
    ("Agent/TCP", "slope_window_", "1.0"),
    ("Agent/TCP", "slow_start_restart_", "true"),
    ("Agent/TCP", "spurious_response_", "1"),
    ("Agent/TCP", "srtt_", "0"),
    ("Agent/TCP", "srtt_init_", "0"),
    ("Agent/TCP", "ssthresh_", "0"),
    ("Agent/TCP", "syn_", "true"),
    ("Agent/TCP", "t_seqno_", "0"),
    ("Agent/TCP", "tcpTick_", "0.01"),
    ("Agent/TCP", "tcp_qs_recovery_", "true"),
    ("Agent/TCP", "tcpip_base_hdr_size_", "40"),
    ("Agent/TCP", "timerfix_", "true"),
    ("Agent/TCP", "timestamps_", "false"),
    ("Agent/TCP", "trace_all_oneline_", "false"),
    ("Agent/TCP", "ts_option_size_", "10"),
    ("Agent/TCP", "ts_resetRTO_", "false"),
    ("Agent/TCP", "updated_rttvar_", "true"),
    ("Agent/TCP", "useHeaders_", "true"),
    ("Agent/TCP", "windowConstant_", "4"),
    ("Agent/TCP", "windowInitOption_", "1"),
    ("Agent/TCP", "windowInit_", "2"),
    ("Agent/TCP", "windowOption_", "1"),
    ("Agent/TCP", "windowThresh_", "0.002"),
    ("Agent/TCP", "window_", "20"),
    ("Agent/TCP/Newreno", "exit_recovery_fix_", "0"),
    ("Agent/TCP/Newreno", "newreno_changes1_", "1"),
    ("Agent/TCP/Newreno", "newreno_changes_", "0"),
    ("Agent/TCP/Newreno", "partial_window_deflation_", "1"),
    ("Agent/TCP/RFC793edu", "add793additiveinc_", "false"),
    ("Agent/TCP/RFC793edu", "add793expbackoff_", "true"),
    ("Agent/TCP/RFC793edu", "add793exponinc_", "false"),
    ("Agent/TCP/RFC793edu", "add793fastrtx_", "false"),
    ("Agent/TCP/RFC793edu", "add793jacobsonrtt_", "false"),
    ("Agent/TCP/RFC793edu", "add793karnrtt_", "true"),
    ("Agent/TCP/RFC793edu", "add793slowstart_", "false"),
    ("Agent/TCP/RFC793edu", "rto_", "60"),
    ("Agent/TCP/RFC793edu", "syn_", "true"),
    ("Agent/TCP/FullTcp", "close_on_empty_", "false"),
    ("Agent/TCP/FullTcp", "data_on_syn_", "false"),
    ("Agent/TCP/FullTcp", "debug_", "false"),
    ("Agent/TCP/FullTcp", "dupack_reset_", "false"),
    ("Agent/TCP/FullTcp", "dupseg_fix_", "true"),
    ("Agent/TCP/FullTcp", "ecn_syn_", "false"),
    ("Agent/TCP/FullTcp", "ecn_syn_wait_", "0"),
    ("Agent/TCP/FullTcp", "halfclose_", "false"),
    ("Agent/TCP/FullTcp", "interval_", "0.1"),
    ("Agent/TCP/FullTcp", "iss_", "0"),
    ("Agent/TCP/FullTcp", "nodelay_", "false"),
    ("Agent/TCP/FullTcp", "nopredict_", "false"),
    ("Agent/TCP/FullTcp", "open_cwnd_on_pack_", "true"),
    ("Agent/TCP/FullTcp", "pipectrl_", "false"),
    ("Agent/TCP/FullTcp", "reno_fastrecov_", "true"),
    ("Agent/TCP/FullTcp", "segsize_", "536"),
    ("Agent/TCP/FullTcp", "segsperack_", "1"),
    ("Agent/TCP/FullTcp", "signal_on_empty_", "false"),
    ("Agent/TCP/FullTcp", "spa_thresh_", "0"),
    ("Agent/TCP/FullTcp", "tcprexmtthresh_", "3"),
    ("Agent/TCP/FullTcp", "ts_option_size_", "10"),
    ("Agent/TCP/FullTcp/Newreno", "recov_maxburst_", "2"),
    ("Agent/TCP/FullTcp/Sack", "clear_on_timeout_", "true"),
    ("Agent/TCP/FullTcp/Sack", "max_sack_blocks_", "3"),
    ("Agent/TCP/FullTcp/Sack", "sack_block_size_", "8"),
    ("Agent/TCP/FullTcp/Sack", "sack_option_size_", "2"),
    ("Agent/TCP/FullTcp/Sack", "sack_rtx_bthresh_", "1"),
    ("Agent/TCP/FullTcp/Sack", "sack_rtx_cthresh_", "1"),
    ("Agent/TCP/FullTcp/Sack", "sack_rtx_threshmode_", "1"),
    ("Agent/TCP/Vegas", "v_alpha_", "1"),
    ("Agent/TCP/Vegas", "v_beta_", "3"),
    ("Agent/TCP/Vegas", "v_gamma_", "1"),
    ("Agent/TCP/Vegas", "v_rtt_", "0"),
    ("Agent/TCPSink", "RFC2581_immediate_ack_", "true"),
    ("Agent/TCPSink", "SYN_immediate_ack_", "true"),
    ("Agent/TCPSink", "bytes_", "0"),
    ("Agent/TCPSink", "dport_", "0"),
    ("Agent/TCPSink", "ecn_syn_", "false"),
    ("Agent/TCPSink", "generateDSacks_", "false"),
    ("Agent/TCPSink", "maxSackBlocks_", "3"),
    ("Agent/TCPSink", "packetSize_", "40"),
    ("Agent/TCPSink", "qs_enabled_", "false"),
    ("Agent/TCPSink", "sport_", "0"),
    ("Agent/TCPSink", "ts_echo_bugfix_", "true"),
    ("Agent/TCPSink", "ts_echo_rfc1323_", "false"),
    ("Agent/TCPSink", "windowOptionS_", "1"),
    ("Agent/TCPSink", "ecnmod_", "false"),
    ("Agent/TCPSink/DelAck", "interval_", "100ms"),
    ("Agent/TCPSink/Sack1/DelAck", "interval_", "100ms"),
    ("Agent/UDP", "packetSize_", "1000"),
    ("Application/Telnet", "interval_", "1.0"),
    ("Application/Traffic/CBR", "maxpkts_", "268435456"),
    ("Application/Traffic/CBR", "packetSize_", "210"),
    ("Application/Traffic/CBR", "random_", "0"),
    ("Application/Traffic/CBR", "rate_", "448Kb"),
    ("Application/Traffic/Exponential", "burst_time_", ".5"),
    ("Application/Traffic/Exponential", "idle_time_", ".5"),
    ("Application/Traffic/Exponential", "packetSize_", "210"),
    ("Application/Traffic/Exponential", "rate_", "64Kb"),
    ("Application/Traffic/Pareto", "burst_time_", "500ms"),
    ("Application/Traffic/Pareto", "idle_time_", "500ms"),
    ("Application/Traffic/Pareto", "packetSize_", "210"),
    ("Application/Traffic/Pareto", "rate_", "64Kb"),
    ("Application/Traffic/Pareto", "shape_", "1.5"),
    ("Application/Traffic/VoIPCalls", "burst_time_", "1.008"),
    ("Application/Traffic/VoIPCalls", "calls_", "0"),
    ("Application/Traffic/VoIPCalls", "calls_blocked_", "0"),
    ("Application/Traffic/VoIPCalls", "calls_ended_", "0"),
    ("Application/Traffic/VoIPCalls", "calls_started_", "0"),
    ("Application/Traffic/VoIPCalls", "holding_", "100"),
    ("Application/Traffic/VoIPCalls", "idle_time_", "1.587"),
    ("Application/Traffic/VoIPCalls", "interval_", "0.01"),
    ("Application/Traffic/VoIPCalls", "lambda_", "2"),
    ("Application/Traffic/VoIPCalls", "max_calls_", "100000"),
    ("Application/Traffic/VoIPCalls", "mean_calls_", "0"),
    ("Application/Traffic/VoIPCalls", "mu_", "0.01"),
    ("Application/Traffic/VoIPCalls", "packetSize_", "120"),
    ("Application/Traffic/VoIPCalls", "pkts_sent_", "0"),
    ("Application/Traffic/VoIPCalls", "stationary_start_", "true"),
    ("Classifier", "debug_", "false"),
    ("Classifier", "mask_", "0xffffffff"),
    ("Classifier", "offset_", "0"),
    ("Classifier", "shift_", "0"),
    ("Classifier/Hash", "default_", "-1"),
    ("Connector", "debug_", "false"),
    ("DelayLink", "avoidReordering_", "false"),
    ("DelayLink", "bandwidth_", "1.5Mb"),
    ("DelayLink", "debug_", "false"),
    ("DelayLink", "delay_", "100ms"),
    ("Delayer", "debug_", "false"),
    ("DynamicLink", "debug_", "false"),
    ("DynamicLink", "status_", "1"),
    ("ErrorModel", "bandwidth_", "2Mb"),
    ("ErrorModel", "debug_", "false"),
    ("ErrorModel", "delay_", "0"),
    ("ErrorModel", "delay_pkt_", "false"),
    ("ErrorModel", "enable_", "1"),
    ("ErrorModel", "markecn_", "false"),
    ("ErrorModel", "rate_", "0"),
    ("ErrorModel/Periodic", "burstlen_", "0.0"),
    ("ErrorModel/Periodic", "default_drop_", "0"),
    ("ErrorModel/Periodic", "offset_", "0.0"),
    ("ErrorModel/Periodic", "period_", "1.0"),
    ("ErrorModule", "debug_", "false"),
    ("Integrator", "lastx_", "0.0"),
    ("Integrator", "lasty_", "0.0"),
    ("Integrator", "sum_", "0.0"),
    ("Link", "nl_", "0"),
    ("Node", "multiPath_", "0"),
    ("Node", "nn_", "0"),
    ("Queue", "ackfromfront_", "false"),
    ("Queue", "acksfirst_", "false"),
    ("Queue", "blocked_", "false"),
    ("Queue", "debug_", "false"),
    ("Queue", "interleave_", "false"),
    ("Queue", "limit_", "50"),
    ("Queue", "unblock_on_resume_", "true"),
    ("Queue", "util_check_intv_", "0.2"),
    ("Queue", "util_records_", "5"),
    ("Queue", "util_weight_", "0.8"),
    ("Queue/CoDel", "ce_threshold_", "-1"),
    ("Queue/CoDel", "curq_", "0"),
    ("Queue/CoDel", "d_exp_", "0.0"),
    ("Queue/CoDel", "interval_", "0.1"),
    ("Queue/CoDel", "mean_pktsize_", "500"),
    ("Queue/CoDel", "minbytes_", "1500"),
    ("Queue/CoDel", "queue_in_bytes_", "false"),
    ("Queue/CoDel", "setbit_", "false"),
    ("Queue/CoDel", "target_", ".005"),
    ("Queue/FQ_CoDel", "ce_threshold_", "-1"),
    ("Queue/FQ_CoDel", "curq_", "0"),
    ("Queue/FQ_CoDel", "drop_batch_size_", "64"),
    ("Queue/FQ_CoDel", "flows_", "1024"),
    ("Queue/FQ_CoDel", "interval_", "0.1"),
    ("Queue/FQ_CoDel", "perturbation_", "0"),
    ("Queue/FQ_CoDel", "quantum_", "1500"),
    ("Queue/FQ_CoDel", "set_associative_hash_", "false"),
    ("Queue/FQ_CoDel", "set_ways_", "8"),
    ("Queue/FQ_CoDel", "setbit_", "true"),
    ("Queue/FQ_CoDel", "target_", ".005"),
    ("Queue/SCFQ", "mean_pktsize_", "500"),
    ("Queue/SCFQ", "queue_in_bytes_", "false"),
    ("Queue/SCFQ", "summarystats_", "false"),
    ("Queue/PIE", "a_", "0.125"),
    ("Queue/PIE", "active_threshold_", "-1"),
    ("Queue/PIE", "b_", "1.25"),
    ("Queue/PIE", "burst_allowance_", "0.15"),
    ("Queue/PIE", "cap_drop_adjustment_", "true"),
    ("Queue/PIE", "curq_", "0"),
    ("Queue/PIE", "derandomize_", "false"),
    ("Queue/PIE", "dq_threshold_", "16384"),
    ("Queue/PIE", "mark_p_", "0.1"),
    ("Queue/PIE", "mean_pktsize_", "1000"),
    ("Queue/PIE", "prob_", "0"),
    ("Queue/PIE", "qdelay_", "0"),
    ("Queue/PIE", "qdelay_ref_", "0.015"),
    ("Queue/PIE", "queue_in_bytes_", "false"),
    ("Queue/PIE", "sUpdate_", "0"),
    ("Queue/PIE", "setbit_", "false"),
    ("Queue/PIE", "tUpdate_", "0.015"),
    ("Queue/PIE", "use_dq_rate_estimator_", "false"),
    ("Queue/DropTail", "drop_front_", "false"),
    ("Queue/DropTail", "mean_pktsize_", "500"),
    ("Queue/DropTail", "queue_in_bytes_", "false"),
    ("Queue/DropTail", "summarystats_", "false"),
    ("Queue/RED", "adaptive_", "0"),
    ("Queue/RED", "aecn_", "false"),
    ("Queue/RED", "aecn_a_", "2"),
    ("Queue/RED", "aecn_b_", "2"),
    ("Queue/RED", "geometric_", "false"),
    ("Queue/RED", "pmod_", "false"),
    ("Queue/RED", "pmod_c1_", "0.0625"),
    ("Queue/RED", "pmod_c2_", "0.125"),
    ("Queue/RED", "aecn_fragile_min_", "150"),
    ("Queue/RED", "aecn_robust_max_", "75"),
    ("Queue/RED", "aecn_robust_min_", "0.5"),
    ("Queue/RED", "alpha_", "0.01"),
    ("Queue/RED", "ave_", "0.0"),
    ("Queue/RED", "beta_", "0.9"),
    ("Queue/RED", "bottom_", "0"),
    ("Queue/RED", "bytes_", "true"),
    ("Queue/RED", "cautious_", "0"),
    ("Queue/RED", "cur_max_p_", "0"),
    ("Queue/RED", "curq_", "0"),
    ("Queue/RED", "doubleq_", "false"),
    ("Queue/RED", "dqthresh_", "50"),
    ("Queue/RED", "drop_front_", "false"),
    ("Queue/RED", "drop_rand_", "false"),
    ("Queue/RED", "drop_tail_", "true"),
    ("Queue/RED", "ecnm_", "false"),
    ("Queue/RED", "feng_adaptive_", "0"),
    ("Queue/RED", "gentle_", "true"),
    ("Queue/RED", "idle_pktsize_", "100"),
    ("Queue/RED", "interval_", "0.5"),
    ("Queue/RED", "linterm_", "10"),
    ("Queue/RED", "mark_front_", "false"),
    ("Queue/RED", "mark_p_", "0.1"),
    ("Queue/RED", "maxthresh_", "0"),
    ("Queue/RED", "maxthresh_queue_", "[Queue set limit_]"),
    ("Queue/RED", "mean_pktsize_", "500"),
    ("Queue/RED", "ns1_compat_", "false"),
    ("Queue/RED", "prob1_", "0.0"),
    ("Queue/RED", "q_weight_", "-1"),
    ("Queue/RED", "queue_in_bytes_", "true"),
    ("Queue/RED", "setbit_", "false"),
    ("Queue/RED", "summarystats_", "false"),
    ("Queue/RED", "targetdelay_", "0.005"),
    ("Queue/RED", "thresh_", "0"),
    ("Queue/RED", "thresh_queue_", "[Queue set limit_]"),
    ("Queue/RED", "top_", "0.5"),
    ("Queue/RED", "use_mark_p_", "true"),
    ("Queue/RED", "wait_", "true"),
    ("QueueMonitor", "SeqnoBinSize_", "10"),
    ("QueueMonitor", "barrivals_", "0"),
    ("QueueMonitor", "bdepartures_", "0"),
    ("QueueMonitor", "bdrops_", "0"),
    ("QueueMonitor", "binsPerSec_", "100"),
    ("QueueMonitor", "estRate_", "0"),
    ("QueueMonitor", "estimate_rate_", "0"),
    ("QueueMonitor", "first_pkt_", "0"),
    ("QueueMonitor", "k_", "0.1"),
    ("QueueMonitor", "keepRTTstats_", "0"),
    ("QueueMonitor", "keepSeqnoStats_", "0"),
    ("QueueMonitor", "last_pkt_", "0"),
    ("QueueMonitor", "maxRTT_", "5"),
    ("QueueMonitor", "maxSeqno_", "1000"),
    ("QueueMonitor", "parrivals_", "0"),
    ("QueueMonitor", "pdepartures_", "0"),
    ("QueueMonitor", "pdrops_", "0"),
    ("QueueMonitor", "pkts_", "0"),
    ("QueueMonitor", "pmarks_", "0"),
    ("QueueMonitor", "prevTime_", "0"),
    ("QueueMonitor", "qs_bytes_", "0"),
    ("QueueMonitor", "qs_drops_", "0"),
    ("QueueMonitor", "qs_pkts_", "0"),
    ("QueueMonitor", "size_", "0"),
    ("QueueMonitor", "startTime_", "0"),
    ("QueueMonitor/ED", "ebdrops_", "0"),
    ("QueueMonitor/ED", "epdrops_", "0"),
    ("QueueMonitor/ED", "mon_ebdrops_", "0"),
    ("QueueMonitor/ED", "mon_epdrops_", "0"),
    ("QueueMonitor/ED/Flow", "dst_", "-1"),
    ("QueueMonitor/ED/Flow", "flowid_", "-1"),
    ("QueueMonitor/ED/Flow", "src_", "-1"),
    ("QueueMonitor/ED/Flowmon", "enable_drop_", "true"),
    ("QueueMonitor/ED/Flowmon", "enable_edrop_", "true"),
    ("QueueMonitor/ED/Flowmon", "enable_in_", "true"),
    ("QueueMonitor/ED/Flowmon", "enable_out_", "true"),
    ("RandomVariable/Constant", "val_", "1.0"),
    ("RandomVariable/Empirical", "interpolation_", "0"),
    ("RandomVariable/Empirical", "maxCDF_", "1"),
    ("RandomVariable/Empirical", "maxEntry_", "32"),
    ("RandomVariable/Empirical", "minCDF_", "0"),
    ("RandomVariable/Erlang", "k_", "1.0"),
    ("RandomVariable/Erlang", "lambda_", "1.0"),
    ("RandomVariable/Exponential", "avg_", "1.0"),
    ("RandomVariable/Gamma", "alpha_", "1.0"),
    ("RandomVariable/Gamma", "beta_", "1.0"),
    ("RandomVariable/HyperExponential", "avg_", "1.0"),
    ("RandomVariable/HyperExponential", "cov_", "4.0"),
    ("RandomVariable/LogNormal", "avg_", "1.0"),
    ("RandomVariable/LogNormal", "std_", "1.0"),
    ("RandomVariable/Normal", "avg_", "0.0"),
    ("RandomVariable/Normal", "std_", "1.0"),
    ("RandomVariable/Pareto", "avg_", "1.0"),
    ("RandomVariable/Pareto", "shape_", "1.5"),
    ("RandomVariable/ParetoII", "avg_", "10.0"),
    ("RandomVariable/ParetoII", "shape_", "1.2"),
    ("RandomVariable/Uniform", "max_", "1.0"),
    ("RandomVariable/Uniform", "min_", "0.0"),
    ("RandomVariable/Weibull", "scale_", "1.0"),
    ("RandomVariable/Weibull", "shape_", "1.0"),
    ("Simulator", "TaggedTrace_", "OFF"),
    ("Simulator", "nix-routing", "0"),
    ("Simulator", "node_factory_", "Node"),
    ("Simulator", "nsv1flag", "0"),
    ("Simulator", "useasim_", "0"),
    ("SnoopQueue/Drop", "debug_", "false"),
    ("SnoopQueue/EDrop", "debug_", "false"),
    ("SnoopQueue/In", "debug_", "false"),
    ("SnoopQueue/Out", "debug_", "false"),
    ("TTLChecker", "debug_", "false"),
    ("Trace", "callback_", "0"),
    ("Trace", "debug_", "false"),
    ("Trace", "dst_", "-1"),
    ("Trace", "show_sctphdr_", "0"),
    ("Trace", "show_tcphdr_", "0"),
    ("Trace", "src_", "-1"),
];

fn sorted(v: &[(&'static str, VarType)]) -> Vec<(&'static str, VarType)> {
    let mut v = v.to_vec();
    v.sort_by_key(|(n, _)| *n);
    v
}

#[test]
fn bound_variables_as_before() {
    for (kind, before) in BOUND_BEFORE {
        let now = objects::bound_vars(kind)
            .unwrap_or_else(|| panic!("{kind} is no longer an engine class"));
        assert_eq!(sorted(&now), sorted(before), "bound variables of {kind}");
        for (name, ty) in before.iter() {
            assert_eq!(objects::var_type(kind, name), Some(*ty), "{kind} {name}");
        }
    }
}

#[test]
fn kinds_as_before() {
    let kinds: BTreeSet<&str> = objects::kinds().into_iter().collect();
    for (kind, _) in BOUND_BEFORE {
        assert!(kinds.contains(kind), "{kind} missing from kinds()");
    }
    assert_eq!(
        kinds.len(),
        objects::kinds().len(),
        "kinds() lists a class twice"
    );
}

#[test]
fn registry_classes_as_before() {
    for (kind, before) in BOUND_BEFORE {
        let (_, c) = registry::find(kind).unwrap_or_else(|| panic!("{kind} is not in the registry"));
        assert_eq!(sorted(&c.bound()), sorted(before), "bound variables of {kind}");
    }
    for c in CLASSES {
        assert!(BOUND_BEFORE.iter().any(|(k, _)| *k == c.name), "{} is new: add its expectation", c.name);
        assert_eq!(CLASSES.iter().filter(|d| d.name == c.name).count(), 1, "{} twice", c.name);
    }
}

/// Bound variables without a class default, deliberately: ns-default.tcl
/// (and so the library) sets none that reaches them.
const WITHOUT_DEFAULT: &[(&str, &str)] = &[("BaseTrace/Event", "debug_")];

#[test]
fn bound_variables_have_defaults() {
    for c in CLASSES {
        for (var, _) in c.bound() {
            // a default set on the class or on one of its ancestors (the
            // library's classes are the "/" paths), by one of its tables
            let mut found = Vec::new();
            for t in c.tables {
                let on_path = c.name == t.class() || c.name.starts_with(&format!("{}/", t.class()));
                t.each(&mut |name, _, default, _| {
                    if name == var && default != ClassDefault::None {
                        found.push((t.class(), on_path));
                    }
                });
            }
            assert!(found.iter().all(|(_, on)| *on), "{} {var}: a default on a class it is not below: {found:?}", c.name);
            let deliberate = WITHOUT_DEFAULT.contains(&(c.name, var));
            assert_eq!(found.is_empty(), deliberate, "{} {var}: defaults {found:?}", c.name);
        }
    }
}

/// The TCP senders and sinks get their class defaults in the order ns-2's
/// binding listed their variables before (a setter may depend on another:
/// `windowOption_` on `newecn_`), so their order is kept exactly.
#[test]
fn tcp_bound_order_as_before() {
    for (kind, before) in BOUND_BEFORE.iter().filter(|(k, _)| k.starts_with("Agent/TCP")) {
        assert_eq!(&objects::bound_vars(kind).unwrap(), before, "{kind}");
    }
}

/// The class defaults a defaults file sets: `::dumbbell::class_vars CLASS
/// {var value ...}` blocks and `CLASS set var value` lines.
fn parse_defaults(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if let Some(rest) = l.strip_prefix("::dumbbell::class_vars ") {
            let cls = rest.split_whitespace().next().unwrap().to_string();
            assert!(rest.trim_end().ends_with('{'), "{l}");
            let mut toks = Vec::new();
            for m in lines.by_ref() {
                let m = m.trim();
                if m == "}" {
                    break;
                }
                toks.extend(m.split_whitespace().map(str::to_string));
            }
            assert!(toks.len() % 2 == 0, "{cls}: odd list");
            for p in toks.chunks(2) {
                out.push((cls.clone(), p[0].clone(), p[1].clone()));
            }
        } else {
            let w: Vec<&str> = l.splitn(4, ' ').collect();
            assert!(w.len() == 4 && w[1] == "set", "not a class default: {l}");
            out.push((w[0].to_string(), w[2].to_string(), w[3].to_string()));
        }
    }
    out
}

#[test]
fn class_defaults_as_before() {
    let lib = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../python/dumbbell/ns2/lib/defaults.tcl"
    );
    let file = std::fs::read_to_string(lib).unwrap();
    let mut all = parse_defaults(&dumbbell_engine::ns2::registry::defaults_tcl());
    all.extend(parse_defaults(&file));
    let set: BTreeSet<(String, String, String)> = all.iter().cloned().collect();
    assert_eq!(set.len(), all.len(), "a class default is set twice");
    let before: BTreeSet<(String, String, String)> = DEFAULTS_BEFORE
        .iter()
        .map(|(c, v, x)| (c.to_string(), v.to_string(), x.to_string()))
        .collect();
    let missing: Vec<_> = before.difference(&set).collect();
    let extra: Vec<_> = set.difference(&before).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}\nextra {extra:?}"
    );
}
