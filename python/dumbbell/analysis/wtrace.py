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

_COLS = ("event", "time", "node", "x", "y", "layer", "reason", "uid", "ptype", "size", "src", "sport", "dst",
         "dport", "ttl", "flow", "next_hop", "seqno", "mac_type")


def _addr(v: str) -> tuple[int, int]:
    a, _, p = v.partition(".")
    return int(a), int(p or 0)


def parse_wireless_trace(text: str, where: str = "trace"):
    """The packet events and movements of a new-format wireless trace's
    `text`, as two polars frames (packets, movements)."""
    import polars as pl

    cols: dict[str, list] = {c: [] for c in _COLS}
    mv: dict[str, list] = {"time": [], "node": [], "x": [], "y": [], "dest_x": [], "dest_y": [], "speed": []}
    for no, line in enumerate(text.splitlines(), 1):
        if not line:
            continue
        w = line.split()
        ev = w[0]
        try:
            if ev == "M":
                # M 10.05520 2 (524.00, 378.00, 0.00), (274.00, 86.00), 10.00
                nums = line[1:].replace("(", " ").replace(")", " ").replace(",", " ").split()
                mv["time"].append(float(nums[0]))
                mv["node"].append(int(nums[1]))
                mv["x"].append(float(nums[2]))
                mv["y"].append(float(nums[3]))
                mv["dest_x"].append(float(nums[5]))
                mv["dest_y"].append(float(nums[6]))
                mv["speed"].append(float(nums[7]))
                continue
            if ev not in ("s", "r", "f", "d") or len(w) < 3 or w[1] != "-t":
                raise ValueError("not a packet line of use-newtrace's format")
            kv = {}
            for k in range(1, len(w) - 1, 2):
                key = w[k]
                if key.startswith("-") and key not in kv:
                    kv[key] = w[k + 1]
            cols["event"].append(ev)
            cols["time"].append(float(kv["-t"]))
            cols["node"].append(int(kv["-Ni"]))
            cols["x"].append(float(kv["-Nx"]))
            cols["y"].append(float(kv["-Ny"]))
            cols["layer"].append(kv["-Nl"])
            cols["reason"].append(kv["-Nw"])
            cols["next_hop"].append(int(kv["-Hd"]))
            cols["mac_type"].append(kv.get("-Mt"))
            if "-Ii" in kv:
                cols["uid"].append(int(kv["-Ii"]))
                pt = kv["-It"]
                cols["ptype"].append(pt)
                cols["size"].append(int(kv["-Il"]))
                s, sp = _addr(kv["-Is"])
                d, dp = _addr(kv["-Id"])
                cols["src"].append(s)
                cols["sport"].append(sp)
                cols["dst"].append(d)
                cols["dport"].append(dp)
                cols["ttl"].append(int(kv["-Iv"]))
                cols["flow"].append(int(kv["-If"]))
                seq = kv.get("-Pi") if pt == "cbr" else kv.get("-Ps") if pt in ("tcp", "ack") else None
                cols["seqno"].append(None if seq is None else int(seq))
            else:
                for c in ("uid", "ptype", "size", "src", "sport", "dst", "dport", "ttl", "flow", "seqno"):
                    cols[c].append(None)
        except (KeyError, ValueError, IndexError) as e:
            raise ValueError(f"{where}:{no}: cannot read this line of a use-newtrace wireless trace ({e}): "
                             f"{line[:120]!r}") from None
    schema = {"event": pl.Utf8, "time": pl.Float64, "node": pl.Int64, "x": pl.Float64, "y": pl.Float64,
              "layer": pl.Utf8, "reason": pl.Utf8, "uid": pl.Int64, "ptype": pl.Utf8, "size": pl.Int64,
              "src": pl.Int64, "sport": pl.Int64, "dst": pl.Int64, "dport": pl.Int64, "ttl": pl.Int64,
              "flow": pl.Int64, "next_hop": pl.Int64, "seqno": pl.Int64, "mac_type": pl.Utf8}
    mschema = {"time": pl.Float64, "node": pl.Int64, "x": pl.Float64, "y": pl.Float64, "dest_x": pl.Float64,
               "dest_y": pl.Float64, "speed": pl.Float64}
    return pl.DataFrame(cols, schema=schema), pl.DataFrame(mv, schema=mschema)


def read_wireless_trace(path):
    """`parse_wireless_trace` of the file at `path`."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as e:
        raise ValueError(f"read_wireless_trace(): cannot read {str(p)!r}: {e.strerror}") from None
    return parse_wireless_trace(text, str(p))
