# Class-level defaults that the engine's class registry does not give.
#
# The engine's classes declare their bound variables with their ns-2 2.35
# defaults (tcl/lib/ns-default.tcl) in its class registry
# (crates/engine/src/ns2/class/), and the library evaluates those defaults,
# `Engine.class_defaults_tcl()`, just before this file.  Left here: the TCP
# senders' and sinks' (not in the registry yet), and the class variables of
# OTcl-only classes (`Link`, `Simulator`).  A script that sets any other
# class variable simply gets an ordinary OTcl class variable.
#
# `::dumbbell::class_vars Cls {var value ...}` is `Cls set var value` for
# each pair, in order, in one command (a class-level `set` through OTcl's
# dispatch, once per variable, made this file a sixth of the library's
# load time).

# ---- TCP senders and sinks -------------------------------------------------------
::dumbbell::class_vars Agent/TCP {
    seqno_ 0
    t_seqno_ 0
    maxburst_ 0
    aggressive_maxburst_ 1
    maxcwnd_ 0
    numdupacks_ 3
    numdupacksFrac_ -1
    exitFastRetrans_ true
    window_ 20
    windowInit_ 2
    windowInitOption_ 1
    syn_ true
    max_connects_ -1
    windowOption_ 1
}
# New-ECN (seed 000, Appendix B): on with windowOption_ 8 and newecn_ true,
# or for a whole script by a sink's windowOptionS_ 8.
::dumbbell::class_vars Agent/TCP {
    newecn_ false
    newecn_alpha_wnd_ 0.9
    newecn_alpha_slp_ 0.9
    newecn_beta_ 16
    slope_window_ 1.0
    mark_ 0.0
    last_time_ 0.0
    first_time_ 0
    windowConstant_ 4
    windowThresh_ 0.002
    decrease_num_ 0.5
    increase_num_ 1.0
    k_parameter_ 0.0
    l_parameter_ 1.0
    overhead_ 0
    ecn_ 0
    old_ecn_ 0
    bugfix_ss_ 1
    packetSize_ 1000
    tcpip_base_hdr_size_ 40
    ts_option_size_ 10
    bugFix_ true
    bugFix_ack_ false
    bugFix_ts_ false
    lessCareful_ false
    timestamps_ false
    ts_resetRTO_ false
    slow_start_restart_ true
    restart_bugfix_ true
    tcpTick_ 0.01
    maxrto_ 60
    minrto_ 0.2
    srtt_init_ 0
    rttvar_init_ 12
    rtxcur_init_ 3.0
    T_SRTT_BITS 3
    T_RTTVAR_BITS 2
    rttvar_exp_ 2
    updated_rttvar_ true
    timerfix_ true
    rfc2988_ true
    noFastRetrans_ false
    partial_ack_ false
    dupacks_ 0
    ack_ 0
    cwnd_ 0
    awnd_ 0
    ssthresh_ 0
    rtt_ 0
    srtt_ 0
    rttvar_ 0
    backoff_ 0
    maxseq_ 0
    singledup_ 1
    LimTransmitFix_ false
    precisionReduce_ true
    oldCode_ false
    useHeaders_ true
    low_window_ 38
    high_window_ 83000
    high_p_ 0.0000001
    high_decrease_ 0.1
    max_ssthresh_ 0
    cwnd_range_ 0
    rate_request_ 0
    qs_enabled_ false
    tcp_qs_recovery_ true
    qs_request_mode_ 1
    qs_rtt_ 50
    print_request_ false
    qs_thresh_ 4
    ndatapack_ 0
    ndatabytes_ 0
    nackpack_ 0
    nrexmit_ 0
    nrexmitpack_ 0
    nrexmitbytes_ 0
    necnresponses_ 0
    ncwndcuts_ 0
    ncwndcuts1_ 0
    trace_all_oneline_ false
    QOption_ 0
    EnblRTTCtr_ 0
    control_increase_ 0
    SetCWRonRetransmit_ true
    nam_tracevar_ false
    eln_ 0
    eln_rxmit_thresh_ 1
    delay_growth_ true
    CoarseTimer_ 0
    frto_enabled_ 0
    sfrto_enabled_ 0
    spurious_response_ 1
}

::dumbbell::class_vars Agent/TCP/Newreno {
    newreno_changes_ 0
    newreno_changes1_ 1
    partial_window_deflation_ 1
    exit_recovery_fix_ 0
}

::dumbbell::class_vars Agent/TCP/RFC793edu {
    add793expbackoff_ true
    add793jacobsonrtt_ false
    add793fastrtx_ false
    add793slowstart_ false
    add793additiveinc_ false
    add793karnrtt_ true
    rto_ 60
    syn_ true
    add793exponinc_ false
}

::dumbbell::class_vars Agent/TCP/Vegas {
    v_alpha_ 1
    v_beta_ 3
    v_gamma_ 1
    v_rtt_ 0
}

::dumbbell::class_vars Agent/TCPSink {
    sport_ 0
    dport_ 0
    packetSize_ 40
    maxSackBlocks_ 3
    windowOptionS_ 1
    ts_echo_bugfix_ true
    ts_echo_rfc1323_ false
    generateDSacks_ false
    qs_enabled_ false
    RFC2581_immediate_ack_ true
    SYN_immediate_ack_ true
    bytes_ 0
    ecn_syn_ false
}
Agent/TCPSink/DelAck set interval_ 100ms
Agent/TCPSink/Sack1/DelAck set interval_ 100ms

# ---- simulator -----------------------------------------------------------------
Link set nl_ 0
::dumbbell::class_vars Simulator {
    node_factory_ Node
    nsv1flag 0
    useasim_ 0
    TaggedTrace_ OFF
    nix-routing 0
}
