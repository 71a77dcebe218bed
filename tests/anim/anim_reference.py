"""An independent reading of a nam trace for the tests: replays the packet
records up to a time t, as nam does (netmodel.cc: '+' queues a packet, '-'
takes it out, 'h' puts it on the link, 'r' takes it off, 'd' takes it out of
whichever it is in), and counts drops and ECN marks.  It shares no code with
python/dumbbell/anim."""

from __future__ import annotations

import gzip


def nam_lines(path):
    op = gzip.open if str(path).endswith(".gz") else open
    with op(path, "rt") as f:
        yield from f


def state_at(path, t: float):
    """Per directed link (s, d): [queued uids in arrival order, wire count, drops, marks]."""
    queue: dict[tuple[int, int], list[int]] = {}
    wire: dict[tuple[int, int], set[int]] = {}
    drops: dict[tuple[int, int], int] = {}
    marks: dict[tuple[int, int], int] = {}
    ce_at_enqueue: dict[tuple[int, int, int], bool] = {}
    for line in nam_lines(path):
        if line[:2] not in ("+ ", "- ", "h ", "r ", "d "):
            continue
        w = line.split()
        time = float(w[2])
        if time > t:
            break
        ev, s, d, uid, flags = w[0], int(w[4]), int(w[6]), int(w[14]), w[21]
        link = (s, d)
        q = queue.setdefault(link, [])
        on = wire.setdefault(link, set())
        ce = flags[4] == "E"
        if ev == "+":
            q.append(uid)
            ce_at_enqueue[(uid, s, d)] = ce
        elif ev == "-":
            if uid in q:
                q.remove(uid)
            if ce and not ce_at_enqueue.pop((uid, s, d), True):
                marks[link] = marks.get(link, 0) + 1
        elif ev == "h":
            on.add(uid)
        elif ev == "r":
            on.discard(uid)
        elif ev == "d":
            drops[link] = drops.get(link, 0) + 1
            if uid in q:
                q.remove(uid)
            else:
                on.discard(uid)
    links = set(queue) | set(wire) | set(drops)
    return {k: [list(queue.get(k, [])), len(wire.get(k, ())), drops.get(k, 0), marks.get(k, 0)] for k in links}


def event_times(path):
    out = []
    for line in nam_lines(path):
        if line[:2] in ("+ ", "- ", "h ", "r ", "d "):
            out.append(float(line.split()[2]))
    return out


def probe_times(path, n=25):
    """Times worth checking: exact event times (state includes events at t),
    midpoints between events, around drops, and the ends."""
    times = event_times(path)
    drops = [float(l.split()[2]) for l in nam_lines(path) if l.startswith("d ")]
    picks = set()
    step = max(1, len(times) // n)
    for i in range(0, len(times) - 1, step):
        picks.add(times[i])
        picks.add((times[i] + times[i + 1]) / 2)
    for t in drops[:10]:
        picks.add(t)
        picks.add(t + 1e-7)
    if times:
        picks.add(times[0])
        picks.add(times[-1])
    return sorted(picks)
