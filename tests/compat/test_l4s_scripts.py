"""L4S and DCTCP from ns-2 scripts: `Queue/DualPI2`, `Queue/StepMark`,
and `Agent/TCP/Linux` with `select_ca dctcp` / `select_ca prague` and the
sinks' `dctcp_`.  Real ns-2 2.35 has none of them (its TCP-Linux modules
stop at Linux 2.6.2x, and it has no L4S queue): these are Dumbbell's
extensions, checked here as scripts reach them (variables and defaults,
bad values with file:line, a run)."""

from __future__ import annotations

import pytest

from test_codel import run

DEFAULTS = {
    "Queue/DualPI2": [
        ("target_", "0.014999999999999999"), ("tupdate_", "0.016"), ("alpha_", "0.16"), ("beta_", "3.2000000000000002"),
        ("coupling_factor_", "2"), ("step_thresh_", "0.001"), ("step_min_bytes_", "3000"), ("ramp_range_", "0"),
        ("step_packets_", "0"), ("min_qlen_step_", "-1"),
        ("tshift_", "0.050000000000000003"), ("prob_", "0"), ("l_delay_", "0"), ("c_delay_", "0"), ("l_pkts_", "0"),
        ("c_pkts_", "0"), ("l_marks_", "0"), ("c_marks_", "0"), ("c_drops_", "0"), ("l_drops_", "0"),
        ("drop_on_overload_", "1"), ("queue_in_bytes_", "0"),
        ("mean_pktsize_", "1500"), ("limit_", "50"),
    ],
    "Queue/StepMark": [("thresh_", "20"), ("marks_", "0"), ("queue_in_bytes_", "0"), ("mean_pktsize_", "1500"),
                       ("limit_", "50")],
}


@pytest.mark.parametrize("cls", sorted(DEFAULTS))
def test_variables_and_defaults(tmp_path, cls):
    names = " ".join(n for n, _ in DEFAULTS[cls])
    r = run(tmp_path, f"""set ns [new Simulator]
set q [new {cls}]
foreach v {{{names}}} {{ puts "$v [$q set $v]" }}
""")
    assert r.returncode == 0, r.stderr
    got = [tuple(line.split(" ", 1)) for line in r.stdout.splitlines()]
    assert got == DEFAULTS[cls]


@pytest.mark.parametrize("cls,setup,expect", [
    ("Queue/DualPI2", "$q set tupdate_ 0", "tupdate_ must be a time of 1 ns or more"),
    ("Queue/DualPI2", "$q set coupling_factor_ -2", "coupling_factor_ must be a number above 0"),
    ("Queue/DualPI2", "$q set beta_ -1", "beta_ must be a number of zero or more"),
    ("Queue/DualPI2", "$q set step_packets_ -1", "step_packets_ must be zero or a positive integer"),
    ("Queue/DualPI2", "$q set min_qlen_step_ -2", "min_qlen_step_ must be -1 (off: RFC 9332's T_len"),
    ("Queue/DualPI2", "$q set ramp_range_ 2ms; $q set step_packets_ 5",
     "step_packets_ \"5\" makes the step one in packets, which has no ramp, but ramp_range_ is 0.002s"),
    ("Queue/DualPI2", "$q set step_packets_ 5; $q set ramp_range_ 2ms",
     "ramp_range_ \"2ms\" needs the step on time, but step_packets_ is 5"),
    ("Queue/StepMark", "$q set thresh_ -4", "thresh_ must be zero or a positive integer"),
])
def test_bad_values_are_errors(tmp_path, cls, setup, expect):
    r = run(tmp_path, f"set ns [new Simulator]\nset q [new {cls}]\n{setup}\n")
    assert r.returncode == 1
    assert expect in r.stderr and "s.tcl:3" in r.stderr


SCRIPT = """set ns [new Simulator]
set f [open q.tr w]
$ns trace-all $f
foreach n {s1 s2 r1 r2 d1 d2} { set $n [$ns node] }
$ns duplex-link $s1 $r1 100Mb 1ms DropTail
$ns duplex-link $s2 $r1 100Mb 1ms DropTail
$ns simplex-link $r1 $r2 10Mb 8ms DualPI2
$ns simplex-link $r2 $r1 10Mb 8ms DropTail
$ns queue-limit $r1 $r2 300
$ns queue-limit $r2 $r1 300
$ns duplex-link $r2 $d1 100Mb 1ms DropTail
$ns duplex-link $r2 $d2 100Mb 1ms DropTail
set i 0
foreach {s d ca} [list $s1 $d1 prague $s2 $d2 cubic] {
    set tcp [new Agent/TCP/Linux]
    $tcp set window_ 300
    $tcp set fid_ $i
    set sink [new Agent/TCPSink/Sack1]
    if {$ca == "prague"} { $sink set dctcp_ true }
    $ns attach-agent $s $tcp
    $ns attach-agent $d $sink
    $ns connect $tcp $sink
    $ns at 0 "$tcp select_ca $ca"
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at 0.01 "$ftp start"
    set t($i) $tcp
    incr i
}
set q [[$ns link $r1 $r2] queue]
proc finish {} {
    global t q f
    puts "ecn [$t(0) set ecn_] [$t(1) set ecn_] l [$q set l_pkts_] [$q set l_marks_] [format %.4f [$q set l_delay_]] c [$q set c_pkts_] [$q set c_drops_] [format %.4f [$q set c_delay_]]"
    close $f
    exit 0
}
$ns at 10 "finish"
$ns run
"""


def test_prague_and_cubic_share_dualpi2(tmp_path):
    r = run(tmp_path, SCRIPT)
    assert r.returncode == 0, r.stderr
    w = [x for x in r.stdout.splitlines() if x.startswith("ecn ")][0].split()
    assert w[:3] == ["ecn", "1", "0"], r.stdout      # select_ca prague turned ECN on
    l_pkts, l_marks, l_delay = int(w[4]), int(w[5]), float(w[6])
    c_pkts, c_drops, c_delay = int(w[8]), int(w[9]), float(w[10])
    assert l_pkts > 2000 and c_pkts > 2000 and l_marks > 50 and c_drops > 5, r.stdout
    assert l_delay < 0.002 and 0.008 < c_delay < 0.025, r.stdout
    # Prague's packets carry ECT ('N' in the trace); CUBIC's do not
    lines = [x.split() for x in (tmp_path / "q.tr").read_text().splitlines() if x.startswith("+ ")]
    flags = {(x[7], "N" in x[6]) for x in lines if x[4] == "tcp" and int(x[10]) > 0}
    assert flags == {("0", True), ("1", False)}


def test_unknown_ca_lists_dctcp_and_prague(tmp_path):
    r = run(tmp_path, "set ns [new Simulator]\nset t [new Agent/TCP/Linux]\n$t select_ca bbr\n")
    assert r.returncode == 1 and "dctcp" in r.stderr and "prague" in r.stderr, r.stderr


FALLBACK = """set ns [new Simulator]
foreach n {s1 s2 r1 r2 d1 d2} { set $n [$ns node] }
$ns duplex-link $s1 $r1 100Mb 1ms DropTail
$ns duplex-link $s2 $r1 100Mb 1ms DropTail
$ns simplex-link $r1 $r2 10Mb 8ms RED
$ns simplex-link $r2 $r1 10Mb 8ms DropTail
$ns queue-limit $r1 $r2 300
$ns queue-limit $r2 $r1 300
$ns duplex-link $r2 $d1 100Mb 1ms DropTail
$ns duplex-link $r2 $d2 100Mb 1ms DropTail
set q [[$ns link $r1 $r2] queue]
$q set thresh_ 20
$q set maxthresh_ 80
$q set setbit_ true
$q set linterm_ 10
set i 0
foreach {s d ca} [list $s1 $d1 prague $s2 $d2 reno] {
    set tcp [new Agent/TCP/Linux]
    $tcp set window_ 1000
    $tcp set packetSize_ 1460
    $tcp set ecn_ 1
    set sink [new Agent/TCPSink/Sack1]
    if {$ca == "prague"} { $sink set dctcp_ true }
    $ns attach-agent $s $tcp
    $ns attach-agent $d $sink
    $ns connect $tcp $sink
    $ns at 0 "$tcp select_ca $ca"
    if {$ca == "prague"} { $ns at 0 "$tcp set_ca_param prague classic_qdelay_us QDELAY" }
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at 0.01 "$ftp start"
    set k($i) $sink
    incr i
}
proc finish {} {
    global k
    puts "bytes [$k(0) set bytes_] [$k(1) set bytes_]"
    exit 0
}
$ns at 40 "finish"
$ns run
"""


def test_prague_falls_back_to_reno_on_a_classic_ecn_queue(tmp_path):
    """RFC 9331's classic-ECN fallback: on RED marking with ECN (a classic
    AQM: 20-80 packets of queue), Prague's queuing-delay detector (5 ms)
    makes it halve on marks like Reno, and the two share the link about
    evenly (measured: 25.0 MB and 24.6 MB in 40 s); with the detector off
    (classic_qdelay_us 0) its scalable response takes most of it (43.0
    MB and 6.9 MB)."""
    share = {}
    for qdelay in (5000, 0):
        r = run(tmp_path, FALLBACK.replace("QDELAY", str(qdelay)))
        assert r.returncode == 0, r.stderr
        w = [x for x in r.stdout.splitlines() if x.startswith("bytes ")][0].split()
        prague, reno = int(w[1]), int(w[2])
        share[qdelay] = prague / (prague + reno)
    assert 0.4 < share[5000] < 0.6, share
    assert share[0] > 0.75, share
