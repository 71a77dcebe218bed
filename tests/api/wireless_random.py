#!/usr/bin/env python3
"""Random WirelessSimulation scenarios against the real ns-2: each
scenario's `to_tcl()` under /usr/bin/ns and its `run()` must give the same
trace.  Exercises the API's keywords (routing: AODV, DSDV, DSR, DumbAgent; data and basic rates, RTS
threshold, retry limits, range or thresholds, carrier-sense range,
transmit power, interface queue, MAC trace, seed) with TCP and CBR between
nodes moving by random waypoint.

    .venv/bin/python tests/api/wireless_random.py [-n 30] [-s 1]

Prints one line per scenario and exits 1 if any differ."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import dumbbell as db


def scenario(rng: random.Random):
    kw = {"routing": rng.choice(["AODV", "DSDV", "DumbAgent", "DSR", "AODV", "DSR"]), "seed": rng.randint(1, 10_000)}
    if rng.random() < 0.5:
        kw["data_rate"] = rng.choice(["1Mb", "2Mb", "5.5Mb", "11Mb"])
    if rng.random() < 0.3:
        kw["basic_rate"] = rng.choice(["1Mb", "2Mb"])
    if rng.random() < 0.5:
        kw["rts_threshold"] = rng.choice([0, 256, 600, 3000])
    if rng.random() < 0.3:
        kw["short_retry_limit"], kw["long_retry_limit"] = rng.randint(1, 9), rng.randint(1, 6)
    r = rng.random()
    if r < 0.3:
        kw["range"] = rng.choice([150, 200, 300, 400])
    elif r < 0.4:
        kw["rx_threshold"] = rng.choice([1e-10, 3.652e-10, 2e-9])
    if rng.random() < 0.2:
        kw["tx_power"] = rng.choice([0.1, 0.28183815, 0.5])
    if rng.random() < 0.2 and "rx_threshold" not in kw:
        kw["carrier_sense_range"] = rng.choice([450, 550, 700])
    kw["ifq_len"] = rng.choice([5, 20, 50])
    if kw["routing"] == "DSR":
        kw["ifq_len"] = 50      # (DSR's CMUPriQueue holds 50 a band whatever -ifqLen says)
    kw["mac_trace"] = rng.random() < 0.3
    side = rng.choice([400, 600, 800])
    try:
        w = db.WirelessSimulation(side, side, **kw)
    except ValueError:      # a carrier-sense range below the radio range
        kw.pop("carrier_sense_range", None)
        w = db.WirelessSimulation(side, side, **kw)
    n = [w.node(rng.uniform(1, side - 1), rng.uniform(1, side - 1)) for _ in range(rng.randint(3, 8))]
    until = rng.choice([10, 15, 20])
    w.random_waypoint(until, nodes=rng.sample(n, rng.randint(0, len(n))), speed=(1, rng.choice([5, 20])),
                      pause=rng.choice([0, 1, 3]), seed=rng.randint(0, 1000))
    for _ in range(rng.randint(1, 3)):
        a, b = rng.sample(n, 2)
        if rng.random() < 0.6:
            w.tcp(a, b, variant=rng.choice(["tahoe", "reno", "newreno", "sack"]),
                  sink=rng.choice(["ack-every", "delack"]), window=rng.choice([4, 16, 32]),
                  packet_size=rng.choice([512, 1000]), start=round(rng.uniform(0, 3), 3))
        else:
            w.cbr(a, b, rate=rng.choice(["16kb", "64kb", "200kb"]), packet_size=rng.choice([128, 512]),
                  start=round(rng.uniform(0, 3), 3), stop=until - 1)
    return w, until, kw


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("-s", type=int, default=1)
    ap.add_argument("--ns", default="/usr/bin/ns")
    a = ap.parse_args()
    rng = random.Random(a.s)
    bad = 0
    for k in range(a.n):
        w, until, kw = scenario(rng)
        with tempfile.TemporaryDirectory() as d:
            res = w.run(until=until, trace_file=Path(d, "api.tr"))
            Path(d, "s.tcl").write_text(w.to_tcl(until, trace_file="ns.tr"))
            r = subprocess.run([a.ns, "s.tcl"], cwd=d, capture_output=True, timeout=600)
            same = r.returncode == 0 and Path(d, "ns.tr").read_bytes() == Path(d, "api.tr").read_bytes()
        bad += not same
        got = int(res.flows["received"].sum())
        print(f"{a.s}-{k}: {'same' if same else 'DIFFERENT'} ({len(res.trace)} events, {got} delivered) {kw}",
              flush=True)
    print(f"{a.n - bad} of {a.n} identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
