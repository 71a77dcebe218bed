#!/usr/bin/env python3
"""Seed 003 (Misra & Ott, "Jointly coordinating ECN and TCP for rapid
adaptation to varying bandwidth", 2001): ECN-mod against ECN NewReno when
VoIP calls take a varying share of a 10 Mb/s link, Figures 2-4.

The scenario is the paper's figure 1 (examples/scfq_voip.py builds it):
SCFQ at the bottleneck, VoIP in a DropTail queue of 20 ms at weight 0.8,
best effort in RED (min_th 25, max_th 75, p_max, 150 packets) at weight
0.2; 20 TCP flows with round-trip times spread over 25..250 ms, all
ECN NewReno or all ECN-mod (alpha 0, beta 1, c2 = 1/8, c1 = 1/4, 1/8 or
1/16); VoIP calls arriving at lambda per second, holding 100 s.

* Figure 2: TCP and total goodput against lambda (p_max 0.2); RED keeps
  its uniform drop-biasing and ECN-mod packets are marked with p_mod of
  the drop rate it gives (the paper's footnote 1; `--pmod-input 2p` feeds
  p_mod 2 p(Q), the footnote's words, instead).
* Figure 3: the best-effort marking rate and the coefficient of
  variation of the best-effort queue, same runs.
* Figure 4: TCP and total goodput against p_max from 0.05 to 1 at
  lambda 2, RED with geometric drop-biasing (eq. 11 unchanged).

    .venv/bin/python examples/seed003_ecnmod.py [--quick] [--full] [--json] [--plot DIR]
                     [--duration S] [--seeds N] [--jobs N] [READING OPTIONS]
    .venv/bin/python examples/seed003_ecnmod.py --sensitivity [--rows N] [--duration S] [--seeds N]

Each point is the mean over `--seeds` runs, independent replications
(run r is substream r - 1 of seed 1, `SEED`: call arrivals, holding and
talk spurts); the table gives a 95% confidence interval over them.  The
VoIP calls draw from a stream of their own, so a replication gives every
protocol the same calls: the protocols' differences at
one point are paired, far tighter than the intervals (which are mostly the
calls' variation).  Figure 4's claim is a level, which follows the
calls' mean over a run: it gets 32 runs (FIG4_SEEDS) where Figures 2-3 get
4, all of 500 s (DURATION), and each of its points is also given at the
calls' expected mean, 200 (the runs' goodput regressed on their calls).
The defaults (64 + 320 runs) took 3 min 41 s on two otherwise idle
cores (9 min with load 3-7 from other jobs; docs/seed003.md).

What the example does where the paper is silent (each an option;
`--sensitivity` prints what each reading changes, docs/seed003.md):
RED marks every ECN-capable packet it picks, whatever the probability
(`--ecn-rule always`: the paper's losses are "practically zero" with
p_max up to 1; ns-2 2.35's mark_p_ rule, dropping once p reaches 0.1,
came in 2002); RED's curve above max_th is ns-2's gentle one (the paper
follows Floyd's gentle-RED recommendations; its eq. 10 holds p_max
there); q_weight 0.002 and mean_pktsize 500 (ns-2's defaults in 2001),
wait_ on; the calls start at their stationary number; TCP packetSize_
is ns-2's 1000 B (1040 B on the wire), one ACK a packet; the VoIP queue
holds 20 ms at the link's 10 Mb/s; goodput counts the bytes the sinks
received (headers included).  `--json` prints one JSON object a line:
{"figure": "2"|"3"|"4", "proto": ..., "lambda": L, "pmax": P,
 "tcp_goodput_mbps": x, "total_goodput_mbps": y, "mark_rate": m, "queue_cov": c}
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import math
import os
import signal
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scfq_voip import build  # noqa: E402

PROTOS = {
    "ecn-newreno": None,
    "ecn-mod-0.25": 0.25,
    "ecn-mod-0.125": 0.125,
    "ecn-mod-0.0625": 0.0625,
}
C2 = 0.125

#: The defaults: seconds per run, seeds per point of Figures 2-3 and of
#: Figure 4.  Figures 2-3's claims compare protocols on the same calls
#: (paired by seed), which 4 seeds settle; Figure 4's claim is a level,
#: the calls' time-average, whose standard deviation over a run of T
#: seconds is sqrt(2 m tau^2 / T^2 (T / tau - 1 + e^(-T / tau))) calls
#: (M/M/inf, m = 200, tau = 100 s: 8.0 at 500 s, 6.0 at 1000 s) at
#: 0.029 Mb/s each.  For the same simulated time, more shorter runs give
#: the narrower interval: 32 runs of 500 s, +-0.08 Mb/s (3%) expected,
#: against +-0.09 for 16 of 1000 s and +-0.28 (10%) for 4 of 1000 s
#: (docs/seed003.md).
DURATION, SEEDS, FIG4_SEEDS = 500.0, 4, 32

#: The calls' mean holding time (s) in scfq_voip.build: lambda * HOLDING
#: calls are up on average.
HOLDING = 100.0

#: The paper's figures quoted in its text (Fig. 4, TCP goodput in Mb/s at
#: p_max 0.05 and 1, lambda 2).
PAPER_FIG4 = {"ecn-mod-0.0625": (2.77, 2.70), "ecn-newreno": (2.765, 2.64)}


#: What the paper leaves open, or states loosely, as this example reads it
#: (each an option below; docs/seed003.md measures what each changes):
#: TCP's packetSize_ (payload bytes; 40 more on the wire), its sink, the
#: rate the VoIP queue's 20 ms are counted at (Mb/s), VoIP's packet on the
#: wire, goodput in wire or payload bytes, seconds discarded at the start,
#: calls starting from none instead of their stationary number, what RED
#: does with an ECN-capable packet it picks (see ECN_RULES), RED's
#: mean_pktsize_, q_weight_ and wait_, and the rate RED feeds p_mod with
#: uniform drop-biasing (see PMOD_INPUTS).
DEFAULTS = {"tcp_size": 1000, "sink": "ack-every", "voip_drain": 10.0, "voip_size": 120, "goodput": "wire",
            "warmup": 0.0, "empty_start": False, "ecn_rule": "always", "mean_pktsize": 500, "q_weight": 0.002,
            "wait": True, "pmod_input": "spread"}

#: RED's choice between marking and dropping an ECN-capable packet it has
#: picked.  "always": mark it (``use_mark_p_ false``): the paper's
#: "marking probability can be as high as 1" with loss rates "practically
#: zero" (IV.B-C).  "mark_p": ns-2 2.35's default (since 2002, after the
#: paper): drop it once the curve's probability reaches mark_p_ = 0.1.
#: "max_th": ns-2's rule when the paper was written: mark only while the
#: average is below max_th (``mark_p_`` = p_max).
ECN_RULES = ("always", "mark_p", "max_th")

#: What eq. 11's p_mod takes as NewReno's drop rate under RED's uniform
#: drop-biasing (Figures 2-3).  "spread": the rate ns-2's spreading really
#: gives at the curve's p, 2p / (3 - p) with wait_ (2p without).  "2p":
#: footnote 1's words, "an average dropping rate of 2 p(Q)", while the
#: spreading keeps wait_ (RED's pmod_2p_).  Figure 4's geometric
#: drop-biasing feeds p(Q) either way.
PMOD_INPUTS = ("spread", "2p")


def red_params(reading: dict, pmax: float) -> dict:
    """RED's parameters for a reading, beside those build() sets."""
    red = {"mean_pktsize": int(reading["mean_pktsize"]), "q_weight": float(reading["q_weight"]),
           "wait": bool(reading["wait"])}
    rule = reading["ecn_rule"]
    if rule == "always":
        red["use_mark_p"] = False
    elif rule == "max_th":
        red.update({"use_mark_p": True, "mark_p": pmax})
    elif rule != "mark_p":
        raise ValueError(f"ecn_rule must be one of {ECN_RULES}, got {rule!r}")
    if reading["pmod_input"] not in PMOD_INPUTS:
        raise ValueError(f"pmod_input must be one of {PMOD_INPUTS}, got {reading['pmod_input']!r}")
    red["pmod_2p"] = reading["pmod_input"] == "2p"
    return red


#: The seed every replication shares: replication r (1, 2, ...) is its
#: substream r - 1 (`Simulation(seed=SEED, run=r - 1)`).  Seeds 1..N would
#: not be independent: ns-2 seeds all six words of MRG32k3a with the seed,
#: so seed k s draws frac(k u) where seed s draws u (docs/python-api.md,
#: "Seeds and independent replications").  Replication 1 is seed 1's run 0.
SEED = 1


def totals(proto: str, lam: float, pmax: float, geometric: bool, until: float, rep: int, reading: dict) -> dict:
    """One simulation (replication `rep`, from 1) from 0 to `until`: the
    counters the figures are made of."""
    c1 = PROTOS[proto]
    red = {"geometric": geometric, **red_params(reading, pmax)}
    if c1 is None:
        variant, tcp_params = "newreno", {}
    else:
        variant, tcp_params = "ecn-mod", {"ecnmod_c1": c1, "ecnmod_c2": C2}
        red.update({"pmod": True, "pmod_c1": c1, "pmod_c2": C2})
    sim, tcps, voip, bott = build(lam=lam, seed=SEED, run=rep - 1, ecn=True, pmax=pmax, variant=variant,
                                  tcp_params=tcp_params, red_params=red, tcp_size=int(reading["tcp_size"]),
                                  sink=reading["sink"], voip_drain_rate=reading["voip_drain"] * 1e6,
                                  voip_size=int(reading["voip_size"]), stationary_start=not reading["empty_start"])
    res = sim.run(until, monitor_queues=False)
    tcp_wire = int(res.flows["bytes_received"].sum())
    vrow = res.sources.filter(res.sources["source"] == voip.id)
    be = res.scfq[(bott.src.id, bott.dst.id)][1]
    m, cov = be["mean_queue"], be["queue_cov"]
    return {"tcp_wire": tcp_wire, "tcp_payload": tcp_wire * reading["tcp_size"] / (reading["tcp_size"] + 40),
            "voip_wire": int(vrow["received_bytes"][0]),
            "voip_payload": int(vrow["received_pkts"][0]) * max(int(reading["voip_size"]) - 40, 0),
            "marks": be["marks"], "arrivals": be["arrivals"], "drops": be["drops"],
            "call_seconds": res.voip[voip.id]["mean_calls"] * until,
            # time integrals of the queue and of its square
            "q1": m * until, "q2": m * m * (1.0 + cov * cov) * until}


def one_run(proto: str, lam: float, pmax: float, geometric: bool, duration: float, rep: int,
            reading: dict | None = None) -> dict:
    """One simulation, replication `rep` (from 1); the figures' metrics over
    `duration` seconds after the warm-up (with a warm-up, the counters at
    its end come from a second run of the same replication stopped there:
    the runs are deterministic)."""
    reading = {**DEFAULTS, **(reading or {})}
    warm = float(reading["warmup"])
    end = totals(proto, lam, pmax, geometric, warm + duration, rep, reading)
    if warm > 0:
        start = totals(proto, lam, pmax, geometric, warm, rep, reading)
        end = {k: end[k] - start[k] for k in end}
    kind = reading["goodput"]
    if kind not in ("wire", "payload"):
        raise ValueError(f"goodput must be 'wire' or 'payload', got {kind!r}")
    tcp, voip = end[f"tcp_{kind}"], end[f"voip_{kind}"]
    mean = end["q1"] / duration
    var = max(end["q2"] / duration - mean * mean, 0.0)
    return {
        "tcp": tcp * 8 / duration / 1e6,
        "total": (tcp + voip) * 8 / duration / 1e6,
        "voip": voip * 8 / duration / 1e6,
        "mark_rate": end["marks"] / max(end["arrivals"], 1),
        "drop_rate": end["drops"] / max(end["arrivals"], 1),
        "queue_cov": math.sqrt(var) / mean if mean > 0 else 0.0,
        "calls": end["call_seconds"] / duration,
    }


#: The readings docs/seed003.md compares (`--sensitivity`): a name and
#: what it changes from DEFAULTS.
SENSITIVITY = [
    ("defaults", {}),
    ("ecn-rule mark_p (ns-2 2.35)", {"ecn_rule": "mark_p"}),
    ("ecn-rule max_th (ns-2 2001)", {"ecn_rule": "max_th"}),
    ("TCP 500 B on the wire", {"tcp_size": 460}),
    ("TCP 576 B on the wire", {"tcp_size": 536}),
    ("TCP 1000 B on the wire", {"tcp_size": 960}),
    ("TCP 1500 B on the wire", {"tcp_size": 1460}),
    ("delayed ACKs", {"sink": "delack"}),
    ("VoIP queue 20 ms at 8 Mb/s", {"voip_drain": 8.0}),
    ("VoIP 80 B on the wire", {"voip_size": 80}),
    ("goodput in payload bytes", {"goodput": "payload"}),
    ("no call at t = 0", {"empty_start": True}),
    ("no call at t = 0, 200 s warm-up", {"empty_start": True, "warmup": 200.0}),
    ("RED mean_pktsize 1000", {"mean_pktsize": 1000}),
    ("RED q_weight auto (ns-2 2.35)", {"q_weight": -1.0}),
    ("RED wait_ false", {"wait": False}),
    ("p_mod fed 2 p(Q) (footnote 1)", {"pmod_input": "2p"}),
]

#: The points the unreproduced claims rest on: Fig. 4's endpoints (lambda
#: 2) for ECN NewReno and c1 = 1/16, and Fig. 2 at lambda 2 for ECN
#: NewReno and c1 = 1/4.
SENSITIVITY_POINTS = [("4", "ecn-newreno", 2.0, 0.05, True), ("4", "ecn-newreno", 2.0, 1.0, True),
                      ("4", "ecn-mod-0.0625", 2.0, 0.05, True), ("4", "ecn-mod-0.0625", 2.0, 1.0, True),
                      ("2", "ecn-newreno", 2.0, 0.2, False), ("2", "ecn-mod-0.25", 2.0, 0.2, False)]


def sensitivity(duration: float, seeds: int, jobs: int, base: dict, json_out: bool, rows: int) -> None:
    """Each reading of SENSITIVITY at SENSITIVITY_POINTS over the same
    seeds (so the same calls): the Fig. 4 endpoints (mean +- 95% CI over
    seeds), the TCP goodput each protocol loses from p_max 0.05 to 1, c1 =
    1/4 minus ECN NewReno in Fig. 2 at lambda 2 (both paired by seed) and
    the best-effort drop rate at p_max 1."""
    table = SENSITIVITY[:rows]
    jobs_ = [(name, p, s) for name, _ in table for p in SENSITIVITY_POINTS for s in range(1, seeds + 1)]
    readings = {name: {**base, **over} for name, over in table}
    got: dict = {}
    with cf.ProcessPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(one_run, p[1], p[2], p[3], p[4], duration, s, readings[name]): (name, p, s)
                for name, p, s in jobs_}
        for f in cf.as_completed(futs):
            name, p, s = futs[f]
            got[(name, p, s)] = f.result()
            if json_out:
                print(json.dumps({"reading": name, "figure": p[0], "proto": p[1], "lambda": p[2], "pmax": p[3],
                                  "replication": s, **{k: round(v, 5) for k, v in f.result().items()}}), flush=True)
    if json_out:
        return
    print(f"Sensitivity of the unreproduced claims: {duration:g} s runs, replications 1..{seeds} (the same calls in every "
          f"row), mean +- 95% CI; TCP goodput in Mb/s\n")
    nr05, nr1, m05, m1, nrf2, q = SENSITIVITY_POINTS
    print(f"{'reading':32} {'NewReno .05':>13} {'NewReno 1':>13} {'c1=1/16 .05':>13} {'c1=1/16 1':>13} "
          f"{'NR loses':>13} {'1/16 loses':>13} {'1/4 - NR':>13} {'drops NR,1/16':>14}")
    print(f"{'paper':32} {2.765:13.3f} {2.64:13.3f} {2.77:13.3f} {2.70:13.3f} {0.125:13.3f} {0.07:13.3f} "
          f"{'< 0':>13}")
    for name, _ in table:
        def v(p, key="tcp"):
            return [got[(name, p, s)][key] for s in range(1, seeds + 1)]

        def cell(xs):
            return f"{statistics.fmean(xs):6.3f}+-{ci95(xs):5.3f}"

        diff = lambda a, b: [x - y for x, y in zip(a, b)]  # noqa: E731
        drops = f"{statistics.fmean(v(nr1, 'drop_rate')):.4f},{statistics.fmean(v(m1, 'drop_rate')):.4f}"
        print(f"{name:32} {cell(v(nr05))} {cell(v(nr1))} {cell(v(m05))} {cell(v(m1))} "
              f"{cell(diff(v(nr05), v(nr1)))} {cell(diff(v(m05), v(m1)))} {cell(diff(v(q), v(nrf2)))} {drops:>14}")
    # The level of the first row run by run: it follows the calls' mean.
    name = table[0][0]
    print(f"\n{name}, run by run (mean calls up; TCP goodput; * within 5% of the paper's):")
    paper = [(nr05, 2.765), (nr1, 2.64), (m05, 2.77), (m1, 2.70)]
    within = 0
    for s in range(1, seeds + 1):
        r = [got[(name, p, s)] for p, _ in paper]
        ok = [abs(x["tcp"] - ref) <= 0.05 * ref for x, (_, ref) in zip(r, paper)]
        within += all(ok)
        print(f"  run {s:3d}: {r[0]['calls']:6.1f} calls  " +
              "  ".join(f"{x['tcp']:6.3f}{'*' if o else ' '}" for x, o in zip(r, ok)))
    print(f"  all four endpoints within 5% in {within} of {seeds} runs")


def t975(df: int) -> float:
    """Student's t 0.975 quantile: the table up to 15 degrees of freedom,
    then the Cornish-Fisher expansion in 1/df (within 0.001 there)."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
             10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131}
    if df in table:
        return table[df]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def ci95(xs: list[float]) -> float:
    """Half-width of a 95% confidence interval of the mean (t quantiles)."""
    if len(xs) < 2:
        return float("nan")
    return t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))


def at_expected_calls(calls: list[float], ys: list[float], expected: float) -> tuple[float, float]:
    """A point's mean at the call process's expected mean, `expected`
    calls, and its 95% half-width: `ys` regressed on the runs' mean number
    of calls, the regression line at `expected` (the call count as a
    control variate, Law and Kelton, "Simulation Modeling and Analysis",
    section 11.3; its expectation is known, lambda / mu).  The runs' level
    follows their calls (0.029 Mb/s of TCP goodput per call), so this is
    far tighter than the plain mean for the same runs."""
    n = len(ys)
    if n < 3:
        return float("nan"), float("nan")
    mx, my = statistics.fmean(calls), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in calls)
    if sxx <= 0:
        return my, float("nan")
    b = sum((x - mx) * (y - my) for x, y in zip(calls, ys)) / sxx
    res = sum((y - my - b * (x - mx)) ** 2 for x, y in zip(calls, ys)) / (n - 2)
    return my + b * (expected - mx), t975(n - 2) * math.sqrt(res * (1 / n + (expected - mx) ** 2 / sxx))


def points(quick: bool, full: bool, figures: str = "24"):
    """(figure, proto, lambda, pmax, geometric) of every point (of Figures
    2-3 and 4, or of those in `figures`)."""
    lams = [1.0, 2.0] if quick else [1.0, 1.5, 2.0, 2.5]
    pmaxes = [0.05, 1.0] if quick else [0.05, 0.1, 0.2, 0.5, 1.0]
    fig4_protos = list(PROTOS) if full else ["ecn-newreno", "ecn-mod-0.0625"]
    for proto in PROTOS if "2" in figures else ():
        for lam in lams:
            yield ("2", proto, lam, 0.2, False)
    for proto in fig4_protos if "4" in figures else ():
        for pmax in pmaxes:
            yield ("4", proto, 2.0, pmax, True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="two points per curve, 40 s runs, one seed (a check, not the figures)")
    ap.add_argument("--full", action="store_true", help="Fig. 4 for every protocol, not only ECN NewReno and c1 = 1/16")
    ap.add_argument("--duration", type=float, help="seconds simulated per run (default 500; --quick 40)")
    ap.add_argument("--seeds", type=int, help="runs per point (default 4, and 32 for Figure 4; --quick 1)")
    ap.add_argument("--fig4-seeds", type=int, metavar="N",
                    help="runs per Figure 4 point (default 32, or --seeds if given: its level is the calls', docs/seed003.md)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs (default: every core)")
    ap.add_argument("--figures", choices=("24", "2", "4"), default="24",
                    help="run Figures 2-3 and 4 (default), or only 2-3 or only 4")
    ap.add_argument("--json", action="store_true", help="one JSON object per point and figure")
    ap.add_argument("--plot", metavar="DIR", help="write fig2.png, fig3.png, fig4.png into DIR")
    ap.add_argument("--sensitivity", action="store_true",
                    help="instead of the figures: the unreproduced claims under each reading of SENSITIVITY "
                         "(docs/seed003.md; with --json one object per run)")
    ap.add_argument("--rows", type=int, help="with --sensitivity: only the first ROWS readings (1: the defaults)")
    g = ap.add_argument_group("readings of what the paper leaves open (docs/seed003.md)")
    g.add_argument("--tcp-size", type=int, default=DEFAULTS["tcp_size"],
                   help="TCP packetSize_: payload bytes, 40 more on the wire (default 1000)")
    g.add_argument("--sink", choices=("ack-every", "delack"), default=DEFAULTS["sink"],
                   help="TCP sink (default ack-every)")
    g.add_argument("--voip-drain", type=float, default=DEFAULTS["voip_drain"], metavar="MBPS",
                   help="the VoIP queue holds 20 ms at this rate (default 10, the link; 8 is VoIP's share)")
    g.add_argument("--voip-size", type=int, default=DEFAULTS["voip_size"], help="VoIP packet on the wire (default 120)")
    g.add_argument("--goodput", choices=("wire", "payload"), default=DEFAULTS["goodput"],
                   help="count bytes as on the wire (default) or payload only (TCP packetSize_, VoIP's 80 B)")
    g.add_argument("--warmup", type=float, default=DEFAULTS["warmup"], metavar="S",
                   help="seconds simulated before the measured --duration (default 0)")
    g.add_argument("--empty-start", action="store_true", help="no call up at time 0 (default: the stationary number)")
    g.add_argument("--ecn-rule", choices=ECN_RULES, default=DEFAULTS["ecn_rule"],
                   help="RED marks the ECN-capable packets it picks: always (default), up to mark_p_ 0.1 "
                        "(ns-2 2.35), or below max_th (ns-2 in 2001)")
    g.add_argument("--mean-pktsize", type=int, default=DEFAULTS["mean_pktsize"], help="RED mean_pktsize_ (default 500)")
    g.add_argument("--q-weight", type=float, default=DEFAULTS["q_weight"], help="RED q_weight_ (default 0.002)")
    g.add_argument("--no-wait", action="store_true", help="RED wait_ false (default true)")
    g.add_argument("--pmod-input", choices=PMOD_INPUTS, default=DEFAULTS["pmod_input"],
                   help="p_mod's input under uniform drop-biasing (Fig. 2-3): the spreading's real rate, "
                        "2p/(3-p) with wait_ (default), or 2p as footnote 1 says")
    a = ap.parse_args()
    duration = a.duration or (40.0 if a.quick else DURATION)
    seeds = a.seeds or (1 if a.quick else SEEDS)
    fig4_seeds = a.fig4_seeds or (seeds if a.quick or a.seeds else FIG4_SEEDS)
    if duration <= 0 or seeds < 1 or fig4_seeds < 1 or a.jobs < 1 or a.warmup < 0:
        ap.error("--duration, --seeds and --jobs must be positive, --warmup not negative")
    if a.tcp_size < 1 or a.voip_size < 1 or a.voip_drain <= 0 or a.mean_pktsize < 1:
        ap.error("--tcp-size, --voip-size, --voip-drain and --mean-pktsize must be positive")
    reading = {"tcp_size": a.tcp_size, "sink": a.sink, "voip_drain": a.voip_drain, "voip_size": a.voip_size,
               "goodput": a.goodput, "warmup": a.warmup, "empty_start": a.empty_start, "ecn_rule": a.ecn_rule,
               "mean_pktsize": a.mean_pktsize, "q_weight": a.q_weight, "wait": not a.no_wait,
               "pmod_input": a.pmod_input}
    if a.sensitivity:
        sensitivity(duration, seeds, a.jobs, reading, a.json, a.rows or len(SENSITIVITY))
        return
    pts = list(points(a.quick, a.full, a.figures))
    runs = [(p, s) for p in pts for s in range(1, (fig4_seeds if p[0] == "4" else seeds) + 1)]
    out: dict[tuple, dict[int, dict]] = {p: {} for p in pts}
    with cf.ProcessPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(one_run, p[1], p[2], p[3], p[4], duration, s, reading): (p, s) for p, s in runs}
        for f in cf.as_completed(futs):
            p, s = futs[f]
            out[p][s] = f.result()
    rows = []
    for p in pts:
        fig, proto, lam, pmax, _ = p
        rs = [out[p][s] for s in sorted(out[p])]
        mean = {k: statistics.fmean(r[k] for r in rs) for k in rs[0]}
        ci = {k: ci95([r[k] for r in rs]) for k in rs[0]}
        if not reading["empty_start"]:
            # the level at the calls' expected mean (see at_expected_calls)
            mean["tcp_at_expected"], ci["tcp_at_expected"] = at_expected_calls(
                [r["calls"] for r in rs], [r["tcp"] for r in rs], lam * HOLDING)
        rows.append((p, mean, ci))
        for figure in (("2", "3") if fig == "2" else ("4",)):
            if a.json:
                print(json.dumps({"figure": figure, "proto": proto, "lambda": lam, "pmax": pmax,
                                  "tcp_goodput_mbps": round(mean["tcp"], 4),
                                  "total_goodput_mbps": round(mean["total"], 4),
                                  "mark_rate": round(mean["mark_rate"], 5),
                                  "queue_cov": round(mean["queue_cov"], 4)}), flush=True)
    if not a.json:
        report(rows, duration, seeds, fig4_seeds)
    if a.plot:
        plot(rows, Path(a.plot))


def report(rows, duration: float, seeds: int, fig4_seeds: int) -> None:
    per = f"{seeds} run(s) per point" + (f" ({fig4_seeds} for Figure 4)" if fig4_seeds != seeds else "")
    print(f"Seed 003 (Misra & Ott 2001): {duration:g} s per run, {per}, mean +- 95% CI over the runs (independent: substreams of seed {SEED})\n")
    print("Figures 2 and 3 (p_max 0.2, uniform drop-biasing):")
    print(f"{'proto':16} {'lambda':>6} {'TCP Mb/s':>15} {'total Mb/s':>15} {'VoIP Mb/s':>10} {'mark rate':>10} {'queue CoV':>10}")
    for (fig, proto, lam, pmax, _), m, ci in rows:
        if fig == "2":
            print(f"{proto:16} {lam:6.2f} {m['tcp']:7.3f} +-{ci['tcp']:5.3f} {m['total']:7.3f} +-{ci['total']:5.3f} "
                  f"{m['voip']:10.3f} {m['mark_rate']:10.4f} {m['queue_cov']:10.3f}")
    print("\nFigure 4 (lambda 2, geometric drop-biasing; 'at 200 calls': TCP goodput regressed on the runs' "
          "mean number of calls, at its expected 200):")
    print(f"{'proto':16} {'p_max':>6} {'TCP Mb/s':>15} {'total Mb/s':>15} {'calls':>6} {'at 200 calls':>15} "
          f"{'paper TCP':>10} {'ours/paper':>20}")
    for (fig, proto, lam, pmax, _), m, ci in rows:
        if fig == "4":
            paper = PAPER_FIG4.get(proto)
            ref = ""
            if paper and pmax in (0.05, 1.0):
                pv = paper[0 if pmax == 0.05 else 1]
                ref = f"{pv:10.3f} {100 * (m['tcp'] / pv - 1):+6.1f}% +-{100 * ci['tcp'] / pv:3.1f}%"
                if not math.isnan(m.get("tcp_at_expected", math.nan)):
                    ref += f" ({100 * (m['tcp_at_expected'] / pv - 1):+.1f}% +-{100 * ci['tcp_at_expected'] / pv:.1f}%)"
            adj = (f"{m['tcp_at_expected']:7.3f} +-{ci['tcp_at_expected']:5.3f}"
                   if not math.isnan(m.get("tcp_at_expected", math.nan)) else f"{'':15}")
            print(f"{proto:16} {pmax:6.2f} {m['tcp']:7.3f} +-{ci['tcp']:5.3f} {m['total']:7.3f} +-{ci['total']:5.3f} "
                  f"{m['calls']:6.1f} {adj} {ref}")
    print("\nThe paper's claims, checked here:")
    for claim, ok in claims(rows):
        print(f"  [{'yes' if ok else 'NO '}] {claim}")


def claims(rows):
    """The paper's statements about Figures 2-4, each with whether these
    runs show it."""
    f2 = {(p[1], p[2]): m for p, m, _ in rows if p[0] == "2"}
    f4 = {(p[1], p[3]): m for p, m, _ in rows if p[0] == "4"}
    lams = sorted({lam for _, lam in f2})
    out = []
    if lams:  # Figures 2-3 were run
        out.append(("ECN-mod (c1 = 1/16) at or above ECN NewReno in TCP goodput at every lambda",
                    all(f2[("ecn-mod-0.0625", l)]["tcp"] >= f2[("ecn-newreno", l)]["tcp"] for l in lams)))
        out.append(("ECN-mod with c1 = 1/4 below ECN NewReno",
                    all(f2[("ecn-mod-0.25", l)]["tcp"] < f2[("ecn-newreno", l)]["tcp"] for l in lams)))
        voip = [[f2[(p, l)]["voip"] for p in PROTOS] for l in lams]
        out.append(("VoIP goodput independent of the TCP protocol (within 2%)",
                    all(max(v) - min(v) <= 0.02 * max(v) for v in voip)))
        out.append(("ECN-mod flows see higher marking rates than ECN NewReno",
                    all(f2[("ecn-mod-0.0625", l)]["mark_rate"] > f2[("ecn-newreno", l)]["mark_rate"] for l in lams)))
        out.append(("ECN-mod (c1 = 1/16) gives a lower queue CoV than ECN NewReno",
                    all(f2[("ecn-mod-0.0625", l)]["queue_cov"] < f2[("ecn-newreno", l)]["queue_cov"] for l in lams)))
    if not f4:
        return out
    pm = sorted({p for _, p in f4})
    lo, hi = pm[0], pm[-1]
    for proto, (p_lo, p_hi) in PAPER_FIG4.items():
        if (proto, lo) in f4 and lo == 0.05 and hi == 1.0:
            ok = all(abs(f4[(proto, x)]["tcp"] - ref) <= 0.05 * ref for x, ref in ((lo, p_lo), (hi, p_hi)))
            out.append((f"Fig. 4 endpoints of {proto} within 5% of the paper's {p_lo} -> {p_hi} Mb/s", ok))
            if all(not math.isnan(f4[(proto, x)].get("tcp_at_expected", math.nan)) for x in (lo, hi)):
                ok = all(abs(f4[(proto, x)]["tcp_at_expected"] - ref) <= 0.05 * ref for x, ref in ((lo, p_lo), (hi, p_hi)))
                out.append(("  the same at the expected 200 calls (regression on the runs' calls)", ok))
    loss = {p: f4[(p, lo)]["tcp"] - f4[(p, hi)]["tcp"] for p in PAPER_FIG4 if (p, lo) in f4}
    if len(loss) == 2:
        out.append(("ECN-mod loses less TCP goodput than ECN NewReno as p_max grows",
                    loss["ecn-mod-0.0625"] < loss["ecn-newreno"]))
    return out


def plot(rows, d: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d.mkdir(parents=True, exist_ok=True)
    styles = {"ecn-newreno": "k-o", "ecn-mod-0.25": "r--s", "ecn-mod-0.125": "g-.^", "ecn-mod-0.0625": "b-d"}
    figs = [("fig2.png", "2", "lambda", [("tcp", "TCP goodput (Mb/s)"), ("total", "total goodput (Mb/s)")]),
            ("fig3.png", "2", "lambda", [("mark_rate", "best-effort marking rate"),
                                         ("queue_cov", "queue coefficient of variation")]),
            ("fig4.png", "4", "pmax", [("tcp", "TCP goodput (Mb/s)"), ("total", "total goodput (Mb/s)")])]
    for name, fig, xname, panels in figs:
        f, axes = plt.subplots(1, len(panels), figsize=(10, 4), dpi=200)
        for ax, (key, label) in zip(axes, panels):
            for proto, style in styles.items():
                pts = [(p[2] if xname == "lambda" else p[3], m[key], ci[key]) for p, m, ci in rows
                       if p[0] == fig and p[1] == proto]
                if not pts:
                    continue
                xs, ys, es = zip(*pts)
                es = [0 if math.isnan(e) else e for e in es]
                ax.errorbar(xs, ys, yerr=es, fmt=style, capsize=3, label=proto, markersize=4)
            ax.set_xlabel("lambda (VoIP calls/s)" if xname == "lambda" else "p_max")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
        handles, labels = axes[0].get_legend_handles_labels()
        f.legend(handles, labels, loc="upper center", ncol=len(labels), fontsize=8, frameon=False)
        f.tight_layout(rect=(0, 0, 1, 0.93))
        f.savefig(d / name)
        plt.close(f)


if __name__ == "__main__":
    # `... --json | head`: end quietly when the reader goes, as Unix tools do
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
