//! The commands of `Queue/dsRED` and its edge and core subclasses
//! (diffserv/dsred.cc `dsREDQueue::command`, dsEdge.cc
//! `edgeQueue::command`, dsPolicy.cc's table printing), with their output
//! as ns-2 prints it (C's stdout).
//!
//! ```tcl
//! $q meanPktSize 1000
//! $q set numQueues_ 1
//! $q setNumPrec 2
//! $q addPolicyEntry SRC DST TokenBucket 10 CIR CBS   ;# edge: profile of SRC->DST (-1: any)
//! $q addPolicerEntry TokenBucket 10 11               ;# edge: out of profile 10 -> 11
//! $q addPHBEntry 10 0 0                              ;# code point 10 -> queue 0, precedence 0
//! $q configQ 0 0 20 40 0.02                          ;# queue 0 precedence 0: RED 20/40, max_p 0.02 [q_w]
//! ```
//!
//! Where ns-2 reads arguments with `atoi`/`atof` and writes past its
//! tables or crashes on a bad one, these refuse it with an error naming
//! the argument and what is expected.

use crate::policer::{MeterKind, Profile, Rule, Unmarked, ANY, MAX_PROFILES, MAX_RULES};
use crate::qdisc::dsred::{Accounting, Fault, Scheduler, MAX_CP, MAX_PREC, MAX_QUEUES};
use crate::qdisc::DsRed;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

use super::printf::format_f;

fn int_arg(what: &str, v: &str) -> Result<i32, String> {
    v.trim().parse::<i32>().map_err(|_| format!("{what} must be an integer, got \"{v}\""))
}

fn real_arg(what: &str, v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("{what} must be a number, got \"{v}\"")),
    }
}

fn index_arg(what: &str, v: &str, below: usize) -> Result<usize, String> {
    let i = int_arg(what, v)?;
    if i < 0 || i as usize >= below {
        return Err(format!("{what} must be 0 to {}, got {i}", below - 1));
    }
    Ok(i as usize)
}

fn code_point_arg(v: &str) -> Result<i32, String> {
    Ok(index_arg("a code point", v, MAX_CP)? as i32)
}

/// A rate in bits per second, or a size in bytes: 0 or more.
fn amount_arg(what: &str, v: &str) -> Result<f64, String> {
    let x = real_arg(what, v)?;
    if x < 0.0 {
        return Err(format!("{what} must be 0 or more, got {v}"));
    }
    Ok(x)
}

/// The meter kind a policy or policer entry names.
fn kind_arg(v: &str) -> Result<MeterKind, String> {
    Ok(match v {
        "Null" | "Dumb" => MeterKind::Null,
        "TSW2CM" => MeterKind::Tsw2,
        "TSW3CM" => MeterKind::Tsw3,
        "TokenBucket" => MeterKind::TokenBucket,
        "srTCM" => MeterKind::SrTcm,
        "trTCM" => MeterKind::TrTcm,
        "SFD" | "EW" | "DEWP" => return Err(format!("the {v} policy is not supported (Null, TSW2CM, TSW3CM, TokenBucket, srTCM and trTCM are)")),
        _ => return Err(format!("no policy \"{v}\": expected Null, TSW2CM, TSW3CM, TokenBucket, srTCM or trTCM")),
    })
}

/// The name ns-2's printPolicerTable gives a meter kind.
fn policer_name(k: MeterKind) -> &'static str {
    match k {
        MeterKind::Null => "Null",
        MeterKind::Tsw2 => "TSW2CM",
        MeterKind::Tsw3 => "TSW3CM",
        MeterKind::TokenBucket => "Token Bucket",
        MeterKind::SrTcm => "srTCM",
        MeterKind::TrTcm => "trTCM",
    }
}

/// How a run stopped by a DiffServ queue is told (ns-2 prints the first
/// line and asserts or crashes).
pub fn fault_text(f: Fault) -> String {
    match f {
        Fault::NoPhb(cp) => format!(
            "Queue/dsRED: no PHB entry for code point {cp} (ns-2: \"ERROR: No match found for code point {cp} in PHB Table.\" and an assertion \
             failure); add one with addPHBEntry {cp} QUEUE PRECEDENCE"
        ),
        Fault::Unmarked(Unmarked::NoProfile { src, dst }) => format!(
            "Queue/dsRED/edge: no policy entry for packets from {src} to {dst} (ns-2: \"ERROR: No Policy Table entry found for Source {src}-Destination {dst}.\" and exits); \
             add one with addPolicyEntry {src} {dst} ... (-1 matches any node)"
        ),
        Fault::Unmarked(Unmarked::NoRule { kind, code_point }) => format!(
            "Queue/dsRED/edge: no policer entry for the {} policy and code point {code_point} (ns-2: \"ERROR: No Policer Table entry found for initial code point \
             {code_point}.\" and crashes); add one with addPolicerEntry",
            policer_name(kind)
        ),
    }
}

impl Sim {
    /// Is `id` a DiffServ queue?
    pub(crate) fn is_dsred(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<DsRed>().is_some())
    }

    fn dsred_mut(&mut self, id: ObjId) -> &mut DsRed {
        match &mut self.objs[id as usize] {
            Obj::Queue(q) => q.disc.get_mut::<DsRed>().expect("a dsRED queue"),
            _ => unreachable!("not a queue"),
        }
    }

    /// `dsREDQueue::reset`, before the queue drains: counters and
    /// scheduler start again, each physical queue takes the queue's limit,
    /// and the precedences learn the link's packet rate.
    pub(crate) fn dsred_reset(&mut self, id: ObjId) {
        let Obj::Queue(q) = &self.objs[id as usize] else { return };
        let Some(d) = q.disc.get::<DsRed>() else { return };
        let bw = match self.objs.get(d.link as usize) {
            Some(Obj::Link(l)) => Some(l.bandwidth),
            _ => None,
        };
        let Obj::Queue(q) = &mut self.objs[id as usize] else { return };
        let limit = q.cap.limit;
        q.disc.get_mut::<DsRed>().expect("a dsRED queue").reset(limit, bw);
    }

    fn print_c(&mut self, s: &str) {
        self.w.c_stdout.extend_from_slice(s.as_bytes());
    }

    /// `$q cmd args` of a DiffServ queue (`argv[0]` is the command).
    pub(crate) fn dsred_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let edge = self.dsred_mut(id).marker.is_some();
        let usage = |args: &str| Err(format!("usage: $queue {cmd} {args}"));
        let now = self.w.s.now;
        match cmd {
            "configQ" => {
                if !(6..=7).contains(&n) {
                    return usage("QUEUE PRECEDENCE MIN_THRESH MAX_THRESH MAX_P ?Q_WEIGHT?");
                }
                let q = index_arg("configQ's queue", argv[1], MAX_QUEUES)?;
                let p = index_arg("configQ's precedence", argv[2], MAX_PREC)?;
                let th_min = int_arg("configQ's minimum threshold (packets)", argv[3])?;
                let th_max = int_arg("configQ's maximum threshold (packets)", argv[4])?;
                let max_p = real_arg("configQ's maximum drop probability", argv[5])?;
                if !(max_p > 0.0 && max_p <= 1.0) {
                    return Err(format!("configQ's maximum drop probability must be above 0 and at most 1, got {}", argv[5]));
                }
                let q_w = match argv.get(6) {
                    Some(v) => {
                        let w = real_arg("configQ's queue weight", v)?;
                        if !(w > 0.0 && w <= 1.0) {
                            return Err(format!("configQ's queue weight must be above 0 and at most 1, got {v}"));
                        }
                        Some(w)
                    }
                    None => None,
                };
                self.dsred_mut(id).queues[q].configure(p, th_min as f64, th_max as f64, max_p, q_w, now);
            }
            "addPHBEntry" => {
                if n != 4 {
                    return usage("CODE_POINT QUEUE PRECEDENCE");
                }
                let cp = code_point_arg(argv[1])?;
                let q = index_arg("addPHBEntry's queue", argv[2], MAX_QUEUES)?;
                let p = index_arg("addPHBEntry's precedence", argv[3], MAX_PREC)?;
                let d = self.dsred_mut(id);
                if d.phb.len() == MAX_CP {
                    return Err(format!("the PHB table is full ({MAX_CP} entries, ns-2's MAX_CP)"));
                }
                d.add_phb(cp, q, p);
            }
            "meanPktSize" => {
                if n != 2 {
                    return usage("BYTES");
                }
                let size = int_arg("meanPktSize", argv[1])?;
                if size <= 0 {
                    return Err(format!("meanPktSize must be a positive number of bytes, got {size}"));
                }
                self.dsred_mut(id).set_mean_pktsize(size);
            }
            "setNumPrec" => {
                if n != 2 {
                    return usage("N");
                }
                let k = int_arg("setNumPrec", argv[1])?;
                if k < 1 || k as usize > MAX_PREC {
                    return Err(format!("setNumPrec must be 1 to {MAX_PREC} precedence levels (MAX_PREC), got {k}"));
                }
                self.dsred_mut(id).set_num_prec(k as usize);
            }
            "setMREDMode" => {
                if !(2..=3).contains(&n) {
                    return usage("RIO-C|RIO-D|WRED|DROP ?QUEUE?");
                }
                let mode = match argv[1] {
                    "RIO-C" => Accounting::RioCoupled,
                    "RIO-D" => Accounting::RioDecoupled,
                    "WRED" => Accounting::Wred,
                    "DROP" => Accounting::DropTail,
                    m => return Err(format!("no MRED mode \"{m}\": expected RIO-C, RIO-D, WRED or DROP")),
                };
                let which = match argv.get(2) {
                    Some(v) => Some(index_arg("setMREDMode's queue", v, MAX_QUEUES)?),
                    None => None,
                };
                for (i, q) in self.dsred_mut(id).queues.iter_mut().enumerate() {
                    if which.is_none_or(|w| w == i) {
                        q.mode = mode;
                    }
                }
            }
            "setSchedularMode" => {
                if n != 2 {
                    return usage("RR|WRR|WIRR|PRI");
                }
                self.dsred_mut(id).scheduler = match argv[1] {
                    "RR" => Scheduler::RoundRobin,
                    "WRR" => Scheduler::WeightedRoundRobin,
                    "WIRR" => Scheduler::WeightedInterleavedRoundRobin,
                    "PRI" => Scheduler::Priority,
                    s => return Err(format!("no scheduler \"{s}\": expected RR, WRR, WIRR or PRI")),
                };
            }
            "addQueueWeights" => {
                if n != 3 {
                    return usage("QUEUE WEIGHT");
                }
                let q = index_arg("addQueueWeights's queue", argv[1], MAX_QUEUES)?;
                let wt = int_arg("addQueueWeights's weight", argv[2])?;
                if wt < 1 {
                    return Err(format!("addQueueWeights's weight must be 1 or more, got {wt}"));
                }
                self.dsred_mut(id).weights[q] = wt;
            }
            "addQueueRate" => {
                if n != 3 {
                    return usage("QUEUE RATE_BPS");
                }
                let q = index_arg("addQueueRate's queue", argv[1], MAX_QUEUES)?;
                let r = int_arg("addQueueRate's rate (bits/s)", argv[2])?;
                if r < 0 {
                    return Err(format!("addQueueRate's rate must be 0 (no cap) or more, got {r}"));
                }
                self.dsred_mut(id).max_rate[q] = r as f64 / 8.0;
            }
            "getAverage" | "getCurrent" if n == 2 => {
                let q = index_arg(&format!("{cmd}'s queue"), argv[1], MAX_QUEUES)?;
                let pq = &self.dsred_mut(id).queues[q];
                let v = if cmd == "getAverage" { pq.weighted_len() } else { pq.fifo.len() as f64 };
                return Ok(format_f(v, 6));
            }
            "getAverageV" | "getCurrentV" if n == 3 => {
                let q = index_arg(&format!("{cmd}'s queue"), argv[1], MAX_QUEUES)?;
                let p = index_arg(&format!("{cmd}'s precedence"), argv[2], MAX_PREC)?;
                let v = self.dsred_mut(id).queues[q].prec[p];
                return Ok(format_f(if cmd == "getAverageV" { v.ave } else { v.qlen as f64 }, 6));
            }
            "getStat" => {
                let st = &self.dsred_mut(id).stats;
                let v = match (argv.get(1).copied(), n) {
                    (Some(what), 2) => match what {
                        "drops" => st.drops as f64,
                        "edrops" => st.edrops as f64,
                        "pkts" => st.pkts as f64,
                        _ => -1.0,
                    },
                    (Some(what), 3) => {
                        let cp = code_point_arg(argv[2])? as usize;
                        match what {
                            "drops" => st.drops_cp[cp] as f64,
                            "edrops" => st.edrops_cp[cp] as f64,
                            "pkts" => st.pkts_cp[cp] as f64,
                            _ => -1.0,
                        }
                    }
                    _ => -1.0,
                };
                return Ok(format_f(v, 6));
            }
            "printStats" => {
                let st = self.dsred_mut(id).stats.clone();
                let mut s = String::from("\nPackets Statistics\n=======================================\n CP  TotPkts   TxPkts   ldrops   edrops\n --  -------   ------   ------   ------\n");
                s.push_str(&format!("All {:8} {:8} {:8} {:8}\n", st.pkts, st.pkts - st.drops - st.edrops, st.drops, st.edrops));
                for i in 0..MAX_CP {
                    if st.pkts_cp[i] != 0 {
                        let (p, d, e) = (st.pkts_cp[i], st.drops_cp[i], st.edrops_cp[i]);
                        s.push_str(&format!("{i:3} {p:8} {:8} {d:8} {e:8}\n", p - d - e));
                    }
                }
                self.print_c(&s);
            }
            "printWRRcount" => {
                let d = self.dsred_mut(id);
                let mut s = String::new();
                for i in 0..d.num_queues.clamp(0, MAX_QUEUES as i32) as usize {
                    s.push_str(&format!("{i}: 0 {} {}.\n", d.sent[i], d.weights[i]));
                }
                self.print_c(&s);
            }
            "printPHBTable" => {
                let mut s = String::from("PHB Table:\n");
                for e in &self.dsred_mut(id).phb {
                    s.push_str(&format!("Code Point {} is associated with Queue {}, Precedence {}\n", e.code_point, e.queue, e.prec));
                }
                s.push('\n');
                self.print_c(&s);
            }
            "link" if n == 2 => {
                let l = match self.lookup(argv[1]) {
                    Some(l) if matches!(self.objs[l as usize], Obj::Link(_)) => l,
                    _ => return Err(format!("RED: no LinkDelay object {}", argv[1])),
                };
                self.dsred_mut(id).link = l;
            }
            "early-drop-target" if n == 2 => {
                let o = self.lookup(argv[1]).ok_or_else(|| format!("no object {}", argv[1]))?;
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                q.early_drop_target = o;
            }
            "addPolicyEntry" if edge => self.add_policy(id, argv)?,
            "addPolicerEntry" if edge => self.add_policer(id, argv)?,
            "getCBucket" if edge => {
                if n != 3 {
                    return usage("SOURCE DESTINATION");
                }
                let (src, dst) = (int_arg("getCBucket's source", argv[1])?, int_arg("getCBucket's destination", argv[2])?);
                let m = self.dsred_mut(id).marker.as_deref().expect("an edge");
                let p = m.profiles.iter().find(|p| (p.src == src || p.src == ANY) && (p.dst == dst || p.dst == ANY));
                let v = match p {
                    None => {
                        let s = format!(
                            "ERROR: No Policy Table entry found for Source {src}-Destination {dst}.\n{}ERROR: cannot get bucket size; no existing policy found for Source {src}-Desination {dst}.\n",
                            self.policy_table_text(id)
                        );
                        self.print_c(&s);
                        -1.0
                    }
                    Some(p) if matches!(p.kind, MeterKind::TokenBucket | MeterKind::SrTcm | MeterKind::TrTcm) => p.c_bucket,
                    Some(_) => {
                        self.print_c(&format!(
                            "ERROR: cannot get bucket size; the Source {src}-Desination {dst} Policy does not include a Committed Bucket.\n"
                        ));
                        -1.0
                    }
                };
                return Ok(format_f(v, 6));
            }
            "printPolicyTable" if edge => {
                let s = self.policy_table_text(id);
                self.print_c(&s);
            }
            "printPolicerTable" if edge => {
                let m = self.dsred_mut(id).marker.as_deref().expect("an edge");
                let mut s = String::from("Policer Table:\n");
                for r in &m.rules {
                    s.push_str(policer_name(r.kind));
                    if r.kind.three_colour() {
                        s.push_str(&format!(" policer code point {} is policed to yellow code point {} and red code point {}.\n", r.initial, r.yellow, r.red));
                    } else {
                        s.push_str(&format!(" policer code point {} is policed to code point {}.\n", r.initial, r.yellow));
                    }
                }
                s.push('\n');
                self.print_c(&s);
            }
            "couple" | "coupleEW" | "limit" | "detect" if edge => {
                return Err(format!("{cmd}: the EW and DEWP policies are not supported"));
            }
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }

    /// `PolicyClassifier::printPolicyTable`'s text.
    fn policy_table_text(&mut self, id: ObjId) -> String {
        let m = self.dsred_mut(id).marker.as_deref().expect("an edge");
        let f1 = |x: f64| format_f(x, 1);
        let mut s = format!("Policy Table({}):\n", m.profiles.len());
        for p in &m.profiles {
            let (src, dst, cp) = (p.src, p.dst, p.code_point);
            s.push_str(&match p.kind {
                MeterKind::Null => format!("Flow ({src} to {dst}): Null policer, initial code point {cp}\n"),
                MeterKind::Tsw2 => format!("Flow ({src} to {dst}): TSW2CM policer, initial code point {cp}, CIR {} bps.\n", f1(p.cir * 8.0)),
                MeterKind::Tsw3 => format!(
                    "Flow ({src} to {dst}): TSW3CM policer, initial code point {cp}, CIR {} bps, PIR {} bytes.\n",
                    f1(p.cir * 8.0),
                    f1(p.pir * 8.0)
                ),
                MeterKind::TokenBucket => format!(
                    "Flow ({src} to {dst}): Token Bucket policer, initial code  point {cp}, CIR {} bps, CBS {} bytes.\n",
                    f1(p.cir * 8.0),
                    f1(p.cbs)
                ),
                MeterKind::SrTcm => format!(
                    "Flow ({src} to {dst}): srTCM policer, initial code point {cp}, CIR {} bps, CBS {} bytes, EBS {} bytes.\n",
                    f1(p.cir * 8.0),
                    f1(p.cbs),
                    f1(p.ebs)
                ),
                // (ns-2 prints this one's destination first)
                MeterKind::TrTcm => format!(
                    "Flow ({dst} to {src}): trTCM policer, initial code point {cp}, CIR {} bps, CBS {} bytes, PIR {} bps, PBS {} bytes.\n",
                    f1(p.cir * 8.0),
                    f1(p.cbs),
                    f1(p.pir * 8.0),
                    f1(p.pbs)
                ),
            });
        }
        s.push('\n');
        s
    }

    /// `addPolicyEntry SRC DST KIND CODE_POINT ARGS...`.
    fn add_policy(&mut self, id: ObjId, argv: &[&str]) -> Result<(), String> {
        const USAGE: &str = "usage: $edge addPolicyEntry SRC DST Null CP | TSW2CM CP CIR ?WINDOW? | TSW3CM CP CIR PIR | \
                             TokenBucket CP CIR CBS | srTCM CP CIR CBS EBS | trTCM CP CIR CBS PIR PBS";
        if argv.len() < 5 {
            return Err(USAGE.into());
        }
        let src = int_arg("addPolicyEntry's source node", argv[1])?;
        let dst = int_arg("addPolicyEntry's destination node", argv[2])?;
        let kind = kind_arg(argv[3])?;
        let cp = code_point_arg(argv[4])?;
        let args = &argv[5..];
        let want = match kind {
            MeterKind::Null => 0..=0,
            MeterKind::Tsw2 => 1..=2,
            MeterKind::Tsw3 | MeterKind::TokenBucket => 2..=2,
            MeterKind::SrTcm => 3..=3,
            MeterKind::TrTcm => 4..=4,
        };
        if !want.contains(&args.len()) {
            return Err(format!("{USAGE} (got {} arguments after {} {cp})", args.len(), argv[3]));
        }
        let a = |i: usize, what: &str| amount_arg(&format!("addPolicyEntry's {what}"), args[i]);
        let mut p = match kind {
            MeterKind::Null => Profile::new(src, dst, kind, cp, 0.0, 0.0, 0.0, 0.0, 0.0),
            MeterKind::Tsw2 => Profile::new(src, dst, kind, cp, a(0, "CIR (bits/s)")?, 0.0, 0.0, 0.0, 0.0),
            MeterKind::Tsw3 => Profile::new(src, dst, kind, cp, a(0, "CIR (bits/s)")?, a(1, "PIR (bits/s)")?, 0.0, 0.0, 0.0),
            MeterKind::TokenBucket => Profile::new(src, dst, kind, cp, a(0, "CIR (bits/s)")?, 0.0, a(1, "CBS (bytes)")?, 0.0, 0.0),
            MeterKind::SrTcm => Profile::new(src, dst, kind, cp, a(0, "CIR (bits/s)")?, 0.0, a(1, "CBS (bytes)")?, a(2, "EBS (bytes)")?, 0.0),
            MeterKind::TrTcm => {
                Profile::new(src, dst, kind, cp, a(0, "CIR (bits/s)")?, a(2, "PIR (bits/s)")?, a(1, "CBS (bytes)")?, 0.0, a(3, "PBS (bytes)")?)
            }
        };
        if matches!(kind, MeterKind::Tsw2 | MeterKind::Tsw3) && p.cir <= 0.0 {
            return Err(format!("addPolicyEntry's CIR must be above 0 for {} (its meter divides by it), got {}", argv[3], args[0]));
        }
        if kind == MeterKind::Tsw2 && args.len() == 2 {
            let win = real_arg("addPolicyEntry's TSW2CM window (s)", args[1])?;
            if win <= 0.0 {
                return Err(format!("addPolicyEntry's TSW2CM window must be a positive time in seconds, got {}", args[1]));
            }
            p.win_len = win;
        }
        let m = self.dsred_mut(id).marker.as_deref_mut().expect("an edge");
        if m.profiles.len() == MAX_PROFILES {
            return Err(format!("the policy table is full ({MAX_PROFILES} entries, ns-2's MAX_POLICIES)"));
        }
        m.profiles.push(p);
        Ok(())
    }

    /// `addPolicerEntry KIND CODE_POINT ?YELLOW? ?RED?`.
    fn add_policer(&mut self, id: ObjId, argv: &[&str]) -> Result<(), String> {
        if argv.len() < 3 {
            return Err("usage: $edge addPolicerEntry KIND INITIAL_CP ?YELLOW_CP? ?RED_CP?".into());
        }
        let kind = kind_arg(argv[1])?;
        let initial = code_point_arg(argv[2])?;
        let need = match kind {
            MeterKind::Null => 0,
            k if k.three_colour() => 2,
            _ => 1,
        };
        let given = argv.len() - 3;
        if given < need || given > 2 {
            return Err(format!(
                "addPolicerEntry {} {initial}: expected {need} downgraded code point{} after the initial one, got {given}",
                argv[1],
                if need == 1 { "" } else { "s" }
            ));
        }
        let yellow = if kind == MeterKind::Null { initial } else { code_point_arg(argv[3])? };
        let red = match argv.get(4) {
            Some(v) => code_point_arg(v)?,
            None => 0,
        };
        let m = self.dsred_mut(id).marker.as_deref_mut().expect("an edge");
        if m.rules.len() == MAX_RULES {
            return Err(format!("the policer table is full ({MAX_RULES} entries, ns-2's MAX_CP)"));
        }
        m.rules.push(Rule { kind, initial, yellow, red });
        Ok(())
    }
}
