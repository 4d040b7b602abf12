//! The import graph between the files of `src/`: the library's rooms stand in layers (a room
//! imports only rooms below it), no two files import each other however far round, and nothing
//! in the library names the command line (`src/cli/`, `src/main.rs`). `docs/layout.md` draws the
//! layers.
//!
//! The graph is read from the source text: every path of a `use` tree and every `crate::`,
//! `super::` or `othello::` path in the code, resolved to the file that defines its item. A
//! `pub use` of a module's `mod.rs` passes through to the file it re-exports, so a facade that
//! only re-exports its children joins no circle; one that defines items its children use does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library's rooms, lowest first: each may import those before it, never one after it.
const LAYERS: &[&[&str]] = &[
    &[
        "durations",
        "random",
        "wording",
        "files",
        "lines",
        "interrupt",
        "job_array",
        "progress",
    ],
    &["rules"],
    &["notation"],
    &["start"],
    &["search"],
    &["opening"],
    &["players"],
    &["protocols", "train", "bench", "solve"],
    &["analysis", "referee"],
    &["play"],
];

/// One source file: the crate it belongs to, its module path and its text, comments removed.
struct File {
    path: String,
    binary: bool,
    module: Vec<String>,
    text: String,
}

fn sources() -> Vec<File> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let relative = path
                .strip_prefix(&root)
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            let mut module: Vec<String> = relative
                .trim_end_matches(".rs")
                .split('/')
                .map(str::to_string)
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            let binary = relative == "main.rs" || relative.starts_with("cli/");
            // `r#match` is the module `match`.
            let text = strip_comments(&std::fs::read_to_string(&path).unwrap()).replace("r#", "");
            File {
                path: relative,
                binary,
                module,
                text,
            }
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text without comments and string literals (which may hold `::` of their own).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            // A character literal, which may be a quote or a brace; a lifetime stays.
            '\'' if {
                let ahead: Vec<char> = chars.clone().take(3).collect();
                matches!(ahead.as_slice(), [c, '\'', ..] if *c != '\\')
                    || ahead.first() == Some(&'\\')
            } =>
            {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '\'' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                out.push_str("' '");
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    out
}

/// The paths of a `use` tree such as `a::{b, c::{d, e as f}, self}`, each with the name it
/// brings in (its last segment or alias).
fn use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    // `e as f` keeps a mark of its alias once the spaces are gone.
    let spaced = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let tree: String = spaced
        .replace(" as ", "@")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = Vec::new();
    expand(&tree, Vec::new(), &mut out);
    out
}

fn expand(tree: &str, prefix: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once('@') {
            Some((p, a)) => (p, Some(a)),
            None => (tree, None),
        };
        let mut full = prefix;
        full.extend(path.split("::").filter(|s| !s.is_empty()).map(String::from));
        if full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        let name = alias
            .map(str::to_string)
            .or_else(|| full.last().cloned())
            .unwrap_or_default();
        if !full.is_empty() {
            out.push((full, name));
        }
        return;
    };
    let mut head = prefix;
    head.extend(
        tree[..open]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from),
    );
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&inner[start..i], head.clone(), out);
                start = i + 1;
            }
            _ => {}
        }
    }
    expand(&inner[start..], head, out);
}

/// A path as written in a file, with the inline modules it was written in.
struct Written {
    path: Vec<String>,
    inline: Vec<String>,
    public_as: Option<String>,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path a file writes: the trees of its `use` statements and the `crate::`, `super::`,
/// `self::` and `othello::` paths of its code, and those starting with a module it declares.
fn written_paths(file: &File) -> Vec<Written> {
    let text = &file.text;
    let bytes: Vec<char> = text.chars().collect();
    let declared: BTreeSet<String> = declared_modules(text);
    let mut out = Vec::new();
    // The inline modules open here: name, brace depth, and whether only tests build it.
    let mut inline: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == '{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c == '}' {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|(_, d, _)| *d == depth) {
                inline.pop();
            }
            i += 1;
            continue;
        }
        if !is_ident(c) || (i > 0 && (is_ident(bytes[i - 1]) || bytes[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let word_end = (i..bytes.len())
            .find(|&j| !is_ident(bytes[j]))
            .unwrap_or(bytes.len());
        let word: String = bytes[i..word_end].iter().collect();
        let names = || inline.iter().map(|(n, _, _)| n.clone()).collect::<Vec<_>>();
        // Test code is no part of the program's graph: a test may import what it likes.
        let in_test = inline.iter().any(|(_, _, test)| *test);
        if word == "mod" {
            // `mod name {`: an inline module until its brace closes.
            let rest: String = bytes[word_end..bytes.len().min(word_end + 80)]
                .iter()
                .collect();
            let rest = rest.trim_start();
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if rest[name.len()..].trim_start().starts_with('{') {
                let before: String = bytes[i.saturating_sub(40)..i].iter().collect();
                let test = before.trim_end().ends_with("#[cfg(test)]");
                inline.push((name, depth, test));
            }
            i = word_end;
            continue;
        }
        if word == "use" {
            let end = (word_end..bytes.len()).find(|&j| bytes[j] == ';').unwrap();
            let tree: String = bytes[word_end..end].iter().collect();
            let before: String = bytes[i.saturating_sub(12)..i].iter().collect();
            let public = before.trim_end().ends_with("pub") || before.contains("pub(");
            for (path, name) in use_tree(&tree).into_iter().filter(|_| !in_test) {
                let public_as = public.then(|| name.clone());
                out.push(Written {
                    path,
                    inline: names(),
                    public_as,
                });
            }
            i = end;
            continue;
        }
        // `pub(in crate::search)` names who may see an item, not an item.
        let before: String = bytes[i.saturating_sub(4)..i].iter().collect();
        let visibility = before.ends_with("(in ");
        let rooted = (["crate", "super", "self", "othello"].contains(&word.as_str())
            || declared.contains(&word))
            && !visibility;
        if rooted && bytes.get(word_end) == Some(&':') && bytes.get(word_end + 1) == Some(&':') {
            let mut j = word_end;
            let mut path = vec![word];
            while bytes.get(j) == Some(&':') && bytes.get(j + 1) == Some(&':') {
                let s = j + 2;
                let e = (s..bytes.len())
                    .find(|&k| !is_ident(bytes[k]))
                    .unwrap_or(bytes.len());
                if e == s {
                    break;
                }
                path.push(bytes[s..e].iter().collect());
                j = e;
            }
            if in_test {
                i = j;
                continue;
            }
            out.push(Written {
                path,
                inline: names(),
                public_as: None,
            });
            i = j;
            continue;
        }
        i = word_end;
    }
    out
}

/// The files only a test build compiles (`#[cfg(test)] mod name;` and what is under them).
fn without_test_files(files: Vec<File>) -> Vec<File> {
    let mut test_only: Vec<(bool, Vec<String>)> = Vec::new();
    for file in &files {
        let mut after_cfg_test = false;
        for line in file.text.lines().map(str::trim) {
            if let Some(name) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
                if after_cfg_test {
                    let mut module = file.module.clone();
                    module.push(name.to_string());
                    test_only.push((file.binary, module));
                }
            }
            if !line.is_empty() {
                after_cfg_test = line == "#[cfg(test)]";
            }
        }
    }
    files
        .into_iter()
        .filter(|f| {
            !test_only
                .iter()
                .any(|(binary, m)| *binary == f.binary && f.module.starts_with(m))
        })
        .collect()
}

/// The modules a file declares with `mod name;` (its children in other files).
fn declared_modules(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l
                .strip_prefix("pub ")
                .or(l.strip_prefix("pub(crate) "))
                .unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim_start_matches("r#").to_string())
        })
        .collect()
}

/// The import graph: for each file, the files whose items it names.
struct Graph {
    files: Vec<File>,
    edges: BTreeMap<usize, BTreeSet<usize>>,
}

impl Graph {
    fn build() -> Graph {
        let files: Vec<File> = without_test_files(sources());
        let index: BTreeMap<(bool, Vec<String>), usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| ((f.binary, f.module.clone()), i))
            .collect();
        let written: Vec<Vec<Written>> = files.iter().map(written_paths).collect();
        // Absolute paths, and what each file re-exports under which name.
        let mut absolute: Vec<Vec<(bool, Vec<String>)>> = Vec::new();
        let mut exports: BTreeMap<usize, BTreeMap<String, (bool, Vec<String>)>> = BTreeMap::new();
        for (i, file) in files.iter().enumerate() {
            let declared = declared_modules(&file.text);
            let mut mine = Vec::new();
            for w in &written[i] {
                let Some(path) = absolute_path(file, &declared, w) else {
                    continue;
                };
                if let Some(name) = &w.public_as {
                    if w.inline.is_empty() {
                        exports
                            .entry(i)
                            .or_default()
                            .insert(name.clone(), path.clone());
                    }
                }
                mine.push(path);
            }
            absolute.push(mine);
        }
        let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for (i, paths) in absolute.iter().enumerate() {
            for path in paths {
                if let Some(target) = resolve(&index, &exports, path, 0) {
                    if target != i {
                        edges.entry(i).or_default().insert(target);
                    }
                }
            }
        }
        Graph { files, edges }
    }

    fn name(&self, i: usize) -> &str {
        &self.files[i].path
    }
}

/// The graph, read once for all the tests.
fn graph() -> &'static Graph {
    static GRAPH: std::sync::OnceLock<Graph> = std::sync::OnceLock::new();
    GRAPH.get_or_init(Graph::build)
}

/// A written path as (crate, path from that crate's root), or `None` for another crate's.
fn absolute_path(
    file: &File,
    declared: &BTreeSet<String>,
    w: &Written,
) -> Option<(bool, Vec<String>)> {
    let mut here: Vec<String> = file.module.iter().chain(&w.inline).cloned().collect();
    let mut segments = w.path.iter().peekable();
    let first = segments.peek()?.as_str();
    let binary = match first {
        "crate" => {
            segments.next();
            here.clear();
            file.binary
        }
        "othello" => {
            segments.next();
            here.clear();
            false
        }
        "self" => {
            segments.next();
            file.binary
        }
        "super" => {
            while segments.peek().is_some_and(|s| *s == "super") {
                segments.next();
                here.pop()?;
            }
            file.binary
        }
        name if w.inline.is_empty() && declared.contains(name) => file.binary,
        _ => return None,
    };
    here.extend(segments.cloned());
    Some((binary, here))
}

/// The file that defines the item at `path`: the deepest module file on it, or, where that
/// file only re-exports the name, the file it re-exports it from.
fn resolve(
    index: &BTreeMap<(bool, Vec<String>), usize>,
    exports: &BTreeMap<usize, BTreeMap<String, (bool, Vec<String>)>>,
    (binary, path): &(bool, Vec<String>),
    hops: usize,
) -> Option<usize> {
    let (len, &file) = (0..=path.len())
        .rev()
        .find_map(|n| index.get(&(*binary, path[..n].to_vec())).map(|f| (n, f)))?;
    if hops < 8 && len < path.len() {
        if let Some(source) = exports.get(&file).and_then(|e| e.get(&path[len])) {
            let mut through = source.clone();
            through.1.extend(path[len + 1..].iter().cloned());
            if through != (*binary, path.clone()) {
                return resolve(index, exports, &through, hops + 1).or(Some(file));
            }
        }
    }
    Some(file)
}

/// The room a library file stands in: its first module name.
fn room(file: &File) -> Option<&str> {
    (!file.binary).then(|| file.module.first().map(String::as_str))?
}

fn layer(room: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| l.contains(&room))
        .unwrap_or_else(|| panic!("src/{room}: a room that LAYERS does not place"))
}

#[test]
fn every_room_imports_only_rooms_below_it() {
    let graph = graph();
    let mut upward = Vec::new();
    for (&from, targets) in &graph.edges {
        let Some(a) = room(&graph.files[from]) else {
            continue;
        };
        for &to in targets {
            let Some(b) = room(&graph.files[to]) else {
                continue;
            };
            if a != b && layer(b) >= layer(a) {
                upward.push(format!("{} -> {}", graph.name(from), graph.name(to)));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not go down:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_library_never_names_the_command_line() {
    let graph = graph();
    for file in graph.files.iter().filter(|f| !f.binary) {
        for w in written_paths(file) {
            let names_cli = w.path.first().is_some_and(|s| s == "crate")
                && w.path.get(1).is_some_and(|s| s == "cli");
            assert!(!names_cli, "src/{} names the command line", file.path);
        }
    }
    // The command line is the binary's alone: the library declares no such module.
    let lib = graph.files.iter().find(|f| f.path == "lib.rs").unwrap();
    assert!(!declared_modules(&lib.text).contains("cli"));
}

#[test]
fn no_files_import_each_other_however_far_round() {
    let graph = graph();
    let circles = strongly_connected(graph);
    // Each circle with its imports, so that the one to cut can be chosen.
    let text: Vec<String> = circles
        .iter()
        .map(|group| {
            let names: Vec<&str> = group.iter().map(|&i| graph.name(i)).collect();
            let mut lines = vec![names.join(", ")];
            for &from in group {
                for &to in graph.edges.get(&from).into_iter().flatten() {
                    if group.contains(&to) {
                        lines.push(format!("  {} -> {}", graph.name(from), graph.name(to)));
                    }
                }
            }
            lines.join("\n")
        })
        .collect();
    assert!(text.is_empty(), "circles of imports:\n{}", text.join("\n"));
}

/// The groups of more than one file that reach each other (Tarjan's algorithm).
fn strongly_connected(graph: &Graph) -> Vec<Vec<usize>> {
    struct State<'a> {
        graph: &'a Graph,
        next: usize,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        found: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        let targets: Vec<usize> = s
            .graph
            .edges
            .get(&v)
            .into_iter()
            .flatten()
            .copied()
            .collect();
        for w in targets {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                group.push(w);
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let n = graph.files.len();
    let mut s = State {
        graph,
        next: 0,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        found: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn the_reader_of_paths_reads_use_trees_and_resolves_through_facades() {
    let mut paths = use_tree("crate::a::{b, c::{d, e as f}, self, Erased}");
    paths.sort();
    let want = |p: &[&str], n: &str| (p.iter().map(|s| s.to_string()).collect(), n.to_string());
    assert_eq!(
        paths,
        vec![
            want(&["crate", "a"], "a"),
            want(&["crate", "a", "Erased"], "Erased"),
            want(&["crate", "a", "b"], "b"),
            want(&["crate", "a", "c", "d"], "d"),
            want(&["crate", "a", "c", "e"], "f"),
        ]
    );
    // This file's own graph is in the library's: the cli's files are in it, as binary ones.
    let graph = graph();
    let find = |p: &str| graph.files.iter().position(|f| f.path == p).unwrap();
    let main = find("main.rs");
    assert!(graph.files[main].binary);
    assert!(graph.edges[&main].contains(&find("cli/mod.rs")));
    // A name re-exported by a facade leads to the file that defines it.
    let line = find("cli/line.rs");
    assert!(graph.edges[&line].contains(&find("protocols/line/mod.rs")));
    let review = find("analysis/review.rs");
    assert!(graph.edges[&review].contains(&find("start.rs")));
}
