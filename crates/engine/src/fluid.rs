//! The integrator of the fluid mode: the Misra-Gong-Towsley delay
//! differential equations of long-lived TCP flows, per class of flows,
//! through one or several queues (a dumbbell, a parking lot), by the method
//! of steps.  The model, its refinements and the choice of method are
//! described where it is assembled, python/dumbbell/models/fluid.py; this
//! is its inner loop, in Rust because a Python loop costs tens of
//! microseconds per step.
//!
//! For class i (n_i flows, propagation round trip tp_i, window w_i,
//! crossing the queues of its route) and queue l (capacity c_l):
//!
//! ```text
//! R_i(t)  = tp_i + sum_{l in route i} q_l(t)/c_l
//! p_i     = 1 - prod_{l in route i} (1 - p_l)        (signalled somewhere)
//! dw_i/dt = 1/R_i - w_i/2 r_i(t-R_i) p_i(t-R_i)      (congestion avoidance)
//!         = r_i(t-R_i)(1 - p_i(t-R_i)) - w_i/2 r_i(t-R_i) p_i(t-R_i)   (slow start)
//! dq_l/dt = sum_{i through l} n_i w_i/R_i (1 - d_l) - c_l   (0 <= q_l <= buffer_l)
//! ```
//!
//! with r_i = w_i/R_i one flow's rate; a queue's arrivals are its classes'
//! sending rates (neither thinned by drops upstream nor delayed by the
//! links before it: the usual simplification of multi-link fluid models;
//! the signal's delay is the whole round trip).  Each queue's controller
//! state `x` is RED's average (dx/dt = k (q - x)) or PI's probability
//! (dx/dt = a dq/dt + (a - b) w (q - q_ref), in [0, 1]: ns-2's discrete
//! law p += a (q - q_ref) - b (q_old - q_ref) every 1/w seconds, taken to
//! continuous time).  p_l is the probability that a packet is signalled at
//! queue l and d_l the part of it that is dropped.
//!
//! Steps are Heun's (explicit trapezoidal) on a uniform grid of step h <=
//! min tp, so every delayed value lies in the computed past; it is read by
//! linear interpolation from a ring of the last `delay_max/h` grid values
//! (memory independent of the run's length).

/// A queue's discipline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Control {
    DropTail,
    /// RED on the EWMA average: thresholds in packets, `k` the average's
    /// pole (1/s), `spacing` 0 none, 1 uniform (`2p/(1+p)`), 2 wait (`2p/3`);
    /// `mark_p` < 0: ECN marks below `max_th`, else while p_b < mark_p.
    Red { min_th: f64, max_th: f64, max_p: f64, k: f64, gentle: bool, spacing: u8, bytes_scale: f64, mark_p: f64 },
    /// PI on the instantaneous queue (times `q_scale`, the unit it counts).
    Pi { a: f64, b: f64, w: f64, qref: f64, q_scale: f64, bytes_scale: f64 },
}

/// A queue: capacity (packets/s), buffer (packets), discipline, and ECN
/// (signals below the controller's limit mark instead of dropping).
#[derive(Clone, Copy, Debug)]
pub struct Queue {
    pub c: f64,
    pub buffer: f64,
    pub control: Control,
    pub ecn: bool,
}

/// A class of identical flows; `route`: the queues it crosses.
#[derive(Clone, Debug)]
pub struct Class {
    pub n: f64,
    pub tp: f64,
    pub w_max: f64,
    pub w0: f64,
    pub start: f64,
    pub slow_start: bool,
    pub route: Vec<usize>,
}

/// The model's input.
#[derive(Clone, Debug)]
pub struct Model {
    pub classes: Vec<Class>,
    pub queues: Vec<Queue>,
    /// Halve a window once per window of data that carries a signal (the
    /// loss-event rate (1 - (1 - p)^w)/R), not once per signal (MGT's p
    /// x rate): the two agree for small p; under heavy signalling (a
    /// slow-start overshoot) MGT's windows collapse to 1, TCP's halve once
    /// per round trip.
    pub per_window: bool,
}

/// Series sampled every `dt_out`, row-major per sample: per class (`w`,
/// `rate`, `goodput`, `rtt`) and per queue (`q`, `x`, `p`, `d`).
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub t: Vec<f64>,
    pub w: Vec<f64>,
    pub rate: Vec<f64>,
    pub goodput: Vec<f64>,
    pub rtt: Vec<f64>,
    pub q: Vec<f64>,
    pub x: Vec<f64>,
    pub p: Vec<f64>,
    pub d: Vec<f64>,
    /// Packets delivered through the whole route per class over [0, nsteps h].
    pub delivered: Vec<f64>,
    /// Integral of each queue over [0, nsteps h].
    pub q_integral: Vec<f64>,
    pub steps: usize,
}

fn red_pb(min_th: f64, max_th: f64, max_p: f64, gentle: bool, x: f64) -> f64 {
    if x < min_th {
        0.0
    } else if x < max_th {
        max_p * (x - min_th) / (max_th - min_th)
    } else if gentle && x < 2.0 * max_th {
        max_p + (1.0 - max_p) * (x - max_th) / max_th
    } else {
        1.0
    }
}

impl Queue {
    /// (p, d) from the state: the signal probability and its dropping part.
    #[inline]
    fn signal(&self, q: f64, x: f64, lam: f64) -> (f64, f64) {
        let tail = if q >= self.buffer * (1.0 - 1e-9) && lam > self.c { (1.0 - self.c / lam).max(0.0) } else { 0.0 };
        match self.control {
            Control::DropTail => (tail, tail),
            Control::Red { min_th, max_th, max_p, gentle, spacing, bytes_scale, mark_p, .. } => {
                let pb = red_pb(min_th, max_th, max_p, gentle, x);
                let pr = if pb >= 1.0 {
                    1.0
                } else {
                    let s = match spacing {
                        1 => 2.0 * pb / (1.0 + pb),
                        2 => 2.0 * pb / 3.0,
                        _ => pb,
                    };
                    (s * bytes_scale).min(1.0)
                };
                let p = pr + (1.0 - pr) * tail;
                let marks = if mark_p < 0.0 { x < max_th } else { pb < mark_p };
                (p, if self.ecn && marks { tail * (1.0 - pr) } else { p })
            }
            Control::Pi { bytes_scale, .. } => {
                let pr = (x * bytes_scale).clamp(0.0, 1.0);
                let p = pr + (1.0 - pr) * tail;
                (p, if self.ecn { tail * (1.0 - pr) } else { p })
            }
        }
    }

    /// The controller's derivative, given the queue's.
    #[inline]
    fn dx(&self, q: f64, x: f64, dq: f64) -> f64 {
        match self.control {
            Control::DropTail => 0.0,
            Control::Red { k, .. } => k * (q - x),
            Control::Pi { a, b, w, qref, q_scale, .. } => {
                let g = a * dq * q_scale + (a - b) * w * (q * q_scale - qref);
                if (x <= 0.0 && g < 0.0) || (x >= 1.0 && g > 0.0) {
                    0.0
                } else {
                    g
                }
            }
        }
    }

    #[inline]
    fn clamp_x(&self, x: f64) -> f64 {
        match self.control {
            Control::Pi { .. } => x.clamp(0.0, 1.0),
            _ => x.max(0.0),
        }
    }
}

/// Check the model, or say what is wrong.
pub fn check(m: &Model, until: f64, h: f64) -> Result<(), String> {
    if m.classes.is_empty() {
        return Err("no flow classes".into());
    }
    if m.queues.is_empty() {
        return Err("no queues".into());
    }
    for (l, q) in m.queues.iter().enumerate() {
        if !(q.c > 0.0 && q.buffer > 0.0) {
            return Err(format!("queue {l}: capacity and buffer must be positive, got {} and {}", q.c, q.buffer));
        }
    }
    for (i, c) in m.classes.iter().enumerate() {
        if !(c.n >= 1.0 && c.tp > 0.0 && c.w_max >= 1.0 && c.w0 >= 1.0 && c.start.is_finite()) {
            return Err(format!("class {i}: needs n >= 1, tp > 0, w_max >= 1, w0 >= 1, got {c:?}"));
        }
        if c.route.is_empty() || c.route.iter().any(|&l| l >= m.queues.len()) {
            return Err(format!("class {i}: its route must name queues 0..{}, got {:?}", m.queues.len(), c.route));
        }
    }
    let tpmin = m.classes.iter().map(|c| c.tp).fold(f64::INFINITY, f64::min);
    if !(until > 0.0 && until.is_finite()) {
        return Err(format!("until must be positive, got {until}"));
    }
    if !(h > 0.0 && h <= tpmin) {
        return Err(format!("the step must be in (0, min tp = {tpmin}], got {h}"));
    }
    if until / h > 1e9 {
        return Err(format!("{} steps are too many (step {h})", until / h));
    }
    Ok(())
}

/// A ring of the last `len` grid values of each class's one-flow rate and
/// signal probability, with the values at t = 0 kept for delays reaching
/// before the start.
struct History {
    len: usize,
    k: usize,
    r: Vec<f64>,
    p: Vec<f64>,
    r0: Vec<f64>,
    p0: Vec<f64>,
}

impl History {
    #[inline]
    fn put(&mut self, j: usize, r: &[f64], p: &[f64]) {
        let s = j % self.len;
        self.r[s * self.k..(s + 1) * self.k].copy_from_slice(r);
        self.p[s * self.k..(s + 1) * self.k].copy_from_slice(p);
        if j == 0 {
            self.r0.copy_from_slice(r);
            self.p0.copy_from_slice(p);
        }
    }

    /// (class i's rate, its p) at time tau (in the stored past) by linear interpolation.
    #[inline]
    fn at(&self, tau: f64, h: f64, i: usize) -> (f64, f64) {
        if tau <= 0.0 {
            return (self.r0[i], self.p0[i]);
        }
        let f = tau / h;
        let j = f as usize;
        let a = f - j as f64;
        let s0 = (j % self.len) * self.k + i;
        if a > 0.0 {
            let s1 = ((j + 1) % self.len) * self.k + i;
            (self.r[s0] * (1.0 - a) + self.r[s1] * a, self.p[s0] * (1.0 - a) + self.p[s1] * a)
        } else {
            (self.r[s0], self.p[s0])
        }
    }
}

/// Scratch state of one evaluation: per class the round trip, rate, signal
/// and the part that gets through; per queue its arrivals, p and d.
struct Eval {
    rtt: Vec<f64>,
    r: Vec<f64>,
    pc: Vec<f64>,
    pass: Vec<f64>,
    lam: Vec<f64>,
    p: Vec<f64>,
    d: Vec<f64>,
}

impl Eval {
    fn new(k: usize, nq: usize) -> Eval {
        Eval { rtt: vec![0.0; k], r: vec![0.0; k], pc: vec![0.0; k], pass: vec![0.0; k], lam: vec![0.0; nq], p: vec![0.0; nq], d: vec![0.0; nq] }
    }

    /// The algebraic part at time t for windows `w`, queues `q`, controllers `x`.
    #[inline]
    fn eval(&mut self, m: &Model, t: f64, w: &[f64], q: &[f64], x: &[f64]) {
        self.lam.iter_mut().for_each(|v| *v = 0.0);
        for (i, cl) in m.classes.iter().enumerate() {
            let mut rtt = cl.tp;
            for &l in &cl.route {
                rtt += q[l] / m.queues[l].c;
            }
            self.rtt[i] = rtt;
            self.r[i] = if t >= cl.start { w[i] / rtt } else { 0.0 };
            for &l in &cl.route {
                self.lam[l] += cl.n * self.r[i];
            }
        }
        for (l, qu) in m.queues.iter().enumerate() {
            (self.p[l], self.d[l]) = qu.signal(q[l], x[l], self.lam[l]);
        }
        for (i, cl) in m.classes.iter().enumerate() {
            if cl.route.len() == 1 {
                let l = cl.route[0];
                self.pc[i] = self.p[l];
                self.pass[i] = 1.0 - self.d[l];
            } else {
                let (mut clear, mut pass) = (1.0, 1.0);
                for &l in &cl.route {
                    clear *= 1.0 - self.p[l];
                    pass *= 1.0 - self.d[l];
                }
                self.pc[i] = 1.0 - clear;
                self.pass[i] = pass;
            }
        }
    }
}

/// Integrate from 0 to `until` with step `h`, sampling every `dt_out`.
pub fn integrate(m: &Model, until: f64, h: f64, dt_out: f64) -> Result<Output, String> {
    check(m, until, h)?;
    let k = m.classes.len();
    let nq = m.queues.len();
    let nsteps = (until / h).ceil() as usize;
    let delay_max = m
        .classes
        .iter()
        .map(|c| c.tp + c.route.iter().map(|&l| m.queues[l].buffer / m.queues[l].c).sum::<f64>())
        .fold(0.0, f64::max);
    let len = ((delay_max / h).ceil() as usize + 4).min(nsteps + 4);
    let mut hist = History { len, k, r: vec![0.0; len * k], p: vec![0.0; len * k], r0: vec![0.0; k], p0: vec![0.0; k] };
    let mut w: Vec<f64> = m.classes.iter().map(|c| c.w0).collect();
    let mut ss: Vec<bool> = m.classes.iter().map(|c| c.slow_start).collect();
    let mut q = vec![0.0; nq];
    let mut x = vec![0.0; nq];
    let nout = (until / dt_out).floor() as usize + 1;
    let mut o = Output { delivered: vec![0.0; k], q_integral: vec![0.0; nq], ..Output::default() };
    for v in [&mut o.w, &mut o.rate, &mut o.goodput, &mut o.rtt] {
        v.reserve(nout * k);
    }
    for v in [&mut o.q, &mut o.x, &mut o.p, &mut o.d] {
        v.reserve(nout * nq);
    }
    let (mut e1, mut e2) = (Eval::new(k, nq), Eval::new(k, nq));
    let (mut dw1, mut dw2, mut w2) = (vec![0.0; k], vec![0.0; k], vec![0.0; k]);
    let (mut dq1, mut dq2, mut dx1, mut dx2) = (vec![0.0; nq], vec![0.0; nq], vec![0.0; nq], vec![0.0; nq]);
    let (mut q2, mut x2) = (vec![0.0; nq], vec![0.0; nq]);

    // derivatives at time t from the evaluation `e` of that state
    let rhs = |t: f64, w: &[f64], q: &[f64], x: &[f64], ss: &[bool], hist: &History, e: &Eval, dw: &mut [f64], dq: &mut [f64], dx: &mut [f64]| {
        for (i, cl) in m.classes.iter().enumerate() {
            dw[i] = 0.0;
            if t < cl.start {
                continue;
            }
            let (rd, pd) = hist.at(t - e.rtt[i], h, i);
            let cut = if m.per_window { rd / 2.0 * (1.0 - (1.0 - pd).powf(w[i])) } else { w[i] / 2.0 * rd * pd };
            let mut g = if ss[i] { rd * (1.0 - pd) - cut } else { 1.0 / e.rtt[i] - cut };
            if (w[i] <= 1.0 && g < 0.0) || (w[i] >= cl.w_max && g > 0.0) {
                g = 0.0;
            }
            dw[i] = g;
        }
        for (l, qu) in m.queues.iter().enumerate() {
            let mut g = e.lam[l] * (1.0 - e.d[l]) - qu.c;
            if (q[l] <= 0.0 && g < 0.0) || (q[l] >= qu.buffer && g > 0.0) {
                g = 0.0;
            }
            dq[l] = g;
            dx[l] = qu.dx(q[l], x[l], g);
        }
    };
    let record = |o: &mut Output, e: &Eval, w: &[f64], q: &[f64], x: &[f64]| {
        for (i, cl) in m.classes.iter().enumerate() {
            let rate = cl.n * e.r[i];
            o.w.push(w[i]);
            o.rtt.push(e.rtt[i]);
            o.rate.push(rate);
            o.goodput.push(rate * e.pass[i]);
        }
        o.q.extend_from_slice(q);
        o.x.extend_from_slice(x);
        o.p.extend_from_slice(&e.p);
        o.d.extend_from_slice(&e.d);
    };
    e1.eval(m, 0.0, &w, &q, &x);
    hist.put(0, &e1.r, &e1.pc);
    for j in 0..nsteps {
        let t = j as f64 * h;
        // e1 holds the evaluation of the state at t
        while o.t.len() < nout && (o.t.len() as f64) * dt_out <= t + 1e-12 {
            o.t.push(o.t.len() as f64 * dt_out);
            record(&mut o, &e1, &w, &q, &x);
        }
        // slow start ends when a signal reaches the class, or at the window cap
        for (i, cl) in m.classes.iter().enumerate() {
            if ss[i] && t >= cl.start && (hist.at(t - e1.rtt[i], h, i).1 > 0.0 || w[i] >= cl.w_max) {
                ss[i] = false;
            }
        }
        rhs(t, &w, &q, &x, &ss, &hist, &e1, &mut dw1, &mut dq1, &mut dx1);
        for (i, cl) in m.classes.iter().enumerate() {
            w2[i] = (w[i] + h * dw1[i]).max(1.0).min(cl.w_max);
        }
        for (l, qu) in m.queues.iter().enumerate() {
            q2[l] = (q[l] + h * dq1[l]).max(0.0).min(qu.buffer);
            x2[l] = qu.clamp_x(x[l] + h * dx1[l]);
        }
        e2.eval(m, t + h, &w2, &q2, &x2);
        rhs(t + h, &w2, &q2, &x2, &ss, &hist, &e2, &mut dw2, &mut dq2, &mut dx2);
        for (i, cl) in m.classes.iter().enumerate() {
            o.delivered[i] += h * cl.n * e1.r[i] * e1.pass[i];
            w[i] = (w[i] + h / 2.0 * (dw1[i] + dw2[i])).max(1.0).min(cl.w_max);
        }
        for (l, qu) in m.queues.iter().enumerate() {
            let qn = (q[l] + h / 2.0 * (dq1[l] + dq2[l])).max(0.0).min(qu.buffer);
            o.q_integral[l] += h / 2.0 * (q[l] + qn);
            q[l] = qn;
            x[l] = qu.clamp_x(x[l] + h / 2.0 * (dx1[l] + dx2[l]));
        }
        e1.eval(m, (j + 1) as f64 * h, &w, &q, &x);
        hist.put(j + 1, &e1.r, &e1.pc);
    }
    while o.t.len() < nout {
        o.t.push(o.t.len() as f64 * dt_out);
        record(&mut o, &e1, &w, &q, &x);
    }
    o.steps = nsteps;
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(n: f64, tp: f64, c: f64, control: Control) -> Model {
        Model {
            classes: vec![Class { n, tp, w_max: 1e9, w0: 1.0, start: 0.0, slow_start: true, route: vec![0] }],
            queues: vec![Queue { c, buffer: 1000.0, control, ecn: false }],
            per_window: false,
        }
    }

    /// With RED the model settles at Hollot's operating point: W0 = R0 C/N,
    /// p0 = 2/W0^2 = the profile at q0.
    #[test]
    fn red_settles_at_the_operating_point() {
        let (n, tp, c) = (60.0, 0.2, 3750.0);
        let ctl = Control::Red { min_th: 50.0, max_th: 550.0, max_p: 0.1, k: 0.005, gentle: false, spacing: 0, bytes_scale: 1.0, mark_p: -1.0 };
        let m = one(n, tp, c, ctl);
        let o = integrate(&m, 600.0, 0.02, 1.0).unwrap();
        let q = *o.q.last().unwrap();
        let r0 = tp + q / c;
        let w0 = r0 * c / n;
        let p_profile = 0.1 * (q - 50.0) / 500.0;
        assert!((p_profile - 2.0 / (w0 * w0)).abs() < 0.05 * p_profile, "q {q}: p {p_profile} vs 2/W^2 {}", 2.0 / (w0 * w0));
        let rate: f64 = *o.rate.last().unwrap();
        assert!((rate - c).abs() < 0.01 * c, "the link is full: {rate}");
    }

    /// PI's integral action holds the queue at q_ref.
    #[test]
    fn pi_holds_the_reference_queue() {
        let (n, tp, c) = (60.0, 0.2, 3750.0);
        // Hollot et al.'s PI example (a, b at 160 Hz): q_ref 200 packets
        let ctl = Control::Pi { a: 1.822e-5, b: 1.816e-5, w: 160.0, qref: 200.0, q_scale: 1.0, bytes_scale: 1.0 };
        let o = integrate(&one(n, tp, c, ctl), 300.0, 0.02, 1.0).unwrap();
        let tail = &o.q[o.q.len() - 50..];
        let mean = tail.iter().sum::<f64>() / tail.len() as f64;
        assert!((mean - 200.0).abs() < 10.0, "mean queue {mean}");
    }

    /// DropTail: a full buffer drops the excess, and the flows fill the link.
    #[test]
    fn droptail_fills_the_link_and_the_buffer() {
        let mut m = one(10.0, 0.1, 1000.0, Control::DropTail);
        m.queues[0].buffer = 50.0;
        let o = integrate(&m, 60.0, 0.01, 0.1).unwrap();
        let good: f64 = o.delivered.iter().sum::<f64>() / 60.0;
        assert!((good - 1000.0).abs() < 30.0, "goodput {good}");
        assert!(o.q.iter().any(|&q| q >= 50.0 * (1.0 - 1e-9)));
    }

    /// A slow-start overshoot: with MGT's per-signal halving the windows
    /// collapse to 1 and grow back linearly; halving once per window of
    /// signalled data they stay near the link's share.
    #[test]
    fn per_window_halving_survives_the_overshoot() {
        let mut m = one(10.0, 0.2, 12000.0, Control::DropTail);
        let mgt = integrate(&m, 10.0, 0.002, 0.1).unwrap();
        m.per_window = true;
        let ev = integrate(&m, 10.0, 0.002, 0.1).unwrap();
        let (a, b) = (mgt.delivered[0], ev.delivered[0]);
        assert!(b > 3.0 * a && b > 0.5 * 12000.0 * 10.0, "MGT {a}, per window {b}");
    }

    #[test]
    fn bad_models_are_refused() {
        let m = one(10.0, 0.1, 1000.0, Control::DropTail);
        assert!(integrate(&m, 1.0, 0.2, 0.1).unwrap_err().contains("step"));
        assert!(integrate(&m, -1.0, 0.01, 0.1).unwrap_err().contains("until"));
        let mut bad = m.clone();
        bad.classes[0].n = 0.0;
        assert!(integrate(&bad, 1.0, 0.01, 0.1).unwrap_err().contains("class 0"));
        let mut bad = m.clone();
        bad.classes[0].route = vec![1];
        assert!(integrate(&bad, 1.0, 0.01, 0.1).unwrap_err().contains("route"));
    }

    /// A parking lot of two equal RED queues: the flows crossing both get
    /// less than those crossing one (they see both queues' signals and
    /// both delays), both queues are loaded, and an idle second queue
    /// changes nothing.
    #[test]
    fn parking_lot() {
        let red = Control::Red { min_th: 10.0, max_th: 30.0, max_p: 0.1, k: 2.4, gentle: true, spacing: 0, bytes_scale: 1.0, mark_p: -1.0 };
        let q = Queue { c: 1200.0, buffer: 100.0, control: red, ecn: false };
        let cl = |route: Vec<usize>| Class { n: 5.0, tp: 0.05, w_max: 1e9, w0: 1.0, start: 0.0, slow_start: true, route };
        let m = Model { classes: vec![cl(vec![0, 1]), cl(vec![0]), cl(vec![1])], queues: vec![q, q], per_window: false };
        let o = integrate(&m, 60.0, 0.005, 0.1).unwrap();
        let (long, short0, short1) = (o.delivered[0], o.delivered[1], o.delivered[2]);
        assert!(long < 0.6 * short0 && (short0 - short1).abs() < 0.02 * short0, "{long} {short0} {short1}");
        assert!((long + short0) / 60.0 > 0.95 * 1200.0, "queue 0 is used");
        assert!(o.q_integral[0] > 60.0 * 5.0 && o.q_integral[1] > 60.0 * 5.0);
        // the same dumbbell with an idle second queue on the route
        let one_q = Model { classes: vec![cl(vec![0])], queues: vec![q], per_window: false };
        let wide = Queue { c: 1e6, ..q };
        let two_q = Model { classes: vec![cl(vec![0, 1])], queues: vec![q, wide], per_window: false };
        let (a, b) = (integrate(&one_q, 30.0, 0.005, 0.1).unwrap(), integrate(&two_q, 30.0, 0.005, 0.1).unwrap());
        assert!((a.delivered[0] - b.delivered[0]).abs() < 1e-9 * a.delivered[0], "{:?} {:?}", a.delivered, b.delivered);
        assert_eq!(b.q_integral[1], 0.0);
    }
}
