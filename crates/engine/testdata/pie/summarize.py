#!/usr/bin/env python3
"""What each PIE oracle log exercises (written to SUMMARY.md by run.sh)."""
import sys
from collections import Counter

for path in sys.argv[1:]:
    ev = Counter()
    probs = []
    first_drop = None
    states = Counter()
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.split()
        ev[f[1]] += 1
        if f[1] == "update":
            probs.append(float(f[2]))
        if f[1].startswith("drop(unforced)") and first_drop is None:
            first_drop = int(f[0]) / 1e9
        if "marked=1" in f:
            ev["marked"] += 1
        for kv in f[3:]:
            if kv.startswith(("burst_state=", "active=")):
                states[kv] += 1
    name = path.rsplit("/", 1)[-1]
    print(f"#### {name}\n")
    print(f"- calls: enqueue {ev['enqueue'] + ev['drop(forced)'] + ev['drop(unforced)']}, "
          f"dequeue {ev['dequeue'] + ev['dequeue_empty']} ({ev['dequeue_empty']} empty), updates {ev['update']}, "
          f"draws {ev['draw']}")
    print(f"- verdicts: queued {ev['enqueue'] - ev['marked']}, marked {ev['marked']}, "
          f"forced drops {ev['drop(forced)']}, early drops {ev['drop(unforced)']}")
    print(f"- drop probability: max {max(probs):.6f}, updates with p > 0.1: {sum(p > 0.1 for p in probs)}, "
          f"first early drop at {first_drop} s")
    print(f"- burst and activity states logged (a value is printed when it changes): "
          f"{', '.join(f'{k} x{v}' for k, v in sorted(states.items()))}\n")
