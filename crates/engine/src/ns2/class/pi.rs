//! `Queue/PI` (queue/pi.cc `PIQueue`): the PI controller of qdisc/pi.rs.

use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::{Pi, Queue};
use crate::sim::Obj;

fn queue(o: &mut Obj) -> Option<&mut Queue> {
    match o {
        Obj::Queue(q) => Some(q),
        _ => None,
    }
}

fn pi(o: &mut Obj) -> Option<&mut Pi> {
    queue(o)?.disc.get_mut::<Pi>()
}

/// PI's capacity unit (`queue_in_bytes_`: the limit is `limit_` packets of
/// `mean_pktsize_` bytes, the controller counts bytes over `mean_pktsize_`).
pub static PI_QUEUE: Table<Queue> = Table {
    class: "Queue/PI",
    part: queue,
    vars: &[
        var("queue_in_bytes_", Bool, "false", |q, _| boolean(q.cap.in_bytes), |q, v, _| Ok(q.cap.in_bytes = parse_bool(v))),
        within(var("mean_pktsize_", Int, "500", |q, _| int(q.cap.mean_pktsize), |q, v, _| Ok(q.cap.mean_pktsize = parse_int(v))),
            Range::PositiveBytes, "PI divides by it in byte mode (ns-2: a floating-point exception on 0)"),
    ],
    after_set: Some(Queue::refresh_plain),
};

/// The controller's (`a_`, `b_`: the discretised law's coefficients, `w_`:
/// updates per second, `qref_`: the queue it holds), `bytes_`, `setbit_`,
/// and the traced `prob_` and `curq_` (as of the queue's last packet
/// event: the updates due are run then).
pub static PI: Table<Pi> = Table {
    class: "Queue/PI",
    part: pi,
    vars: &[
        var("bytes_", Bool, "false", |q, _| boolean(q.bytes), |q, v, _| Ok(q.bytes = parse_bool(v))),
        within(var("a_", Real, "0.00001822", |q, _| real(q.a), |q, v, _| finite("a_", v).map(|x| q.a = x)),
            Range::Finite, "a coefficient of the control law: infinite or NaN makes the probability NaN"),
        within(var("b_", Real, "0.00001816", |q, _| real(q.b), |q, v, _| finite("b_", v).map(|x| q.b = x)),
            Range::Finite, "a coefficient of the control law: infinite or NaN makes the probability NaN"),
        within(var("w_", Real, "170", |q, _| real(q.w), |q, v, _| positive("w_", v).map(|x| q.w = x)),
            Range::Positive, "updates per second: the update period is 1/w_ (ns-2 divides by it)"),
        within(var("qref_", Real, "50", |q, _| real(q.qref), |q, v, _| finite("qref_", v).map(|x| q.qref = x)),
            Range::Finite, "the queue length the controller holds: infinite or NaN makes the probability NaN"),
        var("setbit_", Bool, "false", |q, _| boolean(q.setbit), |q, v, _| Ok(q.setbit = parse_bool(v))),
        within(var("prob_", TracedReal, "0", |q, _| real(q.prob), |q, v, _| finite("prob_", v).map(|x| q.prob = x)),
            Range::Finite, "the marking probability: infinite or NaN marks nothing or everything for ever"),
        var("curq_", TracedInt, "0", |q, _| int(q.curq), |q, v, _| Ok(q.curq = parse_int(v))),
    ],
    after_set: None,
};
