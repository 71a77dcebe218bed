// The animation's model: the run's hops and changes, and what is where at
// a time t.  No DOM here: view.js draws it; the tests run this file alone
// (tests/anim) in a small JavaScript engine and in Chromium.
"use strict";

var NamModel = (function () {
  // Hop flags, as python/dumbbell/anim/namfile.py writes them.
  var DROP_QUEUE = 1, DROP_LINK = 2, RECEIVED = 4, MARKED = 8, CE = 16, DROP_ALONE = 32;
  var DROPPED = DROP_QUEUE | DROP_LINK | DROP_ALONE;
  var BLOCK = 1024;  // hops between two checkpoints of the index

  var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  function base64Bytes(text) {
    var lut = new Int16Array(128).fill(-1);
    for (var i = 0; i < 64; i++) lut[B64.charCodeAt(i)] = i;
    var clean = text.replace(/[^A-Za-z0-9+/]/g, "");
    var n = Math.floor(clean.length * 3 / 4);
    var out = new Uint8Array(n);
    var o = 0, acc = 0, bits = 0;
    for (var j = 0; j < clean.length; j++) {
      acc = (acc << 6) | lut[clean.charCodeAt(j)];
      bits += 6;
      if (bits >= 8) { bits -= 8; if (o < n) out[o++] = (acc >> bits) & 255; }
    }
    return out.subarray(0, o);
  }

  // The columns from the inflated bytes: each column is byte-shuffled (all
  // first bytes, then all second bytes, ...), little-endian.
  function columns(meta, bytes) {
    var n = meta.n_hops, cols = {};
    meta.columns.forEach(function (c) {
      var buf = new ArrayBuffer(n * c.width), dst = new Uint8Array(buf);
      var src = bytes.subarray(c.offset, c.offset + n * c.width);
      if (src.length !== n * c.width) throw new Error("column " + c.name + ": data too short");
      for (var k = 0; k < c.width; k++) {
        var plane = k * n;
        for (var i = 0; i < n; i++) dst[i * c.width + k] = src[plane + i];
      }
      var T = {f64: Float64Array, u32: Uint32Array, i32: Int32Array, u8: Uint8Array}[c.kind];
      var col = new T(buf);
      if (c.delta_of) {  // a difference from an earlier time, then the times it cannot give exactly
        var base = cols[c.delta_of];
        for (var j = 0; j < n; j++) col[j] = base[j] + col[j];
        var dv = new DataView(bytes.buffer, bytes.byteOffset);
        for (var x = 0; x < c.n_exc; x++) {
          col[dv.getUint32(c.exc_index + 4 * x, true)] = dv.getFloat64(c.exc_value + 8 * x, true);
        }
      }
      cols[c.name] = col;
    });
    return cols;
  }

  function lowerBound(arr, x, n) {  // first index with arr[i] > x
    var lo = 0, hi = n === undefined ? arr.length : n;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (arr[mid] <= x) lo = mid + 1; else hi = mid; }
    return lo;
  }

  function Model(meta, bytes) {
    this.meta = meta;
    this.n = meta.n_hops;
    var c = columns(meta, bytes);
    this.tIn = c.t_in; this.tOut = c.t_out; this.tHop = c.t_hop; this.tEnd = c.t_end;
    this.edge = c.edge; this.fid = c.fid; this.size = c.size; this.uid = c.uid; this.seq = c.seq;
    this.ptype = c.ptype; this.flags = c.flags;
    this.edges = meta.edges;
    this.nodeIndex = {};
    for (var i = 0; i < meta.nodes.length; i++) this.nodeIndex[meta.nodes[i].id] = i;
    this.linkOf = {};
    for (var k = 0; k < meta.links.length; k++) {
      var lk = meta.links[k];
      this.linkOf[lk.a + ":" + lk.b] = k; this.linkOf[lk.b + ":" + lk.a] = k;
    }
    this._index();
  }

  // start: when a hop first exists (queued, or leaving, or a lone drop);
  // stop: when it no longer does (received, dropped; +Infinity if the file ends first).
  Model.prototype.start = function (i) {
    var t = this.tIn[i];
    if (t === t) return t;
    t = this.tOut[i];
    if (t === t) return t;
    return this.tEnd[i];
  };
  Model.prototype.stop = function (i) {
    var t = this.tEnd[i];
    if (this.flags[i] & DROP_ALONE) return t;  // an instant
    return t === t ? t : Infinity;
  };

  Model.prototype._index = function () {
    var n = this.n, starts = new Float64Array(n), stops = new Float64Array(n);
    for (var i = 0; i < n; i++) {
      starts[i] = this.start(i); stops[i] = this.stop(i);
      if (i > 0 && starts[i] < starts[i - 1]) throw new Error("hops are not in time order at " + i);
    }
    this.starts = starts; this.stops = stops;
    // checkpoints: at hop b*BLOCK, the hops before it still alive at its start time
    var nb = Math.ceil(n / BLOCK), cpTime = new Float64Array(nb), cpOff = new Int32Array(nb + 1), alive = [];
    var lists = [], total = 0;
    for (var b = 0; b < nb; b++) {
      var first = b * BLOCK, t = starts[first], next = [];
      if (b > 0) for (var j = (b - 1) * BLOCK; j < first; j++) alive.push(j);
      for (var a = 0; a < alive.length; a++) if (stops[alive[a]] > t) next.push(alive[a]);
      alive = next;
      cpTime[b] = t; cpOff[b] = total; lists.push(alive.slice()); total += alive.length;
    }
    cpOff[nb] = total;
    var cpList = new Int32Array(total), o = 0;
    for (var q = 0; q < lists.length; q++) { cpList.set(lists[q], o); o += lists[q].length; }
    this.cpTime = cpTime; this.cpOff = cpOff; this.cpList = cpList;
    // drop and mark times per edge, sorted, for counts up to t
    var ne = this.edges.length, drops = [], marks = [];
    for (var e = 0; e < ne; e++) { drops.push([]); marks.push([]); }
    var allDrops = [];
    for (var h = 0; h < n; h++) {
      if (this.flags[h] & DROPPED) { drops[this.edge[h]].push(this.tEnd[h]); allDrops.push(h); }
      if (this.flags[h] & MARKED) marks[this.edge[h]].push(this.tOut[h]);
    }
    var num = function (x, y) { return x - y; };
    this.dropTimes = drops.map(function (a) { return Float64Array.from(a.sort(num)); });
    this.markTimes = marks.map(function (a) { return Float64Array.from(a.sort(num)); });
    var self = this;
    allDrops.sort(function (x, y) { return self.tEnd[x] - self.tEnd[y] || x - y; });
    this.drops = Int32Array.from(allDrops);
    this.dropAt = Float64Array.from(allDrops.map(function (x) { return self.tEnd[x]; }));
    var changes = this.meta.changes.slice();
    this.changes = changes;  // in file order; times never decrease in a file ns-2 wrote
  };

  // Hops alive at t (start <= t < stop), in hop order.
  Model.prototype.alive = function (t) {
    var out = [], n = this.n;
    if (n === 0) return out;
    var b = lowerBound(this.cpTime, t) - 1, i;
    if (b < 0) { b = 0; }
    for (var k = this.cpOff[b]; k < this.cpOff[b + 1]; k++) {
      i = this.cpList[k];
      if (this.starts[i] <= t && this.stops[i] > t) out.push(i);
    }
    for (i = b * BLOCK; i < n && this.starts[i] <= t; i++) {
      if (this.stops[i] > t) out.push(i);
    }
    return out;
  };

  Model.prototype.isQueued = function (i, t) { return this.tIn[i] <= t && t < this.tOut[i]; };
  Model.prototype.isOnWire = function (i, t) { return this.tHop[i] <= t && t < this.tEnd[i]; };

  // The delay of the hop's link (from the 'l' line), its transmission time
  // (from 'r' when it was received, else from size and rate).
  Model.prototype.linkDelay = function (e) {
    var k = this.edges[e].link;
    return k === null || k === undefined ? 0 : this.meta.links[k].delay;
  };
  Model.prototype.txTime = function (i) {
    var e = this.edge[i], d = this.linkDelay(e);
    if ((this.flags[i] & RECEIVED) && isFinite(this.tEnd[i]) && isFinite(this.tHop[i])) {
      return Math.max(0, this.tEnd[i] - this.tHop[i] - d);
    }
    var k = this.edges[e].link, rate = k === null || k === undefined ? 0 : this.meta.links[k].rate;
    return rate > 0 ? this.size[i] * 8 / rate : 0;
  };

  // Where a packet on the wire is at t: the fractions of the link its
  // trailing and leading edges have travelled (nam draws it between them).
  Model.prototype.wireSpan = function (i, t) {
    var e = this.edge[i], d = this.linkDelay(e), tx = this.txTime(i), el = t - this.tHop[i];
    var total = d + tx;
    if (!(total > 0)) return [0, 1];
    if (d <= 0) return [0, 1];
    var lead = Math.min(1, el / d), trail = Math.max(0, (el - tx) / d);
    return [Math.max(0, trail), Math.max(0, lead)];
  };

  Model.prototype.count = function (sorted, t) { return lowerBound(sorted, t); };

  // Everything shown at t.  `fall`: how long (simulated seconds) a dropped
  // packet is shown falling.
  Model.prototype.stateAt = function (t, fall) {
    fall = fall || 0;
    var ne = this.edges.length, queues = [], wire = [], i, k;
    for (k = 0; k < ne; k++) queues.push([]);
    var ids = this.alive(t);
    for (k = 0; k < ids.length; k++) {
      i = ids[k];
      if (this.isQueued(i, t)) queues[this.edge[i]].push(i);
      else if (this.isOnWire(i, t)) wire.push(i);
    }
    var perEdge = [];
    for (k = 0; k < ne; k++) {
      perEdge.push({queued: queues[k].length, wire: 0, drops: this.count(this.dropTimes[k], t),
                    marks: this.count(this.markTimes[k], t)});
    }
    for (k = 0; k < wire.length; k++) perEdge[this.edge[wire[k]]].wire++;
    // drops shown falling: dropped in (t - fall, t]
    var falling = [];
    if (fall > 0) {
      var hi = lowerBound(this.dropAt, t), lo = lowerBound(this.dropAt, t - fall);
      for (k = lo; k < hi; k++) falling.push(this.drops[k]);
    }
    var totals = {queued: 0, wire: wire.length, drops: 0, marks: 0};
    for (k = 0; k < ne; k++) { totals.queued += perEdge[k].queued; totals.drops += perEdge[k].drops; totals.marks += perEdge[k].marks; }
    return {t: t, queues: queues, wire: wire, edges: perEdge, falling: falling, totals: totals,
            scene: this.sceneAt(t)};
  };

  // The position a dropped packet falls from: its queue slot (rank among
  // the packets queued just before), its place on the wire, or the link's source.
  Model.prototype.dropOrigin = function (i) {
    var f = this.flags[i], t = this.tEnd[i];
    if (f & DROP_QUEUE) {
      var rank = 0, ids = this.alive(t - 0);
      for (var k = 0; k < ids.length; k++) {
        var j = ids[k];
        if (j !== i && this.edge[j] === this.edge[i] && this.isQueued(j, t) && j < i) rank++;
      }
      return {kind: "queue", rank: rank};
    }
    if (f & DROP_LINK) return {kind: "wire", span: this.wireSpan(i, t - 1e-12)};
    return {kind: "node"};
  };

  // Node and link attributes, marks, agents, the annotation and the
  // animation rate in force at t (changes with time <= t, in file order).
  Model.prototype.sceneAt = function (t) {
    var meta = this.meta, nodes = {}, links = {}, k;
    meta.nodes.forEach(function (n) {
      nodes[n.id] = {color: n.color, lcolor: n.lcolor, label: "", labelColor: "", labelAt: "", up: true,
                     marks: [], agents: []};
    });
    meta.links.forEach(function (l, j) {
      links[j] = {color: l.color, label: "", labelColor: "", labelAt: "", up: true};
    });
    var annotation = null, rate = null, self = this;
    function link(c) { var j = self.linkOf[c[2] + ":" + c[3]]; return j === undefined ? null : links[j]; }
    for (k = 0; k < this.changes.length; k++) {
      var c = this.changes[k];
      if (c[0] > t) break;
      var n = nodes[c[2]], l;
      switch (c[1]) {
        case "ncolor": if (n) { n.color = c[3]; n.lcolor = c[3]; } break;
        case "nlabel": if (n) n.label = c[3]; break;
        case "nlabelcolor": if (n) n.labelColor = c[3]; break;
        case "nlabelat": if (n) n.labelAt = c[3]; break;
        case "nstate": if (n) n.up = c[3] !== "DOWN"; break;
        case "mark":
          if (n && !n.marks.some(function (m) { return m.name === c[3]; })) n.marks.push({name: c[3], color: c[4], shape: c[5]});
          break;
        case "unmark": if (n) n.marks = n.marks.filter(function (m) { return m.name !== c[3]; }); break;
        case "agent": if (n && n.agents.indexOf(c[3]) < 0) n.agents.push(c[3]); break;
        case "agent-": if (n) n.agents = n.agents.filter(function (a) { return a !== c[3]; }); break;
        case "lcolor": if ((l = link(c))) l.color = c[4]; break;
        case "llabel": if ((l = link(c))) l.label = c[4]; break;
        case "llabelcolor": if ((l = link(c))) l.labelColor = c[4]; break;
        case "llabelat": if ((l = link(c))) l.labelAt = c[4]; break;
        case "lstate": if ((l = link(c))) l.up = c[4] !== "DOWN"; break;
        case "annotate": annotation = {t: c[0], text: c[2]}; break;
        case "rate": rate = c[2]; break;
        default: break;
      }
    }
    return {nodes: nodes, links: links, annotation: annotation, rate: rate};
  };

  Model.prototype.annotations = function () {
    return this.changes.filter(function (c) { return c[1] === "annotate"; })
      .map(function (c) { return {t: c[0], text: c[2]}; });
  };

  Model.prototype.colorOf = function (fid) {
    var c = this.meta.colors[String(fid)];
    if (c) return c;
    if (fid === 0) return "#000000";
    var p = this.meta.palette;
    return p[((fid % p.length) + p.length) % p.length];
  };

  // A summary of the state at t, plain numbers (what the tests compare).
  Model.prototype.summary = function (t) {
    var s = this.stateAt(t, 0), self = this;
    return {t: t, totals: s.totals,
            edges: s.edges.map(function (e, k) {
              return [self.edges[k].s, self.edges[k].d, e.queued, e.wire, e.drops, e.marks];
            }),
            queues: s.queues.map(function (q) { return q.map(function (i) { return self.uid[i]; }); })};
  };

  return {Model: Model, base64Bytes: base64Bytes, flags: {DROP_QUEUE: DROP_QUEUE, DROP_LINK: DROP_LINK,
          RECEIVED: RECEIVED, MARKED: MARKED, CE: CE, DROP_ALONE: DROP_ALONE}};
})();
