"""Fluid model of long-lived TCP flows through one bottleneck queue
(DropTail, RED or PI, with or without ECN): the delay differential equations of
Misra, Gong and Towsley (SIGCOMM 2000) in the form Hollot, Misra, Towsley
and Gong use (INFOCOM 2001, eq. 1-2), for classes of flows with their own
propagation delay.

For class i (N_i flows, propagation round trip Tp_i, window W_i per flow)
and the bottleneck (capacity C packets/s, buffer B packets, queue q):

    R_i(t)   = Tp_i + q(t)/C                                  (Hollot eq. 2)
    dW_i/dt  = 1/R_i(t) - W_i(t)/2 * W_i(t-R_i)/R_i(t-R_i) * p(t-R_i)
                                                              (MGT eq. 8 without
                                                               timeouts; Hollot eq. 1)
    dq/dt    = sum_i N_i W_i(t)/R_i(t) * (1 - d(t)) - C       (Hollot eq. 1, second
                                                               line; 0 <= q <= B)
    dx/dt    = K (q(t) - x(t)),  K = -C ln(1 - w_q)           (MGT eq. 10: RED's
                                                               EWMA sampled per packet)
    p(t)     = the RED profile of x (MGT eq. 11, Hollot eq. 3;
               gentle: linear from max_p at max_th to 1 at 2 max_th)

PI (Hollot et al., "On designing improved controllers for AQM routers
supporting TCP flows", INFOCOM 2001; ns-2's Queue/PI) replaces RED's
average by the controller's probability, on the instantaneous queue:

    dp/dt    = a dq/dt + (a - b) w (q(t) - q_ref),   0 <= p <= 1

the continuous-time form of ns-2's update p += a (q - q_ref) - b (q_old -
q_ref) every 1/w seconds (proportional gain a, integral gain (a - b) w; in
byte mode q counts bytes over ``mean_pktsize_``).

p is the probability that a packet carries a congestion signal (a drop, or
an ECN mark); d is the part of it that drops (with ECN: only tail drops
and, when not gentle, the forced drops above max_th).  Three additions of
ours, each a parameter:

* the factor (1 - d) on the queue's arrivals: dropped packets do not enter
  the queue (MGT and Hollot leave it out; it matters only at high loss);
* DropTail, and RED's own tail drop at B: while the queue is full the
  arrivals beyond C are dropped, d = 1 - C/lambda(t) (lambda the offered
  rate), so that the admitted rate is C;
* `spacing`: ns-2's RED spaces its drops with a count (Floyd-Jacobson
  1993, section 7): a packet's probability is p_b/(1 - count p_b), or with
  ``wait_`` p_b/(2 - count p_b) after 1/p_b packets, so the inter-drop
  gap is uniform on [1, 1/p_b] (mean rate 2 p_b/(1 + p_b)) or on
  [1/p_b, 2/p_b] (mean rate 2 p_b/3).  "uniform" and "wait" apply these
  mean rates; "none" is MGT's p_b.

`decrease="per-window"` (ours, not MGT's): a window halves once per
window of data that carries a signal, at the loss-event rate
(1 - (1 - p(t-R))^W) r_i(t-R)/W rather than p(t-R) r_i(t-R) (MGT's, the
default: once per signal).  The two agree for small p (and so share
Hollot's operating point to first order); under heavy signalling, the
buffer overflow that ends slow start, MGT's windows collapse to 1 and
grow back by one packet per round trip, while TCP (NewReno, SACK, and
Reno after its timeout's slow start) halves about once per round trip.

Slow start (not in MGT): a class starts with its initial window and grows
it as ACKs come back, dW/dt = W(t-R)/R(t-R) (one packet per ACK: the window
doubles per round trip) until the first congestion signal reaches it or its
window reaches its maximum.  The window stays within [1, W_max] (W_max: the
receiver's/sender's window, ns-2's ``window_``).  Timeouts, fast-recovery
details and the ACK path's queues are not modelled.

Integration: the method of steps (`integrate`: the loop runs in the
engine, crates/engine/src/fluid.rs; `integrate_python` is the same loop in
Python, DropTail and RED only, kept as its reference).  The delays are at least min(Tp) > 0, so
with a fixed step h <= min(Tp) every delayed value t - R_i(t) lies in the
computed past; it is read from the stored history (a uniform grid, every
step) by linear interpolation, and the step is Heun's (explicit trapezoidal,
second order), so the interpolation's O(h^2) error matches the method's.
The right-hand side is only piecewise smooth (the queue held in [0, B],
the window in [1, W_max], RED's kinks, slow start's end), which a higher
order method would not exploit.  h defaults to min(Tp)/10, and is kept
under 0.2/K for the EWMA's stability.  Why not a library: see
docs/architecture.md (fluid mode).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

QUEUES = ("droptail", "red", "pi")
SPACINGS = ("none", "uniform", "wait")
DECREASES = ("per-signal", "per-window")


@dataclass(frozen=True)
class FlowClass:
    """`n` identical long-lived TCP flows.  `tp`: propagation round trip
    (seconds, transmission times included, queueing at the bottleneck
    excluded); `w_max`: maximum window (packets); `w0`: initial window;
    `start`: the time the flows start; `flows`: ids of the flows (for
    results); `route`: the queues it crosses, as indices into the list of
    bottlenecks given to `integrate` (one queue: (0,))."""

    n: int
    tp: float
    w_max: float = 1e9
    w0: float = 1.0
    start: float = 0.0
    slow_start: bool = True
    flows: tuple = ()
    name: str = ""
    route: tuple = (0,)     # the queues it crosses (indices into the bottleneck list)


@dataclass(frozen=True)
class Bottleneck:
    """The bottleneck: capacity `c` (packets/s), buffer `buffer` (packets)
    and its discipline.  RED's thresholds are in packets; `w_q` is the
    per-packet EWMA weight; `max_p` the probability at `max_th`."""

    c: float
    buffer: float
    queue: str = "droptail"
    min_th: float = 5.0
    max_th: float = 15.0
    max_p: float = 0.1
    w_q: float = 0.002
    gentle: bool = True
    ecn: bool = False
    spacing: str = "none"
    bytes_scale: float = 1.0   # RED/PI byte mode: p_b times packet size / mean_pktsize
    mark_p: float | None = None   # ECN marks while p_b < mark_p (None: while x < max_th)
    # PI (ns-2's Queue/PI): p += pi_a (q - qref) - pi_b (q_old - qref), pi_w times a second,
    # on the queue counted in units of q_scale packets (byte mode: size/mean_pktsize)
    pi_a: float = 0.00001822
    pi_b: float = 0.00001816
    pi_w: float = 170.0
    qref: float = 50.0
    q_scale: float = 1.0

    def check(self) -> None:
        if self.queue not in QUEUES:
            raise ValueError(f"fluid model: queue must be one of {QUEUES}, got {self.queue!r}")
        if not (self.c > 0 and self.buffer > 0):
            raise ValueError("fluid model: capacity and buffer must be positive")
        if self.queue == "red":
            if not 0 <= self.min_th < self.max_th:
                raise ValueError(f"fluid model: RED needs 0 <= min_th < max_th, got {self.min_th}, {self.max_th}")
            if not 0 < self.w_q < 1 or not 0 < self.max_p <= 1:
                raise ValueError("fluid model: RED needs 0 < w_q < 1 and 0 < max_p <= 1")
            if self.spacing not in SPACINGS:
                raise ValueError(f"fluid model: spacing must be one of {SPACINGS}")
        if self.queue == "pi":
            if not (self.pi_w > 0 and math.isfinite(self.pi_a) and math.isfinite(self.pi_b) and self.qref >= 0):
                raise ValueError(f"fluid model: PI needs w > 0, finite a and b and qref >= 0, got "
                                 f"a={self.pi_a}, b={self.pi_b}, w={self.pi_w}, qref={self.qref}")

    @property
    def k(self) -> float:
        """The EWMA's pole (1/s): MGT eq. 10, K = -ln(1-w_q)/delta with
        delta = 1/C (one sample per packet)."""
        return -self.c * math.log(1.0 - self.w_q)


def red_pb(x: float, b: Bottleneck) -> float:
    """RED's p_b as a function of the average (MGT eq. 11 / Hollot eq. 3;
    gentle RED: linear from max_p at max_th to 1 at 2 max_th; ns-2's
    calculate_p), at most 1."""
    if x < b.min_th:
        return 0.0
    if x < b.max_th:
        return b.max_p * (x - b.min_th) / (b.max_th - b.min_th)
    if b.gentle and x < 2 * b.max_th:
        return b.max_p + (1 - b.max_p) * (x - b.max_th) / b.max_th
    return 1.0


def red_profile(x: float, b: Bottleneck) -> float:
    """The probability that a packet is signalled (dropped or marked) at
    average `x`: `red_pb`, spaced as ns-2 spaces its drops (`spacing`) and
    scaled for byte mode (see the module docstring); at most 1."""
    pb = red_pb(x, b)
    if pb >= 1.0:
        return 1.0
    if b.spacing == "uniform":
        pb = 2 * pb / (1 + pb)
    elif b.spacing == "wait":
        pb = 2 * pb / 3
    return min(1.0, pb * b.bytes_scale)


def red_marks(x: float, b: Bottleneck) -> bool:
    """With ECN, whether RED marks (rather than drops) at average `x`: below
    max_th (RFC 3168 section 7; non-gentle beyond is forced drop), or, as
    ns-2 with ``use_mark_p_``, while p_b < `mark_p`."""
    if b.mark_p is None:
        return x < b.max_th
    return red_pb(x, b) < b.mark_p


@dataclass
class FluidResult:
    """A fluid run, sampled every `dt_out` seconds: `t` (n), per class
    `w` (n, K) window per flow, `rate` (n, K) sending rate of the class
    (packets/s), `goodput` (n, K) its delivered rate, `rtt` (n, K); the
    queue `q` (n), the controller's state `x` (n: RED's average, PI's
    probability), the signal probability `p` (n) and its dropping part `d`
    (n); with several queues (a parking lot) these four are (n, L) and
    `mean_queue` is (L,).  `classes`/`bottleneck` are the inputs
    (`bottlenecks`: all of them)."""

    classes: list
    bottleneck: Bottleneck
    until: float
    h: float
    t: np.ndarray
    w: np.ndarray
    rate: np.ndarray
    goodput: np.ndarray
    rtt: np.ndarray
    q: np.ndarray
    x: np.ndarray
    p: np.ndarray
    d: np.ndarray
    delivered: np.ndarray          # (K,) packets delivered per class over [0, until]
    mean_queue: float              # time average of q over [0, until] (per queue with several)
    extra: dict = field(default_factory=dict)
    bottlenecks: list = field(default_factory=list)

    def mean(self, what: str, window=None) -> np.ndarray:
        """Time average of a sampled series over `window` (t0, t1)."""
        a = getattr(self, what)
        sel = np.ones(len(self.t), bool) if window is None else (self.t >= window[0]) & (self.t <= window[1])
        return a[sel].mean(axis=0)

    def frames(self) -> dict:
        """The series as polars frames: "classes" (time, class, cwnd, rate,
        goodput, rtt; rates in packets/s for the whole class) and "queue"
        (time, queue_pkts, avg_queue_pkts, p_signal, p_drop; with several
        queues a column "queue" says which)."""
        import polars as pl

        n, k = self.w.shape
        cls = pl.DataFrame({
            "time": np.repeat(self.t, k),
            "class": np.tile(np.arange(k, dtype=np.int32), n),
            "cwnd": self.w.ravel(),
            "rate_pkts": self.rate.ravel(),
            "goodput_pkts": self.goodput.ravel(),
            "rtt": self.rtt.ravel(),
        })
        if self.q.ndim == 1:
            q = pl.DataFrame({"time": self.t, "queue_pkts": self.q, "avg_queue_pkts": self.x, "p_signal": self.p,
                              "p_drop": self.d})
        else:
            L = self.q.shape[1]
            q = pl.DataFrame({"time": np.repeat(self.t, L), "queue": np.tile(np.arange(L, dtype=np.int32), n),
                              "queue_pkts": self.q.ravel(), "avg_queue_pkts": self.x.ravel(),
                              "p_signal": self.p.ravel(), "p_drop": self.d.ravel()})
        return {"classes": cls, "queue": q}


def _default_step(classes, b) -> float:
    h = min(c.tp for c in classes) / 10
    for q in (b if isinstance(b, (list, tuple)) else [b]):
        if q.queue == "red":
            h = min(h, 0.2 / q.k)
    return h


def _checked(classes, b, until: float, h: float | None, dt_out: float | None):
    for q in (b if isinstance(b, (list, tuple)) else [b]):
        q.check()
    if not classes:
        raise ValueError("fluid model: no flow classes")
    for c in classes:
        if c.n < 1 or not c.tp > 0 or not c.w_max >= 1 or not c.w0 >= 1:
            raise ValueError(f"fluid model: bad class {c!r} (n >= 1, tp > 0, 1 <= w0, w_max >= 1)")
    if not until > 0:
        raise ValueError("fluid model: until must be positive")
    if h is None:
        h = _default_step(classes, b)
    tpmin = min(c.tp for c in classes)
    if not 0 < h <= tpmin:
        raise ValueError(f"fluid model: the step must be in (0, min Tp = {tpmin}], got {h}")
    if dt_out is None:
        dt_out = max(h, until / 5000)
    return h, dt_out


def _decrease(decrease: str) -> bool:
    if decrease not in DECREASES:
        raise ValueError(f"fluid model: decrease must be one of {DECREASES}, got {decrease!r}")
    return decrease == "per-window"


def integrate(classes: list[FlowClass], b: Bottleneck, until: float, h: float | None = None,
              dt_out: float | None = None, decrease: str = "per-signal") -> FluidResult:
    """Integrate the model from 0 to `until` seconds (module docstring), in
    the engine (`fluid.rs`, the same equations and steps as
    `integrate_python`, which stays as the reference it is tested against)."""
    from .._engine import fluid_integrate

    per_window = _decrease(decrease)
    h, dt_out = _checked(classes, b, until, h, dt_out)
    qs = list(b) if isinstance(b, (list, tuple)) else [b]
    if not qs:
        raise ValueError("fluid model: no bottleneck")
    for c in classes:
        if not c.route or any(not (isinstance(l, int) and 0 <= l < len(qs)) for l in c.route):
            raise ValueError(f"fluid model: class {c.name or c!r}: route {c.route!r} must name queues 0..{len(qs) - 1}")
    K, L = len(classes), len(qs)
    cls = [(float(c.n), c.tp, min(c.w_max, 1e12), c.w0, c.start, c.slow_start, list(c.route)) for c in classes]
    queues = []
    for q in qs:
        if q.queue == "red":
            params = [q.min_th, q.max_th, q.max_p, q.k, float(q.gentle), float(SPACINGS.index(q.spacing)),
                      q.bytes_scale, -1.0 if q.mark_p is None else q.mark_p]
        elif q.queue == "pi":
            params = [q.pi_a, q.pi_b, q.pi_w, q.qref, q.q_scale, q.bytes_scale]
        else:
            params = []
        queues.append((float(q.c), float(q.buffer), q.queue, params, bool(q.ecn)))
    o = fluid_integrate(cls, queues, per_window, float(until), float(h), float(dt_out))
    a = {k: np.frombuffer(o[k], dtype=np.float64) for k in ("t", "w", "rate", "goodput", "rtt", "q", "x", "p", "d",
                                                           "delivered", "q_integral")}
    n = len(a["t"])
    T = o["steps"] * h
    per_q = {k: (a[k] if L == 1 else a[k].reshape(n, L)) for k in ("q", "x", "p", "d")}
    mq = a["q_integral"] / T
    return FluidResult(classes=list(classes), bottleneck=qs[0], until=until, h=h, t=a["t"], w=a["w"].reshape(n, K),
                       rate=a["rate"].reshape(n, K), goodput=a["goodput"].reshape(n, K), rtt=a["rtt"].reshape(n, K),
                       delivered=a["delivered"] * until / T, mean_queue=float(mq[0]) if L == 1 else mq,
                       bottlenecks=qs, **per_q)


def integrate_python(classes: list[FlowClass], b: Bottleneck, until: float, h: float | None = None,
                     dt_out: float | None = None, decrease: str = "per-signal") -> FluidResult:
    """The model integrated in Python, step for step as `integrate` (DropTail
    and RED only): the reference the engine's integrator is tested against."""
    if isinstance(b, (list, tuple)):
        if len(b) != 1:
            raise ValueError("fluid model: the Python reference integrator has one queue")
        b = b[0]
    if b.queue == "pi":
        raise ValueError("fluid model: the Python reference integrator has no PI")
    per_window = _decrease(decrease)
    b.check()
    if not classes:
        raise ValueError("fluid model: no flow classes")
    for c in classes:
        if c.n < 1 or not c.tp > 0 or not c.w_max >= 1 or not c.w0 >= 1:
            raise ValueError(f"fluid model: bad class {c!r} (n >= 1, tp > 0, 1 <= w0, w_max >= 1)")
    if not until > 0:
        raise ValueError("fluid model: until must be positive")
    if h is None:
        h = _default_step(classes, b)
    tpmin = min(c.tp for c in classes)
    if not 0 < h <= tpmin:
        raise ValueError(f"fluid model: the step must be in (0, min Tp = {tpmin}], got {h}")
    if dt_out is None:
        dt_out = max(h, until / 5000)
    K = len(classes)
    N = [float(c.n) for c in classes]
    Tp = [c.tp for c in classes]
    Wmax = [min(c.w_max, 1e12) for c in classes]
    start = [c.start for c in classes]
    C, B = b.c, b.buffer
    red = b.queue == "red"
    kq = b.k if red else 0.0
    nsteps = int(math.ceil(until / h))
    # History on the grid t_j = j*h: per class the sending rate of one flow
    # r_i = W_i/R_i (0 before its start) and the signal probability p.
    hr = np.zeros((nsteps + 2, K))
    hp = np.zeros(nsteps + 2)

    def delayed(arr, tau):
        """Linear interpolation of a history column at time tau (<= now);
        before 0 the history is the value at 0."""
        if tau <= 0:
            return arr[0]
        f = tau / h
        j = int(f)
        a = f - j
        return arr[j] * (1 - a) + arr[j + 1] * a if a > 0 else arr[j]

    def signal(q, x, lam):
        """(p, d): the signal probability and its dropping part, from the
        state (MGT eq. 11 for RED; the full-buffer drop for the tail)."""
        tail = max(0.0, 1.0 - C / lam) if (q >= B * (1 - 1e-9) and lam > C) else 0.0
        if not red:
            return tail, tail
        pr = red_profile(x, b)
        p = pr + (1 - pr) * tail
        d = tail * (1 - pr) if b.ecn and red_marks(x, b) else p
        return p, d

    def rhs(t, W, q, x, ss, j_now):
        """Derivatives at time t (<= the last stored grid point + h)."""
        dW = [0.0] * K
        lam = 0.0
        for i in range(K):
            R = Tp[i] + q / C
            if t < start[i]:
                continue
            lam += N[i] * W[i] / R
            tau = t - R
            rd = hr[:, i]
            r_del = delayed(rd, tau)
            p_del = delayed(hp, tau)
            cut = r_del / 2 * (1 - (1 - p_del) ** W[i]) if per_window else W[i] / 2 * r_del * p_del
            if ss[i]:
                g = r_del * (1 - p_del) - cut
            else:
                g = 1.0 / R - cut      # Hollot eq. 1
            if (W[i] <= 1 and g < 0) or (W[i] >= Wmax[i] and g > 0):
                g = 0.0
            dW[i] = g
        p, d = signal(q, x, lam)
        dq = lam * (1 - d) - C
        if (q <= 0 and dq < 0) or (q >= B and dq > 0):
            dq = 0.0
        dx = kq * (q - x) if red else 0.0
        return dW, dq, dx, lam, p, d

    W = [c.w0 for c in classes]
    q = 0.0
    x = 0.0
    ss = [c.slow_start for c in classes]
    nout = int(math.floor(until / dt_out)) + 1
    out_t = np.arange(nout) * dt_out
    ow = np.zeros((nout, K))
    orate = np.zeros((nout, K))
    ogood = np.zeros((nout, K))
    ortt = np.zeros((nout, K))
    oq = np.zeros(nout)
    ox = np.zeros(nout)
    op = np.zeros(nout)
    od = np.zeros(nout)
    delivered = np.zeros(K)
    qint = 0.0
    io = 0

    def store(j, t, W, q, x):
        lam = 0.0
        for i in range(K):
            R = Tp[i] + q / C
            r = W[i] / R if t >= start[i] else 0.0
            hr[j, i] = r
            lam += N[i] * r
        p, d = signal(q, x, lam)
        hp[j] = p
        return lam, p, d

    lam, p, d = store(0, 0.0, W, q, x)
    for j in range(nsteps):
        t = j * h
        while io < nout and out_t[io] <= t + 1e-12:
            for i in range(K):
                R = Tp[i] + q / C
                ow[io, i] = W[i]
                ortt[io, i] = R
                r = N[i] * W[i] / R if t >= start[i] else 0.0
                orate[io, i] = r
                ogood[io, i] = r * (1 - d)
            oq[io], ox[io], op[io], od[io] = q, x, p, d
            io += 1
        # slow start ends when a signal reaches the class or at the window cap
        for i in range(K):
            if ss[i] and t >= start[i] and (delayed(hp, t - Tp[i] - q / C) > 0 or W[i] >= Wmax[i]):
                ss[i] = False
        # Heun: predictor (Euler) then trapezoidal corrector; the history at
        # j+1 used by the corrector's delayed reads is never needed (delays >= h).
        dW1, dq1, dx1, lam1, p1, d1 = rhs(t, W, q, x, ss, j)
        W2 = [min(Wmax[i], max(1.0, W[i] + h * dW1[i])) for i in range(K)]
        q2 = min(B, max(0.0, q + h * dq1))
        x2 = x + h * dx1
        dW2, dq2, dx2, lam2, _, _ = rhs(t + h, W2, q2, x2, ss, j)
        Wn = [min(Wmax[i], max(1.0, W[i] + h / 2 * (dW1[i] + dW2[i]))) for i in range(K)]
        qn = min(B, max(0.0, q + h / 2 * (dq1 + dq2)))
        xn = max(0.0, x + h / 2 * (dx1 + dx2))
        # packets admitted to the queue (the rate not dropped), per class
        for i in range(K):
            if t >= start[i]:
                delivered[i] += h * N[i] * W[i] / (Tp[i] + q / C) * (1 - d1)
        qint += h / 2 * (q + qn)
        W, q, x = Wn, qn, xn
        lam, p, d = store(j + 1, (j + 1) * h, W, q, x)
    while io < nout:
        for i in range(K):
            R = Tp[i] + q / C
            ow[io, i], ortt[io, i] = W[i], R
            orate[io, i] = N[i] * W[i] / R
            ogood[io, i] = orate[io, i] * (1 - d)
        oq[io], ox[io], op[io], od[io] = q, x, p, d
        io += 1
    T = nsteps * h
    return FluidResult(classes=list(classes), bottleneck=b, until=until, h=h, t=out_t, w=ow, rate=orate,
                       goodput=ogood, rtt=ortt, q=oq, x=ox, p=op, d=od, delivered=delivered * until / T,
                       mean_queue=qint / T)
