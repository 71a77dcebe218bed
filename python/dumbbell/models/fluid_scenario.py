"""The fluid mode of `dumbbell.Simulation`: `sim.run(until, mode="fluid")`.

Reads the scenario a `Simulation` describes (the same objects a packet run
builds), maps it onto the fluid model of `fluid.py` and integrates it:

* the flows' paths are the shortest-hop routes, as ns-2's static routing
  finds them on a dumbbell or a parking lot; a link direction is a queue
  of the model when its flows could overfill it (its bandwidth is at most
  the sum of its flows' slowest links' bandwidths), unless all its flows
  cross another such link no faster than it; each class's route is the
  queues it crosses (a dumbbell has one, a parking lot several);
* a flow's propagation round trip Tp is the sum of its forward links'
  delays and transmission times of a data packet (packetSize_ + 40 bytes of
  headers) and its reverse links' delays and transmission times of a
  40-byte ACK; flows with equal Tp, maximum window (``window_``,
  ``maxcwnd_``), initial window (``windowInit_``) and start form a class;
* the bottleneck's capacity in data packets per second, its limit, PI's
  parameters (``a_``, ``b_``, ``w_``, ``qref_``, byte modes, ``setbit_``), and
  RED's parameters as ns-2 sets them (automatic ``q_weight_``, ``thresh_``
  and ``maxthresh_`` from the link, byte mode, ``wait_``, ``mark_p_``,
  ``linterm_``, ``gentle_``, ``setbit_``) are read from the queue's
  parameters over the class defaults.

Refused, with a ValueError that says why: datagram sources, error models,
queues other than DropTail, RED and PI (CoDel: see docs/fluid.md), RED's adaptive, Feng-adaptive, AECN, ECNM, mark-front
and cautious variants, flows that stop or run Telnet, senders other than
Tahoe/Reno/NewReno/Sack1 (Vegas' window law is not MGT's), delayed-ACK
sinks, New-ECN window options, and a mix of ECN and non-ECN flows.
"""

from __future__ import annotations

import functools
import math
import re
from collections import deque

import numpy as np

from .fluid import Bottleneck, FlowClass, FluidResult, integrate

_COVERED_VARIANTS = ("tahoe", "reno", "newreno", "sack")


@functools.cache
def _class_defaults() -> dict[str, dict[str, str]]:
    """Class default values from the engine's class table (`class_vars` blocks)."""
    from .._engine import Engine

    out: dict[str, dict[str, str]] = {}
    for m in re.finditer(r"class_vars (\S+) \{\n(.*?)\n\}", Engine.class_defaults_tcl(), re.S):
        d = out.setdefault(m.group(1), {})
        for line in m.group(2).splitlines():
            parts = line.split(None, 1)
            if len(parts) == 2:
                d[parts[0]] = parts[1].strip()
    return out


def _defaults(cls: str) -> dict[str, str]:
    """Bound-variable defaults of `cls`, its ancestors' included (a copy)."""
    return dict(_defaults_of(cls))


@functools.cache
def _defaults_of(cls: str) -> dict[str, str]:
    d: dict[str, str] = {}
    parts = cls.split("/")
    for i in range(1, len(parts) + 1):
        d.update(_class_defaults().get("/".join(parts[:i]), {}))
    return d


def _num(v) -> float:
    s = str(v).strip()
    try:
        return float(s)
    except ValueError:
        from ..api._values import _parse_bandwidth

        return float(_parse_bandwidth(s, "fluid mode")[1]) if s[-1:] in "bB" else float(re.match(r"[-+0-9.e]+", s)[0])


def _truth(v) -> bool:
    s = str(v).strip().lower()
    if s in ("true", "yes", "on"):
        return True
    if s in ("false", "no", "off", ""):
        return False
    return _num(s) != 0


class _Routes:
    """Shortest-hop paths of a scenario, each pair's computed once."""

    def __init__(self, sim):
        self.adj: dict[int, list] = {}
        for lk in sim.links:
            self.adj.setdefault(lk.src.id, []).append(lk)
        self.done: dict[tuple, list] = {}

    def __call__(self, a, b) -> list:
        key = (a.id, b.id)
        if key not in self.done:
            self.done[key] = _route(self.adj, a, b)
        return self.done[key]


def _route(adj, a, b) -> list:
    """Link directions of the shortest-hop path a -> b (BFS over `adj`,
    node id -> its outgoing links)."""
    prev = {a.id: None}
    dq = deque([a.id])
    while dq:
        u = dq.popleft()
        if u == b.id:
            break
        for lk in adj.get(u, ()):
            if lk.dst.id not in prev:
                prev[lk.dst.id] = lk
                dq.append(lk.dst.id)
    if b.id not in prev:
        raise ValueError(f"fluid mode: no route from node {a.id} to node {b.id}")
    path = []
    n = b.id
    while prev[n] is not None:
        path.append(prev[n])
        n = prev[n].src.id
    return path[::-1]


def scenario(sim) -> tuple[list[FlowClass], list[Bottleneck], list, dict]:
    """(classes, the queues' models, their Links, per-flow class index) for
    `sim`, or a ValueError naming what the fluid model does not cover."""
    why = "run(mode='fluid'): "
    if sim.sources:
        raise ValueError(why + "datagram sources are not covered by the fluid model (long-lived TCP flows only)")
    if sim.error_models:
        raise ValueError(why + "error models are not covered by the fluid model")
    flows = sim.flows
    if not flows:
        raise ValueError(why + "the scenario has no TCP flows")
    for f in flows:
        if f.variant not in _COVERED_VARIANTS:
            raise ValueError(why + f"flow {f.id}: {f.variant} senders are not covered "
                             f"(the fluid model is Reno's AIMD; covered: {', '.join(_COVERED_VARIANTS)})")
        if f.sink != "ack-every":
            raise ValueError(why + f"flow {f.id}: delayed-ACK sinks are not covered")
        if f.app != "ftp" or f.stop is not None:
            raise ValueError(why + f"flow {f.id}: only long-lived FTP flows (no stop time, no Telnet) are covered")
    # Flows alike in all the model reads (ends, sender class and parameters
    # but the flow id, start) form a group; the rest works on groups.
    grouped: dict[tuple, list] = {}
    for f in flows:
        key = (f.src.id, f.dst.id, f.tcp_class, tuple((k, str(v)) for k, v in f.params.items() if k != "fid_"),
               f.start)
        g = grouped.get(key)
        if g is None:
            grouped[key] = [f]
        else:
            g.append(f)
    groups = list(grouped.values())
    route_of = _Routes(sim)
    gpath = [route_of(g[0].src, g[0].dst) for g in groups]
    links: dict[int, object] = {}
    through: dict[int, set] = {}
    for gi, path in enumerate(gpath):
        for lk in path:
            links[id(lk)] = lk
            through.setdefault(id(lk), set()).add(gi)
    # A link direction is a queue of the model when its flows could overfill
    # it: its bandwidth is at most the sum, over its flows, of each flow's
    # slowest link.  One whose flows all cross another such link no faster
    # than it is left out (that link would hold the queue).
    slowest = [min(lk.bandwidth for lk in path) for path in gpath]
    cand = [lk for key, lk in links.items() if lk.bandwidth <= sum(len(groups[gi]) * slowest[gi] for gi in through[key])]
    order = {id(lk): n for path in gpath for n, lk in enumerate(path)}
    queues = []
    for lk in cand:
        shadow = any(u is not lk and through[id(lk)] <= through[id(u)] and
                     (u.bandwidth < lk.bandwidth or (u.bandwidth == lk.bandwidth and order[id(u)] < order[id(lk)]))
                     for u in cand)
        if not shadow:
            queues.append(lk)
    if not queues:
        raise ValueError(why + "no link can be congested: the fluid model has no queue to model")
    queues.sort(key=lambda lk: (order[id(lk)], lk.src.id, lk.dst.id))
    qindex = {id(lk): n for n, lk in enumerate(queues)}
    # ---- the senders
    sizes, ecn = set(), set()
    rows = []
    for g in groups:
        f = g[0]
        d = _defaults(f.tcp_class)
        d.update(f.params)
        if _num(d.get("windowOption_", 1)) != 1 or _truth(d.get("newecn_", "false")):
            raise ValueError(why + f"flow {f.id}: window options other than ns-2's standard AIMD are not covered")
        size = _num(d["packetSize_"]) + (_num(d["tcpip_base_hdr_size_"]) if _truth(d.get("useHeaders_", 1)) else 0)
        wmax = _num(d["window_"])
        mc = _num(d.get("maxcwnd_", 0))
        if mc > 0:
            wmax = min(wmax, mc)
        sizes.add(size)
        ecn.add(_truth(d.get("ecn_", 0)))
        rows.append((wmax, max(1.0, _num(d.get("windowInit_", 1)))))
    if len(sizes) != 1:
        raise ValueError(why + "flows with different packet sizes are not covered (the queue is counted in packets)")
    if len(ecn) != 1:
        raise ValueError(why + "a mix of ECN and non-ECN flows is not covered")
    S = sizes.pop()
    ecn_flows = ecn.pop()
    by_class: dict[tuple, list] = {}
    for g, path, (wmax, w0) in zip(groups, gpath, rows):
        f = g[0]
        tp = sum(lk.delay + 8 * S / lk.bandwidth for lk in path)
        tp += sum(lk.delay + 8 * 40 / lk.bandwidth for lk in route_of(f.dst, f.src))
        route = tuple(qindex[id(lk)] for lk in path if id(lk) in qindex)
        by_class.setdefault((round(tp, 12), wmax, w0, f.start, route), []).extend(x.id for x in g)
    classes = []
    of_flow = {}
    for ci, ((tp, wmax, w0, start, route), ids) in enumerate(sorted(by_class.items())):
        ids.sort()
        if not route:
            raise ValueError(why + f"flow {ids[0]} crosses no congestible link")
        classes.append(FlowClass(n=len(ids), tp=tp, w_max=max(1.0, wmax), w0=min(w0, max(1.0, wmax)), start=start,
                                 flows=tuple(ids), name=f"class {ci}", route=route))
        for i in ids:
            of_flow[i] = ci
    bs = [_queue_model(lk, S, ecn_flows, why) for lk in queues]
    return classes, bs, queues, of_flow


def _queue_model(bn, S: float, ecn_flows: bool, why: str) -> Bottleneck:
    """The model of link `bn`'s queue (capacity in data packets of S bytes)."""
    c = bn.bandwidth / (8 * S)
    kind = bn.queue
    if kind == "DropTail":
        qd = _defaults("Queue/DropTail")
        qd.update(bn.queue_params)
        if _truth(qd.get("queue_in_bytes_", "false")):
            mean = _num(qd.get("mean_pktsize_", 500))
            buf = bn.queue_limit * mean / S
        else:
            buf = float(bn.queue_limit)
        for v in ("drop_front_",):
            if _truth(qd.get(v, "false")):
                raise ValueError(why + f"DropTail's {v} is not covered")
        b = Bottleneck(c=c, buffer=buf, queue="droptail")
    elif kind == "RED":
        qd = _defaults("Queue/RED")
        qd.update(bn.queue_params)
        for v in ("adaptive_", "feng_adaptive_", "aecn_", "ecnm_", "mark_front_", "cautious_", "doubleq_",
                  "drop_front_", "drop_rand_", "ns1_compat_"):
            if _truth(qd.get(v, "0")):
                raise ValueError(why + f"RED's {v} variant is not covered by the fluid model")
        mean = _num(qd["mean_pktsize_"])
        qib = _truth(qd["queue_in_bytes_"])
        ptc = bn.bandwidth / (8 * mean)
        q_w = _num(qd["q_weight_"])
        if q_w == 0:
            q_w = 1 - math.exp(-1 / ptc)
        elif q_w == -1:
            rtt = max(0.1, 3 * (bn.delay + 1 / ptc))
            q_w = 1 - math.exp(-1 / (10 * rtt * ptc))
        elif q_w == -2:
            q_w = 1 - math.exp(-10 / ptc)
        th_min = _num(qd["thresh_"])
        if th_min == 0:
            th_min = max(5.0, _num(qd["targetdelay_"]) * ptc / 2)
        th_max = _num(qd["maxthresh_"])
        if th_max == 0:
            th_max = 3 * th_min
        unit = mean / S if qib else 1.0     # RED's thresholds are in mean-sized packets when in bytes
        buf = bn.queue_limit * unit
        b = Bottleneck(c=c, buffer=buf, queue="red", min_th=th_min * unit, max_th=th_max * unit,
                       max_p=1 / _num(qd["linterm_"]), w_q=q_w, gentle=_truth(qd["gentle_"]),
                       ecn=ecn_flows and _truth(qd["setbit_"]),
                       spacing="wait" if _truth(qd["wait_"]) else "uniform",
                       bytes_scale=S / mean if _truth(qd["bytes_"]) else 1.0,
                       mark_p=_num(qd["mark_p_"]) if _truth(qd["use_mark_p_"]) else None)
    elif kind == "PI":
        qd = _defaults("Queue/PI")
        qd.update(bn.queue_params)
        mean = _num(qd["mean_pktsize_"])
        qib = _truth(qd["queue_in_bytes_"])
        b = Bottleneck(c=c, buffer=bn.queue_limit * (mean / S if qib else 1.0), queue="pi",
                       pi_a=_num(qd["a_"]), pi_b=_num(qd["b_"]), pi_w=_num(qd["w_"]), qref=_num(qd["qref_"]),
                       q_scale=S / mean if qib else 1.0, bytes_scale=S / mean if _truth(qd["bytes_"]) else 1.0,
                       ecn=ecn_flows and _truth(qd["setbit_"]))
    else:
        raise ValueError(why + f"link {bn.src.id}->{bn.dst.id}: the {kind} queue is not covered (DropTail, RED and PI "
                         f"are; CoDel: see docs/fluid.md)")
    return b


class FluidRun:
    """What `Simulation.run(until, mode="fluid")` returns: the fluid model's
    time series as frames beside per-flow and per-queue summaries shaped like
    a packet run's (`Result.flows`, `Result.queues`).

    * `classes`: the flow classes (`FlowClass`, each with its `route` of
      queues), `bottlenecks` the queues' models (`Bottleneck`), `links` their
      `Link`s (one for a dumbbell, several for a parking lot); `bottleneck`
      and `link` are the first; `result` the raw `FluidResult`;
    * `series`: polars frame time, class, cwnd (per flow), rate_pkts and
      goodput_pkts (the class's, packets/s), rtt;
    * `queue_series`: time, queue_pkts, avg_queue_pkts, p_signal, p_drop
      (with several queues, a column `queue` first);
    * `flows`: one row per flow: flow, class, variant, src, dst, cwnd (at
      the end), goodput_pkts (packets delivered through its whole route over
      [0, until], the fluid counterpart of a packet run's goodput_pkts);
    * `queues`: a row per modelled queue: src, dst, bandwidth, delay,
      queue_limit, mean_queue_pkts (time average over [0, until]).
    """

    mode = "fluid"

    def __init__(self, sim, until: float, classes, bs, links, of_flow, res: FluidResult, elapsed: float):
        import polars as pl

        self.until = until
        self.classes = classes
        self.bottlenecks = bs
        self.links = links
        self.bottleneck = bs[0]
        self.link = links[0]
        self.result = res
        self.elapsed = elapsed
        fr = res.frames()
        self.series = fr["classes"]
        self.queue_series = fr["queue"]
        fl = sim.flows
        cls = np.fromiter((of_flow[f.id] for f in fl), dtype=np.int32, count=len(fl))
        n_of = np.array([c.n for c in classes], dtype=float)
        rows = {"flow": [f.id for f in fl], "class": cls, "variant": [f.variant for f in fl],
                "src": [f.src.id for f in fl], "dst": [f.dst.id for f in fl], "cwnd": res.w[-1, cls],
                "goodput_pkts": res.delivered[cls] / n_of[cls]}
        self.flows = pl.DataFrame(rows, schema={"flow": pl.Int32, "class": pl.Int32, "variant": pl.String,
                                                "src": pl.Int32, "dst": pl.Int32, "cwnd": pl.Float64,
                                                "goodput_pkts": pl.Float64})
        mq = np.atleast_1d(res.mean_queue)
        self.queues = pl.DataFrame({"src": [lk.src.id for lk in links], "dst": [lk.dst.id for lk in links],
                                    "bandwidth": [float(lk.bandwidth) for lk in links],
                                    "delay": [float(lk.delay) for lk in links],
                                    "queue_limit": [int(lk.queue_limit) for lk in links],
                                    "mean_queue_pkts": [float(m) for m in mq]},
                                   schema={"src": pl.Int32, "dst": pl.Int32, "bandwidth": pl.Float64,
                                           "delay": pl.Float64, "queue_limit": pl.Int64,
                                           "mean_queue_pkts": pl.Float64})

    def __repr__(self) -> str:
        mq = ", ".join(f"{m:.1f}" for m in np.atleast_1d(self.result.mean_queue))
        return (f"FluidRun({len(self.classes)} classes, {sum(c.n for c in self.classes)} flows, "
                f"{len(self.links)} queue{'s' if len(self.links) > 1 else ''}, until={self.until}, "
                f"mean queue {mq} pkts)")

    def class_of(self, flow) -> int:
        fid = flow if isinstance(flow, int) else flow.id
        return int(self.flows["class"][fid])

    def time_average_queue(self, window=None, queue: int = 0) -> float:
        """Mean queue (packets) of the model's `queue`-th queue (0: the
        first, the dumbbell's bottleneck) over `window` (t0, t1), or the
        whole run."""
        res = self.result
        if window is None:
            return float(np.atleast_1d(res.mean_queue)[queue])
        m = res.mean("q", window)
        return float(np.atleast_1d(m)[queue])


def run_fluid(sim, until, mode: str = "fluid", trace_packets=False, monitor_queues=True, trace_file=None,
              step: float | None = None, decrease: str = "per-signal") -> FluidRun:
    """`Simulation.run(until, mode="fluid")` (see FluidRun); called directly,
    `step` sets the integration step and `decrease` the window's response
    (fluid.py: "per-signal", MGT's, or "per-window")."""
    import time

    from ..api._values import _parse_time

    if mode != "fluid":
        raise ValueError(f"run(): mode must be 'packet' or 'fluid', got {mode!r}")
    if trace_packets or trace_file is not None:
        raise ValueError("run(mode='fluid'): there are no packets to trace in the fluid mode")
    if monitor_queues not in (True, False):
        raise ValueError("run(mode='fluid'): monitor_queues selects links only in the packet mode")
    until_s = _parse_time(until, "run(): until")[1]
    if not until_s > 0:
        raise ValueError(f"run(): until must be positive, got {until!r}")
    t0 = time.perf_counter()
    classes, bs, links, of_flow = scenario(sim)
    res = integrate(classes, bs, until_s, h=step, decrease=decrease)
    return FluidRun(sim, until_s, classes, bs, links, of_flow, res, time.perf_counter() - t0)


__all__ = ["FluidRun", "run_fluid", "scenario", "np"]
