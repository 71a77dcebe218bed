"""The analysis layer: what happens to a run's output.

* `results`: `Result`, a run as polars data frames (flows, queues, events,
  variable traces) with its metric and plot methods;
* `metrics`: throughput, goodput, fairness, delay, queue, drops and marks,
  loss responses, ... on a run or on any ns-2 trace (docs/metrics.md);
* `plot`: one-call plots (cwnd, sequence numbers, queue, goodput groups);
* `trace`, `nstrace`: ns-2 trace files read into frames, and Dordal's
  `nstrace` interface;
* `metrics_cli`: the `dumbbell metrics` and `dumbbell plot` commands.

Each is also reachable at its old path (`dumbbell.metrics` ...).
"""
