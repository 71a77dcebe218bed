"""Reading an ns-2 nam trace (what `$ns namtrace-all` writes) into what the
animation page needs: the topology and its hints, the changes during the
run, and one record per packet passage over a link.

The format is ns-2 2.35's (tcl/lib/ns-namsupp.tcl writes the configuration
and the hints, trace/trace.cc the packet events); the meaning of each record
is nam's (netmodel.cc).  The file is read one line at a time, so its size is
limited only by the window asked for (`start`, `end`) and `max_hops`.

A *hop* is one packet's passage over one directed link: queued at ``+``,
leaving the queue at ``-``, on the wire from ``h`` until ``r`` (or a ``d``
while it is queued or on the wire).  Packets are told apart by nam's key, the
packet id with the link (``-i``, ``-s``, ``-d``), as nam does.
"""

from __future__ import annotations

import gzip
import math
import re
from array import array

from .colors import color_or_none

INF = math.inf
NAN = math.nan

# Hop flags (one byte per hop; the page's player.js reads the same bits).
DROP_QUEUE = 1    # dropped while queued (``d`` after ``+``, before ``-``)
DROP_LINK = 2     # dropped on the wire (``d`` after ``h``: a link going down, an error model)
RECEIVED = 4      # ``r`` at the far end
MARKED = 8        # ECN-marked by this link's queue: CE ('E') set at ``-``, not at ``+``
CE = 16           # carries CE when it leaves the queue
DROP_ALONE = 32   # a ``d`` for a packet with no open hop on this link (drawn at the link's source)

# nam's directions (in units of pi, counter-clockwise from "right").
_DIRECTIONS = {
    "right": 0.0, "up-right": 0.25, "right-up": 0.25, "up": 0.5, "up-left": 0.75, "left-up": 0.75,
    "left": 1.0, "left-down": 1.25, "down-left": 1.25, "down": 1.5, "down-right": 1.75, "right-down": 1.75,
}

_NODE_SHAPES = ("circle", "box", "square", "hexagon")


class NamError(ValueError):
    """Bad input, with its file and line (``str(err)`` is ``file:line: message``)."""


def orient_angle(text: str) -> float | None:
    """nam's orientation (``right``, ``up-left``, ``60deg``, or a number in
    units of pi) as an angle in units of pi, or None if it is not one."""
    t = text.strip().lower()
    if t in _DIRECTIONS:
        return _DIRECTIONS[t]
    m = re.fullmatch(r"([-+]?\d+(?:\.\d*)?)deg", t)
    if m:
        return float(m.group(1)) / 180.0
    try:
        x = float(t)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def _tokens(line: str, where: str) -> list[str]:
    """Split a configuration line as nam's parser does: words, "quoted
    strings" and {braced groups} (quotes and braces removed)."""
    out = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c.isspace():
            i += 1
            continue
        if c == '"':
            j = line.find('"', i + 1)
            if j < 0:
                raise NamError(f"{where}: unterminated quoted string")
            out.append(line[i + 1:j])
            i = j + 1
        elif c == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(line[j], 0)
                j += 1
            if depth:
                raise NamError(f"{where}: unbalanced '{{'")
            out.append(line[i + 1:j - 1])
            i = j
        else:
            j = i
            while j < n and not line[j].isspace():
                j += 1
            out.append(line[i:j])
            i = j
    return out


def _flags(tokens: list[str], where: str) -> dict[str, str]:
    """``-x value`` pairs after the record letter; a flag without a value
    (``-X`` of an expired mark) maps to ''."""
    out: dict[str, str] = {}
    i = 1
    while i < len(tokens):
        k = tokens[i]
        if not (k.startswith("-") and len(k) == 2):
            raise NamError(f"{where}: expected a flag like -t, got {k!r}")
        if i + 1 < len(tokens) and not (tokens[i + 1].startswith("-") and len(tokens[i + 1]) == 2
                                        and tokens[i + 1][1].isalpha()):
            out[k[1]] = tokens[i + 1]
            i += 2
        else:
            out[k[1]] = ""
            i += 1
    return out


def _num(flags: dict, key: str, where: str, kind=float, default=None):
    v = flags.get(key)
    if v is None:
        if default is not None:
            return default
        raise NamError(f"{where}: missing -{key}")
    try:
        return kind(v)
    except ValueError:
        what = "an integer" if kind is int else "a number"
        raise NamError(f"{where}: -{key} expects {what}, got {v!r}") from None


def _time(v: str, where: str) -> float:
    try:
        t = float(v)
    except ValueError:
        raise NamError(f"{where}: -t expects a time in seconds or '*', got {v!r}") from None
    if not math.isfinite(t):
        raise NamError(f"{where}: -t expects a finite time, got {v!r}")
    return t


class NamTrace:
    """What the page shows, read from a nam file.

    ``nodes``: id -> dict (addr, shape, color, lcolor, x, y, label, ...);
    ``links``: list of dicts, one per ``l -t *`` line (an undirected pair as
    nam makes it); ``edges``: list of (src, dst) directed links that packets
    use, with ``edge_index``; ``queues``: (src, dst) -> angle (units of pi);
    ``colors``: fid -> colour; ``changes``: [time, kind, ...] in file order;
    ``hops``: columns (``t_in t_out t_hop t_end`` float64, ``edge fid size
    uid seq`` ints, ``ptype flags`` bytes); ``warnings``: one line each.
    """

    def __init__(self):
        self.nodes: dict[int, dict] = {}
        self.links: list[dict] = []
        self.link_pairs: dict[tuple[int, int], int] = {}
        self.edges: list[tuple[int, int]] = []
        self.edge_index: dict[tuple[int, int], int] = {}
        self.queues: dict[tuple[int, int], float] = {}
        self.colors: dict[int, str] = {}
        self.changes: list[list] = []
        self.ptypes: list[str] = []
        self.ptype_index: dict[str, int] = {}
        self.canvas: tuple[float, float] | None = None
        self.first_time = INF
        self.last_time = -INF
        self.window = (None, None)
        self.truncated_at: float | None = None
        self.warnings: list[str] = []
        self.lines = 0
        self.hops = {
            "t_in": array("d"), "t_out": array("d"), "t_hop": array("d"), "t_end": array("d"),
            "edge": array("I"), "fid": array("i"), "size": array("I"), "uid": array("I"),
            "seq": array("i"), "ptype": array("B"), "flags": array("B"),
        }

    @property
    def n_hops(self) -> int:
        return len(self.hops["t_in"])


class _Reader:
    def __init__(self, path: str, start: float | None, end: float | None, max_hops: int | None, warn):
        self.path = path
        self.start = -INF if start is None else start
        self.end = INF if end is None else end
        self.max_hops = max_hops
        self.warn_cb = warn
        self.warned: set[str] = set()
        self.tr = NamTrace()
        self.tr.window = (start, end)
        self.open: dict[tuple[int, int, int], int] = {}      # (uid, src, dst) -> hop index, or -1-k pending
        self.pending: dict[int, list] = {}                   # hops opened before the window's start, still open
        self.n_pending = 0
        self.in_window = start is None
        self.cols = [self.tr.hops[name] for name in _COLS]

    # -- warnings -------------------------------------------------------
    def warn_once(self, key: str, where: str, msg: str) -> None:
        if key in self.warned:
            return
        self.warned.add(key)
        text = f"{where}: {msg}"
        self.tr.warnings.append(text)
        if self.warn_cb is not None:
            self.warn_cb(text)

    # -- hops -----------------------------------------------------------
    def _edge(self, s: int, d: int, where: str) -> int:
        k = self.tr.edge_index.get((s, d))
        if k is None:
            if (s, d) not in self.tr.link_pairs and (d, s) not in self.tr.link_pairs:
                self.warn_once("nolink", where, f"packets on link {s}->{d}, which no 'l -t *' line declares "
                               "(drawn as a straight line with no delay known)")
                for n in (s, d):
                    if n not in self.tr.nodes:
                        self.tr.nodes[n] = _default_node(n)
                self.tr.link_pairs[(s, d)] = len(self.tr.links)
                self.tr.links.append({"src": s, "dst": d, "rate": 0.0, "delay": 0.0, "color": "black",
                                      "orient": None, "label": "", "line": where})
            k = len(self.tr.edges)
            self.tr.edges.append((s, d))
            self.tr.edge_index[(s, d)] = k
        return k

    def _ptype(self, name: str) -> int:
        k = self.tr.ptype_index.get(name)
        if k is None:
            k = len(self.tr.ptypes)
            if k > 255:
                return 255
            self.tr.ptypes.append(name)
            self.tr.ptype_index[name] = k
        return k

    def _new_hop(self, t_in, t_out, t_hop, t_end, edge, fid, size, uid, seq, ptype, flags) -> int:
        """Store a hop; returns its handle (an index, or a negative handle
        for a hop opened before the window, kept aside until the window
        starts)."""
        row = [t_in, t_out, t_hop, t_end, edge, fid, size, uid & 0xFFFFFFFF, seq, ptype, flags]
        if not self.in_window:
            self.n_pending += 1
            self.pending[self.n_pending] = row
            return -self.n_pending
        return self._append(row)

    def _append(self, row) -> int:
        k = len(self.cols[0])
        for col, v in zip(self.cols, row):
            col.append(v)
        return k

    def _set(self, handle: int, col: str, value) -> None:
        if handle >= 0:
            self.tr.hops[col][handle] = value
        else:
            self.pending[-handle][_COLS[col]] = value

    def _get(self, handle: int, col: str):
        if handle >= 0:
            return self.tr.hops[col][handle]
        return self.pending[-handle][_COLS[col]]

    def _close(self, key, handle: int) -> None:
        """A hop is over: forget its key; one that ended before the window
        is dropped altogether (so a late --start keeps little in memory)."""
        del self.open[key]
        if handle < 0:
            del self.pending[-handle]

    def _enter_window(self) -> None:
        """The first event at or after `start`: the hops still open become
        the page's first hops (in the order they were opened)."""
        self.in_window = True
        live = sorted((-h, key) for key, h in self.open.items() if h < 0)
        for k, key in live:
            self.open[key] = self._append(self.pending[k])
        self.pending = {}

    # -- lines ----------------------------------------------------------
    def packet(self, ev: str, t: float, s: int, d: int, ptype: str, size: int, fid: int, uid: int, seq: int,
               flags: str, where: str) -> bool:
        """One ``+ - h r d`` record; False once reading should stop."""
        tr = self.tr
        if t > self.end:
            return False
        if not self.in_window and t >= self.start:
            self._enter_window()
        if t < tr.first_time:
            tr.first_time = t
        if t > tr.last_time:
            tr.last_time = t
        key = (uid, s, d)
        h = self.open.get(key)
        ce = len(flags) > 4 and flags[4] == "E"
        if h is not None and h >= 0 and ev != "+" and ev != "d":
            # the common case, inline: a hop in the window leaving its queue, going, arriving
            hops = tr.hops
            if ev == "r":
                t_hop = hops["t_hop"]
                if t_hop[h] == INF:
                    t_hop[h] = hops["t_out"][h]
                hops["t_end"][h] = t
                hops["flags"][h] |= RECEIVED
                del self.open[key]
                return True
            t_out = hops["t_out"]
            if t_out[h] == INF:
                t_out[h] = t
            if ev == "h":
                t_hop = hops["t_hop"]
                if t_hop[h] == INF:
                    t_hop[h] = t
            elif ce:
                f = hops["flags"][h]
                hops["flags"][h] = f | MARKED | CE if not (f & CE) else f | CE
            return True
        if ev == "+":
            if h is not None:  # a second '+' without leaving: nam queues it again; close the first
                self._close(key, h)
            edge = self._edge(s, d, where)
            if self.max_hops is not None and self.in_window and tr.n_hops >= self.max_hops:
                tr.truncated_at = t
                return False
            self.open[key] = self._new_hop(t, INF, INF, INF, edge, fid, size, uid, seq, self._ptype(ptype),
                                           CE if ce else 0)
            return True
        if ev == "-" or ev == "h":
            if h is None:
                edge = self._edge(s, d, where)
                if self.max_hops is not None and self.in_window and tr.n_hops >= self.max_hops:
                    tr.truncated_at = t
                    return False
                self.open[key] = h = self._new_hop(NAN, t, t if ev == "h" else INF, INF, edge, fid, size, uid,
                                                   seq, self._ptype(ptype), 0)
            if ev == "-":
                if self._get(h, "t_out") == INF:
                    self._set(h, "t_out", t)
                f = self._get(h, "flags")
                if ce:
                    f |= MARKED | CE if not (f & CE) else CE
                    self._set(h, "flags", f)
            else:
                if self._get(h, "t_out") == INF:  # 'h' without '-': the queue is not traced
                    self._set(h, "t_out", t)
                if self._get(h, "t_hop") == INF:
                    self._set(h, "t_hop", t)
            return True
        if ev == "r":
            if h is None:  # received on a link whose sending we did not see (before namtrace started)
                return True
            if self._get(h, "t_hop") == INF:
                self._set(h, "t_hop", self._get(h, "t_out"))
            self._set(h, "t_end", t)
            self._set(h, "flags", self._get(h, "flags") | RECEIVED)
            self._close(key, h)
            return True
        if ev == "d":
            if h is None:
                edge = self._edge(s, d, where)
                if self.in_window:
                    if self.max_hops is not None and tr.n_hops >= self.max_hops:
                        tr.truncated_at = t
                        return False
                    self._append([NAN, NAN, NAN, t, edge, fid, size, uid & 0xFFFFFFFF, seq, self._ptype(ptype),
                                  DROP_ALONE | (CE if ce else 0)])
                return True
            if self._get(h, "t_out") == INF:   # still queued
                self._set(h, "t_out", t)
                self._set(h, "t_end", t)
                self._set(h, "flags", (self._get(h, "flags") & ~(MARKED | CE)) | DROP_QUEUE | (CE if ce else 0))
            else:
                if self._get(h, "t_hop") == INF:
                    self._set(h, "t_hop", t)
                self._set(h, "t_end", t)
                self._set(h, "flags", self._get(h, "flags") | DROP_LINK)
            self._close(key, h)
            return True
        raise AssertionError(ev)


_COLS = {name: i for i, name in enumerate(("t_in", "t_out", "t_hop", "t_end", "edge", "fid", "size", "uid", "seq",
                                           "ptype", "flags"))}


def _default_node(n: int) -> dict:
    return {"id": n, "addr": n, "shape": "circle", "color": "black", "lcolor": "black", "x": None, "y": None,
            "label": "", "label_color": "", "label_at": "", "line": ""}


def _open(path: str):
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def read_nam(path: str, start: float | None = None, end: float | None = None, max_hops: int | None = None,
             warn=None) -> NamTrace:
    """Read a nam file (plain or gzipped).  `start`/`end` keep the hops that
    overlap that window (and every change before it, so the state at
    `start` is right); `max_hops` stops reading when that many hops are
    kept (`NamTrace.truncated_at` is then the time reached).  Unknown records
    are reported once each through `warn(text)`; bad input raises
    `NamError` with ``file:line``."""
    if start is not None and end is not None and end < start:
        raise NamError(f"{path}: the window ends ({end}) before it starts ({start})")
    rd = _Reader(path, start, end, max_hops, warn)
    tr = rd.tr
    try:
        f = _open(path)
    except OSError as e:
        raise NamError(f"{path}: cannot read: {e.strerror or e}") from None
    lineno = 0
    packet = rd.packet
    with f:
        try:
            for lineno, line in enumerate(f, 1):
                c = line[:2]
                if c in ("+ ", "- ", "h ", "r ", "d "):
                    p = line.split()
                    # ns-2's layout (trace.cc): ev -t T -s S -d D -p TYPE -e SIZE -c FID -i UID -a ATTR
                    # -x {SRC DST SEQ FLAGS NAME}
                    if (len(p) >= 22 and p[1] == "-t" and p[3] == "-s" and p[5] == "-d" and p[7] == "-p"
                            and p[9] == "-e" and p[11] == "-c" and p[13] == "-i" and p[17] == "-x"):
                        try:
                            t = float(p[2])
                            s = int(p[4])
                            d = int(p[6])
                            size = int(p[10])
                            fid = int(p[12])
                            uid = int(p[14])
                            seq = int(p[20])
                        except ValueError:
                            _packet_slow(rd, line, f"{path}:{lineno}")
                            continue
                        if not math.isfinite(t):
                            raise NamError(f"{path}:{lineno}: -t expects a finite time, got {p[2]!r}")
                        if not packet(c[0], t, s, d, p[8], size, fid, uid, seq, p[21], f"{path}:{lineno}"):
                            break
                    else:
                        if not _packet_slow(rd, line, f"{path}:{lineno}"):
                            break
                    continue
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                if not _config(rd, line, f"{path}:{lineno}"):
                    break
        except OverflowError:
            raise NamError(f"{path}:{lineno}: a number out of range (a packet size, flow id or sequence number "
                           "that no 32-bit integer holds)") from None
        except UnicodeDecodeError as e:  # pragma: no cover (errors='replace')
            raise NamError(f"{path}:{lineno + 1}: not text: {e}") from None
        except (EOFError, OSError, gzip.BadGzipFile) as e:
            raise NamError(f"{path}:{lineno + 1}: cannot read: {e}") from None
    if not rd.in_window:
        rd._enter_window()
    tr.lines = lineno
    if not tr.nodes:
        raise NamError(f"{path}: no nodes: not a nam trace (expected 'n -t * ...' lines, as `$ns namtrace-all` "
                       "writes)")
    if tr.first_time == INF:
        tr.first_time = 0.0
        tr.last_time = 0.0
    return tr


def _packet_slow(rd: _Reader, line: str, where: str) -> bool:
    tokens = _tokens(line, where)
    fl = _flags(tokens, where)
    t = _time(fl.get("t", ""), where)
    s = _num(fl, "s", where, int)
    d = _num(fl, "d", where, int)
    if d < 0:
        rd.warn_once("bcast", where, "broadcast packets (-d -1, wireless) are not shown")
        return True
    x = fl.get("x", "").split()
    seq = 0
    flags = ""
    if len(x) >= 4:
        try:
            seq = int(x[2])
        except ValueError:
            pass
        flags = x[3]
    return rd.packet(tokens[0], t, s, d, fl.get("p", "?"), _num(fl, "e", where, int, 0), _num(fl, "c", where, int, 0),
                     _num(fl, "i", where, int), seq, flags, where)


def _config(rd: _Reader, line: str, where: str) -> bool:
    """A line other than a packet event; False once reading should stop."""
    tr = rd.tr
    tokens = _tokens(line, where)
    kind = tokens[0]
    if len(kind) != 1 or len(tokens) < 3 or tokens[1] != "-t":
        raise NamError(f"{where}: not a nam record (expected a letter, then -t TIME and flags, as "
                       f"`$ns namtrace-all` writes): {line.strip()[:60]!r}")
    if kind == "v":
        return _variable(rd, tokens, line, where)
    fl = _flags(tokens, where)
    tv = fl.get("t", "*")
    t = None if tv == "*" else _time(tv, where)
    if t is not None and t > rd.end and kind in "nlmaf":
        return False
    if kind in ("V", "A"):  # version, address format
        return True
    if kind == "W":
        tr.canvas = (_num(fl, "x", where), _num(fl, "y", where))
        return True
    if kind == "c":
        fid = _num(fl, "i", where, int)
        name = fl.get("n", "")
        css = color_or_none(name)
        if css is None:
            rd.warn_once("color:" + name, where, f"unknown colour {name!r} for flow {fid} (drawn from the palette)")
        else:
            tr.colors[fid] = css
        return True
    if kind == "n":
        return _node(rd, fl, t, where)
    if kind == "l":
        return _link(rd, fl, t, where)
    if kind == "q":
        s, d = _num(fl, "s", where, int), _num(fl, "d", where, int)
        tr.queues[(s, d)] = _num(fl, "a", where)
        return True
    if kind == "m":
        n = _num(fl, "s", where, int)
        _need_node(rd, n, where)
        name = fl.get("n", "")
        if "X" in fl:
            tr.changes.append([t or 0.0, "unmark", n, name])
        else:
            color = color_or_none(fl.get("c", "black")) or "black"
            shape = fl.get("h", "circle")
            tr.changes.append([t or 0.0, "mark", n, name, color, shape])
        return True
    if kind == "a":
        n = _num(fl, "s", where, int)
        _need_node(rd, n, where)
        tr.changes.append([t or 0.0, "agent-", n, fl.get("n", "")] if "X" in fl
                          else [t or 0.0, "agent", n, fl.get("n", "")])
        return True
    if kind == "f":
        rd.warn_once("rec:f", where, "agent variable records ('f', add-agent-trace) are not shown")
        return True
    if kind == "E":
        rd.warn_once("rec:E", where, "event-trace records ('E', eventtrace-all) are not shown")
        return True
    rd.warn_once("rec:" + kind, where, f"nam record {kind!r} is not supported (line ignored)")
    return True


def _need_node(rd: _Reader, n: int, where: str) -> None:
    if n not in rd.tr.nodes:
        raise NamError(f"{where}: node {n} is not declared (expected an 'n -t * -s {n} ...' line before)")


def _node(rd: _Reader, fl: dict, t, where: str) -> bool:
    tr = rd.tr
    n = _num(fl, "s", where, int)
    state = fl.get("S", "UP")
    if t is None:
        shape = fl.get("v", "circle")
        if shape not in _NODE_SHAPES:
            rd.warn_once("shape:" + shape, where, f"node shape {shape!r} is not one of nam's "
                         "(circle, box, square, hexagon); drawn as a circle")
            shape = "circle"
        node = tr.nodes.get(n) or _default_node(n)
        color = fl.get("c", "black")
        node.update({"addr": _num(fl, "a", where, int, n), "shape": shape,
                     "color": _color(rd, color, where), "lcolor": _color(rd, fl.get("i", color), where),
                     "line": where})
        if "x" in fl and "y" in fl:
            node["x"], node["y"] = _num(fl, "x", where), _num(fl, "y", where)
        tr.nodes[n] = node
        return True
    # timed: a change of an existing node (ns-2 writes labels given before `$ns run` at -t 0 before the nodes)
    if n not in tr.nodes:
        if state in ("DLABEL", "DCOLOR", "DIRECTION") and t == 0.0:
            tr.nodes[n] = _default_node(n)
        else:
            _need_node(rd, n, where)
    if state == "DLABEL":
        tr.changes.append([t, "nlabel", n, fl.get("l", "")])
    elif state == "DCOLOR":
        tr.changes.append([t, "nlabelcolor", n, _color(rd, fl.get("e", ""), where) if fl.get("e") else ""])
    elif state == "DIRECTION":
        tr.changes.append([t, "nlabelat", n, fl.get("p", "")])
    elif state == "COLOR":
        tr.changes.append([t, "ncolor", n, _color(rd, fl.get("c", "black"), where)])
    elif state in ("UP", "DOWN"):
        tr.changes.append([t, "nstate", n, state])
    else:
        rd.warn_once("nstate:" + state, where, f"node state {state!r} is not supported (line ignored)")
    return True


def _link(rd: _Reader, fl: dict, t, where: str) -> bool:
    tr = rd.tr
    s, d = _num(fl, "s", where, int), _num(fl, "d", where, int)
    state = fl.get("S", "UP")
    if t is None:
        for n in (s, d):
            _need_node(rd, n, where)
        orient = None
        if "o" in fl:
            orient = orient_angle(fl["o"])
            if orient is None:
                rd.warn_once("orient:" + fl["o"], where, f"unknown link orientation {fl['o']!r} (expected right, "
                             "up-left, 60deg, ...); placed automatically")
        link = {"src": s, "dst": d, "rate": _num(fl, "r", where, float, 0.0), "delay": _num(fl, "D", where, float, 0.0),
                "color": _color(rd, fl.get("c", "black"), where), "orient": orient, "label": "", "line": where}
        if (s, d) in tr.link_pairs or (d, s) in tr.link_pairs:
            # nam keeps the first edge of a pair ("duplicate edge"); ns-2 writes a relinked pair again
            return True
        tr.link_pairs[(s, d)] = len(tr.links)
        tr.links.append(link)
        return True
    if (s, d) not in tr.link_pairs and (d, s) not in tr.link_pairs:
        if state in ("DLABEL", "DCOLOR", "DIRECTION") and t == 0.0:
            # a label given before `$ns run`: written before the link's 'l -t *' line
            tr.changes.append([t, {"DLABEL": "llabel", "DCOLOR": "llabelcolor", "DIRECTION": "llabelat"}[state], s, d,
                               fl.get({"DLABEL": "l", "DCOLOR": "e", "DIRECTION": "p"}[state], "")])
            return True
        raise NamError(f"{where}: link {s}-{d} is not declared (expected an 'l -t * -s {s} -d {d} ...' line before)")
    if state in ("UP", "DOWN"):
        tr.changes.append([t, "lstate", s, d, state])
    elif state == "COLOR":
        tr.changes.append([t, "lcolor", s, d, _color(rd, fl.get("c", "black"), where)])
    elif state == "DLABEL":
        tr.changes.append([t, "llabel", s, d, fl.get("l", "")])
    elif state == "DCOLOR":
        tr.changes.append([t, "llabelcolor", s, d, _color(rd, fl.get("e", ""), where) if fl.get("e") else ""])
    elif state == "DIRECTION":
        tr.changes.append([t, "llabelat", s, d, fl.get("p", "")])
    else:
        rd.warn_once("lstate:" + state, where, f"link state {state!r} is not supported (line ignored)")
    return True


def _color(rd: _Reader, name: str, where: str) -> str:
    css = color_or_none(name)
    if css is None:
        rd.warn_once("color:" + name, where, f"unknown colour {name!r} (drawn black)")
        return "black"
    return css


_IGNORED_V = ("link-up", "link-down", "take_snapshot", "playing_backward", "playing_forward", "terminating_nam")


def _variable(rd: _Reader, tokens: list[str], line: str, where: str) -> bool:
    """``v -t T ...``: nam runs the rest as a Tcl command of its own; we know
    annotations and the animation rate, and pass over the rest."""
    tr = rd.tr
    if len(tokens) < 4 or tokens[1] != "-t":
        raise NamError(f"{where}: expected 'v -t TIME COMMAND ...'")
    t = 0.0 if tokens[2] == "*" else _time(tokens[2], where)
    if t > rd.end:
        return False
    rest = tokens[3:]
    if rest and rest[0] == "-e":
        rest = rest[1:]
    if not rest:
        raise NamError(f"{where}: 'v' record without a command")
    cmd = rest[0]
    if cmd == "sim_annotation":
        # v -t T -e sim_annotation T SEQ TEXT...: the text as written (spaces kept)
        m = re.match(r"\s*v\s+-t\s+\S+\s+(?:-e\s+)?sim_annotation\s+\S+\s+\S+\s?(.*?)\s*$", line)
        tr.changes.append([t, "annotate", m.group(1) if m else " ".join(rest[3:])])
    elif cmd == "set_rate_ext":
        try:
            tr.changes.append([t, "rate", float(rest[1])])
        except (IndexError, ValueError):
            raise NamError(f"{where}: set_rate_ext expects a step in seconds") from None
    elif cmd in _IGNORED_V or cmd == "monitor_agent":
        pass
    else:
        rd.warn_once("v:" + cmd, where, f"nam command {cmd!r} in a 'v' record is not supported (line ignored)")
    return True
