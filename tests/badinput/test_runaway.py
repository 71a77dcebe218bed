"""Runs that must be stopped: Ctrl-C and the run limits, for `dumbbell run`
and the Python API; file names that are not Tcl code."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}

# A TCP flow traced for 10^5 simulated seconds: minutes of work.
LONG = """set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 10Mb 10ms DropTail
set tcp [new Agent/TCP]
$ns attach-agent $a $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $b $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
$ns at 100000 "exit 0"
$ns run
"""


def _dumbbell_run(tmp_path: Path, *args: str) -> subprocess.Popen:
    (tmp_path / "long.tcl").write_text(LONG)
    return subprocess.Popen([sys.executable, "-m", "dumbbell.cli", "run", *args, "long.tcl"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def _interrupt_after(p: subprocess.Popen, seconds: float) -> tuple[float, str, str]:
    """SIGINT after `seconds`; returns how long the process took to end
    after it, and its output."""
    time.sleep(seconds)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    return time.monotonic() - t0, out, err


def _complete_trace(path: Path) -> None:
    data = path.read_bytes()
    assert len(data) > 10_000, "the trace written before the interrupt is kept"
    assert data.endswith(b"\n")
    last = data.rsplit(b"\n", 2)[-2].split()
    assert len(last) == 12 and last[0] in (b"+", b"-", b"r", b"d"), last


def test_ctrl_c_stops_dumbbell_run_at_once_and_keeps_the_trace(tmp_path):
    p = _dumbbell_run(tmp_path)
    took, out, err = _interrupt_after(p, 1.5)
    assert p.returncode == 130, err
    assert took < 1.0, f"took {took:.2f} s to stop"
    assert err.startswith("dumbbell: interrupted at simulated time "), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    _complete_trace(tmp_path / "out.tr")


@pytest.mark.parametrize("opt,needle", [(("--max-events", "200000"), "limit of 200000 events"),
                                        (("--max-wall=0.5",), "limit of 0.5 s of wall-clock time")])
def test_run_limits_stop_dumbbell_run(tmp_path, opt, needle):
    p = _dumbbell_run(tmp_path, *opt)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 124, err
    assert err.startswith("dumbbell: stopped: the run passed its ") and needle in err, err
    assert len(err.splitlines()) == 1, err
    _complete_trace(tmp_path / "out.tr")


@pytest.mark.parametrize("args,needle", [(("--max-events", "0"), "--max-events expects a positive integer"),
                                         (("--max-wall", "nan"), "--max-wall expects a positive number"),
                                         (("--max-wall",), "--max-wall needs a value"),
                                         (("--frobnicate",), "unknown option '--frobnicate'")])
def test_bad_run_options_are_refused(tmp_path, args, needle):
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", *args], cwd=tmp_path, capture_output=True,
                       text=True, env=ENV, timeout=60)
    assert r.returncode == 2 and needle in r.stderr, r.stderr


def test_options_after_the_script_are_the_scripts(tmp_path):
    (tmp_path / "a.tcl").write_text("puts $argv\n")
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "a.tcl", "--max-wall", "x"], cwd=tmp_path,
                       capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 0 and r.stdout == "--max-wall x\n", r


API_LONG = """
import sys, time
import dumbbell
sim = dumbbell.Simulation()
a, b = sim.node(), sim.node()
sim.link(a, b, "100Mb", "10ms", queue_limit=100)
sim.tcp(a, b, variant="newreno", start=0.0)
limit = sys.argv[1]
t0 = time.monotonic()
try:
    if limit == "none":
        print("running", flush=True)
        sim.run(100000)
    elif limit == "events":
        sim.run(100000, max_events=100000)
    else:
        sim.run(100000, max_wall=0.3)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
except dumbbell.RunLimitExceeded as e:
    print("limit:", e, round(time.monotonic() - t0, 2), flush=True)
"""


def test_ctrl_c_raises_keyboard_interrupt_in_the_api(tmp_path):
    p = subprocess.Popen([sys.executable, "-c", API_LONG, "none"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=ENV)
    assert p.stdout.readline() == "running\n"
    took, out, err = _interrupt_after(p, 1.0)
    assert out == "KeyboardInterrupt\n", (out, err)
    assert took < 1.0, f"took {took:.2f} s to stop"
    assert p.returncode == 0, err


@pytest.mark.parametrize("limit,needle", [("events", "limit of 100000 events"), ("wall", "limit of 0.3 s")])
def test_run_limits_in_the_api(limit, needle):
    r = subprocess.run([sys.executable, "-c", API_LONG, limit], capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("limit: the run passed its ") and needle in r.stdout, r.stdout
    assert float(r.stdout.split()[-1]) < 2.0


# One event of 268,435,456 one-byte UDP packets (the API's largest CBR
# packet over a UDP agent of packetSize_ 1): minutes inside one event.
API_QUIET_BURST = """
import sys, time
import dumbbell
sim = dumbbell.Simulation()
a, b = sim.node(), sim.node()
sim.link(a, b, "1Mb", "10ms")
sim.udp(a, b, packet_size=268435456, agent_params={"packetSize_": 1}, start=0.1)
t0 = time.monotonic()
try:
    if sys.argv[1] == "none":
        print("running", flush=True)
        sim.run(1.0)
    else:
        sim.run(1.0, max_wall=0.5)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
except dumbbell.RunLimitExceeded as e:
    print("limit:", e, round(time.monotonic() - t0, 2), flush=True)
sim.run(0.05)  # a new run of the same scenario is unaffected
print("again", flush=True)
"""


def test_ctrl_c_within_one_endless_event_in_the_api(tmp_path):
    """Ctrl-C in `sim.run` while one event makes packets without end: the
    event is unwound (interrupt.rs `StopInEvent`) and KeyboardInterrupt
    raised.  Before: only after the event's end (minutes)."""
    p = subprocess.Popen([sys.executable, "-c", API_QUIET_BURST, "none"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=ENV)
    assert p.stdout.readline() == "running\n"
    took, out, err = _interrupt_after(p, 1.5)
    assert out == "KeyboardInterrupt\nagain\n", (out, err)
    assert took < 1.0, f"took {took:.2f} s to stop"
    assert p.returncode == 0, err


def test_max_wall_within_one_endless_event_in_the_api():
    r = subprocess.run([sys.executable, "-c", API_QUIET_BURST, "wall"], capture_output=True, text=True, env=ENV,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    first, again = r.stdout.splitlines()
    assert first.startswith("limit: the run passed its limit of 0.5 s of wall-clock time in the middle of an event"), first
    assert float(first.split()[-1]) < 2.0
    assert again == "again"


@pytest.mark.parametrize("kw,needle", [({"max_events": 0}, "max_events must be a positive integer"),
                                       ({"max_events": 1.5}, "max_events must be a positive integer"),
                                       ({"max_wall": -1}, "max_wall must be a positive number"),
                                       ({"max_wall": float("inf")}, "max_wall must be a positive number")])
def test_bad_api_limits_are_refused(kw, needle):
    import dumbbell

    sim = dumbbell.Simulation()
    a, b = sim.node(), sim.node()
    sim.link(a, b, "1Mb", "10ms")
    with pytest.raises(ValueError, match=needle):
        sim.run(1.0, **kw)


@pytest.mark.parametrize("name", ["a}b.tcl", "e.tcl};puts INJECTED;#{", "[x] $y.tcl"])
def test_a_file_name_is_a_name_not_tcl_code(tmp_path, name):
    (tmp_path / name).write_text("puts ran\n")
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", name], cwd=tmp_path, capture_output=True,
                       text=True, env=ENV, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, "ran\n", "")


def test_a_missing_script_is_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "nonexist.tcl"], cwd=tmp_path,
                       capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 1
    assert r.stderr == 'dumbbell: error: couldn\'t read file "nonexist.tcl": no such file or directory\n'


@pytest.mark.parametrize("how", ["ctrl-c", "max-wall"])
def test_a_script_looping_in_tcl_is_stopped_too(tmp_path, how):
    # No engine run: the script's own loop (creating nodes for ever).
    (tmp_path / "loop.tcl").write_text("set ns [new Simulator]\nwhile 1 { $ns node }\n")
    opts = ["--max-wall", "0.5"] if how == "max-wall" else []
    p = subprocess.Popen([sys.executable, "-m", "dumbbell.cli", "run", *opts, "loop.tcl"], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    if how == "ctrl-c":
        took, out, err = _interrupt_after(p, 1.0)
        assert took < 1.0, f"took {took:.2f} s to stop"
        assert p.returncode == 130 and err.startswith("dumbbell: interrupted"), err
    else:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 124 and "limit of 0.5 s of wall-clock time" in err, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err


# One event that writes 223 MB of trace: a CBR "packet" of 2^31 - 1 bytes,
# which the UDP agent sends as two million packets at once.
BURST = """set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 2147483647
$cbr set interval_ 100
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns at 0.5 "close $f; exit 0"
$ns run
"""

# The child's peak resident memory, measured by a parent of its own (the
# only child that parent waits for).
_PEAK = ("import resource, subprocess, sys\n"
         "rc = subprocess.run(sys.argv[1:]).returncode\n"
         "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def test_one_event_writing_without_end_is_written_as_it_goes(tmp_path):
    """Output buffered within one event has a bound: past it, the engine
    hands it to its Tcl channel in mid-event (before: the whole 223 MB was
    held, 669 MB resident at its peak).  The trace is byte for byte the
    real ns-2's (its size and MD5, from /usr/bin/ns 2.35)."""
    import hashlib

    (tmp_path / "burst.tcl").write_text(BURST)
    r = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "dumbbell.cli", "run", "burst.tcl"],
                       cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
    rc, peak_kb = map(int, r.stdout.split())
    assert rc == 0, r.stderr
    data = (tmp_path / "out.tr").read_bytes()
    assert len(data) == 223_191_081
    assert hashlib.md5(data).hexdigest() == "d305eec0603c2227a512dc3696495077"
    assert peak_kb < 200_000, f"peak resident memory {peak_kb / 1000:.0f} MB"


# The child's peak resident memory, with a SIGINT after `after` seconds (0:
# none); prints the exit status, the seconds from the signal (or start) to
# the end, the peak in kB.
_PEAK_SIGNAL = ("import resource, signal, subprocess, sys, time\n"
                "after = float(sys.argv[1])\n"
                "p = subprocess.Popen(sys.argv[2:], stderr=subprocess.PIPE, text=True)\n"
                "t = time.monotonic()\n"
                "if after:\n"
                "    time.sleep(after)\n"
                "    t = time.monotonic()\n"
                "    p.send_signal(signal.SIGINT)\n"
                "err = p.communicate(timeout=300)[1]\n"
                "print(p.returncode, time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
                "sys.stdout.write(err)\n")


# The burst in 200-byte packets: ten million of them, one event of several
# seconds even on an idle machine, so that a stop lands inside it.
LONG_BURST = BURST.replace("$ns attach-agent $n0 $udp", "$ns attach-agent $n0 $udp\n$udp set packetSize_ 200")


def _burst_trace_is_a_prefix(path: Path) -> int:
    """The trace of the long burst cut short is what the whole one starts
    with: complete lines whose packet ids never go back (a chunk written
    twice would), not all of it (10,737,419 packets, two lines each)."""
    last = -1
    size = 0
    with open(path, "rb") as f:
        for line in f:
            size += len(line)
            assert line.endswith(b"\n"), line
            uid = int(line.split()[11])
            assert uid >= last, f"packet {uid} after {last}: output written twice"
            last = uid
    assert 0 < last < 10_737_418
    return size


@pytest.mark.parametrize("how", ["ctrl-c", "max-wall"])
def test_a_stop_within_one_endless_event_ends_it_there(tmp_path, how):
    """Ctrl-C or --max-wall while one event writes without end: the run
    ends there (it cannot return between events before the event ends),
    with what was written kept, once, and memory bounded.  Before: the
    stop made the spill fail, so the rest of the event was held in memory
    (539 MB and 588 MB resident), the event ran to its end (3.6 s and 5.3
    s), and a 16 MB chunk Tcl had written was written again."""
    _stopped_in_event(tmp_path, LONG_BURST, how)
    _burst_trace_is_a_prefix(tmp_path / "out.tr")


def _stopped_in_event(tmp_path: Path, script: str, how: str) -> None:
    """`dumbbell run` of `script` stopped by Ctrl-C after 1.5 s or by
    `--max-wall 1` in the middle of one endless event: exit 130 or 124
    within a second of the stop, one line, memory bounded."""
    (tmp_path / "s.tcl").write_text(script)
    args = ["1.5", sys.executable, "-m", "dumbbell.cli", "run", "s.tcl"]
    if how == "max-wall":
        args = ["0", sys.executable, "-m", "dumbbell.cli", "run", "--max-wall", "1", "s.tcl"]
    r = subprocess.run([sys.executable, "-c", _PEAK_SIGNAL, *args], cwd=tmp_path, capture_output=True, text=True,
                       env=ENV, timeout=300)
    head, _, err = r.stdout.partition("\n")
    rc, took, peak_kb = head.split()
    took, peak_kb = float(took), int(peak_kb)
    if how == "ctrl-c":
        assert int(rc) == 130, err
        assert took < 1.0, f"took {took:.2f} s to stop"
        assert err.startswith("dumbbell: interrupted in the middle of an event that runs without end"), err
    else:
        assert int(rc) == 124, err
        assert took < 2.5, f"took {took:.2f} s to stop"
        assert err.startswith("dumbbell: stopped: the run passed its limit of 1 s of wall-clock time"), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert peak_kb < 200_000, f"peak resident memory {peak_kb / 1000:.0f} MB"


# One event that makes packets without end and writes nothing (a fuzz
# mutant of tests' lan.tcl had a CBR ask a LAN for 10^11 bytes at once):
# 2^31 one-byte UDP packets from a Tcl call-back (`$cbr start`), outside
# any engine run, dropped untraced.
QUIET_BURST = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set udp [new Agent/UDP]
$udp set packetSize_ 1
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 2147483647
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns at 1.0 "exit 0"
$ns run
"""


@pytest.mark.parametrize("how", ["ctrl-c", "max-wall"])
def test_a_stop_within_one_endless_quiet_event_ends_it_there(tmp_path, how):
    """Ctrl-C or --max-wall while one event makes packets without end and
    writes nothing: the engine asks every 4,096 packets whether a stop is
    due (sim.rs `look_mid_event`), so the run ends there.  Before: only a
    write in the middle of the event could stop it (the spill), and this
    one never writes: the mutant ran 27 s past Ctrl-C, this script hours."""
    _stopped_in_event(tmp_path, QUIET_BURST, how)


def test_a_burst_to_nowhere_is_stopped_at_its_first_packet(tmp_path):
    """Two million packets sent in one event to a port with no agent: ns-2
    stops at the first (its no-slot handler exits), and so does Dumbbell,
    without a notice kept for each of the others (before: 589 MB resident
    and 4.2 s)."""
    script = BURST.replace("$ns connect $udp $null", "$udp set dst_addr_ [$n0 id]\n$udp set dst_port_ 77")
    (tmp_path / "slot.tcl").write_text(script)
    r = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "dumbbell.cli", "run", "slot.tcl"],
                       cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
    rc, peak_kb = map(int, r.stdout.splitlines()[-1].split())  # (after ns-2's classifier dump)
    assert rc == 1
    assert "no agent at port 77 of node 0 (packet uid 0 at time 0.1" in r.stderr, r.stderr
    assert peak_kb < 100_000, f"peak resident memory {peak_kb / 1000:.0f} MB"


# A single Tcl command that asks for more memory than the process may have:
# Tcl gives up inside the command (where --max-wall cannot reach) and by
# default abort()s (SIGABRT, exit 134, as the fuzzer's `format "%2147483647s"`
# mutant did; `format` now refuses such widths first: below).  Dumbbell's
# panic handler makes it a clear error, exit 1.
@pytest.mark.parametrize("script", [
    'set ns [new Simulator]\nset s [string repeat x 300000000]\nputs [string length [string map {x yy} $s]]\n',
    'set s [string repeat x 300000000]\nappend s $s\nappend s $s\nputs [string length $s]\n',
])
def test_tcl_out_of_memory_is_a_clear_error(tmp_path, script):
    import resource

    (tmp_path / "big.tcl").write_text(script)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    p = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "big.tcl"], cwd=tmp_path, capture_output=True,
                       text=True, env=ENV, preexec_fn=limit, timeout=120)
    assert p.returncode == 1, (p.returncode, p.stderr[-500:])
    assert p.stderr.strip().splitlines()[-1].startswith(
        "error: out of memory: a Tcl command asked for more memory than this process may use"), p.stderr[-500:]
    assert "Traceback" not in p.stderr


# The sweep's fork servers fork while the watchdog thread may hold the run
# registry's lock; the child has no watchdog to release it.  At-fork
# handlers wait for the watchdog to leave the registry.  The test hook
# makes the watchdog hold the lock 15 ms of every 20 ms tick, so that
# without the handlers most children would hang at their first run.
FORKS = """
import os, sys, time
import dumbbell as db

def tiny():
    sim = db.Simulation(seed=1)
    a, b = sim.nodes(2)
    sim.link(a, b, "10Mb", "10ms")
    sim.udp(a, b)
    return sim.run(until=0.5, max_wall=30)

tiny()                      # starts the watchdog
kids = []
for i in range(12):
    time.sleep(0.007 * (i % 3))
    pid = os.fork()
    if pid == 0:
        tiny()
        os._exit(0)
    kids.append(pid)
deadline = time.monotonic() + 60
hung = 0
for pid in kids:
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0, status
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            hung += 1
            break
        time.sleep(0.01)
print("hung", hung)
"""


def test_fork_while_the_watchdog_holds_the_registry(tmp_path):
    (tmp_path / "forks.py").write_text(FORKS)
    env = {**ENV, "DUMBBELL_TEST_WATCHDOG_HOLD_MS": "15"}
    p = subprocess.run([sys.executable, "forks.py"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=180)
    assert p.returncode == 0, p.stderr[-800:]
    assert p.stdout.strip().splitlines()[-1] == "hung 0", p.stdout


# `format "%99999999999s"`: Tcl pads the field one character at a time,
# inside one command: 13 s of CPU (39 s under load, past --max-wall and
# Ctrl-C) before it ran out of memory (fuzz campaign seed 3401, handles.tcl
# #4869).  Widths past 10,000,000 characters are refused at once; widths
# given as `*` values too; smaller ones are Tcl's.
@pytest.mark.parametrize("fmt,args", [('"%99999999999s %s"', "a b"), ('"%d %*s"', "1 2147483647 x"),
                                      ('"%-10000001d"', "5")])
def test_format_refuses_a_field_it_could_not_stop_building(tmp_path, fmt, args):
    (tmp_path / "f.tcl").write_text(f"puts [format {fmt} {args}]\n")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "--max-wall", "2", "f.tcl"], cwd=tmp_path,
                       capture_output=True, text=True, env=ENV, timeout=120)
    assert time.monotonic() - t0 < 10
    assert p.returncode == 1, (p.returncode, p.stderr[-500:])
    assert "format: a field width of" in p.stderr and "more than Dumbbell allows (10000000)" in p.stderr, p.stderr
    assert "at f.tcl:1:" in p.stderr


def test_format_keeps_tcls_answers(tmp_path):
    (tmp_path / "f.tcl").write_text('puts [format "%-10s|%5.2f|%*s|%%|" ab 3.14159 4 x]\n'
                                    'puts [format "%-10000000s|" a]\n'
                                    'puts [format {%2$s %1$s} a b]\n'
                                    'catch {format %s} e; puts $e\n')
    p = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "f.tcl"], cwd=tmp_path,
                       capture_output=True, text=True, env=ENV, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "ab        | 3.14|   x|%|"
    assert lines[1] == "a" + " " * 9_999_999 + "|"
    assert lines[2] == "b a"
    assert lines[3] == "not enough arguments for all format specifiers"
