//! Declared ranges of bound variables (ns2/bind.rs `Range`): each is
//! enforced where the variable is set, on every class that binds it (values
//! just outside refused with the declared words, values at its edges
//! accepted), and docs/reliability.md shows exactly the declared table.

use dumbbell_engine::ns2::bind::Range;
use dumbbell_engine::ns2::registry::{self, CLASSES};
use dumbbell_engine::Sim;

const DOC: &str = "../../docs/reliability.md";
const BEGIN: &str = "<!-- declared-ranges: made by crates/engine/tests/ranges.rs; DUMBBELL_BLESS=1 rewrites it -->\n";
const END: &str = "<!-- end of declared-ranges -->";

#[test]
fn every_declared_range_is_enforced_on_every_class_that_binds_it() {
    let ranges = registry::declared_ranges();
    assert!(ranges.len() >= 20, "{} declared ranges", ranges.len());
    let mut checked = 0;
    for class in CLASSES {
        let mut declared = Vec::new();
        for t in class.tables {
            t.ranges(&mut |var, range, _| {
                if range != Range::Any {
                    declared.push((var, range));
                }
            });
        }
        for (var, range) in declared {
            let (outside, inside) = range.probes();
            for v in &outside {
                let mut sim = Sim::ns2();
                let id = sim.create("o", class.name).unwrap();
                let e = sim.set_var(id, var, v).expect_err(&format!("{} {var} {v} accepted", class.name));
                assert!(e.contains(&format!("{var} must be {}, got \"{v}\"", range.describe())), "{}: {e}", class.name);
            }
            for v in &inside {
                let mut sim = Sim::ns2();
                let id = sim.create("o", class.name).unwrap();
                if let Err(e) = sim.set_var(id, var, v) {
                    panic!("{} {var} {v} (inside {range:?}) refused: {e}", class.name);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= ranges.len(), "{checked} class/variable pairs checked");
}

#[test]
fn the_docs_table_is_the_declared_one() {
    let doc = std::fs::read_to_string(DOC).unwrap();
    let want = registry::ranges_markdown();
    let (Some(b), Some(e)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("docs/reliability.md has no declared-ranges markers");
    };
    let got = &doc[b + BEGIN.len()..e];
    if got != want {
        if std::env::var_os("DUMBBELL_BLESS").is_some() {
            std::fs::write(DOC, format!("{}{want}{}", &doc[..b + BEGIN.len()], &doc[e..])).unwrap();
            return;
        }
        panic!("docs/reliability.md's table of declared ranges differs from the declarations; \
                run with DUMBBELL_BLESS=1 to rewrite it.  Declared:\n{want}");
    }
}
