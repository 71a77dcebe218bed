// The page: inflates the data, draws the state at the current time on a
// canvas, and runs the timeline.  URL hash: #t=SECONDS seeks there on load,
// &play starts playing, &speed=X sets simulated seconds per second.
// window.namAnim is the page's handle for scripts and tests: seek(t),
// summary(t), and `drawn`, what the last frame drew (in canvas pixels).
"use strict";

(function () {
  var meta = JSON.parse(document.getElementById("nam-meta").textContent);
  var canvas = document.getElementById("view"), ctx = canvas.getContext("2d");
  var $ = function (id) { return document.getElementById(id); };
  var SPEEDS = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100];
  var FALL_WALL = 0.6;  // seconds of playback a drop is shown falling
  var api = window.namAnim = {ready: false, meta: meta, drawn: null, error: null};

  function fmt(t) { return (Math.round(t * 1e6) / 1e6).toFixed(6); }

  function inflate(b64) {
    var bytes = NamModel.base64Bytes(b64);
    if (bytes.length === 0) return Promise.resolve(bytes);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).arrayBuffer().then(function (buf) { return new Uint8Array(buf); });
  }

  inflate(document.getElementById("nam-data").textContent.trim()).then(function (bytes) {
    start(new NamModel.Model(meta, bytes));
  }).catch(function (e) {
    api.error = String(e && e.stack || e);
    $("loading").textContent = "Cannot read the animation's data: " + e;
  });

  function start(model) {
    var t0 = meta.t0, t1 = meta.t1, now = t0, playing = false, speed = 0.05, lastWall = null;
    var state = null, geom = null;
    api.model = model;
    $("loading").hidden = true;
    $("title").textContent = meta.source + " (" + fmt(t0) + " – " + fmt(t1) + " s" +
      (meta.truncated_at !== null ? ", cut at the hop limit" : "") + ")";

    // controls
    SPEEDS.forEach(function (s) {
      var o = document.createElement("option"); o.value = s; o.textContent = s + " s/s"; $("speed").appendChild(o);
    });
    var rate0 = model.sceneAt(t0).rate;  // nam's set-animation-rate: step per frame, ~25 frames per second
    // otherwise: a packet crosses the longest link in about a third of a second
    var maxDelay = 0;
    meta.links.forEach(function (l) { maxDelay = Math.max(maxDelay, l.delay); });
    setSpeed(rate0 ? rate0 * 25 : maxDelay > 0 ? maxDelay * 3 : Math.max((t1 - t0) / 60, 0.0001));

    function setSpeed(s) {
      var best = SPEEDS[0];
      SPEEDS.forEach(function (x) { if (Math.abs(Math.log(x / s)) < Math.abs(Math.log(best / s))) best = x; });
      speed = best; $("speed").value = String(best);
    }
    $("speed").onchange = function () { speed = parseFloat(this.value); };
    $("play").onclick = function () { playing ? pause() : play(); };
    $("first").onclick = function () { pause(); seek(t0); };
    $("last").onclick = function () { pause(); seek(t1); };
    $("back").onclick = function () { pause(); seek(now - step()); };
    $("fwd").onclick = function () { pause(); seek(now + step()); };
    $("timeline").oninput = function () { pause(); seek(t0 + (t1 - t0) * this.value / 1e6); };
    $("time").onchange = function () {
      var v = parseFloat(this.value);
      if (isFinite(v)) { pause(); seek(v); } else this.value = fmt(now);
    };
    document.addEventListener("keydown", function (ev) {
      if (ev.target.tagName === "INPUT" && ev.target.type === "text") return;
      if (ev.key === " ") { ev.preventDefault(); playing ? pause() : play(); }
      else if (ev.key === "ArrowLeft") { pause(); seek(now - step()); }
      else if (ev.key === "ArrowRight") { pause(); seek(now + step()); }
      else if (ev.key === "Home") { pause(); seek(t0); }
      else if (ev.key === "End") { pause(); seek(t1); }
    });
    function step() { return speed / 25; }

    // legend, annotations, warnings
    var fids = {};
    for (var i = 0; i < model.n; i++) fids[model.fid[i]] = true;
    Object.keys(meta.colors).forEach(function (f) { fids[f] = true; });
    Object.keys(fids).map(Number).sort(function (a, b) { return a - b; }).forEach(function (f) {
      var li = document.createElement("li"), sw = document.createElement("span");
      sw.className = "swatch"; sw.style.background = model.colorOf(f);
      li.appendChild(sw); li.appendChild(document.createTextNode("flow " + f)); $("legend").appendChild(li);
    });
    var notes = model.annotations();
    notes.forEach(function (a) {
      var li = document.createElement("li");
      li.textContent = fmt(a.t) + " s: " + a.text; li.dataset.t = a.t;
      li.onclick = function () { pause(); seek(a.t); };
      $("annotations").appendChild(li);
    });
    if (meta.warnings.length) {
      $("warnings-box").hidden = false;
      meta.warnings.forEach(function (w) {
        var li = document.createElement("li"); li.textContent = w; $("warnings").appendChild(li);
      });
    }
    // the links table: one row per directed link that carried packets
    var rows = [];
    var used = {};
    for (i = 0; i < model.n; i++) used[model.edge[i]] = true;
    meta.edges.forEach(function (e, k) {
      if (!used[k] || rows.length >= 300) return;
      var tr = document.createElement("tr"), cells = [];
      tr.appendChild(cell(e.s + "→" + e.d));
      for (var c = 0; c < 4; c++) { cells.push(cell("0")); tr.appendChild(cells[c]); }
      $("links").tBodies[0].appendChild(tr);
      rows.push({edge: k, cells: cells});
    });
    function cell(text) { var td = document.createElement("td"); td.textContent = text; return td; }

    function play() {
      if (now >= t1) seek(t0);
      playing = true; lastWall = null; $("play").innerHTML = "| |"; requestAnimationFrame(tick);
    }
    function pause() { playing = false; $("play").innerHTML = "&#x25B6;"; }
    function tick(wall) {
      if (!playing) return;
      if (lastWall !== null) {
        var dt = Math.min(0.25, (wall - lastWall) / 1000), before = now;
        var next = Math.min(t1, now + dt * speed);
        // nam's set-animation-rate during the run changes the speed when playback passes it
        for (var k = 0; k < model.changes.length; k++) {
          var c = model.changes[k];
          if (c[1] === "rate" && c[0] > before && c[0] <= next) setSpeed(c[2] * 25);
        }
        seek(next);
        if (now >= t1) { pause(); return; }
      }
      lastWall = wall;
      requestAnimationFrame(tick);
    }

    function seek(t) {
      if (!(t === t)) return;
      now = Math.max(t0, Math.min(t1, t));
      state = model.stateAt(now, FALL_WALL * speed);
      draw();
      var s = state.totals;
      $("status").textContent = "t = " + fmt(now) + " s · on the wire " + s.wire + " · queued " + s.queued +
        " · dropped " + s.drops + " · marked " + s.marks;
      $("now2").textContent = fmt(now) + " s";
      if (document.activeElement !== $("time")) $("time").value = fmt(now);
      $("timeline").value = t1 > t0 ? Math.round((now - t0) / (t1 - t0) * 1e6) : 0;
      rows.forEach(function (r) {
        var e = state.edges[r.edge];
        r.cells[0].textContent = e.queued; r.cells[1].textContent = e.wire;
        r.cells[2].textContent = e.drops; r.cells[3].textContent = e.marks;
      });
      var lis = $("annotations").children;
      for (var k = 0; k < lis.length; k++) lis[k].classList.toggle("past", parseFloat(lis[k].dataset.t) > now);
      var a = state.scene.annotation;
      $("annotation").hidden = !a;
      if (a) $("annotation").textContent = a.text;
      canvas.dataset.time = now;
    }
    api.seek = function (t) { pause(); seek(t); return api.drawn; };
    api.play = play; api.pause = pause;
    api.now = function () { return now; };
    api.summary = function (t) { return model.summary(t === undefined ? now : t); };

    // geometry: nam coordinates (y up) fitted into the canvas
    function layoutGeom() {
      var w = canvas.clientWidth || 900, h = canvas.clientHeight || 600, dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      var xs = meta.nodes.map(function (n) { return n.x; }), ys = meta.nodes.map(function (n) { return n.y; });
      var minX = Math.min.apply(null, xs), maxX = Math.max.apply(null, xs);
      var minY = Math.min.apply(null, ys), maxY = Math.max.apply(null, ys);
      var margin = 60, spanX = Math.max(maxX - minX, 1e-9), spanY = Math.max(maxY - minY, 1e-9);
      var scale = Math.min((w - 2 * margin) / spanX, (h - 2 * margin) / spanY);
      if (!isFinite(scale) || scale <= 0) scale = 1;
      if (meta.nodes.length === 1) scale = 1;
      var ox = (w - scale * (maxX - minX)) / 2, oy = (h - scale * (maxY - minY)) / 2;
      var pos = {};
      meta.nodes.forEach(function (n) { pos[n.id] = [ox + (n.x - minX) * scale, h - (oy + (n.y - minY) * scale)]; });
      var minLen = Infinity;
      meta.links.forEach(function (l) {
        var a = pos[l.a], b = pos[l.b];
        if (a && b) minLen = Math.min(minLen, Math.hypot(b[0] - a[0], b[1] - a[1]));
      });
      if (!isFinite(minLen)) minLen = 100;
      var r = Math.max(5, Math.min(18, minLen * 0.18));
      var edges = meta.edges.map(function (e) {
        var a = pos[e.s], b = pos[e.d];
        var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
        var off = Math.max(2, r * 0.28), nx = -uy * off, ny = ux * off;   // the right of travel (y down)
        var x0 = a[0] + ux * r + nx, y0 = a[1] + uy * r + ny, x1 = b[0] - ux * r + nx, y1 = b[1] - uy * r + ny;
        var qa = e.queue === null || e.queue === undefined ? 0.5 : e.queue;
        var th = Math.atan2(-dy, dx) + Math.PI * qa;     // nam: counter-clockwise from the link, y up
        return {x0: x0, y0: y0, x1: x1, y1: y1, ux: ux, uy: uy, qx: Math.cos(th), qy: -Math.sin(th), nx: nx, ny: ny};
      });
      geom = {w: w, h: h, pos: pos, r: r, edges: edges, pkt: Math.max(3, Math.min(9, r * 0.55))};
    }

    function shapePath(shape, x, y, r) {
      ctx.beginPath();
      if (shape === "box" || shape === "square") ctx.rect(x - r, y - r, 2 * r, 2 * r);
      else if (shape === "hexagon") {
        for (var k = 0; k < 6; k++) {
          var a = Math.PI / 3 * k;
          if (k === 0) ctx.moveTo(x + r * Math.cos(a), y + r * Math.sin(a)); else ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a));
        }
        ctx.closePath();
      } else ctx.arc(x, y, r, 0, 2 * Math.PI);
    }

    function labelAt(dir, x, y, off) {
      switch (dir) {
        case "up": return [x, y - off, "center", "bottom"];
        case "down": return [x, y + off, "center", "top"];
        case "left": return [x - off, y, "right", "middle"];
        case "right": return [x + off, y, "left", "middle"];
        default: return [x, y + off, "center", "top"];
      }
    }

    function draw() {
      if (!geom) layoutGeom();
      var g = geom, sc = state.scene, drawn = {t: now, packets: [], queued: [], falling: [], nodes: []};
      ctx.clearRect(0, 0, g.w, g.h);
      ctx.lineCap = "butt";
      // links: one line per direction
      meta.edges.forEach(function (e, k) {
        var ge = g.edges[k], l = e.link === null ? null : sc.links[e.link];
        ctx.strokeStyle = l && !l.up ? "red" : (l ? l.color : "#999");
        ctx.lineWidth = l && !l.up ? 2 : 1;
        ctx.setLineDash(e.link === null ? [4, 3] : []);
        ctx.beginPath(); ctx.moveTo(ge.x0, ge.y0); ctx.lineTo(ge.x1, ge.y1); ctx.stroke();
      });
      ctx.setLineDash([]);
      // link labels
      ctx.font = "12px system-ui, sans-serif";
      meta.links.forEach(function (l, j) {
        var s = sc.links[j];
        if (!s.label) return;
        var a = g.pos[l.a], b = g.pos[l.b], mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
        var p = labelAt(s.labelAt || "up", mx, my, 8);
        ctx.fillStyle = s.labelColor || "#333"; ctx.textAlign = p[2]; ctx.textBaseline = p[3];
        ctx.fillText(s.label, p[0], p[1]);
      });
      // nodes
      meta.nodes.forEach(function (n) {
        var p = g.pos[n.id], s = sc.nodes[n.id];
        shapePath(n.shape, p[0], p[1], g.r);
        ctx.fillStyle = "#fff"; ctx.fill();
        ctx.lineWidth = 2; ctx.strokeStyle = s.up ? s.color : "gray"; ctx.stroke();
        s.marks.forEach(function (m, k) {
          shapePath(m.shape, p[0], p[1], g.r + 4 + 3 * k);
          ctx.lineWidth = 2; ctx.strokeStyle = m.color; ctx.stroke();
        });
        ctx.fillStyle = s.up ? s.lcolor || s.color : "gray";
        ctx.textAlign = "center"; ctx.textBaseline = "middle";
        ctx.font = Math.round(Math.max(9, g.r * 0.9)) + "px system-ui, sans-serif";
        ctx.fillText(String(n.id), p[0], p[1]);
        ctx.font = "12px system-ui, sans-serif";
        if (s.label) {
          var q = labelAt(s.labelAt, p[0], p[1], g.r + 4);
          ctx.fillStyle = s.labelColor || "#333"; ctx.textAlign = q[2]; ctx.textBaseline = q[3];
          ctx.fillText(s.label, q[0], q[1]);
        }
        if (s.agents.length) {
          ctx.fillStyle = "#555"; ctx.textAlign = "left"; ctx.textBaseline = "bottom";
          ctx.fillText(s.agents.join(" "), p[0] + g.r + 3, p[1] - g.r);
        }
        drawn.nodes.push([n.id, Math.round(p[0]), Math.round(p[1])]);
      });
      // packets on the wire
      var ph = g.pkt;
      state.wire.forEach(function (i) {
        var ge = g.edges[model.edge[i]], sp = model.wireSpan(i, now);
        var ax = ge.x0 + (ge.x1 - ge.x0) * sp[0], ay = ge.y0 + (ge.y1 - ge.y0) * sp[0];
        var bx = ge.x0 + (ge.x1 - ge.x0) * sp[1], by = ge.y0 + (ge.y1 - ge.y0) * sp[1];
        if (Math.hypot(bx - ax, by - ay) < 2) { bx = ax + ge.ux * 2; by = ay + ge.uy * 2; }
        var k = ph / 2 / Math.max(1e-9, Math.hypot(ge.nx, ge.ny));
        var color = model.colorOf(model.fid[i]);
        ctx.strokeStyle = color; ctx.lineWidth = ph;
        ctx.beginPath(); ctx.moveTo(ax + ge.nx * k, ay + ge.ny * k); ctx.lineTo(bx + ge.nx * k, by + ge.ny * k); ctx.stroke();
        var cx = (ax + bx) / 2 + ge.nx * k, cy = (ay + by) / 2 + ge.ny * k;
        if (model.flags[i] & NamModel.flags.CE) {
          ctx.fillStyle = "#fff"; ctx.beginPath(); ctx.arc(cx, cy, Math.max(1, ph / 4), 0, 2 * Math.PI); ctx.fill();
        }
        drawn.packets.push([model.uid[i], model.edge[i], Math.round(cx), Math.round(cy), color]);
      });
      // queues: packets stacked from the link's start at the queue's angle
      state.queues.forEach(function (q, e) {
        if (!q.length) return;
        var ge = g.edges[e];
        q.forEach(function (i, rank) {
          var d = ph * 0.8 + rank * ph * 1.25, x = ge.x0 + ge.qx * d, y = ge.y0 + ge.qy * d;
          var color = model.colorOf(model.fid[i]);
          ctx.fillStyle = color; ctx.fillRect(x - ph / 2, y - ph / 2, ph, ph);
          if (model.flags[i] & NamModel.flags.CE) { ctx.strokeStyle = "#000"; ctx.lineWidth = 1; ctx.strokeRect(x - ph / 2, y - ph / 2, ph, ph); }
          drawn.queued.push([model.uid[i], e, Math.round(x), Math.round(y), color]);
        });
      });
      // drops falling (nam: from where the packet was, down below the picture)
      state.falling.forEach(function (i) {
        var e = model.edge[i], ge = g.edges[e], o = model.dropOrigin(i), x, y;
        if (o.kind === "queue") { var d = ph * 0.8 + o.rank * ph * 1.25; x = ge.x0 + ge.qx * d; y = ge.y0 + ge.qy * d; }
        else if (o.kind === "wire") { var f = (o.span[0] + o.span[1]) / 2; x = ge.x0 + (ge.x1 - ge.x0) * f; y = ge.y0 + (ge.y1 - ge.y0) * f; }
        else { x = ge.x0; y = ge.y0; }
        var fall = FALL_WALL * speed, age = fall > 0 ? (now - model.tEnd[i]) / fall : 0;
        y += age * age * 120; x += age * 12;
        ctx.save(); ctx.globalAlpha = Math.max(0.15, 1 - age);
        ctx.translate(x, y); ctx.rotate(age * 3);
        ctx.fillStyle = model.colorOf(model.fid[i]); ctx.fillRect(-ph / 2, -ph / 2, ph, ph);
        ctx.restore();
        drawn.falling.push([model.uid[i], e, Math.round(x), Math.round(y)]);
      });
      api.drawn = drawn;
    }

    window.addEventListener("resize", function () { geom = null; seek(now); });

    // a click on a packet (on the wire or queued) shows what the trace says of it
    function describe(i) {
      var e = meta.edges[model.edge[i]], f = model.flags[i], F = NamModel.flags;
      var tf = function (x) { return isFinite(x) ? fmt(x) + " s" : "—"; };
      var end = f & F.RECEIVED ? "received " : f & (F.DROP_QUEUE | F.DROP_LINK | F.DROP_ALONE) ? "dropped  " : "";
      return "packet " + model.uid[i] + " (" + (meta.ptypes[model.ptype[i]] || "?") + ", " + model.size[i] +
        " bytes, flow " + model.fid[i] + ", seq " + model.seq[i] + ")\nlink " + e.s + "→" + e.d +
        (f & F.CE ? ", ECN CE" + (f & F.MARKED ? " (marked here)" : "") : "") +
        "\nqueued   " + tf(model.tIn[i]) + "\nleft     " + tf(model.tOut[i]) + "\non wire  " + tf(model.tHop[i]) +
        (end ? "\n" + end + tf(model.tEnd[i]) : "");
    }
    api.describe = describe;
    canvas.addEventListener("click", function (ev) {
      var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top, best = null, bd = 100;
      (api.drawn ? api.drawn.packets.concat(api.drawn.queued) : []).forEach(function (p) {
        var d = (p[2] - x) * (p[2] - x) + (p[3] - y) * (p[3] - y);
        if (d < bd) { bd = d; best = p; }
      });
      if (!best) { $("pktinfo").hidden = true; return; }
      var ids = model.alive(now).filter(function (i) { return model.uid[i] === best[0] && model.edge[i] === best[1]; });
      $("pktinfo").hidden = !ids.length;
      if (ids.length) $("pktinfo").textContent = describe(ids[0]);
    });

    // #t=SECONDS&play&speed=X, on load and when the hash changes
    function fromHash() {
      var h = {};
      location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
        if (!kv) return; var p = kv.split("="); h[decodeURIComponent(p[0])] = p.length > 1 ? decodeURIComponent(p[1]) : "";
      });
      if (h.speed && isFinite(parseFloat(h.speed))) setSpeed(parseFloat(h.speed));
      pause();
      seek(h.t !== undefined && isFinite(parseFloat(h.t)) ? parseFloat(h.t) : t0);
      if (h.play !== undefined) play();
    }
    window.addEventListener("hashchange", fromHash);
    fromHash();
    api.ready = true;
    document.body.dataset.ready = "1";
  }
})();
