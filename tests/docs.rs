//! The README and the docs name the project's files by their paths and link to one another;
//! every path they name and every link they follow exists, so that a file moved or renamed takes
//! its mentions with it.

use std::path::{Path, PathBuf};

/// The folders a path of the project starts with.
const ROOTS: &[&str] = &[
    "src/",
    "tests/",
    "bench/",
    "benches/",
    "cluster/",
    "docs/",
    "data/",
    "fuzz/",
    "examples/",
    "openings/",
    "books/",
    "weights/",
    ".ci/",
];

/// Every file under `dir`, but for build output, git's own and the fuzzers' generated inputs
/// (whose names are hashes, not paths anyone writes).
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let generated = dir.file_name().is_some_and(|d| d == "fuzz")
                && matches!(name.as_str(), "corpus" | "artifacts" | "coverage");
            if !matches!(name.as_str(), "target" | ".git") && !generated {
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

/// Whether `name` fits `pattern`, where `*` stands for any run of characters but `/`.
fn glob_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            let Some(rest) = name.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .take_while(|&i| !rest[..i].contains('/'))
                .filter(|&i| rest.is_char_boundary(i))
                .any(|i| glob_matches(tail, &rest[i..]))
        }
    }
}

/// The targets of the page's markdown links, `[text](target)`, with any `#section` cut off; links
/// to other sites and to a section of the same page are left out.
fn link_targets(text: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = rest[..end].split('#').next().unwrap().trim();
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        targets.push(target);
    }
    targets
}

#[test]
fn every_link_between_pages_leads_to_a_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for page in pages(root) {
        let text = std::fs::read_to_string(&page).unwrap();
        let folder = page.parent().unwrap();
        for target in link_targets(&text) {
            // A link is read from the page's own folder, as a markdown viewer follows it.
            if !folder.join(target).exists() {
                broken.push(format!(
                    "{}: {target}",
                    page.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
}

#[test]
fn link_targets_are_read_as_a_markdown_viewer_reads_them() {
    let text = "See [testing](testing.md#ignored), [the set](../tests/data/) and \
                [Edax](https://github.com/abulmo/edax-reversi), or [below](#status).";
    assert_eq!(link_targets(text), ["testing.md", "../tests/data/"]);
    assert!(glob_matches(
        "tests/data/fforum-*.obf",
        "tests/data/fforum-1-19.obf"
    ));
    assert!(!glob_matches("tests/*.obf", "tests/data/fforum-1-19.obf"));
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
        let tokens = text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-*".contains(c)));
        // `**bold**` marks are not part of a path; a lone `*` is a wildcard.
        let tokens = tokens.map(|t| {
            let t = t.trim_start_matches('*').trim_end_matches('.');
            t.strip_suffix("**").unwrap_or(t).trim_end_matches('.')
        });
        for token in tokens {
            if token.is_empty() || is_pattern(token) {
                continue;
            }
            let found = if token.contains('*') {
                // A family of files (`tests/data/fforum-*.obf`): at least one of them exists.
                !ROOTS.iter().any(|r| token.starts_with(r))
                    || relative.iter().any(|f| glob_matches(token, f))
            } else if ROOTS.iter().any(|r| token.starts_with(r)) {
                // Another project's C sources, named where its design is compared.
                token.ends_with(".c") || token.ends_with(".h") || root.join(token).exists()
            } else if token.ends_with(".rs") && token.len() > 3 {
                // A file named from within its folder (`endgame/shallow.rs`, `ggf.rs`).
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
