//! Edax reads the books we write, and we read the books Edax writes: Edax, built from a local copy
//! of its source by `bench/edax-build.sh`, loads a book made with `othello::opening::book::edax`
//! and shows its positions; then it makes a book of its own that we read back. Opt-in, since it
//! compiles Edax: `cargo test --test edax_book -- --ignored`. Without Edax's source (EDAX_SRC,
//! ../edax-reversi, or a git mirror) or a C compiler, each test says so and passes.

use othello::notation::MoveList;
use othello::opening::book::edax::{
    self, board_from_position, square_name, symmetric_square, EdaxBook, EdaxDate, EdaxLink,
    EdaxOptions, EdaxPosition, NO_MOVE,
};
use othello::rules::{Game, Move, Passes, Rules, Setup};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One line of perfect play of 8x8, a draw (Takizawa's solution; `tests/data/README.md`).
const PERFECT_LINE: &str = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2\
g3h4f1e1f2g1b1f8g8b3h3b2h5b7a3a4a1a2c1h2h1g2b8a8g7h8h7h6";

struct Edax {
    bin: PathBuf,
    eval: PathBuf,
}

/// Edax, built (once; later calls find it built) by the bench script; `None` when it cannot be.
fn edax() -> Option<Edax> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("bench/edax-build.sh"))
        .stderr(Stdio::piped())
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(3) {
        // The script's reason, e.g. "no Edax source (set EDAX_SRC to a checkout of ...)".
        println!("skipped: {}", stderr.trim());
        return None;
    }
    assert!(out.status.success(), "bench/edax-build.sh failed: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    println!("Edax: {}", lines[2]);
    Some(Edax {
        bin: lines[0].into(),
        eval: lines[1].into(),
    })
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("edax-book-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Edax {
    /// Runs Edax's text interface on `commands`, with `book` as its book file, and returns what
    /// it printed. No `quit`: Edax drops the commands queued before one; the end of its input
    /// ends it after the last.
    fn run(&self, dir: &Path, book: &Path, level: u32, commands: &[String]) -> String {
        let mut child = Command::new(&self.bin)
            .current_dir(dir)
            .args(["-q", "-n", "1", "-h", "16", "-l", &level.to_string()])
            .arg("-eval-file")
            .arg(&self.eval)
            .arg("-book-file")
            .arg(book)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("Edax starts");
        let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "Edax failed: {}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    }
}

/// The count of positions in what Edax's `book info` printed.
fn positions_counted(out: &str) -> &str {
    out.lines()
        .find_map(|l| l.trim_start_matches('>').strip_prefix("Positions: "))
        .and_then(|l| l.split_whitespace().next())
        .expect("book info's count")
}

/// What Edax's `book show` prints of a position, or what we expect it to.
#[derive(Debug, PartialEq)]
struct Shown {
    level: String,
    score: String,
    /// `square:score`, the leaf in angle brackets, sorted by square (Edax sorts by score).
    moves: Vec<String>,
    lines: String,
}

/// Every position `book show` printed, in order.
fn parse_shows(out: &str) -> Vec<Shown> {
    let mut shows = Vec::new();
    let lines: Vec<&str> = out.lines().map(|l| l.trim_start_matches('>')).collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(level) = line.strip_prefix("Level: ") else {
            continue;
        };
        let score = lines[i + 1]
            .strip_prefix("Best score: ")
            .expect("a score line");
        let moves = lines[i + 2].strip_prefix("Moves:").expect("a moves line");
        let mut moves: Vec<String> = moves
            .split_whitespace()
            .map(|m| {
                let leaf = m.starts_with('<');
                let inner = m.trim_matches(['<', '>', '[', ']']).to_lowercase();
                if leaf {
                    format!("<{inner}>")
                } else {
                    inner
                }
            })
            .collect();
        moves.sort_by(|a, b| a.trim_start_matches('<').cmp(b.trim_start_matches('<')));
        let mut stats = Vec::new();
        for l in &lines[i + 3..] {
            if l.trim().is_empty() {
                break;
            }
            stats.push(l.trim());
        }
        shows.push(Shown {
            level: level.trim().to_string(),
            score: score.trim().to_string(),
            moves,
            lines: stats.join(" / "),
        });
    }
    shows
}

/// Edax's `%+02d`.
fn signed(v: impl Into<i64>) -> String {
    format!("{:+}", v.into())
}

/// What `book show` should print for the board after `line`, found in `book`.
fn expected(book: &EdaxBook, line: &str) -> Option<Shown> {
    let (player, opponent) = board_after(line);
    let (p, s) = book.probe(player, opponent)?;
    let turned = |l: &EdaxLink| square_name(symmetric_square(l.square, s));
    let mut moves: Vec<String> = p
        .links
        .iter()
        .map(|l| format!("{}:{}", turned(l), signed(l.score)))
        .collect();
    if p.leaf.square != NO_MOVE {
        moves.push(format!("<{}:{}>", turned(&p.leaf), signed(p.leaf.score)));
    }
    moves.sort_by(|a, b| a.trim_start_matches('<').cmp(b.trim_start_matches('<')));
    let games = u64::from(p.wins) + u64::from(p.draws) + u64::from(p.losses);
    let pct = |n: u32| format!("{:.2}%", 100.0 * f64::from(n) / games as f64);
    let mut lines = Vec::new();
    if games > 0 {
        lines.push(format!(
            "Lines: {games} full games with {} win, {} draw, {} loss",
            pct(p.wins),
            pct(p.draws),
            pct(p.losses)
        ));
    }
    lines.push(format!("{} incomplete lines.", u64::from(p.lines) - games));
    Some(Shown {
        level: p.level.to_string(),
        score: format!(
            "{} [{}, {}]",
            signed(p.value),
            signed(p.lower),
            signed(p.upper)
        ),
        moves,
        lines: lines.join(" / "),
    })
}

/// Edax's board (side to move first) after `line` from the standard start.
fn board_after(line: &str) -> (u64, u64) {
    let mut game: Game<u64> = Game::new(&Setup::default(), Passes::Automatic).unwrap();
    for m in line.parse::<MoveList>().unwrap().iter() {
        game.try_play(*m).unwrap();
    }
    board_from_position(game.rules(), game.position()).unwrap()
}

/// Edax's commands to show the position after each line, from the start.
fn show_commands(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .flat_map(|l| {
            [
                "init".to_string(),
                format!("play {l}"),
                "book show".to_string(),
            ]
        })
        .filter(|c| c != "play ")
        .collect()
}

/// A position of the book being built, in the orientation its line reaches it.
struct Node {
    p: EdaxPosition,
    /// Finished games below its leaf: wins, draws, losses.
    wdl: [u32; 3],
    /// Links: the move, and the node it leads to.
    children: Vec<(u8, usize)>,
    done: bool,
}

/// A small book from the start, as Edax would make it: each position of `specs` (the line that
/// reaches it, its leaf move and score, and the finished games below the leaf) is linked to the
/// others it reaches in one move, and values, bounds and game counts are negamaxed up.
fn small_book() -> EdaxBook {
    type Spec = (&'static str, Option<(&'static str, i8)>, [u32; 3]);
    let specs: [Spec; 5] = [
        ("", None, [0; 3]),
        ("f5", Some(("f4", -10)), [0; 3]),
        ("f5d6", Some(("c5", 3)), [5, 1, 2]),
        ("f5f6", Some(("e6", -2)), [1, 0, 6]),
        ("f5d6c3", Some(("d3", -3)), [2, 0, 3]),
    ];
    let rules: Rules<u64> = Rules::new(Setup::default().shape, Setup::default().variant).unwrap();
    let unique = |(p, o): (u64, u64)| {
        let (up, uo, _) = edax::unique_board(p, o);
        (up, uo)
    };
    let mut nodes = Vec::new();
    let mut index = BTreeMap::new();
    for (line, leaf, wdl) in specs {
        let (player, opponent) = board_after(line);
        let mut p = EdaxPosition::new(player, opponent);
        p.level = 8;
        if let Some((square, score)) = leaf {
            let Ok(Move::Play(sq)) = square.parse::<Move>() else {
                panic!("{square}")
            };
            let x = edax::square_to_edax(sq).unwrap();
            assert!(
                rules.moves_for(player, opponent) & (1 << x) != 0,
                "{line} {square}"
            );
            p.leaf = EdaxLink { score, square: x };
        }
        index.insert(unique((player, opponent)), nodes.len());
        nodes.push(Node {
            p,
            wdl,
            children: Vec::new(),
            done: false,
        });
    }
    for node in &mut nodes {
        let (player, opponent) = (node.p.player, node.p.opponent);
        for x in 0..64u8 {
            if rules.moves_for(player, opponent) & (1 << x) == 0 {
                continue;
            }
            let flips = rules.flips_for(usize::from(x), player, opponent);
            let next = (opponent & !flips, player | flips | 1 << x);
            if let Some(&child) = index.get(&unique(next)) {
                assert_ne!(x, node.p.leaf.square, "a leaf that is a link");
                node.children.push((x, child));
            }
        }
    }
    for i in 0..nodes.len() {
        negamax(&mut nodes, i);
    }
    EdaxBook {
        release: edax::RELEASE,
        date: EdaxDate::from_unix(1_700_000_000),
        options: EdaxOptions {
            level: 8,
            n_empties: 50,
            ..EdaxOptions::default()
        },
        positions: nodes.iter().map(|n| n.p.unique()).collect(),
    }
}

/// Edax's negamax of a position: its value the best of its leaf and links, its bounds from a
/// margin of 1 on the leaf and its children's bounds, its games summed from its children's.
fn negamax(nodes: &mut [Node], i: usize) {
    if nodes[i].done {
        return;
    }
    let children = nodes[i].children.clone();
    for &(_, c) in &children {
        negamax(nodes, c);
    }
    let kids: Vec<EdaxPosition> = children.iter().map(|&(_, c)| nodes[c].p.clone()).collect();
    let node = &mut nodes[i];
    let p = &mut node.p;
    let [mut wins, mut draws, mut losses] = node.wdl;
    let mut lines = 0;
    (p.value, p.lower, p.upper) = (-127, -127, -127);
    if p.leaf.square != NO_MOVE {
        let v = i16::from(p.leaf.score);
        (p.value, p.lower, p.upper) = (v, v - 1, v + 1);
        lines = wins + draws + losses + 1;
    }
    p.links.clear();
    for (&(x, _), kid) in children.iter().zip(&kids) {
        p.links.push(EdaxLink {
            score: -kid.value as i8,
            square: x,
        });
        p.value = p.value.max(-kid.value);
        p.lower = p.lower.max(-kid.upper);
        p.upper = p.upper.max(-kid.lower);
        wins += kid.losses;
        draws += kid.draws;
        losses += kid.wins;
        lines += kid.lines;
    }
    (p.wins, p.draws, p.losses, p.lines) = (wins, draws, losses, lines);
    node.done = true;
}

/// The positions of a book, ordered by board, for comparing books saved in another order.
fn sorted(book: &EdaxBook) -> Vec<EdaxPosition> {
    let mut positions = book.positions.clone();
    positions.sort_by_key(|p| (p.player, p.opponent));
    positions
}

#[test]
#[ignore = "builds and runs Edax from a local copy of its source: cargo test --test edax_book -- --ignored"]
fn edax_shows_the_book_we_write() {
    let Some(edax) = edax() else { return };
    let book = small_book();
    book.check().expect("a book Edax can use");
    let dir = scratch("ours");
    let file = dir.join("ours.dat");
    std::fs::write(&file, edax::write(&book)).unwrap();
    // Each position as its line reaches it, then turned ones (e6 f4 is f5 d6 mirrored along the
    // diagonal, c4 e3 f6 is f5 d6 c3 turned half a turn), then one not in the book.
    let lines = [
        "", "f5", "f5d6", "f5f6", "f5d6c3", "e6f4", "c4e3f6", "d3", "f5f4",
    ];
    let mut commands = show_commands(&lines);
    commands.push(format!("book save {}", dir.join("saved.dat").display()));
    let out = edax.run(&dir, &file, 8, &commands);
    let shown = parse_shows(&out);
    let want: Vec<Shown> = lines.iter().filter_map(|l| expected(&book, l)).collect();
    assert_eq!(want.len(), lines.len() - 1);
    for (line, (got, want)) in lines.iter().zip(shown.iter().zip(&want)) {
        println!(
            "{line:>8}: {} | {} | {}",
            got.score,
            got.moves.join(" "),
            got.lines
        );
        assert_eq!(got, want, "after {line:?}");
    }
    assert_eq!(shown.len(), want.len(), "Edax showed:\n{out}");
    // Edax saves what it loaded unchanged, in its own order.
    let saved = edax::read(&std::fs::read(dir.join("saved.dat")).unwrap()).unwrap();
    assert_eq!(sorted(&saved), sorted(&book));
    assert_eq!(saved.options, book.options);
}

#[test]
#[ignore = "builds and runs Edax from a local copy of its source: cargo test --test edax_book -- --ignored"]
fn we_read_the_book_edax_writes() {
    let Some(edax) = edax() else { return };
    let dir = scratch("theirs");
    // With no book file Edax starts a new one; `book store` adds the positions of the game
    // played (searched at level 2), links them and negamaxes the book.
    let saved = dir.join("saved.dat");
    let late = &PERFECT_LINE[..100];
    let mut commands = vec![format!("play {PERFECT_LINE}"), "book store".into()];
    commands.push(format!("book save {}", saved.display()));
    commands.extend(show_commands(&["", "f5d6c3", late]));
    commands.push("book info".into());
    let out = edax.run(&dir, &dir.join("book.dat"), 2, &commands);
    let bytes = std::fs::read(&saved).unwrap();
    let book = edax::read(&bytes).unwrap();
    book.check().expect("Edax's own book passes our check");
    let count = positions_counted(&out);
    println!(
        "Edax's book: {count} positions; ours read {}",
        book.positions.len()
    );
    assert_eq!(book.positions.len().to_string(), count);
    assert!(book.positions.len() > 50);
    assert_eq!(book.options.level, 2);
    let shown = parse_shows(&out);
    let lines = ["", "f5d6c3", late];
    assert_eq!(shown.len(), lines.len(), "Edax showed:\n{out}");
    for (line, got) in lines.iter().zip(&shown) {
        println!(
            "{:>8}: {} | {} | {}",
            &line[..line.len().min(8)],
            got.score,
            got.moves.join(" "),
            got.lines
        );
        assert_eq!(Some(got), expected(&book, line).as_ref(), "after {line:?}");
    }
    // Our writer gives Edax's bytes back, but for the date's padding byte (Edax leaves it as
    // memory had it).
    let mut again = edax::write(&book);
    again[17] = bytes[17];
    assert!(again == bytes, "our bytes differ from Edax's");
}

#[test]
#[ignore = "builds and runs Edax from a local copy of its source: cargo test --test edax_book -- --ignored"]
fn edax_loads_the_built_in_book_as_othello_book_export_writes_it() {
    let Some(edax) = edax() else { return };
    let dir = scratch("built-in");
    let file = dir.join("built-in.dat");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let export = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["book", "export"])
        .arg(root.join("books/8x8.book"))
        .arg(&file)
        .output()
        .unwrap();
    assert!(export.status.success(), "{export:?}");
    let book = edax::read(&std::fs::read(&file).unwrap()).unwrap();
    book.check().expect("a book Edax can use");
    // Edax counts the positions it loaded and shows each position as the book has it, here
    // along the main lines and the openings of the strength matches.
    let openings = std::fs::read_to_string(root.join("openings/8x8.txt")).unwrap();
    let mut lines: Vec<&str> = vec!["", "f5", "f5d6", "f5f6", "f5d6c3", "f5d6c5", "e6f4"];
    lines.extend(openings.lines().filter(|l| !l.starts_with('#')).take(10));
    let mut commands = show_commands(&lines);
    commands.push("book info".into());
    let out = edax.run(&dir, &file, 8, &commands);
    let count = positions_counted(&out);
    println!("Edax loaded {count} positions of {}", book.positions.len());
    assert_eq!(count, book.positions.len().to_string());
    let shown = parse_shows(&out);
    let want: Vec<Shown> = lines.iter().filter_map(|l| expected(&book, l)).collect();
    assert_eq!(want.len(), lines.len(), "every line is in the book");
    assert_eq!(shown.len(), want.len(), "Edax showed:\n{out}");
    for (line, (got, want)) in lines.iter().zip(shown.iter().zip(&want)) {
        assert_eq!(got, want, "after {line:?}");
    }
    // Edax's own negamax over the book, saved: the same value everywhere, and bounds the
    // export already had (-127/+127 nowhere), but where Edax's level table takes a depth-10
    // search near the end as a solve, which our searches do not: there a disc or two apart.
    let saved = dir.join("negamaxed.dat");
    let out = edax.run(
        &dir,
        &file,
        8,
        &[
            "book negamax".into(),
            format!("book save {}", saved.display()),
        ],
    );
    let again =
        edax::read(&std::fs::read(&saved).unwrap_or_else(|e| panic!("{e}: {out}"))).unwrap();
    assert_eq!(again.positions.len(), book.positions.len());
    let (mut same, mut near) = (0, 0);
    for p in &book.positions {
        assert!(p.lower > -64 && p.upper < 64, "{p:?}");
        let (q, _) = again
            .probe(p.player, p.opponent)
            .expect("every position saved");
        assert_eq!(q.value, p.value, "{p:?}");
        same += usize::from((q.lower, q.upper) == (p.lower, p.upper));
        near += usize::from((q.lower - p.lower).abs() <= 2 && (q.upper - p.upper).abs() <= 3);
    }
    let all = book.positions.len();
    println!("bounds as Edax's negamax: {same} of {all}; within 2 and 3 discs: {near}");
    assert!(same * 100 >= all * 80, "{same} of {all}");
}
