"""The wireless scenarios tests/api/test_wireless_api.py checks against
ns-2 (their scripts and ns-2's traces are in tests/api/wireless/;
`python3 tests/api/wireless_scenarios.py` regenerates them with /usr/bin/ns)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIX = HERE / "wireless"
UNTIL = {"mixed_aodv": 20, "mixed_dsdv": 30}


def mixed(routing: str):
    """TCP and CBR between moving nodes: 802.11 at 2 Mb/s without RTS/CTS,
    short retry limits, a 300 m radio range, a short interface queue, the
    MAC trace on, random waypoint for three of the nodes, a seed."""
    import dumbbell as db

    w = db.WirelessSimulation(800, 600, routing=routing, seed=7, data_rate="2Mb", rts_threshold=3000,
                              short_retry_limit=5, long_retry_limit=3, range=300, ifq_len=20, mac_trace=True)
    n = [w.node(x, y) for x, y in ((50, 50), (250, 120), (450, 200), (650, 300), (400, 500), (150, 400))]
    w.random_waypoint(UNTIL[f"mixed_{routing.lower()}"], nodes=n[3:], speed=(5, 25), pause=1.0, seed=3)
    n[1].move(at=6.5, x=300, y=350, speed=15)
    w.tcp(n[0], n[3], variant="newreno", sink="delack", window=16, packet_size=512, start=1.0)
    w.tcp(n[4], n[1], variant="sack", sink="sack", window=8, packet_size=1000, start=2.5, stop=15)
    w.cbr(n[5], n[2], rate="48kb", packet_size=256, start=0.5, stop=12)
    return w


def main() -> int:
    sys.path.insert(0, str(HERE.parents[1] / "python"))
    FIX.mkdir(exist_ok=True)
    for name, until in UNTIL.items():
        w = mixed(name.split("_")[1].upper())
        script = w.to_tcl(until, trace_file=f"{name}.tr")
        (FIX / f"{name}.tcl").write_text(script)
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(FIX / f"{name}.tcl", d)
            r = subprocess.run(["/usr/bin/ns", f"{name}.tcl"], cwd=d, capture_output=True, timeout=600)
            assert r.returncode == 0, r.stderr
            data = Path(d, f"{name}.tr").read_bytes()
            (FIX / f"{name}.tr.gz").write_bytes(gzip.compress(data, 9, mtime=0))
            (FIX / f"{name}.out").write_bytes(r.stdout)
            print(f"{name}: {len(data.splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
