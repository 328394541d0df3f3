//! The stored shape of an aggregate's state, for the read models that keep a state whole
//! (the club's plans and subscriptions). Each such aggregate has a `STATE_VERSION`; the
//! projector rebuilds a model when a version it stores changes. These checks make a shape
//! change without a new version fail the tests, since the old rows would then no longer be
//! read by the new code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

/// One line per field path with its JSON types, by path: `details.user.name: string`. Array
/// items and map entries with numeric keys share the path `*`.
pub fn shape(value: &Value) -> String {
    let mut paths = BTreeMap::new();
    walk(value, String::new(), &mut paths);
    paths
        .into_iter()
        .map(|(path, kinds)| format!("{path}: {}\n", kinds.into_iter().collect::<Vec<_>>().join(" | ")))
        .collect()
}

type Paths = BTreeMap<String, BTreeSet<&'static str>>;

fn walk(value: &Value, path: String, paths: &mut Paths) {
    let child = |key: &str| if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(items) => {
            items.iter().for_each(|item| walk(item, child("*"), paths));
            "array"
        }
        Value::Object(fields) => {
            for (key, field) in fields {
                let numeric = key.chars().all(|c| c.is_ascii_digit());
                walk(field, child(if numeric { "*" } else { key }), paths);
            }
            "object"
        }
    };
    if !path.is_empty() {
        paths.entry(path).or_default().insert(kind);
    }
}

/// Checks `sample` (a state with every optional part filled) against the shape recorded
/// for `version` in `domain/state-shapes/<name>.v<version>.txt`. A new version's file is
/// written on first run, and the test fails once so that it gets committed.
pub fn assert_recorded(name: &str, version: u32, sample: &Value) {
    let file: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "state-shapes", &format!("{name}.v{version}.txt")].iter().collect();
    let actual = shape(sample);
    match std::fs::read_to_string(&file) {
        Ok(recorded) => assert!(
            recorded == actual,
            "the stored state of {name} changed shape without a new STATE_VERSION: rows stored by \
             the old code would fail to load. Raise {name}'s STATE_VERSION to {} (the projector then \
             rebuilds the models that store it). Recorded in {}:\n{recorded}\nnow:\n{actual}",
            version + 1,
            file.display()
        ),
        Err(_) => {
            std::fs::create_dir_all(file.parent().expect("parent")).expect("state-shapes dir");
            std::fs::write(&file, &actual).expect("record the shape");
            panic!("recorded the shape of {name} v{version} in {}: commit it", file.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn paths_and_types_are_listed_once() {
        let value = json!({"a": {"b": 1, "c": [true, "x"]}, "m": {"1": "x", "2": "y"}, "n": null});
        assert_eq!(
            shape(&value),
            "a: object\na.b: number\na.c: array\na.c.*: boolean | string\nm: object\nm.*: string\nn: null\n"
        );
    }
}
