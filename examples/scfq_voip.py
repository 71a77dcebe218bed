#!/usr/bin/env python3
"""Seed 003's figure-1 topology (Misra & Ott, section IV.A-B) with
Dumbbell's SCFQ and VoIP call process: VoIP and best-effort TCP share a
10 Mb/s bottleneck through self-clocked fair queueing, VoIP in a DropTail
queue sized to a 20 ms drain time at weight 0.8, best effort in a RED
queue (min_th 25, max_th 75, p_max 0.2, buffer 150 packets) at weight 0.2;
20 TCP NewReno flows with round-trip times spread evenly over 25..250 ms;
VoIP calls arriving at `lambda` calls/s and holding 100 s on average
(lambda 2: 200 calls), each an exponential on/off source (1.008 s on,
1.587 s off, 120 B every 10 ms while on).

    .venv/bin/python examples/scfq_voip.py [--lam 2] [--duration 100] [--seed 1] [--no-ecn]

Prints VoIP and TCP goodput (Mb/s over the run) and the per-class
counters of the bottleneck.  The ECN-mod comparison of the paper builds on
`build()` here (examples/seed003_ecnmod.py).
"""

from __future__ import annotations

import argparse

from dumbbell import Simulation

BOTTLENECK = 10e6
BOTTLENECK_DELAY = 0.005      # s, one way
DST_DELAY = 0.001             # s, r2 -> receivers
VOIP_FID = 1000
VOIP_DRAIN = 0.020            # s: the VoIP queue's drain time (paper, IV.B)


def rtts(n: int = 20, lo: float = 0.025, hi: float = 0.250) -> list[float]:
    """Round-trip times spaced evenly over [lo, hi]."""
    return [lo + i * (hi - lo) / (n - 1) for i in range(n)]


def build(lam: float = 2.0, seed: int = 1, ecn: bool = True, flows: int = 20, pmax: float = 0.2,
          variant: str = "newreno", tcp_params: dict | None = None, red_params: dict | None = None,
          tcp_size: int | None = None, sink: str | None = None, voip_drain_rate: float = BOTTLENECK,
          voip_size: int = 120, stationary_start: bool = True, run: int = 0):
    """The scenario: returns (sim, tcp flows, the VoIP source, the bottleneck link).

    `seed` and `run` are `Simulation`'s: run R draws from substream R of
    the seed's streams (independent replications; docs/python-api.md).

    The choices the paper leaves open (seed003_ecnmod.py measures them):
    `tcp_size` is ns-2's ``packetSize_``, the TCP payload (default ns-2's
    1000: 1040-byte packets on the wire); `sink` the TCP sink ("ack-every",
    ns-2's default, or "delack"); `voip_drain_rate` the rate (b/s) at
    which the VoIP queue drains in 20 ms (the link's 10 Mb/s, or VoIP's
    weighted share, 8 Mb/s); `voip_size` the VoIP packet on the wire (80 B
    of voice and a 40 B header); `stationary_start` starts with the
    stationary number of calls up (else none).
    """
    sim = Simulation(seed=seed, run=run)
    r1, r2, dst = sim.node("r1"), sim.node("r2"), sim.node("dst")
    red = {"thresh": 25, "maxthresh": 75, "linterm": 1.0 / pmax, "q_weight": 0.002,
           "bytes": False, "setbit": ecn, **(red_params or {})}
    bott = sim.link(r1, r2, BOTTLENECK, BOTTLENECK_DELAY, queue="SCFQ", duplex=False, queue_params={
        "classes": [
            # VoIP: drains in 20 ms (at 10 Mb/s unless told)
            {"id": 0, "weight": 0.8, "queue": "DropTail", "limit_bytes": int(voip_drain_rate * VOIP_DRAIN / 8)},
            {"id": 1, "weight": 0.2, "queue": "RED", "limit": 150, "params": red},
        ],
        "classify": {VOIP_FID: 0},
        "default_class": 1,
    })
    sim.link(r2, r1, BOTTLENECK, BOTTLENECK_DELAY, duplex=False, queue_limit=1000)
    sim.link(r2, dst, "100Mb", DST_DELAY, queue_limit=1000)
    tcps = []
    for i, rtt in enumerate(rtts(flows)):
        s = sim.node(f"s{i}")
        access = rtt / 2 - BOTTLENECK_DELAY - DST_DELAY
        sim.link(s, r1, "100Mb", access, queue_limit=1000)
        tcps.append(sim.tcp(s, dst, variant=variant, window=10_000, flow_id=i, packet_size=tcp_size, sink=sink,
                            start=0.1 * i / flows, ecn=int(ecn), **(tcp_params or {})))
    v = sim.node("voip")
    sim.link(v, r1, "100Mb", "1ms", queue_limit=10_000)
    voip = sim.voip_calls(v, dst, lam=lam, mean_holding=100.0, flow_id=VOIP_FID, packet_size=voip_size,
                          stationary_start=stationary_start)
    return sim, tcps, voip, bott


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lam", type=float, default=2.0, help="VoIP call arrivals per second (mean calls = 100 * lam)")
    ap.add_argument("--duration", type=float, default=100.0, help="seconds simulated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-ecn", action="store_true", help="TCP without ECN, RED dropping instead of marking")
    a = ap.parse_args()
    sim, tcps, voip, bott = build(a.lam, a.seed, ecn=not a.no_ecn)
    res = sim.run(a.duration, monitor_queues=False)
    t = a.duration
    tcp_bytes = res.flows["bytes_received"].sum()
    vrow = res.sources.filter(res.sources["source"] == voip.id)
    voip_bytes = int(vrow["received_bytes"][0])
    v = res.voip[voip.id]
    print(f"lambda {a.lam:g} calls/s, {t:g} s, seed {a.seed}, ECN {'off' if a.no_ecn else 'on'}")
    print(f"VoIP calls: mean up {v['mean_calls']:.1f} (expected {100 * a.lam:g}), started {v['calls_started']}, "
          f"ended {v['calls_ended']}, packets sent {v['pkts_sent']}")
    print(f"VoIP goodput  {voip_bytes * 8 / t / 1e6:6.3f} Mb/s")
    print(f"TCP goodput   {tcp_bytes * 8 / t / 1e6:6.3f} Mb/s (20 flows)")
    print(f"total         {(voip_bytes + tcp_bytes) * 8 / t / 1e6:6.3f} Mb/s of {BOTTLENECK / 1e6:g}")
    for cid, st in res.scfq[(bott.src.id, bott.dst.id)].items():
        name = "VoIP" if cid == 0 else "best effort"
        print(f"class {cid} ({name}): arrivals {st['arrivals']} departures {st['departures']} "
              f"drops {st['drops']} (early {st['early_drops']}) marks {st['marks']}")


if __name__ == "__main__":
    main()
