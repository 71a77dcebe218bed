#!/usr/bin/env python3
"""Why examples/l4s.py's rate balance departs from RFC 9332's model: each
flow's measured window against its response function, and the coupling
the two flows actually met.

    .venv/bin/python examples/l4s_balance.py [--rates 10,40,100] [--rtts 10,50,100]
        [--duration 120] [--seed 1] [--classic cubic|newreno] [--cubic-friendly 0|1|2]
        [--rtt-scaling 0..3] [--json]

Same scenario as examples/l4s.py (paced Prague on AccECN against a classic
flow through DualPI2 with Linux's defaults), second half of each run.  At
the bottleneck it measures p_L, the share of the L4S flow's packets marked
CE (step and coupled marks alike), and p_C, the share of the classic
flow's packets dropped; each flow's window W = goodput x (base RTT + its
queue delay) in 1500-byte packets.  RFC 9332 section 2.1's model assumes
W_L = 2 / p_L (a scalable flow), W_C = 1.22 / sqrt(p_C) (Reno) and
p_C = (p_L / k)^2, k = 2; so the measured ratio is exactly the model's
times three factors:

    ratio / model = f_L / f_C x 2 / k_eff,
    f_L = W_L p_L / 2,  f_C = W_C sqrt(p_C) / 1.22,  k_eff = p_L / sqrt(p_C).

f_L above 1: Prague holds more window than 2/p (a CWR episode lasts a
round and the next cut waits for the next mark: about 1 + 1/(p_L W_L),
more where the marks come in bursts, as when p' swings with a CUBIC
sawtooth); below 1: RTT independence at base RTTs under 25 ms.  f_C: the
classic flow against Reno's law (the default, Linux's CUBIC, holds
Reno's window at small BDPs and more at large ones; ``--cubic-friendly
0``, ns-3.37's CUBIC, without a Reno-friendly region, falls below it at
small BDPs).  k_eff
below 2: p' varies, and E[p'^2] > E[p']^2 gives the classic flow more
drops than the coupling's steady state; above 2: the step's own marks.
With ``--json`` one JSON object a line per point."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys

import polars as pl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import l4s  # noqa: E402

WIRE_BITS = 1500 * 8


def measure(rate_mbps: float, rtt_ms: float, seed: int = 1, duration: float = 30.0, classic: str = "cubic",
            cc_params: dict | None = None, cubic_friendly: int = 2, aqm: dict | None = None) -> dict:
    """One point: ratio, model and the three factors (see the module's text).
    `aqm`: DualPI2's parameters over examples/l4s.py's."""
    sim, fl, fc, bott = l4s.build(rate_mbps, rtt_ms, "prague", seed, duration, aqm, "full", cc_params, True,
                                  classic=classic, cubic_friendly=cubic_friendly)
    res = sim.run(duration, trace_packets=[bott], monitor_queues=False)
    w = (duration / 2, duration)
    gp = {r["flow"]: r["goodput_bps"] for r in res.goodput(w, link=bott, by="flow").iter_rows(named=True)}
    qd = {r["flow"]: (r["mean"] or 0.0) for r in res.queue_delay(bott, w, by="flow").iter_rows(named=True)}
    dm = {r["flow"]: r for r in res.drops_and_marks(w, link=bott, by="flow").iter_rows(named=True)}
    ev = res.events.filter((pl.col("time") >= w[0]) & (pl.col("time") <= w[1])
                           & (pl.col("from_node") == bott.src.id) & (pl.col("to_node") == bott.dst.id))
    count = {(r["event"], r["flow"]): r["n"] for r in ev.group_by("event", "flow").agg(pl.len().alias("n"))
             .iter_rows(named=True)}
    L, C = fl.id, fc.id
    p_l = dm[L]["marks"] / max(count.get(("-", L), 0), 1)
    p_c = dm[C]["drops"] / max(count.get(("+", C), 0), 1)
    r_l, r_c = rtt_ms / 1000 + qd.get(L, 0.0), rtt_ms / 1000 + qd.get(C, 0.0)
    w_l, w_c = gp.get(L, 0.0) * r_l / WIRE_BITS, gp.get(C, 0.0) * r_c / WIRE_BITS
    out = {"rate_mbps": rate_mbps, "rtt_ms": rtt_ms, "classic": classic, "cubic_friendly": cubic_friendly,
           "ratio": round(gp[L] / gp[C], 4) if gp.get(C) else None,
           "model_ratio": round(l4s.model_ratio(rtt_ms, qd.get(L, 0.0) * 1000, qd.get(C, 0.0) * 1000), 4),
           "p_l": round(p_l, 6), "p_c": round(p_c, 7), "w_l": round(w_l, 2), "w_c": round(w_c, 2),
           "f_l": None, "f_c": None, "k_eff": None}
    if p_l > 0 and p_c > 0:
        out["f_l"] = round(w_l * p_l / 2, 4)
        out["f_c"] = round(w_c * p_c ** 0.5 / 1.22, 4)
        out["k_eff"] = round(p_l / p_c ** 0.5, 4)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rates", default="10,40,100")
    ap.add_argument("--rtts", default="10,50,100")
    ap.add_argument("--duration", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--classic", choices=("cubic", "newreno"), default="cubic")
    ap.add_argument("--cubic-friendly", type=int, choices=(0, 1, 2), default=2,
                    help="the classic CUBIC as in examples/l4s.py: 2 Linux's (default), 1 RFC 9438's rule, "
                         "0 ns-3.37's")
    ap.add_argument("--rtt-scaling", type=int, choices=(0, 1, 2, 3), default=1,
                    help="Prague's RTT independence heuristic (tcp_prague's default 1)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rates, rtts = l4s._floats(a.rates, "--rates"), l4s._floats(a.rtts, "--rtts")
    if any(r <= 4 for r in rtts):
        raise SystemExit(f"l4s_balance.py: --rtts must be above 4 ms, got {a.rtts!r}")
    if a.duration <= 1:
        raise SystemExit(f"l4s_balance.py: --duration must be above 1 s, got {a.duration}")
    cc = {"rtt_scaling": a.rtt_scaling}
    if not a.json:
        print(f"{'rate':>5} {'RTT':>4} {'ratio':>6} {'model':>6} {'r/m':>5} {'f_L':>5} {'f_C':>5} {'k_eff':>6} "
              f"{'p_L W_L':>8}")
    for rate in rates:
        for rtt in rtts:
            x = measure(rate, rtt, a.seed, a.duration, a.classic, cc, a.cubic_friendly)
            if a.json:
                print(json.dumps(x), flush=True)
            elif x["f_l"] is None or x["ratio"] is None:
                print(f"{rate:>5g} {rtt:>4g}  (no marks or no drops in the window)", flush=True)
            else:
                print(f"{rate:>5g} {rtt:>4g} {x['ratio']:>6.2f} {x['model_ratio']:>6.2f} "
                      f"{x['ratio'] / x['model_ratio']:>5.2f} {x['f_l']:>5.2f} {x['f_c']:>5.2f} {x['k_eff']:>6.2f} "
                      f"{x['p_l'] * x['w_l']:>8.1f}", flush=True)


if __name__ == "__main__":
    # `... --json | head`: end quietly when the reader goes, as Unix tools do
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
