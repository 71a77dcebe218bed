"""Wireless scenarios that tests/api/test_wireless_builder.py builds both
ways, through the engine's builder (`WirelessSimulation.run`) and as the
`to_tcl()` script under `dumbbell run`; two of them also against the real
ns-2's trace, nam file and stdout (tests/api/wireless/builder_*;
`python3 tests/api/wireless_builder_scenarios.py` regenerates those with
/usr/bin/ns)."""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIX = HERE / "wireless"


def one_hop():
    """DumbAgent, two nodes in range, CBR for half a second."""
    import dumbbell as db

    w = db.WirelessSimulation(500, 500, routing="DumbAgent")
    a, b = w.node(10, 10), w.node(110, 10)
    w.cbr(a, b, start=0.5, stop=1)
    return w, 2


def busy():
    """DumbAgent with thresholds given in watts and a 5-packet interface
    queue: a SACK transfer beside a 400 kb/s CBR flow, the CBR's sink
    moving off at 50 m/s."""
    import dumbbell as db

    w = db.WirelessSimulation(400, 400, routing="DumbAgent", rx_threshold=1e-10, cs_threshold=1e-11, ifq_len=5)
    n = [w.node(100 + 50 * k, 200) for k in range(4)]
    w.tcp(n[0], n[1], variant="sack", sink="sack", start=0.1)
    w.cbr(n[2], n[3], rate="400kb", packet_size=1000, start=0.2)
    n[3].move(at=3, x=390, y=390, speed=50)
    return w, 10


def variants():
    """DSDV over a row of six nodes all moving (random waypoint with
    pauses): four TCP senders (Tahoe, Reno, Vegas, FACK) to the four kinds
    of sink, and CBR; 802.11 at 11 Mb/s with RTS/CTS before every frame, a
    lower transmit power, a 250 m range and a 400 m carrier-sense range."""
    import dumbbell as db

    w = db.WirelessSimulation(700, 500, routing="DSDV", seed=5, range=250, carrier_sense_range=400, tx_power=0.2,
                              basic_rate="2Mb", data_rate="11Mb", rts_threshold=0)
    n = [w.node(60 + 120 * k, 250 + (25 if k % 2 else -25)) for k in range(6)]
    w.random_waypoint(8, speed=(1, 8), pause=2, seed=1)
    for i, (v, sk) in enumerate([("tahoe", "ack-every"), ("reno", "delack"), ("vegas", "sack"),
                                 ("fack", "sack-delack")]):
        w.tcp(n[i], n[(i + 2) % 6], variant=v, sink=sk, window=12, start=1 + i * 0.7, stop=7.5)
    w.cbr(n[5], n[3], rate="32kb", start="1.5s")
    return w, 8


def tdma():
    """ns-2's TDMA MAC, AODV, TCP over four hops and CBR back, the middle
    node moving."""
    import dumbbell as db

    w = db.WirelessSimulation(800, 400, routing="AODV", seed=3, mac="tdma", slot_bytes=800, mac_trace=True)
    n = [w.node(80 + 150 * k, 200 + (30 if k % 2 else -30)) for k in range(5)]
    w.random_waypoint(20, nodes=n[2:3], speed=(1, 5), seed=9)
    w.tcp(n[0], n[4], variant="newreno", window=8, packet_size=512, start=3)
    w.cbr(n[3], n[1], rate="8kb", packet_size=256, start=4)
    return w, 20


def waypoint(nodes: int = 12, flows: int = 4, until: float = 20, seed: int = 1):
    """AODV among `nodes` nodes moving by random waypoint (1 to 10 m/s, 1 s
    pauses) over a 1000 m x 1000 m area, `flows` CBR flows of 4 packets/s
    between distinct pairs (the speed measurement's scenario at 50 nodes
    and 10 flows)."""
    import random

    import dumbbell as db

    w = db.WirelessSimulation(1000, 1000, routing="AODV", seed=seed)
    rng = random.Random(seed)
    n = [w.node(round(rng.uniform(1, 999), 2), round(rng.uniform(1, 999), 2)) for _ in range(nodes)]
    w.random_waypoint(until, speed=(1, 10), pause=1, seed=seed)
    pairs = rng.sample([(a, b) for a in range(nodes) for b in range(nodes) if a != b], flows)
    for k, (a, b) in enumerate(pairs):
        w.cbr(n[a], n[b], rate="16kb", packet_size=512, start=1 + 0.25 * k)
    return w, until


def dsr_row():
    """DSR over a row of five nodes 180 m apart (each reaches only its
    neighbours): CBR end to end from 1 s and a NewReno transfer back, the
    last node walking off at 15 m/s at 4 s and the middle one following,
    so that routes break, errors go back and new routes are found."""
    import dumbbell as db

    w = db.WirelessSimulation(1000, 400, routing="DSR", seed=4)
    n = [w.node(50 + 180 * k, 200) for k in range(5)]
    w.cbr(n[0], n[4], rate="32kb", packet_size=512, start=1)
    w.tcp(n[3], n[0], variant="newreno", window=8, packet_size=512, start=2)
    n[4].move(at=4, x=960, y=380, speed=15)
    n[2].move(at=6, x=560, y=390, speed=10)
    return w, 12


def dsr_waypoint():
    """DSR among eight nodes moving by random waypoint (2 to 15 m/s, 1 s
    pauses) on 700 m x 700 m, three CBR flows and a SACK transfer, 802.11
    at 2 Mb/s with RTS/CTS on frames over 256 bytes and the MAC traced."""
    import random

    import dumbbell as db

    w = db.WirelessSimulation(700, 700, routing="DSR", seed=11, data_rate="2Mb", rts_threshold=256,
                              mac_trace=True)
    rng = random.Random(11)
    n = [w.node(round(rng.uniform(1, 699), 2), round(rng.uniform(1, 699), 2)) for _ in range(8)]
    w.random_waypoint(15, speed=(2, 15), pause=1, seed=11)
    for k, (a, b) in enumerate([(0, 5), (6, 2), (3, 7)]):
        w.cbr(n[a], n[b], rate="16kb", packet_size=256, start=1 + 0.5 * k, stop=14)
    w.tcp(n[1], n[4], variant="sack", sink="sack", window=16, start=2.5)
    return w, 15


SCENARIOS = {"one_hop": one_hop, "busy": busy, "variants": variants, "tdma": tdma, "waypoint": waypoint,
             "dsr_row": dsr_row, "dsr_waypoint": dsr_waypoint}
#: The scenarios whose ns-2 output is stored (tests/api/wireless/builder_NAME.*).
NS2_FIXTURES = ("busy", "variants", "dsr_row", "dsr_waypoint")


def main() -> int:
    sys.path.insert(0, str(HERE.parents[1] / "python"))
    for name in sys.argv[1:] or NS2_FIXTURES:
        w, until = SCENARIOS[name]()
        script = w.to_tcl(until, trace_file="w.tr", nam_file="w.nam")
        with tempfile.TemporaryDirectory() as d:
            Path(d, "w.tcl").write_text(script)
            r = subprocess.run(["/usr/bin/ns", "w.tcl"], cwd=d, capture_output=True, timeout=600)
            assert r.returncode == 0, r.stderr
            for ext in ("tr", "nam"):
                data = Path(d, f"w.{ext}").read_bytes()
                (FIX / f"builder_{name}.{ext}.gz").write_bytes(gzip.compress(data, 9, mtime=0))
            (FIX / f"builder_{name}.out").write_bytes(r.stdout)
        print(f"{name}: done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
