#!/usr/bin/env python3
"""Summarise codel-oracle fixtures as Markdown (used for README.md).

usage: summarize.py fixtures/s*.txt
"""
import math
import re
import sys


def parse_time(s):
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", s)
    return int(round(float(m.group(1)) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]))


def summarize(path):
    hdr = {}
    ev = []
    for l in open(path):
        l = l.strip()
        if l.startswith("# target="):
            for x in l[2:].split():
                k, v = x.split("=", 1)
                hdr[k] = v
        if l.startswith("# summary"):
            summ = dict(x.split("=") for x in l.split()[2:])
        if not l or l.startswith("#"):
            continue
        f = l.split()
        kv = dict(x.split("=") for x in f[3:])
        ev.append((int(f[0]), f[1], int(f[2]), kv))
    target_c = parse_time(hdr["target"]) >> 10
    interval_c = parse_time(hdr["interval"]) >> 10
    min_bytes = int(hdr["minBytes"])

    count = 0
    episodes = []  # [enter_ns, entry_count, exit_ns, exit_count, cause, drops, marks]
    cur = None
    call = []  # events of the current dequeue call
    multi = {}
    spacing_err = []
    last_dn = None
    first_drop = first_mark = None
    for e in ev:
        t, name, val, kv = e
        if name in ("enqueue", "drop(overlimit)"):
            continue
        call.append(e)
        if name not in ("dequeue", "dequeue_empty"):
            continue
        # one complete DoDequeue call
        nd = sum(1 for c in call if c[1] == "drop(target)")
        if nd > 1:
            multi[nd] = multi.get(nd, 0) + 1
        entered = any(c[1] == "dropping" and c[2] == 1 for c in call)
        left = any(c[1] == "dropping" and c[2] == 0 for c in call)
        for c in call:
            if c[1] == "count":
                count = c[2]
            if c[1] == "drop(target)":
                first_drop = first_drop if first_drop is not None else c[0]
                if cur:
                    cur[5] += 1
            if c[1].startswith("mark(target"):
                first_mark = first_mark if first_mark is not None else c[0]
                if cur:
                    cur[6] += 1
            if c[1] == "drop_next":
                # drop path: next = old drop_next + spacing; mark path: next = now + spacing
                marked = any(x[1] == "mark(target)" for x in call)
                base = (t >> 10) if marked else last_dn
                if base is not None and count >= 5 and not entered:
                    spacing_err.append((c[2] - base) / (interval_c / math.sqrt(count)) - 1)
                last_dn = c[2]
        if entered:
            cur = [t, count, None, None, None, 0, 0]
            # the entering drop/mark itself
            cur[5] = sum(1 for c in call if c[1] == "drop(target)")
            cur[6] = sum(1 for c in call if c[1] == "mark(target)")
        if left and cur:
            if name == "dequeue_empty":
                cause = "empty disc"
            elif (int(call[-1][3]["sojourn_ns"]) >> 10) < target_c:
                cause = "sojourn<target"
            else:
                cause = "backlog<MinBytes"
            cur[2], cur[3], cur[4] = t, count, cause
            episodes.append(cur)
            cur = None
        call = []
    if cur:
        episodes.append(cur)

    name = path.split("/")[-1]
    out = []
    out.append("#### %s\n" % name)
    out.append("- totals: sent %s, enqueued %s, dequeued %s, drop(target) %s, drop(overlimit) %s, "
               "mark(target) %s, mark(ce_threshold) %s, empty DoDequeue calls %s"
               % (summ["sent"], summ["enqueued"], summ["dequeued"], summ["drop_target"],
                  summ["drop_overlimit"], summ["mark_target"], summ["mark_ce"],
                  summ["empty_dequeue_calls"]))
    out.append("- first drop(target): %s; first mark(target): %s"
               % ("%.6f s" % (first_drop / 1e9) if first_drop is not None else "none",
                  "%.6f s" % (first_mark / 1e9) if first_mark is not None else "none"))
    out.append("- DoDequeue calls that dropped more than one packet: %s"
               % (", ".join("%d calls x %d drops" % (v, k) for k, v in sorted(multi.items())) or "none"))
    if spacing_err:
        out.append("- drop_next spacing vs interval/sqrt(count) (count>=5, inside an episode): "
                   "mean %+.3f%%, min %+.3f%%, max %+.3f%% over %d updates"
                   % (100 * sum(spacing_err) / len(spacing_err), 100 * min(spacing_err),
                      100 * max(spacing_err), len(spacing_err)))
    out.append("\n| episode | enter (s) | count at entry | leave (s) | count at exit | left because | drops | marks |")
    out.append("|---|---|---|---|---|---|---|---|")
    for k, e in enumerate(episodes):
        out.append("| %d | %.6f | %d | %s | %s | %s | %d | %d |"
                   % (k + 1, e[0] / 1e9, e[1],
                      "%.6f" % (e[2] / 1e9) if e[2] else "-", e[3] if e[3] else "-",
                      e[4] or "-", e[5], e[6]))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(summarize(p))
