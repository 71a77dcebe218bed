"""Line-at-a-time reading of ns-2 trace files, with the programming interface
of the `nstrace` module that Dordal's chapter on ns-2 uses (seed 002, 31.2.4),
so that analysis scripts written for it run unchanged::

    import nstrace                      # or: from dumbbell import nstrace
    nstrace.nsopen("basic1.tr")
    while not nstrace.isEOF():
        if nstrace.isEvent():
            (event, time, sendnode, dnode, proto, size, flags, flow,
             (snode, sport), (dnode2, dport), seqno, pktid) = nstrace.getEvent()
        elif nstrace.isVar():
            (time, snode, sport, dnode, dport, varname, value) = nstrace.getVar()
        else:
            nstrace.skipline()

The interface (function names, tuple layouts and types) is the book's; the
code is Dumbbell's own.  For whole-file analysis `dumbbell.read_trace` and
`dumbbell.metrics` are much faster: they parse in Rust into data frames.

Conventions:

* ``getEvent()`` returns 12 values: event letter (str), time (float), from
  node, to node (int), packet type (str), size (int), flags (str), flow id
  (int), source and destination as ``(node, port)`` tuples of ints, sequence
  number and packet id (int).  ns-2 writes an address without a port for
  some agents; the port is then 0.
* ``getVar()`` returns 7 values: time (float), source node, source port,
  destination node, destination port (int), variable name (str), value
  (float).
* ``getEvent()``/``getVar()``/``skipline()`` consume the current line.
  A line that was looked at with ``isEvent()``/``isVar()`` and not consumed
  is skipped by the next ``isEOF()``: loops that only handle one kind of
  record (as several of the book's scripts do) then end instead of spinning.
* Malformed lines raise ``ValueError`` naming the file and line number when
  they are read as a record; ``nsopen(name, check=True)`` also checks every
  line's shape before ``isEvent()``/``isVar()`` classify it (slower, useful on
  files that mix in other record formats).
"""

from __future__ import annotations

import re
from typing import IO

__all__ = ["nsopen", "nsclose", "isEvent", "isVar", "isEOF", "getEvent", "getVar", "skipline",
           "NsTrace"]

_EVENT_LETTERS = frozenset("+-rdhec")
# A packet-event record: event, time, 2 nodes, type, size, flags, fid,
# src.port, dst.port, seqno, uid (ns-2's trace-all format).
_EVENT_RE = re.compile(r"^[+\-rdhec] \S+ -?\d+ -?\d+ \S+ -?\d+ \S+ -?\d+ -?\d+(\.-?\d+)? -?\d+(\.-?\d+)? -?\d+ -?\d+")
# A variable-trace record: time, 4 ints, name, value.
_VAR_RE = re.compile(r"^\d\S* -?\d+ -?\d+ -?\d+ -?\d+ [A-Za-z_]\w* \S+$")


def _addr(field: str) -> tuple[int, int]:
    node, _, port = field.partition(".")
    return int(node), int(port) if port else 0


class NsTrace:
    """One open trace file; the module-level functions use a default one."""

    def __init__(self, filename: str, check: bool = False):
        self.filename = str(filename)
        self._check = check
        self._f: IO[str] | None = open(self.filename, encoding="latin-1")
        self._lineno = 0
        self._fields: list[str] | None = None
        self._line = ""
        self._looked = False   # the current line was classified but not consumed
        self._advance()

    # -- reading ------------------------------------------------------------------

    def _advance(self) -> None:
        self._looked = False
        while True:
            line = self._f.readline() if self._f is not None else ""
            if not line:
                self._fields = None
                self._line = ""
                return
            self._lineno += 1
            self._line = line.rstrip("\n")
            self._fields = self._line.split()
            if self._fields:        # blank lines are not records
                return

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None
        self._fields = None

    def _where(self) -> str:
        return f"{self.filename}:{self._lineno}"

    # -- the book's interface --------------------------------------------------

    def isEOF(self) -> bool:
        if self._looked and self._fields is not None:
            self._advance()
        return self._fields is None

    def isEvent(self) -> bool:
        f = self._fields
        if f is None:
            return False
        self._looked = True
        if self._check:
            return _EVENT_RE.match(self._line) is not None
        return len(f) >= 12 and len(f[0]) == 1 and f[0] in _EVENT_LETTERS

    def isVar(self) -> bool:
        f = self._fields
        if f is None:
            return False
        self._looked = True
        if self._check:
            return _VAR_RE.match(self._line) is not None
        return len(f) == 7 and f[0][:1].isdigit()

    def getEvent(self):
        f = self._fields
        if f is None:
            raise EOFError(f"{self.filename}: getEvent() after the end of the file")
        try:
            if len(f) < 12 or f[0] not in _EVENT_LETTERS:
                raise ValueError("not a packet-event record")
            rec = (f[0], float(f[1]), int(f[2]), int(f[3]), f[4], int(f[5]), f[6], int(f[7]),
                   _addr(f[8]), _addr(f[9]), int(f[10]), int(f[11]))
        except ValueError as e:
            raise ValueError(f"{self._where()}: getEvent(): {e}: {self._line!r}") from None
        self._advance()
        return rec

    def getVar(self):
        f = self._fields
        if f is None:
            raise EOFError(f"{self.filename}: getVar() after the end of the file")
        try:
            if len(f) != 7:
                raise ValueError(f"expected 7 fields, found {len(f)}")
            rec = (float(f[0]), int(f[1]), int(f[2]), int(f[3]), int(f[4]), f[5], float(f[6]))
        except ValueError as e:
            raise ValueError(f"{self._where()}: getVar(): {e}: {self._line!r}") from None
        self._advance()
        return rec

    def skipline(self) -> None:
        if self._fields is not None:
            self._advance()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_current: NsTrace | None = None


def _cur() -> NsTrace:
    if _current is None:
        raise RuntimeError("nstrace: no trace file is open; call nstrace.nsopen(filename) first")
    return _current


def nsopen(filename: str, check: bool = False) -> NsTrace:
    """Open `filename` as the current trace file (closing the previous one)."""
    nsclose()   # a file that fails to open leaves no current file behind
    global _current
    _current = NsTrace(filename, check=check)
    return _current


def nsclose() -> None:
    """Close the current trace file."""
    global _current
    if _current is not None:
        _current.close()
        _current = None


def isEOF() -> bool:
    """True when there are no more lines."""
    return _cur().isEOF()


def isEvent() -> bool:
    """True when the current line is a packet-event record (+ - r d ...)."""
    return _cur().isEvent()


def isVar() -> bool:
    """True when the current line is a variable-trace record."""
    return _cur().isVar()


def getEvent():
    """The current packet-event record as a 12-tuple; moves to the next line."""
    return _cur().getEvent()


def getVar():
    """The current variable-trace record as a 7-tuple; moves to the next line."""
    return _cur().getVar()


def skipline() -> None:
    """Move to the next line without reading this one."""
    _cur().skipline()
