//! The protocol emulator of `tests/common` as a second opinion: every golden transcript that
//! should succeed must be exactly what the emulator prints, and the library's protocol loop must
//! print what the emulator prints on random sessions, junk lines included. The emulator only
//! referees: a transcript in which the program plays (`--computer`) is checked with the
//! program's moves typed in instead (see [`refereed`]), which proves them legal.

mod common;

use common::{cases, RefGame, RefVariant, Rng, MAX_LINE};
use common::{protocol_args, reference_session, reference_session_bytes, Colour, RefBoard};
use othello::protocols::line::{run, Options};
use othello::rules::RuleSet;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::fs;
use std::path::{Path, PathBuf};

/// `REFERENCE_TRANSCRIPTS_DIR` points the check at another directory, e.g. transcripts freshly
/// made from the binary in a scratch directory.
fn transcripts_dir() -> PathBuf {
    match std::env::var_os("REFERENCE_TRANSCRIPTS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts"),
    }
}

/// Where two outputs first differ, line by line, for a readable failure.
fn first_difference(want: &[u8], got: &[u8]) -> String {
    let want = String::from_utf8_lossy(want);
    let mut want_lines = want.split_inclusive('\n');
    let mut got_lines = got.split_inclusive(|&b| b == b'\n');
    for number in 1.. {
        match (want_lines.next(), got_lines.next()) {
            (None, None) => break,
            (w, g) => {
                let g = g.map(String::from_utf8_lossy);
                if w != g.as_deref() {
                    return format!("line {number}: expected {w:?}, reference {g:?}");
                }
            }
        }
    }
    "outputs differ".to_string()
}

/// One transcript: `Ok(true)` if checked, `Ok(false)` if it is not the emulator's business.
fn check_transcript(input: &Path) -> Result<bool, String> {
    let sibling = |ext: &str| input.with_extension(ext);
    let read = |path: &Path| fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let optional_text = |ext: &str| -> Result<Option<String>, String> {
        let path = sibling(ext);
        if !path.exists() {
            return Ok(None);
        }
        let bytes = read(&path)?;
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| format!("{}: not UTF-8", path.display()))
    };
    let status = match optional_text("status")? {
        Some(text) => text
            .trim()
            .parse::<i32>()
            .map_err(|_| format!("status not a number: {text:?}"))?,
        None => 0,
    };
    // A failing session's output depends on error handling the emulator does not model.
    if status != 0 {
        return Ok(false);
    }
    let args: Vec<String> = optional_text("args")?
        .map(|text| text.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let out_path = sibling("out");
    if !out_path.exists() {
        // Transcripts are being added concurrently; an .in without its .out is not done yet.
        return Ok(false);
    }
    let (args, stdin, want) = refereed(args, read(input)?, read(&out_path)?)?;
    // Subcommands and help are not the line protocol.
    if protocol_args(&args).is_none() {
        return Ok(false);
    }
    let got = reference_session_bytes(&args, &stdin)
        .ok_or("exit status 0, but the reference finds the header bad or incomplete")?;
    if got.as_bytes() != want {
        return Err(first_difference(&want, got.as_bytes()));
    }
    Ok(true)
}

/// The flags that make the program a player, each with its value.
const COMPUTER_FLAGS: [&str; 5] = [
    "--computer",
    "--depth",
    "--move-time",
    "--hash-mb",
    "--seed",
];

/// A move line as the program prints its own move: `row col`, nothing else.
fn is_move_line(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let mut parts = line.split(|&b| b == b' ');
    let mut number = || {
        parts
            .next()
            .is_some_and(|p| !p.is_empty() && p.iter().all(u8::is_ascii_digit))
    };
    number() && number() && parts.next().is_none()
}

/// Arguments, input and output of a session.
type Session = (Vec<String>, Vec<u8>, Vec<u8>);

/// A session in which the program plays (`--computer`) as the referee alone sees it when the
/// program's moves are typed in: the arguments without the player's flags, the input with each
/// of the program's move lines where it was played, and the output without them. Every
/// `VALID` or `INVALID` that does not follow a move line of the program answers the next line
/// of the input. Other sessions come back unchanged.
fn refereed(args: Vec<String>, input: Vec<u8>, output: Vec<u8>) -> Result<Session, String> {
    let is_flag = |a: &str| {
        COMPUTER_FLAGS
            .iter()
            .any(|f| a == *f || a.starts_with(&format!("{f}=")))
    };
    if !args.iter().any(|a| is_flag(a)) {
        return Ok((args, input, output));
    }
    let mut plain = Vec::new();
    let mut rest = args.into_iter();
    while let Some(arg) = rest.next() {
        if COMPUTER_FLAGS.contains(&arg.as_str()) {
            rest.next();
        } else if !is_flag(&arg) {
            plain.push(arg);
        }
    }
    let mut lines = input.split_inclusive(|&b| b == b'\n');
    let mut replay: Vec<u8> = lines.by_ref().take(5).flatten().copied().collect();
    let mut expected = Vec::new();
    let mut after_own_move = false;
    for line in output.split_inclusive(|&b| b == b'\n') {
        if is_move_line(line) {
            if !replay.is_empty() && !replay.ends_with(b"\n") {
                replay.push(b'\n');
            }
            replay.extend_from_slice(line);
            after_own_move = true;
            continue;
        }
        expected.extend_from_slice(line);
        if line == b"VALID\n" || line == b"INVALID\n" {
            if !after_own_move {
                let typed = lines
                    .next()
                    .ok_or("more answers in the output than input lines")?;
                replay.extend_from_slice(typed);
            }
            after_own_move = false;
        }
    }
    replay.extend(lines.flatten());
    Ok((plain, replay, expected))
}

#[test]
fn the_program_s_moves_are_put_back_into_the_input() {
    let args: Vec<String> = [
        "--rules",
        "simple",
        "--computer",
        "W",
        "--depth=3",
        "--seed",
        "4",
    ]
    .map(String::from)
    .to_vec();
    let input = b"4\n4\nB\nW\n>\n9 9\n2 4\nafter".to_vec();
    let output = b"SIMPLE\nTURN: B\nINVALID\nVALID\nTURN: W\n1 2\nVALID\nTURN: B\n".to_vec();
    let (args, input, output) = refereed(args, input, output).unwrap();
    assert_eq!(args, ["--rules", "simple"]);
    assert_eq!(input, b"4\n4\nB\nW\n>\n9 9\n2 4\n1 2\nafter");
    assert_eq!(
        output,
        b"SIMPLE\nTURN: B\nINVALID\nVALID\nTURN: W\nVALID\nTURN: B\n"
    );
}

#[test]
fn golden_transcripts_match_the_reference() {
    let dir = transcripts_dir();
    let Ok(entries) = fs::read_dir(&dir) else {
        eprintln!("no transcripts directory at {}", dir.display());
        return;
    };
    let mut inputs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    let (mut checked, mut failures) = (0, Vec::new());
    for input in &inputs {
        match check_transcript(input) {
            Ok(true) => checked += 1,
            Ok(false) => {}
            Err(why) => failures.push(format!("{}: {why}", input.display())),
        }
    }
    eprintln!(
        "{checked} of {} transcripts checked against the reference",
        inputs.len()
    );
    assert!(
        failures.is_empty(),
        "{} transcript(s) disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The example run of the line protocol's specification, input and output told apart.
#[test]
fn the_specification_example_run() {
    let input = "4\n4\nB\nB\n>\n2 4\n1 2\n1 4\n1 1\n1 4\n1 3\n3 4\n4 2\n2 1\n4 4\n4 1\n3 1\n4 3\n";
    // (score, board rows, last line) after each VALID move; `None` for INVALID.
    let blocks: [Option<(&str, [&str; 4], &str)>; 13] = [
        Some((
            "B: 4  W: 1",
            [". . . .", ". B B B", ". W B .", ". . . ."],
            "TURN: W",
        )),
        Some((
            "B: 3  W: 3",
            [". W . .", ". W B B", ". W B .", ". . . ."],
            "TURN: B",
        )),
        None,
        Some((
            "B: 5  W: 2",
            ["B W . .", ". B B B", ". W B .", ". . . ."],
            "TURN: W",
        )),
        Some((
            "B: 4  W: 4",
            ["B W . W", ". B W B", ". W B .", ". . . ."],
            "TURN: B",
        )),
        Some((
            "B: 7  W: 2",
            ["B B B W", ". B B B", ". W B .", ". . . ."],
            "TURN: W",
        )),
        Some((
            "B: 5  W: 5",
            ["B B B W", ". B B W", ". W W W", ". . . ."],
            "TURN: B",
        )),
        Some((
            "B: 7  W: 4",
            ["B B B W", ". B B W", ". B W W", ". B . ."],
            "TURN: W",
        )),
        Some((
            "B: 5  W: 7",
            ["B B B W", "W W W W", ". B W W", ". B . ."],
            "TURN: B",
        )),
        Some((
            "B: 8  W: 5",
            ["B B B W", "W B W W", ". B B W", ". B . B"],
            "TURN: W",
        )),
        Some((
            "B: 7  W: 7",
            ["B B B W", "W B W W", ". W B W", "W B . B"],
            "TURN: B",
        )),
        Some((
            "B: 10  W: 5",
            ["B B B W", "B B W W", "B B B W", "W B . B"],
            "TURN: W",
        )),
        Some((
            "B: 8  W: 8",
            ["B B B W", "B B W W", "B B W W", "W W W B"],
            "WINNER: NONE",
        )),
    ];
    let mut want = String::from("FULL\nB: 2  W: 2\n. . . .\n. B W .\n. W B .\n. . . .\nTURN: B\n");
    for block in blocks {
        match block {
            Some((score, rows, last)) => {
                want.push_str("VALID\n");
                for line in [score].into_iter().chain(rows).chain([last]) {
                    want.push_str(line);
                    want.push('\n');
                }
            }
            None => want.push_str("INVALID\n"),
        }
    }
    assert_eq!(reference_session(&[], input), want);
    // Lines after the end of the game are not read.
    assert_eq!(reference_session(&[], &format!("{input}1 1\n\n")), want);
}

/// What the library's protocol loop prints for a session.
fn library_session(variant: RefVariant, input: &[u8]) -> Result<String, TestCaseError> {
    let rule_set = if variant.simple {
        RuleSet::Simple
    } else {
        RuleSet::Full
    };
    let options = Options {
        rule_set,
        place_anywhere: variant.place_anywhere,
        computer: None,
    };
    let mut out = Vec::new();
    run(options, input, &mut out).map_err(|e| TestCaseError::fail(e.to_string()))?;
    String::from_utf8(out).map_err(|e| TestCaseError::fail(e.to_string()))
}

fn args_of(variant: RefVariant) -> Vec<String> {
    let mut args = Vec::new();
    if variant.simple {
        args.extend(["--rules".to_string(), "simple".to_string()]);
    }
    if variant.place_anywhere {
        args.push("--place-anywhere".to_string());
    }
    args
}

#[derive(Clone, Debug)]
struct SessionCase {
    rows: usize,
    cols: usize,
    variant: RefVariant,
    first: Colour,
    top_left: Colour,
    /// Move lines to write; the game may end before, or input may end mid-game.
    lines: usize,
    /// Percent of move lines that are junk or illegal.
    junk: usize,
    seed: u64,
}

/// A move line for `(r, c)`, 0-based, in one of the spellings the protocol accepts.
fn spell_move(rng: &mut Rng, (r, c): (usize, usize)) -> Vec<u8> {
    let (r, c) = (r + 1, c + 1);
    let line = match rng.below(6) {
        0 => format!(" {r} {c} "),
        1 => format!("{r}\t{c}"),
        2 => format!("0{r} 00{c}"),
        3 => format!("{r}   {c}\r"),
        _ => format!("{r} {c}"),
    };
    line.into_bytes()
}

/// A line that must be INVALID in the game's current state.
fn junk_line(rng: &mut Rng, game: &RefGame) -> Vec<u8> {
    let board = &game.board;
    let (rows, cols) = (board.rows, board.cols);
    let cells: Vec<(usize, usize)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .collect();
    let legal = game.legal_moves();
    let occupied: Vec<_> = cells
        .iter()
        .copied()
        .filter(|&x| board.at(x).is_some())
        .collect();
    let idle: Vec<_> = cells
        .iter()
        .copied()
        .filter(|&x| board.at(x).is_none() && !legal.contains(&x))
        .collect();
    let some = |rng: &mut Rng, v: &[(usize, usize)]| (!v.is_empty()).then(|| v[rng.below(v.len())]);
    let (r, c) = (rng.below(rows) + 1, rng.below(cols) + 1);
    match rng.below(14) {
        0 => rng.pick(&["", " ", "\t", "\r"]).into(),
        1 => format!("{r}").into_bytes(),
        2 => format!("{r} {c} {r}").into_bytes(),
        3 => rng
            .pick(&[
                "a b", "B 2", "1 x", "one two", "1.0 2", "1,2", "+1 2", "-1 2",
            ])
            .into(),
        4 => format!("0 {c}").into_bytes(),
        5 => format!("{r} 0").into_bytes(),
        6 => format!("{r} 99999999999999999999999999").into_bytes(),
        7 => format!("{} {c}", rows + 1).into_bytes(),
        8 => format!("{r} {}", cols + 1).into_bytes(),
        9 => format!("{} {c}", 256 + r).into_bytes(),
        10 => match some(rng, &occupied) {
            Some(cell) => spell_move(rng, cell),
            None => Vec::new(),
        },
        11 => match some(rng, &idle) {
            Some(cell) => spell_move(rng, cell),
            None => b"x".to_vec(),
        },
        12 => {
            let mut line = format!("{r} {c}").into_bytes();
            line.insert(rng.below(line.len() + 1), [0xff, 0xc3, 0x80][rng.below(3)]);
            line
        }
        _ => {
            // One byte over the limit, even though it names a legal move.
            let cell = some(rng, &legal).unwrap_or((0, 0));
            let mut line = spell_move(rng, cell);
            line.resize(MAX_LINE + 1, b' ');
            line
        }
    }
}

impl SessionCase {
    /// The input of a session: a header in varied spellings, then move lines, mostly legal.
    fn input(&self) -> Vec<u8> {
        let mut rng = Rng(self.seed);
        let letter = |rng: &mut Rng, c: Colour| {
            let l = c.letter();
            rng.pick_owned(vec![
                l.into(),
                l.to_ascii_lowercase().into(),
                format!(" {l}\r"),
            ])
        };
        let win = if self.variant.misere { "<" } else { ">" };
        let (rows, cols) = (self.rows, self.cols);
        let header = [
            rng.pick_owned(vec![rows.to_string(), format!(" 0{rows} ")]),
            rng.pick_owned(vec![cols.to_string(), format!("\t{cols}\r")]),
            letter(&mut rng, self.first),
            letter(&mut rng, self.top_left),
            rng.pick_owned(vec![win.to_string(), format!("  {win}")]),
        ];
        let mut input = Vec::new();
        for line in header {
            input.extend_from_slice(line.as_bytes());
            input.push(b'\n');
        }
        let start = RefBoard::start(
            self.rows,
            self.cols,
            self.variant,
            self.first,
            self.top_left,
        );
        let mut game = RefGame::new(start);
        for i in 0..self.lines {
            let legal = game.legal_moves();
            let line = if legal.is_empty() || rng.below(100) < self.junk {
                // Past the end of the game lines are not read, junk or not.
                junk_line(&mut rng, &game)
            } else {
                let cell = legal[rng.below(legal.len())];
                game.try_play(cell);
                let mut line = spell_move(&mut rng, cell);
                if rng.below(50) == 0 {
                    // Exactly at the limit is still a line.
                    line.resize(MAX_LINE, b' ');
                }
                line
            };
            input.extend_from_slice(&line);
            // The last line may lack its newline.
            if i + 1 < self.lines || rng.below(2) == 0 {
                input.push(b'\n');
            }
        }
        input
    }
}

fn session_case() -> impl Strategy<Value = SessionCase> {
    let side = || prop_oneof![4 => 3..=8usize, 1 => 3..=26usize];
    let colour = || prop_oneof![Just(Colour::Black), Just(Colour::White)];
    let variant = (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(simple, place_anywhere, misere)| RefVariant {
            simple,
            place_anywhere,
            misere,
        },
    );
    let lines = prop_oneof![0..=10usize, 0..=200usize, Just(1000usize)];
    (
        side(),
        side(),
        variant,
        colour(),
        colour(),
        lines,
        0..=60usize,
        any::<u64>(),
    )
        .prop_map(
            |(rows, cols, variant, first, top_left, lines, junk, seed)| SessionCase {
                rows,
                cols,
                variant,
                first,
                top_left,
                lines,
                junk,
                seed,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(128)))]

    #[test]
    fn library_protocol_matches_the_emulator(case in session_case()) {
        let input = case.input();
        let want = reference_session_bytes(&args_of(case.variant), &input)
            .ok_or_else(|| TestCaseError::fail("the generated header is bad"))?;
        let got = library_session(case.variant, &input)?;
        prop_assert!(got == want, "{}", first_difference(want.as_bytes(), got.as_bytes()));
    }
}
