//! The README and the docs name the project's files by their paths; every path they name
//! exists, so that a file moved or renamed takes its mentions with it.

use std::path::{Path, PathBuf};

/// The folders a path of the project starts with.
const ROOTS: &[&str] = &[
    "src/",
    "tests/",
    "bench/",
    "benches/",
    "cluster/",
    "docs/",
    "fuzz/",
    "examples/",
    "openings/",
    "books/",
    "weights/",
    ".ci/",
];

/// Every file under `dir`, but for build output and git's own.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | ".git") {
                files_under(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// The pages that describe the project: the README and every markdown file but the build
/// output's.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    files_under(root, &mut all);
    all.into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect()
}

/// A path written with a placeholder for a name (`tests/play/NAME.in`, `fuzz/artifacts/TARGET/`,
/// `tests/sessions/engine_*`) stands for many files, none in particular.
fn is_pattern(token: &str) -> bool {
    token.ends_with('_')
        || token
            .split(['/', '.'])
            .any(|part| part.len() > 1 && part.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
}

#[test]
fn every_source_path_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(root, &mut files);
    let relative: Vec<String> = files
        .iter()
        .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
        .collect();
    let mut missing = Vec::new();
    for page in pages(root) {
        let text = std::fs::read_to_string(&page).unwrap();
        let tokens = text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c)));
        for token in tokens.map(|t| t.trim_end_matches('.')) {
            if token.is_empty() || is_pattern(token) {
                continue;
            }
            let found = if ROOTS.iter().any(|r| token.starts_with(r)) {
                // Another project's C sources, named where its design is compared.
                token.ends_with(".c") || token.ends_with(".h") || root.join(token).exists()
            } else if token.ends_with(".rs") && token.len() > 3 {
                // A file named from within its folder (`nboard/ggf.rs`, `shallow.rs`).
                relative
                    .iter()
                    .any(|f| f == token || f.ends_with(&format!("/{token}")))
            } else {
                true
            };
            if !found {
                missing.push(format!(
                    "{}: {token}",
                    page.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths named that do not exist:\n{}",
        missing.join("\n")
    );
}
