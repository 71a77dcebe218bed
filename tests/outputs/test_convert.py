"""`dumbbell convert TRACE -o OUT.parquet` and `Result.to_parquet`: one
row per trace line, typed columns, values as the trace reader reads them,
metadata saying what was converted, errors as file:line: message, and
pandas reading the files (docs/outputs.md)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest

import dumbbell as db
from dumbbell.analysis.convert import convert_trace, read_metadata

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "ns2" / "fixtures"
CLI = [sys.executable, "-m", "dumbbell.cli"]


def fixture(tmp: Path, case: str, name: str) -> Path:
    p = tmp / name
    p.write_bytes(gzip.decompress((FIXTURES / case / (name + ".gz")).read_bytes()))
    return p


def convert(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, "convert", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


def lines(p: Path) -> list[str]:
    return p.read_text().splitlines()


def as_strings(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(pl.col(c).cast(pl.String) for c, t in df.schema.items()
                           if isinstance(t, (pl.Enum, pl.Categorical)))


def test_mixed_trace_one_row_per_line_values_round_trip(tmp_path):
    tr = fixture(tmp_path, "basic1_10", "basic1.tr")
    r = convert(tr, "-o", tmp_path / "b.parquet")
    assert r.returncode == 0, r.stderr
    ev, vr = db.read_trace_all(tr)
    out = pl.read_parquet(tmp_path / "b.parquet")
    vout = pl.read_parquet(tmp_path / "b.vars.parquet")
    text = lines(tr)
    assert out.height == sum(1 for ln in text if ln[:2] in ("+ ", "- ", "r ", "d ")) == ev.height
    assert vout.height == len(text) - out.height == vr.height
    assert as_strings(out).equals(as_strings(ev))
    assert as_strings(vout).equals(as_strings(vr))
    # typed columns
    assert out.schema["time"] == pl.Float64 and out.schema["size"] == pl.Int32 and out.schema["uid"] == pl.Int64
    assert isinstance(out.schema["ptype"], pl.Categorical) and isinstance(out.schema["event"], pl.Categorical)
    # a line, field by field
    first_drop = next(ln for ln in text if ln.startswith("d "))
    row = out.filter(pl.col("event") == "d").row(0, named=True)
    assert first_drop.split() == ["d", f"{row['time']:g}", str(row["from_node"]), str(row["to_node"]), row["ptype"],
                                  str(row["size"]), row["flags"], str(row["fid"]),
                                  f"{row['src_node']}.{row['src_port']}", f"{row['dst_node']}.{row['dst_port']}",
                                  str(row["seqno"]), str(row["uid"])]
    md = read_metadata(tmp_path / "b.parquet")
    assert md["dumbbell.converted_from"] == str(tr)
    assert md["dumbbell.kind"] == "packets" and md["dumbbell.rows"] == str(out.height)
    assert md["dumbbell.source_lines"] == str(len(text))
    assert md["dumbbell.source_bytes"] == str(tr.stat().st_size)
    assert read_metadata(tmp_path / "b.vars.parquet")["dumbbell.kind"] == "vars"
    assert "packet events in 1 row group" in r.stdout


def test_tagged_trace(tmp_path):
    tr = fixture(tmp_path, "tagged_all", "out.tr")
    s = convert_trace(tr, tmp_path / "t.parquet")
    text = lines(tr)
    out = pl.read_parquet(tmp_path / "t.parquet")
    assert s["rows"] == {"packets": len(text)} and out.height == len(text)
    for ln, row in zip(text[:50], out.head(50).iter_rows(named=True)):
        f = ln.replace("{", "").replace("}", "").split()
        assert (row["event"], row["time"], row["from_node"], row["to_node"], row["ptype"], row["size"], row["fid"],
                row["uid"]) == (f[0], float(f[1]), int(f[3]), int(f[5]), f[7], int(f[9]), int(f[11]), int(f[13]))
        assert (f"{row['src_node']}.{row['src_port']}", f"{row['dst_node']}.{row['dst_port']}", row["seqno"],
                row["flags"]) == (f[17], f[18], int(f[19]), f[20])
    assert (out.filter(pl.col("event") == "h")["seqno"] == -1).all()


def test_read_trace_reads_what_convert_reads(tmp_path):
    # The lenient reader behind read_trace (and so the metrics) takes the
    # tagged format and RED's Q/a/p/c records too: the same frames as the
    # strict converter's files.
    tr = fixture(tmp_path, "tagged_all", "out.tr")
    convert_trace(tr, tmp_path / "t.parquet")
    ev = db.read_trace(tr)
    assert ev.height == len(lines(tr))
    assert as_strings(ev).equals(as_strings(pl.read_parquet(tmp_path / "t.parquet")))
    q = fixture(tmp_path, "red_ecn", "red-q.tr")
    convert_trace(q, tmp_path / "q.parquet")
    vr = db.read_vartrace(q)
    assert vr.height == len(lines(q))
    assert as_strings(vr).equals(as_strings(pl.read_parquet(tmp_path / "q.parquet")))


def test_variable_trace_alone_and_red_lines(tmp_path):
    tr = fixture(tmp_path, "red_ecn", "red-q.tr")
    s = convert_trace(tr, tmp_path / "q.parquet")
    assert s["files"] == {"vars": str(tmp_path / "q.parquet")}
    out = pl.read_parquet(tmp_path / "q.parquet")
    assert out.height == len(lines(tr))
    assert set(out["var"].cast(pl.String).unique()) == {"curq_", "ave_", "prob1_", "cur_max_p_"}
    first = lines(tr)[0].split()
    assert out.row(0, named=True)["value"] == float(first[2]) and out["src_node"][0] == -1
    cw = fixture(tmp_path, "red_ecn", "red-cwnd.tr")
    convert_trace(cw, tmp_path / "c.parquet")
    c = pl.read_parquet(tmp_path / "c.parquet")
    assert c.height == len(lines(cw)) and (c["var"].cast(pl.String) == "cwnd_").all()


def test_row_groups_stream_and_output_is_deterministic(tmp_path):
    tr = fixture(tmp_path, "basic1_10", "basic1.tr")
    n = len(lines(tr))
    s = convert_trace(tr, tmp_path / "small.parquet", row_group=1000)
    f = pq.ParquetFile(tmp_path / "small.parquet")
    assert f.metadata.num_row_groups == s["row_groups"]["packets"] == -(-n // 1000)
    assert max(f.metadata.row_group(i).num_rows for i in range(f.metadata.num_row_groups)) <= 1000
    convert_trace(tr, tmp_path / "big.parquet")
    a, b = pl.read_parquet(tmp_path / "small.parquet"), pl.read_parquet(tmp_path / "big.parquet")
    assert as_strings(a).equals(as_strings(b))
    convert_trace(tr, tmp_path / "again.parquet")
    assert (tmp_path / "again.parquet").read_bytes() == (tmp_path / "big.parquet").read_bytes()
    assert (tmp_path / "again.vars.parquet").read_bytes() == (tmp_path / "big.vars.parquet").read_bytes()


def test_bad_input(tmp_path):
    r = convert("nope.tr", "-o", "x.parquet", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr == "dumbbell convert: nope.tr: No such file or directory\n"
    good = "+ 0.1 0 1 tcp 1000 ------- 0 0.0 1.0 0 0\n"
    (tmp_path / "g.tr").write_text(good + good + "+ 0.1 0 1 tcp 1000 ------- 0 0.0 1.x 0 0\n" + good)
    r = convert("g.tr", "-o", "g.parquet", "--row-group", "1", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr == 'dumbbell convert: g.tr:3: packet event: bad destination address "1.x" (field 10)\n'
    assert not list(tmp_path.glob("g.parquet*")), "nothing left behind"
    (tmp_path / "s.tcl").write_text("set ns [new Simulator]\n$ns run\n")
    r = convert("s.tcl", "-o", "s.parquet", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.startswith("dumbbell convert: s.tcl:1: not an ns-2 trace record: expected")
    (tmp_path / "e.tr").write_text("")
    r = convert("e.tr", "-o", "e.parquet", cwd=tmp_path)
    assert r.returncode == 1 and "e.tr: no packet events or variable records in its 0 lines" in r.stderr
    r = convert(tmp_path, "-o", "d.parquet", cwd=tmp_path)
    assert r.returncode == 1 and "is a directory" in r.stderr
    r = convert("g.tr", "-o", "no/such/dir/g.parquet", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr == "dumbbell convert: no/such/dir/g.parquet: cannot write there: no directory no/such/dir\n"
    r = convert("g.tr", "-o", "g.parquet", "--row-group", "0", cwd=tmp_path)
    assert r.returncode == 2 and "--row-group: expected a positive number of lines, got '0'" in r.stderr
    assert "Traceback" not in r.stderr


def test_help_says_what_it_does():
    r = subprocess.run([*CLI, "convert", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "one row per" in r.stdout and "--row-group" in r.stdout


def test_pandas_interop(tmp_path):
    tr = fixture(tmp_path, "basic1_10", "basic1.tr")
    convert_trace(tr, tmp_path / "b.parquet")
    df = pd.read_parquet(tmp_path / "b.parquet")
    assert len(df) == db.read_trace(tr).height
    assert df["ptype"].dtype == "category" and str(df["time"].dtype) == "float64"
    assert set(df["event"].unique()) == {"+", "-", "r", "d"}
    p = db.read_trace(tr).to_pandas()
    assert p["seqno"].tolist() == df["seqno"].tolist()


def _sim():
    sim = db.Simulation(seed=7)
    a, r, b = sim.nodes(3)
    sim.link(a, r, "10Mb", "5ms")
    sim.link(r, b, "1Mb", "20ms", queue_limit=10, queue="RED")
    sim.tcp(a, b, variant="newreno", trace_vars=("cwnd_",))
    sim.udp(a, b, rate="200Kb")
    return sim


def test_result_to_parquet_with_parameters(tmp_path):
    res = _sim().run(3, trace_packets=True)
    paths = res.to_parquet(tmp_path / "run", params={"load": 0.5, "case": "a"})
    assert [p.name for p in paths] == ["flows.parquet", "vars.parquet", "events.parquet", "queues.parquet",
                                       "sources.parquet"]
    for p, df in zip(paths, (res.flows, res.vars, res.events, res.queues, res.sources)):
        back = pl.read_parquet(p)
        assert back.equals(df) and df.height > 0
        md = read_metadata(p)
        assert md["dumbbell.frame"] == p.stem
        assert json.loads(md["dumbbell.params"]) == {"load": 0.5, "case": "a"}
        run = json.loads(md["dumbbell.parameters"])
        assert run["until"] == 3 and run["seed"] == 7 and run["nodes"] == 3
        assert [(lk["src"], lk["dst"], lk["queue"]) for lk in run["links"]][2:] == [(1, 2, "RED"), (2, 1, "RED")]
        assert run["flows"][0]["variant"] == "newreno" and run["sources"][0]["traffic"] == "cbr"
        assert md["dumbbell.script"] == res.script
    assert pd.read_parquet(paths[0])["ndatapack"].tolist() == res.flows["ndatapack"].to_list()
    with pytest.raises(ValueError, match="params must be JSON data"):
        res.to_parquet(tmp_path / "x", params={"f": object()})
