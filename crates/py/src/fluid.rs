//! `_engine.fluid_integrate`: the fluid mode's integrator (engine
//! `fluid.rs`) for python/dumbbell/models/fluid.py.

use dumbbell_engine::fluid::{integrate, Class, Control, Model, Queue};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// A queue from (capacity, buffer, control, params, ecn): `control`
/// "droptail", "red" with `params` = [min_th, max_th, max_p, k, gentle,
/// spacing, bytes_scale, mark_p (< 0: none)], or "pi" with [a, b, w, q_ref,
/// q_scale, bytes_scale].
fn queue(l: usize, (c, buffer, control, p, ecn): (f64, f64, String, Vec<f64>, bool)) -> PyResult<Queue> {
    let need = |n: usize| {
        if p.len() == n {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!("fluid model: queue {l}: {control} takes {n} parameters, got {}", p.len())))
        }
    };
    let control = match control.as_str() {
        "droptail" => Control::DropTail,
        "red" => {
            need(8)?;
            Control::Red { min_th: p[0], max_th: p[1], max_p: p[2], k: p[3], gentle: p[4] != 0.0, spacing: p[5] as u8, bytes_scale: p[6], mark_p: p[7] }
        }
        "pi" => {
            need(6)?;
            Control::Pi { a: p[0], b: p[1], w: p[2], qref: p[3], q_scale: p[4], bytes_scale: p[5] }
        }
        other => return Err(PyValueError::new_err(format!("fluid model: queue {l}: no controller {other:?} (droptail, red, pi)"))),
    };
    Ok(Queue { c, buffer, control, ecn })
}

/// Integrate the fluid model.  `classes`: (n, tp, w_max, w0, start,
/// slow_start, route) per class, the route a list of queue indices;
/// `queues`: see `queue`; `per_window`: halve once per window of signalled
/// data (engine `fluid::Model`).  Returns a dict of float64 arrays as bytes
/// (t; w, rate, goodput, rtt: samples x classes; q, x, p, d: samples x
/// queues; delivered; q_integral per queue) and steps.
#[pyfunction]
pub fn fluid_integrate<'py>(
    py: Python<'py>,
    classes: Vec<(f64, f64, f64, f64, f64, bool, Vec<usize>)>,
    queues: Vec<(f64, f64, String, Vec<f64>, bool)>,
    per_window: bool,
    until: f64,
    h: f64,
    dt_out: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let queues = queues.into_iter().enumerate().map(|(l, q)| queue(l, q)).collect::<PyResult<Vec<_>>>()?;
    let classes = classes
        .into_iter()
        .map(|(n, tp, w_max, w0, start, slow_start, route)| Class { n, tp, w_max, w0, start, slow_start, route })
        .collect();
    let m = Model { classes, queues, per_window };
    if !(dt_out > 0.0) {
        return Err(PyValueError::new_err(format!("fluid model: the output interval must be positive, got {dt_out}")));
    }
    let o = py.detach(|| integrate(&m, until, h, dt_out)).map_err(|e| PyValueError::new_err(format!("fluid model: {e}")))?;
    let d = PyDict::new(py);
    let raw = |v: &[f64]| {
        // SAFETY: f64 is plain data; its bytes are copied out.
        let b = unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) };
        PyBytes::new(py, b)
    };
    for (k, v) in [
        ("t", &o.t),
        ("w", &o.w),
        ("rate", &o.rate),
        ("goodput", &o.goodput),
        ("rtt", &o.rtt),
        ("q", &o.q),
        ("x", &o.x),
        ("p", &o.p),
        ("d", &o.d),
        ("delivered", &o.delivered),
        ("q_integral", &o.q_integral),
    ] {
        d.set_item(k, raw(v))?;
    }
    d.set_item("steps", o.steps)?;
    Ok(d)
}
