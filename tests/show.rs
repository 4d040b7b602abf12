//! Golden transcripts of `othello show`: for every `tests/show/NAME.args` (the arguments after
//! `show`, one a line, so that a position string stays one argument) the binary's output must
//! equal `NAME.out` exactly, its stderr `NAME.err` (empty if absent) and its exit status
//! `NAME.status` (0 if absent). `tests/show/README.md` says what each case shows.

mod golden;

use golden::read;
use std::path::Path;
use std::time::Duration;

#[test]
fn show_transcripts() {
    golden::check_all(&golden::cases("show", "args", 10), |case| {
        golden::check_args_case("show", case, None, Duration::from_secs(20))
    });
}

/// The rules specification's 4x4 sample game as the specification tells it, step by step, with
/// black's pass and the result; and its position 1 is the position after the first move.
#[test]
fn the_4x4_sample_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/show");
    let out = read(&dir.join("sample_4x4.out"));
    let steps: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    let seed = [
        "Black at B1, flipping White at B2.",
        "White at A1, flipping Black at B2.",
        "Black at C4, flipping White at C3.",
        "White at D4, flipping Black at C3.",
        "Black at D3, flipping White at C3.",
        "White at B4, flipping Black at B3, C4.",
        "Black at A4, flipping White at B3.",
        "White at C1, flipping Black at B1, C2, C3.",
        "Black at D1, flipping White at C2.",
        "White at D2, flipping Black at C2, D3.",
        "Black passes.",
        "White at A3, flipping Black at B3.",
        "Black at A2, flipping White at A3.",
    ];
    assert_eq!(steps.len(), seed.len() + 2, "{out}");
    for (n, text) in seed.iter().enumerate() {
        assert_eq!(steps[n + 1], format!("{}. {text}", n + 1));
    }
    assert_eq!(steps.last(), Some(&"White wins, 12 to 4."));
    let after_b1 = out.lines().nth(3).unwrap();
    assert_eq!(after_b1.trim(), "(w -b-- -bb- -bw- ----)");
    // The same game read from other spellings of the list comes out the same.
    let explicit_pass = read(&dir.join("sample_4x4_explicit_pass.out"));
    assert_eq!(explicit_pass, out);
}
