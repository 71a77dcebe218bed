"""One-call plots of simulation results (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

import polars as pl


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _finish(fig, ax, path, title, legend: bool):
    """Common finishing of a figure: title, legend, grid, layout, save."""
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path)
    return fig


def plot_cwnd(vartrace: pl.DataFrame, path: str | Path | None = None, title: str | None = None, var: str = "cwnd_"):
    """cwnd (or another traced variable) against time, one line per flow.

    `vartrace` is a frame from `read_vartrace` or `Result.vars`.  Saves to
    `path` (PNG/PDF/SVG by extension) when given; returns the figure.
    """
    plt = _plt()
    d = vartrace.filter(pl.col("var") == var)
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    # A flow is its sender (src node.port); records written before the
    # agent was connected carry destination -1 and belong to the same flow.
    for key, g in d.group_by(["src_node", "src_port"], maintain_order=True):
        ax.step(g["time"].to_numpy(), g["value"].to_numpy(), where="post", lw=0.8,
                label=f"sender {key[0]}.{key[1]}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(var.rstrip("_") + " (packets)")
    several = d.select(pl.struct(["src_node", "src_port"]).n_unique()).item() > 1
    return _finish(fig, ax, path, title, legend=several)


def plot_seqno(events: pl.DataFrame, path: str | Path | None = None, node: int | None = None, title: str | None = None):
    """Sequence-number plot: data packets received (r) at their destination
    node, and drops (d), against time, per flow id."""
    plt = _plt()
    data = events.filter(pl.col("ptype") == "tcp")
    rcv = data.filter((pl.col("event") == "r") & (pl.col("to_node") == pl.col("dst_node")))
    if node is not None:
        rcv = rcv.filter(pl.col("to_node") == node)
    drp = data.filter(pl.col("event") == "d")
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    for (fid,), g in rcv.group_by(["fid"], maintain_order=True):
        ax.plot(g["time"].to_numpy(), g["seqno"].to_numpy(), ".", ms=1.5, label=f"flow {fid} received")
    if drp.height:
        ax.plot(drp["time"].to_numpy(), drp["seqno"].to_numpy(), "x", ms=3, color="red", label="dropped")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("sequence number (packets)")
    return _finish(fig, ax, path, title, legend=True)
