"""Plans: parameter expansion, the cartesian product with zip groups, and
clear errors for bad plans before anything runs."""

from __future__ import annotations

import pytest

from conftest import BASIC2_COLUMNS
from dumbbell.sweep import Metrics, MetricError, Plan, PlanError, RESERVED, cli_main, expand, load_plan


# ---- ranges --------------------------------------------------------------------------------------

def test_integer_range_inclusive():
    v = expand("delayB", {"start": 0, "stop": 400, "step": 1})
    assert len(v) == 401 and v[0] == 0 and v[-1] == 400 and all(type(x) is int for x in v)


def test_float_ranges_are_exact_decimals():
    assert expand("o", {"start": 0, "stop": 0.3, "step": 0.1}) == [0.0, 0.1, 0.2, 0.3]
    v = expand("o", {"start": 0.0, "stop": 1.0, "step": 0.1})
    assert len(v) == 11 and v[3] == 0.3 and v[7] == 0.7 and v[-1] == 1.0
    v = expand("d", {"start": 25, "stop": 55, "step": 0.5})
    assert len(v) == 61 and v[-1] == 55.0 and all(type(x) is float for x in v)
    assert expand("o", {"start": 0.005, "stop": 0.02, "step": 0.005}) == [0.005, 0.01, 0.015, 0.02]


def test_range_stop_off_grid_and_descending():
    assert expand("q", {"start": 0, "stop": 10, "step": 3}) == [0, 3, 6, 9]
    assert expand("q", {"start": 10, "stop": 0, "step": -5}) == [10, 5, 0]
    assert expand("q", {"start": 3, "stop": 3, "step": 1}) == [3]


def test_linspace_logspace_lists_scalars():
    assert expand("x", {"start": 0, "stop": 1, "num": 5}) == [0.0, 0.25, 0.5, 0.75, 1.0]
    v = expand("bw", {"start": 1, "stop": 1000, "num": 4, "log": True})
    assert v[0] == 1.0 and v[-1] == 1000.0 and abs(v[1] - 10) < 1e-9 and abs(v[2] - 100) < 1e-9
    assert expand("q", [20, 5, 10]) == [20, 5, 10]
    assert expand("v", ["Reno", "Newreno"]) == ["Reno", "Newreno"]
    assert expand("t", 300) == [300]
    assert expand("q", range(3)) == [0, 1, 2]


@pytest.mark.parametrize("spec, msg", [
    ({"start": 0, "stop": 10, "step": 0}, "params.x.step: must not be 0"),
    ({"start": 10, "stop": 0, "step": 1}, "params.x: empty range"),
    ({"start": 0, "stop": 10}, "params.x: a range is"),
    ({"start": 0, "stop": 10, "step": 1, "num": 3}, "params.x: a range is"),
    ({"start": 0, "stop": "10", "step": 1}, "params.x.stop: expected a number"),
    ({"start": 0, "stop": 1, "num": 0}, "params.x.num: expected a positive integer"),
    ({"start": 0, "stop": 1, "num": 3, "log": True}, "log spacing needs start and stop > 0"),
    ([], "params.x: empty list"),
    ([1, 2, 1], "repeated values"),
    ([1, None], "values must be numbers"),
    ({"a": 1}, "params.x: a range is"),
])
def test_bad_ranges(spec, msg):
    with pytest.raises(PlanError, match=msg.replace(".", r"\.")):
        expand("x", spec)


# ---- points ---------------------------------------------------------------------------------------

def test_cartesian_product_in_declared_order(plandir):
    p = Plan(script=plandir / "count.tcl", args=["{a}", "{b}"], params={"a": [2, 1], "b": ["x", "y", "z"]})
    assert p.points() == [{"a": 2, "b": "x"}, {"a": 2, "b": "y"}, {"a": 2, "b": "z"},
                          {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 1, "b": "z"}]


def test_zip_groups_move_together(plandir):
    p = Plan(script=plandir / "count.tcl", args=["{bw}", "{q}", "{o}"],
             params={"bw": [0.8, 8.0], "q": [1, 2, 3], "o": [0.02, 0.002]}, zip=[["bw", "o"]])
    pts = p.points()
    assert len(pts) == 6
    assert pts[0] == {"bw": 0.8, "q": 1, "o": 0.02} and pts[3] == {"bw": 8.0, "q": 1, "o": 0.002}
    assert list(pts[0]) == ["bw", "q", "o"]


def test_seeds_and_runs(plandir):
    p = Plan(script=plandir / "count.tcl", args=["{x}", "{seed}"], params={"x": [1, 2]}, seeds=3)
    runs = p.runs()
    assert [(r.params["x"], r.seed) for r in runs] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)]
    assert runs[4].task["args"] == ["2", "2"]
    assert len({r.key for r in runs}) == 6
    assert Plan(script=plandir / "count.tcl", args=["{x}", "{seed}"], params={"x": 1}, seeds=[7, 3]).seeds == [7, 3]


def test_default_args_are_the_parameters_in_order(plandir):
    p = Plan(script=plandir / "basic2.tcl", params={"delayB": [0, 5], "overhead": 0.01})
    assert p.runs()[1].task["args"] == ["5", "0.01"]


def test_format_specs_and_env(plandir):
    p = Plan(script=plandir / "count.tcl", args=["{x:.2f}", "lit{{x}}"], env={"SEED": "{seed}"},
             params={"x": [1.5]}, seeds=2)
    r = p.runs()[1]
    assert r.task["args"] == ["1.50", "lit{x}"] and r.task["env"] == {"SEED": "2"}


# ---- cache keys -----------------------------------------------------------------------------------

def _key(plandir, **kw):
    base = dict(script="count.tcl", args=["{x}"], params={"x": [1]}, base_dir=plandir)
    base.update(kw)
    return Plan(**base).runs()[0].key


def test_cache_key_depends_on_what_the_run_depends_on(plandir):
    k = _key(plandir)
    assert _key(plandir) == k
    assert _key(plandir, args=["{x}", "9"]) != k
    assert _key(plandir, env={"A": "1"}) != k
    assert _key(plandir, outputs=["out.tr"]) != k
    (plandir / "data.txt").write_text("1")
    k1 = _key(plandir, inputs=["data.txt"])
    (plandir / "data.txt").write_text("2")
    assert _key(plandir, inputs=["data.txt"]) != k1 != k
    # stdout metrics are read from the cached output: they do not change the key
    assert _key(plandir, metrics={"columns": ["a", "b"]}) == k
    assert _key(plandir, metrics={"regex": r"x=(?P<xx>\d+)"}) == k
    (plandir / "count.tcl").write_text((plandir / "count.tcl").read_text() + "\n# changed\n")
    assert _key(plandir) != k


# ---- bad plans ------------------------------------------------------------------------------------

def _plan_error(plandir, msg, **kw):
    base = dict(script=plandir / "count.tcl", args=["{x}"], params={"x": [1, 2]})
    base.update(kw)
    with pytest.raises(PlanError, match=msg):
        Plan(**base)


def test_bad_plans_name_the_key(plandir):
    _plan_error(plandir, r"args\[1\]: unknown placeholder \{y\}", args=["{x}", "{y}"])
    _plan_error(plandir, r"args\[0\]: positional placeholder", args=["{}"])
    _plan_error(plandir, r"params\.x: 2 values but neither args nor env uses \{x\}", args=["1"])
    _plan_error(plandir, r"seeds: 3 seeds but neither args nor env uses \{seed\}", seeds=3)
    _plan_error(plandir, r"seeds: expected at least 1", seeds=0)
    _plan_error(plandir, r"script: .*nope\.tcl does not exist", script=plandir / "nope.tcl")
    _plan_error(plandir, r"plan: give exactly one of", script=None)
    _plan_error(plandir, r"params: no parameters", params={})
    _plan_error(plandir, r"params\.seed: 'seed' is a column", params={"seed": [1]})
    _plan_error(plandir, r"params\.1x: parameter names are identifiers", params={"1x": [1]})
    _plan_error(plandir, r"metrics\.column: unknown key", metrics={"column": ["a"]})
    _plan_error(plandir, r"metrics\.regex\[0\]: .* has no named group", metrics={"regex": r"x=(\d+)"})
    _plan_error(plandir, r"metrics\.regex\[0\]: bad regex", metrics={"regex": r"x=(?P<a>\d+"})
    _plan_error(plandir, r"metrics: 'x' is also a parameter", metrics={"columns": ["x", "b"]})
    _plan_error(plandir, r"metrics: 'status' is also a parameter or a column", metrics={"columns": ["status"]})
    _plan_error(plandir, r"metrics: 'a' is produced twice", metrics={"columns": ["a"], "regex": r"(?P<a>\d)"})
    _plan_error(plandir, r"metrics\.keep: 'c' is not a metric", metrics={"columns": ["a", "b"], "keep": ["c"]})
    _plan_error(plandir, r"metrics\.line: only meaningful with metrics\.columns", metrics={"line": -2})
    _plan_error(plandir, r"metrics\.function: expected \"module:function\"", metrics={"function": "nocolon"})
    _plan_error(plandir, r"metrics\.function: cannot import 'nomodule_xyz:f'", metrics={"function": "nomodule_xyz:f"})
    _plan_error(plandir, r"zip\[0\]: zipped parameters need equally many values",
                args=["{x}", "{y}"], params={"x": [1, 2], "y": [1, 2, 3]}, zip=[["x", "y"]])
    _plan_error(plandir, r"zip\[0\]: 'z' is not a parameter", zip=[["x", "z"]])
    _plan_error(plandir, r"timeout: expected seconds > 0", timeout=0)
    _plan_error(plandir, r"args\[0\]: cannot format", args=["{x:q}"])
    _plan_error(plandir, r"outputs: '\.\./a': output files are named relative", outputs=["../a"])
    _plan_error(plandir, r"plots\[0\]\.x: expected a parameter name", metrics={"columns": ["a", "b"]},
                plots=[{"x": "a", "y": "b"}])
    _plan_error(plandir, r"plots\[0\]\.y: 'c' is not a metric", metrics={"columns": ["a", "b"]},
                plots=[{"x": "x", "y": "c"}])


def test_bad_python_plans(plandir):
    with pytest.raises(PlanError, match=r"params\.q: sweepfns:poly has no parameter 'q'"):
        Plan(function="sweepfns:poly", params={"x": [1], "q": [2]})
    with pytest.raises(PlanError, match=r"seeds: 2 seeds but sweepfns:broken takes no `seed`"):
        Plan(function="sweepfns:broken", params={"x": [1]}, seeds=2)
    with pytest.raises(PlanError, match=r"function: sweepfns:basic2 needs 'delayB'"):
        Plan(function="sweepfns:basic2", params={"overhead": [0.0]})
    with pytest.raises(PlanError, match=r"function: .* is not a module-level function"):
        Plan(function=lambda x: {"x": x}, params={"x": [1]})
    with pytest.raises(PlanError, match=r"function: cannot import 'sweepfns:nothing_here'"):
        Plan(function="sweepfns:nothing_here", params={"x": [1]})
    with pytest.raises(PlanError, match=r"args: only for scripts"):
        Plan(function="sweepfns:poly", args=["{x}"], params={"x": [1]})
    with pytest.raises(PlanError, match=r"metrics\.columns: a Python function's metrics are the dict"):
        Plan(function="sweepfns:poly", params={"x": [1]}, metrics={"columns": ["a"]})


def test_toml_plans(plandir, capsys):
    (plandir / "p.toml").write_text('script = "count.tcl"\nparam = 1\n[params]\nx = [1]\n')
    with pytest.raises(PlanError, match=r"unknown key 'param'"):
        load_plan(plandir / "p.toml")
    (plandir / "p.toml").write_text('script = "count.tcl"\n[params]\nx = [1\n')
    with pytest.raises(PlanError, match=r"not valid TOML"):
        load_plan(plandir / "p.toml")
    (plandir / "p.toml").write_text('script = "count.tcl"\nargs = ["{x}", "{ms}"]\n[params]\nx = [1, 2]\nms = 0\n'
                                    '[metrics]\ncolumns = ["a", "b"]\n[[plots]]\nx = "x"\ny = "a"\n')
    p = load_plan(plandir / "p.toml", {"ms": 5})
    assert p.script == plandir / "count.tcl" and p.values == {"x": [1, 2], "ms": [5]}
    assert p.plots[0]["y"] == ["a"]
    with pytest.raises(PlanError, match=r"--set nope: the plan has no parameter 'nope'"):
        load_plan(plandir / "p.toml", {"nope": 1})
    # the command line reports plan errors with exit status 2, before running anything
    assert cli_main([str(plandir / "p.toml"), "--set", "nope=3"]) == 2
    assert "the plan has no parameter 'nope'" in capsys.readouterr().err
    assert cli_main([str(plandir / "missing.toml")]) == 2
    assert cli_main([str(plandir / "p.toml"), "--set", "x={start=1, stop=3, step=1}", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "3 points x 1 seed = 3 runs" in out and "0 runs done (0 failed), 3 to run" in out
    assert "would run: dumbbell run count.tcl 1 0" in out


def test_the_delayB_plan_parses():
    from conftest import HERE

    p = load_plan(HERE / "basic2_delayB.toml")
    assert len(p.points()) == 401 and p.seeds == [1]
    r = p.runs()[37]
    assert r.task["args"] == ["37", "0", "0.8", "300", "20"]


# ---- reading metrics from stdout -------------------------------------------------------------------

STDOUT = ("parameters: delayB=37.000000 overhead=0.000000 bottleneckBW=0.800000\n"
          "37.000000 0.000000 26163 3338 1.336364 1.785868 7.837927 5.865115 4.388862\n"
          "ack0 26152 ack1 3338 rexmit0 104 rexmit1 283\n\n")


def test_metrics_from_stdout():
    fixed = set(RESERVED) | {"delayB"}
    m = Metrics({"columns": BASIC2_COLUMNS, "line": -2}, "tcl", fixed).from_stdout(STDOUT)
    assert m == {"recv0": 26163, "recv1": 3338, "rttratio": 1.336364, "rttratio2": 1.785868,
                 "actualratio": 7.837927, "ratio1": 5.865115, "ratio2": 4.388862}
    assert type(m["recv0"]) is int
    m = Metrics({"columns": BASIC2_COLUMNS, "line": r"^\d"}, "tcl", fixed).from_stdout(STDOUT)
    assert m["ratio2"] == 4.388862
    m = Metrics({"regex": [r"ack0 (?P<ack0>\d+) ack1 (?P<ack1>\d+)", r"rexmit1 (?P<rexmit1>\d+)"]}, "tcl",
                fixed).from_stdout(STDOUT)
    assert m == {"ack0": 26152, "ack1": 3338, "rexmit1": 283}
    m = Metrics({"keyvalue": ["overhead", "bottleneckBW"]}, "tcl", fixed).from_stdout(STDOUT)
    assert m == {"overhead": 0.0, "bottleneckBW": 0.8}
    m = Metrics({"keyvalue": True}, "tcl", set()).from_stdout("a=1 b=x c=2.5\na=3\n")
    assert m == {"a": 3, "b": "x", "c": 2.5}


def test_metrics_errors_say_why():
    with pytest.raises(MetricError, match=r"names 9 fields, the line has 8: .ack0 26152"):
        Metrics({"columns": BASIC2_COLUMNS}, "tcl", set()).from_stdout(STDOUT)
    with pytest.raises(MetricError, match=r"metrics.line = -5: stdout has 3 non-empty lines"):
        Metrics({"columns": ["a"], "line": -5}, "tcl", set()).from_stdout(STDOUT)
    with pytest.raises(MetricError, match=r"regex\[0\] .* does not match"):
        Metrics({"regex": r"nope (?P<n>\d+)"}, "tcl", set()).from_stdout(STDOUT)
    with pytest.raises(MetricError, match=r"no zz=\.\.\. in stdout"):
        Metrics({"keyvalue": ["zz"]}, "tcl", set()).from_stdout(STDOUT)


def test_plot_path_checked_with_the_plan(plandir):
    with pytest.raises(PlanError, match=r"plots\[0\]\.path: .*\.png, \.pdf or \.svg"):
        Plan(script=plandir / "count.tcl", params={"x": [1]}, metrics={"columns": ["a", "b"]},
             plots=[{"x": "x", "y": "a", "path": "fig.gif"}])
