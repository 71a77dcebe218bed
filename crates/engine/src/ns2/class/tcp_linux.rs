//! ns-2's `Agent/TCP/Linux` (tcp/tcp-linux.cc, `LinuxTcpAgent`): its own
//! bound variable, its class defaults (ns-default.tcl), and its commands
//! (`select_ca`, `set_ca_param`, `get_ca_param`, `set_ca_default_param`,
//! `get_ca_default_param`), which print what ns-2 prints with printf.

use crate::agent::{AgentBase, AgentKind};
use crate::cc::{Kind, Module};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::sim::{Obj, Sim};
use crate::tcp::linux::LinuxState;
use crate::tcp::{Flavor, Tcp};

fn linux(o: &mut Obj) -> Option<&mut LinuxState> {
    match agent_parts(o)? {
        (_, AgentKind::Tcp(t)) => match &mut t.flavor {
            Flavor::Linux(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// `next_pkts_in_flight_` (bound, a TracedInt), and the class defaults
/// ns-default.tcl gives Agent/TCP/Linux.
pub static LINUX: Table<LinuxState> = Table {
    class: "Agent/TCP/Linux",
    part: linux,
    vars: &[
        var("next_pkts_in_flight_", TracedInt, "0", |s, _| int(s.next_pkts_in_flight), |s, v, _| Ok(s.next_pkts_in_flight = parse_int(v))),
        script_var("rtxcur_init_", "3"),
        script_var("maxrto_", "120"),
        script_var("minrto_", "0.2"),
        script_var("ts_resetRTO_", "true"),
        script_var("delay_growth_", "false"),
    ],
    after_set: None,
};

/// The known names, for messages.
pub fn known() -> String {
    Kind::ALL.iter().filter(|k| k.linux_dialect()).map(|k| k.name()).collect::<Vec<_>>().join(" ")
}

impl Sim {
    /// The commands of Agent/TCP/Linux; `None` if `argv` is none of them.
    pub fn linux_tcp_command(&mut self, id: u32, argv: &[&str]) -> Option<Result<String, String>> {
        let cmd = *argv.first()?;
        if !matches!(cmd, "select_ca" | "set_ca_param" | "get_ca_param" | "set_ca_default_param" | "get_ca_default_param") {
            return None;
        }
        {
            let Some(a) = self.agent_mut(id) else { return None };
            let AgentKind::Tcp(t) = &a.kind else { return None };
            if !matches!(t.flavor, Flavor::Linux(_)) {
                return None;
            }
        }
        // ns-2 echoes its argv, whose argv[0] is tclcl's "cmd".
        let echo = format!("cmd {}\n", argv.join(" "));
        let n = argv.len();
        let name = self.name(id).to_string();
        let module = |proto: &str| Module::by_name(proto).filter(|m| !matches!(m, Module::Cc(k) if !k.linux_dialect()));
        let param = |proto: &str, p: &str| -> Result<(Module, usize), String> {
            let m = module(proto).ok_or_else(|| format!("{name} {cmd}: no congestion control module \"{proto}\" (known: linux {})", known()))?;
            let i = m.param_index(p).ok_or_else(|| {
                let names: Vec<_> = m.params().iter().map(|q| q.name).collect();
                format!("{name} {cmd}: \"{p}\" is not a parameter of {proto} (its parameters: {})", if names.is_empty() { "none".into() } else { names.join(" ") })
            })?;
            Ok((m, i))
        };
        let int_arg = |v: &str| crate::ns2::tclcl::atoi(v);
        let r = match (cmd, n) {
            ("select_ca", 2..) => {
                self.w.c_stdout.extend_from_slice(echo.as_bytes());
                let Some(kind) = Kind::by_name(argv[1]) else {
                    return Some(Err(format!("{name} select_ca: unknown congestion control \"{}\" (known: {})", argv[1], known())));
                };
                if !kind.linux_dialect() {
                    return Some(Err(format!(
                        "{name} select_ca: \"{}\" is offered on the full TCP only (ns-2 2.35 has no such module; known: {})",
                        argv[1],
                        known()
                    )));
                }
                let mut o = self.take(id);
                if let Obj::Agent(a) = &mut o {
                    let crate::agent::Agent { base, kind: ak } = &mut **a;
                    if let AgentKind::Tcp(t) = ak {
                        install(t, base, self, kind);
                    }
                }
                self.put(id, o);
                Ok(String::new())
            }
            ("set_ca_param", 4..) => {
                self.w.c_stdout.extend_from_slice(echo.as_bytes());
                let (m, i) = match param(argv[1], argv[2]) {
                    Ok(x) => x,
                    Err(e) => return Some(Err(e)),
                };
                let v = int_arg(argv[3]);
                if let Some(s) = self.agent_mut(id).and_then(|a| match &mut a.kind {
                    AgentKind::Tcp(t) => match &mut t.flavor {
                        Flavor::Linux(s) => Some(s),
                        _ => None,
                    },
                    _ => None,
                }) {
                    s.local.retain(|(lm, li, _)| !(*lm == m && *li as usize == i));
                    s.local.push((m, i as u8, v));
                }
                Ok(String::new())
            }
            ("set_ca_default_param", 4..) => {
                self.w.c_stdout.extend_from_slice(echo.as_bytes());
                let (m, i) = match param(argv[1], argv[2]) {
                    Ok(x) => x,
                    Err(e) => return Some(Err(e)),
                };
                self.w.linux.set_default_param(m, i, int_arg(argv[3]));
                Ok(String::new())
            }
            ("get_ca_param" | "get_ca_default_param", 3..) => {
                self.w.c_stdout.extend_from_slice(echo.as_bytes());
                let (m, i) = match param(argv[1], argv[2]) {
                    Ok(x) => x,
                    Err(e) => return Some(Err(e)),
                };
                let mut v = self.w.linux.default_param(m, i);
                if cmd == "get_ca_param" {
                    if let Some(AgentKind::Tcp(t)) = self.agent_mut(id).map(|a| &a.kind) {
                        if let Flavor::Linux(s) = &t.flavor {
                            if let Some((_, _, lv)) = s.local.iter().find(|(lm, li, _)| *lm == m && *li as usize == i) {
                                v = *lv;
                            }
                        }
                    }
                }
                self.w.c_stdout.extend_from_slice(format!("tcp_{}.{} = {v}\n", argv[1], argv[2]).as_bytes());
                Ok(String::new())
            }
            ("get_ca_param", 2) => {
                self.w.c_stdout.extend_from_slice(echo.as_bytes());
                let Some(m) = module(argv[1]) else {
                    return Some(Err(format!("{name} get_ca_param: {} is not a congestion control algorithm (known: linux {})", argv[1], known())));
                };
                let mut out = format!("Parameter list for {}:\n", argv[1]);
                // ns-2 keeps a module's parameters in a list it prepends to
                // as they register: the last declared comes first (the
                // "linux" module's are declared here in that order).
                let params: Vec<(usize, &crate::cc::Param)> = m.params().iter().enumerate().collect();
                let listed: Vec<_> = if m == Module::Linux { params } else { params.into_iter().rev().collect() };
                for (i, p) in listed {
                    out.push_str(&format!(" {} = {} ({})\n", p.name, self.w.linux.default_param(m, i), p.about));
                }
                self.w.c_stdout.extend_from_slice(out.as_bytes());
                Ok(String::new())
            }
            _ => Err(format!("{name} {cmd}: wrong number of arguments")),
        };
        Some(r)
    }
}

fn install(t: &mut Tcp, b: &mut AgentBase, sim: &mut Sim, kind: Kind) {
    let Tcp { flavor, sender } = t;
    if let Flavor::Linux(s) = flavor {
        s.install(sender, b, &mut sim.w, kind);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `select_ca`: ns-2's echo (argv[0] is "cmd"), the tick of 1 ms, the
    /// send-time table on for a module that times packets; unknown names
    /// and parameters refused with the known ones listed.
    #[test]
    fn select_ca_and_params() {
        let mut sim = Sim::new();
        let t = sim.create("t", "Agent/TCP/Linux").unwrap();
        assert_eq!(sim.get_var(t, "tcpTick_").as_deref(), Some("0.01"));
        sim.command(t, &["select_ca", "vegas"]).unwrap();
        assert_eq!(sim.get_var(t, "tcpTick_").as_deref(), Some("0.001"));
        assert_eq!(sim.get_var(t, "bugFix_ts_").as_deref(), Some("1"));
        assert_eq!(String::from_utf8(sim.take_c_stdout()).unwrap(), "cmd select_ca vegas\n");
        let e = sim.command(t, &["select_ca", "bbr"]).unwrap_err();
        assert!(e.contains("unknown congestion control \"bbr\"") && e.contains("cubic") && e.contains("westwood"), "{e}");
        // LEDBAT is the full TCP's only (ns-2 has no module of it)
        let e = sim.command(t, &["select_ca", "ledbat"]).unwrap_err();
        assert!(e.contains("\"ledbat\" is offered on the full TCP only") && !e.contains("ledbat cubic") && !e.ends_with("ledbat)"), "{e}");
        assert!(sim.command(t, &["set_ca_param", "ledbat", "gain_milli", "3"]).unwrap_err().contains("no congestion control module \"ledbat\""));
        sim.take_c_stdout();
        let e = sim.command(t, &["set_ca_param", "vegas", "delta", "3"]).unwrap_err();
        assert!(e.contains("\"delta\" is not a parameter of vegas (its parameters: alpha beta gamma)"), "{e}");
        sim.command(t, &["set_ca_param", "vegas", "alpha", "6"]).unwrap();
        sim.take_c_stdout();
        sim.command(t, &["get_ca_param", "vegas", "alpha"]).unwrap();
        sim.command(t, &["get_ca_default_param", "vegas", "alpha"]).unwrap();
        let out = String::from_utf8(sim.take_c_stdout()).unwrap();
        assert!(out.ends_with("tcp_vegas.alpha = 6\ncmd get_ca_default_param vegas alpha\ntcp_vegas.alpha = 4\n"), "{out}");
        // Not a Linux sender: not its commands.
        let reno = sim.create("r", "Agent/TCP/Reno").unwrap();
        assert!(sim.command(reno, &["select_ca", "cubic"]).unwrap_err().starts_with("unknown command"));
    }
}
