"""Reading ns-2 trace files into data frames.

The file is parsed by the engine (Rust) in large blocks into typed columns,
then handed to polars without a Python loop over lines.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from .._engine import read_trace_columns

# Event letters in the order of their Enum codes.
EVENTS = ["+", "-", "r", "d", "h", "e", "c"]
_EVENT_CODE = np.full(256, 0, dtype=np.uint32)
for _i, _c in enumerate(EVENTS):
    _EVENT_CODE[ord(_c)] = _i


def _frame(cols) -> pl.DataFrame:
    data = {}
    for name, dtype, raw, cats in cols:
        arr = np.frombuffer(raw, dtype=np.dtype(dtype))
        if cats is not None:
            # Codes index the category names: an Enum column, no string copies.
            data[name] = pl.Series(name, arr, dtype=pl.UInt32).cast(pl.Enum(cats))
        elif name == "event":
            data[name] = pl.Series(name, _EVENT_CODE[arr], dtype=pl.UInt32).cast(pl.Enum(EVENTS))
        else:
            data[name] = pl.Series(name, arr)
    return pl.DataFrame(data)


def read_trace(path: str | Path) -> pl.DataFrame:
    """Packet events of an ns-2 trace file as a polars DataFrame.

    Columns: event (+ - r d), time, from_node, to_node, ptype, size, flags,
    fid, src_node, src_port, dst_node, dst_port, seqno, uid.  Variable-trace
    lines in the same file are skipped (see `read_vartrace`).
    """
    ev, vr, other = read_trace_columns(str(path))
    _check_is_trace(path, ev, vr, other)
    return _frame(ev)


def _check_is_trace(path, ev, vr, other: int) -> None:
    """A file with lines but not one trace record is not a trace: say so
    rather than return an empty frame (a binary, a script, the wrong file)."""
    if other and not _rows(ev) and not _rows(vr):
        raise ValueError(f"{path}: not an ns-2 trace file: none of its {other} lines is a packet event "
                         "(+ - r d ...) or a variable-trace record")


def _rows(cols) -> int:
    if not cols:
        return 0
    _, dtype, raw, _ = cols[0]
    return len(raw) // np.dtype(dtype).itemsize


def read_trace_all(path: str | Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Packet events and variable records of one file, parsed once."""
    ev, vr, other = read_trace_columns(str(path))
    _check_is_trace(path, ev, vr, other)
    return _frame(ev), _frame(vr)


def read_vartrace(path: str | Path) -> pl.DataFrame:
    """Variable-trace records (`$tcp trace cwnd_` ...) of a trace file.

    Columns: time, src_node, src_port, dst_node, dst_port, var, value.
    """
    ev, vr, other = read_trace_columns(str(path))
    _check_is_trace(path, ev, vr, other)
    return _frame(vr)
