#!/usr/bin/env python3
"""Seed 000 (Hamann, "A New Fair Window Algorithm for ECN Capable TCP",
UCB/ERL M99/35, 1999): the New-ECN experiments of section 4, run with
Dumbbell and printed beside the paper's figures.

    .venv/bin/python examples/seed000_newecn.py [--T 60]

* 4.2.1 setup 1: four New-ECN TCP-Reno flows (RTT 4/30/70/190 ms) through
  a marking RED gateway on a 10 Mb/s link: mean sRTT, cwnd and window slope
  per flow (Table 4.4), their ratios (Table 4.5) and Jain's fairness index
  (eq. 4.1, paper: ~0.99); the same with plain ECN flows for comparison
  (4.2.2).
* 4.2.1 setup 2: the same on a 2 Mb/s link with max_p 0.1 and 0.2.
* 4.2.3: 16 flows from 8 sources, New-ECN vs ECN.
* 4.3.2 / 4.3.3: three New-ECN flows beside three Reno (or ECN) flows.
* 4.3.1: one flow, New-ECN vs ECN vs non-ECN TCP-Reno: mean rates
  (paper: 1208 / 1157 / 1077 packets/s) and the Floyd-Fall TCP-friendly
  bound of eq. 4.4 from the New-ECN run's sent and dropped packets
  (paper: 72583 sent, 90 dropped, 4.75 Mb/s).

The Tcl scripts are examples/seed000/newecn_4flows.tcl and
newecn_1flow.tcl; they set back the ns-2 defaults that changed after the
paper's ns 2.1b5 (see their header).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from dumbbell import metrics

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "seed000"
DUMBBELL = [sys.executable, "-m", "dumbbell.cli"]


def run(script: str, args: list[str], cwd: Path) -> str:
    p = subprocess.run(DUMBBELL + ["run", str(SCRIPTS / script), *args], cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{script} {' '.join(args)} failed:\n{p.stderr}")
    return p.stdout


jain = metrics.jain


def acked_between(trace: Path, t0: float, t1: float) -> float:
    """Packets acknowledged between t0 and t1, from an ack_ variable trace
    (the trace holds one sender's records)."""
    return float(metrics.ack_progress(trace, (t0, t1))["increase"].sum())


def four_flows(option: str, T: float, *extra: str) -> dict:
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        run("newecn_4flows.tcl", [f"option={option}", f"T={T}", *extra], d)
        sums: dict[int, list[float]] = {}
        n: dict[int, int] = {}
        for line in (d / "samples.tr").read_text().splitlines():
            t, i, cwnd, srtt, slope = line.split()
            if float(t) < 5.0:  # after slow start, as the paper's means
                continue
            i = int(i)
            s = sums.setdefault(i, [0.0, 0.0, 0.0])
            s[0] += float(cwnd)
            s[1] += float(srtt)
            s[2] += float(slope)
            n[i] = n.get(i, 0) + 1
        means = {i: [v / n[i] for v in s] for i, s in sums.items()}
        rates = [acked_between(d / f"tcp{i}.tr", 10.0, T) / (T - 10.0) for i in range(1, 5)]
    return {"means": means, "rates": rates, "jain": jain(rates)}


def sixteen(option: str, T: float) -> list[float]:
    """Rates (packets/s, from 15 s on) of the 16 flows of 4.2.3."""
    with tempfile.TemporaryDirectory() as d:
        out = run("newecn_16flows.tcl", [f"option={option}", f"T={T}"], Path(d))
    return [int(l.split()[2]) / (T - 15.0) for l in out.splitlines() if l.startswith("FLOW")]


def mixed(first: str, second: str, T: float) -> list[float]:
    """Rates (packets/s, from 10 s on) of the six flows of 4.3.2/4.3.3."""
    with tempfile.TemporaryDirectory() as d:
        out = run("newecn_mixed.tcl", [first, second, str(T)], Path(d))
    return [int(l.split()[3]) / (T - 10.0) for l in out.splitlines() if l.startswith("FLOW")]


def one_flow(mode: str, T: float) -> dict:
    with tempfile.TemporaryDirectory() as d:
        out = run("newecn_1flow.tcl", [mode, str(T)], Path(d))
    m = re.search(r"RESULT (.*)", out)
    return {k: float(v) if "." in v or v.isdigit() else v for k, v in (kv.split("=") for kv in m.group(1).split())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--T", type=float, default=60.0, help="simulated seconds (paper: 60)")
    T = ap.parse_args().T

    # ---- 4.2.1 ------------------------------------------------------------------
    # Paper's Table 4.4, by flow: (mean sRTT s, mean cwnd, mean S_wnd).  Its TCP 1
    # is the 190 ms flow; the script's flow i uses source S_i (1, 14, 34, 94 ms).
    paper = {4: (0.195, 114.26, 7.627), 3: (0.075, 46.86, 2.048), 2: (0.035, 23.14, 0.758), 1: (0.015, 8.21, 0.162)}
    ne = four_flows("8", T)
    ecn = four_flows("1", T)
    print(f"Section 4.2.1, setup 1: 4 New-ECN TCP-Reno flows, 10 Mb/s RED link, {T:g} s")
    print(f"{'flow (RTTmin)':>14} | {'mean sRTT':>17} | {'mean cwnd':>17} | {'mean S_wnd':>15}")
    print(f"{'':>14} | {'paper':>8} {'ours':>8} | {'paper':>8} {'ours':>8} | {'paper':>7} {'ours':>7}")
    rtt_min = {1: "4 ms", 2: "30 ms", 3: "70 ms", 4: "190 ms"}
    for i in (4, 3, 2, 1):
        p, o = paper[i], ne["means"][i]
        print(f"{rtt_min[i]:>14} | {p[0]*1000:6.0f}ms {o[1]*1000:6.0f}ms | {p[1]:8.2f} {o[0]:8.2f} | {p[2]:7.3f} {o[2]:7.3f}")
    print("Table 4.5 ratios (cwnd, S_wnd): paper vs ours")
    for a, b, pc, ps in [(4, 1, 13.91, 47.22), (3, 1, 5.70, 12.68), (2, 1, 2.82, 4.69), (4, 2, 4.94, 10.07), (3, 2, 2.02, 2.7), (4, 3, 2.44, 3.72)]:
        oc = ne["means"][a][0] / ne["means"][b][0]
        os_ = ne["means"][a][2] / ne["means"][b][2]
        print(f"  {rtt_min[a]:>6} : {rtt_min[b]:<6}  cwnd {pc:6.2f} vs {oc:6.2f}   S_wnd {ps:6.2f} vs {os_:6.2f}")
    print(f"Jain's fairness index of the mean rates (10 s..end): paper ~0.99, ours {ne['jain']:.3f}"
          f"  (plain ECN flows: {ecn['jain']:.3f})")
    print("  rates (packets/s) New-ECN: " + " ".join(f"{r:.0f}" for r in ne["rates"]) +
          " | ECN: " + " ".join(f"{r:.0f}" for r in ecn["rates"]))

    # ---- 4.2.1 setup 2 -------------------------------------------------------------
    print(f"\nSection 4.2.1, setup 2: link 7 at 2 Mb/s (paper: max_p 0.1 no longer fair, max_p 0.2 fair again)")
    for linterm, pmax in (("10", 0.1), ("5", 0.2)):
        r = four_flows("8", T, "bw=2Mb", f"linterm={linterm}")
        print(f"  max_p {pmax}: Jain {r['jain']:.3f}, rates (packets/s) " + " ".join(f"{x:.0f}" for x in r["rates"]))

    # ---- 4.2.3 ------------------------------------------------------------------
    print("\nSection 4.2.3: 16 flows from 8 sources (RTT 10..90 ms), max_p 0.2 (paper: similar rates for all)")
    for option, label in (("8", "New-ECN"), ("1", "ECN")):
        r = sixteen(option, T)
        print(f"  {label:>7}: Jain {jain(r):.3f}, rates min/max {min(r):.0f}/{max(r):.0f} packets/s")

    # ---- 4.3.2 / 4.3.3 -----------------------------------------------------------
    print("\nSections 4.3.2 / 4.3.3: 3 New-ECN flows (RTT 70/30/4 ms) with 3 Reno or ECN flows of the same RTTs")
    print("  (paper: the New-ECN flows share about half the link fairly; the others stay RTT-biased and lose little)")
    for other in ("reno", "ecn"):
        mix = mixed("newecn", other, T)
        base = mixed(other, other, T)
        share = sum(mix[:3]) / sum(mix)
        print(f"  with {other:>4}: New-ECN rates " + " ".join(f"{x:5.0f}" for x in mix[:3])
              + f" (Jain {jain(mix[:3]):.3f}, {share * 100:.0f}% of the total); "
              + f"{other} rates " + " ".join(f"{x:5.0f}" for x in mix[3:])
              + f" vs all-{other} run " + " ".join(f"{x:5.0f}" for x in base[3:]))

    # ---- 4.3.1 ------------------------------------------------------------------
    print(f"\nSection 4.3.1: one flow, 5 Mb/s RED link, {T:g} s: mean rate (packets/s)")
    paper_rate = {"reno": 1077, "ecn": 1157, "newecn": 1208}
    runs = {m: one_flow(m, T) for m in ("reno", "ecn", "newecn")}
    for m in ("reno", "ecn", "newecn"):
        r = runs[m]["rate_pps"]
        print(f"  {m:>7}: paper {paper_rate[m]:5d}  ours {r:7.1f}  ({(r / paper_rate[m] - 1) * 100:+.1f}%)")
    r = runs["newecn"]
    sent, drops = r["sent"], r["drops"]
    bound = metrics.tcp_friendly_rate(512, 0.030, drops / sent)
    print(f"  New-ECN packets sent {sent:.0f} (paper 72583), dropped {drops:.0f} (paper 90)")
    print(f"  TCP-friendly bound eq. 4.4: paper 4.75 Mb/s (~1160 pkt/s), ours {bound / 1e6:.2f} Mb/s "
          f"({bound / (512 * 8):.0f} pkt/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
