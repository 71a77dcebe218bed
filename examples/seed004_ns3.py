"""Seed 004 (Nguyen, Gangadhar, Rahman, Sterbenz, "An Implementation of
Scalable, Vegas, Veno, and YeAH Congestion Control Algorithms in ns-3",
WNS3 2016), sections 4.2-4.5, on Dumbbell's full TCP, side by side with
the paper and with ns-3.37 (../shared/oracle/ns3/seed004-results.md,
config A: no SACK, classic NewReno recovery; results/tables.md).

    python examples/seed004_ns3.py                 # all of 4.2-4.5, a table
    python examples/seed004_ns3.py --json          # one JSON object a line
    python examples/seed004_ns3.py --quick --json  # a subset (tests)
    python examples/seed004_ns3.py --plots DIR     # cwnd figures like the paper's

The setup is the rerun's: sender i - R1 - R2 - receiver i, access links
10 Mb/s and 0 ms (see below), the bottleneck 10 Mb/s (4.2) or 6 Mb/s (4.3-4.5) with a
one-way delay of 100 ms (4.5: 50-300 ms), drop-tail queues of the BDP in
1500-byte packets on every link (+2: ns-3 holds L in its queue disc and
one in the device queue; a DropTail of limit L holds L - 1 waiting),
MSS 1448 (MTU 1500 with timestamps), delayed ACKs every 2 segments,
initial cwnd 15 segments and ssthresh 15 * 1448 bytes, 16 MiB buffers.
4.2 drops each data packet with probability 10^-3 after the bottleneck,
runs 1-5 (seeds 1-5), 200 s; 4.3/4.4 start flow 1 at 10 s and run 400 s;
4.5 is one flow for 400 s.  Goodput is the sink's payload bytes over the
flow's own period (end - its start), in Mb/s.

The access links have no delay because the ns-3 program's have none: it
sets them with `MilliSeconds(0.1)`, and ns-3.37's `MilliSeconds` has
`uint64_t` and `int64x64_t` overloads only, so the double converts to the
integer 0 (its SRTT trace matches ours to the nanosecond with 0 ms, and is
0.4 ms off with 0.1 ms).  The queues are still sized from 0.1 ms, as there.

JSON lines (the contract tests hold):
``{"section": "4.2", "case": "scalable", "delay_ms": 100, "goodput_mbps": [x]}``
(4.2: the mean of runs 1-5; "vegas13" is Vegas-1,3), and for 4.3/4.4
``{"section": "4.3", "case": "scalable:newreno", "delay_ms": 100,
"goodput_mbps": [flow 0, flow 1]}``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys

import dumbbell as db

MSS = 1448
PER = 1e-3

# ---- the reference figures ------------------------------------------------------------

#: ns-3.37, config A (results/tables.md): 4.2 mean of runs 1-5 and its
#: [min, max]; the paper's figure where it gives one.
NS3_42 = {"newreno": (1.53, 1.27, 1.77), "scalable": (7.25, 6.65, 8.15), "vegas": (2.09, 2.03, 2.13),
          "vegas13": (0.54, 0.46, 0.61), "veno": (1.96, 1.73, 2.12), "yeah": (1.55, 1.29, 1.79)}
PAPER_42 = {"newreno": "1.5", "scalable": "~7x NewReno", "vegas": "4.6", "vegas13": "0.7",
            "veno": "fig. 4", "yeah": "fig. 5"}
#: 4.3 / 4.4: both flows' goodput over their own periods.
NS3_43 = {"scalable:newreno": (3.65, 1.40), "vegas:newreno": (0.37, 5.28), "veno:newreno": (2.99, 2.70),
          "yeah:newreno": (2.86, 2.85)}
PAPER_43 = {"scalable:newreno": "3.26 : 0.5", "vegas:newreno": "Vegas loses", "veno:newreno": "near fair",
            "yeah:newreno": "3.47 : 2.17"}
NS3_44 = {"newreno:newreno": (2.99, 2.70), "scalable:scalable": (2.72, 2.29), "vegas:vegas": (1.13, 1.13),
          "veno:veno": (2.99, 2.70), "yeah:yeah": (2.74, 2.97)}
#: 4.5: goodput at 50, 100, ..., 300 ms (400 s).
DELAYS_45 = (50, 100, 150, 200, 250, 300)
NS3_45 = {"newreno": (5.73, 5.54, 5.19, 4.69, 4.04, 3.23), "scalable": (5.76, 4.59, 3.42, 3.10, 2.99, 2.77),
          "vegas": (1.99, 1.13, 1.36, 1.68, 1.77, 1.97), "veno": (5.73, 5.54, 5.19, 4.69, 4.04, 3.23),
          "yeah": (5.73, 5.54, 5.20, 4.70, 4.05, 3.23)}

#: The cases --quick runs (each section, a few points).
QUICK = {"4.2": ("newreno", "vegas13", "veno"), "4.3": ("scalable:newreno",), "4.4": ("vegas:vegas",),
         "4.5": (("scalable", 100), ("vegas", 100), ("yeah", 50))}


def cc_of(case: str) -> tuple[str, dict | None]:
    """A case's congestion control and its attributes ("vegas13": Vegas-1,3)."""
    if case == "vegas13":
        return "vegas", {"alpha": 1, "beta": 3}
    return case, None


# ---- the scenarios --------------------------------------------------------------------

def queue_pkts(btl_mbps: float, delay_ms: float) -> int:
    """The BDP in 1500-byte packets, RTT = 2 (delay + 2 * 0.1 ms)."""
    rtt = 2.0 * (delay_ms + 0.2) / 1000.0
    return max(1, round(btl_mbps * 1e6 * rtt / 8.0 / 1500.0))


def run(ccs: list[str], btl_mbps: float, delay_ms: float, until: float, per: float = 0.0, seed: int = 1,
        start2: float = 10.0, trace: bool = False):
    """One dumbbell run: a flow per congestion control (flow 0 from 0 s,
    the others from `start2`).  Returns (goodputs in Mb/s, cwnd frames)."""
    sim = db.Simulation(seed=seed)
    r1, r2 = sim.nodes(2)
    q = queue_pkts(btl_mbps, delay_ms) + 2
    access = 10.0
    # the ns-3 program's access delay: MilliSeconds(0.1) == 0 (docstring)
    access_delay = "0ms"
    sim.link(r1, r2, f"{btl_mbps}Mb", f"{delay_ms}ms", queue_limit=q)
    if per > 0:
        sim.error_model(r1, r2, rate=per)
    flows = []
    for i, case in enumerate(ccs):
        s, d = sim.nodes(2)
        sim.link(s, r1, f"{access}Mb", access_delay, queue_limit=q)
        sim.link(r2, d, f"{access}Mb", access_delay, queue_limit=q)
        cc, params = cc_of(case)
        kw = {"cc_params": params} if params else {}
        flows.append(sim.tcp(s, d, stack="full", cc=cc, start=0.0 if i == 0 else start2, initial_cwnd=15,
                             initial_ssthresh=15 * MSS, snd_buf="16MiB", rcv_buf="16MiB", sack=False, recovery="classic",
                             trace_vars=("cwnd",) if trace else (), **kw))
    res = sim.run(until=until)
    ft = res.full_tcp.sort("flow")
    goodputs = [g / 1e6 for g in ft["goodput_bps"].to_list()]
    cwnds = [res.var("cwnd", f) for f in flows] if trace else []
    return goodputs, cwnds


def section_42(case: str, runs=range(1, 6), trace_run1: bool = False):
    """4.2: 10 Mb/s everywhere, 100 ms, PER 1e-3 after the bottleneck,
    200 s; the mean of the runs (and run 1's cwnd when asked)."""
    gs, cw = [], None
    for r in runs:
        g, c = run([case], 10.0, 100.0, 200.0, per=PER, seed=r, trace=trace_run1 and r == 1)
        gs.append(g[0])
        if c:
            cw = c[0]
    return sum(gs) / len(gs), gs, cw


def section_43(pair: str, trace: bool = False):
    """4.3/4.4: two flows on 6 Mb/s, 100 ms, flow 1 from 10 s, 400 s."""
    a, b = pair.split(":")
    return run([a, b], 6.0, 100.0, 400.0, trace=trace)


def section_45(case: str, delay_ms: int):
    return run([case], 6.0, float(delay_ms), 400.0)[0][0]


# ---- output -------------------------------------------------------------------------

def emit(args, section: str, case: str, delay: int, goodputs: list[float]):
    if args.json:
        print(json.dumps({"section": section, "case": case, "delay_ms": delay,
                          "goodput_mbps": [round(g, 4) for g in goodputs]}), flush=True)


def within(x: float, ref: float, tol: float) -> str:
    return "ok" if abs(x - ref) <= tol * ref else "MISS"


def plot_cwnd(path: str, title: str, series: list[tuple[str, object]]):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for label, fr in series:
        ax.step(fr["time"].to_list(), fr["value"].to_list(), where="post", label=label, linewidth=0.8)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("cwnd (segments)")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="one JSON object a line instead of the table")
    ap.add_argument("--quick", action="store_true", help="a subset of each section (for tests)")
    ap.add_argument("--plots", metavar="DIR", help="write cwnd figures like the paper's Figures 2-8 here")
    ap.add_argument("--sections", default="4.2,4.3,4.4,4.5", help="comma-separated sections to run")
    args = ap.parse_args(argv)
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    bad = [s for s in sections if s not in ("4.2", "4.3", "4.4", "4.5")]
    if bad:
        ap.error(f"--sections: unknown section {bad[0]!r}; choose from 4.2, 4.3, 4.4, 4.5")
    if args.plots:
        os.makedirs(args.plots, exist_ok=True)
    out = (lambda *a: None) if args.json else print

    if "4.2" in sections:
        cases = QUICK["4.2"] if args.quick else tuple(NS3_42)
        out("4.2  random loss (PER 1e-3), 10 Mb/s, 100 ms, 200 s; mean of runs 1-5, Mb/s")
        out(f"  {'case':9} {'paper':>12} {'ns-3.37 mean [range]':>22} {'Dumbbell mean [runs]':>40}  range+10%")
        run1 = {}
        for case in cases:
            mean, gs, cw = section_42(case, trace_run1=bool(args.plots))
            m, lo, hi = NS3_42[case]
            ok = "ok" if lo * 0.9 <= mean <= hi * 1.1 else "MISS"
            out(f"  {case:9} {PAPER_42[case]:>12} {m:>8.2f} [{lo:.2f}-{hi:.2f}]  {mean:>8.2f} "
                f"[{', '.join(f'{g:.2f}' for g in gs)}]  {ok}")
            emit(args, "4.2", case, 100, [mean])
            run1[case] = cw
        if args.plots and "newreno" in run1:
            for k, case in enumerate(("scalable", "vegas", "veno", "yeah"), start=2):
                series = [(c, run1[c]) for c in (case, "vegas13" if case == "vegas" else None, "newreno")
                          if c in run1 and run1[c] is not None]
                if len(series) > 1:
                    plot_cwnd(os.path.join(args.plots, f"fig{k}_{case}_vs_newreno.png"),
                              f"4.2 (run 1): {case} and NewReno, PER 1e-3", series)

    for section, table, paper in (("4.3", NS3_43, PAPER_43), ("4.4", NS3_44, {})):
        if section not in sections:
            continue
        pairs = QUICK[section] if args.quick else tuple(table)
        what = "friendliness to NewReno" if section == "4.3" else "intra-protocol fairness"
        out(f"{section}  {what}: 6 Mb/s, 100 ms, flow 1 from 10 s, 400 s; goodput flow 0 : flow 1, Mb/s")
        out(f"  {'case':18} {'paper':>12} {'ns-3.37':>13} {'Dumbbell':>13}  within 10%")
        for pair in pairs:
            gs, cws = section_43(pair, trace=bool(args.plots))
            ref = table[pair]
            ok = " ".join(within(g, r, 0.10) for g, r in zip(gs, ref))
            out(f"  {pair:18} {paper.get(pair, ''):>12} {ref[0]:>5.2f} : {ref[1]:<5.2f} "
                f"{gs[0]:>5.2f} : {gs[1]:<5.2f}  {ok}")
            emit(args, section, pair, 100, gs)
            if args.plots:
                a, b = pair.split(":")
                fig = 6 if section == "4.3" else 7
                plot_cwnd(os.path.join(args.plots, f"fig{fig}_{pair.replace(':', '_')}.png"),
                          f"{section}: {a} (flow 0) and {b} (flow 1 from 10 s)",
                          [(f"flow 0 {a}", cws[0]), (f"flow 1 {b}", cws[1])])

    if "4.5" in sections:
        points = QUICK["4.5"] if args.quick else [(c, d) for c in NS3_45 for d in DELAYS_45]
        out("4.5  one flow, 6 Mb/s, BDP queue, 400 s; goodput Mb/s by one-way delay")
        out(f"  {'case':9} {'delay':>6} {'ns-3.37':>8} {'Dumbbell':>9}  within 5%")
        got: dict[str, dict[int, float]] = {}
        for case, d in points:
            g = section_45(case, d)
            ref = NS3_45[case][DELAYS_45.index(d)]
            out(f"  {case:9} {d:>4}ms {ref:>8.2f} {g:>9.2f}  {within(g, ref, 0.05)}")
            emit(args, "4.5", case, d, [g])
            got.setdefault(case, {})[d] = g
        if args.plots:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            fig, ax = plt.subplots(figsize=(7, 3.5))
            for case, pts in got.items():
                ds = sorted(pts)
                line, = ax.plot(ds, [pts[d] for d in ds], marker="o", label=f"{case} (Dumbbell)")
                ax.plot(DELAYS_45, NS3_45[case], linestyle=":", color=line.get_color(), label=f"{case} (ns-3.37)")
            ax.set_xlabel("one-way bottleneck delay (ms)")
            ax.set_ylabel("goodput (Mb/s)")
            ax.set_title("4.5: average goodput vs delay")
            ax.legend(fontsize=7)
            fig.tight_layout()
            fig.savefig(os.path.join(args.plots, "fig8_goodput_vs_delay.png"), dpi=110)
            plt.close(fig)
    return 0


if __name__ == "__main__":
    # `... --json | head`: end quietly when the reader goes, as Unix tools do
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
