"""Shared code of Dumbbell's ns-2 trace helpers (getrc, raw2xg, raw2xg-sctp,
set_flow_id).

ns-2's validation suites post-process their traces with small Perl tools
from ns-2's bin/ directory.  The scripts next to this file do the same
jobs in Python and give the same bytes.  Trace fields are handled the way
a Perl script sees them, because the reference outputs depend on it:

* a trace is a sequence of byte lines; a field list is the line split at
  runs of ASCII white space (blank, tab, newline, CR, FF, VT);
* a field used as a number gets its leading numeric part (" 12abc" is
  12, "abc" and a missing field are 0) -- see num();
* arithmetic keeps exact integers while the operands are integers and
  switches to doubles otherwise; doubles print with 15 significant
  digits ("%.15g"), zero as "0", infinities as "Inf"/"-Inf", NaN as
  "NaN" -- see add(), mul(), mod(), fmt().  (Only for values of 2**53
  and more, far beyond anything in a trace, can the choice between an
  exact integer and a double differ from the original tools', where it
  depends on how a value came about.)

Everything here is the standard library only: the scripts must run with
any python3, also when a suite starts them as "perl ../../bin/getrc ..."
(perl hands a script whose #! line names another interpreter over to it).
"""

import math
import os
import re
import signal
import sys

__all__ = [
    "UsageError", "Fatal", "getopts", "number_option", "modulus_option",
    "Inputs", "num", "add", "mul", "mod", "eq", "lt", "fmt",
    "plot_y", "title", "header", "data_set", "link_bars", "run",
]

IV_MIN = -(2 ** 63)          # smallest signed 64-bit integer
UV_MAX = 2 ** 64 - 1         # largest unsigned 64-bit integer
EXACT = 2 ** 53              # doubles hold every integer below this


class UsageError(Exception):
    """Bad command line: message, short usage, exit status 2."""


class Fatal(Exception):
    """Unrecoverable error while working: message, exit status 1."""


# ---------------------------------------------------------------- numbers

_NUMBER = re.compile(
    rb"[ \t\n\r\f\v]*([+-]?)(?:(\d+)(\.\d*)?|(\.\d+))(?:[eE]([+-]?\d+))?")
_INFNAN = re.compile(rb"[ \t\n\r\f\v]*([+-]?)(inf|nan|qnan|snan)", re.I)
_OPTION_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def num(field):
    """Numeric value of a trace field (bytes or None).

    Returns an int when the field's numeric prefix is a plain integer in
    the 64-bit range, otherwise a float.  No numeric prefix gives 0.
    """
    if field is None:
        return 0
    if field.isdigit():                     # the common case, fast
        v = int(field)
        return v if v <= UV_MAX else float(v)
    m = _NUMBER.match(field)
    if m is None:
        m = _INFNAN.match(field)
        if m is None:
            return 0
        if m.group(2).lower() == b"inf":
            return -math.inf if m.group(1) == b"-" else math.inf
        return math.nan
    sign, whole, frac, bare_frac, exp = m.groups()
    if frac is None and bare_frac is None and exp is None:
        v = int(whole)
        if sign == b"-":
            v = -v
        return v if IV_MIN <= v <= UV_MAX else float(v)
    return float(m.group(0))


def _is_int(v):
    """True if v takes part in arithmetic as an exact integer: an int, or
    a double holding a whole number below 2**53 in magnitude."""
    if isinstance(v, int):
        return True
    return math.isfinite(v) and v.is_integer() and -EXACT < v < EXACT


def _fit(exact, a, b, op):
    if IV_MIN <= exact <= UV_MAX:
        return exact
    return op(float(a), float(b))


def add(a, b):
    if _is_int(a) and _is_int(b):
        return _fit(int(a) + int(b), a, b, lambda x, y: x + y)
    return float(a) + float(b)


def mul(a, b):
    if _is_int(a) and _is_int(b):
        return _fit(int(a) * int(b), a, b, lambda x, y: x * y)
    return float(a) * float(b)


def _magnitude(v):
    """(is_negative, |v| as a double, whole part of |v| as an int).

    The whole part is None when |v| is 2**64 or more, Inf or NaN.  For
    an exact integer the double is None (it is made from the int).
    """
    if _is_int(v):
        v = int(v)
        return v < 0, None, abs(v)
    neg = v < 0
    mag = -v if neg else v
    if mag < 2.0 ** 64:                     # also False for NaN
        return neg, mag, int(mag)
    return neg, mag, None


def _half_up(x):
    return float(math.floor(x + 0.5)) if math.isfinite(x) else x


def _fmod(x, y):
    """C's fmod: NaN where Python's math.fmod raises."""
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0:
        return math.nan
    return x if math.isinf(y) else math.fmod(x, y)


def mod(a, b):
    """Integer remainder of a by b, the sign following b (floored).

    Operands are cut to their whole parts first (7.9 % 3 is 1).  Raises
    ZeroDivisionError when the whole part of b is 0.  Operands of 2**64
    and above (or Inf/NaN) make it a floating-point remainder: when b
    is that large, of the plain magnitudes; when only a is, of both
    magnitudes rounded half up to whole numbers.
    """
    bneg, bdbl, bmag = _magnitude(b)
    aneg, adbl, amag = _magnitude(a)
    if bmag is None:
        db = bdbl
        da = float(amag) if adbl is None else adbl
    elif amag is None:
        db = float(bmag) if bdbl is None else _half_up(bdbl)
        da = _half_up(adbl)
    else:
        if bmag == 0:
            raise ZeroDivisionError("modulus zero")
        r = amag % bmag
        if aneg != bneg and r:
            r = bmag - r
        if bneg:
            r = -r
            return r if r >= IV_MIN else float(r)
        return r
    if db == 0:
        raise ZeroDivisionError("modulus zero")
    r = _fmod(da, db)
    if aneg != bneg and r:
        r = db - r
    return -r if bneg else r


def eq(a, b):
    if _is_int(a) and _is_int(b):
        return int(a) == int(b)
    return float(a) == float(b)


def lt(a, b):
    if _is_int(a) and _is_int(b):
        return int(a) < int(b)
    return float(a) < float(b)


def fmt(v):
    """The bytes a number prints as."""
    if isinstance(v, int):
        return b"%d" % v
    if v == 0:
        return b"0"
    if math.isnan(v):
        return b"NaN"
    if math.isinf(v):
        return b"Inf" if v > 0 else b"-Inf"
    return b"%.15g" % v


# ---------------------------------------------------------- command line

def getopts(args, spec, usage):
    """Parse single-letter options the way ns-2's helpers expect.

    spec lists the letters, a letter followed by ':' takes a value.
    Flags may be bundled (-aec), a value may be attached (-s0.01) or be
    the next word; "--" ends the options, as does the first word that
    does not start with '-' (a lone "-" means standard input).  A repeated
    option keeps its last value.  "--help" prints usage and exits 0.
    Returns (dict letter -> True or value str, remaining words).
    """
    takes_value = {}
    for i, ch in enumerate(spec):
        if ch != ":":
            takes_value[ch] = spec[i + 1:i + 2] == ":"
    opts = {}
    args = list(args)
    while args and len(args[0]) > 1 and args[0][0] == "-":
        word = args.pop(0)
        if word == "--":
            break
        if word == "--help":
            sys.stdout.write(usage)
            sys.stdout.flush()
            sys.exit(0)
        rest = word[1:]
        while rest:
            letter, rest = rest[0], rest[1:]
            if letter not in takes_value:
                raise UsageError("unknown option -%s" % letter)
            if not takes_value[letter]:
                opts[letter] = True
                continue
            if not rest:
                if not args:
                    raise UsageError("option -%s needs a value" % letter)
                rest = args.pop(0)
            opts[letter] = rest
            break
    return opts, args


def number_option(opts, letter, default=None):
    """Value of a numeric option, checked to be a decimal number."""
    if letter not in opts:
        return default
    raw = os.fsencode(opts[letter])
    if not _OPTION_NUMBER.fullmatch(raw):
        raise UsageError("-%s wants a number, not %r" % (letter, opts[letter]))
    return num(raw)


def modulus_option(opts):
    """-m MODULUS (default 2**31), refused when its whole part is 0."""
    modulus = number_option(opts, "m", 2 ** 31)
    try:
        mod(0, modulus)
    except ZeroDivisionError:
        raise UsageError("-m %s: a modulus with whole part 0 is not allowed"
                         % opts["m"])
    return modulus


# ----------------------------------------------------------- xgraph output

def plot_y(seq, flow, factor, modulus, scale):
    """The y value xgraph plots for a packet, as bytes:
    flow * factor + (seq mod modulus) * scale (seq, flow: numbers)."""
    return fmt(add(mul(flow, factor), mul(mod(seq, modulus), scale)))


def title(opts, from_trace, inputs):
    """-t TITLE if given; else the third field of the last testName line
    if not empty; else the name of the file the last line came from,
    without directories ("-" for stdin; empty when there was no line)."""
    if "t" in opts:
        return os.fsencode(opts["t"])
    if from_trace:
        return from_trace
    m = re.search(rb"([^/]+)$", inputs.name or b"")
    return m.group(1) if m else b""


def header(title, lines, y_unit):
    """xgraph's preface: title, axes, points joined by lines or not."""
    return (b"TitleText: " + title + b"\nDevice: Postscript\n"
            b"BoundBox: true\nTicks: true\n"
            + (b"" if lines else b"NoLines: true\n")
            + b"Markers: true\nXUnitText: time\nYUnitText: " + y_unit
            + b"\n")


def data_set(name, points, repeat_first=False):
    """A named xgraph data set, its points sorted as text.

    xgraph shows no marker for a data set of one point, so sets that
    often have just one point first repeat (up to) four points in the
    order they came (repeat_first)."""
    return (b'\n"' + name + b"\n" + b"".join(points[:4] if repeat_first
                                             else ())
            + b"".join(sorted(points)))


def link_bars(downs, ups, top):
    """xgraph data sets drawing a vertical bar from 0 to top at each
    link-down and link-up time."""
    out = []
    for name, times in ((b"link-down", downs), (b"link-up", ups)):
        for t in times:
            out.append(b'"%s\n%s 0\n%s %s\n' % (name, t, t, top))
    return b"".join(out)


# ------------------------------------------------------------------ input

class Inputs:
    """The lines of the named files in turn ("-" or no name: stdin).

    A file that cannot be opened or read is reported on stderr and
    skipped; .failed then tells the caller to exit nonzero at the end.
    .name is the name of the file the last line came from (None before
    the first line).
    """

    def __init__(self, prog, names):
        self.prog = prog
        self.names = [os.fsencode(n) for n in names] or [b"-"]
        self.failed = False
        self.name = None

    def __iter__(self):
        for name in self.names:
            if name == b"-":
                if sys.stdin is None:
                    self._complain(name, OSError(0, "standard input is closed"))
                    continue
                yield from self._lines(name, sys.stdin.buffer)
                continue
            try:
                f = open(name, "rb")
            except OSError as e:
                self._complain(name, e)
                continue
            with f:
                yield from self._lines(name, f)

    def _lines(self, name, f):
        try:
            for line in f:
                self.name = name
                yield line
        except OSError as e:
            self._complain(name, e)

    def _complain(self, name, e):
        self.failed = True
        sys.stderr.write("%s: cannot read %s: %s\n" % (
            self.prog, os.fsdecode(name), e.strerror or e))


# ------------------------------------------------------------------- main

def run(prog, usage, main):
    """Run main(argv) -> exit status as a command-line tool.

    Usage errors print a message and the usage summary (status 2),
    other errors a message (status 1); never a Python traceback.  A
    closed output pipe ends the program quietly, as it would a C tool.
    """
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        status = main(sys.argv[1:])
        sys.stdout.flush()
    except UsageError as e:
        lines = usage.splitlines(True)
        synopsis = lines[:1] + [l for l in lines[1:2] if l.startswith(" ")]
        sys.stderr.write("%s: %s\n%s(%s --help tells more)\n"
                         % (prog, e, "".join(synopsis), prog))
        status = 2
    except Fatal as e:
        sys.stderr.write("%s: %s\n" % (prog, e))
        status = 1
    except KeyboardInterrupt:
        status = 130
    except OSError as e:
        sys.stderr.write("%s: %s\n" % (prog, e.strerror or e))
        status = 1
    try:
        sys.stdout.flush()
    except OSError:
        status = status or 1
    # Skip interpreter teardown: nothing is left to flush, and a second
    # flush of a broken stdout would print a Python warning.
    sys.stderr.flush()
    os._exit(status)
