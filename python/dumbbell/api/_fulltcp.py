"""The full, two-way TCP (the engine's `socket` module, after ns-3.37's
TcpSocketBase) as a flow of `Simulation.tcp(..., stack="full")`: its
parameters checked with their units, the flow object, and the frames its
run gives (docs/full-tcp.md)."""

from __future__ import annotations

import math
import numbers
import re

from .._engine import full_congestion_control_error, full_congestion_controls
from ._values import _is_number, _parse_bandwidth, _parse_time

#: Congestion controls the full TCP runs (the engine's cc/ seam, ns-3
#: dialect), and each one's attributes with their defaults (`cc_params`).
FULL_CC_PARAMS = {name: dict(params) for name, params in full_congestion_controls()}
FULL_CCS = tuple(FULL_CC_PARAMS)
#: Loss recovery kinds (ns-3's TcpClassicRecovery, TcpPrrRecovery).
FULL_RECOVERIES = ("classic", "prr")
#: PRR's reduction bounds (TcpPrrRecovery::ReductionBound).
PRR_BOUNDS = ("ssrb", "crb")

#: Traceable variables of a full-TCP flow: name -> (engine trace code, what).
#: ``cwnd_``/``ssthresh_`` are in segments (bytes / MSS), like the ns-2
#: TCP's, so plot_cwnd and the window metrics read both kinds of flow.
FULL_TRACE_VARS = {
    "cwnd_": (0, "segments"),
    "cwnd_bytes_": (0, "bytes"),
    "cwnd_inflated_bytes_": (1, "bytes"),
    "ssthresh_": (2, "segments"),
    "ssthresh_bytes_": (2, "bytes"),
    "srtt_": (3, "s"),
    "bytes_in_flight_": (4, "bytes"),
    "cong_state_": (5, "0 open, 1 disorder, 2 cwr, 3 recovery, 4 loss"),
}

_SIZE_RE = re.compile(r"^([0-9.eE+-]+)\s*(B|KB|KiB|MB|MiB|GB|GiB)?$")
_SIZE_MULT = {None: 1, "B": 1, "KB": 1000, "KiB": 1024, "MB": 10**6, "MiB": 2**20, "GB": 10**9, "GiB": 2**30}


def _bytes(value, what: str, lo: int = 1, hi: int = 2**32 - 1) -> int:
    """A byte count: an integer or a string such as "16MiB", "128KB"."""
    x = None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        x = int(value)
    elif isinstance(value, str):
        m = _SIZE_RE.match(value.strip())
        if m is not None:
            try:
                f = float(m.group(1)) * _SIZE_MULT[m.group(2)]
            except ValueError:
                f = math.nan
            if math.isfinite(f) and f == int(f):
                x = int(f)
    if x is None:
        raise ValueError(f"{what} must be a whole number of bytes or a string such as '16MiB' or '128KB', "
                         f"got {value!r}")
    if not lo <= x <= hi:
        raise ValueError(f"{what} must be {lo} to {hi} bytes, got {value!r}")
    return x


def _count(value, what: str, lo: int = 1, hi: int = 2**31 - 1) -> int:
    if not (isinstance(value, numbers.Integral) and not isinstance(value, bool)) or not lo <= int(value) <= hi:
        raise ValueError(f"{what} must be a whole number from {lo} to {hi}, got {value!r}")
    return int(value)


def _flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be True or False, got {value!r}")
    return value


def _seconds(value, what: str) -> float:
    x = _parse_time(value, what)[1]
    if x <= 0:
        raise ValueError(f"{what} must be positive, got {value!r}")
    return x


def full_params(params: dict) -> tuple[str, list[tuple[str, float]], dict]:
    """Check `Simulation.tcp(stack="full")`'s parameters.  Returns the
    congestion control, the engine's (name, number) pairs, and the values as
    given back in plain units (the flow's `params`)."""
    w = 'tcp(stack="full")'
    p = dict(params)
    cc = p.pop("cc", "newreno")
    if not isinstance(cc, str) or cc.lower() not in FULL_CCS:
        raise ValueError(f"{w}: unknown cc {cc!r}; the full TCP has {', '.join(FULL_CCS)}")
    cc = cc.lower()
    ccp = p.pop("cc_params", None)
    if ccp is not None:
        if not isinstance(ccp, dict):
            raise ValueError(f"{w}: cc_params must be a dict of {cc}'s parameters, got {ccp!r}")
        for k, v in ccp.items():
            if k not in FULL_CC_PARAMS[cc]:
                raise ValueError(f"{w}: {cc} has no parameter {k!r}; its parameters: "
                                 f"{', '.join(FULL_CC_PARAMS[cc]) or 'none'}")
            if not (isinstance(v, numbers.Integral) and not isinstance(v, bool)) or not 0 <= int(v) <= 2**31 - 1:
                raise ValueError(f"{w}: cc_params[{k!r}] must be a whole number from 0 to 2147483647, got {v!r}")
        ccp = {k: int(v) for k, v in ccp.items()}
        err = full_congestion_control_error(cc, list(ccp.items()))
        if err is not None:
            raise ValueError(f"{w}: {err}")
    rec = p.pop("recovery", "prr")
    if not isinstance(rec, str) or rec.lower() not in FULL_RECOVERIES:
        raise ValueError(f"{w}: unknown recovery {rec!r}; choose {', '.join(FULL_RECOVERIES)}")
    rec = rec.lower()
    bound = p.pop("reduction_bound", None)
    if bound is not None:
        if rec != "prr":
            raise ValueError(f"{w}: reduction_bound is PRR's; it needs recovery='prr', got recovery={rec!r}")
        if not isinstance(bound, str) or bound.lower() not in PRR_BOUNDS:
            raise ValueError(f"{w}: unknown reduction_bound {bound!r}; choose {', '.join(PRR_BOUNDS)}")
    out: dict[str, float] = {}
    plain: dict = {"cc": cc, "recovery": rec}
    if rec == "prr":
        plain["reduction_bound"] = (bound or "ssrb").lower()
    # the engine's code: 0 classic, 1 PRR with SSRB, 2 PRR with CRB
    out["recovery"] = 0.0 if rec == "classic" else 1.0 + PRR_BOUNDS.index(plain["reduction_bound"])
    if ccp:
        plain["cc_params"] = dict(ccp)
        for k, v in ccp.items():
            out[f"cc.{k}"] = float(v)
    ts = _flag(p.pop("timestamps", True), f"{w}: timestamps")
    out["timestamps"] = float(ts)
    plain["timestamps"] = ts
    sack = _flag(p.pop("sack", True), f"{w}: sack")
    out["sack"] = float(sack)
    plain["sack"] = sack
    ecn = p.pop("ecn", False)
    modes = {False: "off", True: "on", "off": "off", "on": "on", "accept_only": "accept_only", "accecn": "accecn"}
    if not isinstance(ecn, (bool, str)) or (ecn.lower() if isinstance(ecn, str) else ecn) not in modes:
        raise ValueError(f"{w}: ecn must be True, False, 'on', 'off', 'accept_only' (ns-3's UseEcn) or 'accecn' "
                         f"(Accurate ECN, RFC 9768), got {ecn!r}")
    plain["ecn"] = modes[ecn.lower() if isinstance(ecn, str) else ecn]
    out["ecn"] = float(("off", "on", "accept_only", "accecn").index(plain["ecn"]))
    mss, mtu = p.pop("mss", None), p.pop("mtu", None)
    if mss is not None and mtu is not None:
        raise ValueError(f"{w}: give mss or mtu, not both")
    if mss is not None:
        m = _count(mss, f"{w}: mss", 1, 65000)
    else:
        mt = 1500 if mtu is None else _count(mtu, f"{w}: mtu", 68, 65535)
        m = mt - 40 - (12 if ts else 0)
        if m < 1:
            raise ValueError(f"{w}: mtu {mtu!r} leaves no room for data")
        if mtu is not None:
            plain["mtu"] = mt
    out["mss"] = out["send_size"] = float(m)
    plain["mss"] = m
    for name in ("window_scaling", "limited_transmit"):
        if name in p:
            v = _flag(p.pop(name), f"{w}: {name}")
            out[name] = float(v)
            plain[name] = v
    for name, lo, hi in (("delack_count", 1, 2**16), ("initial_cwnd", 1, 2**20), ("retx_thresh", 1, 2**16),
                         ("data_retries", 0, 2**31 - 1), ("syn_retries", 1, 30), ("link_overhead", 0, 2**12)):
        if name in p:
            out[name] = float(plain.setdefault(name, _count(p.pop(name), f"{w}: {name}", lo, hi)))
    for name in ("delack_timeout", "min_rto", "initial_rtt", "clock_granularity", "conn_timeout"):
        if name in p:
            out[name] = plain[name] = _seconds(p.pop(name), f"{w}: {name}")
    if "initial_ssthresh" in p:
        v = p.pop("initial_ssthresh")
        if v is not None:
            out["initial_ssthresh"] = float(_bytes(v, f"{w}: initial_ssthresh (bytes)"))
            plain["initial_ssthresh"] = int(out["initial_ssthresh"])
    for name in ("snd_buf", "rcv_buf"):
        if name in p:
            b = _bytes(p.pop(name), f"{w}: {name}", m)
            out[name] = float(b)
            plain[name] = b
    # pacing (ns-3's TcpSocketState EnablePacing, MaxPacingRate, PacingSsRatio,
    # PacingCaRatio, PaceInitialWindow); BBR turns it on itself, and Prague
    # paces by default as Linux's tcp_prague does (its own rate equation)
    pacing = _flag(p.pop("pacing", cc in ("bbr", "prague")), f"{w}: pacing")
    if cc == "bbr" and not pacing:
        raise ValueError(f"{w}: cc 'bbr' paces its packets (ns-3's TcpBbr turns pacing on); pacing=False "
                         f"cannot be had with it")
    if pacing:
        out["pacing"] = 1.0
        plain["pacing"] = True
    pacing_opts = {k: p.pop(k) for k in ("max_pacing_rate", "pacing_ss_ratio", "pacing_ca_ratio",
                                          "pace_initial_window") if k in p}
    if pacing_opts and not pacing:
        raise ValueError(f"{w}: {sorted(pacing_opts)[0]} is a pacing parameter; it needs pacing=True")
    for name in ("pacing_ss_ratio", "pacing_ca_ratio"):
        if cc == "prague" and name in pacing_opts:
            raise ValueError(f"{w}: {name} does not apply to cc 'prague': its rate is tcp_prague's, 200% of "
                             f"cwnd/SRTT in slow start and 100% after, whatever the ratios")
    if "max_pacing_rate" in pacing_opts:
        bps = _parse_bandwidth(pacing_opts["max_pacing_rate"], f"{w}: max_pacing_rate")[1]
        if not 1 <= bps <= 2**63:
            raise ValueError(f"{w}: max_pacing_rate must be 1 bit/s to 2**63 bit/s, got "
                             f"{pacing_opts['max_pacing_rate']!r}")
        out["max_pacing_rate"] = float(int(bps))
        plain["max_pacing_rate"] = int(bps)
    for name in ("pacing_ss_ratio", "pacing_ca_ratio"):
        if name in pacing_opts:
            out[name] = float(plain.setdefault(name, _count(pacing_opts[name], f"{w}: {name} (percent)", 1, 65535)))
    if "pace_initial_window" in pacing_opts:
        v = _flag(pacing_opts["pace_initial_window"], f"{w}: pace_initial_window")
        out["pace_initial_window"] = float(v)
        plain["pace_initial_window"] = v
    if "max_bytes" in p:
        out["max_bytes"] = float(_bytes(p.pop("max_bytes"), f'{w}: max_bytes', 0, 2**53))
        plain["max_bytes"] = int(out["max_bytes"])
    # ns-3's BulkSend SendSize (512): where its rate sampler tests for an
    # application-limited sender (the data still goes in whole segments)
    if "send_size" in p:
        plain["send_size"] = _count(p.pop("send_size"), f"{w}: send_size", 1, 2**31 - 1)
    out["app_write"] = float(plain.get("send_size", 512))
    if p:
        known = sorted(["cc", "cc_params", "recovery", "reduction_bound", "timestamps", "sack", "ecn", "mss", "mtu", "window_scaling", "limited_transmit",
                        "delack_count", "initial_cwnd", "retx_thresh", "data_retries", "syn_retries", "link_overhead",
                        "delack_timeout", "min_rto", "initial_rtt", "clock_granularity", "conn_timeout",
                        "initial_ssthresh", "snd_buf", "rcv_buf", "max_bytes", "send_size", "pacing", "max_pacing_rate",
                        "pacing_ss_ratio", "pacing_ca_ratio", "pace_initial_window"])
        raise ValueError(f"{w}: unknown parameter {sorted(p)[0]!r}; the full TCP takes {', '.join(known)}")
    return cc, sorted(out.items()), plain


def full_trace_vars(trace_vars) -> tuple[str, ...]:
    w = 'tcp(stack="full")'
    if isinstance(trace_vars, str):
        trace_vars = (trace_vars,)
    out: list[str] = []
    try:
        items = list(trace_vars)
    except TypeError:
        raise ValueError(f"{w}: trace_vars must be a variable name or a list of them, got {trace_vars!r}") from None
    for v in items:
        if not isinstance(v, str):
            raise ValueError(f"{w}: trace_vars must be variable names, got {v!r}")
        name = v if v.endswith("_") else v + "_"
        if name not in FULL_TRACE_VARS:
            raise ValueError(f"{w}: cannot trace {v!r}; traceable variables of the full TCP: "
                             f"{', '.join(FULL_TRACE_VARS)}")
        if name not in out:
            out.append(name)
    return tuple(out)


def stats_row(vals: list[float], state: str, rstats: list[float]) -> dict:
    """The `flows` row values of a full-TCP flow from its two ends' counters
    (Builder.full_tcp_stats): ack, maxseq and bytes in bytes; cwnd and
    ssthresh in segments."""
    (data, rexmit, recov, rtos, _acks, _rx, _est, cwnd, ssthresh, srtt, rto, inflight, mss) = vals[:13]
    return {"ndatapack": int(data), "nrexmitpack": int(rexmit), "cwnd": cwnd / mss,
            "ssthresh": int(min(ssthresh, 2**31 - 1) // mss), "bytes_received": int(rstats[5]),
            "fast_recoveries": int(recov), "timeouts": int(rtos), "srtt": srtt, "rto": rto,
            "bytes_in_flight": int(inflight), "state": state, "mss": int(mss),
            "ecn_reductions": int(vals[16]) if len(vals) > 16 else 0}


def trace_rows(times, codes, values, flow: int, names: tuple[str, ...], mss: float):
    """The rows (time, flow, var, value) of the requested variables."""
    out_t, out_f, out_v, out_x = [], [], [], []
    want = [(n, FULL_TRACE_VARS[n]) for n in names]
    for t, c, x in zip(times, codes, values):
        for n, (code, unit) in want:
            if code == c:
                out_t.append(t)
                out_f.append(flow)
                out_v.append(n)
                out_x.append(x / mss if unit == "segments" else x)
    return out_t, out_f, out_v, out_x


def full_flow(sim, stack, src, dst, variant, sink, start, stop, packet_size, window, flow_id, trace_vars,
              sink_params, app, app_params, params):
    """`Simulation.tcp(..., stack="full")`: check, make and register the flow."""
    from ._sim import Flow

    w = 'tcp(stack="full")'
    if stack != "full":
        raise ValueError(f"tcp(): unknown stack {stack!r}; choose 'ns2' or 'full'")
    given = {"variant": (variant, "reno"), "sink": (sink, "ack-every"), "packet_size": (packet_size, None),
             "window": (window, None), "sink_params": (sink_params, None), "app": (app, "ftp"),
             "app_params": (app_params, None)}
    instead = {"variant": "cc=", "packet_size": "mss= or mtu=", "window": "rcv_buf= / snd_buf=",
               "app": "max_bytes= (the bulk sender)", "sink": "(its sink is a packet sink)",
               "sink_params": "(its sink is a packet sink)", "app_params": "max_bytes="}
    for name, (v, default) in given.items():
        if v != default and not (name == "variant" and isinstance(v, str) and v.lower() in FULL_CCS):
            raise ValueError(f"{w}: {name} is an ns-2 TCP parameter; the full TCP takes {instead[name]}")
    if isinstance(variant, str) and variant.lower() in FULL_CCS and "cc" not in params:
        params = {**params, "cc": variant.lower()}
    st = _parse_time(start, f"{w}: start")
    sp = None
    if stop is not None:
        sp = _parse_time(stop, f"{w}: stop")
        if sp[1] <= st[1]:
            raise ValueError(f"{w}: stop ({stop!r}) must be later than start ({start!r})")
    fid = len(sim._flows) if flow_id is None else _count(flow_id, f"{w}: flow_id", 0)
    cc, engine, plain = full_params(params)
    tv = full_trace_vars(trace_vars)
    f = Flow(sim, len(sim._flows), src, dst, f"full-{cc}", "packet-sink", st, sp, fid, plain, {}, tv,
             "bulk", {}, stack="full", engine_params=engine)
    sim._flows.append(f)
    sim._ops += ("tcp", f)
    return f


def collect_full(b, objs) -> dict:
    """Each full-TCP flow's counters, by its index in the flows, with the
    row `Result.flows` reads (the ns-2 flows' variables, as strings)."""
    out = {}
    for i, fl in enumerate(objs.get("flowobjs", ())):
        if fl.stack != "full":
            continue
        t, k = objs["tcps"][i], objs["sinks"][i]
        sv, sstate = b.full_tcp_stats(t)
        rv, rstate = b.full_tcp_stats(k)
        mss = sv[12]
        hdr = 40 + (12 if fl.params.get("timestamps", True) else 0)
        # (ack_, maxseq_, cwnd_, ssthresh_, ndatapack_, nrexmitpack_, packetSize_,
        #  tcpip_base_hdr_size_, agent_port_) + (sink agent_port_, bytes_): bytes for
        # ack/maxseq (the last byte acknowledged / sent), segments for the windows
        row = (str(int(sv[13]) - 1), str(int(sv[14]) - 1), repr(sv[7] / mss), str(int(min(sv[8], 2**31 - 1) // mss)),
               str(int(sv[0])), str(int(sv[1])), str(int(mss)), str(hdr), str(int(sv[15])), str(int(rv[15])),
               str(int(rv[5])))
        out[i] = {"flows_row": row, "sender": stats_row(sv, sstate, rv), "receiver_state": rstate,
                  "trace": b.full_tcp_trace(t) if fl.trace_vars else None, "established": sv[6]}
    return out


def attach_full(res, sim, full: dict) -> None:
    """Add the full-TCP flows' counters (`Result.full_tcp`) and their traced
    variables (rows of `Result.vars`) to a result."""
    import polars as pl

    rows = []
    vt, vf, vv, vx = [], [], [], []
    for i, v in sorted(full.items()):
        fl = sim._flows[i]
        s = v["sender"]
        dur = res.until - fl.start
        rows.append({"flow": fl.id, "cc": fl.params["cc"], "src": fl.src.id, "dst": fl.dst.id,
                     "start": fl.start, "established": v["established"], "bytes_received": s["bytes_received"],
                     "goodput_bps": s["bytes_received"] * 8.0 / dur if dur > 0 else 0.0,
                     "data_segments": s["ndatapack"], "retransmissions": s["nrexmitpack"],
                     "fast_recoveries": s["fast_recoveries"], "timeouts": s["timeouts"],
                     "ecn_reductions": s["ecn_reductions"], "cwnd_bytes": int(s["cwnd"] * s["mss"]),
                     "ssthresh_bytes": int(s["ssthresh"] * s["mss"]), "srtt": s["srtt"], "rto": s["rto"],
                     "bytes_in_flight": s["bytes_in_flight"], "mss": s["mss"], "state": s["state"],
                     "receiver_state": v["receiver_state"]})
        if v["trace"] is not None:
            t, f, n, x = trace_rows(*v["trace"], fl.id, fl.trace_vars, float(s["mss"]))
            vt += t
            vf += f
            vv += n
            vx += x
    res.full_tcp = pl.DataFrame(rows, schema=_schema())
    if vt:
        extra = pl.DataFrame({"time": vt, "flow": vf, "var": vv, "value": vx},
                             schema={"time": pl.Float64, "flow": pl.Int32, "var": pl.String, "value": pl.Float64})
        v0 = res.vars.select("time", "flow", "var", "value").cast(
            {"time": pl.Float64, "flow": pl.Int32, "var": pl.String, "value": pl.Float64})
        res.vars = pl.concat([v0, extra]).sort("time", maintain_order=True)


def _schema():
    import polars as pl

    return {"flow": pl.Int32, "cc": pl.String, "src": pl.Int32, "dst": pl.Int32, "start": pl.Float64,
            "established": pl.Float64, "bytes_received": pl.Int64, "goodput_bps": pl.Float64,
            "data_segments": pl.Int64, "retransmissions": pl.Int64, "fast_recoveries": pl.Int64,
            "timeouts": pl.Int64, "ecn_reductions": pl.Int64, "cwnd_bytes": pl.Int64, "ssthresh_bytes": pl.Int64, "srtt": pl.Float64,
            "rto": pl.Float64, "bytes_in_flight": pl.Int64, "mss": pl.Int32, "state": pl.String,
            "receiver_state": pl.String}
