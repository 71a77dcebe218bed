"""Hamann's "simple model" (seed 000: T. Hamann, "A New Fair Window Algorithm
for ECN Capable TCP (New-ECN)", UCB/ERL M99/35, 1999, section 3.2 and
Appendix A): a discrete-time model of two ECN TCP-Reno connections X and Y
(RTT 40 and 20 ms) through one RED gateway that marks, in steps of 10 ms.

This is a reconstruction of the Matlab listing of Appendix A, step for step.
The listing reached us through OCR; what it garbles or omits was restored as
follows (each is a parameter of `Params` or a marked line below):

* the bottleneck rate ``c`` (``% outgoing link rate of the bottleneck
  router [bps]``: the value is lost).  Section 3.2 lists "Link 1-3: 5 Mbps"
  for the three links of Figure 3.1 (two access links and the bottleneck),
  and the listing's access rates ``MaxRateX = MaxRateY = 5e6``:
  ``bottleneck_bps = 5e6``.
* the initial windows ``xw0``, ``yw0`` (``% initial window``: the line is
  empty).  Section 3.1 says the increase is "TCP like" until the first mark
  and section 2.1's TCP starts from one packet: ``initial_window = (1, 1)``.
* OCR swapped ``*`` for ``+`` in connection Y's copy of the code
  (``beta+RTTy^2``, ``(yw(jy)+2-yw(jy))*MaxIncrY*countery+S_wnd_Y``) and in
  the idle-queue decay of the RED average (``(1-wq)^(...) + avgqueue``, the
  same formula as ``*`` in the arrival branch); X's copy and the RED
  algorithm of section 2.2 give the ``*``.  ``Time_Nov`` is ``Time_Now``,
  ``Alga``/``Alse`` are ``else``, a ``:`` at a line end is ``;``.
* one ``else`` is lost in the choice of the packet put in the queue (as
  printed, the ratio branch would sit inside ``if (NoY==1)`` and the loop
  would never end when both connections send); the ``end`` count after it
  fits an ``else`` between ``HandlingPacket=0;`` and ``if (Ratio>=1)``.
* the random draws: Matlab's ``rand`` is not reproducible here; numpy's
  generator with `seed` stands in, so a run is one sample of the paper's
  (and the paper shows one run, seed unknown).

One thing the listing says that is not OCR and is kept by default
(``queue="as-listed"``): inside the per-packet loop the queue is set to
``queue(k) = queue(k-1) + 1`` and the average to
``avgqueue(k) = avgqueue(k-1) + wq*(queue(k)-avgqueue(k-1))``, i.e. each
packet overwrites the step's value instead of adding to it, so over a step
the queue moves by ``1 - MaxServedPackets/npt`` rather than by
``npt - MaxServedPackets`` and the average moves once per step.  The paper
itself warns that its results carry artefacts of the Matlab implementation
(section 3.2: the synchronisation, "some limitations of the implementation
in Matlab").  ``queue="conserving"`` accumulates instead (a queue that
conserves packets, RED's average updated per arriving packet as in section
2.2); it is there to show how much the paper's figures depend on the
listing's queue.

Other behaviours of the listing are kept as they are, because they are
what the paper's figures came from: the first mark cuts the window but not
ssthresh (so a connection stays in slow start until its second cut); slow
start multiplies its increase by ``S_wnd``; and a window that falls under
ssthresh later re-enters slow start from the window it had when slow start
last began (``xw(jx)``, never reset), which makes the jumps back to the
access-rate cap that Figure 3.3 style plots of this model show.

Plain ECN ("ecn") runs the same listing with New-ECN's slope switched off:
``alpha_wnd = 0.5`` (ECN TCP-Reno halves its window on a mark, section
2.3.3), ``alpha_slp = 1`` and ``beta = 0`` (``S_wnd`` stays 1, the TCP
increase of one packet per RTT).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

MODELS = ("new-ecn", "ecn")

# What the paper reports for New-ECN (section 3.2, eq. 3.6 and the text
# under Figure 3.3).
PAPER = {"jain": 0.99, "cwnd_mean_pkts": (18.1, 10.4)}


@dataclass(frozen=True)
class Params:
    """The simple model's parameters; defaults are section 3.2's and
    Appendix A's (``bottleneck_bps`` and ``initial_window`` inferred, see the
    module's docstring).  Connection 0 is X, connection 1 is Y."""

    packet_size_bytes: int = 512          # section 3.2; Packetsize = 512*8 bits
    t_incr: float = 10e-3                 # Appendix A: time step [s]
    steps: int = 500                      # Appendix A: MaxSteps (5 s)
    rtt: tuple[float, float] = (40e-3, 20e-3)          # section 3.2: RTTx, RTTy
    access_bps: tuple[float, float] = (5e6, 5e6)       # Appendix A: MaxRateX/Y (caps the windows)
    bottleneck_bps: float = 5e6           # inferred: section 3.2 "Link 1-3: 5 Mbps"
    initial_window: tuple[float, float] = (1.0, 1.0)   # inferred: TCP's one packet
    ssthresh0_pkts: float = 65535 * 8 / (512 * 8)      # Appendix A: 64 KB in packets (128)
    alpha_wnd: float = 0.9                # eq. 3.3
    alpha_slp: float = 0.7                # eq. 3.5
    beta: float = 16.0                    # eq. 3.2
    max_th: float = 20.0                  # RED (section 3.2)
    min_th: float = 10.0
    max_p: float = 0.25
    w_q: float = 0.002
    queue: str = "as-listed"              # or "conserving" (see the module docstring)

    @classmethod
    def for_model(cls, model: str, **overrides) -> "Params":
        if model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, got {model!r}")
        p = cls(**overrides)
        if model == "ecn":
            p = replace(p, alpha_wnd=overrides.get("alpha_wnd", 0.5), alpha_slp=overrides.get("alpha_slp", 1.0),
                        beta=overrides.get("beta", 0.0))
        return p


@dataclass
class Result:
    """One run: per-step arrays (index k = 0..steps-1, time k*t_incr)."""

    params: Params
    model: str
    t: np.ndarray                      # [s]
    cwnd: np.ndarray                   # (steps, 2) packets
    rate_bps: np.ndarray               # (steps, 2): cwnd*Packetsize/RTT
    slope: np.ndarray                  # (steps, 2): S_wnd
    queue: np.ndarray                  # (steps,) packets
    avg_queue: np.ndarray              # (steps,) RED average
    marks: np.ndarray                  # (steps, 2) marks given at step k
    arrivals: np.ndarray               # (steps, 2) packets arrived at the gateway
    extra: dict = field(default_factory=dict)

    @property
    def mean_rate_bps(self) -> np.ndarray:
        """Mean rate of each connection over the run (Appendix A's mmx/mmy at
        the last step; Matlab's x(1) is left 0, as here)."""
        r = self.rate_bps.copy()
        r[0] = 0.0
        return r.mean(axis=0)

    @property
    def running_mean_rate_bps(self) -> np.ndarray:
        r = self.rate_bps.copy()
        r[0] = 0.0
        return np.cumsum(r, axis=0) / np.arange(1, len(r) + 1)[:, None]

    @property
    def jain(self) -> float:
        """Jain's index of the mean rates (eq. 2.6 / 3.6)."""
        x = self.mean_rate_bps
        return float(x.sum() ** 2 / (len(x) * (x ** 2).sum()))

    @property
    def cwnd_mean_pkts(self) -> tuple[float, float]:
        m = self.cwnd.mean(axis=0)
        return float(m[0]), float(m[1])


def simulate(model: str = "new-ecn", seed: int = 0, params: Params | None = None, **overrides) -> Result:
    """Run the simple model of Appendix A once.  `model` is "new-ecn" or
    "ecn"; `overrides` replace `Params` fields (or give `params` whole)."""
    if params is None:
        params = Params.for_model(model, **overrides)
    elif overrides:
        params = replace(params, **overrides)
    if params.queue not in ("as-listed", "conserving"):
        raise ValueError(f"queue must be 'as-listed' or 'conserving', got {params.queue!r}")
    if len(params.rtt) != 2 or len(params.access_bps) != 2 or len(params.initial_window) != 2:
        raise ValueError("the simple model has exactly two connections")
    p = params
    rng = np.random.default_rng(seed)
    n = int(p.steps)
    P = p.packet_size_bytes * 8
    dt = p.t_incr
    rtt = p.rtt
    as_listed = p.queue == "as-listed"

    incr = [dt / r for r in rtt]                              # MaxIncrX: window increment per step
    maxcwnd = [p.access_bps[i] * rtt[i] / P for i in range(2)]  # MaxCwndX
    ssthresh = [p.ssthresh0_pkts, p.ssthresh0_pkts]
    counter = [1, 1]                                          # slow-start interpolation within an RTT
    jbase = [0, 0]                                            # step the slow-start doubling starts from
    # DelayX = floor(RTTx/t_incr).  Times and comparisons are computed as
    # the listing does, in doubles and without tolerance, as Matlab would.
    delay = [int(math.floor(r / dt)) for r in rtt]
    first = [True, True]                                      # FlagX: no mark seen yet
    S = [1.0, 1.0]                                            # S_wnd (eq. 3.1)
    last_inc = [0.0, 0.0]                                     # Last_Time_X (slope increase)
    last_dec = [0.0, 0.0]                                     # Last_Time_2_X (window/slope decrease)

    service_time = 1.0 / (p.bottleneck_bps / P)
    max_served = (p.bottleneck_bps / P) * dt                  # MaxServedPackets per step
    C1 = p.max_p / (p.max_th - p.min_th)
    C2 = p.max_p * p.min_th / (p.max_th - p.min_th)
    q_idle = 0.0
    count = -1
    R = rng.random()

    w = np.zeros((n, 2))
    w[0] = p.initial_window
    slope = np.ones((n, 2))
    queue = np.zeros(n)
    avg = np.zeros(n)
    marks = np.zeros((n, 2), dtype=np.int64)
    marks_given = np.zeros((n, 2), dtype=np.int64)
    arrivals = np.zeros((n, 2), dtype=np.int64)
    carry = [0.0, 0.0]

    for k in range(1, n):
        km = k + 1          # Matlab's index of this step (the loop runs k=2..MaxSteps)
        # --- the senders (Appendix A, "updating TCP parameters"; eq. 3.1-3.5)
        for i in range(2):
            wb = w[jbase[i], i]
            if km - delay[i] < 1:
                # marks not effective yet: slow start (window doubles over one
                # RTT, linearly per step) or congestion avoidance
                if w[k - 1, i] < ssthresh[i]:
                    w[k, i] = min(maxcwnd[i], wb + wb * incr[i] * counter[i])
                    if counter[i] >= 1 / incr[i]:
                        jbase[i], counter[i] = k, 1
                    else:
                        counter[i] += 1
                else:
                    w[k, i] = min(maxcwnd[i], w[k - 1, i] + incr[i])
            elif marks[k - delay[i], i] == 0:
                # no mark came back this step: the slope grows once per RTT
                # after the first mark (eq. 3.2), the window by S_wnd per RTT (eq. 3.1)
                now = km * dt
                if not first[i] and now >= last_inc[i] + rtt[i]:
                    S[i] += p.beta * rtt[i] ** 2
                    last_inc[i] = now
                if w[k - 1, i] < ssthresh[i]:
                    # the listing multiplies slow start by S_wnd too (section
                    # 3.1 says it does not; S_wnd is 1 until the first mark)
                    w[k, i] = min(maxcwnd[i], wb + wb * incr[i] * counter[i] * S[i])
                    if counter[i] >= 1 / incr[i]:
                        jbase[i], counter[i] = k, 1
                    else:
                        counter[i] += 1
                else:
                    w[k, i] = min(maxcwnd[i], w[k - 1, i] + incr[i] * S[i])
            else:
                # a mark came back (sent Delay steps ago): react once per RTT
                now = km * dt
                last_inc[i] = now
                if first[i]:
                    first[i] = False
                    w[k, i] = w[k - 1, i] * p.alpha_wnd               # eq. 3.3 (ssthresh kept)
                    last_dec[i] = now
                elif now >= last_dec[i] + rtt[i]:
                    S[i] *= p.alpha_slp                              # eq. 3.5
                    w[k, i] = w[k - 1, i] * p.alpha_wnd               # eq. 3.3
                    ssthresh[i] = max(w[k, i] / 2, 1)                # the listing's eq. 3.4
                    last_dec[i] = now
                else:
                    w[k, i] = w[k - 1, i]
                marks[k - delay[i], i] = 0
            slope[k, i] = S[i]

        # --- arrivals at the gateway this step: floor(w)*t_incr/RTT packets,
        # fractions carried over (the listing's Temp/Carry lines)
        npk = [0, 0]
        for i in range(2):
            t1 = math.floor(w[k, i]) * dt / rtt[i]
            carry[i] += t1 % 1
            t2 = math.floor(carry[i])
            carry[i] -= t2
            npk[i] = int(math.floor(t1) + t2)
        arrivals[k] = npk
        npt = npk[0] + npk[1]
        serve_per_run = max_served / npt if npt > 0 else 0.0

        if npt == 0:
            if queue[k - 1] == 0:
                q_idle += dt
                queue[k] = 0.0
            else:
                queue[k] = max(0.0, queue[k - 1] - math.floor(max_served))
            if queue[k] > 0:
                avg[k] = avg[k - 1] + p.w_q * (queue[k] - avg[k - 1])
            else:
                # RED's idle decay (section 2.2); OCR printed '+' for '*'
                avg[k] = (1 - p.w_q) ** (q_idle / service_time) * avg[k - 1]
        else:
            queue[k], avg[k] = queue[k - 1], avg[k - 1]
        marks[k] = 0

        # --- the packets, interleaved "in some kind of random way": the
        # connection with more packets sends floor(ratio) (carrying the
        # fraction) for each one of the other
        nx, ny = npk
        no_x = no_y = False
        ratio = help1 = qcarry = 0.0
        if npt > 0:
            if nx == 0:
                no_x = True
            elif ny == 0:
                no_y = True
            else:
                ratio = nx / ny
                r = ratio if ratio >= 1 else 1 / ratio
                help1, qcarry = math.floor(r), r % 1
        served = 0.0
        while nx + ny > 0:
            if no_x:
                h = 1
            elif no_y:
                h = 0
            else:   # the lost 'else' (see the module docstring)
                big, small, remaining_big = (0, 1, nx) if ratio >= 1 else (1, 0, ny)
                r = ratio if ratio >= 1 else 1 / ratio
                if help1 >= 1 and remaining_big > 0:
                    h = big
                    help1 -= 1
                else:
                    h = small
                    help1, qcarry = math.floor(r + qcarry), (r + qcarry) % 1
            if as_listed:
                queue[k] = queue[k - 1] + 1
                avg[k] = avg[k - 1] + p.w_q * (queue[k] - avg[k - 1])
            else:
                queue[k] += 1
                avg[k] = avg[k] + p.w_q * (queue[k] - avg[k])
            q_idle = 0.0
            # RED marking (section 2.2/2.3.2): between the thresholds a mark
            # when count reaches R/p_b (R uniform, drawn anew after a mark)
            a = avg[k]
            if p.min_th <= a < p.max_th:
                count += 1
                p_b = C1 * a - C2
                if count > 0 and count >= R / p_b:
                    marks[k, h] += 1
                    marks_given[k, h] += 1
                    count = 0
                if count == 0:
                    R = rng.random()
            elif a >= p.max_th:
                marks[k, h] += 1
                marks_given[k, h] += 1
                count = -1
            else:
                count = -1
            if queue[k] > 0 and served <= max_served:
                queue[k] = max(0.0, queue[k] - serve_per_run)
                served += serve_per_run
            # As in the listing, the count of the connection chosen goes
            # down even when it had none left (which ends the loop early).
            if h == 0:
                nx -= 1
            else:
                ny -= 1

    t = np.arange(n) * dt
    rate = w / np.array(rtt) * P
    return Result(params=p, model=model, t=t, cwnd=w, rate_bps=rate, slope=slope, queue=queue, avg_queue=avg,
                  marks=marks_given, arrivals=arrivals)


def summary(model: str = "new-ecn", seeds=(0,), **overrides) -> dict:
    """Jain's index and mean windows, averaged over `seeds` (one run per seed)."""
    rs = [simulate(model, seed=s, **overrides) for s in seeds]
    return {"model": model,
            "jain": float(np.mean([r.jain for r in rs])),
            "cwnd_mean_pkts": [float(np.mean([r.cwnd_mean_pkts[i] for r in rs])) for i in range(2)]}
