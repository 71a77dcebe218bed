"""The same scenario and seed give byte-identical results, every time:
20 runs in one process and runs in separate processes, for ns-2 scripts
(trace and nam files, standard output) and for the Python API (every frame
of the result, and the ns-2 trace it keeps)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}

# Scripts that draw random numbers (overhead_, on/off sources, error models,
# RED, Telnet, random variables) and write traces, nam files and stdout.
SCRIPTS = [
    ("examples/basic1.tcl", []),
    ("tests/ns2/scripts/onoff_sources.tcl", None),
    ("tests/ns2/scripts/red.tcl", None),
    ("tests/ns2/scripts/telnet.tcl", None),
    ("tests/ns2/scripts/ranvar.tcl", None),
    ("tests/ns2/scripts/nam_agents.tcl", None),
    # wireless nodes routed by AODV and DSDV (the MAC counter, the agents'
    # state and the channel's tables must start afresh each run)
    ("tests/ns2/scripts/wireless-aodv.tcl", ["repair", "AODV", "new", "ON"]),
    ("tests/ns2/scripts/wireless-aodv.tcl", ["grid", "DSDV", "old", "OFF"]),
    ("tests/ns2/scripts/wireless-80211ext.tcl", ["naka", "mixed", "5", "20"]),
]

# Runs one script N times in this process (Ns2Runner, as `dumbbell run` does,
# without ending the process) and prints, per run, the SHA-256 of every file
# it wrote and of its standard output.
DRIVER = r"""
import hashlib, io, json, os, shutil, sys, tempfile
from contextlib import redirect_stdout
from dumbbell.ns2.runner import Ns2Runner
script, n, args = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
src = os.path.abspath(script)
out = []
for i in range(n):
    d = tempfile.mkdtemp()
    shutil.copy(src, d)
    os.chdir(d)
    r, w = os.pipe()
    saved = os.dup(1)
    os.dup2(w, 1)
    try:
        runner = Ns2Runner(os.path.basename(src), args, own_tcl=True, exit_process=False)
        code = runner.run()
        runner.close() if hasattr(runner, "close") else None
        sys.stdout.flush()
    finally:
        os.dup2(saved, 1)
        os.close(w)
    text = b""
    while True:
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        text += chunk
    os.close(r)
    files = {f: hashlib.sha256(open(f, "rb").read()).hexdigest() for f in sorted(os.listdir(".")) if f != os.path.basename(src)}
    out.append({"code": code, "stdout": hashlib.sha256(text).hexdigest(), "files": files})
    os.chdir("/")
    shutil.rmtree(d)
print(json.dumps(out))
"""


def _args_of(script: str) -> list[str]:
    cases = json.loads((ROOT / "tests" / "ns2" / "cases.json").read_text())
    return next((c["args"] for c in cases if c["script"] == Path(script).name), [])


def _runs(script: str, args: list[str], n: int) -> list[dict]:
    r = subprocess.run([sys.executable, "-c", DRIVER, str(ROOT / script), str(n), json.dumps(args)],
                       capture_output=True, text=True, env=ENV, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.splitlines()[-1])


@pytest.mark.parametrize("script,args", SCRIPTS, ids=[Path(s).stem + ("-" + "-".join(a) if a else "") for s, a in SCRIPTS])
def test_ns2_script_twenty_times_in_one_process_and_across_processes(script, args):
    args = _args_of(script) if args is None else args
    first = _runs(script, args, 20)
    assert first[0]["files"], "the script writes files"
    for i, run in enumerate(first[1:], 2):
        assert run == first[0], f"run {i} of 20 in one process differs"
    assert _runs(script, args, 1)[0] == first[0], "another process differs"


API = r"""
import hashlib, io, json, sys
import dumbbell

def scenario():
    sim = dumbbell.Simulation(seed=int(sys.argv[2]))
    r1, r2 = sim.node(), sim.node()
    sim.link(r1, r2, "10Mb", "20ms", queue="RED", queue_params={"thresh": 5, "maxthresh": 15, "setbit": True})
    for i in range(4):
        s, d = sim.node(), sim.node()
        sim.link(s, r1, "100Mb", f"{1 + 3 * i}ms")
        sim.link(r2, d, "100Mb", "1ms")
        sim.tcp(s, d, variant=["reno", "newreno", "sack", "vegas"][i], ecn=True, overhead=0.001,
                trace_vars=("cwnd", "ssthresh"), start=0.1 * i)
    a, b = sim.node(), sim.node()
    sim.link(a, r1, "100Mb", "1ms")
    sim.link(r2, b, "100Mb", "1ms")
    sim.udp(a, b, traffic="exponential", rate="2Mb")
    sim.error_model(r1, r2, rate=0.001)
    return sim

def digest(res):
    h = hashlib.sha256()
    for name in ("flows", "queues", "events", "vars"):
        frame = getattr(res, name)
        buf = io.BytesIO()
        frame.write_ipc(buf)
        h.update(name.encode() + buf.getvalue())
    return h.hexdigest()

n = int(sys.argv[1])
sim = scenario()
print(json.dumps([digest(sim.run(5.0, trace_packets=True)) for _ in range(n)]
                 + [digest(scenario().run(5.0, trace_packets=True))]))
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_api_twenty_times_in_one_process_and_across_processes(seed):
    def runs(n):
        r = subprocess.run([sys.executable, "-c", API, str(n), str(seed)], capture_output=True, text=True, env=ENV,
                           timeout=600)
        assert r.returncode == 0, r.stderr[-2000:]
        return json.loads(r.stdout.splitlines()[-1])

    first = runs(20)
    assert len(set(first)) == 1, "a run in one process differs"
    assert runs(1) == first[:2], "another process differs"


def test_run_tcl_returns_the_scripts_exit_code_without_ending_the_process(tmp_path):
    code = ("import dumbbell, sys\n"
            "print(dumbbell.run_tcl(sys.argv[1], cwd=sys.argv[2]), dumbbell.run_tcl(sys.argv[1], cwd=sys.argv[2]))\n")
    (tmp_path / "e.tcl").write_text('puts hi\nexit 3\nputs never\n')
    r = subprocess.run([sys.executable, "-c", code, "e.tcl", str(tmp_path)], capture_output=True, text=True, env=ENV,
                       timeout=120)
    assert (r.returncode, r.stdout) == (0, "hi\nhi\n3 3\n"), r
