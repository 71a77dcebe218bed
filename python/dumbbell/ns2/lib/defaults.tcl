# Class-level defaults of the engine classes Dumbbell implements.
#
# The values are ns-2 2.35's defaults (tcl/lib/ns-default.tcl), so that a
# script gets the same behaviour whether or not it sets them.  Only classes
# and variables Dumbbell models are listed; a script that sets any other
# class variable simply gets an ordinary OTcl class variable.
#
# `::dumbbell::class_vars Cls {var value ...}` is `Cls set var value` for
# each pair, in order, in one command (a class-level `set` through OTcl's
# dispatch, once per variable, made this file a sixth of the library's
# load time).

# ---- generic objects ---------------------------------------------------------
Connector set debug_ false
TTLChecker set debug_ false
::dumbbell::class_vars Trace {
    src_ -1
    dst_ -1
    callback_ 0
    show_tcphdr_ 0
    show_sctphdr_ 0
    debug_ false
}
::dumbbell::class_vars Integrator {
    lastx_ 0.0
    lasty_ 0.0
    sum_ 0.0
}

# ---- links ---------------------------------------------------------------------
# (The queues' defaults come from the engine's class registry.)
::dumbbell::class_vars DelayLink {
    bandwidth_ 1.5Mb
    delay_ 100ms
    debug_ false
    avoidReordering_ false
}
::dumbbell::class_vars DynamicLink {
    status_ 1
    debug_ false
}

Delayer set debug_ false
SnoopQueue/In set debug_ false
SnoopQueue/Out set debug_ false
SnoopQueue/Drop set debug_ false

::dumbbell::class_vars QueueMonitor {
    size_ 0
    pkts_ 0
    parrivals_ 0
    barrivals_ 0
    pdepartures_ 0
    bdepartures_ 0
    pdrops_ 0
    pmarks_ 0
    bdrops_ 0
    qs_pkts_ 0
    qs_bytes_ 0
    qs_drops_ 0
    first_pkt_ 0
    last_pkt_ 0
    keepRTTstats_ 0
    maxRTT_ 5
    binsPerSec_ 100
    keepSeqnoStats_ 0
    maxSeqno_ 1000
    SeqnoBinSize_ 10
    k_ 0.1
    prevTime_ 0
    startTime_ 0
    estRate_ 0
    estimate_rate_ 0
}

# ---- agents --------------------------------------------------------------------
::dumbbell::class_vars Agent {
    fid_ 0
    prio_ 0
    agent_addr_ -1
    agent_port_ -1
    dst_addr_ -1
    dst_port_ -1
    flags_ 0
    ttl_ 32
    debug_ false
    class_ 0
}
::dumbbell::class_vars Agent/Null {
    sport_ 0
    dport_ 0
}

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
::dumbbell::class_vars Node {
    nn_ 0
    multiPath_ 0
}
Link set nl_ 0
::dumbbell::class_vars Simulator {
    node_factory_ Node
    nsv1flag 0
    useasim_ 0
    TaggedTrace_ OFF
    nix-routing 0
}

# ---- error models and hash classifiers ---------------------------------------------
ErrorModule set debug_ false
::dumbbell::class_vars ErrorModel {
    enable_ 1
    markecn_ false
    delay_pkt_ false
    delay_ 0
    rate_ 0
    bandwidth_ 2Mb
    debug_ false
}
::dumbbell::class_vars ErrorModel/Periodic {
    period_ 1.0
    offset_ 0.0
    burstlen_ 0.0
    default_drop_ 0
}
::dumbbell::class_vars Classifier {
    offset_ 0
    shift_ 0
    mask_ 0xffffffff
    debug_ false
}
Classifier/Hash set default_ -1

# ---- datagram traffic -----------------------------------------------------------------
Agent/UDP set packetSize_ 1000
Agent/Ping set packetSize_ 64
::dumbbell::class_vars Agent/LossMonitor {
    nlost_ 0
    npkts_ 0
    bytes_ 0
    lastPktTime_ 0
    expected_ 0
}
::dumbbell::class_vars Application/Traffic/CBR {
    rate_ 448Kb
    packetSize_ 210
    random_ 0
    maxpkts_ 268435456
}
Application/Telnet set interval_ 1.0
::dumbbell::class_vars Application/Traffic/Exponential {
    burst_time_ .5
    idle_time_ .5
    rate_ 64Kb
    packetSize_ 210
}
::dumbbell::class_vars Application/Traffic/Pareto {
    burst_time_ 500ms
    idle_time_ 500ms
    rate_ 64Kb
    packetSize_ 210
    shape_ 1.5
}

# ---- flow monitors ------------------------------------------------------------------------
::dumbbell::class_vars QueueMonitor/ED {
    epdrops_ 0
    ebdrops_ 0
    mon_epdrops_ 0
    mon_ebdrops_ 0
}
::dumbbell::class_vars QueueMonitor/ED/Flowmon {
    enable_in_ true
    enable_out_ true
    enable_drop_ true
    enable_edrop_ true
}
::dumbbell::class_vars QueueMonitor/ED/Flow {
    src_ -1
    dst_ -1
    flowid_ -1
}
SnoopQueue/EDrop set debug_ false

# ---- random variables -----------------------------------------------------------------
::dumbbell::class_vars RandomVariable/Uniform {
    min_ 0.0
    max_ 1.0
}
RandomVariable/Exponential set avg_ 1.0
::dumbbell::class_vars RandomVariable/Erlang {
    lambda_ 1.0
    k_ 1.0
}
::dumbbell::class_vars RandomVariable/Gamma {
    alpha_ 1.0
    beta_ 1.0
}
::dumbbell::class_vars RandomVariable/Pareto {
    avg_ 1.0
    shape_ 1.5
}
::dumbbell::class_vars RandomVariable/ParetoII {
    avg_ 10.0
    shape_ 1.2
}
RandomVariable/Constant set val_ 1.0
::dumbbell::class_vars RandomVariable/HyperExponential {
    avg_ 1.0
    cov_ 4.0
}
::dumbbell::class_vars RandomVariable/Empirical {
    minCDF_ 0
    maxCDF_ 1
    interpolation_ 0
    maxEntry_ 32
}
::dumbbell::class_vars RandomVariable/Normal {
    avg_ 0.0
    std_ 1.0
}
::dumbbell::class_vars RandomVariable/LogNormal {
    avg_ 1.0
    std_ 1.0
}
::dumbbell::class_vars RandomVariable/Weibull {
    scale_ 1.0
    shape_ 1.0
}
