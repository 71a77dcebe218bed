#!/usr/bin/env python3
"""L4S: a TCP Prague flow and a CUBIC flow share a DualPI2 bottleneck
(RFC 9332's DualQ Coupled AQM).  Prague's packets are ECT(1) and go to the
L4S queue, marked by its 1 ms step and by the coupled probability k p'
(k = 2); CUBIC's are Not-ECT and go to the classic queue, dropped with
p'^2 by the PI2 controller that holds it near its 15 ms target.  RFC
9332's claim: the coupling gives the two flows about equal rates, the L4S
queue staying near 1 ms while the classic queue sits at the target.

    .venv/bin/python examples/l4s.py [--rates 10,40,100] [--rtts 10,50,100]
        [--duration 120] [--l4s prague|dctcp] [--stack full|ns2] [--unpaced] [--step-min-bytes 0]
        [--cubic-friendly 0|1|2] [--seed 1] [--plots DIR] [--json]

For every (bottleneck rate, base RTT) it prints the two flows' goodput
over the second half of the run (Mb/s), their ratio (L4S / classic), the
mean queuing delay of each flow's packets at the bottleneck (the L4S
queue's and the classic queue's), and the link utilisation.  With
``--json``, one JSON object a line per point:
``{"rate_mbps": 10, "rtt_ms": 10, "l4s": "prague", "l4s_mbps": x,
"classic_mbps": y, "ratio": r, "l4s_delay_ms": d1, "classic_delay_ms":
d2, "utilisation": u, "stack": "full", "model_ratio": m, "paced": true,
"cubic_friendly": 2}``.  ``--plots DIR`` writes l4s_rates.png (the
ratio per point) and l4s_delays.png (the two queues' delays per point).

Setup: two senders, each with its own 1 Gb/s access link, a bottleneck
whose one-way delay makes the base RTT (access links 1 ms each way), the
DualPI2 buffer 250 ms at the bottleneck rate (RFC 9332's default limit),
Linux sch_dualpi2's defaults (the step applied to every L4S packet:
``step_min_bytes`` 0, where the engine's default keeps RFC 9332's T_len,
3000 bytes: ``--step-min-bytes 3000``),
1500-byte packets, SACK receivers, windows large enough never to limit.
With ``--stack full`` (the default) the flows run on the two-way TCP:
Prague (the L4S team's tcp_prague, on AccECN) or DCTCP against CUBIC,
MSS 1448, delayed ACKs; CUBIC as Linux's tcp_cubic, which the L4S team's
published results ran (RFC 9438's Reno-friendly region as Linux keeps it,
slow start stopping at ssthresh; ``--cubic-friendly 0``: ns-3.37's
TcpCubic, the default before); Prague paces as tcp_prague does (its rate
cwnd/SRTT in whole 1500-byte packets, 200% in slow start, 100% after;
``--unpaced`` turns that off; DCTCP and CUBIC do not pace);
``--stack ns2`` runs ns-2's Agent/TCP/Linux (no pacing).

What it shows (docs/full-tcp.md, "L4S rate balance", seeds 1-3, 120 s):
the L4S queue at 0.1-0.9 ms, the classic one near its target; Prague:CUBIC
0.99-1.10 at 10 Mb/s, 10 ms (the L4S team's ~1, where RFC 9332's own
equation, the "model" column, says 2: tcp_prague's RTT independence),
up to 1.46 at 10 Mb/s and at 40 Mb/s, 10 ms, and 1.5-2.1 at the larger
BDPs, where p' swings with the one CUBIC flow's sawtooth and Prague's
marks come in bursts (examples/l4s_balance.py measures the model's three
laws and shows which one fails at each point).  The second half of the
run is measured: at 100 Mb/s, 100 ms Prague's one segment a round needs
about a minute to reach its share (0.35 over 15-30 s).
"""

from __future__ import annotations

import argparse
import json
import os

from dumbbell import Simulation

PKT = 1460            # TCP payload: 1500 bytes on the wire
WIRE = PKT + 40
ACCESS_DELAY = 0.001  # s, one way, each access link


def model_ratio(rtt_ms: float, l4s_delay_ms: float, classic_delay_ms: float, k: float = 2.0) -> float:
    """RFC 9332 section 2.1's steady state: a scalable flow's rate 2/(R_L p_L)
    against a Reno-friendly classic flow's 1.22/(R_C sqrt(p_C)), with the
    coupling p_C = (p_L/k)^2: r_L/r_C = 2 R_C / (1.22 k R_L), R = base RTT
    plus the queue's delay.  At equal RTTs and k = 2: 0.82."""
    return 2.0 * (rtt_ms + classic_delay_ms) / (1.22 * k * (rtt_ms + l4s_delay_ms))


def build(rate_mbps: float, rtt_ms: float, l4s: str = "prague", seed: int = 1, duration: float = 120.0,
          aqm: dict | None = None, stack: str = "full", cc_params: dict | None = None, paced: bool = True,
          classic: str = "cubic", cubic_friendly: int = 2):
    """The scenario: (sim, the L4S flow, the classic flow, the bottleneck link).
    `classic`: the full TCP's classic congestion control (examples/l4s_balance.py);
    `cubic_friendly`: the full TCP CUBIC's `tcp_friendliness` (2: Linux's
    tcp_cubic, the default; 1: RFC 9438's rule; both with `slow_start_cap`
    1; 0: ns-3.37's TcpCubic whole, no Reno-friendly region)."""
    sim = Simulation(seed=seed)
    s_l, s_c, r1, r2, dst = sim.node("s_l4s"), sim.node("s_classic"), sim.node("r1"), sim.node("r2"), sim.node("dst")
    rate = rate_mbps * 1e6
    one_way = rtt_ms / 2000.0 - 2 * ACCESS_DELAY
    if one_way <= 0:
        raise ValueError(f"rtt_ms must exceed {4 * ACCESS_DELAY * 1000:g} ms, got {rtt_ms}")
    limit = max(int(rate * 0.250 / 8 / WIRE), 20)
    for s in (s_l, s_c):
        sim.link(s, r1, "1Gb", ACCESS_DELAY, queue_limit=10_000)
    # Linux sch_dualpi2 applies the step to every L4S packet (min_qlen_step
    # 0), not only above RFC 9332's T_len: the engine's default keeps T_len
    aqm = {"step_min_bytes": 0, **(aqm or {})}
    bott = sim.link(r1, r2, rate, one_way, queue="DualPI2", duplex=False, queue_limit=limit,
                    queue_params=aqm)
    sim.link(r2, r1, rate, one_way, duplex=False, queue_limit=10_000)
    sim.link(r2, dst, "1Gb", ACCESS_DELAY, queue_limit=10_000)
    if stack == "full":
        # Linux-like ends: MSS 1448 with timestamps, SACK, delayed ACKs,
        # buffers that never limit (4 BDPs); Prague negotiates AccECN
        buf = max(4 * int(rate * rtt_ms / 1000 / 8), 1 << 20)
        common = dict(stack="full", sack=True, snd_buf=buf, rcv_buf=buf)
        if l4s == "dctcp":
            # ECT(1), so that DualPI2 takes it into the L4S queue
            cc_params = {"use_ect0": 0, **(cc_params or {})}
        extra = {"pacing": paced} if l4s == "prague" else {}
        fl = sim.tcp(s_l, dst, cc=l4s, flow_id=0, cc_params=cc_params or None, **common, **extra)
        # 1 and 2: slow start stops at ssthresh as RFC 5681's and Linux's
        # tcp_slow_start (0: ns-3.37's TcpCubic whole, which adds every
        # segment an ACK covers: a cumulative ACK after a timeout can open
        # the window far past ssthresh)
        friendly = ({"tcp_friendliness": cubic_friendly, "slow_start_cap": 1}
                    if classic == "cubic" and cubic_friendly else None)
        fc = sim.tcp(s_c, dst, cc=classic, flow_id=1, start=0.01, cc_params=friendly, **common)
    else:
        window = 4 * int(rate * rtt_ms / 1000 / 8 / WIRE) + 100
        fl = sim.tcp(s_l, dst, variant="linux", cc=l4s, sink="sack", packet_size=PKT, window=window, flow_id=0)
        fc = sim.tcp(s_c, dst, variant="linux", cc="cubic", sink="sack", packet_size=PKT, window=window,
                     flow_id=1, start=0.01)
    return sim, fl, fc, bott


def run_point(rate_mbps: float, rtt_ms: float, l4s: str = "prague", seed: int = 1, duration: float = 120.0,
              aqm: dict | None = None, stack: str = "full", cc_params: dict | None = None,
              paced: bool = True, cubic_friendly: int = 2) -> dict:
    """One run: goodputs and queue delays over the second half.  `paced`:
    Prague on the full TCP paces (tcp_prague's rate); the other flows never."""
    paced = paced and stack == "full" and l4s == "prague"
    sim, fl, fc, bott = build(rate_mbps, rtt_ms, l4s, seed, duration, aqm, stack, cc_params, paced,
                              cubic_friendly=cubic_friendly)
    res = sim.run(duration, trace_packets=[bott], monitor_queues=False)
    window = (duration / 2, duration)
    gp = res.goodput(window, link=bott, by="flow")
    rates = {row["flow"]: row["goodput_bps"] / 1e6 for row in gp.iter_rows(named=True)}
    qd = res.queue_delay(bott, window, by="flow")
    delays = {row["flow"]: (row["mean"] or 0.0) * 1000 for row in qd.iter_rows(named=True)}
    lm, cm = rates.get(fl.id, 0.0), rates.get(fc.id, 0.0)
    ld, cd = delays.get(fl.id, 0.0), delays.get(fc.id, 0.0)
    return {
        "rate_mbps": rate_mbps, "rtt_ms": rtt_ms, "l4s": l4s, "stack": stack,
        "l4s_mbps": round(lm, 4), "classic_mbps": round(cm, 4),
        "ratio": round(lm / cm, 4) if cm > 0 else None,
        "model_ratio": round(model_ratio(rtt_ms, ld, cd), 4),
        "l4s_delay_ms": round(ld, 4), "classic_delay_ms": round(cd, 4),
        "utilisation": round((lm + cm) / rate_mbps, 4), "paced": paced, "cubic_friendly": cubic_friendly,
    }


def plots(points: list[dict], outdir: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(outdir, exist_ok=True)
    labels = [f"{p['rate_mbps']:g} Mb/s\n{p['rtt_ms']:g} ms" for p in points]
    xs = range(len(points))
    fig, ax = plt.subplots(figsize=(max(6, len(points) * 0.9), 4))
    ax.bar([x - 0.2 for x in xs], [p["l4s_mbps"] / p["rate_mbps"] for p in points], 0.4, label=f"{points[0]['l4s']} (L4S)")
    ax.bar([x + 0.2 for x in xs], [p["classic_mbps"] / p["rate_mbps"] for p in points], 0.4, label="CUBIC (classic)")
    ax.axhline(0.5, color="gray", lw=0.8, ls="--")
    ax.set_xticks(list(xs), labels, fontsize=8)
    ax.set_ylabel("share of the bottleneck")
    ax.set_title("DualPI2: rate balance (RFC 9332 coupling, k = 2)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "l4s_rates.png"), dpi=120)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(max(6, len(points) * 0.9), 4))
    ax.bar([x - 0.2 for x in xs], [p["l4s_delay_ms"] for p in points], 0.4, label="L4S queue")
    ax.bar([x + 0.2 for x in xs], [p["classic_delay_ms"] for p in points], 0.4, label="classic queue")
    ax.axhline(15, color="gray", lw=0.8, ls="--")
    ax.axhline(1, color="gray", lw=0.8, ls=":")
    ax.set_xticks(list(xs), labels, fontsize=8)
    ax.set_ylabel("mean queuing delay (ms)")
    ax.set_title("DualPI2: queue delays (target 15 ms, L4S step 1 ms)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "l4s_delays.png"), dpi=120)
    plt.close(fig)


def _floats(text: str, what: str) -> list[float]:
    try:
        vals = [float(x) for x in text.split(",") if x.strip()]
        vals = [int(v) if v.is_integer() else v for v in vals]
    except ValueError:
        raise SystemExit(f"l4s.py: {what} must be comma-separated numbers, got {text!r}") from None
    if not vals or any(v <= 0 for v in vals):
        raise SystemExit(f"l4s.py: {what} must be positive numbers, got {text!r}")
    return vals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rates", default="10,40,100", help="bottleneck rates, Mb/s, comma-separated")
    ap.add_argument("--rtts", default="10,50,100", help="base RTTs, ms, comma-separated (above 4 ms)")
    ap.add_argument("--duration", type=float, default=120.0,
                    help="seconds simulated per point (the second half is measured; at 100 Mb/s, 100 ms Prague's "
                         "one segment a round needs about a minute to reach its share)")
    ap.add_argument("--l4s", choices=("prague", "dctcp"), default="prague", help="the L4S flow's congestion control")
    ap.add_argument("--stack", choices=("full", "ns2"), default="full",
                    help="full: the two-way TCP (Prague on AccECN, CUBIC); ns2: Agent/TCP/Linux (the ns-2 versions)")
    ap.add_argument("--unpaced", action="store_true", help="Prague without pacing (tcp_prague paces)")
    ap.add_argument("--step-min-bytes", type=int, default=0, metavar="BYTES",
                    help="DualPI2's step only above this L4S backlog (RFC 9332's T_len; Linux: 0)")
    ap.add_argument("--cubic-friendly", type=int, choices=(0, 1, 2), default=2,
                    help="the classic CUBIC: 2 Linux's tcp_cubic (the published L4S results'), 1 RFC 9438's "
                         "Reno-friendly rule, both with slow start stopping at ssthresh; 0 ns-3.37's TcpCubic "
                         "(no Reno-friendly region, slow start adding every segment acknowledged)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plots", metavar="DIR", help="write l4s_rates.png and l4s_delays.png here")
    ap.add_argument("--json", action="store_true", help="one JSON object a line per point")
    a = ap.parse_args()
    rates, rtts = _floats(a.rates, "--rates"), _floats(a.rtts, "--rtts")
    if any(r <= 4 for r in rtts):
        raise SystemExit(f"l4s.py: --rtts must be above 4 ms (the access links take 4), got {a.rtts!r}")
    if a.step_min_bytes < 0:
        raise SystemExit(f"l4s.py: --step-min-bytes must be 0 or more bytes, got {a.step_min_bytes}")
    if a.duration <= 1:
        raise SystemExit(f"l4s.py: --duration must be above 1 s, got {a.duration}")
    points = []
    if not a.json:
        print(f"{'rate':>7} {'RTT':>6} {a.l4s + ' Mb/s':>12} {'CUBIC Mb/s':>11} {'ratio':>6} {'model':>6} "
              f"{'L4S q ms':>9} {'classic q ms':>13} {'util':>5}")
    for rate in rates:
        for rtt in rtts:
            p = run_point(rate, rtt, a.l4s, a.seed, a.duration, aqm={"step_min_bytes": a.step_min_bytes},
                          stack=a.stack, paced=not a.unpaced, cubic_friendly=a.cubic_friendly)
            points.append(p)
            if a.json:
                print(json.dumps(p), flush=True)
            else:
                ratio = f"{p['ratio']:.2f}" if p["ratio"] is not None else "-"
                print(f"{rate:>7g} {rtt:>6g} {p['l4s_mbps']:>12.2f} {p['classic_mbps']:>11.2f} {ratio:>6} "
                      f"{p['model_ratio']:>6.2f} {p['l4s_delay_ms']:>9.2f} {p['classic_delay_ms']:>13.2f} "
                      f"{p['utilisation']:>5.2f}", flush=True)
    if not a.json:
        print("expected: ratio near 1 (the L4S team's Linux results at equal RTT); 'model' is RFC 9332\n"
              "section 2.1's steady state 2 R_C / (1.22 k R_L) with the measured queue delays (0.82 at equal RTTs);\n"
              "L4S queue about 1 ms (the step), classic queue near the 15 ms target.")
    if a.plots:
        plots(points, a.plots)


if __name__ == "__main__":
    main()
