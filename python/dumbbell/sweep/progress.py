"""The progress bar of a sweep on stderr.  Relies on nothing else of the sweep."""

from __future__ import annotations

import sys
import time


def _hms(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class Progress:
    """A one-line progress bar on stderr: done/total, rate, ETA, cached and
    failed counts.  Redrawn in place on a terminal (at most 10 times a
    second); elsewhere (a log file, CI) one line every 30 s."""

    def __init__(self, total: int, cached: int, enabled: bool = True, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and getattr(self.stream, "isatty", lambda: False)()
        self.total, self.cached = total, cached
        self.done = cached
        self.ran = 0
        self.failed = 0
        self.t0 = time.monotonic()
        self.last = 0.0
        self.width = 0
        self.draw(force=True)

    def update(self, failed: bool):
        self.done += 1
        self.ran += 1
        self.failed += bool(failed)
        self.draw()

    def line(self) -> str:
        el = time.monotonic() - self.t0
        pct = 100.0 * self.done / self.total if self.total else 100.0
        bar_n = 24
        fill = int(bar_n * self.done / self.total) if self.total else bar_n
        rate = self.ran / el if el > 0 and self.ran else 0.0
        left = self.total - self.done
        eta = _hms(left / rate) if rate > 0 else "?"
        extra = [f"{self.cached} cached"] if self.cached else []
        if self.failed:
            extra.append(f"{self.failed} failed")
        tail = f" ({', '.join(extra)})" if extra else ""
        speed = f"{rate:.2f} runs/s  " if self.ran else ""
        return (f"sweep {self.done}/{self.total} {pct:3.0f}% |{'#' * fill}{'.' * (bar_n - fill)}| "
                f"{speed}elapsed {_hms(el)}  ETA {eta if left else '0:00:00'}{tail}")

    def draw(self, force=False):
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if force or now - self.last >= 0.1 or self.done == self.total:
                s = self.line()
                self.stream.write("\r" + s + " " * max(0, self.width - len(s)))
                self.width = len(s)
                self.stream.flush()
                self.last = now
        elif force or now - self.last >= 30 or self.done == self.total:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last = now

    def close(self):
        if self.enabled:
            if self.tty:
                self.draw(force=True)
                self.stream.write("\n")
            elif self.last and self.done != self.total:
                self.stream.write(self.line() + "\n")
            self.stream.flush()
