//! ADR 0024: a command reads a read model only through the named accessors of
//! `command-api/src/read_models.rs`, each with what the projector's lag means for it.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn no_command_names_a_read_model_but_through_the_accessors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut readers = Vec::new();
    for file in files.iter().filter(|file| !file.ends_with("read_models.rs")) {
        let code = std::fs::read_to_string(file).expect("source");
        for (number, line) in code.lines().enumerate() {
            let comment = line.trim_start().starts_with("//");
            if !comment
                && line.contains("rm_")
                && line.contains('.')
                && line.split("rm_").skip(1).any(|rest| {
                    rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').count() > 0
                        && rest
                            .trim_start_matches(|c: char| c.is_ascii_lowercase() || c == '_')
                            .starts_with('.')
                })
            {
                readers.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
            }
        }
    }
    assert!(
        readers.is_empty(),
        "these read a read model outside command-api/src/read_models.rs (add an accessor there and \
         a row to ADR 0024):\n{}",
        readers.join("\n")
    );
    let accessors = std::fs::read_to_string(src.join("read_models.rs")).expect("read_models.rs");
    let adr = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/adr/0024-what-commands-read-from-read-models.md"),
    )
    .expect("ADR 0024");
    for line in accessors.lines().filter(|line| line.starts_with("pub async fn ")) {
        let name = line["pub async fn ".len()..].split('(').next().unwrap_or_default();
        assert!(adr.contains(&format!("`{name}`")), "ADR 0024 says nothing of `{name}`");
    }
}
