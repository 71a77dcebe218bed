"""Writes NAME.spec: random AODV networks for spec.tcl and
crates/engine/tests/aodv.rs (3 to 8 nodes in an 800 m square, 1 to 3
CBR flows between distinct nodes starting in the first 2 s, 0 to 4
`setdest` movements at 5 to 100 m/s, some traced in use-newtrace's format,
some with the MAC trace on; with `dsdv`, routed by DSDV for 60 s, so
that neighbours time out).  Usage: python3 random.py COUNT SEED [dsdv];
then sh regen.sh writes the fixtures."""
import random
import sys
from pathlib import Path

count, seed = int(sys.argv[1]), int(sys.argv[2])
dsdv = "dsdv" in sys.argv[3:]
rng = random.Random(seed)
out = Path(__file__).resolve().parent
for k in range(count):
    n = rng.randint(3, 8)
    nodes = [f"{rng.randint(1, 799)},{rng.randint(1, 799)}" for _ in range(n)]
    flows = []
    for _ in range(rng.randint(1, 3)):
        src, dst = rng.sample(range(n), 2)
        rate = rng.choice(["50kb", "100kb", "200kb", "400kb"])
        start = round(rng.random() * 2, 4)
        length = rng.uniform(20, 55) if dsdv else rng.uniform(2, 12)
        flows.append(f"{src}:{dst}:{rate}:{start}:{round(start + length, 4)}")
    spec = ["nodes " + " ".join(nodes), "flows " + " ".join(flows), "area 800 800"]
    moves = []
    for _ in range(rng.randint(0, 4)):
        node = rng.randrange(n)
        t = round(rng.random() * (40 if dsdv else 10), 4)
        moves.append(f"{node}:{t}:{rng.randint(1, 799)}:{rng.randint(1, 799)}:{rng.randint(5, 100)}")
    if moves:
        spec.append("moves " + " ".join(moves))
    if rng.random() < 0.3:
        spec.append("trace new")
    if rng.random() < 0.3:
        spec.append("mac on")
    if dsdv:
        spec.append("routing DSDV")
    spec.append("end 60" if dsdv else "end 15")
    (out / f"{'d' if dsdv else 'r'}{seed}-{k}.spec").write_text("\n".join(spec) + "\n")
