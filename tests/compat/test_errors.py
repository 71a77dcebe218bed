"""Bad input gets a clear error naming the file:line and the value; features
Dumbbell does not model yet are refused by name; options accepted but not
modelled warn once; an engine panic is a Python exception."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HEAD = """set ns [new Simulator]
set a [$ns node]
set b [$ns node]
"""


def run(tmp_path: Path, body: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    script = tmp_path / "s.tcl"
    script.write_text(HEAD + body)
    return subprocess.run(
        [sys.executable, "-m", "dumbbell.cli", "run", "s.tcl", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python"), **(env or {})},
    )


@pytest.mark.parametrize(
    "line,needle",
    [
        ("$ns duplex-link $a $b -10Mb 10ms DropTail", 'bad bandwidth of link 0->1 "-10Mb"'),
        ("$ns duplex-link $a $b 10Xb 10ms DropTail", 'bad bandwidth of link 0->1 "10Xb"'),
        ("$ns duplex-link $a $b 10Mb -5ms DropTail", 'bad delay of link 0->1 "-5ms"'),
        ("$ns duplex-link $a $b 10Mb 10parsecs DropTail", 'bad delay of link 0->1 "10parsecs"'),
        ("$ns duplex-link $a $b 10Mb 10ms Bogus", 'unknown queue type "Bogus"'),
        ("set t [new Agent/TCP/Bogus]", 'unknown class "Agent/TCP/Bogus"'),
        ("$ns duplex-link $a $b 10Mb 10ms SimpleIntServ", "Queue/SimpleIntServ is not supported by Dumbbell yet"),
        ("set t [new Agent/TCP/Asym]", "Agent/TCP/Asym is not supported by Dumbbell yet"),
        ("$ns rtproto LS", "routing protocol LS is not supported by Dumbbell yet"),
        # a traffic source started with no agent (ns-2 crashes): an error, not an engine panic
        ("set src [new Application/Traffic/Exponential]\n$src start", "no agent attached (attach-agent) to start"),
        ("set src [new Application/Traffic/CBR]\n$src start", "no agent attached (attach-agent) to start"),
        # unusable distribution bins when the run starts (ns-2 divides by zero at the first sample)
        ("set qm [new QueueMonitor]\n$qm set keepRTTstats_ 1\n$qm set binsPerSec_ 0\n$ns run",
         "binsPerSec_ must be between 1 and 1000"),
        ("$ns at -5 {puts x}\n$ns at 1 {puts y}\n$ns run\n$ns at 0.5 {puts z}", "can't schedule command in past"),
    ],
)
def test_bad_input_is_reported_with_file_and_line(tmp_path, line, needle):
    r = run(tmp_path, line + "\n")
    assert r.returncode == 1, r.stderr
    first, where = r.stderr.splitlines()[:2]
    assert first.startswith("dumbbell: error: ")
    assert needle in first
    assert where.startswith("  at s.tcl:"), where


@pytest.mark.parametrize(
    "body,where",
    [
        ('error "boom"\n', 'error "boom"'),  # the command ends in a quote
        ('proc f {} {\n    error "deep"\n}\nf\n', 'error "deep"'),  # inside the proc (line 5)
        ('puts [expr {1 +\n    }]\n', "expr {1 +"),  # the innermost command, of two lines
    ],
)
def test_script_errors_name_file_line_and_command(tmp_path, body, where):
    # The report names the innermost line of the script and its command;
    # it never fails itself (a Python traceback).
    r = run(tmp_path, body)
    assert r.returncode == 1, r.stderr
    assert "Traceback (most recent call last)" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith("dumbbell: error: ")
    assert lines[1].startswith("  at s.tcl:") and lines[1].endswith(": " + where), lines[1]


@pytest.mark.parametrize("ending", ["", "exit 0\n", "$ns at 1.0 {exit 0}\n$ns run\n"])
def test_a_script_variable_named_c_survives_the_end(tmp_path, ending):
    # The runner flushes the channels at the end in a proc of its own: a
    # global array `c` of the script (or a trace on it) is left alone.
    r = run(tmp_path, "set c(0) 1\ntrace add variable ::c write {apply {args {puts traced}}}\nputs hello\n" + ending)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "hello\n"
    assert r.stderr == ""


def test_error_in_callback_names_the_callback(tmp_path):
    r = run(tmp_path, 'proc finish {} { global ns; $ns nosuchcommand }\n$ns at 1.5 "finish"\n$ns run\n')
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert "nosuchcommand" in lines[0]
    assert lines[1] == "  in the Tcl callback run at time 1.5: finish"
    # ns-2 (tclcl's Tcl::eval -> tkerror) prints the error on stdout.
    assert r.stdout.startswith("ns: finish: ")


def test_time_units_in_at_warn_once_per_value(tmp_path):
    body = """$ns duplex-link $a $b 1Mb 10ms DropTail
$ns at 0.5s "puts one"
$ns at 0.7s "puts two"
$ns at 0.7s "puts three"
$ns at 1 "exit 0"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "one\ntwo\nthree\n"
    warnings = [l for l in r.stderr.splitlines() if "warning" in l]
    assert len(warnings) == 2 and all("not a plain number" in w for w in warnings)


def test_accepted_but_unmodelled_options_warn_once(tmp_path):
    # bit-error units are accepted but not modelled: one warning, however often used
    body = """$ns duplex-link $a $b 1Mb 10ms DropTail
foreach i {1 2 3} {
    set em($i) [new ErrorModel]
    $em($i) unit bit
    $em($i) set rate_ 0.1
}
$ns lossmodel $em(1) $a $b
set udp [new Agent/UDP]
$ns attach-agent $a $udp
set null [new Agent/Null]
$ns attach-agent $b $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns at 1 "exit 0"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 0, r.stderr
    warnings = [l for l in r.stderr.splitlines() if "warning" in l]
    assert len(warnings) == 1 and "bit" in warnings[0], r.stderr


def test_nam_output_is_written(tmp_path):
    body = """set nf [open out.nam w]
$ns namtrace-all $nf
$ns duplex-link $a $b 1Mb 10ms DropTail
$ns duplex-link-op $a $b orient right
$ns at 1 "close $nf; exit 0"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr
    nam = (tmp_path / "out.nam").read_text().splitlines()
    assert nam[0] == "V -t * -v 1.0a5 -a 0"
    assert "l -t * -s 0 -d 1 -S UP -r 1000000 -D 0.01 -c black -o right" in nam


# With LLVM_PROFILE_FILE set (the PGO training of tools/pgo.py) the run ends
# through C's exit() instead of os._exit, so that a profiling build writes
# its counts: the exit code and output must not change.
@pytest.mark.parametrize("env", [{}, {"LLVM_PROFILE_FILE": "/dev/null"}], ids=["plain", "profiling-exit"])
def test_exit_code_and_stdout_pass_through(tmp_path, env):
    body = (
        'puts "argc=$argc argv=$argv argv0=$argv0"\n'
        "Queue/DropTail set summarystats_ true\n"
        "$ns duplex-link $a $b 1Mb 10ms DropTail\n"
        "[[$ns link $a $b] queue] printstats\n"
        'puts -nonewline "no newline"\n'
        "exit 3\n"
    )
    r = run(tmp_path, body, "x", "-y", "--z", env=env)
    assert r.returncode == 3
    # The C printf of printstats comes after Tcl's channels, as in ns-2.
    assert r.stdout == "argc=3 argv=x -y --z argv0=s.tcl\nno newlineTrue average queue: 0.000 time: 0.000\n"


def test_engine_panic_is_a_python_exception_not_an_abort():
    from dumbbell._engine import Engine

    e = Engine()
    with pytest.raises(BaseException) as info:
        e.debug_panic()
    assert "deliberate panic" in str(info.value)
    # The engine object is still usable afterwards.
    assert e.now() == 0.0


@pytest.mark.parametrize("ending", ["", "exit 0\n"])
def test_an_engine_panic_the_script_catches_is_still_reported(tmp_path, ending):
    """A script that `catch`es the engine's internal error must not end as
    if nothing happened (the engine may be inconsistent): exit code 70."""
    r = run(tmp_path, "catch {::dumbbell::be::sim debug-panic} msg\nputs \"caught: $msg\"\n" + ending)
    assert r.returncode == 70
    assert "caught: internal error in the engine" in r.stdout
    assert "This is a bug in Dumbbell" in r.stderr


def test_callbacks_run_at_global_level_like_ns2(tmp_path):
    body = """set x before
$ns at 1 {set x during; set y [expr 2*3]}
$ns at 2 {puts "$x $y [info level]"}
$ns at 3 "exit 0"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "during 6 0\n"


def test_unit_separated_by_a_space_is_refused(tmp_path):
    # tclcl would read "10 Mb" as 10 b/s; refuse it instead.
    r = run(tmp_path, '$ns duplex-link $a $b "10 Mb" 10ms DropTail\n')
    assert r.returncode == 1
    assert 'bad bandwidth of link 0->1 "10 Mb"' in r.stderr.splitlines()[0]


def test_doubles_print_with_ns2_precision(tmp_path):
    # ns-2 sets tcl_precision 17 at start-up.
    r = run(tmp_path, 'puts [expr 1.0/3]\nputs $tcl_precision\nexit 0\n')
    assert r.stdout == "0.33333333333333331\n17\n"


def test_at_with_a_unit_warns_and_behaves_like_ns2(tmp_path):
    r = run(tmp_path, '$ns at 500ms {puts late}\n$ns at 1 {puts [$ns now]; exit 0}\n$ns run\n')
    assert r.returncode == 0
    assert r.stdout == "1\n", "500ms is 500 s, as in ns-2"
    assert any('"500ms" is not a plain number of seconds' in l for l in r.stderr.splitlines())


def test_runner_close_frees_the_interpreter():
    import gc
    import weakref

    from dumbbell.ns2.runner import Ns2Runner

    r = Ns2Runner("x.tcl", [])
    r.tcl.eval("set ns [new Simulator]")
    ref = weakref.ref(r.tcl)
    r.close()
    gc.collect()
    assert ref() is None


def test_c_printf_output_comes_after_tcl_output_like_ns2(tmp_path):
    # ns-2's C++ printf()s go to C stdio, flushed at exit after Tcl's
    # channels; expected output taken from /usr/bin/ns for this script.
    body = """Queue/DropTail set summarystats_ true
$ns duplex-link $a $b 1Mb 10ms DropTail
set tcp [new Agent/TCP]; $ns attach-agent $a $tcp
$tcp set tcpip_base_hdr_size_ 0
set sink [new Agent/TCPSink]; $ns attach-agent $b $sink; $ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0 "$ftp start"
$ns at 2 "[[$ns link $a $b] queue] printstats; puts after"
$ns at 3 "exit 0"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 0, r.stderr
    # The statistics also check that the queue updates them on every
    # deque(), including at an empty-queue resume, as ns-2 does.
    assert r.stdout == "after\nError, received TCP packet size <= 0\nTrue average queue: 0.000 time: 0.057\n"


def test_packet_without_a_route_stops_the_run_like_ns2(tmp_path):
    # ns-2's Classifier no-slot handler flushes the traces and exits with 1.
    body = """set c [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
set tcp [new Agent/TCP]; $ns attach-agent $a $tcp
set sink [new Agent/TCPSink]; $ns attach-agent $c $sink; $ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.5 "$ftp start"
$ns at 1 "puts still-running"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 1
    assert "still-running" not in r.stdout
    assert "no route from node 0 to node 2 (packet uid 0 at time 0.5)" in r.stderr


@pytest.mark.parametrize("sender,option,defined", [("TCP/Reno", 9, "0-6 and 8"), ("TCP/RFC793edu", 6, "0-5")])
def test_undefined_window_option_stops_the_run_like_ns2(tmp_path, sender, option, defined):
    # ns-2's opencwnd aborts on a windowOption_ it does not define (exit
    # status 1, nothing more on stdout); Dumbbell stops there too, naming it.
    # (RFC793edu reaches its window options only with a switch such as
    # add793slowstart_.)
    body = f"""$ns duplex-link $a $b 1Mb 10ms DropTail
set tcp [$ns create-connection {sender} $a TCPSink $b 0]
$tcp set windowOption_ {option}
$tcp set add793slowstart_ true
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 3 "puts still-running"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 1
    assert r.stdout == ""
    assert f"windowOption_ {option} is not a window option ns-2 defines ({defined})" in r.stderr
    assert "ns-2 aborts here" in r.stderr


def test_rtproto_static_named_fails_at_the_first_link_change(tmp_path):
    # ns-2 2.35's Static protocol has no compute-all: a script that names it
    # with `$ns rtproto` fails at the first link change, exit 1 (ns-2's
    # message; our traceback).
    body = """$ns duplex-link $a $b 1Mb 10ms DropTail
$ns rtproto Static
$ns rtmodel-at 1.0 down $a $b
$ns at 2 {puts done; exit 0}
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 1
    assert "done" not in r.stdout
    assert r.stdout.startswith('ns: _o') and 'runq 1.0: wrong # args: should be "compute-all self class proc node"' in r.stdout


def test_rtmodel_trace_skips_an_event_before_the_current_time(tmp_path):
    # ns-2 loops forever on a dynamics trace whose times go backwards;
    # Dumbbell reports the event and skips it, taking the later ones.
    (tmp_path / "dyn.in").write_text("v 0.5 link-down 0 1\nv 0.3 link-up 0 1\nv 0.8 link-up 0 1\n")
    body = """$ns duplex-link $a $b 1Mb 10ms DropTail
$ns rtmodel Trace dyn.in $a $b
foreach t {0.4 0.6 0.9} {
    $ns at $t {puts "[$ns now] [[$ns link $a $b] up?]"}
}
$ns at 1 "exit 0"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["0.40000000000000002 up", "0.59999999999999998 down", "0.90000000000000002 up"]
    assert "event v 0.3 link-up 0 1  is before current time 0.5. ignored." in r.stderr


def test_link_dynamics_take_a_link_down_and_up(tmp_path):
    """rtmodel-at / rtmodel Deterministic: the links' state and the dynamics
    trace lines as ns-2 writes them (time with 17 digits); past its finish
    time a model leaves its links up.  (Expected output from ns-2.)"""
    body = """$ns duplex-link $a $b 1Mb 10ms DropTail
set c [$ns node]
$ns duplex-link $b $c 1Mb 10ms DropTail
$ns rtmodel-at 0.5 down $a $b
$ns rtmodel-at 1.1 up $a $b
$ns rtmodel Deterministic {0.2 0.6 0.3 1.6} $b $c
[$ns link $a $b] trace-dynamics $ns stdout
foreach t {0.4 0.6 0.9 1.2 1.75} {
    $ns at $t {puts "[$ns now] [[$ns link $a $b] up?] [[$ns link $b $a] up?] [[$ns link $b $c] up?]"}
}
$ns at 2 "exit 0"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "0.40000000000000002 up up up",
        "v 0.5 link-down 0 1",
        "0.59999999999999998 down down up",
        "0.90000000000000002 down down down",
        "v 1.1000000000000001 link-up 0 1",
        "1.2 up up up",
        "1.75 up up up",
    ]


def test_error_in_a_sourced_file_shows_the_scripts_frames_only(tmp_path):
    # `source` is tclcl's proc (Tcl's own is source.orig), as in ns-2: the
    # traceback shows the sourced file and the script's `source` line, and
    # not the runner's own start of the script.
    (tmp_path / "helper.tcl").write_text("set x 1\nset y [expr {$x / 0}]\n")
    r = run(tmp_path, "source helper.tcl\nputs never\n")
    assert r.returncode == 1
    assert "never" not in r.stdout
    assert r.stderr.splitlines()[1:] == ["  at helper.tcl:2: expr {$x / 0}", "  from s.tcl:4: source helper.tcl"]
    assert "source.orig" not in r.stderr
    # Tcl's whole traceback on demand, still without the runner's frame
    r = run(tmp_path, "source helper.tcl\nputs never\n", env={"DUMBBELL_DEBUG": "1"})
    assert '(file "helper.tcl" line 2)' in r.stderr
    assert '"source helper.tcl"' in r.stderr and '(file "s.tcl" line 4)' in r.stderr
    assert "source.orig {" not in r.stderr


def test_vegas_window_that_cannot_size_its_table_stops_the_run(tmp_path):
    # Vegas sizes its send-time table by window_ when packet 0 goes out;
    # for an absurd window_ (ns-2 would allocate and fill 1.2 GB) Dumbbell
    # stops with an error naming the agent and the value, exit 1.
    body = """$ns duplex-link $a $b 1Mb 10ms DropTail
set tcp [$ns create-connection TCP/Vegas $a TCPSink $b 0]
$tcp set window_ 1e8
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 1 "puts still-running"
$ns run
"""
    r = run(tmp_path, body)
    assert r.returncode == 1
    assert "still-running" not in r.stdout
    assert "(Agent/TCP/Vegas): window_ 100000000 cannot size Vegas's send-time table: its send-time table would take 1144 MB" in r.stderr
