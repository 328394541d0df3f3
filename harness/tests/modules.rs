//! No module of a crate depends on itself through others (issue 16): a cycle means two
//! modules that cannot be read, tested or moved apart. Reads each crate's sources and
//! follows their `crate::` and `super::` paths; tests are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const CRATES: [&str; 11] = [
    "domain",
    "platform",
    "read-models",
    "event-store",
    "command-api",
    "projector",
    "query-api",
    "gateway",
    "bench",
    "provider-sim",
    "harness",
];

/// A module's path from its file: `club/checkout.rs` → `club::checkout`, `club/mod.rs` → `club`.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    match parts.as_slice() {
        [only] if only == "lib" || only == "main" => None,
        _ => Some(parts.join("::")),
    }
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// The module paths a file's code names after `prefix` (`crate::` or `super::`).
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    code.match_indices(prefix)
        .map(|(at, _)| {
            code[at + prefix.len()..]
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or_default()
                .trim_end_matches(':')
                .to_owned()
        })
        .collect()
}

/// Each module and the modules it uses.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut named: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(src, &file) else { continue };
        let code = std::fs::read_to_string(&file).expect("read source");
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        let parent: Vec<&str> =
            module.rsplit_once("::").map_or(vec![], |(parent, _)| parent.split("::").collect());
        let mut paths = named_after(code, "crate::");
        paths.extend(named_after(code, "super::").into_iter().map(|path| {
            parent.iter().map(|part| (*part).to_owned()).chain([path]).collect::<Vec<_>>().join("::")
        }));
        named.insert(module, paths);
    }
    let modules: BTreeSet<String> = named.keys().cloned().collect();
    // The longest module a path starts with: `club::galaxpay::GalaxPay` → `club::galaxpay`.
    let resolve = |path: &str| {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len()).rev().map(|n| parts[..n].join("::")).find(|candidate| modules.contains(candidate))
    };
    named
        .iter()
        .map(|(module, paths)| {
            let uses = paths.iter().filter_map(|path| resolve(path)).filter(|used| used != module).collect();
            (module.clone(), uses)
        })
        .collect()
}

/// A cycle through `start`, if any (depth-first search).
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let current = path.last().cloned().unwrap_or_default();
        for next in graph.get(&current).into_iter().flatten() {
            if next == start {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_owned()];
    walk(graph, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn no_crate_has_a_module_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace");
    let mut cycles = Vec::new();
    for name in CRATES {
        let graph = graph(&root.join(name).join("src"));
        if let Some(cycle) = graph.keys().find_map(|module| cycle_from(&graph, module)) {
            cycles.push(format!("{name}: {}", cycle.join(" → ")));
        }
    }
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
    // The sources were found and read.
    assert!(graph(&root.join("command-api/src")).values().map(BTreeSet::len).sum::<usize>() > 50);
}

#[test]
fn a_cycle_is_found() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("state", vec!["identity::tokens"]),
        ("identity::tokens", vec!["identity::session"]),
        ("identity::session", vec!["state"]),
        ("other", vec!["state"]),
    ]
    .into_iter()
    .map(|(module, uses)| (module.to_owned(), uses.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(
        cycle_from(&graph, "state"),
        Some(
            vec!["state", "identity::tokens", "identity::session", "state"]
                .into_iter()
                .map(str::to_owned)
                .collect()
        )
    );
    assert_eq!(cycle_from(&graph, "other"), None);
}
