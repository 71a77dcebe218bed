"""Traces and results as Parquet files (Apache Arrow's columnar format).

`convert_trace` streams an ns-2 trace file into Parquet: the engine reads
it strictly a chunk of lines at a time (packet events in the positional or
the tagged format, TCP's and RED's variable-trace records, `v` lines
skipped and counted), each chunk becomes one row group, and memory stays
bounded whatever the file's size.  One row per record line; a line that is
not a trace record stops the conversion with ``file:line: message`` and
leaves no output behind.  `dumbbell convert` is its command
(docs/outputs.md).

`write_frames` writes a `Result`'s frames with the run's parameters in
each file's metadata (`Result.to_parquet`).
"""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .trace import EVENTS

# Units and meanings, kept in each column's field metadata.
_PACKET_FIELDS = [
    ("event", "+ enqueue, - dequeue, r receive, d drop, h hop (tagged traces), e/c error/collision"),
    ("time", "seconds of simulated time"),
    ("from_node", "node id: the link's source"),
    ("to_node", "node id: the link's destination"),
    ("ptype", "ns-2 packet type (tcp, ack, cbr, ...)"),
    ("size", "bytes"),
    ("flags", "ns-2's seven flag characters (C ECN-echo, A CWR, E CE, N ECT, ...)"),
    ("fid", "flow id (fid_)"),
    ("src_node", "node id of the packet's source address"),
    ("src_port", "agent port of the packet's source"),
    ("dst_node", "node id of the packet's destination address"),
    ("dst_port", "agent port of the packet's destination"),
    ("seqno", "sequence number (packets)"),
    ("uid", "packet id, unique per packet"),
]
_VAR_FIELDS = [
    ("time", "seconds of simulated time"),
    ("src_node", "node id of the agent (-1 for a queue's variables)"),
    ("src_port", "agent port (-1 for a queue's variables)"),
    ("dst_node", "node id of the agent's peer (-1 for a queue's variables)"),
    ("dst_port", "port of the agent's peer (-1 for a queue's variables)"),
    ("var", "variable name (cwnd_, ssthresh_, ...; RED's curq_, ave_, prob1_, cur_max_p_)"),
    ("value", "the variable's value"),
]
# Chunks read ahead of the writer.
_AHEAD = 1
_DICT = pa.dictionary(pa.int32(), pa.string())
_TYPES = {"u1": _DICT, "f8": pa.float64(), "i4": pa.int32(), "i8": pa.int64(), "u4": _DICT}


def _schema(cols, fields) -> pa.Schema:
    about = dict(fields)
    return pa.schema([pa.field(name, _TYPES[dtype], nullable=False, metadata={"about": about[name]})
                      for name, dtype, _, _ in cols])


def _table(cols, schema: pa.Schema) -> pa.Table:
    arrays = []
    for name, dtype, raw, cats in cols:
        arr = np.frombuffer(raw, dtype=np.dtype(dtype))
        if name == "event":
            # event letters as a dictionary of the seven ns-2 event kinds
            codes = np.full(256, -1, dtype=np.int32)
            for i, c in enumerate(EVENTS):
                codes[ord(c)] = i
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(codes[arr]), pa.array(EVENTS)))
        elif cats is not None:
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(arr.view(np.int32)), pa.array(cats, pa.string())))
        else:
            arrays.append(pa.array(arr))
    return pa.Table.from_arrays(arrays, schema=schema)


def _rows(cols) -> int:
    if not cols:
        return 0
    _, dtype, raw, _ = cols[0]
    return len(raw) // np.dtype(dtype).itemsize


def _version() -> str:
    from .. import __version__

    return __version__


def convert_trace(trace: str | os.PathLike, out: str | os.PathLike, *, vars_out: str | os.PathLike | None = None,
                  row_group: int = 1_000_000, compression: str = "zstd") -> dict:
    """Convert ns-2 trace file `trace` to Parquet.

    Packet events go to `out`; variable-trace records to `vars_out`
    (default: `out` with ``.vars`` before its suffix), or to `out` when the
    trace holds no packet events.  `row_group`: lines per chunk read, each
    written as one row group.  Returns a summary: the files written and
    their row counts, lines read and skipped.  Raises ValueError
    (``file:line: message``) for a line that is not a trace record, OSError
    for a file that cannot be read or written; nothing is left behind then.
    """
    from .._engine import TraceChunks

    if isinstance(row_group, bool) or not isinstance(row_group, int) or row_group < 1:
        raise ValueError(f"row_group must be a positive number of lines, got {row_group!r}")
    if compression not in ("zstd", "snappy", "gzip", "none"):
        raise ValueError(f"compression must be zstd, snappy, gzip or none, got {compression!r}")
    trace, out = Path(trace), Path(out)
    explicit_vars = vars_out is not None
    vars_out = Path(vars_out) if explicit_vars else out.with_name(out.stem + ".vars" + (out.suffix or ".parquet"))
    if vars_out == out:
        raise ValueError(f"the variable records' file would be the packet events' file ({out})")
    for p in (out, vars_out):
        if not p.parent.is_dir():
            raise OSError(f"{p}: cannot write there: no directory {p.parent}")
    reader = TraceChunks(str(trace))
    size = trace.stat().st_size
    meta_common = {
        "dumbbell.converted_from": str(trace),
        "dumbbell.source_bytes": str(size),
        "dumbbell.converter": f"dumbbell {_version()} convert",
    }
    writers: dict[str, tuple[pq.ParquetWriter, Path, pa.Schema, Path]] = {}  # writer, part file, schema, path
    rows = {"packets": 0, "vars": 0}
    groups = {"packets": 0, "vars": 0}
    skipped = lines = 0
    comp = None if compression == "none" else compression
    # The engine reads the next chunk (without the GIL) while this thread
    # writes the last one: at most `_AHEAD` chunks wait in between.
    chunks: queue.Queue = queue.Queue(maxsize=_AHEAD)
    stop = threading.Event()

    def read_ahead():
        try:
            while not stop.is_set():
                got = reader.next_chunk(row_group)
                chunks.put(got)
                if got is None:
                    return
        except BaseException as e:  # handed to the writing thread
            chunks.put(e)

    producer = threading.Thread(target=read_ahead, name="dumbbell-convert-reader", daemon=True)
    producer.start()
    try:
        while True:
            got = chunks.get()
            if isinstance(got, BaseException):
                raise got
            if got is None:
                break
            ev, vr, other, lines = got
            skipped += other
            for kind, cols, fields, path in (("packets", ev, _PACKET_FIELDS, out), ("vars", vr, _VAR_FIELDS, vars_out)):
                n = _rows(cols)
                if not n:
                    continue
                if kind not in writers:
                    schema = _schema(cols, fields)
                    tmp = path.with_name(path.name + ".part")
                    # Dictionary pages for the string columns only: times,
                    # ids and sequence numbers are nearly unique, and trying a
                    # dictionary for them doubled the writing time.
                    dicts = [f.name for f in schema if pa.types.is_dictionary(f.type)]
                    writers[kind] = (pq.ParquetWriter(tmp, schema, compression=comp, use_dictionary=dicts), tmp,
                                     schema, path)
                w, _, schema, _ = writers[kind]
                w.write_table(_table(cols, schema), row_group_size=n)
                rows[kind] += n
                groups[kind] += 1
        if not writers:
            raise ValueError(f"{trace}: no packet events or variable records in its {lines} lines")
        written = {}
        for kind, (w, tmp, _, path) in writers.items():
            what = "ns-2 packet trace" if kind == "packets" else "ns-2 variable trace"
            w.add_key_value_metadata({**meta_common, "dumbbell.kind": kind, "dumbbell.format": what,
                                      "dumbbell.rows": str(rows[kind]), "dumbbell.source_lines": str(lines),
                                      "dumbbell.skipped_lines": str(skipped)})
            w.close()
            if kind == "vars" and "packets" not in writers and not explicit_vars:
                path = out  # a variable trace alone: its records are the output
            os.replace(tmp, path)
            written[kind] = path
    except BaseException:
        stop.set()
        while producer.is_alive():  # let the reader see the stop
            try:
                chunks.get(timeout=0.1)
            except queue.Empty:
                pass
        for w, tmp, _, _ in writers.values():
            try:
                w.close()
            except Exception:
                pass
            tmp.unlink(missing_ok=True)
        raise
    return {"files": {k: str(v) for k, v in written.items()}, "rows": {k: rows[k] for k in written},
            "row_groups": {k: groups[k] for k in written}, "lines": lines, "skipped_lines": skipped}


def write_frames(frames: dict, directory: str | os.PathLike, metadata: dict[str, str],
                 compression: str = "zstd") -> list[Path]:
    """Write polars frames as ``directory/NAME.parquet``, each with
    `metadata` (string keys and values) in its file metadata."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, df in frames.items():
        t = df.to_arrow()
        t = t.replace_schema_metadata({**(t.schema.metadata or {}), **metadata, "dumbbell.frame": name})
        p = d / f"{name}.parquet"
        pq.write_table(t, p, compression=compression)
        paths.append(p)
    return paths


def read_metadata(path: str | os.PathLike) -> dict[str, str]:
    """The ``dumbbell.*`` key-value metadata of a Parquet file written here."""
    md = pq.ParquetFile(path).metadata.metadata or {}
    return {k.decode(): v.decode() for k, v in md.items() if k.startswith(b"dumbbell.")}


# ---- dumbbell convert --------------------------------------------------------------------

CONVERT_DESCRIPTION = """\
Convert an ns-2 trace file to Parquet (Apache Arrow's columnar format), one row per
trace line: packet events (positional, or the tagged format of use-taggedtrace) with
the typed columns event, time, from_node, to_node, ptype, size, flags, fid, src_node,
src_port, dst_node, dst_port, seqno, uid; variable-trace records ($tcp trace cwnd_ ...,
RED's Q/a/p/c lines) with time, src_node, src_port, dst_node, dst_port, var, value.
A trace with both writes the variable records to OUT.vars.parquet (or --vars-output).
`v` lines (annotations, link dynamics) are skipped and counted.  The file is read in
chunks (--row-group lines each, one row group per chunk), so memory stays bounded.
The files' metadata say what they were converted from.  A line that is not a trace
record stops the conversion with FILE:LINE: message.  Read the output with
polars.read_parquet or pandas.read_parquet.  Details: docs/outputs.md."""


def _positive(text: str) -> int:
    import argparse

    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of lines, got {text!r}")
    return n


def add_command(sub) -> None:
    """Add the `convert` subcommand to an argparse subparsers object."""
    import argparse

    c = sub.add_parser("convert", help="convert an ns-2 trace file to Parquet (one row per trace line)",
                       description=CONVERT_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("trace", help="ns-2 trace file (packet events and/or variable-trace records)")
    c.add_argument("-o", "--output", required=True, metavar="OUT.parquet", help="the Parquet file to write")
    c.add_argument("--vars-output", metavar="PATH",
                   help="where variable-trace records go when the trace also has packet events "
                        "(default: OUT.vars.parquet)")
    c.add_argument("--row-group", type=_positive, default=1_000_000, metavar="LINES",
                   help="lines read per chunk, each chunk one row group (default 1000000)")
    c.add_argument("--compression", choices=("zstd", "snappy", "gzip", "none"), default="zstd",
                   help="Parquet compression (default zstd)")
    c.set_defaults(fn=cmd_convert)


def cmd_convert(a) -> int:
    import sys
    import time

    t0 = time.perf_counter()
    try:
        s = convert_trace(a.trace, a.output, vars_out=a.vars_output, row_group=a.row_group,
                          compression=a.compression)
    except (OSError, ValueError) as e:
        import re

        msg = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.filename and e.strerror else str(e)
        msg = re.sub(r" \(os error \d+\)$", "", msg)
        sys.stderr.write(f"dumbbell convert: {msg}\n")
        return 1
    dt = time.perf_counter() - t0
    what = {"packets": "packet events", "vars": "variable records"}
    for kind, path in s["files"].items():
        print(f"{path}: {s['rows'][kind]} {what[kind]} in {s['row_groups'][kind]} row group"
              f"{'' if s['row_groups'][kind] == 1 else 's'}")
    skipped = s["skipped_lines"]
    print(f"{s['lines']} lines read ({skipped} skipped: `v` or blank) in {dt:.2f} s")
    return 0
