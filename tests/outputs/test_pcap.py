"""`dumbbell run --pcap DIR` and `Simulation.run(pcap=DIR)`: one pcap file
per end of each traced link, with IPv4 and TCP/UDP/ICMP headers made from
the packets (docs/outputs.md).  Checked with our own reader (pcapfile.py:
headers, checksums, counts against the ns-2 trace of the same run) and,
where installed, with tcpdump, tshark and tcptrace against Dumbbell's
metrics."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import dumbbell as db
from dumbbell import metrics as m

from pcapfile import node_ip, read

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "ns2" / "scripts"
DUMBBELL = [sys.executable, "-m", "dumbbell.cli", "run"]


def run(tmp: Path, script: Path, *args: str, pcap: str = "caps") -> subprocess.CompletedProcess:
    shutil.copy(script, tmp / script.name)
    r = subprocess.run([*DUMBBELL, "--pcap", pcap, script.name, *args], cwd=tmp, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return r


def expected(ev: pl.DataFrame, a: int, b: int) -> pl.DataFrame:
    """The trace's events that the capture at node a's end of link a-b holds:
    what a sends on it (dequeued, `-`) and what it receives from b (`r`)."""
    return ev.filter(((pl.col("event") == "-") & (pl.col("from_node") == a) & (pl.col("to_node") == b))
                     | ((pl.col("event") == "r") & (pl.col("from_node") == b) & (pl.col("to_node") == a)))


@pytest.fixture(scope="module")
def basic1(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("basic1")
    run(tmp, ROOT / "examples" / "basic1.tcl")
    return tmp


def test_one_file_per_link_end_with_the_trace_s_packets(basic1):
    ev = db.read_trace(basic1 / "basic1.tr")
    links = set(ev.select("from_node", "to_node").unique().iter_rows())
    files = sorted(p.name for p in (basic1 / "caps").iterdir())
    ends = {(a, b) for a, b in links} | {(b, a) for a, b in links}
    assert files == sorted(f"{a}-{b}.pcap" for a, b in ends)
    total = 0
    for a, b in ends:
        recs = read(basic1 / "caps" / f"{a}-{b}.pcap")
        want = expected(ev, a, b)
        assert len(recs) == want.height > 0
        total += len(recs)
        for r, w in zip(recs, want.iter_rows(named=True)):
            # the trace rounds times to microseconds; the capture keeps nanoseconds
            assert abs(r.time_ns / 1e9 - w["time"]) <= 0.5e-6
            assert r.ident == w["uid"] & 0xFFFF
            assert (r.src, r.dst) == (node_ip(w["src_node"]), node_ip(w["dst_node"]))
            assert (r.sport, r.dport) == (1024 + w["src_port"], 1024 + w["dst_port"])
            assert r.proto == 6 and "ts" in r.options
            if w["ptype"] == "tcp":
                # 1000-byte packets: 960 bytes of data (packetSize_ 960) + 40
                if w["seqno"] == 0:
                    assert (r.flags, r.seq, r.payload) == (0x02, 0, 0), "ns-2's syn_: packet 0 is a SYN"
                else:
                    assert (r.flags, r.seq, r.ack, r.payload) == (0x10, 1 + (w["seqno"] - 1) * 960, 1, 960)
            else:
                assert r.payload == 0 and r.seq in (0, 1)
                assert r.ack == 1 + w["seqno"] * 960
    assert total == ev.filter(pl.col("event").is_in(["-", "r"])).height


def test_capture_is_deterministic(tmp_path, basic1):
    run(tmp_path, ROOT / "examples" / "basic1.tcl")
    for p in (basic1 / "caps").iterdir():
        assert (tmp_path / "caps" / p.name).read_bytes() == p.read_bytes()


def test_ecn_bits_follow_the_trace_flags(tmp_path):
    run(tmp_path, SCRIPTS / "red.tcl", "4", "ecn=1", "setbit_=true")
    ev = db.read_trace(tmp_path / "red.tr")
    seen = {"ect": 0, "ce": 0, "ece": 0, "cwr": 0}
    for f in (tmp_path / "caps").iterdir():
        a, b = map(int, f.stem.split("-"))
        recs = read(f)
        want = expected(ev, a, b)
        assert len(recs) == want.height
        for r, w in zip(recs, want.iter_rows(named=True)):
            fl = w["flags"]
            ect, ce = fl[6] == "N", fl[4] == "E"
            assert r.ecn == (3 if ce else 2 if ect else 0), (f.name, w)
            assert bool(r.flags & 0x40) == (fl[0] == "C"), "ECE is ns-2's ECN-echo"
            assert bool(r.flags & 0x80) == (fl[3] == "A" and ect), "CWR only on ECN-capable packets"
            seen["ect"] += ect
            seen["ce"] += ce
            seen["ece"] += bool(r.flags & 0x40)
            seen["cwr"] += bool(r.flags & 0x80)
    assert all(seen.values()), seen


def test_sack_blocks_become_the_sack_option(tmp_path):
    run(tmp_path, SCRIPTS / "sack.tcl", "6", "DropTail", "15", "3", "0", "20 22 24 26")
    # node 1 is the sinks' node d; its end of the link to r (node 0)
    recs = read(tmp_path / "caps" / "1-0.pcap")
    sacks = [r for r in recs if "sack" in r.options]
    assert sacks, "SACK blocks on the ACKs of the flows with holes"
    for r in sacks:
        assert r.payload == 0 and 1 <= len(r.options["sack"]) <= 3
        for left, right in r.options["sack"]:
            assert right > left and (right - left) % 1000 == 0, "whole 1000-byte segments"
            assert (left - 1) % 1000 == 0, "edges at segment boundaries"


def test_udp_and_ping(tmp_path):
    run(tmp_path, SCRIPTS / "cbr.tcl", "0")
    ev = db.read_trace(tmp_path / "cbr.tr")
    recs = read(tmp_path / "caps" / "1-2.pcap")
    udp = [r for r in recs if r.proto == 17]
    want = expected(ev, 1, 2).filter(pl.col("ptype") == "cbr")
    assert len(udp) == want.height > 0
    assert [r.length for r in udp] == want["size"].to_list(), "a UDP agent's size is the datagram's"
    run(tmp_path, SCRIPTS / "ping.tcl")
    icmp = [r for r in read(tmp_path / "caps" / "0-1.pcap") if r.proto == 1]
    # node 0 sends two echo requests and answers node 2's two; it receives those and the answers
    kinds = sorted((r.src, r.icmp_type) for r in icmp)
    assert kinds == [("10.0.0.1", 0)] * 2 + [("10.0.0.1", 8)] * 2 + [("10.0.0.3", 0)] * 2 + [("10.0.0.3", 8)] * 2


def test_python_api_pcap(tmp_path):
    sim = db.Simulation()
    a, r, b = sim.nodes(3)
    sim.link(a, r, "10Mb", "5ms")
    sim.link(r, b, "1Mb", "20ms", queue_limit=10)
    sim.tcp(a, b, variant="sack", sink="sack", packet_size=500)
    res = sim.run(3, pcap=tmp_path / "caps")
    assert [p.name for p in res.pcap_files] == ["0-1.pcap", "1-0.pcap", "1-2.pcap", "2-1.pcap"]
    for p in res.pcap_files:
        x, y = map(int, p.stem.split("-"))
        recs = read(p)
        assert len(recs) == expected(res.events, x, y).height > 0
        assert {r.payload for r in recs if r.flags == 0x10 and r.payload} == {500}
    with pytest.raises(ValueError, match="pcap applies to packet-level runs"):
        sim.run(3, mode="fluid", pcap=tmp_path / "x")


def test_bad_pcap_arguments(tmp_path):
    (tmp_path / "a.tcl").write_text("puts hi\n")
    r = subprocess.run([*DUMBBELL, "a.tcl", "--pcap"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "hi\n", "after the script, options are the script's"
    r = subprocess.run([*DUMBBELL, "--pcap"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 2 and "--pcap needs a directory" in r.stderr
    (tmp_path / "file").write_text("")
    r = subprocess.run([*DUMBBELL, "--pcap", "file/sub", "a.tcl"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 2 and "file/sub: cannot make the capture directory" in r.stderr
    assert "Traceback" not in r.stderr


# ---- the tools ---------------------------------------------------------------------------

needs = lambda tool: pytest.mark.skipif(shutil.which(tool) is None, reason=f"{tool} not installed")  # noqa: E731


@needs("tcpdump")
def test_tcpdump_reads_without_warnings(basic1):
    for p in (basic1 / "caps").iterdir():
        r = subprocess.run(["tcpdump", "-nr", str(p)], capture_output=True, text=True)
        assert r.returncode == 0
        assert r.stderr.splitlines() == [f"reading from file {p}, link-type RAW (Raw IP), snapshot length 65535"]
        assert len(r.stdout.splitlines()) == len(read(p))


@needs("tshark")
def test_tshark_checksums_and_no_malformed_packets(basic1):
    for p in (basic1 / "caps").iterdir():
        r = subprocess.run(["tshark", "-r", str(p), "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE",
                            "-Y", "ip.checksum.status != 1 || tcp.checksum.status != 1 || _ws.malformed "
                            "|| _ws.expert.severity >= error"],
                           capture_output=True, text=True)
        assert r.returncode == 0 and r.stdout == "", r.stdout[:2000]
        assert [ln for ln in r.stderr.splitlines() if "Running as user" not in ln] == []


def _tcptrace(path: Path) -> dict[str, tuple[int, int]]:
    """tcptrace -l's per-direction counters of the only connection."""
    r = subprocess.run(["tcptrace", "-l", "-n", str(path)], capture_output=True, text=True)
    assert r.returncode == 0
    assert "warning" not in r.stdout.lower() and "reserved bits" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "1 TCP connection traced" in r.stdout
    out = {}
    for key in ("total packets", "rexmt data pkts", "unique bytes sent", "actual data pkts"):
        ms = re.findall(rf"^\s+{key}:\s+(\d+)\s+{key}:\s+(\d+)", r.stdout, re.M)
        assert len(ms) == 1, key
        out[key] = tuple(map(int, ms[0]))
    return out


@needs("tcptrace")
def test_tcptrace_agrees_with_dumbbell_metrics(basic1):
    ev = db.read_trace(basic1 / "basic1.tr")
    thr = m.throughput(ev).row(0, named=True)
    good = m.goodput(ev).row(0, named=True)
    # the sink's end (node 2) of the bottleneck: what was delivered
    t = _tcptrace(basic1 / "caps" / "2-1.pcap")
    assert t["total packets"][0] == thr["packets"] == 830
    assert t["rexmt data pkts"][0] == thr["packets"] - good["packets"] == 13
    # unique payload: every distinct packet's size less its 40 header bytes
    assert t["unique bytes sent"][0] == good["bytes"] - 40 * good["packets"]


@needs("tcptrace")
def test_tcptrace_agrees_with_the_senders_counters(tmp_path):
    sim = db.Simulation()
    a, r, b = sim.nodes(3)
    sim.link(a, r, "100Mb", "1ms")
    sim.link(r, b, "1Mb", "30ms", queue_limit=8)
    sim.tcp(a, b, variant="newreno", packet_size=1000, stop=9.0)
    res = sim.run(12, pcap=tmp_path)
    f = res.flows.row(0, named=True)
    t = _tcptrace(tmp_path / "0-1.pcap")
    # every packet sent left node 0 (stopped at 9 s, run to 12 s)
    assert t["total packets"][0] == f["ndatapack"]
    assert t["rexmt data pkts"][0] == f["nrexmitpack"] > 0


def test_a_stopped_run_keeps_whole_captures(tmp_path):
    """A run limit (as Ctrl-C) ends the process at once: the captures are
    written out first, every record whole, up to where the run stopped."""
    shutil.copy(ROOT / "examples" / "basic1.tcl", tmp_path)
    r = subprocess.run([*DUMBBELL, "--pcap", "caps", "--max-events", "20000", "basic1.tcl", "1000"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 124, r.stderr
    recs = read(tmp_path / "caps" / "0-1.pcap")
    assert 1000 < len(recs) and recs[-1].time_ns < 1000 * 10**9


@needs("tshark")
def test_tshark_counts_agree_with_the_senders_counters(tmp_path):
    sim = db.Simulation()
    a, r, b = sim.nodes(3)
    sim.link(a, r, "100Mb", "1ms")
    sim.link(r, b, "1Mb", "30ms", queue_limit=8)
    sim.tcp(a, b, variant="newreno", packet_size=1000, stop=9.0)
    res = sim.run(12, pcap=tmp_path)
    f = res.flows.row(0, named=True)

    def count(flt: str) -> int:
        r = subprocess.run(["tshark", "-r", str(tmp_path / "0-1.pcap"), "-Y", flt, "-T", "fields", "-e", "frame.number"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return len(r.stdout.split())

    # data segments and the SYN: every packet the sender sent (ndatapack_)
    assert count("tcp.len > 0 || (tcp.flags.syn == 1 && tcp.flags.ack == 0)") == f["ndatapack"]
    assert count("tcp.analysis.retransmission || tcp.analysis.fast_retransmission") == f["nrexmitpack"] > 0


def test_a_snapshot_length_keeps_the_headers(tmp_path, basic1):
    """--pcap-snaplen 80 (as tcpdump -s 80): every header kept, payload cut;
    the records say the length on the wire, and decode as the whole ones."""
    shutil.copy(ROOT / "examples" / "basic1.tcl", tmp_path)
    r = subprocess.run([*DUMBBELL, "--pcap", "caps", "--pcap-snaplen", "80", "basic1.tcl"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    for p in (basic1 / "caps").iterdir():
        whole, cut = read(p), read(tmp_path / "caps" / p.name)
        assert [(w.time_ns, w.length, w.seq, w.ack, w.flags, w.options, w.payload) for w in whole] == \
               [(c.time_ns, c.length, c.seq, c.ack, c.flags, c.options, c.payload) for c in cut]
        assert max(len(c.ip) for c in cut) == 80
        assert (tmp_path / "caps" / p.name).stat().st_size < p.stat().st_size / 5
    if shutil.which("tcptrace"):
        t = _tcptrace(tmp_path / "caps" / "2-1.pcap")
        assert (t["total packets"][0], t["rexmt data pkts"][0], t["unique bytes sent"][0]) == (830, 13, 783360)
    r = subprocess.run([*DUMBBELL, "--pcap-snaplen", "0", "--pcap", "c", "basic1.tcl"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--pcap-snaplen expects 1 to 65535 bytes, got '0'" in r.stderr
    r = subprocess.run([*DUMBBELL, "--pcap-snaplen", "80", "basic1.tcl"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 2 and "--pcap-snaplen needs --pcap DIR" in r.stderr
    with pytest.raises(ValueError, match="pcap_snaplen must be 1 to 65535"):
        db.Simulation().run(1, pcap=tmp_path / "x", pcap_snaplen=70000)


def test_l4s_packets_are_ect1_on_the_wire(tmp_path):
    """Prague's data packets carry ECN field 01 (ECT(1)), DCTCP's 10
    (ECT(0)), CE-marked ones 11; ACKs and the first packet are Not-ECT."""
    sim = db.Simulation()
    a, r, b = sim.nodes(3)
    sim.link(a, r, "100Mb", "1ms")
    sim.link(r, b, "10Mb", "5ms", queue="StepMark", queue_limit=100, queue_params={"thresh": 5})
    sim.tcp(a, b, variant="linux", cc="prague", window=100, flow_id=1)
    sim.tcp(a, b, variant="linux", cc="dctcp", window=100, flow_id=2)
    res = sim.run(2, pcap=tmp_path)
    data = [x for x in read(tmp_path / "1-2.pcap") if x.payload and x.seq > 1]
    ecn = {}
    for x in data:
        ecn.setdefault(x.sport, set()).add(x.tos & 3)
    assert sorted(ecn.values(), key=min) == [{1, 3}, {2, 3}], ecn
    assert res.pcap_files
