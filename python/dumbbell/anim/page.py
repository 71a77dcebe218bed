"""The animation page: one HTML file holding the player (model.js, view.js,
player.css, inlined) and the run's data.

The data is two parts: a JSON header (topology, hints, changes, the layout
of the columns) and the hops as columns of typed numbers (float64 times,
integers), each column byte-shuffled (all first bytes, then all second
bytes, ...: times that grow slowly then compress well) and the whole
deflated (gzip) and base64-encoded.  The page inflates it with the
browser's own `DecompressionStream`; nothing is fetched.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import os
import sys
from array import array
from importlib import resources

from . import layout as _layout
from .namfile import INF, NamTrace

# One entry per column: name, typed-array kind, bytes per value.  model.js reads this order.
COLUMNS = (("t_in", "f64", 8), ("t_out", "f64", 8), ("t_hop", "f64", 8), ("t_end", "f64", 8),
           ("edge", "u32", 4), ("fid", "i32", 4), ("size", "u32", 4), ("uid", "u32", 4), ("seq", "i32", 4),
           ("ptype", "u8", 1), ("flags", "u8", 1))

# Flows without a `$ns color` get these (nam draws them black); fid 0 is black as in nam.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
           "#7f7f7f")


def _shuffle(raw: bytes, width: int) -> bytes:
    if width == 1:
        return raw
    return b"".join(raw[k::width] for k in range(width))


# Times stored as differences from an earlier time of the same hop: leaving the queue after arriving
# (the wait), going on the wire after leaving (nearly always 0), arriving after going (transmission
# plus delay: a few values per link).  Differences compress far better than the times.
DELTA_OF = {"t_out": "t_in", "t_hop": "t_out", "t_end": "t_hop"}


def _le(col) -> bytes:
    if sys.byteorder != "little":  # typed arrays in the page are little-endian
        col = type(col)(col.typecode, col)
        col.byteswap()
    return col.tobytes()


def encode_hops(tr: NamTrace) -> tuple[list[dict], bytes]:
    """The columns' layout and the deflated, byte-shuffled bytes.

    A time column in DELTA_OF is stored as its difference from its base;
    where base + difference is not the time to the last bit (floating
    point), the index and the exact time are stored beside it, so the page
    gets every time exactly as the nam file has it."""
    import numpy as np

    parts, layout, offset = [], [], 0
    for name, kind, width in COLUMNS:
        col = tr.hops[name]
        entry = {"name": name, "kind": kind, "width": width}
        if name in DELTA_OF:
            x = np.frombuffer(col, dtype=np.float64)
            base = np.frombuffer(tr.hops[DELTA_OF[name]], dtype=np.float64)
            with np.errstate(invalid="ignore"):
                d = x - base
                back = base + d
            exact = (back == x) | (np.isnan(back) & np.isnan(x))
            exc = np.flatnonzero(~exact)
            d[exc] = 0.0
            col = array("d", d.tobytes())
            entry.update({"delta_of": DELTA_OF[name], "n_exc": int(exc.size)})
            exc_index, exc_value = array("I", exc.astype(np.uint32).tobytes()), array("d", x[exc].tobytes())
        raw = _le(col)
        assert len(raw) == width * len(col), name
        entry["offset"] = offset
        parts.append(_shuffle(raw, width))
        offset += len(raw)
        if name in DELTA_OF:
            entry["exc_index"] = offset
            parts.append(_le(exc_index))
            offset += 4 * len(exc_index)
            entry["exc_value"] = offset
            parts.append(_le(exc_value))
            offset += 8 * len(exc_value)
        layout.append(entry)
    # mtime=0: the same input gives the same page, byte for byte
    return layout, gzip.compress(b"".join(parts), compresslevel=6, mtime=0)


def _sorted_by_start(tr: NamTrace) -> None:
    """Hops are stored in the order they were opened, which is time order in
    a file written by ns-2; a file out of order is sorted here (the player's
    index needs start times that never decrease)."""
    h = tr.hops
    starts = [a if a == a else (b if b == b else c) for a, b, c in zip(h["t_in"], h["t_out"], h["t_end"])]
    if all(starts[i] <= starts[i + 1] for i in range(len(starts) - 1)):
        return
    order = sorted(range(len(starts)), key=starts.__getitem__)
    for name in h:
        col = h[name]
        h[name] = type(col)(col.typecode, (col[i] for i in order))


def build_meta(tr: NamTrace, source_name: str) -> dict:
    node_ids = sorted(tr.nodes)
    lengths = _layout.link_lengths([lk["delay"] for lk in tr.links])
    coords = {n: (tr.nodes[n]["x"], tr.nodes[n]["y"]) for n in node_ids if tr.nodes[n]["x"] is not None}
    pos = _layout.layout(node_ids, coords, [(lk["src"], lk["dst"], ln, lk["orient"])
                                            for lk, ln in zip(tr.links, lengths)])
    nodes = [{"id": n, "x": round(pos[n][0], 6), "y": round(pos[n][1], 6), "shape": tr.nodes[n]["shape"],
              "color": tr.nodes[n]["color"], "lcolor": tr.nodes[n]["lcolor"]} for n in node_ids]
    links = [{"a": lk["src"], "b": lk["dst"], "rate": lk["rate"], "delay": lk["delay"], "color": lk["color"],
              "orient": lk["orient"]} for lk in tr.links]
    # both directions of every link, as nam makes them (packets may have used only some)
    for lk in tr.links:
        for s, d in ((lk["src"], lk["dst"]), (lk["dst"], lk["src"])):
            if (s, d) not in tr.edge_index:
                tr.edge_index[(s, d)] = len(tr.edges)
                tr.edges.append((s, d))
    edges = []
    for s, d in tr.edges:
        k = tr.link_pairs.get((s, d), tr.link_pairs.get((d, s)))
        q = tr.queues.get((s, d))
        edges.append({"s": s, "d": d, "link": k, "queue": q})
    t0 = tr.window[0] if tr.window[0] is not None else min(tr.first_time, 0.0)
    # the run lasts to its last record: a packet's or a change's (an annotation after the last packet)
    last = max([tr.last_time] + [c[0] for c in tr.changes])
    t1 = tr.truncated_at if tr.truncated_at is not None else (
        tr.window[1] if tr.window[1] is not None else last)
    t1 = max(t1, t0)
    colors = {str(k): v for k, v in sorted(tr.colors.items())}
    return {"format": 1, "source": source_name, "t0": t0, "t1": t1, "truncated_at": tr.truncated_at,
            "nodes": nodes, "links": links, "edges": edges, "colors": colors, "palette": list(PALETTE),
            "ptypes": tr.ptypes, "changes": tr.changes, "n_hops": tr.n_hops, "warnings": tr.warnings[:20]}


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _script_json(obj) -> str:
    # inside <script> no '</' or '<!--' may appear: every '<' is written \u003c (still JSON);
    # JSON has no NaN/Infinity
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    return text.replace("<", "\\u003c")


def write_page(tr: NamTrace, out: str, source_name: str) -> dict:
    """Writes the page; returns its header (the JSON part) and sizes."""
    _sorted_by_start(tr)
    meta = build_meta(tr, source_name)
    layout, blob = encode_hops(tr)
    meta["columns"] = layout
    meta["raw_bytes"] = len(gzip.decompress(blob)) if tr.n_hops else 0
    data = base64.b64encode(blob).decode("ascii")
    title = html.escape(f"{source_name} — Dumbbell animation")
    page = (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{title}</title>\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline';\">\n"
        f"<style>\n{_asset('player.css')}</style>\n</head>\n<body>\n"
        f"{_asset('player.html')}"
        f"<script type=\"application/json\" id=\"nam-meta\">{_script_json(meta)}</script>\n"
        f"<script type=\"application/octet-stream\" id=\"nam-data\">{data}</script>\n"
        f"<script>\n{_asset('model.js')}</script>\n"
        f"<script>\n{_asset('view.js')}</script>\n"
        "</body>\n</html>\n")
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(page)
    os.replace(tmp, out)
    return {"meta": meta, "page_bytes": len(page.encode("utf-8")), "data_bytes": len(data)}


__all__ = ["write_page", "encode_hops", "build_meta", "COLUMNS", "PALETTE", "INF"]
