//! Golden transcripts: every `tests/transcripts/NAME.in` is fed to the real binary on standard
//! input, and what comes out is compared with the files next to it:
//!
//! - `NAME.out`: the exact standard output (required);
//! - `NAME.args`: white-space separated command-line arguments (default: none);
//! - `NAME.status`: the exit status (default: 0);
//! - `NAME.err`: the exact standard error (default: empty).

mod golden;

use assert_cmd::Command;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

struct Transcript {
    name: String,
    args: Vec<String>,
    stdin: Vec<u8>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    status: i32,
}

impl Transcript {
    fn load(input: &Path) -> Result<Self, String> {
        let name = input.file_stem().unwrap().to_string_lossy().into_owned();
        let sibling = |ext: &str| input.with_extension(ext);
        let read = |path: PathBuf| fs::read(&path).map_err(|e| format!("{}: {e}", path.display()));
        let optional = |ext: &str| {
            let path = sibling(ext);
            if path.exists() {
                read(path).map(Some)
            } else {
                Ok(None)
            }
        };
        let text = |bytes: Vec<u8>, ext: &str| {
            String::from_utf8(bytes).map_err(|_| format!("{name}.{ext} is not UTF-8"))
        };
        let args = match optional("args")? {
            Some(bytes) => text(bytes, "args")?
                .split_whitespace()
                .map(String::from)
                .collect(),
            None => Vec::new(),
        };
        let status = match optional("status")? {
            Some(bytes) => {
                let t = text(bytes, "status")?;
                t.trim()
                    .parse()
                    .map_err(|_| format!("{name}.status: not a number: {t:?}"))?
            }
            None => 0,
        };
        Ok(Transcript {
            stdin: read(input.to_path_buf())?,
            stdout: read(sibling("out"))?,
            stderr: optional("err")?.unwrap_or_default(),
            args,
            status,
            name,
        })
    }

    /// Runs the binary; returns a description of every difference.
    fn check(&self) -> Vec<String> {
        let output = Command::cargo_bin("othello")
            .expect("the othello binary is built")
            .args(&self.args)
            .write_stdin(self.stdin.clone())
            .timeout(Duration::from_secs(20))
            .output()
            .expect("the othello binary runs");
        let mut problems = Vec::new();
        if let Some(diff) = first_difference(&self.stdout, &output.stdout) {
            problems.push(format!("stdout {diff}"));
        }
        if let Some(diff) = first_difference(&self.stderr, &output.stderr) {
            problems.push(format!("stderr {diff}"));
        }
        match output.status.code() {
            Some(code) if code == self.status => {}
            Some(code) => {
                problems.push(format!("exit status: expected {}, got {code}", self.status))
            }
            None => problems.push(format!(
                "expected exit status {}, got {}",
                self.status, output.status
            )),
        }
        problems
    }
}

/// Where two outputs first differ, by line, or `None` if they are equal.
fn first_difference(expected: &[u8], got: &[u8]) -> Option<String> {
    if expected == got {
        return None;
    }
    let show = |line: Option<&[u8]>| match line {
        None => "(nothing)".to_string(),
        Some(bytes) => {
            let text = String::from_utf8_lossy(bytes);
            let short: String = text.chars().take(120).collect();
            let cut = if short.len() < text.len() { "..." } else { "" };
            format!("{short:?}{cut}")
        }
    };
    // Split after each newline so that a missing final newline shows up as a difference.
    let mut want = expected.split_inclusive(|&b| b == b'\n');
    let mut have = got.split_inclusive(|&b| b == b'\n');
    for number in 1.. {
        let (w, h) = (want.next(), have.next());
        if w != h {
            return Some(format!(
                "line {number}: expected {}, got {}",
                show(w),
                show(h)
            ));
        }
    }
    unreachable!("unequal outputs differ on some line")
}

#[test]
fn transcripts_match_the_binary() {
    let inputs = golden::cases("transcripts", "in", 1);

    let mut failures = Vec::new();
    let mut failed = 0;
    for input in &inputs {
        let problems = match Transcript::load(input) {
            Ok(t) => t
                .check()
                .into_iter()
                .map(|p| format!("{}: {p}", t.name))
                .collect(),
            Err(e) => vec![e],
        };
        failed += usize::from(!problems.is_empty());
        failures.extend(problems);
    }
    assert!(
        failures.is_empty(),
        "{failed} of {} transcripts failed:\n{}",
        inputs.len(),
        failures.join("\n")
    );
}
