"""`dumbbell animate`: a run's nam trace played in a browser (nam's successor).

    dumbbell animate out.nam -o out.html
    dumbbell.animate("out.nam", "out.html", start=1.0, end=2.0)

The page is one self-contained HTML file (no network fetches): nodes, links,
queues, packets coloured by flow, drops and marks, a timeline, and nam's
hints.  See docs/animate.md.
"""

from __future__ import annotations

import os
import sys
import time

from .namfile import NamError, NamTrace, read_nam

__all__ = ["animate", "read_nam", "NamError", "NamTrace", "DEFAULT_MAX_HOPS"]

# At most about 20 MB of page (measured: docs/animate.md); Chromium opens that in about a second.
DEFAULT_MAX_HOPS = 1_000_000


def animate(namfile, out, start: float | None = None, end: float | None = None,
            max_hops: int | None = DEFAULT_MAX_HOPS, warn=None) -> dict:
    """Write `out` (HTML), the animation of the nam trace `namfile` (plain or
    gzipped).  `start`/`end` (seconds) keep a window of the run; at most
    `max_hops` packet passages over a link are kept (None: no limit), and the
    page ends where the limit was reached.  `warn(text)` receives the
    warnings (unknown or unsupported records, once each; the hop limit); by
    default they go to stderr.  Returns a summary: ``hops``, ``t0``, ``t1``,
    ``truncated_at``, ``page_bytes``, ``warnings``.  Bad input raises
    `NamError` (``file:line: message``)."""
    namfile, out = os.fspath(namfile), os.fspath(out)
    for name, v in (("start", start), ("end", end)):
        if v is not None and not (isinstance(v, (int, float)) and v == v and abs(v) != float("inf")):
            raise ValueError(f"animate: {name} must be a finite number of seconds, got {v!r}")
    if max_hops is not None and (not isinstance(max_hops, int) or max_hops < 1):
        raise ValueError(f"animate: max_hops must be a positive integer or None, got {max_hops!r}")
    if warn is None:
        def warn(text):
            sys.stderr.write(f"dumbbell animate: warning: {text}\n")
    tr = read_nam(namfile, start=start, end=end, max_hops=max_hops, warn=warn)
    if tr.truncated_at is not None:
        warn(f"{namfile}: stopped at t={tr.truncated_at:g} s after {tr.n_hops} packet hops (the limit, "
             "--max-hops); the page ends there: choose a window with --start/--end, or raise --max-hops")
    from .page import write_page

    info = write_page(tr, out, os.path.basename(namfile))
    meta = info["meta"]
    return {"hops": tr.n_hops, "t0": meta["t0"], "t1": meta["t1"], "truncated_at": tr.truncated_at,
            "page_bytes": info["page_bytes"], "data_bytes": info["data_bytes"], "warnings": list(tr.warnings),
            "lines": tr.lines}


USAGE_EPILOG = """\
The page plays the run in any current browser, with no network access:
nodes, links (one line per direction), queues, packets on the wire coloured
by flow ($ns color), drops falling, ECN-marked packets (a white dot), a
timeline with play/pause/step/speed/seek, annotations, and nam's hints
(orient, X_/Y_, node shape/colour/label/marks, link colour/label, queuePos).
Open OUT.html#t=1.5 to start at 1.5 s.  See docs/animate.md."""


def cli(args) -> int:
    """`dumbbell animate` (argparse namespace from cli.py)."""
    out = args.output or os.path.splitext(args.namfile[:-3] if args.namfile.endswith(".gz") else args.namfile)[0] \
        + ".html"
    t = time.perf_counter()
    try:
        res = animate(args.namfile, out, start=args.start, end=args.end,
                      max_hops=None if args.max_hops == 0 else args.max_hops)
    except (NamError, ValueError) as e:
        sys.stderr.write(f"dumbbell animate: {e}\n")
        return 1
    except OSError as e:
        sys.stderr.write(f"dumbbell animate: {out}: cannot write: {e.strerror or e}\n")
        return 1
    dt = time.perf_counter() - t
    if not args.quiet:
        print(f"{out}: {res['hops']} packet hops, {res['t0']:g}..{res['t1']:g} s, "
              f"{res['page_bytes'] / 1e6:.1f} MB, {dt:.1f} s")
    return 0


def _seconds(text: str) -> float:
    import argparse

    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if v != v or abs(v) == float("inf"):
        raise argparse.ArgumentTypeError(f"expects a number of seconds, got {text!r}")
    return v


def _count(text: str) -> int:
    import argparse

    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0:
        raise argparse.ArgumentTypeError(f"expects a number of hops (0: no limit), got {text!r}")
    return v


def add_command(sub) -> None:
    """Add `animate` to an argparse subparsers object."""
    import argparse

    p = sub.add_parser(
        "animate", help="write a self-contained HTML page that plays a nam trace (nam's successor)",
        description="Write one self-contained HTML page (no network access needed) that plays the run recorded "
                    "in an ns-2 nam trace (`$ns namtrace-all`; plain or gzipped).",
        epilog=USAGE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("namfile", help="the nam trace (.nam or .nam.gz)")
    p.add_argument("-o", "--output", help="the page to write (default: NAMFILE with .html)")
    p.add_argument("--start", type=_seconds, help="keep the run from this time (seconds; default: the beginning)")
    p.add_argument("--end", type=_seconds, help="keep the run up to this time (seconds; default: the end)")
    p.add_argument("--max-hops", type=_count, default=DEFAULT_MAX_HOPS, metavar="N",
                   help=f"stop after N packet passages over a link, 5 to 20 bytes of page each "
                        f"(default {DEFAULT_MAX_HOPS}; 0: no limit)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing but warnings and errors")
    p.set_defaults(fn=cli)
