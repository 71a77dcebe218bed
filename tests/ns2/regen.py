#!/usr/bin/env python3
"""Regenerate the ns-2 differential-test fixtures.

    python3 tests/ns2/regen.py [case-id ...]      (all cases when no id given)
    NS=/path/to/ns python3 tests/ns2/regen.py ...  (default: "ns" on PATH)

For every case of tests/ns2/cases.json: copy the script into a fresh
temporary directory, run `ns <script> <args...>` there twice, check that the
two runs agree byte for byte (stdout after masking, every listed output
file) and that the exit code is the expected one, then replace
tests/ns2/fixtures/<id>/ with:

    stdout          stdout of the run, `mask` matches replaced by <masked>
    exit_code       the exit status, e.g. "0\\n"
    <name>.gz       each listed output file, gzip with mtime 0 and no name
    <name>.sha256   instead of .gz when the compressed file would be larger
                    than 4 MB: "<sha256 hex> <size in bytes>\\n"

Standard library only.  Exits non-zero if any case failed; fixtures of a
failed case are left untouched.
"""

import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "scripts")
FIXTURES = os.path.join(HERE, "fixtures")
CASES = os.path.join(HERE, "cases.json")
GZ_LIMIT = 4 * 1024 * 1024
MASK = b"<masked>"
TIMEOUT = 1800


class CaseError(Exception):
    pass


def gzip_bytes(data):
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as g:
        g.write(data)
    return buf.getvalue()


def masked(case, out):
    if case.get("mask"):
        out = re.sub(case["mask"].encode(), MASK, out)
    return out


def run_once(ns, case):
    """Run the case in a fresh directory; return (seconds, rc, stdout, {name: bytes})."""
    with tempfile.TemporaryDirectory(prefix="ns2-%s-" % case["id"]) as tmp:
        script = os.path.basename(case["script"])
        shutil.copy(os.path.join(SCRIPTS, case["script"]), os.path.join(tmp, script))
        t0 = time.monotonic()
        p = subprocess.run([ns, script] + list(case["args"]), cwd=tmp,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
        secs = time.monotonic() - t0
        if p.returncode != case.get("exit_code", 0):
            raise CaseError("exit code %d, expected %d; stderr:\n%s" % (
                p.returncode, case.get("exit_code", 0), p.stderr.decode(errors="replace")[-2000:]))
        if p.stderr and case.get("exit_code", 0) == 0:
            print("  [%s] stderr: %s" % (case["id"], p.stderr.decode(errors="replace")[-500:].strip()))
        files = {}
        for name in case["outputs"]:
            path = os.path.join(tmp, name)
            if not os.path.isfile(path):
                raise CaseError("output file %s was not written" % name)
            with open(path, "rb") as f:
                files[name] = f.read()
        extra = sorted(set(os.listdir(tmp)) - set(case["outputs"]) - {script})
        extra = [e for e in extra if not e.endswith(".nam")]
        if extra:
            print("  [%s] note: unlisted files written: %s" % (case["id"], " ".join(extra)))
        return secs, p.returncode, masked(case, p.stdout), files


def first_diff(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "line %d:\n    run 1: %r\n    run 2: %r" % (i + 1, x[:200], y[:200])
    return "lengths differ: %d vs %d lines" % (len(la), len(lb))


def regen(ns, case):
    secs, rc, out, files = run_once(ns, case)
    _, rc2, out2, files2 = run_once(ns, case)
    if out != out2:
        raise CaseError("NONDETERMINISTIC stdout, " + first_diff(out, out2))
    for name in files:
        if files[name] != files2[name]:
            raise CaseError("NONDETERMINISTIC %s, %s" % (name, first_diff(files[name], files2[name])))

    dest = os.path.join(FIXTURES, case["id"])
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    with open(os.path.join(dest, "stdout"), "wb") as f:
        f.write(out if case.get("stdout", True) else b"")
    with open(os.path.join(dest, "exit_code"), "w") as f:
        f.write("%d\n" % rc)
    stored = []
    for name in case["outputs"]:
        data = files[name]
        gz = gzip_bytes(data)
        if len(gz) <= GZ_LIMIT:
            with open(os.path.join(dest, name + ".gz"), "wb") as f:
                f.write(gz)
            stored.append((name, len(data), len(gz), "gz"))
        else:
            with open(os.path.join(dest, name + ".sha256"), "w") as f:
                f.write("%s %d\n" % (hashlib.sha256(data).hexdigest(), len(data)))
            stored.append((name, len(data), 0, "sha256"))
    return secs, stored, len(out)


def human(n):
    for unit in ("B", "K", "M", "G"):
        if n < 1024 or unit == "G":
            return ("%d%s" % (n, unit)) if unit == "B" else ("%.1f%s" % (n, unit))
        n /= 1024.0


def main(argv):
    ns = os.environ.get("NS", "ns")
    with open(CASES) as f:
        cases = json.load(f)
    ids = [c["id"] for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit("duplicate case ids: %s" % " ".join(sorted(dup)))
    if argv:
        unknown = [a for a in argv if a not in ids]
        if unknown:
            sys.exit("unknown case ids: %s" % " ".join(unknown))
        cases = [c for c in cases if c["id"] in argv]

    os.makedirs(FIXTURES, exist_ok=True)
    if not argv:
        for d in sorted(os.listdir(FIXTURES)):
            if d not in ids and os.path.isdir(os.path.join(FIXTURES, d)):
                print("removing stale fixture directory %s" % d)
                shutil.rmtree(os.path.join(FIXTURES, d))

    rows, failed, total_secs = [], [], 0.0
    for case in cases:
        print("%s: ns %s %s" % (case["id"], case["script"], " ".join(case["args"])), flush=True)
        try:
            secs, stored, outlen = regen(ns, case)
        except (CaseError, subprocess.TimeoutExpired, OSError) as e:
            print("  FAILED: %s" % e, flush=True)
            failed.append(case["id"])
            continue
        total_secs += secs
        files = ", ".join("%s %s->%s" % (n, human(raw), human(gz) if kind == "gz" else "sha256")
                          for n, raw, gz, kind in stored) or "-"
        rows.append((case["id"], "%.2f" % secs, "%s" % human(outlen), files))

    if rows:
        w = [max(len(r[i]) for r in rows + [("case", "secs", "stdout", "files")]) for i in range(3)]
        print()
        print("%-*s  %*s  %*s  %s" % (w[0], "case", w[1], "secs", w[2], "stdout", "files (raw->stored)"))
        for r in rows:
            print("%-*s  %*s  %*s  %s" % (w[0], r[0], w[1], r[1], w[2], r[2], r[3]))
    size = 0
    for root, _, names in os.walk(FIXTURES):
        size += sum(os.path.getsize(os.path.join(root, n)) for n in names)
    print("\n%d case(s) regenerated, ns-2 time %.1f s (one run each), fixtures/ now %s"
          % (len(rows), total_secs, human(size)))
    if failed:
        print("FAILED: %s" % " ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
