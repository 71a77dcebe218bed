"""Dumbbell's Python API: build a scenario in Python, run it, get data frames.

    import dumbbell as db

    sim = db.Simulation()
    A, R, B = sim.nodes(3)
    sim.link(A, R, "10Mb", "10ms")
    sim.link(R, B, "800Kb", "50ms", queue_limit=7)
    tcp = sim.tcp(A, B, variant="reno", window=100, packet_size=960,
                  trace_vars=("cwnd_", "ack_"))
    res = sim.run(until=10)
    print(res.flows)
    res.plot_cwnd("cwnd.png")

Exactness.  A `Simulation` is a description; `run()` turns it into the
equivalent ns-2 script (`Simulation.to_tcl` shows it) and runs that script
in a fresh interpreter of the compatibility layer (`dumbbell.ns2`), so the
API gives exactly the numbers and traces `dumbbell run` -- and ns-2 2.35 --
give for that script.  Trace output is taken from the engine's per-channel
buffers (no Tcl channel, no file unless one is asked for) and parsed into
polars frames by the engine's trace reader.
"""

from __future__ import annotations

import functools
import io
import math
import numbers
import os
import re
import tkinter
from collections.abc import Iterable
from difflib import get_close_matches
from pathlib import Path

from ._engine import Engine

__all__ = ["Simulation", "Node", "Link", "Flow", "SimulationError", "VARIANTS", "SINKS"]

#: TCP sender variants and their ns-2 classes.
VARIANTS = {"tahoe": "Agent/TCP", "reno": "Agent/TCP/Reno", "newreno": "Agent/TCP/Newreno", "sack": "Agent/TCP/Sack1"}
#: TCP sinks and their ns-2 classes.
SINKS = {
    "ack-every": "Agent/TCPSink",
    "delack": "Agent/TCPSink/DelAck",
    "sack": "Agent/TCPSink/Sack1",
    "sack-delack": "Agent/TCPSink/Sack1/DelAck",
}

# The in-engine channel the API's traces are written to (never a Tcl channel).
_CHANNEL = "dumbbell_api_trace"

# Bound variables the API itself sets when it wires a flow.
_WIRING = {"agent_addr_", "agent_port_", "dst_addr_", "dst_port_"}


class SimulationError(RuntimeError):
    """The scenario failed while being built or run by the ns-2 layer."""


# ---- value checking -----------------------------------------------------------

_NUM = r"[0-9.eE+-]+"
_BW_RE = re.compile(rf"^({_NUM})([kKmMgGtTpP]?)([bB](ps)?)?$")
_TIME_RE = re.compile(rf"^({_NUM})(s|ms|us|ns|ps|sec)?$")
_BW_MULT = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15}
_TIME_MULT = {"s": 1.0, "sec": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}


def _is_number(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _num_str(v) -> str:
    """A Python number as Tcl text that parses back to the same double."""
    if isinstance(v, numbers.Integral):
        return str(int(v))
    return repr(float(v))


def _float_prefix(s: str) -> float | None:
    try:
        x = float(s)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def _parse_bandwidth(value, what: str = "bandwidth") -> tuple[str, float]:
    """Check a bandwidth: a number in bits/s or an ns-2 string such as
    ``"10Mb"``, ``"800Kb"``, ``"1.5Mbps"``, ``"2MB"`` (bytes/s).  Returns the
    Tcl text and the value in bits/s."""
    if _is_number(value):
        x = float(value)
        if not math.isfinite(x) or x <= 0:
            raise ValueError(f"{what} must be a positive number of bits/s, got {value!r}")
        return _num_str(value), x
    if isinstance(value, str):
        m = _BW_RE.match(value.strip())
        x = _float_prefix(m.group(1)) if m else None
        if m is not None and x is not None:
            mult = _BW_MULT[m.group(2).lower()]
            if m.group(2) and m.group(3) and m.group(3)[0] == "B":
                mult *= 8
            if x > 0:
                return value.strip(), x * mult
            raise ValueError(f"{what} must be positive, got {value!r}")
    raise ValueError(
        f"{what} must be a positive number of bits/s or a string such as '10Mb', '800Kb' or '1.5Mbps', got {value!r}"
    )


def _parse_time(value, what: str = "delay") -> tuple[str, float]:
    """Check a time: a number of seconds or an ns-2 string such as
    ``"10ms"``, ``"5us"``, ``"0.5"``.  Returns the Tcl text and seconds."""
    if _is_number(value):
        x = float(value)
        if not math.isfinite(x) or x < 0:
            raise ValueError(f"{what} must be a non-negative number of seconds, got {value!r}")
        return _num_str(value), x
    if isinstance(value, str):
        m = _TIME_RE.match(value.strip())
        x = _float_prefix(m.group(1)) if m else None
        if m is not None and x is not None:
            if x >= 0:
                return value.strip(), x * _TIME_MULT[m.group(2) or "s"]
            raise ValueError(f"{what} must not be negative, got {value!r}")
    raise ValueError(f"{what} must be a non-negative number of seconds or a string such as '10ms' or '2us', got {value!r}")


def _bound_vars(kind: str) -> dict[str, str]:
    return dict(Engine.bound_vars(kind) or [])


def _var_name(name: str, kind: str, bound: dict[str, str], what: str) -> str:
    """`windowInit` or `windowInit_` -> `windowInit_`, checked against the
    bound variables of `kind`."""
    for cand in (name, name + "_"):
        if cand in bound:
            return cand
    close = get_close_matches(name if name.endswith("_") else name + "_", list(bound), n=3)
    hint = f"; did you mean {', '.join(c.rstrip('_') for c in close)}?" if close else ""
    raise ValueError(f"{what}: unknown parameter {name!r} for {kind}{hint}")


def _var_value(var: str, typ: str, value, what: str, label: str | None = None) -> str:
    """A Python value as the Tcl text of bound variable `var` of type `typ`
    (`label`: the name the user gave it)."""
    label = label or var
    bad = f"{what}: bad value {value!r} for {label}"
    if typ == "bool":
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, numbers.Integral):
            return str(int(value))
        if isinstance(value, str) and value in ("true", "false", "0", "1"):
            return value
        raise ValueError(f"{bad}: expected True or False")
    if typ == "bandwidth":
        return _parse_bandwidth(value, f"{what}: {label}")[0]
    if typ == "time":
        return _parse_time(value, f"{what}: {label}")[0]
    if isinstance(value, bool):
        raise ValueError(f"{bad}: expected a number")
    if isinstance(value, str):
        x = _float_prefix(value.strip())
        if x is None:
            raise ValueError(f"{bad}: expected a number")
        text = value.strip()
    elif _is_number(value):
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"{bad}: expected a finite number")
        text = _num_str(value)
    else:
        raise ValueError(f"{bad}: expected a number")
    if typ in ("int", "traced-int"):
        if x != int(x):
            raise ValueError(f"{bad}: expected an integer")
        if not isinstance(value, numbers.Integral):
            text = str(int(x))
        if abs(x) >= 2**31:
            raise ValueError(f"{bad}: out of range for a 32-bit integer")
    return text


# ---- handles --------------------------------------------------------------------


class Node:
    """A node of a `Simulation` (ns-2 ``$ns node``).  `id` is ns-2's node
    number (0, 1, ... in creation order), as in traces and result frames."""

    __slots__ = ("sim", "id", "name")

    def __init__(self, sim: Simulation, id: int, name: str | None):
        self.sim = sim
        self.id = id
        self.name = name

    def __repr__(self) -> str:
        return f"Node({self.id}{', ' + repr(self.name) if self.name else ''})"


class Link:
    """One direction of a link, `src` -> `dst`.  A duplex link's other
    direction is `reverse`."""

    __slots__ = ("sim", "src", "dst", "bandwidth", "delay", "queue", "queue_limit", "queue_params", "reverse", "_bw_text",
                 "_delay_text")

    def __init__(self, sim, src, dst, bw, delay, queue, queue_limit):
        self.sim = sim
        self.src = src
        self.dst = dst
        self._bw_text, self.bandwidth = bw
        self._delay_text, self.delay = delay
        self.queue = queue
        self.queue_limit = queue_limit
        self.queue_params: dict[str, str] = {}
        self.reverse: Link | None = None

    def __repr__(self) -> str:
        return (f"Link({self.src.id}->{self.dst.id}, {self._bw_text}, {self._delay_text}, "
                f"{self.queue}, queue_limit={self.queue_limit})")


class Flow:
    """A TCP connection: sender at `src`, sink at `dst`, driven by an FTP
    source from `start` to `stop`.  `id` is its row in `Result.flows`."""

    __slots__ = ("sim", "id", "src", "dst", "variant", "sink", "start", "stop", "fid", "params", "sink_params",
                 "trace_vars", "_start_text", "_stop_text")

    def __init__(self, sim, id, src, dst, variant, sink, start, stop, fid, params, sink_params, trace_vars):
        self.sim = sim
        self.id = id
        self.src = src
        self.dst = dst
        self.variant = variant
        self.sink = sink
        # `$ns at` reads a plain number of seconds (C atof), never units
        self.start = start[1]
        self._start_text = start[0] if _float_prefix(start[0]) is not None else repr(start[1])
        self.stop = stop[1] if stop is not None else None
        self._stop_text = None
        if stop is not None:
            self._stop_text = stop[0] if _float_prefix(stop[0]) is not None else repr(stop[1])
        self.fid = fid
        self.params = params
        self.sink_params = sink_params
        self.trace_vars = trace_vars

    @property
    def tcp_class(self) -> str:
        return VARIANTS[self.variant]

    @property
    def sink_class(self) -> str:
        return SINKS[self.sink]

    def __repr__(self) -> str:
        return f"Flow({self.id}, {self.variant}, {self.src.id}->{self.dst.id}, fid={self.fid})"


# ---- the interpreter ------------------------------------------------------------


@functools.cache
def _runner_class():
    from .ns2.runner import Ns2Runner

    class _ApiRunner(Ns2Runner):
        """The compatibility layer's interpreter, with the API's trace channel
        written to a Python file object instead of a Tcl channel."""

        def __init__(self, sinks: dict):
            self._sinks = sinks
            super().__init__("<dumbbell.api>", [])

        def drain(self, *args):
            for chan, data in self.eng.drain():
                f = self._sinks.get(chan)
                if f is not None:
                    f.write(data)
                else:
                    self.tcl.call("::puts", "-nonewline", chan, data.decode("latin-1"))
            return ""

    return _ApiRunner


# ---- the simulation ---------------------------------------------------------------


class Simulation:
    """A network scenario: nodes, links and TCP flows.

    Nothing runs until `run()`; each `run()` builds the scenario afresh in a
    new interpreter and engine, so runs are independent and repeatable.
    `seed`, if given, seeds ns-2's default random number generator
    (``$defaultRNG seed``), which TCP senders draw from for the phase of
    their clock (a random boot time within ``tcpTick_``) and, with
    `overhead`, for random send delays; without it every run uses ns-2's
    default seed.
    """

    def __init__(self, seed: int | None = None):
        if seed is not None:
            if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or not 0 < seed < 2**31:
                raise ValueError(f"Simulation(): seed must be an integer in 1..2147483647, got {seed!r} "
                                 "(ns-2's seed 0 means 'from the clock', which would not be repeatable)")
            seed = int(seed)
        self.seed = seed
        self._nodes: list[Node] = []
        self._links: dict[tuple[int, int], Link] = {}
        self._flows: list[Flow] = []
        self._ops: list[tuple] = []

    def __repr__(self) -> str:
        return f"Simulation({len(self._nodes)} nodes, {len(self._links)} link directions, {len(self._flows)} flows)"

    # ---- building --------------------------------------------------------

    @property
    def node_list(self) -> list[Node]:
        return list(self._nodes)

    @property
    def links(self) -> list[Link]:
        """Every link direction, in creation order."""
        return list(self._links.values())

    @property
    def flows(self) -> list[Flow]:
        return list(self._flows)

    def node(self, name: str | None = None) -> Node:
        """Add a node (ns-2 ``$ns node``)."""
        if name is not None and not isinstance(name, str):
            raise ValueError(f"node(): name must be a string, got {name!r}")
        n = Node(self, len(self._nodes), name)
        self._nodes.append(n)
        self._ops.append(("node", n))
        return n

    def nodes(self, n: int) -> list[Node]:
        """Add `n` nodes; returns them in order (``A, R, B = sim.nodes(3)``)."""
        if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 1:
            raise ValueError(f"nodes(): n must be a positive integer, got {n!r}")
        return [self.node() for _ in range(int(n))]

    def _check_node(self, node, what: str) -> Node:
        if not isinstance(node, Node):
            raise ValueError(f"{what} must be a Node of this Simulation, got {node!r}")
        if node.sim is not self:
            raise ValueError(f"{what}: {node!r} belongs to another Simulation")
        return node

    def _check_limit(self, limit, what: str) -> int:
        if not isinstance(limit, numbers.Integral) or isinstance(limit, bool) or not 1 <= limit < 2**31:
            raise ValueError(f"{what} must be a positive integer (packets), got {limit!r}")
        return int(limit)

    def link(self, a: Node, b: Node, bandwidth="10Mb", delay="10ms", queue: str = "DropTail",
             queue_limit: int | None = None, duplex: bool = True, queue_params: dict | None = None) -> Link:
        """Connect `a` and `b` (ns-2 ``$ns duplex-link a b bw delay queue``,
        or ``simplex-link`` when `duplex` is False).

        `bandwidth` is in bits/s or an ns-2 string ("10Mb", "800Kb"),
        `delay` in seconds or an ns-2 string ("10ms").  `queue_limit`
        (packets, ns-2 ``$ns queue-limit a b``) applies to the a->b queue;
        the default is ns-2's 50.  `queue` is "DropTail" or "RED";
        `queue_params` sets bound variables of the queue(s) of both
        directions, e.g. ``{"thresh": 5, "maxthresh": 15, "setbit": True}``
        for RED with ECN marking, ``{"aecn": True}`` for AECN (the trailing
        underscore is optional).  Returns the a->b `Link`; a duplex link's
        b->a direction is its `reverse`.
        """
        a = self._check_node(a, "link(): a")
        b = self._check_node(b, "link(): b")
        if a is b:
            raise ValueError(f"link(): a and b are the same node ({a!r})")
        bw = _parse_bandwidth(bandwidth, "link(): bandwidth")
        dl = _parse_time(delay, "link(): delay")
        if not isinstance(queue, str):
            raise ValueError(f"link(): queue must be a queue type name such as 'DropTail', got {queue!r}")
        qkinds = {k[len("Queue/"):].lower(): k[len("Queue/"):] for k in Engine.kinds() if k.startswith("Queue/")}
        if queue.lower() not in qkinds:
            raise ValueError(f"link(): unknown or unsupported queue {queue!r}; supported: {', '.join(sorted(qkinds.values()))}")
        queue = qkinds[queue.lower()]
        if queue_limit is not None:
            queue_limit = self._check_limit(queue_limit, "link(): queue_limit")
        if not isinstance(duplex, bool):
            raise ValueError(f"link(): duplex must be True or False, got {duplex!r}")
        qparams: dict[str, str] = {}
        if queue_params:
            if not isinstance(queue_params, dict):
                raise ValueError(f"link(): queue_params must be a dict, got {queue_params!r}")
            qkind = f"Queue/{queue}"
            qbound = _bound_vars(qkind)
            for name, value in queue_params.items():
                var = _var_name(str(name), qkind, qbound, "link(): queue_params")
                qparams[var] = _var_value(var, qbound[var], value, "link(): queue_params", str(name))
        pairs = [(a, b), (b, a)] if duplex else [(a, b)]
        for s, d in pairs:
            if (s.id, d.id) in self._links:
                raise ValueError(f"link(): there is already a link {s.id}->{d.id}")
        fwd = Link(self, a, b, bw, dl, queue, queue_limit if queue_limit is not None else 50)
        fwd.queue_params = dict(qparams)
        self._links[(a.id, b.id)] = fwd
        if duplex:
            rev = Link(self, b, a, bw, dl, queue, 50)
            rev.queue_params = dict(qparams)
            fwd.reverse, rev.reverse = rev, fwd
            self._links[(b.id, a.id)] = rev
        self._ops.append(("link", fwd, duplex, queue_limit))
        return fwd

    def queue_limit(self, a: Node, b: Node, limit: int) -> Link:
        """Set the limit of the a->b queue (ns-2 ``$ns queue-limit a b n``)."""
        a = self._check_node(a, "queue_limit(): a")
        b = self._check_node(b, "queue_limit(): b")
        lk = self._links.get((a.id, b.id))
        if lk is None:
            raise ValueError(f"queue_limit(): there is no link {a.id}->{b.id}")
        lk.queue_limit = self._check_limit(limit, "queue_limit(): limit")
        self._ops.append(("qlimit", lk, lk.queue_limit))
        return lk

    def tcp(self, src: Node, dst: Node, variant: str = "reno", sink: str = "ack-every", start=0.0, stop=None,
            packet_size: int | None = None, window: float | None = None, flow_id: int | None = None,
            trace_vars: Iterable[str] | str = (), sink_params: dict | None = None, **params) -> Flow:
        """A one-way TCP connection from `src` to `dst` with an FTP source
        (ns-2 ``new Agent/TCP/Reno``, ``new Agent/TCPSink``, ``attach-agent``,
        ``connect``, ``Application/FTP``, ``$ns at start "$ftp start"``).

        * `variant`: "tahoe" (Agent/TCP), "reno", "newreno".
        * `sink`: "ack-every" (Agent/TCPSink) or "delack" (TCPSink/DelAck).
        * `start`, `stop`: seconds (or "2.5s"-style strings); FTP start/stop.
        * `packet_size`: ns-2 ``packetSize_``, the TCP payload in bytes; on the
          wire a packet is 40 bytes larger (960 gives 1000-byte packets).
        * `window`: ns-2 ``window_``, the maximum window (default 20).
        * `flow_id`: ns-2 ``fid_`` (trace column 8); default: the flow's index.
        * `trace_vars`: traced variables of the sender to record in
          `Result.vars`, e.g. ("cwnd_", "ack_"); the underscore is optional.
        * `**params`: any other bound variable of the sender class, with or
          without the trailing underscore (``windowInit=2``, ``overhead=0.01``,
          ``maxburst_=4``); `sink_params` likewise for the sink.
        """
        src = self._check_node(src, "tcp(): src")
        dst = self._check_node(dst, "tcp(): dst")
        if src is dst:
            raise ValueError(f"tcp(): src and dst are the same node ({src!r})")
        if not isinstance(variant, str) or variant.lower() not in VARIANTS:
            raise ValueError(f"tcp(): unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        variant = variant.lower()
        if not isinstance(sink, str) or sink.lower() not in SINKS:
            raise ValueError(f"tcp(): unknown sink {sink!r}; choose one of {', '.join(SINKS)}")
        sink = sink.lower()
        kind, sink_kind = VARIANTS[variant], SINKS[sink]
        st = _parse_time(start, "tcp(): start")
        sp = None
        if stop is not None:
            sp = _parse_time(stop, "tcp(): stop")
            if sp[1] <= st[1]:
                raise ValueError(f"tcp(): stop ({stop!r}) must be later than start ({start!r})")
        bound = _bound_vars(kind)
        traceable = {n for n, t in bound.items() if t.startswith("traced-")}
        fid = len(self._flows) if flow_id is None else flow_id
        given: dict[str, tuple[str, object]] = {}

        def put(var, value, label):
            if var in _WIRING:
                raise ValueError(f"tcp(): {label} is set by the API when it connects the flow")
            alias = "fid_" if var == "class_" else var
            if alias in given:
                raise ValueError(f"tcp(): {given[alias][0]} and {label} set the same ns-2 variable {alias}")
            given[alias] = (label, _var_value(alias, bound[var], value, "tcp()", label))

        put("fid_", fid, "flow_id")
        if packet_size is not None:
            if _is_number(packet_size) and packet_size <= 0:
                raise ValueError(f"tcp(): packet_size must be a positive number of bytes, got {packet_size!r}")
            put("packetSize_", packet_size, "packet_size")
        if window is not None:
            if _is_number(window) and window <= 0:
                raise ValueError(f"tcp(): window must be positive, got {window!r}")
            put("window_", window, "window")
        for name, value in params.items():
            put(_var_name(name, kind, bound, "tcp()"), value, name)
        sbound = _bound_vars(sink_kind)
        sgiven = {}
        if sink_params is not None and not isinstance(sink_params, dict):
            raise ValueError(f"tcp(): sink_params must be a dict of sink variables, got {sink_params!r}")
        for name, value in (sink_params or {}).items():
            if not isinstance(name, str):
                raise ValueError(f"tcp(): sink_params keys must be variable names, got {name!r}")
            var = _var_name(name, sink_kind, sbound, "tcp(): sink_params")
            if var in _WIRING:
                raise ValueError(f"tcp(): sink_params: {name} is set by the API when it connects the flow")
            sgiven[var] = _var_value(var, sbound[var], value, "tcp(): sink_params", name)
        if isinstance(trace_vars, str):
            trace_vars = (trace_vars,)
        tv: list[str] = []
        for v in trace_vars:
            if not isinstance(v, str):
                raise ValueError(f"tcp(): trace_vars must be variable names, got {v!r}")
            name = v if v in traceable else v + "_"
            if name not in traceable:
                raise ValueError(f"tcp(): cannot trace {v!r}; traceable variables of {kind}: "
                                 f"{', '.join(sorted(traceable))}")
            if name not in tv:
                tv.append(name)
        f = Flow(self, len(self._flows), src, dst, variant, sink, st, sp, int(given["fid_"][1]),
                 {k: t for k, (_, t) in given.items()}, sgiven, tuple(tv))
        self._flows.append(f)
        self._ops.append(("tcp", f))
        return f

    # ---- the equivalent ns-2 script ----------------------------------------

    def _links_arg(self, arg, what: str) -> list[Link]:
        if arg is True:
            return list(self._links.values())
        if arg is False or arg is None:
            return []
        if isinstance(arg, Link) or (isinstance(arg, tuple) and len(arg) == 2
                                     and all(isinstance(x, Node) for x in arg)):
            arg = [arg]
        out = []
        try:
            items = list(arg)
        except TypeError:
            raise ValueError(f"{what} must be True, False or a list of links, got {arg!r}") from None
        for x in items:
            if isinstance(x, Link):
                if x.sim is not self:
                    raise ValueError(f"{what}: {x!r} belongs to another Simulation")
                lk = x
            elif isinstance(x, tuple) and len(x) == 2:
                a = self._check_node(x[0], f"{what}: link source")
                b = self._check_node(x[1], f"{what}: link destination")
                lk = self._links.get((a.id, b.id))
                if lk is None:
                    raise ValueError(f"{what}: there is no link {a.id}->{b.id}")
            else:
                raise ValueError(f"{what}: expected a Link or a (node, node) pair, got {x!r}")
            if lk not in out:
                out.append(lk)
        return out

    def _check_routes(self):
        adj: dict[int, set[int]] = {}
        for s, d in self._links:
            adj.setdefault(s, set()).add(d)

        def reach(a: int, b: int) -> bool:
            seen, todo = {a}, [a]
            while todo:
                for m in adj.get(todo.pop(), ()):
                    if m == b:
                        return True
                    if m not in seen:
                        seen.add(m)
                        todo.append(m)
            return False

        for f in self._flows:
            for a, b, what in ((f.src, f.dst, "data"), (f.dst, f.src, "ACKs")):
                if not reach(a.id, b.id):
                    raise ValueError(f"flow {f.id}: no route from node {a.id} to node {b.id} for its {what}")

    def _script(self, until_text: str, channel: str | None, trace_packets: list[Link] | bool,
                monitors: list[Link]) -> list[str]:
        L = ["# Generated by dumbbell.api: the ns-2 script equivalent to the Python scenario.",
             "set ns [new Simulator]"]
        if self.seed is not None:
            L.append(f"$defaultRNG seed {self.seed}")
        traced = bool(trace_packets) or any(f.trace_vars for f in self._flows)
        if traced:
            L.append(f"set tf {channel}")
            if trace_packets is True:
                L.append("$ns trace-all $tf")
        for op in self._ops:
            kind = op[0]
            if kind == "node":
                L.append(f"set n({op[1].id}) [$ns node]")
            elif kind == "link":
                lk, duplex, qlim = op[1], op[2], op[3]
                a, b = lk.src.id, lk.dst.id
                L.append(f"$ns {'duplex' if duplex else 'simplex'}-link $n({a}) $n({b}) {lk._bw_text} "
                         f"{lk._delay_text} {lk.queue}")
                for s_, d_ in ([(a, b), (b, a)] if duplex else [(a, b)]):
                    for var, text in lk.queue_params.items():
                        L.append(f"[[$ns link $n({s_}) $n({d_})] queue] set {var} {text}")
                if qlim is not None:
                    L.append(f"$ns queue-limit $n({a}) $n({b}) {qlim}")
            elif kind == "qlimit":
                L.append(f"$ns queue-limit $n({op[1].src.id}) $n({op[1].dst.id}) {op[2]}")
            elif kind == "tcp":
                f = op[1]
                i = f.id
                L.append(f"set tcp({i}) [new {f.tcp_class}]")
                for var, text in f.params.items():
                    L.append(f"$tcp({i}) set {var} {text}")
                L.append(f"$ns attach-agent $n({f.src.id}) $tcp({i})")
                if f.trace_vars:
                    L.append(f"$tcp({i}) attach $tf")
                    for v in f.trace_vars:
                        L.append(f"$tcp({i}) tracevar {v}")
                L.append(f"set sink({i}) [new {f.sink_class}]")
                for var, text in f.sink_params.items():
                    L.append(f"$sink({i}) set {var} {text}")
                L.append(f"$ns attach-agent $n({f.dst.id}) $sink({i})")
                L.append(f"$ns connect $tcp({i}) $sink({i})")
                L.append(f"set ftp({i}) [new Application/FTP]")
                L.append(f"$ftp({i}) attach-agent $tcp({i})")
                L.append(f'$ns at {f._start_text} "$ftp({i}) start"')
                if f._stop_text is not None:
                    L.append(f'$ns at {f._stop_text} "$ftp({i}) stop"')
        if isinstance(trace_packets, list):
            for lk in trace_packets:
                L.append(f"$ns trace-queue $n({lk.src.id}) $n({lk.dst.id}) $tf")
        for k, lk in enumerate(monitors):
            L.append(f"set qm({k}) [$ns monitor-queue $n({lk.src.id}) $n({lk.dst.id}) 0]")
        L.append(f'$ns at {until_text} "$ns halt"')
        L.append("$ns run")
        return L

    def _prepare(self, until, trace_packets, monitor_queues):
        t = _parse_time(until, "run(): until")[1]
        if t <= 0:
            raise ValueError(f"run(): until must be a positive time, got {until!r}")
        # `$ns at` reads a plain number of seconds (C atof), never units
        until_text = _num_str(until) if _is_number(until) else repr(t)
        if trace_packets is True:
            tp: list[Link] | bool = True
        else:
            tp = self._links_arg(trace_packets, "run(): trace_packets")
        mon = self._links_arg(monitor_queues, "run(): monitor_queues")
        self._check_routes()
        return until_text, t, tp, mon

    def to_tcl(self, until, trace_packets=False, trace_file: str = "out.tr", monitor_queues=False) -> str:
        """The ns-2 script `run()` executes, as a stand-alone script for
        ``dumbbell run`` or ns-2 itself: traces go to `trace_file`, and after
        the run one line per flow is printed:
        ``flow <i> ack_ <n> maxseq_ <n> cwnd_ <x> ... bytes_ <n>``."""
        until_text, until_s, tp, mon = self._prepare(until, trace_packets, monitor_queues)
        trace_file = os.fspath(trace_file)
        if re.search(r'[{}\\\n]', trace_file):
            raise ValueError(f"to_tcl(): trace_file must not contain braces, backslashes or newlines, got {trace_file!r}")
        L = self._script(until_text, f"[open {{{trace_file}}} w]", tp, mon)
        for f in self._flows:
            L.append(f'puts "flow {f.id} ' + " ".join(f"{v} [$tcp({f.id}) set {v}]" for v in _FLOW_VARS)
                     + f' bytes_ [$sink({f.id}) set bytes_]"')
        if tp or any(f.trace_vars for f in self._flows):
            L += ["$ns flush-trace", "close $tf"]
        return "\n".join(L) + "\n"

    # ---- running -------------------------------------------------------------

    def run(self, until, trace_packets=False, monitor_queues=True, trace_file: str | os.PathLike | None = None):
        """Run the scenario from time 0 to `until` seconds; returns a `Result`.

        * `trace_packets`: True traces every link (ns-2 ``trace-all``); a list
          of links (`Link` objects or (node, node) pairs) traces only those
          directions (``trace-queue``); False (default) traces none.
        * `monitor_queues`: True (default) puts a queue monitor on every link
          direction (`Result.queues`); a list selects directions; False none.
        * `trace_file`: also keep the ns-2 format trace text (packet events
          and variable traces, exactly as ns-2 writes them) at this path.
        """
        from .results import Result

        until_text, until_s, tp, mon = self._prepare(until, trace_packets, monitor_queues)
        traced = bool(tp) or any(f.trace_vars for f in self._flows)
        if trace_file is not None and not traced:
            raise ValueError("run(): trace_file was given but nothing is traced; "
                             "use trace_packets=True or trace_vars=(...) on a flow")
        lines = self._script(until_text, _CHANNEL, tp, mon)
        script = "\n".join(lines) + "\n"
        out = None
        path = None
        recorded = traced and trace_file is None
        if recorded:
            # Packet events straight from the engine as columns; the variable
            # traces (text) are kept in memory.  Nothing touches the disk.
            out = io.BytesIO()
        elif traced:
            path = Path(trace_file)
            out = open(path, "wb")
        runner = None
        columns = None
        try:
            runner = _runner_class()({_CHANNEL: out} if out is not None else {})
            if recorded:
                runner.eng.set_recorded(_CHANNEL)
            try:
                runner.tcl.eval(script)
            except tkinter.TclError as err:
                panic = getattr(runner, "panic", None)
                if panic is not None:
                    raise SimulationError(f"internal error in the engine (a bug in Dumbbell): {panic}") from None
                raise SimulationError(_tcl_error(runner, err)) from None
            except BaseException as err:
                if type(err).__name__ == "PanicException":
                    raise SimulationError(f"internal error in the engine (a bug in Dumbbell): {err}") from None
                raise
            runner.drain()
            final = _collect(runner, self._flows, mon, until_s)
            if recorded:
                from ._engine import parse_trace_bytes

                columns = (runner.eng.take_events(), parse_trace_bytes(out.getvalue())[1])
        finally:
            if out is not None:
                out.close()
            if runner is not None:
                _dispose(runner)
        return Result._build(self, until_s, script, final, path, packets_traced=bool(tp),
                             kept=trace_file is not None, columns=columns)


# Sender variables read into Result.flows (and printed by to_tcl's script).
_FLOW_VARS = ("ack_", "maxseq_", "cwnd_", "ssthresh_", "ndatapack_", "nrexmitpack_", "packetSize_",
              "tcpip_base_hdr_size_")

_QM_VARS = ("parrivals_", "pdepartures_", "pdrops_", "barrivals_", "bdepartures_", "bdrops_", "pkts_", "size_")


def _dispose(runner) -> None:
    """Free the interpreter and the engine now.  Every command tkinter
    creates holds a reference to its interpreter, so an interpreter with
    Python commands is never freed unless they are deleted."""
    tcl, runner.tcl, runner.eng = runner.tcl, None, None
    try:
        names = tcl.eval(
            "set ::dumbbell_q :: ; set ::dumbbell_r {}\n"
            "while {[llength $::dumbbell_q]} {\n"
            "  set ::dumbbell_n [lindex $::dumbbell_q 0]; set ::dumbbell_q [lrange $::dumbbell_q 1 end]\n"
            "  foreach c [info commands [string trimright $::dumbbell_n :]::*] { lappend ::dumbbell_r $c }\n"
            "  foreach c [namespace children $::dumbbell_n] { lappend ::dumbbell_q $c }\n"
            "}\n"
            "set ::dumbbell_r")
        for name in tcl.splitlist(names):
            try:
                tcl.deletecommand(name)
            except Exception:
                pass
    except Exception:
        pass


def _tcl_error(runner, err) -> str:
    try:
        info = runner.tcl.eval("if {[info exists ::errorInfo]} {set ::errorInfo} else {list}")
    except Exception:
        info = ""
    out = [f"the ns-2 layer failed: {err}"]
    cb = getattr(runner, "callback_error", None)
    if cb:
        out.append(f"  in the callback scheduled for time {cb[0]}: {cb[1].strip()}")
        info = cb[2]
    if info:
        out.append("Tcl traceback:")
        out.extend("    " + line for line in info.splitlines())
    return "\n".join(out)


def _collect(runner, flows, monitors, until):
    """Final values of every flow and queue monitor, read through Tcl as an
    ns-2 script's finish procedure would."""
    t = runner.tcl
    fl = []
    for f in flows:
        i = f.id
        vals = t.splitlist(t.eval(
            "list " + " ".join(f"[$tcp({i}) set {v}]" for v in _FLOW_VARS)
            + f" [$tcp({i}) set agent_port_] [$sink({i}) set agent_port_] [$sink({i}) set bytes_]"))
        fl.append(vals)
    qs = []
    for k, lk in enumerate(monitors):
        vals = t.splitlist(t.eval(
            "list " + " ".join(f"[$qm({k}) set {v}]" for v in _QM_VARS)
            + "".join(f" [[$qm({k}) get-{w}-integrator] set {v}]" for w in ("pkts", "bytes")
                      for v in ("lastx_", "lasty_", "sum_"))
            + f" [[$ns link $n({lk.src.id}) $n({lk.dst.id})] bw]"
            + f" [[$ns link $n({lk.src.id}) $n({lk.dst.id})] delay]"
            + f" [[$ns link $n({lk.src.id}) $n({lk.dst.id})] qsize]"))
        qs.append((lk, vals))
    return {"flows": fl, "queues": qs}
