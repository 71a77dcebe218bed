"""Writes NAME.spec: random DSR networks for spec.tcl (3 to 8 nodes in an
800 m square, 1 to 3 CBR flows between distinct nodes starting in the
first 2 s, now and then a TCP transfer, 0 to 4 `setdest` movements at 5
to 100 m/s, some traced in use-newtrace's format, some with the MAC trace
on), the shape of tests/wireless/aodv/random.py's networks.  Usage:
python3 random.py COUNT SEED; then sh regen.sh writes the fixtures."""
import random
import sys
from pathlib import Path

count, seed = int(sys.argv[1]), int(sys.argv[2])
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
        flows.append(f"{src}:{dst}:{rate}:{start}:{round(start + rng.uniform(2, 12), 4)}")
    spec = ["nodes " + " ".join(nodes), "flows " + " ".join(flows), "area 800 800"]
    if rng.random() < 0.3:
        src, dst = rng.sample(range(n), 2)
        start = round(rng.random() * 2, 4)
        spec.append(f"tcp {src}:{dst}:{start}:{round(start + rng.uniform(2, 10), 4)}")
    moves = []
    for _ in range(rng.randint(0, 4)):
        node = rng.randrange(n)
        t = round(rng.random() * 10, 4)
        moves.append(f"{node}:{t}:{rng.randint(1, 799)}:{rng.randint(1, 799)}:{rng.randint(5, 100)}")
    if moves:
        spec.append("moves " + " ".join(moves))
    if rng.random() < 0.3:
        spec.append("trace new")
    if rng.random() < 0.3:
        spec.append("mac on")
    spec.append("end 15")
    (out / f"r{seed}-{k}.spec").write_text("\n".join(spec) + "\n")
