//! The commands of `Queue/RED/PD` (queue/red-pd.cc `RedPDQueue::command`):
//! `attach-flowmon`, `monitor-flow $flow $prob` and `monitor-flow $flow
//! $target $current`, `unmonitor-flow`, `unresponsive-flow`,
//! `responsive-flow`, `mon-edrop-trace`, `mon-trace-type`, `showme`; the
//! others are RED's.  A flow given to them must be a
//! `QueueMonitor/ED/Flow/RedPD`; ns-2's refusals keep its messages.

use crate::qdisc::redpd::FlowPolicy;
use crate::qdisc::RedPd;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};

impl Sim {
    /// Is `id` a RED-PD queue?
    pub(crate) fn is_redpd(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<RedPd>().is_some())
    }

    fn redpd_mut(&mut self, id: ObjId) -> &mut RedPd {
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
        q.disc.get_mut::<RedPd>().expect("RED-PD queue")
    }

    /// The RED-PD flow named `name`, its policy and flow id.
    fn redpd_flow(&mut self, name: &str) -> Result<(ObjId, &mut FlowPolicy, i32), String> {
        let Some(id) = self.lookup(name) else { return Err(format!("no object {name}")) };
        match &mut self.objs[id as usize] {
            Obj::QueueMonitor(q) if q.policy.is_some() => {
                let fid = q.flow.map_or(-1, |k| k.fid);
                Ok((id, q.policy.as_deref_mut().unwrap(), fid))
            }
            _ => Err(format!("{name} is not a flow of a RED-PD flow monitor (QueueMonitor/ED/Flow/RedPD)")),
        }
    }

    pub(crate) fn redpd_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let now = self.w.s.now;
        match (cmd, n) {
            ("mon-edrop-trace", 1) => {
                let t = self.redpd_mut(id).drop_trace;
                return Ok(if t == NONE { "0".into() } else { self.name(t).to_string() });
            }
            ("mon-trace-type", 1) => return Ok(self.redpd_mut(id).drop_trace_type.clone()),
            ("attach-flowmon", 2) => {
                let fm = match self.lookup(argv[1]) {
                    Some(fm) if matches!(&self.objs[fm as usize], Obj::QueueMonitor(m) if m.flowmon.is_some()) => fm,
                    _ => return Err(format!("attach-flowmon: {} is not a flow monitor (QueueMonitor/ED/Flowmon)", argv[1])),
                };
                self.redpd_mut(id).flowmon = fm;
            }
            ("mon-edrop-trace", 2) => {
                let t = self.lookup(argv[1]).ok_or_else(|| format!("mon-edrop-trace: no object {}", argv[1]))?;
                self.redpd_mut(id).drop_trace = t;
            }
            ("showme", 2) => {
                let (_, f, _) = self.redpd_flow(argv[1])?;
                let line = format!("showing now : {} = {}\n", argv[1], f.monitored);
                self.w.c_stdout.extend_from_slice(line.as_bytes());
            }
            ("unmonitor-flow", 2) => {
                let (_, f, fid) = self.redpd_flow(argv[1])?;
                if f.monitored != 1 {
                    return Err(format!("Cannot unmonitor an unmonitored flow: {fid}\n"));
                }
                f.monitored = 0;
                f.unresponsive = 0;
                f.monitor_start = 0.0;
                f.last_drop = 0.0;
                f.unresponsive_start = 0.0;
                let d = self.redpd_mut(id);
                d.monitored -= 1;
                if d.monitored < 0 {
                    return Err("noMonitored gone below ZERO\n".into());
                }
            }
            ("unresponsive-flow", 2) => {
                let (flow, f, fid) = self.redpd_flow(argv[1])?;
                if f.monitored != 1 {
                    return Err(format!("Cannot make an unmonitored flow unresponsive: {fid}\n"));
                }
                if f.unresponsive != 1 {
                    f.unresponsive = 1;
                    f.unresponsive_start = now;
                }
                if f.auto != 0 {
                    self.estimate_rate(flow);
                }
            }
            ("responsive-flow", 2) => {
                let (_, f, fid) = self.redpd_flow(argv[1])?;
                if f.unresponsive != 1 {
                    return Err(format!("Cannot make a responsive flow responsive: {fid}\n"));
                }
                f.unresponsive = 0;
                f.unresponsive_start = 0.0;
            }
            // monitoring with probability p is monitoring with target 1 - p
            // and current rate 1 (the target as `%g` writes it)
            ("monitor-flow", 3) => {
                let p = crate::ns2::tclcl::parse_real(argv[2]);
                let target = crate::ns2::printf::format_g(1.0 - p, 6);
                return self.redpd_command(id, &["monitor-flow", argv[1], &target, "1"]);
            }
            ("monitor-flow", 4) => {
                let target = crate::ns2::tclcl::parse_bw(argv[2]);
                let current = crate::ns2::tclcl::parse_bw(argv[3]);
                if !target.is_finite() || !current.is_finite() {
                    return Err(format!("monitor-flow: the target ({}) and current rate ({}) must be finite", argv[2], argv[3]));
                }
                let (flow, f, _) = self.redpd_flow(argv[1])?;
                f.target_bw = target;
                f.current_bw = current;
                let newly = f.monitored != 1;
                if newly {
                    f.monitored = 1;
                    f.monitor_start = now;
                }
                let d = self.redpd_mut(id);
                if newly {
                    d.monitored += 1;
                }
                if d.auto {
                    self.estimate_rate(flow);
                    if let Obj::QueueMonitor(q) = &mut self.objs[flow as usize] {
                        q.est_rate = current;
                    }
                }
            }
            _ => return self.red_command(id, argv),
        }
        Ok(String::new())
    }

    /// Turn a flow's rate estimate on (`estimate_rate_ 1`).
    fn estimate_rate(&mut self, flow: ObjId) {
        if let Obj::QueueMonitor(q) = &mut self.objs[flow as usize] {
            q.estimate_rate = 1;
            q.refresh_plain();
        }
    }
}
