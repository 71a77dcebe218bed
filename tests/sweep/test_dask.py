"""The same plan on a Dask cluster (a LocalCluster on loopback) gives the
same table as the local pool; the cache stays with the submitting side."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from conftest import BASIC2_COLUMNS, ROOT
from dumbbell import sweep
from dumbbell.sweep import Plan, run_sweep

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as c:
        yield c


def test_dask_gives_the_local_table(plandir, cluster):
    plan = Plan(script="basic2.tcl", args=["{delayB}", "{overhead}", "0.8", "6", "20", "{seed}", "out.tr"],
                params={"delayB": [0, 7, 36], "overhead": [0.0, 0.01]}, seeds=2, outputs=["out.tr"],
                metrics={"columns": BASIC2_COLUMNS}, base_dir=plandir)
    local = run_sweep(plan, jobs=2, cache_dir=plandir / "local-cache", progress=False)
    remote = run_sweep(plan, dask=cluster.scheduler_address, cache_dir=plandir / "dask-cache", progress=False)
    assert sweep.last_report.ran == 12
    assert remote["status"].to_list() == ["ok"] * 12
    drop = ["elapsed", "files"]
    assert remote.drop(drop).equals(local.drop(drop))
    # kept files came back to the client's cache, identical to the local ones
    for a, b in zip(local["files"], remote["files"]):
        assert b.startswith(str(plandir / "dask-cache")) and a.startswith(str(plandir / "local-cache"))
        assert Path(a, "out.tr").read_bytes() == Path(b, "out.tr").read_bytes()
    # a repeat on the cluster is served from the client's cache
    again = run_sweep(plan, dask=cluster.scheduler_address, cache_dir=plandir / "dask-cache", progress=False)
    assert sweep.last_report.ran == 0 and again.equals(remote)


def test_dask_failures_and_python_functions(plandir, cluster):
    plan = Plan(function="sweepfns:broken", params={"x": [1, 2, 3]}, base_dir=plandir)
    df = run_sweep(plan, dask=cluster.scheduler_address, progress=False)
    assert df["status"].to_list() == ["ok", "failed", "ok"] and "x = 2 is not allowed" in df["error"][1]


def test_dask_from_the_command_line(plandir, cluster):
    (plandir / "plan.toml").write_text('script = "count.tcl"\nargs = ["{x}"]\n[params]\nx = [1, 2, 3]\n'
                                       '[metrics]\ncolumns = ["double", "triple"]\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "sweep", "plan.toml", "--dask",
                        cluster.scheduler_address, "--no-progress"], cwd=plandir, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert f"on {cluster.scheduler_address}" in r.stderr
    assert pl.read_parquet(plandir / "plan.parquet")["triple"].to_list() == [3, 6, 9]


def test_dask_sends_the_plan_files_once(plandir, cluster, monkeypatch):
    # The script and inputs go to the cluster once (scattered), not inside
    # every task; the runs still get them.
    (plandir / "big.dat").write_bytes(b"x" * 200_000)
    plan = Plan(script="count.tcl", args=["{x}"], params={"x": [1, 2, 4, 5]}, inputs=["big.dat"],
                metrics={"columns": ["double", "triple"]}, base_dir=plandir)
    client = distributed.Client(cluster.scheduler_address)
    scattered, submitted = [], []
    real_scatter, real_submit = client.scatter, client.submit

    def scatter(data, **kw):
        scattered.append(data)
        return real_scatter(data, **kw)

    def submit(fn, *args, **kw):
        submitted.append(args)
        return real_submit(fn, *args, **kw)

    monkeypatch.setattr(client, "scatter", scatter)
    monkeypatch.setattr(client, "submit", submit)
    try:
        df = run_sweep(plan, dask=client, cache_dir=False, progress=False)
    finally:
        client.close()
    assert df["status"].to_list() == ["ok"] * 4 and df["double"].to_list() == [2, 4, 8, 10]
    assert len(scattered) == 1 and [set(d) for d in scattered[0]] == [{"big.dat", "count.tcl"}]
    assert len(submitted) == 4 and all("files" not in task for task, _ in submitted)


def test_dask_runs_use_their_own_files_when_another_client_holds_the_same_names(plandir, cluster):
    # Another client on the cluster holds data under the key "count.tcl" (as
    # a sweep that scattered its files dict by name would): our runs must
    # still get our script.
    other = distributed.Client(cluster.scheduler_address)
    client = distributed.Client(cluster.scheduler_address)
    try:
        held = other.scatter({"count.tcl": b"exit 3\n"}, broadcast=True, hash=False)
        plan = Plan(script="count.tcl", args=["{x}"], params={"x": [1, 2, 3]},
                    metrics={"columns": ["double", "triple"]}, base_dir=plandir)
        df = run_sweep(plan, dask=client, cache_dir=False, progress=False)
        assert held["count.tcl"].result() == b"exit 3\n"
    finally:
        client.close()
        other.close()
    assert df["status"].to_list() == ["ok"] * 3 and df["double"].to_list() == [2, 4, 6]
