"""Scale of the Python API: a dumbbell of N NewReno flows built with
`dumbbell.Simulation` and run for 0.5 simulated seconds.

Each source has its own 1 Gb/s access link to router R1; R1-R2 is the 1 Gb/s
bottleneck; each sink sits behind R2 on its own link.  Run it as

    /usr/bin/time -v .venv/bin/python benches/api_scale.py 10000

(whole process: start-up, imports, building, running, results).  It prints
the phases' times and a summary of the result."""

import sys
import time

t0 = time.perf_counter()
import dumbbell as db  # noqa: E402

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
until = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5

sim = db.Simulation()
r1, r2 = sim.nodes(2)
sim.link(r1, r2, "1Gb", "10ms", queue_limit=max(100, n // 10))
for i in range(n):
    s, d = sim.nodes(2)
    sim.link(s, r1, "1Gb", "5ms")
    sim.link(r2, d, "1Gb", "5ms")
    sim.tcp(s, d, variant="newreno", window=64, start=(i % 100) * 0.001)
t1 = time.perf_counter()
res = sim.run(until=until, monitor_queues=[(r1, r2)])
t2 = time.perf_counter()
q = res.queues.row(0, named=True)
print(f"{n} flows: described in {t1 - t0:.2f} s (imports included), built and run in {t2 - t1:.2f} s; "
      f"bottleneck departures {q['departures_pkts']}, drops {q['drops_pkts']}, "
      f"{int((res.flows['ack'] > 0).sum())} flows acked data, {int(res.flows['ack'].clip(0).sum())} packets in all")
