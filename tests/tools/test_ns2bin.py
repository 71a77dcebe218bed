"""Dumbbell's ns-2 trace helpers (tools/ns2bin: getrc, raw2xg,
raw2xg-sctp, set_flow_id).

Fixture cases (fixtures/cases.txt) compare our output byte for byte with
what ns-2's original Perl scripts printed for the same trace and options
(fixtures/expected/, made by regen.sh).  Every case runs in this process;
a sample also runs as a program started by perl, the way the suites start
the helpers ("$PERL ../../bin/getrc ...": perl hands the script to the
python3 on its #! line).  The hand-made cases have expected outputs
worked out by hand.
"""

import importlib.machinery
import importlib.util
import io
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "tools" / "ns2bin"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
TOOLS = ("getrc", "raw2xg", "raw2xg-sctp", "set_flow_id")
HAVE_PERL = shutil.which("perl") is not None
needs_perl = pytest.mark.skipif(not HAVE_PERL, reason="perl not installed")

# Subprocesses find "python3" (the scripts' #! line) first next to the
# running interpreter: a real python3 all the same, and quick to start.
ENV = dict(os.environ,
           PATH=os.path.dirname(sys.executable) + os.pathsep
           + os.environ.get("PATH", ""))


def run(route, tool, args, stdin=b"", cwd=None):
    """Run a helper as a program: route "perl" (as the suites do:
    perl hands the script to the interpreter on its #! line) or
    "python"; returns (exit status, stdout, stderr)."""
    runner = ["perl"] if route == "perl" else [sys.executable]
    r = subprocess.run(runner + [str(BIN / tool)] + list(args),
                       input=stdin, capture_output=True, cwd=cwd, env=ENV,
                       timeout=30)
    return r.returncode, r.stdout, r.stderr


_loaded = {}


def call(tool, args, stdin=b""):
    """Run a helper's main() in this process (fast); returns
    (exit status, stdout, stderr)."""
    if tool not in _loaded:
        saved = sys.dont_write_bytecode
        loader = importlib.machinery.SourceFileLoader(
            "ns2bin_" + tool, str(BIN / tool))
        module = importlib.util.module_from_spec(
            importlib.util.spec_from_loader(loader.name, loader))
        loader.exec_module(module)
        sys.dont_write_bytecode = saved
        _loaded[tool] = module
    out, err = io.BytesIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    sys.stdout = io.TextIOWrapper(out, write_through=True)
    sys.stderr = err
    try:
        status = _loaded[tool].main(list(args))
        sys.stdout.flush()
        written = out.getvalue()
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return status, written, err.getvalue().encode()


def fixture_cases():
    cases = []
    for line in (FIXTURES / "cases.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        ident, tool, mode, trace, *args = shlex.split(line)
        cases.append(pytest.param(ident, tool, mode, trace, args, id=ident))
    return cases


def check_fixture_case(route, ident, tool, mode, trace, args, monkeypatch):
    expected = (FIXTURES / "expected" / (ident + ".out")).read_bytes()
    monkeypatch.chdir(FIXTURES)
    stdin = (FIXTURES / trace).read_bytes() if mode == "stdin" else b""
    if mode != "stdin":
        args = args + [trace]
    if route == "inproc":
        result = call(tool, args, stdin)
    else:
        result = run(route, tool, args, stdin)
    assert result == (0, expected, b"")


@pytest.mark.parametrize("ident,tool,mode,trace,args", fixture_cases())
def test_same_bytes_as_ns2_original(ident, tool, mode, trace, args,
                                    monkeypatch):
    check_fixture_case("inproc", ident, tool, mode, trace, args, monkeypatch)


# A sample of the cases also runs as programs, started by python3 and, as
# the suites do, by perl (each start costs an interpreter start-up).
AS_PROGRAMS = {"g_ecn_s2d3", "g_events_e_s2d3", "g_wireless_s0", "r_ecn_ae",
            "r_events_v", "r_full_acfpyn", "r_links_filename", "r_rbp_q",
            "s_ecn_s", "s_wireless_d", "x_sctp_suite"}


@pytest.mark.parametrize("route", [
    "python", pytest.param("perl", marks=needs_perl)])
@pytest.mark.parametrize("ident,tool,mode,trace,args",
                         [c for c in fixture_cases() if c.id in AS_PROGRAMS])
def test_same_bytes_as_a_program(route, ident, tool, mode, trace, args,
                                 monkeypatch):
    check_fixture_case(route, ident, tool, mode, trace, args, monkeypatch)


def test_every_fixture_case_has_expected_output():
    idents = {p.id for p in fixture_cases()}
    outputs = {p.stem for p in (FIXTURES / "expected").glob("*.out")}
    # ns2oldns is checked by test_ns2oldns.py (a Perl script, stdin only).
    assert idents == outputs - {"ns2oldns"}
    assert {p.values[1] for p in fixture_cases()} == set(TOOLS)
    assert AS_PROGRAMS <= idents


def test_scripts_are_executables_for_python3():
    for tool in TOOLS:
        path = BIN / tool
        assert os.access(path, os.X_OK), tool
        first = path.read_bytes().split(b"\n", 1)[0]
        assert first == b"#!/usr/bin/env python3", tool


# ------------------------------------------------------ hand-made cases

HEADER = (b"TitleText: %s\nDevice: Postscript\nBoundBox: true\nTicks: true\n"
          b"NoLines: true\nMarkers: true\nXUnitText: time\n"
          b"YUnitText: packets\n")

HAND_MADE = {
    "raw2xg empty input": (
        "raw2xg", [], b"",
        # no title (no testName line, no file line read), every filler
        # data set, an empty drops set, the closing blank line
        HEADER % b"" + b'\n"packets\n\n"skip-1\n0 1\n\n"skip-2\n0 1\n'
        b'\n"drops\n\n'),
    "raw2xg one packet": (
        "raw2xg", ["-c", "-s", "0.01", "-m", "90", "-t", "one"],
        b"+ 1.5 0 1 tcp 1000 ------- 3 0.0 1.0 95 7\n",
        # y = flow 3 + (95 mod 90) * 0.01
        HEADER % b"one" + b'\n"packets\n1.5 3.05\n\n"drops\n\n'),
    "raw2xg drops only": (
        "raw2xg", ["-x", "-p", "-a"],
        b"d 2.0 1 2 tcp 1000 ------- 1 1.0 2.0 20 5\n"
        b"d 1.0 1 2 tcp 1000 ------- 2 1.0 2.0 3 6\n",
        # drops: first points as read, then all points sorted as text
        b'\n"packets\n\n"skip-1\n0 1\n\n"acks\n'
        b'\n"drops\n2.0 21\n1.0 5\n1.0 5\n2.0 21\n\n'),
    "raw2xg queueing lines": (
        "raw2xg", ["-q", "-p", "-c"],
        b"+ 1.0 0 1 tcp 1000 ------- 0 0.0 1.0 5 1\n"
        b"- 1.25 0 1 tcp 1000 ------- 0 0.0 1.0 5 1\n"
        b"- 2 0 1 tcp 1000 ------- 0 0.0 1.0 7 2\n",
        # a dequeue without enqueue has no start time
        b'\n"packets\nmove 1.0 5\ndraw 1.25 5\nmove  7\ndraw 2 7\n'
        b'\n"drops\n\n'),
    "raw2xg link bars": (
        "raw2xg", ["-p", "-c", "-s", "0.01", "-m", "90"],
        b"+ 0.5 1 2 tcp 1000 ------- 4 1.0 2.0 0 0\n"
        b"v 3.5 link-down 3.5 1 2\nv 4 link-up 4 1 2\n",
        # bars reach one above the highest flow id
        b'\n"packets\n0.5 4\n\n"drops\n\n'
        b'"link-down\n3.5 0\n3.5 5\n"link-up\n4 0\n4 5\n'),
    "raw2xg ecn mark and congestion action": (
        "raw2xg", ["-a", "-e", "-p", "-c", "-s", "1", "-m", "90"],
        b"+ 1 2 3 tcp 1000 ---A-E- 1 2.0 3.0 10 1\n",
        b'\n"packets\n\n"ecn_packets\n1 11\n1 11\n\n"acks\n0 1\n'
        b'\n"drops\n\n\n"skip-3\n0 1\n\n"cong_act_packets\n1 11\n1 11\n'),
    "raw2xg title from testName": (
        "raw2xg", ["-c"],
        b"v testName my-test\n+ 1 0 1 tcp 1000 ------- 0 0.0 1.0 -1 1\n",
        # sequence number -1 plots as 0
        HEADER % b"my-test" + b'\n"packets\n1 0\n\n"drops\n\n'),
    "raw2xg-sctp empty input": (
        "raw2xg-sctp", [], b"",
        # sets not asked for are placeholders "[name]" with the point 0 1
        (HEADER % b"").replace(b"packets\n", b"chunks\n")
        + b'\n"[data sent (buffered)]\n0 1\n\n"data sent\n'
        b'\n"[sack received]\n0 1\n\n"[drops]\n0 1\n\n"[sack sent]\n0 1\n'
        b'\n"[forward received]\n0 1\n\n"[forward sent]\n0 1\n\n'),
    "raw2xg-sctp sack label": (
        "raw2xg-sctp", ["-A", "-m", "10"],
        b"r 1 1 0 sctp 48 -------S 3 1.0 0.0 1 25 1 -1 2 2 0 0\n"
        b"r 2 1 0 sctp 48 -------I 1 1.0 0.0 1 -1 2 -1 -1 -1 -1 -1\n"
        b"d 3 0 1 sctp 1500 -------D 0 0.0 1.0 1 27 3 -1 1 0 1 0\n",
        # y = flow + (TSN, field 12, mod 10); the skipped INIT chunk does
        # not count for the "sack"/"nr-sack" label; drops repeat
        (HEADER % b"-").replace(b"packets\n", b"chunks\n")
        + b'\n"[data sent (buffered)]\n0 1\n\n"data sent\n'
        b'\n"sack received\n1 8\n\n"drops\n3 7\n3 7\n'
        b'\n"[sack sent]\n0 1\n\n"[forward received]\n0 1\n'
        b'\n"[forward sent]\n0 1\n\n'),
    "getrc v lines and short lines": (
        "getrc", ["-s", "0"],
        b"v 0 eval x\n\nr 1 0 2 tcp\n+ 1 1 0 tcp\n",
        # a missing field counts as node 0
        b"v 0 eval x\n\nr 1 0 2 tcp\n"),
    "getrc both directions, one flow": (
        "getrc", ["-b", "-s", "1", "-d", "2", "-f", "7"],
        b"+ 1 1 2 tcp 40 - 7 1.0 2.0 0 0\n+ 2 2 1 ack 40 - 7 2.0 1.0 0 0\n"
        b"+ 3 1 2 tcp 40 - 8 1.0 2.0 0 0\n+ 4 1 3 tcp 40 - 7 1.0 3.0 0 0\n"
        b"E 5 1 2 TCP 1 SLOW_START\n",
        b"+ 1 1 2 tcp 40 - 7 1.0 2.0 0 0\n+ 2 2 1 ack 40 - 7 2.0 1.0 0 0\n"),
    "getrc empty input": ("getrc", ["-s", "2", "-d", "3"], b"", b""),
    "set_flow_id odd lines": (
        "set_flow_id", ["-m"],
        b"h 1\nr 1 2 3 tcp 40 -------  9 2.1 3.0 5 6 \nM 0.0 x\n"
        b"E 1 5 4 x y 9 z\n",
        # a short line grows to 8 fields; a double blank is an empty
        # field (so here the addresses are "9" and "2.1"); the trailing
        # blank goes; other lines pass untouched; E lines use fields 3, 4
        b"h 1      \nr 1 2 3 tcp 40 ------- 2 9 2.1 3.0 5 6\nM 0.0 x\n"
        b"E 1 5 4 x y 4 z\n"),
    "set_flow_id destination wins": (
        "set_flow_id", ["-s", "-d"],
        b"+ 0.1 0 1 tcp 40 ------- 0 0.0 3.1 0 0\n",
        b"+ 0.1 0 1 tcp 40 ------- 3 0.0 3.1 0 0\n"),
}


@pytest.mark.parametrize("case", sorted(HAND_MADE))
def test_hand_made(case):
    tool, args, stdin, expected = HAND_MADE[case]
    assert call(tool, args, stdin) == (0, expected, b"")


@needs_perl
def test_hand_made_when_started_by_perl():
    tool, args, stdin, expected = HAND_MADE["raw2xg empty input"]
    assert run("perl", tool, args, stdin) == (0, expected, b"")


def test_raw2xg_title_is_file_name(tmp_path):
    (tmp_path / "t.tr").write_bytes(b"- 1 0 1 tcp 1 - 0 0.0 1.0 1 1\n")
    status, out, _ = call("raw2xg", [str(tmp_path / "t.tr")])
    assert out.startswith(b"TitleText: t.tr\n")
    status, out, _ = call("raw2xg", [], b"- 1 0 1 tcp 1 - 0 0.0 1.0 1 1\n")
    assert out.startswith(b"TitleText: -\n")


def test_getrc_output_file(tmp_path):
    out = tmp_path / "sub.tr"
    assert call("getrc", ["-s", "1", "-o", str(out)],
                b"+ 1 1 2 x\n+ 1 2 1 x\n") == (0, b"", b"")
    assert out.read_bytes() == b"+ 1 1 2 x\n"


# ------------------------------------------------------------ bad input

BAD = [
    ("getrc", ["-x", "-s", "1"], 2, b"unknown option -x"),
    ("getrc", ["-d", "3"], 2, b"source node"),
    ("getrc", ["-s"], 2, b"-s needs a value"),
    ("getrc", ["-s", "two"], 2, b"wants a number"),
    ("getrc", ["-s", "1", "no/such/file"], 1, b"no/such/file"),
    ("getrc", ["-s", "1", "-o", "no/such/dir/out"], 1, b"no/such/dir/out"),
    ("raw2xg", ["-z"], 2, b"unknown option -z"),
    ("raw2xg", ["-m", "0"], 2, b"modulus"),
    ("raw2xg", ["-s", "0.01x"], 2, b"wants a number"),
    ("raw2xg", ["no/such/file"], 1, b"no/such/file"),
    ("raw2xg-sctp", ["-d"], 2, b"unknown option -d"),
    ("raw2xg-sctp", ["-m", "0.5"], 2, b"modulus"),
    ("set_flow_id", ["-q"], 2, b"unknown option -q"),
    ("set_flow_id", ["-s", "no/such/file"], 1, b"no/such/file"),
]


@pytest.mark.parametrize("tool,args,status,message", BAD,
                         ids=[" ".join([t] + a) for t, a, _, _ in BAD])
def test_bad_input_is_reported_not_a_traceback(tool, args, status, message):
    check_bad_input("python", tool, args, status, message)


@needs_perl
@pytest.mark.parametrize("tool,args,status,message", BAD[::4],
                         ids=[" ".join([t] + a) for t, a, _, _ in BAD[::4]])
def test_bad_input_when_started_by_perl(tool, args, status, message):
    check_bad_input("perl", tool, args, status, message)


def check_bad_input(route, tool, args, status, message):
    code, _, err = run(route, tool, args, b"+ 1 1 2 tcp 40 - 0 1.0 2.0 0 0\n")
    assert code == status
    assert message in err
    assert err.startswith(tool.encode() + b": ")
    assert b"Traceback" not in err


def test_unreadable_file_is_skipped_but_fails(tmp_path):
    (tmp_path / "a.tr").write_bytes(b"+ 1 1 2 x\n")
    assert run("python", "getrc", ["-s", "1", "missing.tr", "a.tr"],
               cwd=tmp_path) == (1, b"+ 1 1 2 x\n",
                                 b"getrc: cannot read missing.tr: "
                                 b"No such file or directory\n")


@pytest.mark.skipif(not os.path.exists("/usr/bin/python3"),
                    reason="no system python3")
def test_runs_with_bare_system_python(tmp_path):
    # isolated mode: no site-packages, no environment, no script directory
    # on sys.path -- the standard library and _ns2bin.py next to the script
    r = subprocess.run(["/usr/bin/python3", "-I", str(BIN / "raw2xg"), "-p",
                        "-c"], input=b"+ 1 2 3 tcp 1 - 0 2.0 3.0 4 0\n",
                       capture_output=True, cwd=tmp_path, timeout=30)
    assert (r.returncode, r.stdout, r.stderr) == (
        0, b'\n"packets\n1 4\n\n"drops\n\n', b"")
    assert not (BIN / "__pycache__").exists()


def test_help_goes_to_stdout():
    for tool in TOOLS:
        status, out, _ = run("python", tool, ["--help"])
        assert status == 0 and out.startswith(b"usage: " + tool.encode())


def test_closed_pipe_is_quiet():
    trace = b"".join(b"+ %d 2 3 tcp 1000 ------- 0 2.0 3.0 %d %d\n" % (i, i, i)
                     for i in range(20000))
    p = subprocess.run(
        "%s %s -s 2 | head -c 10 >/dev/null" % (
            shlex.quote(sys.executable), shlex.quote(str(BIN / "getrc"))),
        shell=True, input=trace, capture_output=True, timeout=30)
    assert p.stderr == b""
