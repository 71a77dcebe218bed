"""Writes random/NAME.spec: random networks for spec.tcl and
crates/engine/tests/dcf.rs (2 to 6 nodes in a 500 m square, 1 to 5 CBR
flows between distinct nodes, RTS/CTS on or off, carrier sense at its
default or cut to 250 m, data at 1 or 11 Mb/s; with `moving`, 1 to 3
`setdest` movements too, at 10 to 300 m/s, anywhere in the 1000 m square;
with `new`, traced in use-newtrace's format; with `prop`, over free space
or log-normal shadowing instead of two-ray ground, written to
random-prop/).  Usage: python3 random.py COUNT SEED [moving] [new] [prop];
then sh regen.sh writes the fixtures."""
import random
import sys
from pathlib import Path

count, seed = int(sys.argv[1]), int(sys.argv[2])
moving = "moving" in sys.argv[3:]
newtrace = "new" in sys.argv[3:]
prop = "prop" in sys.argv[3:]
rng = random.Random(seed)
out = Path(__file__).resolve().parent / ("random-prop" if prop else "random")
out.mkdir(exist_ok=True)
for k in range(count):
    n = rng.randint(2, 6)
    nodes = [f"{rng.randint(0, 500)},{rng.randint(0, 500)}" for _ in range(n)]
    flows = []
    for _ in range(rng.randint(1, 5)):
        src, dst = rng.sample(range(n), 2)
        rate = rng.choice(["100kb", "300kb", "800kb", "2Mb"])
        start = round(1.0 + rng.random() * 0.01, 4)
        flows.append(f"{src}:{dst}:{rate}:{start}:{round(start + rng.uniform(0.2, 0.8), 4)}")
    spec = [
        "nodes " + " ".join(nodes),
        "flows " + " ".join(flows),
        f"rts {rng.choice([0, 3000])}",
        f"cs {rng.choice(['default', 'short'])}",
        f"rate {rng.choice([1, 11])}",
    ]
    if moving:
        moves = []
        for _ in range(rng.randint(1, 3)):
            node = rng.randrange(n)
            t = round(1.0 + rng.random() * 0.5, 4)
            moves.append(f"{node}:{t}:{rng.randint(1, 999)}:{rng.randint(1, 999)}:{rng.randint(10, 300)}")
        spec.append("moves " + " ".join(moves))
    if newtrace:
        spec.append("trace new")
    if prop:
        # shadowing: path-loss exponent, deviation (dB), predefined seed
        spec.append(rng.choice(["prop free", f"prop shadow {rng.choice([2.0, 2.7, 3.0])} "
                                f"{rng.choice([2.0, 4.0, 6.0])} {rng.randrange(64)}"]))
    prefix = ("m" if moving else "r") + ("n" if newtrace else "")
    (out / f"{prefix}{seed}-{k}.spec").write_text("\n".join(spec) + "\n")
