"""Results of `Simulation.run()`: polars data frames and one-call plots."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from . import plot as _plot
from .._engine import read_trace_columns
from .trace import _frame

__all__ = ["Result", "FLOWS_SCHEMA", "VARS_SCHEMA", "QUEUES_SCHEMA", "EVENTS_SCHEMA", "SOURCES_SCHEMA",
           "RATE_FLOWS_SCHEMA"]

#: Columns of `Result.flows`.
FLOWS_SCHEMA = {
    "flow": pl.Int32,            # Flow.id: 0, 1, ... in creation order
    "variant": pl.String,        # tahoe / reno / newreno
    "sink": pl.String,           # ack-every / delack
    "src": pl.Int32,             # sender node id
    "dst": pl.Int32,             # sink node id
    "fid": pl.Int32,             # ns-2 fid_ (trace column 8)
    "ack": pl.Int64,             # ack_: highest cumulative ACK received
    "maxseq": pl.Int64,          # maxseq_: highest sequence number sent
    "cwnd": pl.Float64,          # cwnd_ at the end
    "ssthresh": pl.Int64,        # ssthresh_ at the end
    "ndatapack": pl.Int64,       # data packets sent, retransmissions included
    "nrexmitpack": pl.Int64,     # retransmitted packets
    "bytes_received": pl.Int64,  # the sink's bytes_ (in-order bytes, headers and SYN included)
    "goodput_pkts": pl.Int64,    # round(bytes_received / (packetSize_ + 40)): the book's recv count
}

#: Columns of `Result.sources` (one row per datagram source, `Simulation.udp`).
SOURCES_SCHEMA = {
    "source": pl.Int32,          # Source.id: 0, 1, ... in creation order
    "traffic": pl.String,        # cbr / exponential / pareto
    "sink": pl.String,           # loss-monitor / null
    "src": pl.Int32,
    "dst": pl.Int32,
    "fid": pl.Int32,
    "received_pkts": pl.Int64,   # the LossMonitor's npkts_ (null for a Null sink)
    "received_bytes": pl.Int64,  # its bytes_
    "lost_pkts": pl.Int64,       # its nlost_ (gaps in sequence numbers)
    "last_arrival": pl.Float64,  # its lastPktTime_
}

#: Columns of `Result.rate_flows` (one row per TFRC flow, `Simulation.tfrc`).
RATE_FLOWS_SCHEMA = {
    "flow": pl.Int32,            # RateFlow.id: 0, 1, ... in creation order
    "src": pl.Int32,
    "dst": pl.Int32,
    "fid": pl.Int32,
    "ndatapack": pl.Int64,       # the sender's ndatapack_: data packets sent
    "ndatabytes": pl.Int64,      # its ndatabytes_ (payload bytes, headers not counted)
    "rate": pl.Float64,          # its rate_ at the end, bytes/s
    "true_loss_rate": pl.Float64,  # the last report's losses / packets (true_loss_rate_)
    "bytes_received": pl.Int64,  # the sink's bytes_ (as on the wire, headers included)
}

#: Columns of `Result.vars` (one row per traced variable change).
VARS_SCHEMA = {"time": pl.Float64, "flow": pl.Int32, "var": pl.String, "value": pl.Float64}

#: Columns of `Result.queues` (one row per monitored link direction).
QUEUES_SCHEMA = {
    "src": pl.Int32,
    "dst": pl.Int32,
    "bandwidth": pl.Float64,     # bits/s
    "delay": pl.Float64,         # seconds
    "queue_limit": pl.Int64,     # packets
    "arrivals_pkts": pl.Int64,
    "departures_pkts": pl.Int64,
    "drops_pkts": pl.Int64,
    "arrivals_bytes": pl.Int64,
    "departures_bytes": pl.Int64,
    "drops_bytes": pl.Int64,
    "queue_pkts": pl.Int64,      # in the queue at the end (the packet being sent included)
    "queue_bytes": pl.Int64,
    "mean_queue_pkts": pl.Float64,   # time average over [0, until]
    "mean_queue_bytes": pl.Float64,
}

#: Columns of `Result.events` (like `dumbbell.read_trace`, plus `flow`).
EVENTS_SCHEMA = {
    "event": pl.Enum(["+", "-", "r", "d", "h", "e", "c"]),
    "time": pl.Float64,
    "from_node": pl.Int32,
    "to_node": pl.Int32,
    "ptype": pl.Enum([]),
    "size": pl.Int32,
    "flags": pl.Enum([]),
    "fid": pl.Int32,
    "src_node": pl.Int32,
    "src_port": pl.Int32,
    "dst_node": pl.Int32,
    "dst_port": pl.Int32,
    "seqno": pl.Int64,
    "uid": pl.Int64,
    "flow": pl.Int32,
}


def flow_kind(f) -> str:
    """What a flow runs, as a legend says it: its variant, with the
    congestion control its bound variables select (``windowOption_ 8`` is
    New-ECN with ``newecn_``, else HighSpeed) and ECN: "reno New-ECN",
    "newreno ECN", "reno"."""
    p = {k.rstrip("_"): str(v).strip().lower() for k, v in (getattr(f, "params", None) or {}).items()}

    def on(k):
        return p.get(k, "0") not in ("0", "false", "no", "off", "0.0", "")

    name = f.variant
    if p.get("windowOption") in ("8", "8.0"):
        return f"{name} New-ECN" if on("newecn") else f"{name} HighSpeed" + (" ECN" if on("ecn") else "")
    return f"{name} ECN" if on("ecn") else name


def _tcl_round(x: float) -> int:
    """Tcl's round(): halves away from zero."""
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def _key(node: str, port: str) -> pl.Expr:
    return pl.col(node).cast(pl.Int64) * (1 << 32) + pl.col(port).cast(pl.Int64)


def _empty(schema: dict) -> pl.DataFrame:
    return pl.DataFrame(schema=schema)


class Result:
    """What `Simulation.run()` returns.

    Attributes (polars DataFrames, schemas in `FLOWS_SCHEMA` etc.):

    * `flows`: one row per flow with its final counters;
    * `vars`: every change of a traced variable (`trace_vars=`), with ns-2's
      variable-trace precision (time to 5 decimals, cwnd_ to 3);
    * `events`: packet events (+ - r d) on the traced links, the columns of
      `dumbbell.read_trace` plus `flow` (empty without `trace_packets`);
    * `queues`: per monitored link direction, queue-monitor counters;
    * `sources`: per datagram source (`Simulation.udp`), what its sink
      received;
    * `rate_flows`: per TFRC flow (`Simulation.tfrc`), its sender's
      counters and rate and what its sink received.

    And dicts: `voip`, per VoIP-call source (`Simulation.voip_calls`, by
    its `Source.id`): calls started, ended, blocked, up at the end
    (`calls`), packets sent (`pkts_sent`), the time-average number of
    calls (`mean_calls`); `scfq`, per SCFQ link direction ((src, dst)),
    per class id: arrivals, departures, drops, early_drops, marks, and
    their bytes (arrival_bytes, ...), queued, queued_bytes, and the class
    queue's time-weighted mean length in packets (mean_queue) and its
    coefficient of variation (queue_cov) over the run; `diffserv`, per
    DiffServ queue (`dsRED/edge`, `dsRED/core`) link direction ((src,
    dst)), per code point of its PHB table: the packets that arrived with
    it (`pkts`, at an edge after marking), those it took in (`accepted`,
    ns-2's TxPkts: arrivals less drops), dropped by its limit or a
    precedence over its upper threshold (`drops`) and dropped early by RED
    (`edrops`), as ns-2's `getStat` counts them.

    Also `until`, `script` (the equivalent ns-2 script) and `trace_file`
    (the kept ns-2 trace, when `run(trace_file=...)` asked for one).
    """

    def __init__(self, flows, vars, events, queues, until, script, trace_file=None, packets_traced=False,
                 flow_objects=(), links=(), sources=None, rate_flows=None):
        self.flows: pl.DataFrame = flows
        self.vars: pl.DataFrame = vars
        self.events: pl.DataFrame = events
        self.queues: pl.DataFrame = queues
        self.sources: pl.DataFrame = sources if sources is not None else _empty(SOURCES_SCHEMA)
        self.voip: dict[int, dict] = {}
        self.scfq: dict[tuple[int, int], dict[int, dict]] = {}
        self.diffserv: dict[tuple[int, int], dict[int, dict]] = {}
        self.rate_flows: pl.DataFrame = rate_flows if rate_flows is not None else _empty(RATE_FLOWS_SCHEMA)
        self.until: float = until
        # the script's text, or a function that writes it when first asked
        self._script = script
        self.trace_file: Path | None = trace_file
        self.packets_traced: bool = packets_traced
        self._flow_objects = tuple(flow_objects)
        self.pcap_files: list[Path] = []
        """The pcap files of `run(pcap=...)`, one per traced link end."""
        self._sim = None  # the Simulation run, for to_parquet's parameters
        self.link_bandwidths: dict[tuple[int, int], float] = {
            (lk.src.id, lk.dst.id): float(lk.bandwidth) for lk in links}
        """Bandwidth in bits/s of every link direction of the simulation, by
        (source node id, destination node id), whether or not it carried
        packets (for link_utilisation and the metrics' link arguments)."""

    @property
    def script(self) -> str:
        """The ns-2 script equivalent to the run (`Simulation.to_tcl`'s,
        with the API's trace channel), written on first use."""
        if callable(self._script):
            self._script = self._script()
        return self._script

    def __repr__(self) -> str:
        from .._words import count

        return (f"Result(until={self.until:g}, {count(self.flows.height, 'flow')}, "
                f"{count(self.vars.height, 'variable record')}, "
                f"{count(self.events.height, 'packet event')}, {count(self.queues.height, 'monitored queue')})")

    # ---- construction (from the API) ------------------------------------------

    @classmethod
    def _build(cls, sim, until, script, final, trace_path, packets_traced, kept, columns=None):
        """`columns`: (event columns, variable-record columns) recorded by
        the engine; else they are read from the trace file `trace_path`."""
        flows = sim.flows
        rows = []
        endpoints = {}
        for f, v in zip(flows, final["flows"]):
            ack, maxseq, cwnd, ssthresh, ndata, nrexmit, psize, hdr, sport, dport, nbytes = v
            wire = int(psize) + int(hdr)
            nbytes = int(nbytes)
            rows.append({
                "flow": f.id, "variant": f.variant, "sink": f.sink, "src": f.src.id, "dst": f.dst.id,
                "fid": f.fid, "ack": int(ack), "maxseq": int(maxseq), "cwnd": float(cwnd),
                "ssthresh": int(ssthresh), "ndatapack": int(ndata), "nrexmitpack": int(nrexmit),
                "bytes_received": nbytes, "goodput_pkts": _tcl_round(nbytes / wire) if wire > 0 else 0,
            })
            endpoints[(f.src.id << 32) + int(sport)] = f.id
            endpoints[(f.dst.id << 32) + int(dport)] = f.id
        flows_df = pl.DataFrame(rows, schema=FLOWS_SCHEMA) if rows else _empty(FLOWS_SCHEMA)

        qrows = []
        for lk, v in final["queues"]:
            (parr, pdep, pdrop, barr, bdep, bdrop, pkts, size,
             plx, ply, psum, blx, bly, bsum, bw, delay, qsize) = v
            mp = (float(psum) + float(ply) * (until - float(plx))) / until
            mb = (float(bsum) + float(bly) * (until - float(blx))) / until
            qrows.append({
                "src": lk.src.id, "dst": lk.dst.id, "bandwidth": float(bw), "delay": float(delay),
                "queue_limit": int(qsize), "arrivals_pkts": int(parr), "departures_pkts": int(pdep),
                "drops_pkts": int(pdrop), "arrivals_bytes": int(barr), "departures_bytes": int(bdep),
                "drops_bytes": int(bdrop), "queue_pkts": int(pkts), "queue_bytes": int(size),
                "mean_queue_pkts": mp, "mean_queue_bytes": mb,
            })
        queues_df = pl.DataFrame(qrows, schema=QUEUES_SCHEMA) if qrows else _empty(QUEUES_SCHEMA)

        srows = []
        for so, v in zip(getattr(sim, "sources", ()), final.get("sources", ())):
            npk, nby, nlost, last = v if v else (None, None, None, None)
            srows.append({
                "source": so.id, "traffic": so.traffic, "sink": so.sink, "src": so.src.id, "dst": so.dst.id,
                "fid": so.fid, "received_pkts": None if npk is None else int(npk),
                "received_bytes": None if nby is None else int(nby), "lost_pkts": None if nlost is None else int(nlost),
                "last_arrival": None if last is None else float(last),
            })
        sources_df = pl.DataFrame(srows, schema=SOURCES_SCHEMA) if srows else _empty(SOURCES_SCHEMA)

        rrows = []
        for rf, v in zip(getattr(sim, "rate_flows", ()), final.get("rate_flows", ())):
            ndata, nbytes, rate, loss, received = v
            rrows.append({
                "flow": rf.id, "src": rf.src.id, "dst": rf.dst.id, "fid": rf.fid, "ndatapack": int(ndata),
                "ndatabytes": int(nbytes), "rate": float(rate), "true_loss_rate": float(loss),
                "bytes_received": int(received),
            })
        rate_df = pl.DataFrame(rrows, schema=RATE_FLOWS_SCHEMA) if rrows else _empty(RATE_FLOWS_SCHEMA)

        vars_df = _empty(VARS_SCHEMA)
        events_df = _empty(EVENTS_SCHEMA)
        if columns is None and trace_path is not None:
            columns = read_trace_columns(str(trace_path))[:2]
        if columns is not None:
            ev, vr = columns
            keys = list(endpoints)
            vals = list(endpoints.values())
            vt = _frame(vr)
            if vt.height:
                vars_df = vt.select(
                    pl.col("time"),
                    _key("src_node", "src_port").replace_strict(keys, vals, default=None,
                                                                 return_dtype=pl.Int32).alias("flow"),
                    pl.col("var").cast(pl.String),
                    pl.col("value"),
                )
            if packets_traced:
                e = _frame(ev)
                events_df = e.with_columns(
                    _key("src_node", "src_port").replace_strict(keys, vals, default=None,
                                                                 return_dtype=pl.Int32).alias("flow"))
        res = cls(flows_df, vars_df, events_df, queues_df, until, script,
                  Path(trace_path) if kept else None, packets_traced, flows, sim.links, sources_df, rate_df)
        res._sim = sim
        return res

    # ---- Parquet --------------------------------------------------------------------

    def parameters(self) -> dict:
        """The run's parameters as plain data (what `to_parquet` stores):
        `until`, `seed`, `run` (the replication: `Simulation(run=...)`), and
        the scenario's nodes, links, flows, datagram
        sources and error models as created."""
        sim = self._sim
        out: dict = {"until": self.until, "seed": getattr(sim, "seed", None), "run": getattr(sim, "run_number", 0)}
        if sim is None:
            return out
        out["nodes"] = len(sim.node_list)
        out["links"] = [_plain_obj(lk, ("src", "dst", "bandwidth", "delay", "queue", "queue_limit", "queue_params"))
                        for lk in sim.links]
        out["flows"] = [_plain_obj(f, ("id", "src", "dst", "variant", "sink", "start", "stop", "fid", "params",
                                       "sink_params", "trace_vars", "app", "app_params")) for f in sim.flows]
        out["sources"] = [_plain_obj(so, ("id", "src", "dst", "traffic", "sink", "start", "stop", "fid", "params",
                                          "agent_params")) for so in getattr(sim, "sources", ())]
        out["error_models"] = [repr(e) for e in getattr(sim, "error_models", ())]
        return out

    def to_parquet(self, directory, params: dict | None = None, *, compression: str = "zstd") -> list[Path]:
        """Write the frames as Parquet files, ``directory/flows.parquet``,
        ``vars.parquet``, ``events.parquet``, ``queues.parquet`` and
        ``sources.parquet``, each with the run in its file metadata:
        ``dumbbell.parameters`` (JSON of `parameters()`),
        ``dumbbell.params`` (JSON of `params`: yours, e.g. a sweep's point),
        ``dumbbell.script`` (the equivalent ns-2 script),
        ``dumbbell.version`` and ``dumbbell.frame``.  Returns the paths.
        Read them back with ``polars.read_parquet`` or
        ``pandas.read_parquet``, the metadata with
        `dumbbell.analysis.convert.read_metadata`."""
        import json

        from .. import __version__
        from .convert import write_frames

        if params is not None and not isinstance(params, dict):
            raise ValueError(f"to_parquet(): params must be a dict, got {params!r}")
        try:
            params_json = json.dumps(params or {}, sort_keys=True)
        except TypeError as e:
            raise ValueError(f"to_parquet(): params must be JSON data (numbers, strings, lists, dicts): {e}") from None
        meta = {"dumbbell.parameters": json.dumps(self.parameters(), sort_keys=True, default=str),
                "dumbbell.params": params_json, "dumbbell.script": self.script,
                "dumbbell.version": __version__}
        frames = {"flows": self.flows, "vars": self.vars, "events": self.events, "queues": self.queues,
                  "sources": self.sources}
        return write_frames(frames, directory, meta, compression=compression)

    # ---- conveniences -------------------------------------------------------------

    def flow(self, flow) -> dict:
        """The `flows` row of a flow (a `Flow` or its id) as a dict."""
        i = getattr(flow, "id", flow)
        if not isinstance(i, int) or not 0 <= i < self.flows.height:
            raise ValueError(f"flow(): no flow {flow!r} in this result ({self.flows.height} flows)")
        return self.flows.row(i, named=True)

    def var(self, name: str, flow=None) -> pl.DataFrame:
        """The records of one traced variable ("cwnd" or "cwnd_"): columns
        time, flow, value; optionally of one flow only."""
        name = name if name.endswith("_") else name + "_"
        traced = sorted({v for f in self._flow_objects for v in (getattr(f, "trace_vars", None) or ())})
        if traced and name not in traced:
            raise ValueError(f"var(): {name} was not traced; traced here: {', '.join(traced)} "
                             f"(trace it with sim.tcp(..., trace_vars=({name!r},)))")
        d = self.vars.filter(pl.col("var") == name)
        if flow is not None:
            d = d.filter(pl.col("flow") == getattr(flow, "id", flow))
        return d.select("time", "flow", "value")

    # ---- plots ------------------------------------------------------------------------

    def plot_cwnd(self, path=None, flows=None, var: str = "cwnd_", title: str | None = None, *, labels=None):
        """cwnd (or another traced variable) against time, one line per flow,
        labelled with what it runs (`flow_kind`: "flow 0: reno New-ECN
        0->2"), or by `labels` (a list, or a mapping by flow id or `Flow`).
        Saves to `path` (PNG/PDF/SVG by its extension, PNG at
        `dumbbell.plot.DPI`) when given; returns the matplotlib Figure.
        Needs ``trace_vars=("cwnd_",)`` on the flows."""
        _plot._check_path(path, "plot_cwnd")
        _plot._check_labels(labels, "plot_cwnd")
        if isinstance(labels, dict):
            labels = {getattr(k, "id", k): v for k, v in labels.items()}
        var = var if var.endswith("_") else var + "_"
        d = self.vars.filter(pl.col("var") == var)
        if flows is not None:
            ids = [getattr(f, "id", f) for f in (flows if isinstance(flows, (list, tuple)) else [flows])]
            d = d.filter(pl.col("flow").is_in(ids))
        if d.height == 0:
            raise ValueError(f"plot_cwnd(): no {var} records to plot; trace the variable with "
                             f"sim.tcp(..., trace_vars=({var!r},))")
        fig, ax = _plot._figure()
        by_id = {f.id: f for f in self._flow_objects}
        groups = d.partition_by("flow", maintain_order=True, as_dict=True)
        for i, ((fid,), g) in enumerate(groups.items()):
            f = by_id.get(fid)
            label = f"flow {fid}: {flow_kind(f)} {f.src.id}->{f.dst.id}" if f is not None else f"flow {fid}"
            ax.step(g["time"].to_numpy(), g["value"].to_numpy(), where="post", lw=0.8,
                    label=_plot._label(labels, i, fid, label))
        ax.set_xlabel("time (s)")
        ax.set_ylabel(_plot._var_unit(var))
        _plot._finish(fig, ax, path, title, legend=len(groups) > 1)
        _plot._plt().close(fig)
        return fig

    def plot_seqno(self, path=None, node: int | None = None, title: str | None = None, *, labels=None):
        """Sequence numbers of data packets arriving at their destination,
        and drops, against time (`dumbbell.plot.plot_seqno` on `events`).
        Needs ``run(..., trace_packets=True)`` (or the links of the path)."""
        if self.events.height == 0:
            raise ValueError("plot_seqno(): no packet events to plot; run with sim.run(..., trace_packets=True)")
        plt = _plot._plt()
        node = getattr(node, "id", node)
        fig = _plot.plot_seqno(self.events, path, node=node, title=title, labels=labels)
        plt.close(fig)
        return fig

    # ---- metrics (dumbbell.metrics on this result; docs/metrics.md) -----------------------
    # Windows default to (0, until); flows are the API's flow ids (by="flow").

    def throughput(self, window=None, *, link=None, node=None, by=None) -> pl.DataFrame:
        """Data packets delivered per flow, retransmissions included
        (`dumbbell.metrics.throughput`).  Needs packet events."""
        from . import metrics

        return metrics.throughput(self, window, link=link, node=node, by=by)

    def goodput(self, window=None, *, link=None, node=None, by=None) -> pl.DataFrame:
        """Distinct data delivered per flow (`dumbbell.metrics.goodput`)."""
        from . import metrics

        return metrics.goodput(self, window, link=link, node=node, by=by)

    def jain(self, window=None, *, metric: str = "goodput", by=None) -> float:
        """Jain's fairness index of the flows' goodput (or ``metric="throughput"``)
        over the window."""
        from . import metrics

        if metric not in ("goodput", "throughput"):
            raise ValueError(f"jain(): metric must be 'goodput' or 'throughput', got {metric!r}")
        frame = getattr(metrics, metric)(self, window, by=by)
        return metrics.jain(frame, f"{metric}_bps")

    def one_way_delay(self, window=None, *, by=None, per_packet: bool = False, acks: bool = False) -> pl.DataFrame:
        """Source-to-destination delay of data packets, or of ACKs with
        ``acks=True`` (`dumbbell.metrics.one_way_delay`)."""
        from . import metrics

        return metrics.one_way_delay(self, window, by=by, per_packet=per_packet, acks=acks)

    def drops_and_marks(self, window=None, *, link=None, by=None) -> pl.DataFrame:
        """Dropped and ECN-marked packets per flow (`dumbbell.metrics.drops_and_marks`)."""
        from . import metrics

        return metrics.drops_and_marks(self, window, link=link, by=by)

    def queue_delay(self, link, window=None, *, by=None, per_packet: bool = False) -> pl.DataFrame:
        """Time packets wait in a link direction's queue (`dumbbell.metrics.queue_delay`)."""
        from . import metrics

        return metrics.queue_delay(self, link, window, by=by, per_packet=per_packet)

    def queue_length(self, link) -> pl.DataFrame:
        """Queue length of a link direction (a `Link` or a pair of nodes) over time."""
        from . import metrics

        return metrics.queue_length(self, link)

    def time_average_queue(self, link, window=None, *, unit: str = "packets") -> float:
        """Time-averaged queue length of a link direction over the window."""
        from . import metrics

        return metrics.time_average_queue(self, link, window, unit=unit)

    def _bandwidth(self, link) -> float:
        if getattr(link, "bandwidth", None) is not None:
            return float(link.bandwidth)
        try:
            a, b = (getattr(x, "id", x) for x in link)
        except (TypeError, ValueError):
            raise ValueError(f"link_utilisation(): link must be a Link or a pair of nodes, got {link!r}") from None
        if (a, b) in self.link_bandwidths:
            return self.link_bandwidths[(a, b)]
        q = self.queues.filter(pl.col("src") == a, pl.col("dst") == b)
        if q.height:
            return float(q["bandwidth"][0])
        raise ValueError(f"link_utilisation(): no link {a}->{b} in this simulation; give bandwidth=")

    def link_utilisation(self, link, window=None, *, bandwidth=None) -> float:
        """Fraction of the window the link direction spends transmitting
        (`dumbbell.metrics.link_utilisation`); the bandwidth is the link's."""
        from . import metrics

        bw = self._bandwidth(link) if bandwidth is None else bandwidth
        return metrics.link_utilisation(self, link, bw, window)

    def lockout(self, period: float = 1.0, window=None, *, by=None, link=None, node=None,
                source: str | None = None) -> pl.DataFrame:
        """Flows that get nothing through for `period` seconds (`dumbbell.metrics.lockout`);
        from the packet events (delivered at the destination, the far end of
        `link`, or `node`), or from ack_ records with ``source="vars"``."""
        from . import metrics

        return metrics.lockout(self, period, window, by=by, link=link, node=node, source=source)

    def teeth(self, start: float = 0.0, end=None, *, granularity=None, by=None, var: str = "cwnd_",
              timeout_cwnd: float = 1.0, per_tooth: bool = False) -> pl.DataFrame:
        """Loss responses and coarse timeouts per flow from cwnd_ records
        (`dumbbell.metrics.teeth`).  Needs ``trace_vars=("cwnd_",)``."""
        from . import metrics

        return metrics.teeth(self, start, end, granularity=granularity, by=by, var=var,
                             timeout_cwnd=timeout_cwnd, per_tooth=per_tooth)

    def loss_clusters(self, granularity: float, start: float = 0.0, end=None, *, by=None, link=None,
                      var: str = "cwnd_", timeout_cwnd: float = 1.0, source: str | None = None) -> pl.DataFrame:
        """Clusters of loss responses (from cwnd_ records) or of drops (from
        packet events) at the book's granularity (`dumbbell.metrics.loss_clusters`)."""
        from . import metrics

        return metrics.loss_clusters(self, granularity, start, end, by=by, link=link, var=var,
                                     timeout_cwnd=timeout_cwnd, source=source)

    def goodput_series(self, bin: float = 1.0, window=None, *, by=None, groups=None, link=None,
                       node=None) -> pl.DataFrame:
        """Goodput per flow or per group of flows in time bins
        (`dumbbell.metrics.goodput_series`).  Needs packet events."""
        from . import metrics

        return metrics.goodput_series(self, bin, window, by=by, groups=groups, link=link, node=node)

    def ack_progress(self, window=None, *, by=None, var: str = "ack_") -> pl.DataFrame:
        """Increase of each flow's traced ``ack_`` over the window
        (`dumbbell.metrics.ack_progress`).  Needs ``trace_vars=("ack_",)``."""
        from . import metrics

        return metrics.ack_progress(self, window, by=by, var=var)

    def plot_ack_seqno(self, path=None, title: str | None = None, flows=None, *, labels=None):
        """ACK numbers arriving at each sender against time (seed 000 Fig 4.2
        style), from the packet events or else the ack_ records; legend texts
        say what each flow runs ("flow 0: reno New-ECN"), or `labels`."""
        if labels is None and self._flow_objects:
            labels = {f.id: f"flow {f.id}: {flow_kind(f)}" for f in self._flow_objects}
        fig = _plot.plot_ack_seqno(self, path, title, flows=flows, labels=labels)
        _plot._plt().close(fig)
        return fig

    def plot_queue(self, link, path=None, title: str | None = None, **options):
        """Queue length of a link direction with its drops and ECN marks
        (`dumbbell.plot.plot_queue`; options: unit, window, average,
        queue_limit, markers, max_markers, red_average, labels)."""
        if "queue_limit" not in options and getattr(link, "queue_limit", None) is not None:
            options["queue_limit"] = link.queue_limit
        fig = _plot.plot_queue(self, link, path, title, **options)
        _plot._plt().close(fig)
        return fig

    def class_series(self, link, classes=None, bin: float = 1.0, window=None, *, by="fid") -> pl.DataFrame:
        """Per-class dequeued bytes, throughput, queueing delay and drops in
        time bins at a link direction's queue (`dumbbell.metrics.class_series`).
        `classes` defaults to the link's scheduler's: a CBQ link's leaves
        (their bound fids), an SCFQ link's classes (`classify`, the default
        class taking the other fids seen there)."""
        from . import metrics

        if classes is None:
            classes = self._scheduler_classes(link, "class_series")
        return metrics.class_series(self, link, classes, bin, window, by=by)

    def _scheduler_classes(self, link, fn: str) -> dict:
        cbq, scfq = getattr(link, "cbq", None), getattr(link, "scfq", None)
        if cbq:
            return {c["name"]: list(c["flows"]) for c in cbq["classes"] if c["leaf"] and c["flows"]}
        if scfq:
            out = {f"class {cid}": [f for f, c in scfq["classify"] if c == cid] for cid, *_ in scfq["classes"]}
            dc = scfq["default_class"]
            if dc is not None:
                seen = self.events.filter(pl.col("from_node") == link.src.id, pl.col("to_node") == link.dst.id)
                listed = {f for f, _ in scfq["classify"]}
                out[f"class {dc}"] += sorted(set(seen["fid"].unique().to_list()) - listed)
            return {k: v for k, v in out.items() if v}
        raise ValueError(f"{fn}(): the link's queue ({getattr(link, 'queue', link)!r}) has no classes of its own "
                         f"(CBQ or SCFQ); give classes={{name: [fid, ...]}}")

    def plot_classes(self, link, path=None, title: str | None = None, classes=None, **options):
        """Per-class throughput and mean queueing delay at a link direction's
        queue against time (`dumbbell.plot.plot_classes`; options: bin,
        window, by, labels, delay_unit); `classes` as in `class_series`.
        Needs packet events."""
        if classes is None:
            classes = self._scheduler_classes(link, "plot_classes")
        fig = _plot.plot_classes(self, link, classes, path, title, **options)
        _plot._plt().close(fig)
        return fig

    def plot_goodput_groups(self, groups, path=None, title: str | None = None, **options):
        """Goodput per group of flows against time (seed 001 Fig 4.16 style;
        `dumbbell.plot.plot_goodput_groups`; options: bin, window, per_flow, labels).
        `groups` maps a name to flows (`Flow` objects or ids)."""
        fig = _plot.plot_goodput_groups(self, groups, path, title, **options)
        _plot._plt().close(fig)
        return fig


def _plain(v):
    """A scenario value as JSON data: nodes by id, mappings as dicts."""
    if hasattr(v, "id") and hasattr(v, "sim"):
        return v.id
    if isinstance(v, dict) or hasattr(v, "items"):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def _plain_obj(o, attrs) -> dict:
    return {a: _plain(getattr(o, a, None)) for a in attrs}
