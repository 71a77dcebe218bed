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

Exactness.  A `Simulation` is a description.  `run()` builds it in the
engine with the engine's typed builder (`dumbbell._engine.Builder`, which
makes the objects, wiring and order of the ns-2 library's procedures), with
no Tcl interpreter and no script, so the API gives exactly the numbers and
traces of the equivalent ns-2 script (`Simulation.to_tcl`) under `dumbbell
run` -- and ns-2 2.35.  Trace output is taken from the engine's per-channel
buffers and parsed into polars frames by the engine's trace reader.
"""

from __future__ import annotations

import functools
import gc
import io
import math
import numbers
import os
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from .._engine import Builder, Engine, atof, congestion_controls, parse_bw, parse_time
from ._values import (_run_lines, _run_number, _bound_vars, _traceable_vars, _float_prefix, _is_number, _num_str, _parse_bandwidth, _parse_time, _var_name,
                      _var_value)

__all__ = ["Simulation", "Node", "Link", "Flow", "RateFlow", "Source", "ErrorModel", "SimulationError", "VARIANTS", "SINKS",
           "TRAFFIC", "UDP_SINKS"]

#: TCP sender variants and their ns-2 classes.
VARIANTS = {"tahoe": "Agent/TCP", "reno": "Agent/TCP/Reno", "newreno": "Agent/TCP/Newreno", "sack": "Agent/TCP/Sack1",
            "vegas": "Agent/TCP/Vegas", "rfc793edu": "Agent/TCP/RFC793edu", "ecn-mod": "Agent/TCP/Newreno",
            "linux": "Agent/TCP/Linux", "fack": "Agent/TCP/Fack", "sack-rh": "Agent/TCP/SackRH",
            "fulltcp": "Agent/TCP/FullTcp", "fulltcp-tahoe": "Agent/TCP/FullTcp/Tahoe",
            "fulltcp-newreno": "Agent/TCP/FullTcp/Newreno", "fulltcp-sack": "Agent/TCP/FullTcp/Sack"}
#: The two-way variants (ns-2's FullTcp): their receiver is a FullTcp of
#: the same class that listens (sink "fulltcp").
_TWO_WAY = ("fulltcp", "fulltcp-tahoe", "fulltcp-newreno", "fulltcp-sack")
#: The congestion controls of variant "linux" (ns-2's `select_ca` names).
CONGESTION_CONTROLS = tuple(congestion_controls())
#: What a variant sets beside its class: ECN-mod (seed 003) is NewReno with
#: ECN and the ECN-mod window rule, its sink echoing each mark once.
_VARIANT_VARS = {"ecn-mod": ({"ecn_": True, "ecnmod_": True}, {"ecnmod_": True})}
#: Congestion controls of variant "linux" that need ECN (DCTCP, Prague): the
#: sender turns ECN on at ``select_ca``, and their sink echoes CE exactly
#: (RFC 8257 section 3.2: ``dctcp_``).
_ECN_CCS = ("dctcp", "prague")
#: TCP sinks and their ns-2 classes.
SINKS = {
    "ack-every": "Agent/TCPSink",
    "delack": "Agent/TCPSink/DelAck",
    "sack": "Agent/TCPSink/Sack1",
    "sack-delack": "Agent/TCPSink/Sack1/DelAck",
    # the two-way variants' receiver: the sender's own class, listening
    "fulltcp": None,
}
#: Datagram traffic sources (over Agent/UDP) and their ns-2 classes.
TRAFFIC = {"cbr": "Application/Traffic/CBR", "exponential": "Application/Traffic/Exponential",
           "pareto": "Application/Traffic/Pareto", "voip": "Application/Traffic/VoIPCalls"}
#: Datagram sinks and their ns-2 classes.
UDP_SINKS = {"loss-monitor": "Agent/LossMonitor", "null": "Agent/Null"}

#: CoDel's parameters (the engine's ns-3.37 CoDelQueueDisc) and defaults.
CODEL_DEFAULTS = {"target": 0.005, "interval": 0.1, "min_bytes": 1500, "use_ecn": False, "ce_threshold": None,
                  "use_l4s": False}

#: PIE's parameters (the engine's ns-3.37 PieQueueDisc: its attributes in
#: snake case) and defaults, and the bound variable of Queue/PIE each sets.
PIE_DEFAULTS = {"a": 0.125, "b": 1.25, "t_update": 0.015, "queue_delay_reference": 0.015,
                "max_burst_allowance": 0.15, "dequeue_threshold": 16384, "use_dequeue_rate_estimator": False,
                "use_cap_drop_adjustment": True, "use_ecn": False, "mark_ecn_threshold": 0.1,
                "use_derandomization": False, "active_threshold": None, "mean_pkt_size": 1000, "bytes": False,
                "ce_threshold": None, "use_l4s": False}
_PIE_VARS = {"bytes": "queue_in_bytes_", "mean_pkt_size": "mean_pktsize_", "a": "a_", "b": "b_",
             "t_update": "tUpdate_", "queue_delay_reference": "qdelay_ref_", "max_burst_allowance": "burst_allowance_",
             "dequeue_threshold": "dq_threshold_", "use_dequeue_rate_estimator": "use_dq_rate_estimator_",
             "use_cap_drop_adjustment": "cap_drop_adjustment_", "use_ecn": "setbit_",
             "mark_ecn_threshold": "mark_p_", "use_derandomization": "derandomize_",
             "active_threshold": "active_threshold_", "ce_threshold": "ce_threshold_", "use_l4s": "use_l4s_"}

# The in-engine channel the API's traces are written to.
_CHANNEL = "dumbbell_api_trace"

# Bound variables the API itself sets when it wires a flow.
_WIRING = {"agent_addr_", "agent_port_", "dst_addr_", "dst_port_"}

# A link's queue parameters when none are given (shared, read only).
_NO_PARAMS: Mapping[str, str] = MappingProxyType({})


class SimulationError(RuntimeError):
    """The scenario failed while being built or run by the engine."""


@functools.cache
def _defaults_text() -> str:
    """The ns-2 library's class defaults, as the library evaluates them:
    the engine's class registry's, then defaults.tcl (the builder gives new
    objects the values a script's objects get)."""
    from ..ns2.runner import LIB_DIR

    return Engine.class_defaults_tcl() + Path(LIB_DIR, "defaults.tcl").read_text()


@functools.cache
def _queue_kinds() -> dict[str, str]:
    k = {c[len("Queue/"):].lower(): c[len("Queue/"):] for c in Engine.kinds() if c.startswith("Queue/")}
    k["codel"] = "CoDel"
    k["rio"] = "RED/RIO"
    k["priqueue"] = "DropTail/PriQueue"
    return k


# Queue classes of the engine that link() cannot wire (what they need).
_SCRIPT_ONLY_QUEUES = {
    "XCP": "it is an XCP router's queue, made with its link's XCP agents",
    "dsRED": "use dsRED/edge or dsRED/core",
}


#: The classifiers a RED-PD queue's flow monitor can tell flows apart by
#: (ns-2's Classifier/Hash/<type>; makeflowmon's default SrcDestFid).
REDPD_CLASSIFIERS = ("SrcDestFid", "Fid", "SrcDest", "Dest")

#: Variables of ns-2's RED that red.cc reads only at a reset
#: (REDQueue::reset turns thresh_ and maxthresh_ into the thresholds in
#: queue units and the slope of the drop probability, linterm_ into
#: cur_max_p): set mid-run without a reset they change nothing.
_RED_AT_RESET = ("thresh_", "maxthresh_", "linterm_")


#: JoBS's service objectives (queue/jobs.cc's init-rdcs ... init-arcs, in
#: the order ns-2's jobs suite gives them): relative delay and loss
#: (a class's ratio to the class below), absolute loss (a share) and delay
#: (seconds) bounds, and absolute rates (bits/s); one value per class 1..4,
#: None (ns-2's -1) for none.
JOBS_OBJECTIVES = {"rdc": "init-rdcs", "rlc": "init-rlcs", "alc": "init-alcs", "adc": "init-adcs", "arc": "init-arcs"}
#: JoBS's bound variables the API sets (jobs.cc; its per-hop statistics
#: file, trace_hop_ and trace-file, is left off: the queue gets `trace-file
#: null`).
_JOBS_VARS = ("drop_front", "adc_resolution_type", "shared_buffer", "mean_pkt_size")


def _jobs_params(params) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """JoBS's queue_params checked (ns-2 2.35's Queue/JoBS): its service
    objectives (`JOBS_OBJECTIVES`, each a list of four values or None),
    `sampling_period` (whole seconds of its controller, 1), `id` (the
    queue's number, 0) and the bound variables `_JOBS_VARS`.  Returns the
    variables and the queue's commands in a script's order; the link's
    ``link`` command is put in by the caller (before ``trace-file``)."""
    what = "link(): queue_params"
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValueError(f"{what}: JoBS needs a dict, got {params!r}")
    known = (*JOBS_OBJECTIVES, "sampling_period", "id", *_JOBS_VARS)
    unknown = [k for k in params if str(k).rstrip("_") not in known]
    if unknown:
        raise ValueError(f"{what}: unknown JoBS parameter(s) {', '.join(map(repr, unknown))}; known: {', '.join(known)}")
    bound = _bound_vars("Queue/JoBS")
    vars_ = []
    for name, value in params.items():
        key = str(name).rstrip("_")
        if key in _JOBS_VARS:
            var = _var_name(key, "Queue/JoBS", bound, what)
            vars_.append((var, _var_value(var, bound[var], value, what, key, "Queue/JoBS")))
    cmds = []
    for key, cmd in JOBS_OBJECTIVES.items():
        v = params.get(key)
        if v is None:
            v = (None,) * 4
        if not isinstance(v, (list, tuple)) or len(v) != 4:
            raise ValueError(f"{what}: JoBS {key} must be a list of four values (classes 1 to 4; None for none), got {v!r}")
        words = []
        for i, x in enumerate(v):
            if x is None or (_is_number(x) and x == -1):
                words.append("-1")
                continue
            hi = 1.0 if key == "alc" else math.inf
            if not _is_number(x) or not math.isfinite(x) or not 0 < x <= hi:
                rng = "from 0 (excluded) to 1" if key == "alc" else "a positive number"
                raise ValueError(f"{what}: JoBS {key}[{i}] (class {i + 1}) must be None (or -1) or {rng}, got {x!r}")
            words.append(_num_str(x))
        cmds.append([cmd, *words])
    per = params.get("sampling_period", 1)
    if not isinstance(per, numbers.Integral) or isinstance(per, bool) or not 1 <= per < 2**31:
        raise ValueError(f"{what}: JoBS sampling_period must be a positive whole number of seconds, got {per!r}")
    qid = params.get("id", 0)
    if not isinstance(qid, numbers.Integral) or isinstance(qid, bool) or not 0 <= qid < 2**31:
        raise ValueError(f"{what}: JoBS id must be an integer of zero or more, got {qid!r}")
    cmds += [["trace-file", "null"], ["sampling-period", str(int(per))], ["id", str(int(qid))], ["initialize"]]
    return vars_, cmds


@functools.cache
def _jobs_class_defaults(cls: str) -> tuple[tuple[str, str], ...]:
    """The class defaults of JoBS's own variables (or its edge queues'), as
    the engine's class has them (ns-2 has none: test-suite-jobs.tcl sets
    these)."""
    own = ("drop_front_", "trace_hop_", "mean_pkt_size_", "adc_resolution_type_", "shared_buffer_")
    return tuple((v, t) for v, t in Builder.class_defaults(_defaults_text(), f"Queue/{cls}", f"Queue/{cls}")
                 if v in own or "arrvs" in v)


def _marker_params(params, queue: str) -> list[list[str]]:
    """JoBS's edge queues (ns-2's Queue/Marker, Queue/Demarker): a marker
    sets every packet's class (`marker_class`, 1 to 4: ``marker_type 1``);
    a demarker counts them by class (``trace-file null``)."""
    what = "link(): queue_params"
    params = {} if params is None else params
    if not isinstance(params, dict):
        raise ValueError(f"{what}: {queue} needs a dict, got {params!r}")
    if queue == "Demarker":
        if params:
            raise ValueError(f"{what}: a Demarker has no parameters, got {params!r}")
        return [["trace-file", "null"]]
    bad = set(params) - {"marker_class"}
    if bad:
        raise ValueError(f"{what}: unknown Marker parameter(s) {', '.join(map(repr, sorted(bad, key=str)))}; known: marker_class")
    c = params.get("marker_class")
    if not isinstance(c, numbers.Integral) or isinstance(c, bool) or not 1 <= c <= 4:
        raise ValueError(f"{what}: Marker marker_class must be the JoBS class of its packets, 1 to 4, got {c!r}")
    return [["marker_type", "1"], ["marker_class", str(int(c))]]


def _disc_params(params, defaults: dict, disc: str, strip: bool = False):
    """The queue_params of a discipline with a parameter table: a dict whose
    names are all in `defaults` (a trailing underscore dropped when `strip`).
    Returns a copy of the defaults to fill and the (name, value) pairs."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValueError(f"link(): queue_params must be a dict, got {params!r}")
    items = []
    for name, value in params.items():
        key = str(name).rstrip("_") if strip else str(name)
        if key not in defaults:
            raise ValueError(f"link(): queue_params: unknown parameter {name!r} for {disc}; known: {', '.join(defaults)}")
        items.append((key, value))
    return dict(defaults), items


def _codel_params(params) -> tuple:
    """CoDel's queue_params checked: (target s, interval s, min_bytes,
    use_ecn, ce_threshold s or None, use_l4s), and their Tcl texts."""
    what = "link(): queue_params"
    vals, items = _disc_params(params, CODEL_DEFAULTS, "CoDel", strip=True)
    for key, value in items:
        if key in ("target", "interval"):
            t = _parse_time(value, f"{what}: {key}")[1]
            if t <= 0:
                raise ValueError(f"{what}: {key} must be positive, got {value!r}")
            vals[key] = t
        elif key == "ce_threshold":
            vals[key] = None if value is None else _parse_time(value, f"{what}: ce_threshold")[1]
        elif key == "min_bytes":
            if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not 0 <= value < 2**32:
                raise ValueError(f"{what}: min_bytes must be a non-negative integer (bytes), got {value!r}")
            vals[key] = int(value)
        else:
            if not isinstance(value, bool):
                raise ValueError(f"{what}: {key} must be True or False, got {value!r}")
            vals[key] = value
    return (vals["target"], vals["interval"], vals["min_bytes"], vals["use_ecn"], vals["ce_threshold"], vals["use_l4s"])


#: FQ-CoDel's parameters (the engine's ns-3.37 FqCoDelQueueDisc: its
#: attributes in snake case; `quantum` is ns-3's device MTU) and defaults,
#: and the bound variable of Queue/FQ_CoDel each sets, in the order set.
FQ_CODEL_DEFAULTS = {"target": 0.005, "interval": 0.1, "use_ecn": True, "ce_threshold": None, "use_l4s": False, "flows": 1024,
                     "set_ways": 8, "enable_set_associative_hash": False, "quantum": 1500, "drop_batch_size": 64,
                     "perturbation": 0}
_FQ_CODEL_VARS = {"target": "target_", "interval": "interval_", "use_ecn": "setbit_", "ce_threshold": "ce_threshold_",
                  "use_l4s": "use_l4s_",
                  "flows": "flows_", "set_ways": "set_ways_", "enable_set_associative_hash": "set_associative_hash_",
                  "quantum": "quantum_", "drop_batch_size": "drop_batch_size_", "perturbation": "perturbation_"}


def _fq_codel_params(params) -> dict:
    """FQ-CoDel's queue_params checked: every parameter of
    FQ_CODEL_DEFAULTS, typed (times in seconds, `ce_threshold` None when
    off)."""
    what = "link(): queue_params"
    vals, items = _disc_params(params, FQ_CODEL_DEFAULTS, "FQ_CoDel")
    for key, value in items:
        if key in ("target", "interval"):
            t = _parse_time(value, f"{what}: {key}")[1]
            if not t > 0:
                raise ValueError(f"{what}: {key} must be positive, got {value!r}")
            vals[key] = t
        elif key == "ce_threshold":
            vals[key] = None if value is None else _parse_time(value, f"{what}: ce_threshold")[1]
        elif key in ("use_ecn", "use_l4s", "enable_set_associative_hash"):
            if not isinstance(value, bool):
                raise ValueError(f"{what}: {key} must be True or False, got {value!r}")
            vals[key] = value
        else:
            low = 0 if key == "perturbation" else 1
            if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not low <= value < 2**31:
                raise ValueError(f"{what}: {key} must be an integer from {low} to 2**31-1, got {value!r}")
            vals[key] = int(value)
    if vals["enable_set_associative_hash"] and vals["flows"] % vals["set_ways"]:
        raise ValueError(f"{what}: with enable_set_associative_hash, flows ({vals['flows']}) must be a multiple "
                         f"of set_ways ({vals['set_ways']})")
    return vals


def _pie_params(params) -> dict:
    """PIE's queue_params checked: every parameter of PIE_DEFAULTS, typed
    (times in seconds, `active_threshold` and `ce_threshold` None when off)."""
    what = "link(): queue_params"
    vals, items = _disc_params(params, PIE_DEFAULTS, "PIE")
    for key, value in items:
        default = PIE_DEFAULTS[key]
        if key in ("t_update", "queue_delay_reference", "max_burst_allowance", "active_threshold", "ce_threshold"):
            if key in ("active_threshold", "ce_threshold") and value is None:
                vals[key] = None
                continue
            t = _parse_time(value, f"{what}: {key}")[1]
            low = 1e-9 if key == "t_update" else 0.0
            if not low <= t < 9e9:
                raise ValueError(f"{what}: {key} must be a time {'of 1 ns or more' if low else 'of zero or more'} "
                                 f"(below 9e9 s), got {value!r}")
            vals[key] = t
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{what}: {key} must be True or False, got {value!r}")
            vals[key] = value
        elif key in ("dequeue_threshold", "mean_pkt_size"):
            low = 1 if key == "mean_pkt_size" else 0
            if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not low <= value < 2**31:
                raise ValueError(f"{what}: {key} must be an integer from {low} to 2**31-1 (bytes), got {value!r}")
            vals[key] = int(value)
        else:
            ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
            if key == "mark_ecn_threshold" and not (ok and 0 <= value <= 1):
                raise ValueError(f"{what}: mark_ecn_threshold must be a number from 0 to 1, got {value!r}")
            if not ok:
                raise ValueError(f"{what}: {key} must be a finite number, got {value!r}")
            vals[key] = float(value)
    return vals


def _new_object(L: list[str], var: str, cls: str, params: dict) -> None:
    """Script lines: `set VAR [new CLS]`, then its variables."""
    L.append(f"set {var} [new {cls}]")
    for name, text in params.items():
        L.append(f"${var} set {name} {text}")


def _start_stop(L: list[str], obj, var: str) -> None:
    """Script lines: `$ns at` the start (and stop) of `obj` on object `$VAR`."""
    L.append(f'$ns at {obj._start_text} "${var} start"')
    if obj._stop_text is not None:
        L.append(f'$ns at {obj._stop_text} "${var} stop"')


_DSRED_KEYS = ("num_queues", "num_prec", "mean_pktsize", "ecn", "scheduler", "mred_mode", "weights", "rates", "phb",
               "red", "policies", "policers")


def _dsred_params(params, queue: str) -> list[list[str]]:
    """DiffServ's queue_params checked (ns-2's Queue/dsRED/edge and /core)
    and turned into the queue's commands, in a script's order (each a list
    of words; ``["set", var, value]`` for a bound variable):

    * `num_queues` (1..8, default 1), `num_prec` (1..3, default 2),
      `mean_pktsize` (bytes, default 1000), `ecn` (mark ECN-capable
      packets instead of dropping them early);
    * `scheduler` ("RR", "WRR", "WIRR", "PRI"), `mred_mode` ("RIO-C",
      "RIO-D", "WRED", "DROP"), `weights` {queue: weight} (WRR, WIRR),
      `rates` {queue: bits/s} (PRI's caps);
    * `phb`: [(code point, queue, precedence)], `red`: [(queue,
      precedence, min_thresh, max_thresh, max_p[, q_w])];
    * at an edge, `policies`: [(src, dst, kind, code point, *args)] with
      src and dst Nodes, node ids or None (any), kind "Null", "TSW2CM"
      (CIR[, window]), "TSW3CM" (CIR, PIR), "TokenBucket" (CIR, CBS),
      "srTCM" (CIR, CBS, EBS), "trTCM" (CIR, CBS, PIR, PBS), rates in
      bits/s and sizes in bytes; `policers`: [(kind, code point, yellow[,
      red])].
    The engine checks the values themselves (ranges, code points)."""
    what = "link(): queue_params"
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValueError(f"{what}: {queue} needs a dict (keys: {', '.join(_DSRED_KEYS)}), got {params!r}")
    unknown = set(params) - set(_DSRED_KEYS)
    if unknown:
        raise ValueError(f"{what}: unknown {queue} parameter(s) {', '.join(map(repr, sorted(unknown, key=str)))}; "
                         f"known: {', '.join(_DSRED_KEYS)}")
    edge = queue.endswith("edge")
    if not edge and (params.get("policies") or params.get("policers")):
        raise ValueError(f"{what}: policies and policers are an edge's ({queue} is a core queue)")

    def word(v, name):
        if isinstance(v, bool):
            return "1" if v else "0"
        if isinstance(v, numbers.Integral):
            return str(int(v))
        if _is_number(v) and math.isfinite(v):
            return repr(float(v))
        if isinstance(v, str) and v.strip() and not any(c in v for c in " \t\n[]{}$;\"\\"):
            return v
        raise ValueError(f"{what}: {name}: expected a number or a word, got {v!r}")

    def node_word(v, name):
        if v is None:
            return "-1"
        if isinstance(v, Node):
            return str(v.id)
        if isinstance(v, numbers.Integral) and not isinstance(v, bool):
            return str(int(v))
        raise ValueError(f"{what}: {name}: expected a Node, a node id or None (any node), got {v!r}")

    def rows(key, lo, hi):
        v = params.get(key, ())
        if not isinstance(v, (list, tuple)):
            raise ValueError(f"{what}: {key} must be a list of tuples, got {v!r}")
        for i, r in enumerate(v):
            if not isinstance(r, (list, tuple)) or not lo <= len(r) <= hi:
                n = str(lo) if lo == hi else f"{lo} to {hi}"
                raise ValueError(f"{what}: {key}[{i}] must be a tuple of {n} values, got {r!r}")
        return list(enumerate(v))

    cmds = [["set", "numQueues_", word(params.get("num_queues", 1), "num_queues")],
            ["set", "ecn_", word(bool(params.get("ecn", False)), "ecn")],
            ["meanPktSize", word(params.get("mean_pktsize", 1000), "mean_pktsize")],
            ["setNumPrec", word(params.get("num_prec", 2), "num_prec")]]
    if "scheduler" in params:
        cmds.append(["setSchedularMode", word(params["scheduler"], "scheduler")])
    if "mred_mode" in params:
        cmds.append(["setMREDMode", word(params["mred_mode"], "mred_mode")])
    for key, cmd in (("weights", "addQueueWeights"), ("rates", "addQueueRate")):
        d = params.get(key, {})
        if not isinstance(d, dict):
            raise ValueError(f"{what}: {key} must be a dict {{queue: value}}, got {d!r}")
        for q, v in d.items():
            cmds.append([cmd, word(q, f"{key} queue"), word(v, f"{key}[{q!r}]")])
    for i, r in rows("policies", 4, 8):
        cmds.append(["addPolicyEntry", node_word(r[0], f"policies[{i}] source"), node_word(r[1], f"policies[{i}] destination")]
                    + [word(x, f"policies[{i}]") for x in r[2:]])
    for i, r in rows("policers", 2, 4):
        cmds.append(["addPolicerEntry"] + [word(x, f"policers[{i}]") for x in r])
    for i, r in rows("phb", 3, 3):
        cmds.append(["addPHBEntry"] + [word(x, f"phb[{i}]") for x in r])
    for i, r in rows("red", 5, 6):
        cmds.append(["configQ"] + [word(x, f"red[{i}]") for x in r])
    return cmds



def _scfq_params(params, queue_limit: int | None) -> dict:
    """SCFQ's queue_params checked (Dumbbell's Queue/SCFQ): `classes`, a
    list of dicts {"id", "weight", "queue" ("DropTail" or "RED"), "limit"
    (packets) or "limit_bytes", "params" (bound variables of the class's
    queue)}; `classify`, {flow id: class id}; `default_class`.  Returns
    the form the builder takes: classes as (id, weight, queue class,
    [(var, text)]), classify as [(fid, id)], default_class."""
    what = "link(): queue_params"
    if not isinstance(params, dict):
        raise ValueError(f"{what}: SCFQ needs a dict with 'classes' (and optionally 'classify', "
                         f"'default_class'), got {params!r}")
    unknown = set(params) - {"classes", "classify", "default_class"}
    if unknown:
        raise ValueError(f"{what}: unknown SCFQ parameter(s) {', '.join(map(repr, sorted(unknown, key=str)))}; "
                         "known: classes, classify, default_class")
    classes = params.get("classes")
    if not isinstance(classes, (list, tuple)) or not classes:
        raise ValueError(f"{what}: SCFQ 'classes' must be a non-empty list of dicts, got {classes!r}")
    out, ids = [], []
    for i, c in enumerate(classes):
        w = f"{what}: classes[{i}]"
        if not isinstance(c, dict):
            raise ValueError(f"{w} must be a dict with 'weight' (and 'id', 'queue', 'limit', 'params'), got {c!r}")
        bad = set(c) - {"id", "weight", "queue", "limit", "limit_bytes", "params"}
        if bad:
            raise ValueError(f"{w}: unknown key(s) {', '.join(map(repr, sorted(bad, key=str)))}; "
                             "known: id, weight, queue, limit, limit_bytes, params")
        cid = c.get("id", i)
        if not isinstance(cid, numbers.Integral) or isinstance(cid, bool) or not -2**31 <= cid < 2**31:
            raise ValueError(f"{w}: id must be an integer, got {cid!r}")
        if cid in ids:
            raise ValueError(f"{w}: class id {cid} is given twice")
        ids.append(int(cid))
        weight = c.get("weight")
        if not _is_number(weight) or not (weight > 0 and math.isfinite(weight)):
            raise ValueError(f"{w}: weight must be a positive number, got {weight!r}")
        q = c.get("queue", "DropTail")
        kinds = {"droptail": "DropTail", "red": "RED"}
        if not isinstance(q, str) or q.lower() not in kinds:
            raise ValueError(f"{w}: queue must be 'DropTail' or 'RED', got {q!r}")
        qkind = f"Queue/{kinds[q.lower()]}"
        qbound = _bound_vars(qkind)
        vars_: dict[str, str] = {}
        if "limit" in c and "limit_bytes" in c:
            raise ValueError(f"{w}: give limit (packets) or limit_bytes, not both")
        if "limit_bytes" in c:
            lb = c["limit_bytes"]
            if not isinstance(lb, numbers.Integral) or isinstance(lb, bool) or not 1 <= lb < 2**31:
                raise ValueError(f"{w}: limit_bytes must be a positive integer, got {lb!r}")
            vars_.update({"queue_in_bytes_": "true", "mean_pktsize_": "1", "limit_": str(int(lb))})
        else:
            lim = c.get("limit", queue_limit if queue_limit is not None else 50)
            if not isinstance(lim, numbers.Integral) or isinstance(lim, bool) or not 1 <= lim < 2**31:
                raise ValueError(f"{w}: limit must be a positive integer (packets), got {lim!r}")
            vars_.update({"queue_in_bytes_": "false", "limit_": str(int(lim))})
        qp = c.get("params") or {}
        if not isinstance(qp, dict):
            raise ValueError(f"{w}: params must be a dict of {qkind} variables, got {qp!r}")
        for name, value in qp.items():
            var = _var_name(str(name), qkind, qbound, f"{w}: params")
            vars_[var] = _var_value(var, qbound[var], value, f"{w}: params", str(name), qkind)
        if qkind == "Queue/RED":
            th, mx = (_float_prefix(vars_.get(k, "0")) or 0.0 for k in ("thresh_", "maxthresh_"))
            if th > 0 and mx > 0 and th > mx:
                raise ValueError(f"{w}: params: thresh ({th:g}) must not be above maxthresh ({mx:g})")
        out.append((int(cid), float(weight), qkind, list(vars_.items())))
    cl = params.get("classify") or {}
    if not isinstance(cl, dict):
        raise ValueError(f"{what}: SCFQ 'classify' must be a dict {{flow id: class id}}, got {cl!r}")
    classify = []
    for fid, cid in cl.items():
        if not isinstance(fid, numbers.Integral) or isinstance(fid, bool):
            raise ValueError(f"{what}: classify: flow ids must be integers, got {fid!r}")
        if cid not in ids:
            raise ValueError(f"{what}: classify: flow {fid} goes to class {cid!r}, which is not in classes (ids {ids})")
        classify.append((int(fid), int(cid)))
    dc = params.get("default_class")
    if dc is not None and dc not in ids:
        raise ValueError(f"{what}: default_class {dc!r} is not in classes (ids {ids})")
    return {"classes": out, "classify": sorted(classify), "default_class": None if dc is None else int(dc)}


_SRR_INTS = ("granularity", "mtu", "blimit", "maxqueuenumber")


def _srr_params(params) -> list[list[str]]:
    """SRR's queue_params checked (ns-2's Queue/SRR, queue/srr.cc) and
    turned into its commands in a script's order: `granularity`, `mtu`,
    `blimit`, `maxqueuenumber` (integers), `rates` {queue: bits/s}
    (``$q setrate QUEUE RATE``, a queue's weight is its rate over the
    granularity) and `classify` {flow id: queue} (``$q setqueue FLOW
    QUEUE``; unlisted flows go to queue 0)."""
    what = "link(): queue_params"
    if params is None:
        return []
    if not isinstance(params, dict):
        raise ValueError(f"{what}: SRR needs a dict (keys: {', '.join(_SRR_INTS)}, rates, classify), got {params!r}")
    unknown = set(params) - {*_SRR_INTS, "rates", "classify"}
    if unknown:
        raise ValueError(f"{what}: unknown SRR parameter(s) {', '.join(map(repr, sorted(unknown, key=str)))}; "
                         f"known: {', '.join(_SRR_INTS)}, rates, classify")

    def integer(v, name, low, high):
        if not isinstance(v, numbers.Integral) or isinstance(v, bool) or not low <= v <= high:
            raise ValueError(f"{what}: SRR {name} must be an integer from {low} to {high}, got {v!r}")
        return str(int(v))

    cmds = []
    for k in _SRR_INTS:
        if k in params:
            cmds.append([k, integer(params[k], k, 0 if k == "blimit" else 1, 2**31 - 1)])
    for key, cmd, lo_hi in (("rates", "setrate", (1, 100_000_000)), ("classify", "setqueue", (0, 4095))):
        d = params.get(key) or {}
        if not isinstance(d, dict):
            raise ValueError(f"{what}: SRR {key} must be a dict, got {d!r}")
        for a, v in d.items():
            a_ = integer(a, f"{key} key", 0, 4095)
            v_ = integer(v, f"{key}[{a!r}]", *lo_hi)
            cmds.append([cmd, a_, v_])
    return cmds


_CBQ_SHARING = {"ancestor-only": "0", "top-level": "1", "formal": "2", 0: "0", 1: "1", 2: "2"}


# The ranges the ns-2 layer declares for SFQ's and DRR's variables
# (ns2/class/fairq.rs: what divides by zero, loops or crashes in ns-2), the
# least value of each: checked at link() for a CBQ leaf's queue and an FQ
# link's flow queues, which the engine makes only when the run starts.
_FAIR_LEAST = {("Queue/SFQ", "buckets_"): 1, ("Queue/DRR", "buckets_"): 1, ("Queue/DRR", "quantum_"): 1,
               ("Queue/DRR", "blimit_"): 0}


def _fair_check(qkind: str, var: str, text: str, what: str) -> str:
    least = _FAIR_LEAST.get((qkind, var))
    if least is not None and int(text) < least:
        raise ValueError(f"{what}: {var} must be {'a positive integer' if least else 'zero or a positive integer'}, "
                         f"got {text}")
    return text


#: The kinds of an FQ link's flow queues (`flow_queue`, ns-2's FQLink
#: queueManagement_), by lower-case name.
_FQ_FLOW_KINDS = {"droptail": "DropTail", "red": "RED", "sfq": "SFQ", "drr": "DRR", "pi": "PI", "rem": "REM",
                  "vq": "Vq", "gk": "GK", "srr": "SRR", "rio": "RED/RIO", "red/rio": "RED/RIO",
                  "priqueue": "DropTail/PriQueue", "droptail/priqueue": "DropTail/PriQueue"}


def _fq_flow_queue(kind, params) -> tuple:
    """An FQ link's `flow_queue` ("DropTail", the default, "RED", "SFQ",
    "DRR", "PI", "REM", "Vq", "GK", "SRR", "RIO" or "PriQueue": ns-2's
    FQLink queueManagement_) and `flow_params` (that class's variables,
    e.g. SFQ's {"maxqueue": 20, "buckets": 8}, DRR's {"blimit": 6000,
    "quantum": 500}, RED's {"q_weight": 0.02, "thresh": 3, "maxthresh":
    8}, PI's {"qref": 5, "limit": 20}) checked: (kind, ((var, text), ...))."""
    what = "link(): queue_params"
    if not isinstance(kind, str) or kind.lower() not in _FQ_FLOW_KINDS:
        raise ValueError(f"{what}: FQ flow_queue must be 'DropTail', 'RED', 'SFQ', 'DRR', 'PI', 'REM', 'Vq', 'GK', "
                         f"'SRR', 'RIO' or 'PriQueue', got {kind!r}")
    kind = _FQ_FLOW_KINDS[kind.lower()]
    if params is None:
        return (kind, ())
    if not isinstance(params, dict):
        raise ValueError(f"{what}: FQ flow_params must be a dict of Queue/{kind} variables, got {params!r}")
    if params and kind == "DropTail":
        raise ValueError(f"{what}: FQ flow_params are for flow queues other than DropTail (DropTail flow queues "
                         "take flow_limit)")
    qkind = f"Queue/{kind}"
    bound = _bound_vars(qkind)
    out = {}
    for pn, pv in params.items():
        var = _var_name(str(pn), qkind, bound, f"{what}: FQ flow_params")
        if kind in ("SFQ", "DRR") and var not in ("maxqueue_", "buckets_", "blimit_", "quantum_", "mask_"):
            raise ValueError(f"{what}: FQ flow_params: {qkind}'s {var} is not read by an {kind} flow queue")
        out[var] = _fair_check(qkind, var, _var_value(var, bound[var], pv, f"{what}: FQ flow_params", str(pn), qkind),
                               f"{what}: FQ flow_params")
    if kind == "RED":
        th, mx = (_float_prefix(out.get(k, "0")) or 0.0 for k in ("thresh_", "maxthresh_"))
        if th > 0 and mx > 0 and th > mx:
            raise ValueError(f"{what}: FQ flow_params: thresh ({th:g}) must not be above maxthresh ({mx:g})")
    return (kind, tuple(sorted(out.items())))


def _cbq_params(params, queue_limit: int | None) -> dict:
    """CBQ's queue_params checked (ns-2's Queue/CBQ and Queue/CBQ/WRR, their
    CBQClass objects and CBQLink's insert and bind): `classes`, a list of
    dicts {"name", "parent" (a name listed before, or None for a root),
    "allot" (share of the link, 0..1), "priority" (0..9, 0 the highest),
    "level" (1 for a leaf, above its children's for an inner class: the
    default), "borrow" (okborrow, True), "maxidle" (seconds, or "auto":
    ns-2's automaxidle), "extradelay" (seconds, 0), "queue" (a leaf's
    queue: "DropTail", the default, "RED", "SFQ", "DRR", "PI", "REM", "Vq",
    "GK", "SRR" or "RIO"; RED and RIO ones are linked and reset, REM, Vq
    and GK ones linked, so that they read the link's rate), "limit" (its
    limit_, packets; default `queue_limit` or 50; not for SFQ or DRR, which
    do not read it: their room is params' "maxqueue" or "blimit"), "params"
    (other variables of the leaf's queue, e.g. RED's {"thresh_": 5,
    "setbit_": True}, SFQ's {"maxqueue": 20, "buckets": 8}, DRR's
    {"blimit": 6000, "quantum": 500, "buckets": 10, "mask": 0}), "flows"
    (flow ids bound to the leaf)}; `algorithm` ("ancestor-only", "top-level" or
    "formal", or ns-2's 0, 1, 2); `maxpkt` (bytes, 1024: WRR's packet and
    automaxidle's unit).  A class that is some class's parent is inner (no
    queue, no flows); the others are leaves.  Returns the classes in order
    as dicts with their parent's index and every value as ns-2 prints it."""
    what = "link(): queue_params"
    if not isinstance(params, dict):
        raise ValueError(f"{what}: CBQ needs a dict with 'classes' (and optionally 'algorithm', 'maxpkt'), "
                         f"got {params!r}")
    unknown = set(params) - {"classes", "algorithm", "maxpkt"}
    if unknown:
        raise ValueError(f"{what}: unknown CBQ parameter(s) {', '.join(map(repr, sorted(unknown, key=str)))}; "
                         "known: classes, algorithm, maxpkt")
    alg = params.get("algorithm", "ancestor-only")
    if isinstance(alg, bool) or not isinstance(alg, (str, int)) or alg not in _CBQ_SHARING:
        raise ValueError(f"{what}: CBQ algorithm must be 'ancestor-only', 'top-level' or 'formal' (or 0, 1, 2), "
                         f"got {alg!r}")
    maxpkt = params.get("maxpkt", 1024)
    if not isinstance(maxpkt, numbers.Integral) or isinstance(maxpkt, bool) or not 1 <= maxpkt < 2**31:
        raise ValueError(f"{what}: CBQ maxpkt must be a positive integer (bytes), got {maxpkt!r}")
    classes = params.get("classes")
    if not isinstance(classes, (list, tuple)) or not classes:
        raise ValueError(f"{what}: CBQ 'classes' must be a non-empty list of dicts, got {classes!r}")
    keys = ("name", "parent", "allot", "priority", "level", "borrow", "maxidle", "extradelay", "queue", "limit",
            "params", "flows")
    names: dict[str, int] = {}
    parents = set()
    for i, c in enumerate(classes):
        if isinstance(c, dict) and c.get("parent") is not None:
            parents.add(c["parent"])
    out, bound = [], {}
    for i, c in enumerate(classes):
        w = f"{what}: classes[{i}]"
        if not isinstance(c, dict):
            raise ValueError(f"{w} must be a dict with 'name' and 'allot' (and {', '.join(keys[1:])}), got {c!r}")
        bad = set(c) - set(keys)
        if bad:
            raise ValueError(f"{w}: unknown key(s) {', '.join(map(repr, sorted(bad, key=str)))}; "
                             f"known: {', '.join(keys)}")
        name = c.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise ValueError(f"{w}: name must be a word of letters, digits and _, got {name!r}")
        if name in names:
            raise ValueError(f"{w}: class name {name!r} is given twice")
        parent = c.get("parent")
        if parent is not None and parent not in names:
            raise ValueError(f"{w}: parent {parent!r} must be the name of a class listed before {name!r} "
                             f"(listed: {', '.join(names) or 'none'})")
        allot = c.get("allot")
        if not _is_number(allot) or not 0 <= allot <= 1:
            raise ValueError(f"{w}: allot must be a share of the link from 0 to 1, got {allot!r}")
        prio = c.get("priority", 0)
        if not isinstance(prio, numbers.Integral) or isinstance(prio, bool) or not 0 <= prio <= 9:
            raise ValueError(f"{w}: priority must be an integer from 0 (the highest) to 9, got {prio!r}")
        leaf = name not in parents
        borrow = c.get("borrow", True)
        if not isinstance(borrow, bool):
            raise ValueError(f"{w}: borrow must be True or False, got {borrow!r}")
        maxidle = c.get("maxidle", "auto")
        if maxidle != "auto" and (not _is_number(maxidle) or not 0 <= maxidle < 1e6):
            raise ValueError(f"{w}: maxidle must be 'auto' or a number of seconds of zero or more, got {maxidle!r}")
        xdelay = c.get("extradelay", 0.0)
        if not _is_number(xdelay) or not 0 <= xdelay < 1e6:
            raise ValueError(f"{w}: extradelay must be a number of seconds of zero or more, got {xdelay!r}")
        flows = c.get("flows", ())
        if isinstance(flows, numbers.Integral) and not isinstance(flows, bool):
            flows = (flows,)
        if not isinstance(flows, (list, tuple)):
            raise ValueError(f"{w}: flows must be a list of flow ids, got {flows!r}")
        if not leaf and (flows or "limit" in c or "queue" in c or "params" in c):
            raise ValueError(f"{w}: class {name!r} is a parent (inner class): it has no queue, so no flows, "
                             "queue, limit or params")
        lim = c.get("limit", queue_limit if queue_limit is not None else 50)
        if not isinstance(lim, numbers.Integral) or isinstance(lim, bool) or not 1 <= lim < 2**31:
            raise ValueError(f"{w}: limit must be a positive integer (packets), got {lim!r}")
        qk = c.get("queue", "DropTail")
        # an FQ flow queue's kinds but PriQueue (the engine's CBQ leaves)
        kinds = {k: v for k, v in _FQ_FLOW_KINDS.items() if v != "DropTail/PriQueue"}
        if not isinstance(qk, str) or qk.lower() not in kinds:
            other = isinstance(qk, str) and qk.lower() in _queue_kinds()
            raise ValueError(f"{w}: queue must be 'DropTail', 'RED', 'SFQ', 'DRR', 'PI', 'REM', 'Vq', 'GK', 'SRR' "
                             f"or 'RIO', got {qk!r}"
                             + (" (ns-2 takes any queue object as a class's queue; Dumbbell's CBQ classes "
                                "queue with these kinds)" if other else ""))
        qkind = f"Queue/{kinds[qk.lower()]}"
        if qkind in ("Queue/SFQ", "Queue/DRR") and "limit" in c:
            room = "maxqueue (packets)" if qkind == "Queue/SFQ" else "blimit (bytes)"
            raise ValueError(f"{w}: an {qkind[6:]} queue does not read limit_: give its room as params' {room}")
        qvars: dict[str, str] = {}
        qp = c.get("params") or {}
        if not isinstance(qp, dict):
            raise ValueError(f"{w}: params must be a dict of {qkind} variables, got {qp!r}")
        if qp:
            qbound = _bound_vars(qkind)
            for pn, pv in qp.items():
                var = _var_name(str(pn), qkind, qbound, f"{w}: params")
                if var == "limit_":
                    raise ValueError(f"{w}: params: give the queue's limit as the class's 'limit'"
                                     if qkind not in ("Queue/SFQ", "Queue/DRR") else
                                     f"{w}: params: an {qkind[6:]} queue does not read limit_")
                qvars[var] = _fair_check(qkind, var, _var_value(var, qbound[var], pv, f"{w}: params", str(pn), qkind),
                                         f"{w}: params")
        if qkind == "Queue/RED":
            th, mx = (_float_prefix(qvars.get(k, "0")) or 0.0 for k in ("thresh_", "maxthresh_"))
            if th > 0 and mx > 0 and th > mx:
                raise ValueError(f"{w}: params: thresh ({th:g}) must not be above maxthresh ({mx:g})")
        for fid in flows:
            if not isinstance(fid, numbers.Integral) or isinstance(fid, bool) or not 0 <= fid < 2**31:
                raise ValueError(f"{w}: flows: a flow id must be an integer of zero or more, got {fid!r}")
            if fid in bound:
                raise ValueError(f"{w}: flow {fid} is bound to class {bound[fid]!r} already")
            bound[int(fid)] = name
        names[name] = i
        out.append({"name": name, "parent": None if parent is None else names[parent], "allot": float(allot),
                    "priority": int(prio), "level": None, "borrow": borrow,
                    "maxidle": maxidle if maxidle == "auto" else float(maxidle), "extradelay": float(xdelay),
                    "limit": int(lim) if leaf and qkind not in ("Queue/SFQ", "Queue/DRR") else None, "flows": [int(f) for f in flows], "leaf": leaf,
                    "queue": qkind if leaf else None, "vars": list(qvars.items()),
                    "given_level": c.get("level")})
    # levels: as given, else 1 for a leaf and one above its highest child
    for i in reversed(range(len(out))):
        o = out[i]
        lv = o.pop("given_level")
        if lv is None:
            kids = [k["level"] for k in out[i + 1:] if k["parent"] == i]
            lv = 1 + max(kids) if kids else 1
        elif not isinstance(lv, numbers.Integral) or isinstance(lv, bool) or not 1 <= lv <= 32:
            raise ValueError(f"{what}: classes[{i}]: level must be an integer from 1 to 32, got {lv!r}")
        o["level"] = int(lv)
    return {"classes": out, "algorithm": _CBQ_SHARING[alg], "maxpkt": int(maxpkt)}


def _cbq_automaxidle(allot: float, priority: int, linkbw: float, maxpkt: int, gain: float = 0.9375) -> float:
    """ns-2's `CBQClass automaxidle` (lib/cbq.tcl), its operations in its
    order: the larger of (1/allot - 1)(1 - g^n)/g^n and 1 - g (n = 8 x
    priority), in transmission times of `maxpkt` bytes; the allotment as
    the class prints it (%g)."""
    allot = float(f"{allot:g}")
    if gain == 0 or allot == 0 or linkbw == 0:
        return 0.0
    gn = math.pow(gain, 8 * priority)
    lo = ((1 / allot) - 1) * (1 - gn) / gn
    hi = 1 - gain
    unit = (maxpkt * 8.0) / linkbw
    return unit * lo if lo > hi else unit * hi


def _app_params(what: str, kind: str | None, params) -> dict[str, str]:
    """Bound variables of an application class, checked; {} for FTP."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise ValueError(f"{what}: app_params must be a dict, got {params!r}")
    if kind is None:
        if params:
            raise ValueError(f"{what}: app_params: an FTP source has no parameters, got {params!r}")
        return {}
    bound = _bound_vars(kind)
    out = {}
    for name, value in params.items():
        var = _var_name(str(name), kind, bound, f"{what}: app_params")
        out[var] = _var_value(var, bound[var], value, f"{what}: app_params", str(name), kind)
    return out


def _at_text(t: tuple) -> str:
    """`$ns at` reads a plain number of seconds (C atof), never units."""
    return t[0] if _float_prefix(t[0]) is not None else repr(t[1])


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
                 "_delay_text", "codel", "pie", "fq_codel", "scfq", "dsred", "cbq", "srr", "redpd", "fq_flow_limit", "fq_flow_queue",
                 "jobs")

    def __init__(self, sim, src, dst, bw, delay, queue, queue_limit):
        self.sim = sim
        self.src = src
        self.dst = dst
        self._bw_text, self.bandwidth = bw
        self._delay_text, self.delay = delay
        self.queue = queue
        self.queue_limit = queue_limit
        self.queue_params: Mapping[str, str] = _NO_PARAMS
        self.reverse: Link | None = None
        self.codel: tuple | None = None
        self.pie: dict | None = None
        self.fq_codel: dict | None = None
        self.scfq: dict | None = None
        self.cbq: dict | None = None
        self.dsred: list | None = None
        self.srr: list | None = None
        self.redpd: str | None = None
        self.fq_flow_limit: int | None = None
        self.fq_flow_queue: tuple = ("DropTail", ())
        self.jobs: list | None = None

    def __repr__(self) -> str:
        return (f"Link({self.src.id}->{self.dst.id}, {self._bw_text}, {self._delay_text}, "
                f"{self.queue}, queue_limit={self.queue_limit})")


class _Endpoints:
    """What every traffic object of a scenario has: its simulation, its row
    `id`, the nodes it goes between, its start and stop (seconds, and the
    text the ns-2 script schedules them with), its flow id and the bound
    variables given to its sender."""

    __slots__ = ("sim", "id", "src", "dst", "start", "stop", "fid", "params", "_start_text", "_stop_text")

    def _set_endpoints(self, sim, id, src, dst, start, stop, fid, params) -> None:
        self.sim = sim
        self.id = id
        self.src = src
        self.dst = dst
        self.start = start[1]
        self._start_text = _at_text(start)
        self.stop = stop[1] if stop is not None else None
        self._stop_text = _at_text(stop) if stop is not None else None
        self.fid = fid
        self.params = params


class Flow(_Endpoints):
    """A TCP connection: sender at `src`, sink at `dst`, driven by an FTP
    source from `start` to `stop`.  `id` is its row in `Result.flows`."""

    __slots__ = ("variant", "sink", "sink_params", "trace_vars", "app", "app_params", "cc", "stack", "engine_params")

    def __init__(self, sim, id, src, dst, variant, sink, start, stop, fid, params, sink_params, trace_vars,
                 app="ftp", app_params=None, cc=None, stack="ns2", engine_params=None):
        self._set_endpoints(sim, id, src, dst, start, stop, fid, params)
        self.cc = cc
        #: "ns2" (the one-way ns-2 TCP) or "full" (the two-way TCP after
        #: ns-3.37: variant "full-<cc>", sink "packet-sink"; docs/full-tcp.md)
        self.stack = stack
        self.engine_params = engine_params
        self.variant = variant
        self.sink = sink
        self.sink_params = sink_params
        self.trace_vars = trace_vars
        self.app = app
        self.app_params = app_params or {}

    @property
    def tcp_class(self) -> str:
        return VARIANTS[self.variant]

    @property
    def sink_class(self) -> str:
        return SINKS[self.sink] or self.tcp_class

    def __repr__(self) -> str:
        return f"Flow({self.id}, {self.variant}, {self.src.id}->{self.dst.id}, fid={self.fid})"


class Source(_Endpoints):
    """A datagram source: an Agent/UDP at `src` driven by a traffic
    generator (`traffic`: cbr, exponential, pareto) from `start` to `stop`,
    sending to a sink at `dst` (`sink`: loss-monitor or null).  `id` is its
    row in `Result.sources`."""

    __slots__ = ("traffic", "sink", "agent_params")

    def __init__(self, sim, id, src, dst, traffic, sink, start, stop, fid, params, agent_params):
        self._set_endpoints(sim, id, src, dst, start, stop, fid, params)
        self.traffic = traffic
        self.sink = sink
        self.agent_params = agent_params

    @property
    def traffic_class(self) -> str:
        return TRAFFIC[self.traffic]

    @property
    def sink_class(self) -> str:
        return UDP_SINKS[self.sink]

    def __repr__(self) -> str:
        return f"Source({self.id}, {self.traffic}, {self.src.id}->{self.dst.id}, fid={self.fid})"


class RateFlow(_Endpoints):
    """A TCP-friendly rate-controlled flow (TFRC, RFC 5348): an Agent/TFRC
    sender at `src`, started at `start` and stopped at `stop`, and an
    Agent/TFRCSink at `dst` that reports the loss event rate.  `id` is its
    row in `Result.rate_flows`."""

    __slots__ = ("sink_params",)

    def __init__(self, sim, id, src, dst, start, stop, fid, params, sink_params):
        self._set_endpoints(sim, id, src, dst, start, stop, fid, params)
        self.sink_params = sink_params

    def __repr__(self) -> str:
        return f"RateFlow({self.id}, {self.src.id}->{self.dst.id}, fid={self.fid})"


class ErrorModel:
    """An error model on one link direction (`link`): it drops (or, with
    `mark_ecn`, ECN-marks) the packets its pattern picks, before the link's
    queue (`where="queue"`, ns-2 ``$ns lossmodel``) or after the link
    (`where="link"`, ``$ns link-lossmodel``)."""

    __slots__ = ("sim", "id", "link", "kind", "unit", "where", "mark_ecn", "rate", "period", "offset", "burstlen",
                 "drops", "_texts")

    def __init__(self, sim, id, link, kind, unit, where, mark_ecn, rate, period, offset, burstlen, drops, texts):
        self.sim = sim
        self.id = id
        self.link = link
        self.kind = kind
        self.unit = unit
        self.where = where
        self.mark_ecn = mark_ecn
        self.rate = rate
        self.period = period
        self.offset = offset
        self.burstlen = burstlen
        self.drops = drops
        self._texts = texts

    @property
    def ns2_class(self) -> str:
        return {"uniform": "ErrorModel", "periodic": "ErrorModel/Periodic", "list": "ErrorModel/List"}[self.kind]

    def __repr__(self) -> str:
        return f"ErrorModel({self.id}, {self.kind}, {self.link.src.id}->{self.link.dst.id}, where={self.where!r})"


class Simulation:
    """A network scenario: nodes, links and TCP flows.

    Nothing runs until `run()`; each `run()` builds the scenario afresh in a
    new interpreter and engine, so runs are independent and repeatable.
    `seed`, if given, seeds ns-2's default random number generator
    (``$defaultRNG seed``), which TCP senders draw from for the phase of
    their clock (a random boot time within ``tcpTick_``) and, with
    `overhead`, for random send delays; without it every run uses ns-2's
    default seed.

    `run` (R, default 0) picks replication R of that seed: the default RNG
    moves to its substream R (R x ``$defaultRNG next-substream``, each
    2^76 draws on) before anything draws from it, as ns-2's manual (RNG
    chapter) makes independent replications; run 0 is the seed's stream
    itself.  Use ``Simulation(seed=S, run=r)`` for r = 0..N-1 rather than
    seeds 1..N: ns-2 puts a seed N in all six words of MRG32k3a's state,
    so seed k*s draws frac(k * u) of seed s's draws u, and seeds a and b
    are correlated by gcd(a, b)^2 / (a b) (0.5 for seeds 1 and 2).
    """

    def __init__(self, seed: int | None = None, run: int = 0):
        if seed is not None:
            if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or not 0 < seed < 2**31:
                raise ValueError(f"Simulation(): seed must be an integer in 1..2147483647, got {seed!r} "
                                 "(ns-2's seed 0 means 'from the clock', which would not be repeatable)")
            seed = int(seed)
        self.seed = seed
        self.run_number = _run_number(run, "Simulation()")
        self._nodes: list[Node] = []
        self._links: dict[tuple[int, int], Link] = {}
        self._flows: list[Flow] = []
        # What was described, in order, flat: each operation's kind, then its
        # arguments (`_OP_ARITY`); no tuple per operation stays alive for the
        # garbage collector to walk (see `_without_gc`).
        self._ops: list = []
        self._sources: list[Source] = []
        self._rate_flows: list[RateFlow] = []
        self._errmodels: list[ErrorModel] = []
        self._qs: dict | None = None

    def __repr__(self) -> str:
        from .._words import count

        extra = f", {count(len(self._sources), 'source')}" if self._sources else ""
        return (f"Simulation({count(len(self._nodes), 'node')}, {count(len(self._links), 'link direction')}, "
                f"{count(len(self._flows), 'flow')}{extra})")

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
        self._ops += ("node", n)
        return n

    def nodes(self, n: int) -> list[Node]:
        """Add `n` nodes; returns them in order (``A, R, B = sim.nodes(3)``)."""
        if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 1:
            raise ValueError(f"nodes(): n must be a positive integer, got {n!r}")
        return [self.node() for _ in range(int(n))]

    def quickstart(self, algorithm: int = 3, alloc_rate: float = 0.85, threshold: float = 0.85,
                   state_delay: float = 0.2, rate_encoding: str = "exponential", max_rate: int = 256) -> None:
        """Quick-Start routers (RFC 4782 as ns-2 2.35 models it) on every
        node: each approves the rate requests of flows made with
        ``tcp(..., quickstart=True, rate_request=KBps)`` against the link
        the request leaves by (ns-2 ``$ns node-config -QS ON`` and
        Agent/QSAgent's variables).  Call it before making nodes.

        * `algorithm`: 3 (RFC 4782's: approve what `alloc_rate` of the link
          leaves after the peak recent utilization and recent approvals,
          while those are below `threshold` of it), 1 (spare bandwidth
          times `alloc_rate`, at most `max_rate` KB/s), 2 (`alloc_rate` of
          the link while the utilization is below `threshold`), 4 (approve
          every request);
        * `state_delay`: seconds an approval counts against later requests
          (two periods);
        * `rate_encoding`: "exponential" (5000 * 2^n bytes/s) or "linear"
          (units of 10 KB/s), for the whole simulation.
        """
        what = "quickstart()"
        if self._nodes:
            raise ValueError(f"{what}: call it before making nodes (ns-2's node-config applies to nodes made "
                             f"after it); {len(self._nodes)} exist")
        if self._qs is not None:
            raise ValueError(f"{what}: Quick-Start routers are already on")
        if not isinstance(algorithm, numbers.Integral) or isinstance(algorithm, bool) or algorithm not in (1, 2, 3, 4):
            raise ValueError(f"{what}: algorithm must be 1, 2, 3 or 4, got {algorithm!r}")
        for name, v in (("alloc_rate", alloc_rate), ("threshold", threshold)):
            if not _is_number(v) or not 0 < v <= 1:
                raise ValueError(f"{what}: {name} must be a share of the link in (0, 1], got {v!r}")
        if not _is_number(state_delay) or not 0 < state_delay < 1e6:
            raise ValueError(f"{what}: state_delay must be a positive number of seconds, got {state_delay!r}")
        if rate_encoding not in ("exponential", "linear"):
            raise ValueError(f"{what}: rate_encoding must be 'exponential' or 'linear', got {rate_encoding!r}")
        if not isinstance(max_rate, numbers.Integral) or isinstance(max_rate, bool) or not 0 < max_rate < 2**21:
            raise ValueError(f"{what}: max_rate must be a positive integer (KB/s), got {max_rate!r}")
        self._qs = {"algorithm_": str(int(algorithm)), "alloc_rate_": repr(float(alloc_rate)),
                    "threshold_": repr(float(threshold)), "state_delay_": repr(float(state_delay)),
                    "rate_function_": "2" if rate_encoding == "exponential" else "1",
                    "max_rate_": str(int(max_rate))}
        self._ops += ("qs", self._qs)

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
        the default is ns-2's 50.  `queue` is "DropTail", "RED", "CoDel",
        "PIE", "FQ_CoDel" (their parameters: CODEL_DEFAULTS, PIE_DEFAULTS,
        FQ_CODEL_DEFAULTS), "COBALT", "FQ_PIE", "FQ_COBALT" (ns-3.37's;
        "DualPI2": RFC 9332's coupled L4S/classic queues, e.g.
        ``{"target": "15ms", "step_thresh": "1ms", "coupling_factor": 2}``,
        or a step in packets, ``{"step_packets": 5}``, or Linux's gate on the step
        instead of T_len, ``{"min_qlen_step": 0}``;
        `queue_params` are their classes' bound variables, e.g.
        ``{"setbit": False, "target": "2ms"}``: docs/aqm.md) or "SCFQ" (Dumbbell's self-clocked fair
        queueing over per-class queues; `queue_params` = {"classes":
        [{"id": 0, "weight": 0.8, "queue": "DropTail", "limit_bytes":
        25000}, {"id": 1, "weight": 0.2, "queue": "RED", "limit": 150,
        "params": {"thresh": 25, "maxthresh": 75, "linterm": 5}}],
        "classify": {flow_id: class_id}, "default_class": 1}; a class's
        limit defaults to `queue_limit` or 50 packets; per-class counters
        in `Result.scfq`), ns-2's "CBQ" or "CBQ/WRR" (class-based queueing:
        ``{"classes": [{"name": "root", "allot": 0.98, "borrow": False},
        {"name": "audio", "parent": "root", "allot": 0.3, "priority": 1,
        "limit": 10, "flows": [3]}, {"name": "bulk", "parent": "root",
        "allot": 0.6, "priority": 2, "flows": [0, 1]}], "algorithm":
        "formal", "maxpkt": 1024}``; a class's other keys "level",
        "maxidle" (seconds or "auto"), "extradelay", and for a leaf "queue"
        ("DropTail", "RED", "SFQ" or "DRR") with "params" (its queue's
        variables, e.g. RED's ``{"thresh": 3, "setbit": True}``, DRR's
        ``{"blimit": 6000, "quantum": 500}``): see `_cbq_params`;
        a flow bound to no class stops the run at its first packet there, as
        ns-2 does), or ns-2's "DRR" (``{"buckets": 10, "blimit":
        25000, "quantum": 250, "mask": 0}``), "SFQ" (``{"maxqueue": 40,
        "buckets": 16}``), "Vq" (``{"buflim": 1.0, "ecnlim": 0.8, "gamma":
        0.98, "markpkts": False, "markfront": False, "drop_front": False,
        "queue_in_bytes": True, "mean_pktsize": 1000}``) or "GK"
        (``{"ecnlim": 0.95, "mean_pktsize": 1000, "drop_front": False}``),
        "PriQueue" or "DropTail/PriQueue" (ns-2's Queue/DropTail/PriQueue:
        DropTail's variables; it puts only routing-protocol packets, which
        no wired link here carries, at the head), "FQ" (ns-2's FQLink: a
        DropTail queue per flow id, of ``{"flow_limit": 50}`` packets, or one
        of another kind made at the flow's first packet, "RED", "SFQ",
        "DRR", "PI", "REM", "Vq", "GK", "SRR", "RIO" or "PriQueue", with that
        class's variables, e.g. ``{"flow_queue": "DRR", "flow_params":
        {"blimit": 6000, "quantum": 500}}`` or ``{"flow_queue": "RED",
        "flow_params": {"q_weight": 0.02, "thresh": 3, "maxthresh": 8}}``
        (ns-2's queueManagement_ and that class's defaults; a flow queue is
        given no link, and a RED one is never reset, so RED's q_weight -1,
        its default, stops the run as it stops ns-2), one kind for all FQ
        links of a scenario), "RED/PD" (ns-2's RED with
        preferential dropping and the flow monitor its makeflowmon
        attaches: RED's and RED-PD's variables, e.g. ``{"P_testFRp": 0.1}``,
        and ``"flow_classifier"``, one of REDPD_CLASSIFIERS; which flows it
        polices, and when: `redpd_flow`), "JoBS" (its service objectives,
        ``{"arc": [4e6, 3e6, 2e6, 1e6], "rdc": [None, 4, 4, 4], ...}``: see
        `_jobs_params`) with its edge queues "Marker" (``{"marker_class":
        k}``) and "Demarker", "SRR" (``{"granularity":
        1000, "mtu": 1000, "blimit": 25000, "rates": {0: 600000, 1: 300000},
        "classify": {fid: queue}}``: ns-2's setrate and setqueue),
        "RIO" (ns-2's Queue/RED/RIO: RED's variables and ``{"in_thresh": 15,
        "in_maxthresh": 30, "out_thresh": 5, "out_maxthresh": 15,
        "in_linterm": 50, "priority_method": 0}``; with priority method 1
        flow ids other than 0 are In) or "REM" (``{"gamma": 0.001, "phi":
        1.001, "inw": 1, "pupdtime": 0.002, "pbo": 20, "markpkts": False,
        "qib": False, "mean_pktsize": 1000}``), or ns-2's DiffServ queues
        "dsRED/edge" and "dsRED/core" (`queue_params`: physical queues,
        precedences, per-hop behaviours, per-precedence RED, scheduler,
        MRED mode and, at an edge, policies and policers, e.g.
        ``{"num_queues": 1, "num_prec": 2, "phb": [(10, 0, 0), (11, 0, 1)],
        "red": [(0, 0, 20, 40, 0.02), (0, 1, 10, 20, 0.1)], "policies":
        [(src, dst, "TokenBucket", 10, 1e6, 3000)], "policers":
        [("TokenBucket", 10, 11)]}``: see `_dsred_params`; usually with
        `duplex=False`, since the reverse direction needs its own
        behaviours for the ACKs),
        their ns-2 defaults shown, as in ns-2 2.35 exactly;
        `queue_params` sets bound variables of the queue(s) of both
        directions, e.g. ``{"thresh": 5, "maxthresh": 15, "setbit": True}``
        for RED with ECN marking, ``{"aecn": True}`` for AECN, ``{"a":
        0.00743, "b": 0.00736, "w": 435.4, "qref": 6}`` for "PI" (ns-2's
        Queue/PI, Hollot et al.'s PI controller; `models.linear.pi_design`
        computes a and b) (the trailing underscore is optional).  Returns the a->b `Link`; a duplex link's
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
        qkinds = _queue_kinds()
        if queue.lower() not in qkinds:
            raise ValueError(f"link(): unknown or unsupported queue {queue!r}; supported: "
                             f"{', '.join(qkinds.values())}")
        queue = qkinds[queue.lower()]
        if queue in _SCRIPT_ONLY_QUEUES:
            raise ValueError(f"link(): queue {queue!r} is reachable from ns-2 scripts only: "
                             f"{_SCRIPT_ONLY_QUEUES[queue]} (docs/python-api.md)")
        if queue_limit is not None:
            queue_limit = self._check_limit(queue_limit, "link(): queue_limit")
        if not isinstance(duplex, bool):
            raise ValueError(f"link(): duplex must be True or False, got {duplex!r}")
        qparams: dict[str, str] = {}
        codel = pie = fq_codel = scfq = dsred = cbq = srr = redpd = fq_flow_limit = jobs = None
        fq_flow_queue = ("DropTail", ())
        if queue in ("RED/PD", "FQ") and queue_params is not None:
            if not isinstance(queue_params, dict):
                raise ValueError(f"link(): queue_params must be a dict, got {queue_params!r}")
            queue_params = dict(queue_params)
            if queue == "FQ" and "flow_limit" in queue_params:
                fq_flow_limit = self._check_limit(queue_params.pop("flow_limit"), "link(): queue_params: FQ flow_limit")
            if queue == "FQ":
                fq_flow_queue = _fq_flow_queue(queue_params.pop("flow_queue", "DropTail"),
                                               queue_params.pop("flow_params", None))
            if queue == "RED/PD":
                redpd = queue_params.pop("flow_classifier", "SrcDestFid")
                if redpd not in REDPD_CLASSIFIERS:
                    raise ValueError(f"link(): queue_params: RED/PD flow_classifier must be one of "
                                     f"{', '.join(REDPD_CLASSIFIERS)}, got {redpd!r}")
        if queue == "RED/PD" and redpd is None:
            redpd = "SrcDestFid"
        if queue == "FQ":
            others = {lk.fq_flow_limit or 50 for lk in self._links.values() if lk.queue == "FQ"}
            if others and others != {fq_flow_limit or 50}:
                raise ValueError(f"link(): queue_params: FQ flow_limit {fq_flow_limit or 50} differs from that of the FQ "
                                 f"link(s) made before ({', '.join(map(str, sorted(others)))}): ns-2 gives every FQ "
                                 "link's flow queues the limit_ of Queue/DropTail's class, one value per scenario")
            kinds = {lk.fq_flow_queue for lk in self._links.values() if lk.queue == "FQ"}
            if kinds and kinds != {fq_flow_queue}:
                raise ValueError(f"link(): queue_params: FQ flow_queue {fq_flow_queue[0]} with flow_params "
                                 f"{dict(fq_flow_queue[1])} differs from that of the FQ link(s) made before "
                                 f"({'; '.join(f'{k} {dict(v)}' for k, v in sorted(kinds))}): ns-2 makes every FQ link's "
                                 "flow queues of FQLink's queueManagement_ with that class's defaults, one kind per scenario")
        if queue in ("CBQ", "CBQ/WRR"):
            cbq = _cbq_params(queue_params, queue_limit)
        elif queue == "SCFQ":
            scfq = _scfq_params(queue_params, queue_limit)
        elif queue.startswith("dsRED/"):
            dsred = _dsred_params(queue_params, queue)
        elif queue == "SRR":
            srr = _srr_params(queue_params)
        elif queue == "JoBS":
            jvars, jobs = _jobs_params(queue_params)
            qparams.update(jvars)
        elif queue in ("Marker", "Demarker"):
            jobs = _marker_params(queue_params, queue)
        elif queue == "CoDel":
            codel = _codel_params(queue_params)
        elif queue == "PIE":
            pie = _pie_params(queue_params)
        elif queue == "FQ_CoDel":
            fq_codel = _fq_codel_params(queue_params)
        elif queue_params:
            if not isinstance(queue_params, dict):
                raise ValueError(f"link(): queue_params must be a dict, got {queue_params!r}")
            qkind = f"Queue/{queue}"
            qbound = _bound_vars(qkind)
            for name, value in queue_params.items():
                var = _var_name(str(name), qkind, qbound, "link(): queue_params")
                qparams[var] = _var_value(var, qbound[var], value, "link(): queue_params", str(name), qkind)
            th, mx = (_float_prefix(qparams.get(k, "0")) or 0.0 for k in ("thresh_", "maxthresh_"))
            if queue in ("RED", "RED/PD") and th > 0 and mx > 0 and th > mx:
                # RED's probability falls as the average rises (red.cc's v_a < 0)
                raise ValueError(f"link(): queue_params: thresh ({th:g}) must not be above maxthresh ({mx:g})")
        pairs = [(a, b), (b, a)] if duplex else [(a, b)]
        for s, d in pairs:
            if (s.id, d.id) in self._links:
                raise ValueError(f"link(): there is already a link {s.id}->{d.id}")
        fwd = Link(self, a, b, bw, dl, queue, queue_limit if queue_limit is not None else 50)
        fwd.queue_params = MappingProxyType(qparams) if qparams else _NO_PARAMS
        fwd.codel = codel
        fwd.pie = pie
        fwd.fq_codel = fq_codel
        fwd.scfq = scfq
        fwd.dsred = dsred
        fwd.srr = srr
        fwd.cbq = cbq
        fwd.redpd = redpd
        fwd.fq_flow_limit = fq_flow_limit
        fwd.fq_flow_queue = fq_flow_queue
        fwd.jobs = jobs
        self._links[(a.id, b.id)] = fwd
        if duplex:
            rev = Link(self, b, a, bw, dl, queue, 50)
            rev.queue_params = fwd.queue_params
            rev.codel = codel
            rev.pie = pie
            rev.fq_codel = fq_codel
            rev.scfq = scfq
            rev.dsred = dsred
            rev.srr = srr
            rev.cbq = cbq
            rev.redpd = redpd
            rev.fq_flow_limit = fq_flow_limit
            rev.fq_flow_queue = fq_flow_queue
            rev.jobs = jobs
            fwd.reverse, rev.reverse = rev, fwd
            self._links[(b.id, a.id)] = rev
        self._ops += ("link", fwd, duplex, queue_limit)
        return fwd

    def queue_limit(self, a: Node, b: Node, limit: int, at=None) -> Link:
        """Set the limit of the a->b queue (ns-2 ``$ns queue-limit a b n``);
        with `at` (seconds or "5s"), at that time of the run (``$ns at AT
        "$ns queue-limit a b n"``): from then on the queue takes packets up
        to the new limit (those it holds stay)."""
        a = self._check_node(a, "queue_limit(): a")
        b = self._check_node(b, "queue_limit(): b")
        lk = self._links.get((a.id, b.id))
        if lk is None:
            raise ValueError(f"queue_limit(): there is no link {a.id}->{b.id}")
        limit = self._check_limit(limit, "queue_limit(): limit")
        if at is not None:
            t = _parse_time(at, "queue_limit(): at")
            self._ops += ("qset", lk, t, (("limit_", str(limit)),), False)
            return lk
        lk.queue_limit = limit
        self._ops += ("qlimit", lk, lk.queue_limit)
        return lk

    def _timed_link(self, a, b, at, what: str) -> tuple[Link, tuple]:
        a = self._check_node(a, f"{what}: a")
        b = self._check_node(b, f"{what}: b")
        lk = self._links.get((a.id, b.id))
        if lk is None:
            raise ValueError(f"{what}: there is no link {a.id}->{b.id}")
        return lk, _parse_time(at, f"{what}: at")

    def set_queue(self, a: Node, b: Node, at, params: dict, reset: bool = False) -> Link:
        """Set bound variables of the a->b queue at time `at` of the run
        (seconds or "5s"): a script's ``$ns at AT "$q set VAR VALUE"``,
        e.g. ``sim.set_queue(R1, R2, 10, {"limit": 20, "q_weight": 0.01})``.
        `params` are checked as `link()`'s `queue_params` are (names
        against the queue class's bound variables, with or without the
        trailing underscore; values against the variable's type and
        range).  `reset=True` then resets the queue (``$q reset``): as in
        ns-2 it drops the packets it holds and, for RED, restarts the
        average queue and recomputes the thresholds and the slope of the
        drop probability from ``thresh_``, ``maxthresh_`` and ``linterm_``,
        which ns-2's RED reads only there: changing those without a reset
        is refused (it would change nothing).  Queues whose parameters are
        a table of their own (CBQ, SCFQ, SRR, dsRED) are refused.  Returns
        the link."""
        what = "set_queue()"
        lk, t = self._timed_link(a, b, at, what)
        if lk.queue in ("CBQ", "CBQ/WRR", "SCFQ", "SRR") or lk.queue.startswith("dsRED/"):
            raise ValueError(f"{what}: the {lk.queue} queue of link {lk.src.id}->{lk.dst.id} takes its classes and "
                             "their parameters when it is made (link()'s queue_params), not during the run")
        if not isinstance(params, dict) or not params:
            raise ValueError(f"{what}: params must be a non-empty dict of the queue's variables, got {params!r}")
        if not isinstance(reset, bool):
            raise ValueError(f"{what}: reset must be True or False, got {reset!r}")
        qkind = f"Queue/{lk.queue}"
        qbound = _bound_vars(qkind)
        pairs = []
        for name, value in params.items():
            var = _var_name(str(name), qkind, qbound, f"{what}: params")
            pairs.append((var, _var_value(var, qbound[var], value, f"{what}: params", str(name), qkind)))
        if lk.queue.startswith("RED") and not reset:
            late = [v for v, _ in pairs if v in _RED_AT_RESET]
            if late:
                raise ValueError(f"{what}: {qkind} reads {', '.join(late)} only when it is reset (ns-2's "
                                 "REDQueue::reset): pass reset=True, which also drops the packets queued and "
                                 "restarts the average, as ns-2's reset does")
        self._ops += ("qset", lk, t, tuple(pairs), reset)
        return lk

    def set_bandwidth(self, a: Node, b: Node, at, bandwidth) -> Link:
        """Change the a->b link's bandwidth at time `at` of the run (seconds
        or "5s"): a script's ``$ns at AT "[[$ns link a b] link] set
        bandwidth_ BW"``, `bandwidth` in bits/s or an ns-2 string such as
        "2Mb".  Packets sent from then on take the new transmission time;
        one on the wire keeps its own.  A CBQ queue on the link reads the
        new rate at each packet, as ns-2's CBQ asks the link (its classes'
        allotments in bytes per second stay what they were); other queues
        keep the rate they took when the run started (ns-2's RED, REM, Vq,
        GK read it once, and an FQ link's per-byte time is set when the
        link is made), as in ns-2.  Returns the link."""
        what = "set_bandwidth()"
        lk, t = self._timed_link(a, b, at, what)
        text, _ = _parse_bandwidth(bandwidth, f"{what}: bandwidth")
        self._ops += ("bw", lk, t, text)
        return lk

    #: RED-PD's flow actions and the queue commands they are.
    _REDPD_ACTIONS = ("monitor", "unmonitor", "unresponsive")

    def redpd_flow(self, a: Node, b: Node, at, flow_id: int, action: str = "monitor", prob=None, target=None,
                   current=None, penalty=None) -> Link:
        """At time `at`, act on the flows of flow id `flow_id` that the
        RED-PD queue of link a->b has seen (ns-2's test-suite-red-pd.tcl:
        ``$q monitor-flow $flow ...`` for each flow of its flow monitor
        whose ``flowid_`` is `flow_id`; none seen yet: nothing happens):

        * ``"monitor"``: police the flow, dropping its packets before RED
          does with probability `prob` (0..1; ``monitor-flow $flow
          $prob``), or at the rate that brings it from `current` to
          `target` bandwidth (``monitor-flow $flow $target $current``);
        * ``"unmonitor"``: stop (ns-2 stops the run if the flow is not
          monitored);
        * ``"unresponsive"``: declare a monitored flow unresponsive
          (``unresponsive-flow``); with `penalty`, set the queue's
          ``unresponsive_penalty_`` too.
        Returns the link."""
        what = "redpd_flow()"
        lk, t = self._timed_link(a, b, at, what)
        if lk.redpd is None:
            raise ValueError(f"redpd_flow(): link {lk.src.id}->{lk.dst.id} has a {lk.queue} queue, not RED/PD")
        if not isinstance(flow_id, numbers.Integral) or isinstance(flow_id, bool) or not 0 <= flow_id < 2**31:
            raise ValueError(f"{what}: flow_id must be an integer from 0 to 2147483647, got {flow_id!r}")
        if action not in self._REDPD_ACTIONS:
            raise ValueError(f"{what}: action must be one of {', '.join(self._REDPD_ACTIONS)}, got {action!r}")

        def share(v, name, hi=None):
            if not _is_number(v) or not math.isfinite(v) or v < 0 or (hi is not None and v > hi):
                rng = f"from 0 to {hi:g}" if hi is not None else "of zero or more"
                raise ValueError(f"{what}: {name} must be a number {rng}, got {v!r}")
            return _num_str(v)

        given = {k for k, v in (("prob", prob), ("target", target), ("current", current), ("penalty", penalty))
                 if v is not None}
        allowed = {"monitor": {"prob", "target", "current"}, "unmonitor": set(), "unresponsive": {"penalty"}}[action]
        if given - allowed:
            raise ValueError(f"{what}: {', '.join(sorted(given - allowed))} do(es) not apply to action {action!r}")
        sets: tuple = ()
        if action == "monitor":
            if prob is not None and (target is not None or current is not None):
                raise ValueError(f"{what}: give prob, or target and current, not both")
            if prob is not None:
                argv = ("monitor-flow", share(prob, "prob", 1.0))
            elif target is not None and current is not None:
                argv = ("monitor-flow", share(target, "target"), share(current, "current"))
            else:
                raise ValueError(f"{what}: monitor needs prob (0..1), or target and current")
        elif action == "unmonitor":
            argv = ("unmonitor-flow",)
        else:
            argv = ("unresponsive-flow",)
            if penalty is not None:
                if not _is_number(penalty) or not math.isfinite(penalty) or penalty <= 0:
                    raise ValueError(f"{what}: penalty must be a positive number, got {penalty!r}")
                sets = (("unresponsive_penalty_", _num_str(penalty)),)
        self._ops += ("redpd", lk, t, (int(flow_id), argv, sets))
        return lk

    def tcp(self, src: Node, dst: Node, variant: str = "reno", sink: str | None = None, start=0.0, stop=None,
            packet_size: int | None = None, window: float | None = None, flow_id: int | None = None,
            trace_vars: Iterable[str] | str = (), sink_params: dict | None = None, app: str = "ftp",
            app_params: dict | None = None, cc: str | None = None, stack: str = "ns2", quickstart: bool = False,
            **params) -> Flow:
        """A one-way TCP connection from `src` to `dst` with an FTP source
        (ns-2 ``new Agent/TCP/Reno``, ``new Agent/TCPSink``, ``attach-agent``,
        ``connect``, ``Application/FTP``, ``$ns at start "$ftp start"``).

        * `variant`: "tahoe" (Agent/TCP), "reno", "newreno", "sack" (Sack1),
          "vegas", "rfc793edu", or "ecn-mod" (seed 003's ECN-mod: NewReno with
          ECN, a cut of ``ecnmod_c2`` of the window on every marked ACK and
          ``ecnmod_c1`` per unmarked ACK in congestion avoidance; its sink
          echoes each mark once; pair it with RED's ``pmod`` marking), or
          "linux" (ns-2's Agent/TCP/Linux: Linux 2.6's congestion control
          modules with SACK-based recovery, exactly as ns-2 2.35 runs them),
          "fack" (Agent/TCP/Fack), "sack-rh" (Agent/TCP/SackRH: rate
          halving), or ns-2's two-way TCP: "fulltcp" (Agent/TCP/FullTcp,
          Reno), "fulltcp-tahoe", "fulltcp-newreno", "fulltcp-sack" (SYN/FIN,
          byte sequence numbers, ``segsize_``; its receiver is a FullTcp of
          the same class that listens: sink "fulltcp").
        * `cc`: with variant "linux", the congestion control (``select_ca``):
          one of `CONGESTION_CONTROLS` ("reno", "cubic", "highspeed",
          "scalable", "vegas", "veno", "yeah", "bic", "htcp", "hybla",
          "illinois", "westwood", "lp", "compound", "naive_reno", and
          Dumbbell's "dctcp" (RFC 8257) and "prague" (L4S: ECT(1), a
          scalable response; pair it with ``queue="DualPI2"``), which real
          ns-2 lacks: they turn ECN on and their sink echoes CE exactly
          (``dctcp_``)); default "reno".
        * `sink`: "ack-every" (Agent/TCPSink, the default), "delack"
          (TCPSink/DelAck), "sack" (TCPSink/Sack1) or "sack-delack"
          (TCPSink/Sack1/DelAck); "fulltcp" (the default, and the only
          choice, of the two-way variants).
        * `start`, `stop`: seconds (or "2.5s"-style strings); FTP start/stop.
        * `packet_size`: ns-2 ``packetSize_``, the TCP payload in bytes; on the
          wire a packet is 40 bytes larger (960 gives 1000-byte packets).
        * `window`: ns-2 ``window_``, the maximum window (default 20).
        * `flow_id`: ns-2 ``fid_`` (trace column 8); default: the flow's index.
        * `trace_vars`: traced variables of the sender to record in
          `Result.vars`, e.g. ("cwnd_", "ack_"); the underscore is optional.
        * `app`: "ftp" (bulk data, the default) or "telnet"
          (Application/Telnet; `app_params={"interval": 0.5}` sets its mean
          interval between packets).
        * `**params`: any other bound variable of the sender class, with or
          without the trailing underscore (``windowInit=2``, ``overhead=0.01``,
          ``maxburst_=4``); `sink_params` likewise for the sink.
        * `quickstart`: ask the routers (`Simulation.quickstart`) for an
          initial rate of ``rate_request`` KB/s (required with it): the
          approved rate times the first round trip becomes the initial
          window, sent paced over a round trip (tahoe, reno, newreno, sack,
          ecn-mod); also ``qs_request_mode``, ``qs_thresh``, ``qs_rtt``,
          ``tcp_qs_recovery`` (ns-2's variables).
        * `stack`: "ns2" (the above) or "full": a two-way TCP after ns-3.37
          (handshake, byte sequence numbers, delayed ACKs, timestamps, SACK
          with RFC 6675 and PRR or NewReno recovery, ECN) from a bulk sender
          to a packet sink; its parameters (``cc``: "newreno" or any of the
          above but "reno"/"naive_reno", ns-3.37's version where ns-3 has
          one; ``cc_params``, ``mss``/``mtu``, ``sack``, ``recovery``,
          ``delack_count``, ``initial_cwnd``, ``snd_buf``, ...) and traces
          are in docs/full-tcp.md.
        """
        src = self._check_node(src, "tcp(): src")
        dst = self._check_node(dst, "tcp(): dst")
        if src is dst:
            raise ValueError(f"tcp(): src and dst are the same node ({src!r})")
        if stack != "ns2":
            from ._fulltcp import full_flow
            if cc is not None:
                params = {**params, "cc": cc}
            return full_flow(self, stack, src, dst, variant, "ack-every" if sink is None else sink, start, stop,
                             packet_size, window, flow_id,
                             trace_vars, sink_params, app, app_params, params)
        if not isinstance(variant, str) or variant.lower() not in VARIANTS:
            raise ValueError(f"tcp(): unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        variant = variant.lower()
        if variant == "linux":
            if cc is None:
                cc = "reno"
            if not isinstance(cc, str) or cc.lower() not in CONGESTION_CONTROLS:
                raise ValueError(f"tcp(): unknown congestion control cc={cc!r}; choose one of "
                                 f"{', '.join(CONGESTION_CONTROLS)}")
            cc = cc.lower()
        elif cc is not None:
            raise ValueError(f"tcp(): cc={cc!r} needs variant='linux' (variant {variant!r} has its own "
                             f"congestion control)")
        two_way = variant in _TWO_WAY
        if sink is None:
            sink = "fulltcp" if two_way else "ack-every"
        if not isinstance(sink, str) or sink.lower() not in SINKS:
            raise ValueError(f"tcp(): unknown sink {sink!r}; choose one of {', '.join(SINKS)}")
        sink = sink.lower()
        if two_way and sink != "fulltcp":
            raise ValueError(f"tcp(): variant {variant!r} is two-way TCP, whose receiver is its own kind "
                             f"(sink 'fulltcp'), not sink {sink!r}")
        if not two_way and sink == "fulltcp":
            raise ValueError(f"tcp(): sink 'fulltcp' is the receiver of the two-way variants "
                             f"({', '.join(_TWO_WAY)}), not of variant {variant!r}")
        kind, sink_kind = VARIANTS[variant], SINKS[sink] or VARIANTS[variant]
        st = _parse_time(start, "tcp(): start")
        sp = None
        if stop is not None:
            sp = _parse_time(stop, "tcp(): stop")
            if sp[1] <= st[1]:
                raise ValueError(f"tcp(): stop ({stop!r}) must be later than start ({start!r})")
        bound = _bound_vars(kind)
        traceable = _traceable_vars(kind)
        fid = len(self._flows) if flow_id is None else flow_id
        given: dict[str, tuple[str, object]] = {}

        def put(var, value, label):
            if var in _WIRING:
                raise ValueError(f"tcp(): {label} is set by the API when it connects the flow")
            alias = "fid_" if var == "class_" else var
            if alias in given:
                raise ValueError(f"tcp(): {given[alias][0]} and {label} set the same ns-2 variable {alias}")
            given[alias] = (label, _var_value(alias, bound[var], value, "tcp()", label, kind))

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
        if not isinstance(quickstart, bool):
            raise ValueError(f"tcp(): quickstart must be True or False, got {quickstart!r}")
        if quickstart:
            if variant in ("vegas", "rfc793edu", "linux"):
                raise ValueError(f"tcp(): quickstart: variant {variant!r} makes no Quick-Start requests in ns-2 "
                                 f"(tahoe, reno, newreno, sack and ecn-mod do)")
            if self._qs is None:
                raise ValueError("tcp(): quickstart=True needs Quick-Start routers: call sim.quickstart() "
                                 "before making nodes")
            rr = params.get("rate_request", params.get("rate_request_"))
            if not isinstance(rr, numbers.Integral) or isinstance(rr, bool) or not 0 < rr < 2**21:
                raise ValueError(f"tcp(): quickstart=True needs rate_request, a positive integer (KB/s), got {rr!r}")
            put("qs_enabled_", True, "quickstart")
        implied, sink_implied = _VARIANT_VARS.get(variant, ({}, {}))
        if variant == "linux" and cc in _ECN_CCS:
            sink_implied = {**sink_implied, "dctcp_": True}
        for var, value in implied.items():
            if var not in given:
                put(var, value, f"variant={variant!r}")
        sbound = _bound_vars(sink_kind)
        sgiven = {var: _var_value(var, sbound[var], value, "tcp()", f"variant={variant!r}", sink_kind)
                  for var, value in sink_implied.items()}
        if sink_params is not None and not isinstance(sink_params, dict):
            raise ValueError(f"tcp(): sink_params must be a dict of sink variables, got {sink_params!r}")
        for name, value in (sink_params or {}).items():
            if not isinstance(name, str):
                raise ValueError(f"tcp(): sink_params keys must be variable names, got {name!r}")
            var = _var_name(name, sink_kind, sbound, "tcp(): sink_params")
            if var in _WIRING:
                raise ValueError(f"tcp(): sink_params: {name} is set by the API when it connects the flow")
            sgiven[var] = _var_value(var, sbound[var], value, "tcp(): sink_params", name, sink_kind)
        if quickstart and "qs_enabled_" not in sgiven:
            sgiven["qs_enabled_"] = _var_value("qs_enabled_", sbound["qs_enabled_"], True, "tcp()", "quickstart",
                                               sink_kind)
        if not isinstance(app, str) or app.lower() not in ("ftp", "telnet"):
            raise ValueError(f"tcp(): unknown app {app!r}; choose 'ftp' or 'telnet'")
        app = app.lower()
        aparams = _app_params("tcp()", "Application/Telnet" if app == "telnet" else None, app_params)
        if isinstance(trace_vars, str):
            trace_vars = (trace_vars,)
        if not isinstance(trace_vars, Iterable):
            raise ValueError(f"tcp(): trace_vars must be a variable name or a list of them, got {trace_vars!r}")
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
                 {k: t for k, (_, t) in given.items()}, sgiven, tuple(tv), app, aparams, cc)
        self._flows.append(f)
        self._ops += ("tcp", f)
        return f

    @property
    def sources(self) -> list[Source]:
        """All datagram `Source`s, in creation order."""
        return list(self._sources)

    @property
    def error_models(self) -> list[ErrorModel]:
        return list(self._errmodels)

    @property
    def rate_flows(self) -> list[RateFlow]:
        """All TFRC flows (`Simulation.tfrc`), in creation order."""
        return list(self._rate_flows)

    def tfrc(self, src: Node, dst: Node, start=0.0, stop=None, packet_size: int | None = None,
             flow_id: int | None = None, sink_params: dict | None = None, **params) -> RateFlow:
        """A TCP-friendly rate-controlled flow (TFRC, RFC 5348, as ns-2 2.35
        has it): ``new Agent/TFRC`` at `src`, ``new Agent/TFRCSink`` at
        `dst`, ``attach-agent``, ``connect``, ``$ns at start "$tfrc start"``
        (and stop).  The sender always has data to send.

        * `packet_size`: ns-2 ``packetSize_`` (default 1000; with
          ``useHeaders_`` a packet is 32 bytes larger on the wire).
        * `flow_id`: ns-2 ``fid_`` of the sender and of the sink's reports
          (default: the index of the flow among TCP flows, datagram sources
          and TFRC flows so far).
        * `**params`: other bound variables of Agent/TFRC, with or without
          the trailing underscore (``ca=0``, ``df=0.25``, ``ecn=1``,
          ``conservative=True``, ``overhead=0.1``); `sink_params` those of
          Agent/TFRCSink (``algo=2``, ``discount=0``, ``NumFeedback=4``).
        """
        what = "tfrc()"
        src = self._check_node(src, f"{what}: src")
        dst = self._check_node(dst, f"{what}: dst")
        if src is dst:
            raise ValueError(f"{what}: src and dst are the same node ({src!r})")
        st = _parse_time(start, f"{what}: start")
        sp = None
        if stop is not None:
            sp = _parse_time(stop, f"{what}: stop")
            if sp[1] <= st[1]:
                raise ValueError(f"{what}: stop ({stop!r}) must be later than start ({start!r})")
        kind, sink_kind = "Agent/TFRC", "Agent/TFRCSink"
        bound = _bound_vars(kind)
        fid = len(self._flows) + len(self._sources) + len(self._rate_flows) if flow_id is None else flow_id
        given: dict[str, tuple[str, str]] = {}

        def put(var, value, label):
            if var in _WIRING:
                raise ValueError(f"{what}: {label} is set by the API when it connects the flow")
            if var == "SndrType_":
                raise ValueError(f"{what}: {label}: the API's TFRC sender always has data (SndrType_ 0)")
            alias = "fid_" if var == "class_" else var
            if alias in given:
                raise ValueError(f"{what}: {given[alias][0]} and {label} set the same ns-2 variable {alias}")
            given[alias] = (label, _var_value(alias, bound[var], value, what, label, kind))

        put("fid_", fid, "flow_id")
        if packet_size is not None:
            if _is_number(packet_size) and packet_size <= 0:
                raise ValueError(f"{what}: packet_size must be a positive number of bytes, got {packet_size!r}")
            put("packetSize_", packet_size, "packet_size")
        for name, value in params.items():
            put(_var_name(name, kind, bound, what), value, name)
        sbound = _bound_vars(sink_kind)
        # the sink's reports carry the flow's id too, as `create-connection`
        # makes them
        sgiven = {"fid_": given["fid_"][1]}
        if sink_params is not None and not isinstance(sink_params, dict):
            raise ValueError(f"{what}: sink_params must be a dict of Agent/TFRCSink variables, got {sink_params!r}")
        for name, value in (sink_params or {}).items():
            if not isinstance(name, str):
                raise ValueError(f"{what}: sink_params keys must be variable names, got {name!r}")
            var = _var_name(name, sink_kind, sbound, f"{what}: sink_params")
            if var in _WIRING:
                raise ValueError(f"{what}: sink_params: {name} is set by the API when it connects the flow")
            sgiven[var] = _var_value(var, sbound[var], value, f"{what}: sink_params", name, sink_kind)
        r = RateFlow(self, len(self._rate_flows), src, dst, st, sp, int(given["fid_"][1]),
                     {k: t for k, (_, t) in given.items()}, sgiven)
        self._rate_flows.append(r)
        self._ops += ("tfrc", r)
        return r

    def udp(self, src: Node, dst: Node, traffic: str = "cbr", sink: str = "loss-monitor", start=0.0, stop=None,
            rate=None, packet_size: int | None = None, flow_id: int | None = None, agent_params: dict | None = None,
            **params) -> Source:
        """A datagram source: ``new Agent/UDP`` at `src` with a traffic
        generator, a sink at `dst` (``attach-agent``, ``connect``) and
        ``$ns at start "$app start"`` (and stop).

        * `traffic`: "cbr" (Application/Traffic/CBR), "exponential" or
          "pareto" (on/off sources, Application/Traffic/Exponential and
          /Pareto).
        * `sink`: "loss-monitor" (Agent/LossMonitor, which counts what
          arrives: `Result.sources`) or "null" (Agent/Null).
        * `rate`: the sending rate (bits/s or "1Mb"; an on/off source's rate
          while on); `packet_size`: bytes per packet (``packetSize_``).
        * `flow_id`: ns-2 ``fid_`` of the UDP agent (default: the source's
          index plus the number of TCP flows so far, so that ids differ).
        * `**params`: other bound variables of the traffic class
          (``random=1``, ``maxpkts=100``, ``burst_time="500ms"``,
          ``idle_time=0.5``, ``shape=1.5``); `agent_params` those of Agent/UDP.
        """
        what = "udp()"
        src = self._check_node(src, f"{what}: src")
        dst = self._check_node(dst, f"{what}: dst")
        if src is dst:
            raise ValueError(f"{what}: src and dst are the same node ({src!r})")
        if not isinstance(traffic, str) or traffic.lower() not in TRAFFIC:
            raise ValueError(f"{what}: unknown traffic {traffic!r}; choose one of {', '.join(TRAFFIC)}")
        traffic = traffic.lower()
        if not isinstance(sink, str) or sink.lower() not in UDP_SINKS:
            raise ValueError(f"{what}: unknown sink {sink!r}; choose one of {', '.join(UDP_SINKS)}")
        sink = sink.lower()
        st = _parse_time(start, f"{what}: start")
        sp = None
        if stop is not None:
            sp = _parse_time(stop, f"{what}: stop")
            if sp[1] <= st[1]:
                raise ValueError(f"{what}: stop ({stop!r}) must be later than start ({start!r})")
        kind = TRAFFIC[traffic]
        bound = _bound_vars(kind)
        given: dict[str, str] = {}
        labels: dict[str, str] = {}

        def put(var, value, label):
            if var in given:
                raise ValueError(f"{what}: {labels[var]} and {label} set the same ns-2 variable {var}")
            labels[var] = label
            given[var] = _var_value(var, bound[var], value, what, label, kind)

        if rate is not None:
            put("rate_", rate, "rate")
        if packet_size is not None:
            if _is_number(packet_size) and packet_size <= 0:
                raise ValueError(f"{what}: packet_size must be a positive number of bytes, got {packet_size!r}")
            put("packetSize_", packet_size, "packet_size")
        for name, value in params.items():
            put(_var_name(name, kind, bound, what), value, name)
        ubound = _bound_vars("Agent/UDP")
        fid = len(self._flows) + len(self._sources) if flow_id is None else flow_id
        aparams = {"fid_": _var_value("fid_", ubound["fid_"], fid, what, "flow_id")}
        if agent_params is not None and not isinstance(agent_params, dict):
            raise ValueError(f"{what}: agent_params must be a dict of Agent/UDP variables, got {agent_params!r}")
        for name, value in (agent_params or {}).items():
            var = _var_name(str(name), "Agent/UDP", ubound, f"{what}: agent_params")
            if var in _WIRING:
                raise ValueError(f"{what}: agent_params: {name} is set by the API when it connects the source")
            if var in ("fid_", "class_"):
                raise ValueError(f"{what}: agent_params: {name} is the flow_id argument")
            aparams[var] = _var_value(var, ubound[var], value, f"{what}: agent_params", str(name), "Agent/UDP")
        s = Source(self, len(self._sources), src, dst, traffic, sink, st, sp, int(aparams["fid_"]), given, aparams)
        self._sources.append(s)
        self._ops += ("udp", s)
        return s

    def voip_calls(self, src: Node, dst: Node, lam=2.0, mean_holding=100.0, burst_time=1.008, idle_time=1.587,
                   packet_size: int = 120, interval=0.01, stationary_start: bool = True, max_calls: int = 100_000,
                   start=0.0, stop=None, flow_id: int | None = None, sink: str = "loss-monitor") -> Source:
        """VoIP calls as a birth-death process (seed 003, Misra & Ott), one
        Agent/UDP at `src` sending to a sink at `dst` with `flow_id`:
        Dumbbell's ``Application/Traffic/VoIPCalls``, run inside the engine.

        Calls arrive as a Poisson process of rate `lam` (calls/s) and last
        an exponential time of mean `mean_holding` (s), so `lam *
        mean_holding` calls are up on average (200 at the defaults); each
        is an exponential on/off voice source (mean talk spurt
        `burst_time`, silence `idle_time`: ITU P.59's 1.008 s and 1.587 s)
        sending `packet_size` bytes every `interval` while talking (120 B
        every 10 ms: 80 B of G.711 and a 40 B header, 96 kb/s).  With
        `stationary_start` (the paper does not say; default on) the run
        starts with a Poisson(`lam * mean_holding`) number of calls up, so
        it needs no warm-up; calls start in the on/off process's
        stationary state.  At most `max_calls` are up at once (more are
        blocked and counted).  Draws come from the default RNG, so
        `Simulation(seed=...)` fixes them.  Counters after the run:
        `Result.voip[source.id]`; what the sink got: `Result.sources`.
        """
        what = "voip_calls()"

        def number(name, v, zero_ok=False):
            if isinstance(v, str):
                v = _parse_time(v, f"{what}: {name}")[1]
            if not _is_number(v) or not math.isfinite(v) or v < 0 or (v == 0 and not zero_ok):
                need = "a number of zero or more" if zero_ok else "a positive number"
                raise ValueError(f"{what}: {name} must be {need}, got {v!r}")
            return v

        lam = number("lam", lam, zero_ok=True)
        mean_holding = number("mean_holding", mean_holding)
        burst_time = number("burst_time", burst_time)
        idle_time = number("idle_time", idle_time, zero_ok=True)
        interval = number("interval", interval)
        if not isinstance(packet_size, numbers.Integral) or isinstance(packet_size, bool) or not 0 < packet_size < 2**28:
            raise ValueError(f"{what}: packet_size must be a positive integer (bytes), got {packet_size!r}")
        if not isinstance(max_calls, numbers.Integral) or isinstance(max_calls, bool) or not 0 < max_calls < 2**31:
            raise ValueError(f"{what}: max_calls must be a positive integer, got {max_calls!r}")
        if not isinstance(stationary_start, bool):
            raise ValueError(f"{what}: stationary_start must be True or False, got {stationary_start!r}")
        return self.udp(src, dst, traffic="voip", sink=sink, start=start, stop=stop, flow_id=flow_id,
                        packet_size=int(packet_size), lambda_=repr(float(lam)), holding=repr(float(mean_holding)),
                        burst_time=repr(float(burst_time)), idle_time=repr(float(idle_time)),
                        interval=repr(float(interval)), stationary_start=stationary_start, max_calls=int(max_calls))

    def error_model(self, a: Node, b: Node, rate=None, kind: str = "uniform", unit: str = "pkt",
                    where: str = "link", mark_ecn: bool = False, period=None, offset=0.0, burstlen=0.0,
                    drops: Iterable[int] | None = None) -> ErrorModel:
        """Drop (or ECN-mark) packets on the a->b link direction.

        * `kind`: "uniform" (ns-2 ErrorModel: each packet, or byte with
          ``unit="byte"``, with probability `rate`, from the default random
          number generator), "periodic" (ErrorModel/Periodic: every `period`
          units, the first after `offset`, bursts of `burstlen`) or "list"
          (ErrorModel/List: the packets numbered in `drops`, from 0).
        * `where`: "link" (after the link, before the next node: ns-2
          ``$ns link-lossmodel``) or "queue" (at the head of the link,
          before its queue: ``$ns lossmodel``).
        * `mark_ecn`: mark ECN-capable packets instead of dropping them
          (``markecn_``).
        """
        what = "error_model()"
        a = self._check_node(a, f"{what}: a")
        b = self._check_node(b, f"{what}: b")
        lk = self._links.get((a.id, b.id))
        if lk is None:
            raise ValueError(f"{what}: there is no link {a.id}->{b.id}")
        if kind not in ("uniform", "periodic", "list"):
            raise ValueError(f"{what}: unknown kind {kind!r}; choose 'uniform', 'periodic' or 'list'")
        if unit not in ("pkt", "byte"):
            raise ValueError(f"{what}: unit must be 'pkt' or 'byte', got {unit!r}")
        if where not in ("link", "queue"):
            raise ValueError(f"{what}: where must be 'link' (after the link) or 'queue' (before it), got {where!r}")
        if not isinstance(mark_ecn, bool):
            raise ValueError(f"{what}: mark_ecn must be True or False, got {mark_ecn!r}")
        for other in self._errmodels:
            if other.link is lk and other.where == where:
                raise ValueError(f"{what}: link {a.id}->{b.id} has an error model at {where!r} already")

        def real(v, label, lo=0.0, hi=None):
            if not _is_number(v) or v != v or v < lo or (hi is not None and v > hi):
                rng = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
                raise ValueError(f"{what}: {label} must be a number {rng}, got {v!r}")
            return float(v), _num_str(v)

        texts = {}
        r = p = o = bl = None
        dl: list[int] = []
        if kind == "uniform":
            if rate is None:
                raise ValueError(f"{what}: a uniform error model needs a rate (0..1)")
            r, texts["rate_"] = real(rate, "rate", 0.0, 1.0)
        else:
            if rate is not None:
                raise ValueError(f"{what}: rate is for kind='uniform', got rate={rate!r} with kind={kind!r}")
        if kind == "periodic":
            if period is None:
                raise ValueError(f"{what}: a periodic error model needs a period")
            p, texts["period_"] = real(period, "period", 0.0)
            if p <= 0:
                raise ValueError(f"{what}: period must be positive, got {period!r}")
            o, texts["offset_"] = real(offset, "offset", 0.0)
            bl, texts["burstlen_"] = real(burstlen, "burstlen", 0.0)
        elif period is not None:
            raise ValueError(f"{what}: period is for kind='periodic', got period={period!r} with kind={kind!r}")
        if kind == "list":
            if drops is None:
                raise ValueError(f"{what}: a list error model needs drops (packet numbers)")
            try:
                dl = list(drops)
            except TypeError:
                raise ValueError(f"{what}: drops must be a list of packet numbers, got {drops!r}") from None
            for x in dl:
                if not isinstance(x, numbers.Integral) or isinstance(x, bool) or not 0 <= x < 2**31:
                    raise ValueError(f"{what}: drops must be non-negative integers, got {x!r}")
            dl = sorted(int(x) for x in dl)
            if len(set(dl)) != len(dl):
                raise ValueError(f"{what}: drops lists a packet twice: {drops!r}")
        elif drops is not None:
            raise ValueError(f"{what}: drops is for kind='list', got drops={drops!r} with kind={kind!r}")
        em = ErrorModel(self, len(self._errmodels), lk, kind, unit, where, mark_ecn, r, p, o, bl, dl, texts)
        self._errmodels.append(em)
        self._ops += ("errmodel", em)
        return em

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
        seen = set()
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
            if id(lk) not in seen:
                seen.add(id(lk))
                out.append(lk)
        return out

    def _check_routes(self):
        """Every flow has a route for its data and its ACKs (sources: for
        their data).  Linear in the topology: nodes in one strongly
        connected component reach each other; only flows across
        components search (once per source node)."""
        n = len(self._nodes)
        adj: list[list[int]] = [[] for _ in range(n)]
        radj: list[list[int]] = [[] for _ in range(n)]
        for s, d in self._links:
            adj[s].append(d)
            radj[d].append(s)
        # Kosaraju, iteratively
        order: list[int] = []
        seen = [False] * n
        for root in range(n):
            if seen[root]:
                continue
            seen[root] = True
            stack = [(root, iter(adj[root]))]
            while stack:
                v, it = stack[-1]
                for w in it:
                    if not seen[w]:
                        seen[w] = True
                        stack.append((w, iter(adj[w])))
                        break
                else:
                    stack.pop()
                    order.append(v)
        comp = [-1] * n
        c = 0
        for root in reversed(order):
            if comp[root] >= 0:
                continue
            comp[root] = c
            todo = [root]
            while todo:
                v = todo.pop()
                for w in radj[v]:
                    if comp[w] < 0:
                        comp[w] = c
                        todo.append(w)
            c += 1
        reach_cache: dict[int, set[int]] = {}

        def reach(a: int, b: int) -> bool:
            if comp[a] == comp[b]:
                return True
            r = reach_cache.get(a)
            if r is None:
                r = {a}
                todo = [a]
                while todo:
                    for m in adj[todo.pop()]:
                        if m not in r:
                            r.add(m)
                            todo.append(m)
                reach_cache[a] = r
            return b in r

        for f in self._flows:
            for a, b, what in ((f.src, f.dst, "data"), (f.dst, f.src, "ACKs")):
                if not reach(a.id, b.id):
                    raise ValueError(f"flow {f.id}: no route from node {a.id} to node {b.id} for its {what}")
        for s in self._sources:
            if not reach(s.src.id, s.dst.id):
                raise ValueError(f"source {s.id}: no route from node {s.src.id} to node {s.dst.id} for its data")

    def _script(self, until_text: str, channel: str | None, trace_packets: list[Link] | bool,
                monitors: list[Link]) -> list[str]:
        L = ["# Generated by dumbbell.api: the ns-2 script equivalent to the Python scenario.",
             "set ns [new Simulator]"]
        if self.seed is not None:
            L.append(f"$defaultRNG seed {self.seed}")
        L += _run_lines(self.run_number)
        for cls in sorted({lk.queue for lk in self._links.values() if lk.jobs is not None}):
            # ns-2 gives JoBS and its edge queues' variables no class
            # defaults (ns-default.tcl); a script sets them, as its jobs
            # suite does, to the values the engine's classes have
            L += [f"Queue/{cls} set {var} {text}" for var, text in _jobs_class_defaults(cls)]
        traced = bool(trace_packets) or any(f.trace_vars for f in self._flows)
        if traced:
            L.append(f"set tf {channel}")
            if trace_packets is True:
                L.append("$ns trace-all $tf")
        for f in self._flows:
            if f.stack != "ns2":
                raise ValueError(f"flow {f.id} uses the full TCP (stack={f.stack!r}), which has no ns-2 equivalent "
                                 f"script")
        redpd_proc = False
        for op in _each_op(self._ops):
            kind = op[0]
            if kind == "qs":
                L += [f"Agent/QSAgent set {var} {text}" for var, text in op[1].items()]
                L.append("$ns node-config -QS ON")
            elif kind == "node":
                L.append(f"set n({op[1].id}) [$ns node]")
            elif kind == "link":
                lk, duplex, qlim = op[1], op[2], op[3]
                a, b = lk.src.id, lk.dst.id
                L.append(f"$ns {'duplex' if duplex else 'simplex'}-link $n({a}) $n({b}) {lk._bw_text} "
                         f"{lk._delay_text} {lk.queue}")
                for s_, d_ in ([(a, b), (b, a)] if duplex else [(a, b)]):
                    for var, text in lk.queue_params.items():
                        L.append(f"[[$ns link $n({s_}) $n({d_})] queue] set {var} {text}")
                    if lk.redpd is not None:
                        # ns-2's RED-PD flow monitor (ns-queue.tcl's makeflowmon)
                        L.append(f"set redpdfm({s_}:{d_}) [[[$ns link $n({s_}) $n({d_})] queue] makeflowmon "
                                 f"[$ns link $n({s_}) $n({d_})] {lk.redpd}]")
                    if lk.codel is not None:
                        # Dumbbell's Queue/CoDel (ns-3.37's CoDel; ns-2 2.35
                        # has none): target_ and interval_ as ns-2.36 names
                        # them, ns-3's MinBytes, UseEcn, CeThreshold and UseL4s
                        t, i, mb, ecn, ce, l4s = lk.codel
                        q_ = f"[[$ns link $n({s_}) $n({d_})] queue]"
                        L.append(f"{q_} set target_ {t!r}")
                        L.append(f"{q_} set interval_ {i!r}")
                        L.append(f"{q_} set minbytes_ {mb}")
                        L.append(f"{q_} set setbit_ {'true' if ecn else 'false'}")
                        L.append(f"{q_} set ce_threshold_ {-1 if ce is None else repr(ce)}")
                        if l4s:
                            L.append(f"{q_} set use_l4s_ true")
                    for qp, names in ((lk.pie, _PIE_VARS), (lk.fq_codel, _FQ_CODEL_VARS)):
                        # Dumbbell's Queue/PIE (ns-3.37's PIE, in ns-2.36's
                        # names where it has them) and Queue/FQ_CoDel
                        # (ns-3.37's FQ-CoDel); ns-2 2.35 has neither
                        if qp is None:
                            continue
                        q_ = f"[[$ns link $n({s_}) $n({d_})] queue]"
                        for key, var in names.items():
                            v = qp[key]
                            text = ("true" if v else "false") if isinstance(v, bool) else -1 if v is None else repr(v)
                            L.append(f"{q_} set {var} {text}")
                    if lk.scfq is not None:
                        # Dumbbell's Queue/SCFQ (ns-2 2.35 has none)
                        q_ = f"[[$ns link $n({s_}) $n({d_})] queue]"
                        for cid, w, qkind, vars_ in lk.scfq["classes"]:
                            L.append(f"{q_} add-class {cid} {w!r}")
                            _new_object(L, "scfq_q", qkind, dict(vars_))
                            L.append(f"{q_} class-queue {cid} $scfq_q")
                        for fid, cid in lk.scfq["classify"]:
                            L.append(f"{q_} classify {fid} {cid}")
                        if lk.scfq["default_class"] is not None:
                            L.append(f"{q_} default-class {lk.scfq['default_class']}")
                    if lk.dsred is not None:
                        # ns-2's Queue/dsRED/edge or /core: its variables and commands
                        q_ = f"[[$ns link $n({s_}) $n({d_})] queue]"
                        L += [f"{q_} {' '.join(c)}" for c in lk.dsred]
                    if lk.srr:
                        # ns-2's Queue/SRR: its scheduler's commands
                        q_ = f"[[$ns link $n({s_}) $n({d_})] queue]"
                        L += [f"{q_} {' '.join(c)}" for c in lk.srr]
                    if lk.jobs:
                        # ns-2's JoBS (test-suite-jobs.tcl's order: the
                        # objectives, the link, trace-file ... initialize)
                        # or its edge queues
                        q_ = f"[[$ns link $n({s_}) $n({d_})] queue]"
                        for c in lk.jobs:
                            if c[0] == "trace-file" and lk.queue == "JoBS":
                                L.append(f"{q_} link [[$ns link $n({s_}) $n({d_})] link]")
                            L.append(f"{q_} {' '.join(c)}")
                    if lk.cbq is not None:
                        # ns-2's CBQ link: its classes (CBQClass), inserted
                        # in order, then the flows bound to the leaves
                        cb, cl_ = lk.cbq, f"cbq_{s_}_{d_}"
                        L.append(f"set {cl_}(link) [$ns link $n({s_}) $n({d_})]")
                        L.append(f"[${cl_}(link) queue] set maxpkt_ {cb['maxpkt']}")
                        L.append(f"[${cl_}(link) queue] algorithm {cb['algorithm']}")
                        for i, c in enumerate(cb["classes"]):
                            parent = "none" if c["parent"] is None else f"${cl_}({c['parent']})"
                            maxidle = "auto" if c["maxidle"] == "auto" else repr(c["maxidle"])
                            L.append(f"set {cl_}({i}) [new CBQClass]")
                            L.append(f"${cl_}({i}) setparams {parent} {'true' if c['borrow'] else 'false'} "
                                     f"{c['allot']!r} {maxidle} {c['priority']} {c['level']} {c['extradelay']!r}")
                            if c["leaf"]:
                                L.append(f"set cbq_q [new {c['queue']}]")
                                if c["limit"] is not None:
                                    L.append(f"$cbq_q set limit_ {c['limit']}")
                                L += [f"$cbq_q set {v} {t}" for v, t in c["vars"]]
                                if c["queue"] in ("Queue/RED", "Queue/RED/RIO", "Queue/REM", "Queue/Vq", "Queue/GK"):
                                    # the link's rate, as a link's own queue
                                    # of the kind gets it (ns-2's CBQ link
                                    # does not give it): RED's automatic
                                    # settings at its reset, REM's, Vq's and
                                    # GK's capacity
                                    L.append(f"$cbq_q link [${cl_}(link) link]")
                                if c["queue"] in ("Queue/RED", "Queue/RED/RIO"):
                                    L.append("$cbq_q reset")
                                L.append(f"${cl_}({i}) install-queue $cbq_q")
                        for i in range(len(cb["classes"])):
                            L.append(f"${cl_}(link) insert ${cl_}({i})")
                        for i, c in enumerate(cb["classes"]):
                            L += [f"${cl_}(link) bind ${cl_}({i}) {fid}" for fid in c["flows"]]
                if qlim is not None:
                    L.append(f"$ns queue-limit $n({a}) $n({b}) {qlim}")
            elif kind == "qlimit":
                L.append(f"$ns queue-limit $n({op[1].src.id}) $n({op[1].dst.id}) {op[2]}")
            elif kind == "bw":
                lk, t, text = op[1:]
                L.append(f'$ns at {_at_text(t)} "[[$ns link $n({lk.src.id}) $n({lk.dst.id})] link] set bandwidth_ {text}"')
            elif kind == "qset":
                lk, t, pairs, reset = op[1:]
                q_ = f"[[$ns link $n({lk.src.id}) $n({lk.dst.id})] queue]"
                cmds = [f"{q_} set {var} {text}" for var, text in pairs] + ([f"{q_} reset"] if reset else [])
                L.append(f'$ns at {_at_text(t)} "{"; ".join(cmds)}"')
            elif kind == "redpd":
                lk, t, (fid, argv, sets) = op[1:]
                s_, d_ = lk.src.id, lk.dst.id
                q_ = f"[[$ns link $n({s_}) $n({d_})] queue]"
                if not redpd_proc:
                    # test-suite-red-pd.tcl's monitorFlow and its kin: the
                    # command on each flow of the monitor with that flow id
                    L.append("proc redpd_flows {q fm fid cmd args} {\n"
                             "    foreach flow [$fm flows] {\n"
                             "        if {[$flow set flowid_] == $fid} { eval [list $q $cmd $flow] $args }\n"
                             "    }\n}")
                    redpd_proc = True
                cmds = [f"redpd_flows {q_} $redpdfm({s_}:{d_}) {fid} {' '.join(argv)}"]
                cmds += [f"{q_} set {var} {text}" for var, text in sets]
                L.append(f'$ns at {_at_text(t)} "{"; ".join(cmds)}"')
            elif kind == "tcp":
                f = op[1]
                i = f.id
                _new_object(L, f"tcp({i})", f.tcp_class, f.params)
                if f.cc is not None:
                    L.append(f"$tcp({i}) select_ca {f.cc}")
                L.append(f"$ns attach-agent $n({f.src.id}) $tcp({i})")
                if f.trace_vars:
                    L.append(f"$tcp({i}) attach $tf")
                    for v in f.trace_vars:
                        L.append(f"$tcp({i}) tracevar {v}")
                _new_object(L, f"sink({i})", f.sink_class, f.sink_params)
                L.append(f"$ns attach-agent $n({f.dst.id}) $sink({i})")
                L.append(f"$ns connect $tcp({i}) $sink({i})")
                if f.sink == "fulltcp":
                    L.append(f"$sink({i}) listen")
                if f.app == "telnet":
                    _new_object(L, f"ftp({i})", "Application/Telnet", f.app_params)
                else:
                    _new_object(L, f"ftp({i})", "Application/FTP", {})
                L.append(f"$ftp({i}) attach-agent $tcp({i})")
                _start_stop(L, f, f"ftp({i})")
            elif kind == "udp":
                s = op[1]
                i = s.id
                _new_object(L, f"udp({i})", "Agent/UDP", s.agent_params)
                L.append(f"$ns attach-agent $n({s.src.id}) $udp({i})")
                L.append(f"set usink({i}) [new {s.sink_class}]")
                L.append(f"$ns attach-agent $n({s.dst.id}) $usink({i})")
                L.append(f"$ns connect $udp({i}) $usink({i})")
                _new_object(L, f"src({i})", s.traffic_class, s.params)
                L.append(f"$src({i}) attach-agent $udp({i})")
                _start_stop(L, s, f"src({i})")
            elif kind == "tfrc":
                r = op[1]
                i = r.id
                _new_object(L, f"tfrc({i})", "Agent/TFRC", r.params)
                L.append(f"$ns attach-agent $n({r.src.id}) $tfrc({i})")
                _new_object(L, f"tsink({i})", "Agent/TFRCSink", r.sink_params)
                L.append(f"$ns attach-agent $n({r.dst.id}) $tsink({i})")
                L.append(f"$ns connect $tfrc({i}) $tsink({i})")
                _start_stop(L, r, f"tfrc({i})")
            elif kind == "errmodel":
                e = op[1]
                k = e.id
                L.append(f"set em({k}) [new {e.ns2_class}]")
                L.append(f"$em({k}) unit {e.unit}")
                for var, text in e._texts.items():
                    L.append(f"$em({k}) set {var} {text}")
                if e.kind == "list":
                    L.append(f"$em({k}) droplist {{{' '.join(map(str, e.drops))}}}")
                if e.mark_ecn:
                    L.append(f"$em({k}) set markecn_ true")
                cmd = "link-lossmodel" if e.where == "link" else "lossmodel"
                L.append(f"$ns {cmd} $em({k}) $n({e.link.src.id}) $n({e.link.dst.id})")
        fq_limit = self._fq_flow_limit()
        if fq_limit != 50:
            # an FQ link's flow queues are new Queue/DropTails with the
            # class's limit_ when their first packet comes (ns-queue.tcl's
            # FQLink new-flow); every other DropTail is made by now
            L.append(f"Queue/DropTail set limit_ {fq_limit}")
        fq_kind, fq_vars = self._fq_flow_queue()
        if fq_kind != "DropTail":
            # and of FQLink's queueManagement_ (Queue/RED, Queue/SFQ, ...)
            # with that class's defaults then: every other queue is made by now
            L.append(f"FQLink set queueManagement_ {fq_kind}")
            L += [f"Queue/{fq_kind} set {v} {t}" for v, t in fq_vars]
        if isinstance(trace_packets, list):
            for lk in trace_packets:
                L.append(f"$ns trace-queue $n({lk.src.id}) $n({lk.dst.id}) $tf")
        for k, lk in enumerate(monitors):
            L.append(f"set qm({k}) [$ns monitor-queue $n({lk.src.id}) $n({lk.dst.id}) 0]")
        L.append(f'$ns at {until_text} "$ns halt"')
        L.append("$ns run")
        return L

    def _fq_flow_queue(self) -> tuple:
        """The kind and variables of every FQ link's flow queues
        (`flow_queue`, `flow_params`: one per scenario, link() checks)."""
        return next((lk.fq_flow_queue for lk in self._links.values() if lk.queue == "FQ"), ("DropTail", ()))

    def _fq_flow_limit(self) -> int:
        """The limit of every FQ link's flow queues (`flow_limit`, one per
        scenario: link() checks)."""
        return next((lk.fq_flow_limit for lk in self._links.values() if lk.fq_flow_limit is not None), 50)

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
        """The ns-2 script equivalent to the scenario, as a stand-alone
        script for ``dumbbell run`` or ns-2 itself: traces go to
        `trace_file`, and after the run one line per flow is printed,
        ``flow <i> ack_ <n> maxseq_ <n> cwnd_ <x> ... bytes_ <n>`` (a two-way
        TCP flow: ``... segsize_ <n>``), and one
        per datagram source with a loss-monitor sink,
        ``source <i> npkts_ <n> bytes_ <n> nlost_ <n> lastPktTime_ <t>``.
        (A CoDel, PIE or FQ-CoDel queue is exported as Dumbbell's
        `Queue/CoDel`, `Queue/PIE` or `Queue/FQ_CoDel`, which ns-2 2.35 does
        not have.)"""
        until_text, until_s, tp, mon = self._prepare(until, trace_packets, monitor_queues)
        trace_file = os.fspath(trace_file)
        if re.search(r'[{}\\\n]', trace_file):
            raise ValueError(f"to_tcl(): trace_file must not contain braces, backslashes or newlines, got {trace_file!r}")
        L = self._script(until_text, f"[open {{{trace_file}}} w]", tp, mon)
        for f in self._flows:
            if f.sink == "fulltcp":
                # (a two-way TCP's receiver counts no bytes; its segment
                # size is segsize_)
                L.append(f'puts "flow {f.id} ' + " ".join(f"{v} [$tcp({f.id}) set {v}]" for v in _FLOW_VARS)
                         + f' segsize_ [$tcp({f.id}) set segsize_]"')
                continue
            L.append(f'puts "flow {f.id} ' + " ".join(f"{v} [$tcp({f.id}) set {v}]" for v in _FLOW_VARS)
                     + f' bytes_ [$sink({f.id}) set bytes_]"')
        for s in self._sources:
            if s.sink == "loss-monitor":
                L.append(f'puts "source {s.id} ' + " ".join(f"{v} [$usink({s.id}) set {v}]" for v in _LOSSMON_VARS)
                         + '"')
        for r in self._rate_flows:
            L.append(f'puts "tfrc {r.id} ' + " ".join(f"{v} [$tfrc({r.id}) set {v}]" for v in _TFRC_VARS)
                     + f' bytes_ [$tsink({r.id}) set bytes_]"')
        if tp or any(f.trace_vars for f in self._flows):
            L += ["$ns flush-trace", "close $tf"]
        return "\n".join(L) + "\n"

    # ---- running -------------------------------------------------------------

    def _build(self, b, channel: str | None, tp, mon, until_s: float) -> dict:
        """Build the scenario in the engine's builder `b`: the calls the
        ns-2 layer makes for `_script`'s lines, in the same order."""
        if self.seed is not None:
            b.seed(self.seed)
        if self.run_number:
            b.next_substream(self.run_number)
        if tp is True:
            b.trace_all(channel)
        bid: dict[int, int] = {}
        flowmons: dict[int, int] = {}
        tcps, sinks, usinks, voips, tfrcs, tsinks, flowobjs = [], [], [], [], [], [], []
        for op in _each_op(self._ops):
            kind = op[0]
            if kind == "qs":
                b.quickstart(list(op[1].items()))
            elif kind == "node":
                b.node()
            elif kind == "link":
                lk, duplex, qlim = op[1], op[2], op[3]
                f, r = b.link(lk.src.id, lk.dst.id, parse_bw(lk._bw_text), parse_time(lk._delay_text), lk.queue,
                              duplex, lk.codel, lk.pie, lk.fq_codel, lk.scfq)
                bid[id(lk)] = f
                if duplex:
                    bid[id(lk.reverse)] = r
                for x in ([lk, lk.reverse] if duplex else [lk]):
                    for var, text in x.queue_params.items():
                        b.set_queue_var(bid[id(x)], var, text)
                    if x.redpd is not None:
                        flowmons[id(x)] = b.redpd_flowmon(bid[id(x)], x.redpd)
                    for c in x.srr or ():
                        b.command(b.link_objs(bid[id(x)])[1], list(c))
                    for c in x.jobs or ():
                        _, q, dl, _, _ = b.link_objs(bid[id(x)])
                        if c[0] == "trace-file" and x.queue == "JoBS":
                            b.command(q, ["link", b.obj_name(dl)])
                        b.command(q, list(c))
                    if x.queue == "FQ":
                        # ns-2's FQLink (link.tcl): the queue's secsPerByte_,
                        # and the capacity of a new flow's queue, Queue/DropTail's
                        # class defaults (limit_ 50 packets, not in bytes, no
                        # drop-front, mean_pktsize_ 500)
                        b.set_queue_var(bid[id(x)], "secsPerByte_", repr(8.0 / parse_bw(x._bw_text)))
                        b.command(b.link_objs(bid[id(x)])[1], ["flow-queue", str(self._fq_flow_limit()), "false", "false",
                                                               "500"])
                        fq_kind, fq_vars = self._fq_flow_queue()
                        if fq_kind != "DropTail":
                            # a queue of that kind per flow, its class's
                            # defaults with flow_params, every variable the
                            # class binds (as link.tcl's FQLink gives them:
                            # a RED flow queue, never reset, reads its
                            # thresh_queue_ and bytes_ as `new` set them)
                            cls = f"Queue/{fq_kind}"
                            fq_all = dict(Builder.class_defaults(_defaults_text(), cls, cls))
                            fq_all.update(fq_vars)
                            b.command(b.link_objs(bid[id(x)])[1],
                                      ["flow-queue", fq_kind, *(w for vt in fq_all.items() for w in vt)])
                    for c in x.dsred or ():
                        if c[0] == "set":
                            b.set_queue_var(bid[id(x)], c[1], c[2])
                        else:
                            b.command(b.link_objs(bid[id(x)])[1], list(c))
                    if x.cbq is not None:
                        self._build_cbq(b, bid[id(x)], x)
                if qlim is not None:
                    b.queue_limit(f, qlim)
            elif kind == "qlimit":
                b.queue_limit(bid[id(op[1])], op[2])
            elif kind == "bw":
                lk, t, text = op[1:]
                # the link's delay object, as `[$l link] set bandwidth_`
                b.at_script(atof(_at_text(t)), [("set", b.link_objs(bid[id(lk)])[2], "bandwidth_", text)])
            elif kind == "qset":
                lk, t, pairs, reset = op[1:]
                q = b.link_objs(bid[id(lk)])[1]
                steps = [("set", q, var, text) for var, text in pairs] + ([("cmd", q, ["reset"])] if reset else [])
                b.at_script(atof(_at_text(t)), steps)
            elif kind == "redpd":
                lk, t, (fid, argv, sets) = op[1:]
                q = b.link_objs(bid[id(lk)])[1]
                steps = [("flows", flowmons[id(lk)], q, fid, list(argv))] + [("set", q, v, x) for v, x in sets]
                b.at_script(atof(_at_text(t)), steps)
            elif kind == "tcp":
                fl = op[1]
                trace = (channel, list(fl.trace_vars)) if fl.trace_vars else None
                stop = atof(fl._stop_text) if fl._stop_text is not None else None
                if fl.stack == "full":
                    t, s = b.full_tcp(fl.src.id, fl.dst.id, fl.engine_params, fl.params["cc"], fl.fid,
                                      bool(fl.trace_vars), atof(fl._start_text), stop)
                elif fl.app == "ftp" and fl.cc is None and fl.sink != "fulltcp":
                    t, s, _ = b.tcp_flow(fl.src.id, fl.dst.id, fl.tcp_class, list(fl.params.items()), fl.sink_class,
                                         list(fl.sink_params.items()), atof(fl._start_text), stop, trace)
                else:
                    t = b.agent(fl.tcp_class, list(fl.params.items()))
                    if fl.cc is not None:
                        b.command(t, ["select_ca", fl.cc])
                    b.attach(fl.src.id, t)
                    if trace is not None:
                        b.trace_vars(t, trace[1], channel)
                    s = b.agent(fl.sink_class, list(fl.sink_params.items()))
                    b.attach(fl.dst.id, s)
                    b.connect(t, s)
                    if fl.sink == "fulltcp":
                        b.command(s, ["listen"])
                    app = b.app(fl.app, t, list(fl.app_params.items()))
                    b.at(atof(fl._start_text), "start", app)
                    if stop is not None:
                        b.at(stop, "stop", app)
                tcps.append(t)
                sinks.append(s)
                flowobjs.append(fl)
            elif kind == "udp":
                so = op[1]
                u = b.agent("Agent/UDP", list(so.agent_params.items()))
                b.attach(so.src.id, u)
                k = b.agent(so.sink_class)
                b.attach(so.dst.id, k)
                b.connect(u, k)
                app = b.app(so.traffic, u, list(so.params.items()))
                if so.traffic == "voip":
                    voips.append((so, app))
                b.at(atof(so._start_text), "start", app)
                if so._stop_text is not None:
                    b.at(atof(so._stop_text), "stop", app)
                usinks.append(k)
            elif kind == "tfrc":
                r = op[1]
                t = b.agent("Agent/TFRC", list(r.params.items()))
                b.attach(r.src.id, t)
                k = b.agent("Agent/TFRCSink", list(r.sink_params.items()))
                b.attach(r.dst.id, k)
                b.connect(t, k)
                b.at(atof(r._start_text), "start-agent", t)
                if r._stop_text is not None:
                    b.at(atof(r._stop_text), "stop-agent", t)
                tfrcs.append(t)
                tsinks.append(k)
            elif kind == "errmodel":
                e = op[1]
                b.error_model(bid[id(e.link)], e.kind, rate=e.rate or 0.0, period=e.period or 1.0,
                              offset=e.offset or 0.0, burstlen=e.burstlen or 0.0, drops=e.drops, unit=e.unit,
                              mark_ecn=e.mark_ecn, place=e.where)
        if isinstance(tp, list):
            for lk in tp:
                b.trace_queue(bid[id(lk)], channel)
        mons = [(lk, b.monitor_queue(bid[id(lk)])) for lk in mon]
        b.at(until_s, "halt")
        scfqs = [(lk, b.link_objs(x)[1]) for lk in self._links.values() if lk.scfq is not None
                 for x in [bid[id(lk)]]]
        dsreds = [(lk, b.link_objs(bid[id(lk)])[1]) for lk in self._links.values() if lk.dsred is not None]
        return {"tcps": tcps, "sinks": sinks, "flowobjs": flowobjs, "usinks": usinks, "mons": mons, "bid": bid, "voips": voips,
                "scfqs": scfqs, "dsreds": dsreds, "tfrcs": tfrcs, "tsinks": tsinks}

    @staticmethod
    def _build_cbq(b, link: int, lk: Link) -> None:
        """A CBQ link's classes and bindings, as lib/cbq.tcl hands them to
        the scheduler for `to_tcl()`'s lines: each class's allotment as it
        prints (%g), an "auto" maxidle worked out as its `automaxidle`, a
        leaf's DropTail, RED, SFQ, DRR, PI, REM, Vq, GK, SRR or RIO queue (a
        RED or RIO one linked and reset, a REM, Vq or GK one linked, as
        to_tcl() does) blocked for the scheduler (`install-queue`)."""
        cb, q = lk.cbq, b.link_objs(link)[1]
        b.set_queue_var(link, "maxpkt_", str(cb["maxpkt"]))
        b.command(q, ["algorithm", cb["algorithm"]])
        bw = parse_bw(lk._bw_text)
        index: list[str] = []
        for c in cb["classes"]:
            qname = ""
            if c["leaf"]:
                lim = [] if c["limit"] is None else [("limit_", str(c["limit"]))]
                _, qname = b.class_queue(c["queue"], [*lim, *c["vars"], ("blocked_", "true"),
                                                      ("unblock_on_resume_", "false")], link)
            maxidle = c["maxidle"]
            if maxidle == "auto":
                maxidle = _cbq_automaxidle(c["allot"], c["priority"], bw, cb["maxpkt"])
            pidx = "-1" if c["parent"] is None else index[c["parent"]]
            index.append(b.command(q, ["cbq-class", pidx, f"{c['allot']:g}", repr(float(maxidle)), str(c["priority"]),
                                       str(c["level"]), repr(c["extradelay"]), "1" if c["borrow"] else "0", qname]))
        for i, c in enumerate(cb["classes"]):
            for fid in c["flows"]:
                b.command(q, ["cbq-bind", index[i], str(fid)])

    def run(self, until, trace_packets=False, monitor_queues=True, trace_file: str | os.PathLike | None = None,
            mode: str = "packet", *, max_events: int | None = None, max_wall: float | None = None,
            pcap: str | os.PathLike | None = None, pcap_snaplen: int = 65535):
        """Run the scenario from time 0 to `until` seconds; returns a `Result`.

        `mode="fluid"` integrates the fluid model of the scenario instead
        (dumbbell.models.fluid_scenario; docs/python-api.md) and returns a
        `FluidRun`; scenarios it does not cover raise ValueError.

        * `trace_packets`: True traces every link (ns-2 ``trace-all``); a list
          of links (`Link` objects or (node, node) pairs) traces only those
          directions (``trace-queue``); False (default) traces none.
        * `monitor_queues`: True (default) puts a queue monitor on every link
          direction (`Result.queues`); a list selects directions; False none.
        * `trace_file`: also keep the ns-2 format trace text (packet events
          and variable traces, exactly as ns-2 writes them) at this path.
        * `pcap`: a directory to write packet captures to, one pcap file per
          end of each traced link (every link if `trace_packets` is not
          given): ``A-B.pcap`` holds what node A sends to node B when its
          transmission starts and what it receives from B when it arrives,
          as IPv4 datagrams with TCP/UDP headers made from the packets
          (node n is 10.0.0.0+n+1, agent port p is 1024+p; docs/outputs.md).
          The paths are in `Result.pcap_files`.  `pcap_snaplen` keeps
          only the first bytes of each packet (1 to 65535, as tcpdump -s;
          80 keeps every header).
        * `max_events`, `max_wall`: guards against a runaway run: past this
          many events dispatched, or this many seconds of wall-clock time,
          the run stops with `RunLimitExceeded` (checked every 20 ms, so
          the run stops at the first check past the limit).

        Ctrl-C stops a run within about 20 ms and raises KeyboardInterrupt,
        even in the middle of an event that makes packets without end
        (as does `max_wall`: RunLimitExceeded).
        """
        if mode != "packet":
            if max_events is not None or max_wall is not None:
                raise ValueError("run(): max_events and max_wall apply to packet-level runs only")
            if pcap is not None:
                raise ValueError("run(): pcap applies to packet-level runs only (a fluid run has no packets)")
            from ..models.fluid_scenario import run_fluid
            return run_fluid(self, until, mode, trace_packets, monitor_queues, trace_file)
        return _without_gc(self._run, until, trace_packets, monitor_queues, trace_file, max_events, max_wall, pcap,
                           pcap_snaplen)

    def _run(self, until, trace_packets, monitor_queues, trace_file, max_events=None, max_wall=None, pcap=None,
             pcap_snaplen=65535):
        from ..analysis.results import Result

        if max_events is not None and (isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1):
            raise ValueError(f"run(): max_events must be a positive integer, got {max_events!r}")
        if max_wall is not None and (isinstance(max_wall, bool) or not isinstance(max_wall, (int, float))
                                     or not math.isfinite(max_wall) or max_wall <= 0):
            raise ValueError(f"run(): max_wall must be a positive number of seconds, got {max_wall!r}")
        if pcap is not None:
            if not isinstance(pcap, (str, os.PathLike)):
                raise ValueError(f"run(): pcap must be a directory path, got {pcap!r}")
            if (isinstance(pcap_snaplen, bool) or not isinstance(pcap_snaplen, int)
                    or not 1 <= pcap_snaplen <= 65535):
                raise ValueError(f"run(): pcap_snaplen must be 1 to 65535 bytes, got {pcap_snaplen!r}")
            if trace_packets is False:
                trace_packets = True  # captures are made at the links' trace points
        until_text, until_s, tp, mon = self._prepare(until, trace_packets, monitor_queues)
        traced = bool(tp) or any(f.trace_vars for f in self._flows)
        if trace_file is not None and not traced:
            raise ValueError("run(): trace_file was given but nothing is traced; "
                             "use trace_packets=True or trace_vars=(...) on a flow")
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
        columns = None
        try:
            try:
                b = Builder(_defaults_text())
                if recorded:
                    b.set_recorded(_CHANNEL)
                elif out is not None:  # written as it comes, even within one event (no bound in memory)
                    b.set_spill(lambda chan, data: out.write(data) if chan == _CHANNEL else None, 16 << 20)
                if pcap is not None:
                    b.pcap_start(os.fspath(pcap), "", pcap_snaplen)  # OSError if the directory cannot be made
                objs = self._build(b, _CHANNEL, tp, mon, until_s)
                if max_events is not None or max_wall is not None:
                    b.set_limits(max_events, max_wall)
                while True:
                    why = b.run()
                    for chan, data in b.drain():
                        if chan == _CHANNEL and out is not None:
                            out.write(data)
                    if why != "output":
                        break
                _warn(b.take_warnings())
                final = _collect(b, objs)
                pcap_files = [Path(f) for f in b.pcap_finish()]
            except ValueError as err:
                raise SimulationError(f"the engine refused the scenario: {err}") from None
            except BaseException as err:
                if type(err).__name__ == "PanicException":
                    raise SimulationError(f"internal error in the engine (a bug in Dumbbell): {err}") from None
                raise
            if recorded:
                from .._engine import parse_trace_bytes

                columns = (b.take_events(), parse_trace_bytes(out.getvalue())[1])
        finally:
            if out is not None:
                out.close()
        script = functools.partial(_script_text, self, until_text, tp, mon)
        res = Result._build(self, until_s, script, final, path, packets_traced=bool(tp),
                            kept=trace_file is not None, columns=columns)
        from ._fulltcp import attach_full
        attach_full(res, self, final.get("full", {}))
        res.voip = final.get("voip", {})
        res.scfq = final.get("scfq", {})
        res.diffserv = final.get("diffserv", {})
        res.pcap_files = pcap_files
        return res


# The number of arguments of each kind of operation in `Simulation._ops`.
_OP_ARITY = {"node": 1, "link": 3, "qlimit": 2, "tcp": 1, "udp": 1, "tfrc": 1, "errmodel": 1, "qs": 1, "qset": 4,
             "redpd": 3, "bw": 3}


def _each_op(ops: list):
    """The operations of a flat `_ops` list, each as (kind, args...)."""
    i, n = 0, len(ops)
    while i < n:
        k = _OP_ARITY[ops[i]]
        yield tuple(ops[i:i + 1 + k])
        i += 1 + k


def _without_gc(f, *args):
    """`f(*args)` with Python's cyclic collector paused.  A run makes
    short-lived objects and no cycles (building, reading the results back),
    but its allocations set off the collector's passes over every object of
    the scenario (several per flow): at 100,000 flows those took a sixth of
    `run()`."""
    was = gc.isenabled()
    gc.disable()
    try:
        return f(*args)
    finally:
        if was:
            gc.enable()


def _script_text(sim: Simulation, until_text: str, tp, mon) -> str:
    return "\n".join(sim._script(until_text, _CHANNEL, tp, mon)) + "\n"


# Sender variables read into Result.flows (and printed by to_tcl's script).
_FLOW_VARS = ("ack_", "maxseq_", "cwnd_", "ssthresh_", "ndatapack_", "nrexmitpack_", "packetSize_",
              "tcpip_base_hdr_size_")

_QM_VARS = ("parrivals_", "pdepartures_", "pdrops_", "barrivals_", "bdepartures_", "bdrops_", "pkts_", "size_")

_LOSSMON_VARS = ("npkts_", "bytes_", "nlost_", "lastPktTime_")
#: The counters of Application/Traffic/VoIPCalls, read after a run.
_VOIP_VARS = ("calls_started_", "calls_ended_", "calls_blocked_", "calls_", "pkts_sent_", "mean_calls_")

_TFRC_VARS = ("ndatapack_", "ndatabytes_", "rate_", "true_loss_rate_")

_warned: set[str] = set()


def _warn(msgs) -> None:
    """The engine's warnings, once per message, as the ns-2 layer prints them."""
    for m in msgs:
        if m not in _warned:
            _warned.add(m)
            sys.stderr.write(f"warning: {m}\n")


def _collect(b, objs) -> dict:
    """Final values of every flow, source and queue monitor, read from the
    engine's bound variables (the strings an ns-2 script would read)."""
    tv = b.get_vars(objs["tcps"], [*_FLOW_VARS, "agent_port_"])
    two = [f.sink == "fulltcp" for f in objs["flowobjs"]]
    sv = iter(b.get_vars([k for k, w in zip(objs["sinks"], two) if not w], ["agent_port_", "bytes_"]))
    fl = []
    for t, k, w, tcp in zip(tv, objs["sinks"], two, objs["tcps"]):
        if w:
            # ns-2's two-way TCP counts bytes and its receiver has no byte
            # counter: bytes received are the data bytes acknowledged (ack_
            # is the next byte expected; the SYN took number 0, a FIN takes
            # one more), counted in segsize_ payloads (no header)
            port = b.get_vars([k], ["agent_port_"])[0][0]
            t = list(t)
            t[6] = b.get_vars([tcp], ["segsize_"])[0][0]
            t[7] = "0"
            fl.append(t + [port, str(max(int(t[0]) - 1, 0))])
        else:
            fl.append(t + next(sv))
    from ._fulltcp import collect_full
    full = collect_full(b, objs)
    for i, v in full.items():
        fl[i] = v["flows_row"]
    qs = []
    for lk, m in objs["mons"]:
        qmon, bint, pint = b.monitor_objs(m)
        _, queue, dlink, _, _ = b.link_objs(objs["bid"][id(lk)])
        vals = (b.get_vars([qmon], list(_QM_VARS))[0] + b.get_vars([pint], ["lastx_", "lasty_", "sum_"])[0]
                + b.get_vars([bint], ["lastx_", "lasty_", "sum_"])[0]
                + b.get_vars([dlink], ["bandwidth_", "delay_"])[0] + b.get_vars([queue], ["limit_"])[0])
        qs.append((lk, vals))
    us = b.get_vars(objs["usinks"], list(_LOSSMON_VARS))
    voip = {}
    for so, app in objs.get("voips", ()):
        vals = b.get_vars([app], list(_VOIP_VARS))[0]
        voip[so.id] = {k.rstrip("_"): (float(v) if k == "mean_calls_" else int(float(v))) for k, v in zip(_VOIP_VARS, vals)}
    scfq = {}
    for lk, q in objs.get("scfqs", ()):
        per = {}
        for cid, *_ in lk.scfq["classes"]:
            w = b.command(q, ["class-stats", str(cid)]).split()
            per[cid] = {w[i].replace("-", "_"): (float if w[i] in ("mean-queue", "queue-cov") else int)(w[i + 1])
                        for i in range(0, len(w), 2)}
        scfq[(lk.src.id, lk.dst.id)] = per
    diffserv = {}
    for lk, q in objs.get("dsreds", ()):
        per = {}
        for c in lk.dsred:
            if c[0] == "addPHBEntry" and int(c[1]) not in per:
                cp = c[1]
                n = {k: int(float(b.command(q, ["getStat", k, cp]))) for k in ("pkts", "drops", "edrops")}
                per[int(cp)] = {"pkts": n["pkts"], "accepted": n["pkts"] - n["drops"] - n["edrops"], "drops": n["drops"],
                                "edrops": n["edrops"]}
        diffserv[(lk.src.id, lk.dst.id)] = per
    rv = b.get_vars(objs["tfrcs"], list(_TFRC_VARS))
    rs = b.get_vars(objs["tsinks"], ["bytes_"])
    return {"flows": fl, "queues": qs, "sources": us, "voip": voip, "scfq": scfq, "diffserv": diffserv,
            "rate_flows": [t + k for t, k in zip(rv, rs)], "full": full}
