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
  the drop rate it gives (the paper's footnote 1).
* Figure 3: the best-effort marking rate and the coefficient of
  variation of the best-effort queue, same runs.
* Figure 4: TCP and total goodput against p_max from 0.05 to 1 at
  lambda 2, RED with geometric drop-biasing (eq. 11 unchanged).

    .venv/bin/python examples/seed003_ecnmod.py [--quick] [--json] [--plot DIR]
                     [--duration S] [--seeds N] [--jobs N]

Each point is the mean over `--seeds` runs (different RNG seeds: call
arrivals, holding and talk spurts); the table gives a 95% confidence
interval over them.  The VoIP calls draw from a stream of their own, so a
seed gives every protocol the same calls: the protocols' differences at
one point are paired, far tighter than the intervals (which are mostly the
calls' variation).  The defaults (1000 s, 4 seeds: 78 runs) take about
1.5 min on two cores (`time examples/seed003_ecnmod.py`).

What Dumbbell does where the paper is silent: RED's curve above max_th is
ns-2's default gentle one (eq. 10 holds p at p_max there); q_weight 0.002;
the calls start at their stationary number; TCP packets are 1000 B on the
wire, goodput counts the bytes the sinks received (headers included).  `--json` prints one JSON object a line:
{"figure": "2"|"3"|"4", "proto": ..., "lambda": L, "pmax": P,
 "tcp_goodput_mbps": x, "total_goodput_mbps": y, "mark_rate": m, "queue_cov": c}
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import math
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scfq_voip import BOTTLENECK, VOIP_FID, build  # noqa: E402

PROTOS = {
    "ecn-newreno": None,
    "ecn-mod-0.25": 0.25,
    "ecn-mod-0.125": 0.125,
    "ecn-mod-0.0625": 0.0625,
}
C2 = 0.125

#: The paper's figures quoted in its text (Fig. 4, TCP goodput in Mb/s at
#: p_max 0.05 and 1, lambda 2).
PAPER_FIG4 = {"ecn-mod-0.0625": (2.77, 2.70), "ecn-newreno": (2.765, 2.64)}


def one_run(proto: str, lam: float, pmax: float, geometric: bool, duration: float, seed: int) -> dict:
    """One simulation; the figures' metrics."""
    c1 = PROTOS[proto]
    red = {"geometric": geometric}
    if c1 is None:
        variant, tcp_params = "newreno", {}
    else:
        variant, tcp_params = "ecn-mod", {"ecnmod_c1": c1, "ecnmod_c2": C2}
        red.update({"pmod": True, "pmod_c1": c1, "pmod_c2": C2})
    sim, tcps, voip, bott = build(lam=lam, seed=seed, ecn=True, pmax=pmax, variant=variant,
                                  tcp_params=tcp_params, red_params=red)
    res = sim.run(duration, monitor_queues=False)
    tcp_bytes = int(res.flows["bytes_received"].sum())
    vrow = res.sources.filter(res.sources["source"] == voip.id)
    voip_bytes = int(vrow["received_bytes"][0])
    be = res.scfq[(bott.src.id, bott.dst.id)][1]
    return {
        "tcp": tcp_bytes * 8 / duration / 1e6,
        "total": (tcp_bytes + voip_bytes) * 8 / duration / 1e6,
        "voip": voip_bytes * 8 / duration / 1e6,
        "mark_rate": be["marks"] / max(be["arrivals"], 1),
        "queue_cov": be["queue_cov"],
    }


def ci95(xs: list[float]) -> float:
    """Half-width of a 95% confidence interval of the mean (t quantiles)."""
    if len(xs) < 2:
        return float("nan")
    t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 8: 2.36, 10: 2.26}.get(len(xs), 1.96)
    return t * statistics.stdev(xs) / math.sqrt(len(xs))


def points(quick: bool, full: bool):
    """(figure, proto, lambda, pmax, geometric) of every point."""
    lams = [1.0, 2.0] if quick else [1.0, 1.5, 2.0, 2.5]
    pmaxes = [0.05, 1.0] if quick else [0.05, 0.1, 0.2, 0.5, 1.0]
    fig4_protos = list(PROTOS) if full else ["ecn-newreno", "ecn-mod-0.0625"]
    for proto in PROTOS:
        for lam in lams:
            yield ("2", proto, lam, 0.2, False)
    for proto in fig4_protos:
        for pmax in pmaxes:
            yield ("4", proto, 2.0, pmax, True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="two points per curve, 40 s runs, one seed (a check, not the figures)")
    ap.add_argument("--full", action="store_true", help="Fig. 4 for every protocol, not only ECN NewReno and c1 = 1/16")
    ap.add_argument("--duration", type=float, help="seconds simulated per run (default 1000; --quick 40)")
    ap.add_argument("--seeds", type=int, help="runs per point (default 4; --quick 1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs (default: every core)")
    ap.add_argument("--json", action="store_true", help="one JSON object per point and figure")
    ap.add_argument("--plot", metavar="DIR", help="write fig2.png, fig3.png, fig4.png into DIR")
    a = ap.parse_args()
    duration = a.duration or (40.0 if a.quick else 1000.0)
    seeds = a.seeds or (1 if a.quick else 4)
    if duration <= 0 or seeds < 1 or a.jobs < 1:
        ap.error("--duration, --seeds and --jobs must be positive")
    pts = list(points(a.quick, a.full))
    runs = [(p, s) for p in pts for s in range(1, seeds + 1)]
    out: dict[tuple, list[dict]] = {p: [] for p in pts}
    with cf.ProcessPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(one_run, p[1], p[2], p[3], p[4], duration, s): p for p, s in runs}
        for f in cf.as_completed(futs):
            out[futs[f]].append(f.result())
    rows = []
    for p in pts:
        fig, proto, lam, pmax, _ = p
        rs = out[p]
        mean = {k: statistics.fmean(r[k] for r in rs) for k in rs[0]}
        ci = {k: ci95([r[k] for r in rs]) for k in rs[0]}
        rows.append((p, mean, ci))
        for figure in (("2", "3") if fig == "2" else ("4",)):
            if a.json:
                print(json.dumps({"figure": figure, "proto": proto, "lambda": lam, "pmax": pmax,
                                  "tcp_goodput_mbps": round(mean["tcp"], 4),
                                  "total_goodput_mbps": round(mean["total"], 4),
                                  "mark_rate": round(mean["mark_rate"], 5),
                                  "queue_cov": round(mean["queue_cov"], 4)}), flush=True)
    if not a.json:
        report(rows, duration, seeds)
    if a.plot:
        plot(rows, Path(a.plot))


def report(rows, duration: float, seeds: int) -> None:
    print(f"Seed 003 (Misra & Ott 2001): {duration:g} s per run, {seeds} seed(s) per point, "
          f"mean +- 95% CI over seeds\n")
    print("Figures 2 and 3 (p_max 0.2, uniform drop-biasing):")
    print(f"{'proto':16} {'lambda':>6} {'TCP Mb/s':>15} {'total Mb/s':>15} {'VoIP Mb/s':>10} {'mark rate':>10} {'queue CoV':>10}")
    for (fig, proto, lam, pmax, _), m, ci in rows:
        if fig == "2":
            print(f"{proto:16} {lam:6.2f} {m['tcp']:7.3f} +-{ci['tcp']:5.3f} {m['total']:7.3f} +-{ci['total']:5.3f} "
                  f"{m['voip']:10.3f} {m['mark_rate']:10.4f} {m['queue_cov']:10.3f}")
    print("\nFigure 4 (lambda 2, geometric drop-biasing):")
    print(f"{'proto':16} {'p_max':>6} {'TCP Mb/s':>15} {'total Mb/s':>15} {'paper TCP':>10}")
    for (fig, proto, lam, pmax, _), m, ci in rows:
        if fig == "4":
            paper = PAPER_FIG4.get(proto)
            ref = ""
            if paper and pmax in (0.05, 1.0):
                ref = f"{paper[0 if pmax == 0.05 else 1]:10.3f}"
            print(f"{proto:16} {pmax:6.2f} {m['tcp']:7.3f} +-{ci['tcp']:5.3f} {m['total']:7.3f} +-{ci['total']:5.3f} {ref}")
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
    pm = sorted({p for _, p in f4})
    lo, hi = pm[0], pm[-1]
    for proto, (p_lo, p_hi) in PAPER_FIG4.items():
        if (proto, lo) in f4 and lo == 0.05 and hi == 1.0:
            ok = all(abs(f4[(proto, x)]["tcp"] - ref) <= 0.05 * ref for x, ref in ((lo, p_lo), (hi, p_hi)))
            out.append((f"Fig. 4 endpoints of {proto} within 5% of the paper's {p_lo} -> {p_hi} Mb/s", ok))
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
    main()
