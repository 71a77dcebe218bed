"""ns-2's wireless trace, in use-newtrace's format (``s -t 0.1 -Hs 0 -Hd -2
-Ni 0 ... -Nl AGT -Nw --- ... -It cbr -Il 512 ...``) or the old CMU one
(``s 0.1 _0_ AGT  --- 0 cbr 512 [0 0 0 0] ------- [0:0 5:0 32 0] [0] 0
0``), read into frames: one row per packet event (`s` sent, `r`
received, `f` forwarded, `d` dropped; the old format's ``D`` too) and
one per movement line (``M``).  The DSR agent's own lines (``Sconfig``,
``SFs``, ``Ssalv``, ``SSendFailure``...: its notes, not packet events)
are passed over.

Columns of the packet frame: event, time, node (``-Ni``), x, y (``-Nx``,
``-Ny``), layer (``-Nl``: AGT, RTR, MAC, IFQ), reason (``-Nw``: ``---`` or
a drop reason such as COL, RET, CBK, NRTE, IFQ, ARP), uid (``-Ii``), ptype
(``-It``: cbr, tcp, ack, AODV, message, ARP...), size (``-Il``), src, sport,
dst, dport (``-Is``/``-Id`` ``node.port``; -1 is broadcast), ttl (``-Iv``),
flow (``-If``), next_hop (``-Hd``), seqno (CBR's ``-Pi``, TCP's ``-Ps``;
null for others), mac_type (``-Mt``, hex).  A MAC frame without an IP
header (RTS, CTS, ACK) has nulls there.  The old format has no position
and no flow id (x, y, flow are null); its control frames keep their
uid, type and size.  The format is told by the first packet line."""

from __future__ import annotations

import re
from pathlib import Path

# (flag, column, kind): the packet frame's columns read from each line
_FIELDS = (("-t", "time", "f"), ("-Ni", "node", "i"), ("-Nx", "x", "f"), ("-Ny", "y", "f"), ("-Nl", "layer", "s"),
           ("-Nw", "reason", "s"), ("-Ii", "uid", "i"), ("-It", "ptype", "s"), ("-Il", "size", "i"),
           ("-Iv", "ttl", "i"), ("-If", "flow", "i"), ("-Hd", "next_hop", "i"), ("-Mt", "mac_type", "s"))
# the fields every packet line has (a MAC frame without an IP header lacks the rest)
_REQUIRED = ("time", "node", "x", "y", "layer", "reason", "next_hop")


def _bad(where: str, no: int, line: str, why: str):
    return ValueError(f"{where}:{no}: cannot read this line of a wireless trace ({why}): {line[:120]!r}")


def parse_wireless_trace(text: str, where: str = "trace"):
    """The packet events and movements of a wireless trace's `text` (either
    format), as two polars frames (packets, movements), read with polars'
    string kernels (seed 002's 32,702 lines in 0.2 to 0.3 s)."""
    import polars as pl

    lines = pl.Series("line", text.split("\n"), dtype=pl.Utf8)
    # (a DSR agent's notes start with S and a letter: not packet events)
    df = (pl.DataFrame([lines]).with_row_index("no", offset=1)
          .filter((pl.col("line") != "") & ~pl.col("line").str.contains(r"^S[A-Za-z]")))
    ev = pl.col("line").str.slice(0, 1)
    is_move = pl.col("line").str.starts_with("M ")
    is_pkt = ev.is_in(["s", "r", "f", "d"]) & pl.col("line").str.slice(1, 4).eq(" -t ")
    first = df.filter(~is_move).head(1)
    if not first.is_empty() and _OLD.match(first["line"][0]):
        return _parse_old(df.filter(~is_move), where), _moves(df.filter(is_move), where)
    other = df.filter(~is_move & ~is_pkt)
    if not other.is_empty():
        no, line = other.row(0)
        raise _bad(where, no, line, "not a packet line of use-newtrace's format")
    pk = df.filter(is_pkt)
    cols = [pl.col("no"), ev.alias("event")]
    for flag, name, kind in _FIELDS:
        e = pl.col("line").str.extract(rf"(?:^|\s){flag} (\S+)", 1)
        cols.append(e.alias(name))
    for end in ("s", "d"):
        a = pl.col("line").str.extract(rf"\s-I{end} (-?\d+)\.(\d+)", 1)
        b = pl.col("line").str.extract(rf"\s-I{end} (-?\d+)\.(\d+)", 2)
        cols += [a.alias("src" if end == "s" else "dst"), b.alias("sport" if end == "s" else "dport")]
    line = pl.col("line")
    cols.append(pl.when(line.str.contains(r"\s-It cbr\s")).then(line.str.extract(r"\s-Pi (\S+)", 1))
                .when(line.str.contains(r"\s-It (?:tcp|ack)\s")).then(line.str.extract(r"\s-Ps (\S+)", 1))
                .otherwise(None).alias("seqno"))
    raw = pk.select(cols + [pl.col("line")])
    missing = raw.filter(pl.any_horizontal(pl.col(c).is_null() for c in _REQUIRED))
    if not missing.is_empty():
        r = missing.row(0, named=True)
        raise _bad(where, r["no"], r["line"], "a field is missing")
    ints = ("node", "uid", "size", "ttl", "flow", "next_hop", "src", "sport", "dst", "dport", "seqno")
    try:
        out = raw.select(
            "event", pl.col("time").cast(pl.Float64, strict=True), pl.col("node").cast(pl.Int64, strict=True),
            pl.col("x").cast(pl.Float64, strict=True), pl.col("y").cast(pl.Float64, strict=True), "layer", "reason",
            *[pl.col(c).cast(pl.Int64, strict=True) for c in ("uid",)], "ptype",
            *[pl.col(c).cast(pl.Int64, strict=True) for c in ("size", "src", "sport", "dst", "dport", "ttl", "flow",
                                                              "next_hop", "seqno")],
            "mac_type")
    except pl.exceptions.InvalidOperationError:
        # find the line: the first whose numbers do not parse
        for r in raw.iter_rows(named=True):
            try:
                float(r["time"]), float(r["x"]), float(r["y"])
                [int(r[c]) for c in ints if r[c] is not None]
            except ValueError as e:
                raise _bad(where, r["no"], r["line"], str(e)) from None
        raise
    return out, _moves(df.filter(is_move), where)


def _moves(mv, where: str):
    import polars as pl

    # M 10.05520 2 (524.00, 378.00, 0.00), (274.00, 86.00), 10.00
    nums = (pl.col("line").str.replace_all(r"[(),]", " ").str.split(" ")
            .list.eval(pl.element().filter(pl.element() != "")))
    m = mv.select("no", "line", nums.alias("w"))
    bad = m.filter(pl.col("w").list.len() != 9)
    if not bad.is_empty():
        no, line, _ = bad.row(0)
        raise _bad(where, no, line, "a movement line has 8 numbers")
    try:
        moves = m.select(pl.col("w").list.get(1).cast(pl.Float64, strict=True).alias("time"),
                         pl.col("w").list.get(2).cast(pl.Int64, strict=True).alias("node"),
                         pl.col("w").list.get(3).cast(pl.Float64, strict=True).alias("x"),
                         pl.col("w").list.get(4).cast(pl.Float64, strict=True).alias("y"),
                         pl.col("w").list.get(6).cast(pl.Float64, strict=True).alias("dest_x"),
                         pl.col("w").list.get(7).cast(pl.Float64, strict=True).alias("dest_y"),
                         pl.col("w").list.get(8).cast(pl.Float64, strict=True).alias("speed"))
    except pl.exceptions.InvalidOperationError:
        no, line, _ = m.row(0)
        raise _bad(where, no, line, "a movement line's numbers do not parse") from None
    return moves


_OLD_RE = (r"^(?P<event>[srfdD]) (?P<time>\S+) _(?P<node>-?\d+)_ (?P<layer>\S+)\s+(?P<reason>\S+) (?P<uid>-?\d+) "
           r"(?P<ptype>\S+) (?P<size>-?\d+) \[\S+ \S+ \S+ (?P<mac_type>\S+)\]\s*"
           r"(?:\S+ \[(?P<src>-?\d+):(?P<sport>-?\d+) (?P<dst>-?\d+):(?P<dport>-?\d+) (?P<ttl>-?\d+) "
           r"(?P<next_hop>-?\d+)\] ?(?P<rest>.*))?$")
_OLD = re.compile(_OLD_RE)


def _parse_old(df, where: str):
    """The old CMU format's packet lines (`df`: no, line) as the packet
    frame."""
    import polars as pl

    g = df.with_columns(pl.col("line").str.extract_groups(_OLD_RE).alias("g")).unnest("g")
    bad = g.filter(pl.col("event").is_null())
    if not bad.is_empty():
        r = bad.row(0, named=True)
        raise _bad(where, r["no"], r["line"], "not a packet line of the old wireless format")
    seq = (pl.when(pl.col("ptype") == "cbr").then(pl.col("rest").str.extract(r"^\[(\d+)\]", 1))
           .when(pl.col("ptype").is_in(["tcp", "ack"])).then(pl.col("rest").str.extract(r"^\[(\d+) ", 1))
           .otherwise(None))
    try:
        return g.select(
            pl.col("event").str.to_lowercase(), pl.col("time").cast(pl.Float64, strict=True),
            pl.col("node").cast(pl.Int64), pl.lit(None, pl.Float64).alias("x"), pl.lit(None, pl.Float64).alias("y"),
            "layer", "reason", pl.col("uid").cast(pl.Int64), "ptype", pl.col("size").cast(pl.Int64),
            *[pl.col(c).cast(pl.Int64) for c in ("src", "sport", "dst", "dport", "ttl")],
            pl.lit(None, pl.Int64).alias("flow"), pl.col("next_hop").cast(pl.Int64),
            seq.cast(pl.Int64).alias("seqno"), "mac_type")
    except pl.exceptions.InvalidOperationError:
        for no, line in df.iter_rows():
            try:
                float(line.split()[1])
            except ValueError as e:
                raise _bad(where, no, line, str(e)) from None
        raise


def read_wireless_trace(path):
    """`parse_wireless_trace` of the file at `path`."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as e:
        raise ValueError(f"read_wireless_trace(): cannot read {str(p)!r}: {e.strerror}") from None
    return parse_wireless_trace(text, str(p))
