//! The ns-2 layer: what makes the core look like ns-2 2.35 to its Tcl
//! library (python/dumbbell/ns2) and what writes ns-2's formats.
//!
//! - `registry.rs`, `bind.rs`, `class/`: the classes the engine implements,
//!   each with the tables of its bound variables (name, tclcl type, default,
//!   setter);
//! - `objects.rs`: making objects by class name and reading and writing
//!   their variables; `commands.rs`: their commands (`$obj cmd args`);
//! - `notices.rs`: the core's notices as the Tcl calls ns-2's C++ makes;
//! - `trace.rs`: ns-2's trace, nam and variable-trace lines;
//!   `tracefile.rs` reads trace files back into columns;
//! - `rng.rs`: an RNG object's commands and self-test; `scfq.rs`:
//!   `Queue/SCFQ`'s commands (classes, their queues, classification);
//!   `fairq.rs`: `Queue/DRR`'s and `Queue/SFQ`'s commands; `delaybox.rs`:
//!   `Classifier/DelayBox`'s; `traffictrace.rs`: `Tracefile`'s and
//!   `Application/Traffic/Trace`'s;
//! - `tclcl.rs`: tclcl's parsing and printing of bound values; `printf.rs`:
//!   C's printf formats as glibc prints them;
//! - `build.rs`: building a scenario as the ns-2 library's procedures would,
//!   without Tcl (the Python API's builder); `build_wireless.rs` its mobile
//!   nodes.

pub mod bind;
pub mod cmutrace;
pub mod build;
pub mod build_wireless;
pub mod cbq;
pub mod class;
pub mod commands;
pub mod delaybox;
pub mod dsred;
pub mod notices;
pub mod objects;
pub mod printf;
pub mod registry;
pub mod rng;
pub mod scfq;
pub mod fairq;
pub mod lan;
pub mod redpd;
pub mod tclcl;
pub mod trace;
pub mod tracefile;
pub mod traffictrace;
pub mod wireless;
pub mod wjoin;
pub mod xcp;
