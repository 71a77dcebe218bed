"""Writes random wireless networks with TCP for spec.tcl: 3 to 9 nodes in
a square of 400 to 900 m, 1 to 3 TCP transfers (Tahoe, Reno, NewReno or
SACK, with an ACK-every or delayed-ACK sink, windows of 4 to 64 packets,
segments of 256 to 1460 bytes) and 0 to 2 CBR flows between distinct
nodes, 0 to 5 `setdest` movements at 2 to 60 m/s (links breaking and
routes repaired under the transfers), routed by AODV or DSDV, either
trace format, MAC trace on or off, RTS/CTS on or off, data at 1 or 2
Mb/s.  Usage: python3 gen.py COUNT SEED DIR [--stress]; writes
DIR/tSEED-K.spec (sSEED-K.spec with --stress: see spec())."""
import random
import sys
from pathlib import Path

SENDERS = [("TCP", "TCPSink"), ("TCP/Reno", "TCPSink"), ("TCP/Newreno", "TCPSink"),
           ("TCP/Newreno", "TCPSink/DelAck"), ("TCP/Sack1", "TCPSink/Sack1"),
           ("TCP/Sack1", "TCPSink/Sack1/DelAck"), ("TCP/Reno", "TCPSink/DelAck")]


def spec(rng: random.Random, stress: bool = False) -> str:
    """One network; `stress`: 10 to 16 nodes in 500 to 700 m, 3 to 6
    transfers, faster moves (more contention, collisions, broken links)."""
    n = rng.randint(10, 16) if stress else rng.randint(3, 9)
    side = rng.choice([500, 700]) if stress else rng.choice([400, 600, 900])
    dsdv = rng.random() < 0.4
    end = rng.choice([30, 40]) if dsdv else rng.choice([10, 15, 20])
    nodes = [f"{rng.randint(1, side - 1)},{rng.randint(1, side - 1)}" for _ in range(n)]
    tcp = []
    for _ in range(rng.randint(3, 6) if stress else rng.randint(1, 3)):
        src, dst = rng.sample(range(n), 2)
        cls, sink = rng.choice(SENDERS)
        start = round(rng.random() * (3 if dsdv else 2), 4)
        stop = round(rng.uniform(start + 2, end), 4)
        tcp.append(f"{src}:{dst}:{cls}:{sink}:{start}:{stop}:{rng.choice([4, 8, 20, 32, 64])}:"
                   f"{rng.choice([256, 512, 1000, 1460])}")
    lines = ["nodes " + " ".join(nodes), "tcp " + " ".join(tcp), f"area {side} {side}"]
    flows = []
    for _ in range(rng.choice([0, 0, 1, 2])):
        src, dst = rng.sample(range(n), 2)
        start = round(rng.random() * 3, 4)
        flows.append(f"{src}:{dst}:{rng.choice(['32kb', '64kb', '128kb'])}:{start}:"
                     f"{round(rng.uniform(start + 1, end), 4)}")
    if flows:
        lines.append("flows " + " ".join(flows))
    moves = [f"{rng.randrange(n)}:{round(rng.random() * end * 0.8, 4)}:{rng.randint(1, side - 1)}:"
             f"{rng.randint(1, side - 1)}:{rng.randint(2, 60)}" for _ in range(rng.randint(0, 12 if stress else 5))]
    if moves:
        lines.append("moves " + " ".join(moves))
    if rng.random() < 0.3:
        lines.append("trace new")
    if rng.random() < 0.25:
        lines.append("mac on")
    if rng.random() < 0.3:
        lines.append("rts 3000")
    if rng.random() < 0.3:
        lines.append("rate 2Mb")
    lines.append("routing DSDV" if dsdv else "routing AODV")
    lines.append(f"end {end}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    count, seed, out = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    stress = "--stress" in sys.argv[4:]
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        (out / f"{'s' if stress else 't'}{seed}-{k}.spec").write_text(spec(rng, stress))
