"""Node positions for the page, from nam's hints where the file has them.

* Nodes with coordinates (``n -t * ... -x X -y Y``, from ``$node set X_``)
  stay where they are.
* Links with an orientation (``duplex-link-op ... orient right-up``) place
  their far node as nam's layout does (netmodel.cc, traverseNodeConnections):
  along the link's angle, at a distance that grows with the link's delay.
  A topology whose links are all oriented is drawn exactly so.
* The rest (nam would run its spring layout) is placed by stress
  majorization, deterministically: the distance wanted between two nodes is
  their shortest path, each link counting for its drawn length; oriented and
  fixed nodes keep their places.

Coordinates are nam's (y up); the page flips them.
"""

from __future__ import annotations

import math

import numpy as np


def link_lengths(delays: list[float]) -> list[float]:
    """A drawn length per link: its delay over the median delay, clamped to
    [0.6, 3] so that a 1 ms access link and a 100 ms core link stay visible."""
    pos = sorted(d for d in delays if d > 0)
    med = pos[len(pos) // 2] if pos else 0.0
    return [1.0 if med <= 0 or d <= 0 else min(3.0, max(0.6, d / med)) for d in delays]


def layout(node_ids: list[int], coords: dict[int, tuple[float, float]],
           links: list[tuple[int, int, float, float | None]]) -> dict[int, tuple[float, float]]:
    """`links`: (a, b, length, angle in units of pi or None).  Returns a
    position per node."""
    n = len(node_ids)
    if n == 0:
        return {}
    index = {v: i for i, v in enumerate(node_ids)}
    pos = np.zeros((n, 2))
    placed = np.zeros(n, dtype=bool)
    pinned = np.zeros(n, dtype=bool)
    for v, (x, y) in coords.items():
        i = index[v]
        pos[i] = (x, y)
        placed[i] = pinned[i] = True
    if pinned.all():
        return {v: (float(pos[i, 0]), float(pos[i, 1])) for v, i in index.items()}
    if pinned.sum() >= 2:
        # link lengths in the coordinates' units: the fixed nodes' spread shared among the nodes
        span = float(np.hypot(*(pos[pinned].max(axis=0) - pos[pinned].min(axis=0))))
        unit = span / max(1, n - 1) if span > 0 else 1.0
        links = [(a, b, length * unit, angle) for a, b, length, angle in links]

    # nam's traversal along oriented links, breadth first from the fixed nodes, then from each unplaced node
    # in file order (a component of its own).
    adj: list[list[tuple[int, float, float]]] = [[] for _ in range(n)]
    for a, b, length, angle in links:
        if angle is None or a == b:
            continue
        ia, ib = index[a], index[b]
        adj[ia].append((ib, length, angle))
        adj[ib].append((ia, length, angle + 1.0))
    comp = -np.ones(n, dtype=int)
    comps: list[list[int]] = []

    def spread(seeds: list[int], c: int) -> None:
        queue = list(seeds)
        for s in seeds:
            comp[s] = c
        while queue:
            i = queue.pop(0)
            for j, length, angle in adj[i]:
                if placed[j]:
                    if comp[j] < 0:
                        comp[j] = c
                        queue.append(j)
                    continue
                pos[j] = pos[i] + length * np.array((math.cos(math.pi * angle), math.sin(math.pi * angle)))
                placed[j] = True
                comp[j] = c
                queue.append(j)

    fixed = [i for i in range(n) if pinned[i]]
    if fixed:
        spread(fixed, 0)
        comps.append([i for i in range(n) if comp[i] == 0])
    for i in range(n):
        if comp[i] < 0 and adj[i]:
            c = len(comps)
            placed[i] = True
            spread([i], c)
            comps.append([j for j in range(n) if comp[j] == c])
    all_links_oriented = all(angle is not None for *_, angle in links)
    if placed.all() and len(comps) <= 1 and all_links_oriented:
        return {v: (float(pos[i, 0]), float(pos[i, 1])) for v, i in index.items()}

    # Keep the fixed nodes and the largest oriented component; place the others by stress majorization.
    keep = np.zeros(n, dtype=bool)
    keep[pinned] = True
    oriented = [c for c in comps if len(c) > 1]
    if oriented and not fixed:
        keep[max(oriented, key=len)] = True
    elif fixed:
        keep[comps[0]] = True
    free = ~keep
    if n > MAX_STRESS_NODES:
        return _layered(node_ids, index, pos, keep, links)
    dist = _shortest_paths(n, [(index[a], index[b], length) for a, b, length, _ in links])
    if keep.any():
        x = pos.copy()
        # start the free nodes near the kept ones they are closest to, spread on a circle
        centre = pos[keep].mean(axis=0)
        k = np.flatnonzero(free)
        radius = max(1.0, float(np.nanmax(np.where(np.isfinite(dist), dist, np.nan))) / 2)
        for m, i in enumerate(k):
            a = 2 * math.pi * m / max(1, len(k))
            x[i] = centre + radius * np.array((math.cos(a), math.sin(a)))
    else:
        x = _classical_mds(dist)
    x = _stress_majorization(x, dist, free)
    return {v: (float(x[i, 0]), float(x[i, 1])) for v, i in index.items()}


# Stress majorization costs n^2 memory and n^3 time for the distances: beyond this many nodes the
# others are laid out in layers instead.
MAX_STRESS_NODES = 150


def _layered(node_ids, index, pos, keep, links) -> dict[int, tuple[float, float]]:
    """Many nodes: breadth-first layers from the first node of each
    component (hops on the x axis), spread on the y axis; kept nodes stay,
    the layers go to their right."""
    n = len(node_ids)
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b, _, _ in links:
        adj[index[a]].append(index[b])
        adj[index[b]].append(index[a])
    layer = -np.ones(n, dtype=int)
    column: dict[int, int] = {}
    base = 0
    for s in range(n):
        if layer[s] >= 0 or keep[s]:
            continue
        layer[s] = base
        queue, deepest = [s], base
        while queue:
            i = queue.pop(0)
            for j in adj[i]:
                if layer[j] < 0 and not keep[j]:
                    layer[j] = layer[i] + 1
                    deepest = max(deepest, layer[j])
                    queue.append(j)
        base = deepest + 2
    x0 = float(pos[keep, 0].max()) + 2.0 if keep.any() else 0.0
    out = {}
    for v, i in index.items():
        if keep[i]:
            out[v] = (float(pos[i, 0]), float(pos[i, 1]))
        else:
            row = column.get(layer[i], 0)
            column[layer[i]] = row + 1
            out[v] = (x0 + float(layer[i]), -float(row) * 0.5)
    # centre each layer vertically
    for v, i in index.items():
        if not keep[i]:
            out[v] = (out[v][0], out[v][1] + (column[layer[i]] - 1) * 0.25)
    return out


def _shortest_paths(n: int, edges: list[tuple[int, int, float]]) -> np.ndarray:
    d = np.full((n, n), np.inf)
    np.fill_diagonal(d, 0.0)
    for a, b, length in edges:
        if a != b:
            d[a, b] = d[b, a] = min(d[a, b], length)
    for k in range(n):  # Floyd-Warshall, vectorised per pivot
        np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :], out=d)
    finite = d[np.isfinite(d)]
    gap = (finite.max() if finite.size else 1.0) + 1.0
    d[~np.isfinite(d)] = gap  # disconnected parts: a little apart
    return d


def _classical_mds(d: np.ndarray) -> np.ndarray:
    n = d.shape[0]
    if n == 1:
        return np.zeros((1, 2))
    j = np.eye(n) - 1.0 / n
    b = -0.5 * j @ (d ** 2) @ j
    w, v = np.linalg.eigh(b)
    order = np.argsort(w)[::-1][:2]
    x = v[:, order] * np.sqrt(np.maximum(w[order], 1e-12))
    # eigenvectors' signs are arbitrary: fix them (the largest entry positive), so the picture is reproducible
    for c in range(x.shape[1]):
        if x[np.argmax(np.abs(x[:, c])), c] < 0:
            x[:, c] = -x[:, c]
    if x.shape[1] < 2:
        x = np.hstack([x, np.zeros((n, 1))])
    # a line of nodes (a chain): lay it horizontally
    return x


def _stress_majorization(x: np.ndarray, d: np.ndarray, free: np.ndarray, iterations: int = 200) -> np.ndarray:
    """Localized stress majorization (Gansner, Koren and North 2004): each
    free node moves to the weighted mean of where each other node wants it,
    weights 1/d^2; the others stay."""
    n = x.shape[0]
    if n < 2 or not free.any():
        return x
    w = np.zeros_like(d)
    off = ~np.eye(n, dtype=bool)
    w[off] = 1.0 / d[off] ** 2
    x = x.copy()
    wsum = w.sum(axis=1)
    tol = 1e-4 * float(np.median(d[off]))
    for _ in range(iterations):
        diff = x[:, None, :] - x[None, :, :]
        norm = np.sqrt((diff ** 2).sum(axis=2))
        norm[norm < 1e-9] = 1e-9
        pull = (w * d / norm)[:, :, None] * diff
        target = ((w[:, :, None] * x[None, :, :]).sum(axis=1) + pull.sum(axis=1)) / wsum[:, None]
        step = np.abs(target[free] - x[free]).max()
        x[free] = target[free]
        if step < tol:
            break
    return x
