#!/usr/bin/env python3
"""Seed 000 (Hamann, New-ECN, 1999), section 3.2: the "simple model" of
Appendix A -- two ECN TCP-Reno connections X (RTT 40 ms) and Y (RTT 20 ms)
through one marking RED gateway, in 10 ms steps for 5 s -- with New-ECN and
with plain ECN, printed beside the paper's figures, and Figures 3.2-3.4
redrawn.

    .venv/bin/python examples/seed000_simple_model.py [--seed 0] [--seeds N] [--out DIR] [--json]
        [--queue as-listed|conserving] [--bottleneck 5e6]

The model is dumbbell.models.hamann_simple; its docstring says which values
of the OCR-garbled listing were inferred (the bottleneck rate, 5 Mb/s from
section 3.2's "Link 1-3: 5 Mbps", and the initial windows, 1 packet).
Matlab's random draws cannot be replayed, so a run is one sample: --seed
picks it, --seeds N averages N runs (seeds 0..N-1); the text output also
gives the spread over 20 seeds.

--json prints one line per model and nothing else:
    {"model": "new-ecn", "jain": J, "cwnd_mean_pkts": [x, y]}
    {"model": "ecn", "jain": J, "cwnd_mean_pkts": [x, y]}
"""

from __future__ import annotations

import argparse
import json
import signal
from pathlib import Path

import numpy as np

from dumbbell.models import hamann_simple as hs

ROOT = Path(__file__).resolve().parents[1]


def plots(runs: dict, out: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    paths = []
    colours = {"X": "tab:blue", "Y": "tab:red"}
    # Figure 3.2: rates (and their running means)
    fig, axes = plt.subplots(len(runs), 1, figsize=(9, 3.2 * len(runs)), sharex=True)
    for ax, (model, r) in zip(np.atleast_1d(axes), runs.items()):
        mean = r.running_mean_rate_bps
        for i, name in enumerate("XY"):
            ax.plot(r.t, r.rate_bps[:, i] / 1e6, color=colours[name], lw=0.8,
                    label=f"rate {name} (RTT {r.params.rtt[i] * 1e3:.0f} ms)")
            ax.plot(r.t, mean[:, i] / 1e6, color=colours[name], lw=1.6, ls="--", label=f"mean rate {name}")
        ax.set_ylabel("rate (Mb/s)")
        ax.set_title(f"Simple model, {model}: rates (Hamann Fig. 3.2)")
        ax.legend(fontsize=7, ncol=2)
    np.atleast_1d(axes)[-1].set_xlabel("time (s)")
    fig.tight_layout()
    paths.append(out / "fig3_2_rates.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    # Figure 3.3: windows (with the RED queue and average)
    fig, axes = plt.subplots(len(runs), 1, figsize=(9, 3.2 * len(runs)), sharex=True)
    for ax, (model, r) in zip(np.atleast_1d(axes), runs.items()):
        for i, name in enumerate("XY"):
            ax.plot(r.t, r.cwnd[:, i], color=colours[name], lw=0.9,
                    label=f"cwnd {name} (mean {r.cwnd_mean_pkts[i]:.1f})")
        ax.plot(r.t, r.avg_queue, color="grey", lw=0.9, ls=":", label="RED average queue")
        ax.set_ylabel("packets")
        ax.set_title(f"Simple model, {model}: windows (Hamann Fig. 3.3; paper's means 18.1 / 10.4 for New-ECN)")
        ax.legend(fontsize=7)
    np.atleast_1d(axes)[-1].set_xlabel("time (s)")
    fig.tight_layout()
    paths.append(out / "fig3_3_windows.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    # Figure 3.4: rate trace in the (rate X, rate Y) plane
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    c = next(iter(runs.values())).params.bottleneck_bps / 1e6
    ax.plot([0, c], [0, c], color="black", lw=0.8, label="fairness line")
    ax.plot([0, c], [c, 0], color="black", lw=0.8, ls="--", label="efficiency line (x+y = c)")
    for (model, r), col in zip(runs.items(), ("tab:green", "tab:purple")):
        m = r.running_mean_rate_bps / 1e6
        ax.plot(m[1:, 0], m[1:, 1], color=col, lw=1.2, label=f"{model}: mean rates")
        ax.plot(r.rate_bps[1:, 0] / 1e6, r.rate_bps[1:, 1] / 1e6, color=col, lw=0.4, alpha=0.5,
                label=f"{model}: rates")
    ax.set_xlabel("rate X (Mb/s)")
    ax.set_ylabel("rate Y (Mb/s)")
    ax.set_xlim(0, c * 1.05)
    ax.set_ylim(0, c * 1.05)
    ax.set_title("Simple model: rate trace (Hamann Fig. 3.4)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    paths.append(out / "fig3_4_rate_trace.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0, help="the run's random seed (default 0)")
    ap.add_argument("--seeds", type=int, default=None, help="average over seeds 0..N-1 instead of one run")
    ap.add_argument("--queue", choices=("as-listed", "conserving"), default="as-listed")
    ap.add_argument("--bottleneck", type=float, default=hs.Params.bottleneck_bps, help="bottleneck rate [b/s]")
    ap.add_argument("--out", default=str(ROOT / "demo-output" / "seed000_simple_model"), help="plots go here")
    ap.add_argument("--json", action="store_true", help="one JSON line per model, nothing else")
    args = ap.parse_args(argv)
    kw = {"queue": args.queue, "bottleneck_bps": args.bottleneck}
    seeds = range(args.seeds) if args.seeds else (args.seed,)
    sums = {m: hs.summary(m, seeds=seeds, **kw) for m in hs.MODELS}
    if args.json:
        for m in hs.MODELS:
            print(json.dumps(sums[m]))
        return 0

    print(f"Hamann 1999 section 3.2 / Appendix A: simple model, queue {args.queue}, "
          f"bottleneck {args.bottleneck / 1e6:g} Mb/s, "
          + (f"mean of seeds 0..{args.seeds - 1}" if args.seeds else f"seed {args.seed}"))
    print(f"{'':24}{'paper':>14}{'Dumbbell':>22}")
    ne, ecn = sums["new-ecn"], sums["ecn"]
    px, py = hs.PAPER["cwnd_mean_pkts"]
    print(f"{'New-ECN Jain (eq. 3.6)':24}{'~0.99':>14}{ne['jain']:>22.4f}")
    print(f"{'New-ECN mean cwnd X, Y':24}{f'{px} / {py}':>14}"
          f"{'{:.1f} / {:.1f}'.format(*ne['cwnd_mean_pkts']):>22}"
          f"   ({100 * (ne['cwnd_mean_pkts'][0] / px - 1):+.0f}% / {100 * (ne['cwnd_mean_pkts'][1] / py - 1):+.0f}%)")
    print(f"{'ECN Jain':24}{'-':>14}{ecn['jain']:>22.4f}")
    print(f"{'ECN mean cwnd X, Y':24}{'-':>14}{'{:.1f} / {:.1f}'.format(*ecn['cwnd_mean_pkts']):>22}")
    print("\nspread over seeds 0..19 (min..max):")
    for m in hs.MODELS:
        rs = [hs.simulate(m, seed=s, **kw) for s in range(20)]
        j = [r.jain for r in rs]
        wx = [r.cwnd_mean_pkts[0] for r in rs]
        wy = [r.cwnd_mean_pkts[1] for r in rs]
        print(f"  {m:8} Jain {min(j):.3f}..{max(j):.3f} (mean {np.mean(j):.3f}); "
              f"cwnd X {min(wx):.1f}..{max(wx):.1f} (mean {np.mean(wx):.1f}); "
              f"Y {min(wy):.1f}..{max(wy):.1f} (mean {np.mean(wy):.1f})")
    runs = {m: hs.simulate(m, seed=args.seed, **kw) for m in hs.MODELS}
    for p in plots(runs, Path(args.out)):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    # `... --json | head`: end quietly when the reader goes, as Unix tools do
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    raise SystemExit(main())
