#!/usr/bin/env python3
"""Bode plots and stability margins of the linearised TCP/AQM loop
(dumbbell.models.linear; Hollot, Misra, Towsley and Gong, INFOCOM 2001) for
Hollot et al.'s example network (N >= 60 flows, R <= 246 ms, C = 3750
packets/s; the flows' propagation round trip is 200 ms), and the same
designs run in the fluid mode's equations.

    .venv/bin/python examples/fluid_bode.py [--out DIR]

Three controllers: RED designed by Proposition 1 (`red_design`: stable),
the same RED with an L_red 80 times larger (unstable: a negative phase
margin), and PI by Hollot et al.'s rule (`pi_design`, crossover w_g = z,
sampled at 160 Hz: ns-2's a_/b_).  Prints each loop's gain and phase
margins and crossovers, then the fluid run's queue over [100, 200] s (mean
and standard deviation): the stable designs settle, the unstable one
oscillates.  Writes DIR/fluid_bode.png (default demo-output/).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from dumbbell.models import linear
from dumbbell.models.fluid import Bottleneck, FlowClass, integrate

N, R, C = 60, 0.246, 3750.0
TP = 0.2      # the flows' propagation round trip (s)
FACTOR = 80   # the unstable RED's L_red over the largest Proposition 1 allows


def designs():
    d = linear.red_design(N, R, C)
    min_th = 50.0
    max_p = 0.1
    stable = Bottleneck(c=C, buffer=800, queue="red", min_th=min_th, max_th=min_th + max_p / (0.9 * d["L_red_max"]),
                        max_p=max_p, w_q=d["w_q"], gentle=False)
    unstable = Bottleneck(c=C, buffer=800, queue="red", min_th=min_th,
                          max_th=min_th + max_p / (FACTOR * d["L_red_max"]), max_p=max_p, w_q=d["w_q"], gentle=False)
    z = 2 * N / (R * R * C)
    pi = linear.pi_design(N, R, C, w_g=z, fs=160)
    pib = Bottleneck(c=C, buffer=800, queue="pi", pi_a=pi["a"], pi_b=pi["b"], pi_w=160, qref=200)
    return [("RED, Proposition 1", stable, None), (f"RED, L_red x {FACTOR}", unstable, None),
            ("PI, w_g = z, 160 Hz", pib, (pi["K_pi"], pi["z"]))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="demo-output")
    a = ap.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    w = np.logspace(-2, 2, 2000)
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for name, b, pi in designs():
        # the operating point of the design's own equilibrium
        op = linear.pi_operating_point(N, C, TP, b.qref) if pi else linear.operating_point(N, C, TP, b)
        kw = {"pi": pi} if pi else {"b": b}
        m = linear.margins(N, C, op.r0, **kw)
        d = linear.bode(w, N, C, op.r0, **kw)
        pm = m["phase_margin_deg"]
        gm = m["gain_margin_db"]
        label = f"{name}: PM {pm:.0f} deg, GM {gm:.1f} dB" if pm is not None and gm is not None else name
        ax1.semilogx(w, d["mag_db"], label=label)
        ax2.semilogx(w, d["phase_deg"])
        r = integrate([FlowClass(n=N, tp=op.tp, slow_start=False, w0=op.w0)], b, 200.0)
        tail = r.t >= 100
        print(f"{name:22} q0 {op.q0:6.1f} pkts  R0 {op.r0 * 1000:5.1f} ms  gain crossover "
              f"{m['gain_crossover'] or float('nan'):.3f} rad/s  phase margin {pm if pm is not None else float('nan'):6.1f} "
              f"deg  gain margin {gm if gm is not None else float('nan'):5.1f} dB  | fluid queue over [100, 200] s: "
              f"mean {r.q[tail].mean():6.1f}, sd {r.q[tail].std():6.1f}")
    ax1.axhline(0, color="k", lw=0.5)
    ax2.axhline(-180, color="k", lw=0.5)
    ax1.set_ylabel("|L(jw)| (dB)")
    ax2.set_ylabel("phase (deg)")
    ax2.set_xlabel("w (rad/s)")
    ax2.set_ylim(-400, 0)
    ax1.legend(fontsize=8)
    ax1.set_title(f"Open loop, designs for N >= {N}, R <= {R * 1000:g} ms, C = {C:g} pkt/s (Hollot et al. 2001)", fontsize=10)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(out / "fluid_bode.png", dpi=110)
    print(f"wrote {out / 'fluid_bode.png'}")


if __name__ == "__main__":
    main()
