"""Writes NAME.spec: denser random DSR networks for spec.tcl than
random.py's (6 to 14 nodes in a 600, 800 or 1000 m square, 3 to 7 CBR
flows of 5 to 30 s, TCP transfers half the time, 6 to 20 `setdest`
movements at 5 to 60 m/s, 60 s), which reach DSR's flow-state errors.
flowerr.spec is `python3 dense.py 24 8 DIR`'s x8-10 cut at 7 s (`end 7`).
Usage: python3 dense.py COUNT SEED DIR."""
import random, sys
from pathlib import Path
count, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
out = Path(sys.argv[3])
for k in range(count):
    n = rng.randint(6, 14)
    side = rng.choice([600, 800, 1000])
    nodes = [f"{rng.randint(1, side-1)},{rng.randint(1, side-1)}" for _ in range(n)]
    flows = []
    for _ in range(rng.randint(3, 7)):
        src, dst = rng.sample(range(n), 2)
        rate = rng.choice(["50kb", "100kb", "200kb", "400kb"])
        start = round(rng.random() * 3, 4)
        flows.append(f"{src}:{dst}:{rate}:{start}:{round(start + rng.uniform(5, 30), 4)}")
    spec = ["nodes " + " ".join(nodes), "flows " + " ".join(flows), f"area {side} {side}"]
    if rng.random() < 0.5:
        tl = []
        for _ in range(rng.randint(1, 2)):
            src, dst = rng.sample(range(n), 2)
            start = round(rng.random() * 3, 4)
            tl.append(f"{src}:{dst}:{start}:{round(start + rng.uniform(5, 30), 4)}")
        spec.append("tcp " + " ".join(tl))
    moves = []
    for _ in range(rng.randint(6, 20)):
        node = rng.randrange(n)
        t = round(rng.random() * 30, 4)
        moves.append(f"{node}:{t}:{rng.randint(1, side-1)}:{rng.randint(1, side-1)}:{rng.randint(5, 60)}")
    spec.append("moves " + " ".join(moves))
    if rng.random() < 0.3: spec.append("trace new")
    if rng.random() < 0.3: spec.append("mac on")
    spec.append("end 60")
    (out / f"x{seed}-{k}.spec").write_text("\n".join(spec) + "\n")
