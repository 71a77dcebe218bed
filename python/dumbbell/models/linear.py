"""Linear analysis of the fluid model around its operating point (Hollot,
Misra, Towsley and Gong, "A control theoretic analysis of RED", INFOCOM
2001; and "On designing improved controllers for AQM routers supporting TCP
flows", INFOCOM 2001, for PI), for N homogeneous flows of round trip R0
through a bottleneck of C packets/s.

* operating point (Hollot RED eq. 4): W0 = R0 C/N, p0 = 2/W0^2,
  R0 = Tp + q0/C, with p0 = RED's profile at q0 (x0 = q0);
* the plant (Hollot RED eq. 5-7, TCP window and queue in cascade, the
  round trip as a pure delay):
      P(s) = (C^2/(2N)) e^{-s R0} / ((s + 2N/(R0^2 C)) (s + 1/R0));
* RED (Hollot RED eq. 8): C_red(s) = L_red K/(s + K), L_red = max_p/(max_th
  - min_th), K = -C ln(1 - w_q) (the EWMA sampled per packet);
* RED's stability condition (Hollot RED Proposition 1), for N >= N_min and
  R0 <= R_max:  L_red (R_max C)^3/(2 N_min)^2 <= sqrt(w_g^2/K^2 + 1),
  w_g = 0.1 min(2 N_min/(R_max^2 C), 1/R_max);
* PI (Hollot PI section IV): C_pi(s) = K_pi (s/z + 1)/s with the zero on the
  TCP pole, z = 2 N_min/(R_max^2 C), and K_pi = w_g |j w_g R_max + 1|
  (2 N_min)^2/(R_max C)^3 so that the loop crosses 0 dB at w_g; sampled
  at fs by the bilinear transform it is ns-2's Queue/PI (`pi_discrete`,
  `pi_continuous`); its operating point holds q0 = q_ref
  (`pi_operating_point`).

Margins and Bode data are computed numerically from the frequency response
(`bode`, `margins`), so they hold for the exact loop, not only the bounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .fluid import Bottleneck, red_profile


@dataclass(frozen=True)
class OperatingPoint:
    n: float
    c: float
    tp: float
    q0: float
    r0: float
    w0: float
    p0: float


def operating_point(n: float, c: float, tp: float, b: Bottleneck) -> OperatingPoint:
    """The equilibrium of the fluid model for `n` flows of propagation round
    trip `tp` (Hollot RED eq. 4): solved for q0 by bisection on
    p(q0) = 2 n^2/((tp + q0/c) c)^2.  Raises if the equilibrium would need a
    queue beyond the buffer (the link is not the bottleneck there, or RED
    cannot hold it)."""
    def f(q):
        r = tp + q / c
        return red_profile(q, b) - 2 * n * n / (r * c) ** 2

    hi = min(b.buffer, 2 * b.max_th if b.gentle else b.max_th)
    if f(0.0) >= 0:   # the link is not loaded: no queue
        r0 = tp
        return OperatingPoint(n, c, tp, 0.0, r0, r0 * c / n, 2 * n * n / (r0 * c) ** 2)
    if f(hi) < 0:
        raise ValueError("operating_point: no equilibrium within RED's range (too many flows for the profile)")
    lo = 0.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    q0 = (lo + hi) / 2
    r0 = tp + q0 / c
    w0 = r0 * c / n
    return OperatingPoint(n, c, tp, q0, r0, w0, 2 / w0 ** 2)


def plant(s, n: float, c: float, r0: float):
    """P(s) of Hollot RED eq. 7 (p -> q), at complex frequencies `s`."""
    s = np.asarray(s, dtype=complex)
    return (c * c / (2 * n)) * np.exp(-s * r0) / ((s + 2 * n / (r0 * r0 * c)) * (s + 1 / r0))


def red_controller(s, b: Bottleneck):
    """C_red(s) = L_red K/(s + K) (Hollot RED eq. 8); the slope of the
    gentle part is not used (the operating point is assumed below max_th)."""
    s = np.asarray(s, dtype=complex)
    l_red = b.max_p / (b.max_th - b.min_th)
    return l_red * b.k / (s + b.k)


def pi_controller(s, k_pi: float, z: float):
    s = np.asarray(s, dtype=complex)
    return k_pi * (s / z + 1) / s


def loop(s, n: float, c: float, r0: float, b: Bottleneck | None = None, pi: tuple | None = None):
    """The open loop L(s) = C(s) P(s) with RED (`b`) or PI (`pi` = (k_pi, z))."""
    ctl = red_controller(s, b) if pi is None else pi_controller(s, *pi)
    return ctl * plant(s, n, c, r0)


def bode(w, n: float, c: float, r0: float, b: Bottleneck | None = None, pi: tuple | None = None) -> dict:
    """Bode data of the open loop at angular frequencies `w` (rad/s):
    magnitude in dB and unwrapped phase in degrees."""
    w = np.asarray(w, dtype=float)
    L = loop(1j * w, n, c, r0, b, pi)
    # the delay's phase is added analytically, so that unwrapping is exact
    rational = L * np.exp(1j * w * r0)
    phase = np.degrees(np.unwrap(np.angle(rational))) - np.degrees(w * r0)
    return {"w": w, "mag_db": 20 * np.log10(np.abs(L)), "phase_deg": phase}


def margins(n: float, c: float, r0: float, b: Bottleneck | None = None, pi: tuple | None = None,
            w: np.ndarray | None = None) -> dict:
    """Gain margin (dB) at the phase crossover, phase margin (degrees) at
    the gain crossover, and the two frequencies (rad/s); None where the loop
    does not cross.  The closed loop is stable when both margins are
    positive (the open loop is stable)."""
    if w is None:
        w = np.logspace(-3, 4, 20000) / r0
    d = bode(w, n, c, r0, b, pi)
    mag, ph = d["mag_db"], d["phase_deg"]
    out = {"gain_margin_db": None, "phase_crossover": None, "phase_margin_deg": None, "gain_crossover": None}
    i = np.flatnonzero((mag[:-1] > 0) & (mag[1:] <= 0))
    if len(i):
        k = i[0]
        a = mag[k] / (mag[k] - mag[k + 1])
        out["gain_crossover"] = float(w[k] + a * (w[k + 1] - w[k]))
        out["phase_margin_deg"] = float(180 + ph[k] + a * (ph[k + 1] - ph[k]))
    j = np.flatnonzero((ph[:-1] > -180) & (ph[1:] <= -180))
    if len(j):
        k = j[0]
        a = (ph[k] + 180) / (ph[k] - ph[k + 1])
        out["phase_crossover"] = float(w[k] + a * (w[k + 1] - w[k]))
        out["gain_margin_db"] = float(-(mag[k] + a * (mag[k + 1] - mag[k])))
    return out


def red_stability(n_min: float, r_max: float, c: float, b: Bottleneck) -> dict:
    """Hollot RED Proposition 1: the sufficient condition for all N >= n_min,
    R0 <= r_max.  Returns both sides, w_g and whether it holds."""
    w_g = 0.1 * min(2 * n_min / (r_max * r_max * c), 1 / r_max)
    l_red = b.max_p / (b.max_th - b.min_th)
    lhs = l_red * (r_max * c) ** 3 / (2 * n_min) ** 2
    rhs = math.sqrt(w_g ** 2 / b.k ** 2 + 1)
    return {"lhs": lhs, "rhs": rhs, "w_g": w_g, "stable": lhs <= rhs}


def red_design(n_min: float, r_max: float, c: float, w_q: float | None = None, k: float | None = None) -> dict:
    """RED parameters that satisfy Proposition 1 (Hollot RED section V):
    the EWMA pole K (from `k`, or `w_q`, or by default K = w_g, the
    crossover, which Hollot's design example does to keep the filter's phase
    lag moderate), the largest L_red = max_p/(max_th - min_th) allowed, and
    w_q = 1 - exp(-K/C)."""
    w_g = 0.1 * min(2 * n_min / (r_max * r_max * c), 1 / r_max)
    if k is None:
        k = -c * math.log(1 - w_q) if w_q is not None else w_g
    l_max = math.sqrt(w_g ** 2 / k ** 2 + 1) * (2 * n_min) ** 2 / (r_max * c) ** 3
    return {"w_g": w_g, "K": k, "w_q": 1 - math.exp(-k / c), "L_red_max": l_max}


def pi_design(n_min: float, r_max: float, c: float, w_g: float | None = None, fs: float | None = None) -> dict:
    """Hollot PI design (section IV): zero z on the TCP pole 2N/(R^2 C),
    crossover w_g (default 0.1 min(z, 1/R_max), as for RED), gain K_pi for
    |L(j w_g)| = 1.  With a sampling frequency `fs` (Hz), also ns-2's
    ``a_`` and ``b_`` for ``w_`` = fs (`pi_discrete`)."""
    z = 2 * n_min / (r_max * r_max * c)
    if w_g is None:
        w_g = 0.1 * min(z, 1 / r_max)
    k_pi = w_g * abs(1j * w_g * r_max + 1) * (2 * n_min) ** 2 / (r_max * c) ** 3
    out = {"z": z, "w_g": w_g, "K_pi": k_pi}
    if fs is not None:
        out["a"], out["b"] = pi_discrete(k_pi, z, fs)
        out["w"] = fs
    return out


def pi_discrete(k_pi: float, z: float, fs: float) -> tuple[float, float]:
    """The PI controller C(s) = K_pi (s/z + 1)/s sampled at `fs` Hz by the
    bilinear (Tustin) transform, as Hollot et al. implement it (PI paper,
    section V) and ns-2's Queue/PI runs it: p[k] = p[k-1] + a (q[k] - q_ref)
    - b (q[k-1] - q_ref) with a = K_pi/z + K_pi/(2 fs), b = K_pi/z -
    K_pi/(2 fs).  (Their example, K_pi = 9.64e-6, z = 0.53, fs = 160 Hz,
    gives ns-2's defaults a = 1.822e-5, b = 1.816e-5.)"""
    if not (k_pi > 0 and z > 0 and fs > 0):
        raise ValueError(f"pi_discrete: K_pi, z and fs must be positive, got {k_pi}, {z}, {fs}")
    return k_pi / z + k_pi / (2 * fs), k_pi / z - k_pi / (2 * fs)


def pi_continuous(a: float, b: float, fs: float) -> tuple[float, float]:
    """(K_pi, z) of ns-2's discrete PI (``a_``, ``b_``, ``w_`` = fs): the
    inverse of `pi_discrete`."""
    if not (a > b and a + b > 0 and fs > 0):
        raise ValueError(f"pi_continuous: needs a > b, a + b > 0 and fs > 0, got a={a}, b={b}, fs={fs}")
    k_pi = (a - b) * fs
    return k_pi, 2 * k_pi / (a + b)


def pi_operating_point(n: float, c: float, tp: float, qref: float) -> OperatingPoint:
    """The equilibrium under PI: the integral action holds the queue at
    q_ref, so R0 = tp + q_ref/C, W0 = R0 C/N, p0 = 2/W0^2."""
    r0 = tp + qref / c
    w0 = r0 * c / n
    return OperatingPoint(n, c, tp, qref, r0, w0, 2 / w0 ** 2)
