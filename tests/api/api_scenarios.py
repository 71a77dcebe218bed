"""Scenarios of the ns-2 corpus (tests/ns2/scripts) rebuilt with the Python
API, shared by the API tests."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import dumbbell as db

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "ns2"
FIXTURES = CORPUS / "fixtures"
CASES = {c["id"]: c for c in json.loads((CORPUS / "cases.json").read_text())}


def fixture_bytes(case: str, name: str) -> bytes:
    return gzip.decompress((FIXTURES / case / f"{name}.gz").read_bytes())


def fixture_stdout(case: str) -> list[str]:
    return (FIXTURES / case / "stdout").read_text().splitlines()


def basic1(endtime=10.0, **run):
    """tests/ns2/scripts/basic1.tcl."""
    sim = db.Simulation()
    A, R, B = sim.nodes(3)
    sim.link(A, R, "10Mb", "10ms")
    sim.link(R, B, "800Kb", "50ms", queue_limit=7)
    sim.tcp(A, B, variant="reno", window=100, packet_size=960,
            trace_vars=("cwnd_", "ssthresh_", "ack_", "maxseq_"))
    return sim, sim.run(until=endtime, **run)


def basic2_sim(delayB, overhead=0.0, trace_vars=()):
    """tests/ns2/scripts/basic2.tcl (the book's 31.3.1 script)."""
    sim = db.Simulation()
    A, B, R, D = sim.nodes(4)
    sim.link(A, R, "8.0Mb", "10ms")
    sim.link(B, R, "8.0Mb", f"{10 + delayB}ms")
    sim.link(R, D, "0.8Mb", "100ms", queue_limit=20)
    for src, fid in ((A, 0), (B, 1)):
        sim.tcp(src, D, variant="reno", window=65000, packet_size=960, overhead=overhead, flow_id=fid,
                trace_vars=trace_vars)
    return sim


def basic2_lines(res, delayB, overhead=0.0, RTTNL=220):
    """The two result lines basic2.tcl prints, computed from a Result as its
    finish procedure computes them."""
    recv0, recv1 = res.flows["goodput_pkts"]
    ack0, ack1 = res.flows["ack"]
    rex0, rex1 = res.flows["nrexmitpack"]
    rttratio = (2.0 * delayB + RTTNL) / RTTNL
    actualratio = 1.0 * recv0 / recv1
    rttratio2 = rttratio * rttratio
    ratio1 = actualratio / rttratio
    ratio2 = actualratio / rttratio2
    return [
        "%f %f %d %d %f %f %f %f %f" % (delayB, overhead, recv0, recv1, rttratio, rttratio2, actualratio,
                                        ratio1, ratio2),
        f"ack0 {ack0} ack1 {ack1} rexmit0 {rex0} rexmit1 {rex1}",
    ]


def variants_sim(variant, sink):
    """tests/ns2/scripts/variants.tcl: the measured flow S->D and a Reno
    cross flow S2->D from t=6."""
    sim = db.Simulation()
    S, S2, R, D = sim.nodes(4)
    sim.link(S, R, "10Mb", "5ms")
    sim.link(S2, R, "10Mb", "12ms")
    sim.link(R, D, "1Mb", "40ms", queue_limit=8)
    sim.tcp(S, D, variant=variant, sink=sink, window=64, flow_id=1,
            trace_vars=("cwnd_", "ssthresh_", "ack_", "maxseq_", "srtt_", "rtt_", "rttvar_", "dupacks_",
                        "t_seqno_", "backoff_"))
    sim.tcp(S2, D, variant="reno", window=32, flow_id=2, start=6.0)
    return sim
