"""ns-2's wireless trace in use-newtrace's format (``s -t 0.1 -Hs 0 -Hd -2
-Ni 0 ... -Nl AGT -Nw --- ... -It cbr -Il 512 ...``) read into frames:
one row per packet event (`s` sent, `r` received, `f` forwarded, `d`
dropped) and one per movement line (``M``).

Columns of the packet frame: event, time, node (``-Ni``), x, y (``-Nx``,
``-Ny``), layer (``-Nl``: AGT, RTR, MAC, IFQ), reason (``-Nw``: ``---`` or
a drop reason such as COL, RET, CBK, NRTE, IFQ, ARP), uid (``-Ii``), ptype
(``-It``: cbr, tcp, ack, AODV, message, ARP...), size (``-Il``), src, sport,
dst, dport (``-Is``/``-Id`` ``node.port``; -1 is broadcast), ttl (``-Iv``),
flow (``-If``), next_hop (``-Hd``), seqno (CBR's ``-Pi``, TCP's ``-Ps``;
null for others), mac_type (``-Mt``, hex).  A MAC frame without an IP
header (RTS, CTS, ACK) has nulls there."""

from __future__ import annotations

from pathlib import Path

# (flag, column, kind): the packet frame's columns read from each line
_FIELDS = (("-t", "time", "f"), ("-Ni", "node", "i"), ("-Nx", "x", "f"), ("-Ny", "y", "f"), ("-Nl", "layer", "s"),
           ("-Nw", "reason", "s"), ("-Ii", "uid", "i"), ("-It", "ptype", "s"), ("-Il", "size", "i"),
           ("-Iv", "ttl", "i"), ("-If", "flow", "i"), ("-Hd", "next_hop", "i"), ("-Mt", "mac_type", "s"))
# the fields every packet line has (a MAC frame without an IP header lacks the rest)
_REQUIRED = ("time", "node", "x", "y", "layer", "reason", "next_hop")


def _bad(where: str, no: int, line: str, why: str):
    return ValueError(f"{where}:{no}: cannot read this line of a use-newtrace wireless trace ({why}): {line[:120]!r}")


def parse_wireless_trace(text: str, where: str = "trace"):
    """The packet events and movements of a new-format wireless trace's
    `text`, as two polars frames (packets, movements).  (Read with polars'
    string kernels: seed 002's 32,702 lines in about a tenth of a second.)"""
    import polars as pl

    lines = pl.Series("line", text.split("\n"), dtype=pl.Utf8)
    df = pl.DataFrame([lines]).with_row_index("no", offset=1).filter(pl.col("line") != "")
    ev = pl.col("line").str.slice(0, 1)
    is_move = pl.col("line").str.starts_with("M ")
    is_pkt = ev.is_in(["s", "r", "f", "d"]) & pl.col("line").str.slice(1, 4).eq(" -t ")
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
    cols.append(pl.when(pl.col("line").str.contains(r"\s-It cbr\s")).then(pl.col("line").str.extract(r"\s-Pi (\S+)", 1))
                .when(pl.col("line").str.contains(r"\s-It (?:tcp|ack)\s")).then(pl.col("line").str.extract(r"\s-Ps (\S+)", 1))
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
    mv = df.filter(is_move)
    # M 10.05520 2 (524.00, 378.00, 0.00), (274.00, 86.00), 10.00
    nums = pl.col("line").str.replace_all(r"[(),]", " ").str.split(" ").list.eval(pl.element().filter(pl.element() != ""))
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
    return out, moves


def read_wireless_trace(path):
    """`parse_wireless_trace` of the file at `path`."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as e:
        raise ValueError(f"read_wireless_trace(): cannot read {str(p)!r}: {e.strerror}") from None
    return parse_wireless_trace(text, str(p))
