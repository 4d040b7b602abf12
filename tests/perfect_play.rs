//! `othello perfect-play`: every entry of up to 16 cells against a plain minimax written here on
//! a grid of its own (nothing shared with the engine or the bitboards; the lines of play are
//! replayed on the reference board of `tests/common`), known values, RxC against CxR, the
//! markdown document, the cache and resuming, and bad input.

mod common;

use assert_cmd::Command;
use common::{Cell, Colour, RefBoard, RefVariant};
use othello::interrupt::{Interrupt, Stopped};
use othello::rules::{Move, Shape};
use othello::rules::{RuleSet, Setup};
use othello::search::{Config, Evaluation};
use othello::solve::{boards_up_to, perfect_play, Found, PerfectPlayOptions};
use othello::solve::{PositionSolved, TableEntry};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::PathBuf;
use std::time::Duration;

/// The minimax's position, small and copied cheaply: one byte a cell, row-major (0 empty,
/// 1 black, 2 white), the side to move (1 or 2) and the rules. Written here from the seeds'
/// rules with plain loops; [`RefBoard`] checks the lines of play separately.
#[derive(Clone, Copy)]
struct Grid {
    cells: [u8; MAX_CELLS],
    rows: usize,
    cols: usize,
    to_move: u8,
    rules: RefVariant,
}

/// 3^36 * 2 still fits a `u64` key.
const MAX_CELLS: usize = 36;

impl Grid {
    fn of(board: &RefBoard) -> Grid {
        let mut cells = [0; MAX_CELLS];
        for (i, cell) in board.cells.iter().flatten().enumerate() {
            cells[i] = disc(*cell);
        }
        Grid {
            cells,
            rows: board.rows,
            cols: board.cols,
            to_move: disc(Some(board.to_move)),
            rules: board.variant,
        }
    }

    /// The cell `n` steps from `(r, c)` in direction `step`, if on the board.
    fn index(&self, r: usize, c: usize, step: (isize, isize), n: isize) -> Option<usize> {
        let r = r as isize + step.0 * n;
        let c = c as isize + step.1 * n;
        let on = (0..self.rows as isize).contains(&r) && (0..self.cols as isize).contains(&c);
        on.then(|| r as usize * self.cols + c as usize)
    }

    /// Calls `flip` with each cell a disc of `who` on the empty cell `i` flips: under the
    /// simple rules every opponent disc next to it, under the full rules every line of
    /// opponent discs that the disc closes with one of `who`'s.
    fn flips(&self, who: u8, i: usize, mut flip: impl FnMut(usize)) {
        let (r, c) = (i / self.cols, i % self.cols);
        let opponent = 3 - who;
        for step in common::DIRECTIONS {
            let mut n = 1;
            while let Some(j) = self.index(r, c, step, n) {
                if self.cells[j] != opponent {
                    if self.cells[j] == who {
                        (1..n)
                            .filter_map(|k| self.index(r, c, step, k))
                            .for_each(&mut flip);
                    }
                    break;
                }
                if self.rules.simple {
                    flip(j);
                    break;
                }
                n += 1;
            }
        }
    }

    /// Whether `who` may play on the empty cell `i`: anywhere, or where the move flips
    /// something (under the simple rules, touching an opponent disc is flipping it).
    fn is_legal(&self, who: u8, i: usize) -> bool {
        let mut flips = 0;
        self.rules.place_anywhere || {
            self.flips(who, i, |_| flips += 1);
            flips > 0
        }
    }

    fn moves(&self, who: u8) -> Vec<usize> {
        (0..self.rows * self.cols)
            .filter(|&i| self.cells[i] == 0 && self.is_legal(who, i))
            .collect()
    }

    fn play(&self, i: usize) -> Grid {
        let mut next = *self;
        self.flips(self.to_move, i, |j| next.cells[j] = self.to_move);
        next.cells[i] = self.to_move;
        next.to_move = 3 - self.to_move;
        next
    }

    /// Discs of the side to move minus the other's.
    fn lead(&self) -> i32 {
        let count = |who| self.cells.iter().filter(|&&d| d == who).count() as i32;
        count(self.to_move) - count(3 - self.to_move)
    }

    /// The position as a number: a base-3 digit per cell and the side to move.
    fn key(&self) -> u64 {
        let cells = &self.cells[..self.rows * self.cols];
        let digits = cells.iter().fold(0u64, |k, &d| 3 * k + u64::from(d));
        2 * digits + u64::from(self.to_move == 2)
    }
}

fn disc(cell: Option<Colour>) -> u8 {
    match cell {
        None => 0,
        Some(Colour::Black) => 1,
        Some(Colour::White) => 2,
    }
}

/// Exact values by minimax over every move, remembering each position's value: no pruning, no
/// ordering, so nothing can be cut wrongly. Normal and misère games share their moves, so both
/// values are worked out together: `[normal, misère]`, each for the side to move, each the
/// final disc difference reversed under misère (so more is always better for the mover).
#[derive(Default)]
struct Minimax {
    known: HashMap<u64, [i32; 2], BuildHasherDefault<KeyHasher>>,
}

impl Minimax {
    fn values(&mut self, grid: &Grid) -> [i32; 2] {
        let key = grid.key();
        if let Some(&v) = self.known.get(&key) {
            return v;
        }
        let moves = grid.moves(grid.to_move);
        let negated = |[normal, misere]: [i32; 2]| [-normal, -misere];
        let values = if moves.is_empty() {
            // Under place-anywhere no moves means a full board; otherwise the opponent may move.
            if grid.rules.place_anywhere || grid.moves(3 - grid.to_move).is_empty() {
                [grid.lead(), -grid.lead()]
            } else {
                let passed = Grid {
                    to_move: 3 - grid.to_move,
                    ..*grid
                };
                negated(self.values(&passed))
            }
        } else {
            let mut best = [i32::MIN; 2];
            for &i in &moves {
                let child = negated(self.values(&grid.play(i)));
                best = [best[0].max(child[0]), best[1].max(child[1])];
            }
            best
        };
        self.known.insert(key, values);
        values
    }

    /// The value of `board` for its side to move, under its variant.
    fn value(&mut self, board: &RefBoard) -> i32 {
        self.values(&Grid::of(board))[usize::from(board.variant.misere)]
    }
}

/// One [`Minimax`] for each board and rules, shared by its normal and misère games.
#[derive(Default)]
struct Minimaxes(HashMap<(usize, usize, bool, bool), Minimax>);

impl Minimaxes {
    fn of(&mut self, board: &RefBoard) -> &mut Minimax {
        let v = board.variant;
        let rules = (board.rows, board.cols, v.simple, v.place_anywhere);
        self.0.entry(rules).or_default()
    }
}

/// Keys are already spread over many bits: a multiplication mixes them enough, and much faster
/// than the default hasher.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("keys are u64")
    }
    fn write_u64(&mut self, key: u64) {
        let x = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 29);
    }
}

fn after(board: &RefBoard, cell: Cell) -> RefBoard {
    let mut child = board.clone();
    child.play(cell);
    child
}

fn ref_start(setup: &Setup) -> RefBoard {
    let v = setup.variant;
    let variant = RefVariant {
        simple: v.rule_set == RuleSet::Simple,
        place_anywhere: v.place_anywhere,
        misere: v.misere,
    };
    // The standard start: black first, white on the top-left of the block.
    RefBoard::start(
        setup.shape.rows(),
        setup.shape.cols(),
        variant,
        Colour::Black,
        Colour::White,
    )
}

fn options(boards: &[(usize, usize)]) -> PerfectPlayOptions {
    PerfectPlayOptions {
        boards: boards
            .iter()
            .map(|&(rows, cols)| Shape::new(rows, cols).unwrap())
            .collect(),
        rule_sets: vec![RuleSet::Full, RuleSet::Simple],
        misere: vec![false, true],
        place_anywhere: vec![false, true],
        limit: None,
        place_anywhere_limit: None,
        search: Config::solver(16, 1, Evaluation::default()),
        cache: None,
        journals: None,
        from_cache: false,
        progress: false,
        command_line: "test".to_string(),
        interrupt: Interrupt::default(),
    }
}

/// The entries and the markdown of a run.
fn run(options: &PerfectPlayOptions) -> (Vec<TableEntry>, String) {
    let (mut out, mut log) = (Vec::new(), Vec::new());
    let table = perfect_play(options, &mut out, &mut log).unwrap();
    (table, String::from_utf8(out).unwrap())
}

fn solved(entry: &TableEntry) -> &PositionSolved {
    match &entry.found {
        Found::Solved(p) => p,
        other => panic!("{:?} not solved: {other:?}", entry.setup),
    }
}

/// Checks an entry against the minimax: the value, the set of best first moves, and the line,
/// each of whose moves is legal and keeps the value, ending the game at the count given.
fn check_against_minimax(entry: &TableEntry, minimaxes: &mut Minimaxes) {
    let p = solved(entry);
    let what = format!("{:?}", entry.setup);
    let start = ref_start(&entry.setup);
    let minimax = minimaxes.of(&start);
    let value = minimax.value(&start);
    assert_eq!(p.score, value, "{what}");
    let lead = if entry.setup.variant.misere {
        -value
    } else {
        value
    };
    assert_eq!(entry.black_lead(), Some(lead), "{what}");
    let mut best: Vec<Cell> = start
        .legal_moves()
        .into_iter()
        .filter(|&cell| -minimax.value(&after(&start, cell)) == value)
        .collect();
    let mut listed: Vec<Cell> = p
        .moves
        .iter()
        .map(|(sq, _)| (sq.row as usize, sq.col as usize))
        .collect();
    best.sort_unstable();
    listed.sort_unstable();
    assert_eq!(listed, best, "{what}: best first moves");
    let (mut board, mut value) = (start, value);
    for (n, step) in p.line.iter().enumerate() {
        match step {
            Move::Play(sq) => {
                let cell = (sq.row as usize, sq.col as usize);
                assert!(board.legal_moves().contains(&cell), "{what}: move {n}");
                board.play(cell);
            }
            Move::Pass => {
                assert!(board.legal_moves().is_empty(), "{what}: pass {n}");
                assert!(!board.variant.place_anywhere, "{what}: pass {n}");
                board.pass();
            }
        }
        value = -value;
        assert_eq!(minimax.value(&board), value, "{what}: after move {n}");
    }
    assert!(board.is_over(), "{what}: the line ends the game");
    assert_eq!(board.score(), (p.black, p.white), "{what}");
    let cells = entry.setup.shape.cells() as u32;
    assert_eq!(p.black + p.white + p.empty, cells, "{what}");
}

#[test]
fn every_entry_up_to_16_cells_agrees_with_plain_minimax() {
    let boards: Vec<(usize, usize)> = boards_up_to(16)
        .iter()
        .map(|b| (b.rows(), b.cols()))
        .collect();
    assert_eq!(boards, [(3, 3), (3, 4), (3, 5), (4, 4)]);
    check_all_against_minimax(&options(&boards), 4 * 8);
}

#[test]
fn three_by_six_full_agrees_with_plain_minimax() {
    let mut o = options(&[(3, 6)]);
    o.rule_sets = vec![RuleSet::Full];
    o.place_anywhere = vec![false];
    check_all_against_minimax(&o, 2);
}

#[test]
#[ignore = "about five minutes and 2 GB: cargo test --release --test perfect_play -- --ignored"]
fn larger_entries_agree_with_plain_minimax() {
    // 3x6 simple, 3x6 place-anywhere, 4x5 standard.
    let mut o = options(&[(3, 6)]);
    o.rule_sets = vec![RuleSet::Simple];
    o.place_anywhere = vec![false];
    check_all_against_minimax(&o, 2);
    let mut o = options(&[(3, 6)]);
    o.place_anywhere = vec![true];
    check_all_against_minimax(&o, 4);
    let mut o = options(&[(4, 5)]);
    o.place_anywhere = vec![false];
    check_all_against_minimax(&o, 4);
}

/// Runs the entries of `options`, `count` of them, and checks each against the minimax.
fn check_all_against_minimax(options: &PerfectPlayOptions, count: usize) {
    let (table, _) = run(options);
    assert_eq!(table.len(), count);
    let mut minimaxes = Minimaxes::default();
    for entry in &table {
        check_against_minimax(entry, &mut minimaxes);
    }
}

#[test]
fn known_values() {
    let mut o = options(&[(4, 4), (4, 5), (5, 4), (4, 6), (5, 5)]);
    o.rule_sets = vec![RuleSet::Full];
    o.misere = vec![false];
    o.place_anywhere = vec![false];
    let (table, _) = run(&o);
    // (rows, cols, Black - White, Black's discs, White's discs)
    let known = [
        (4, 4, -8, 3, 11),
        (4, 5, 16, 18, 2),
        (5, 4, 16, 18, 2),
        (4, 6, 16, 20, 4),
        (5, 5, 13, 19, 6),
    ];
    assert_eq!(table.len(), known.len());
    for (entry, (rows, cols, lead, black, white)) in table.iter().zip(known) {
        assert_eq!(
            (entry.setup.shape.rows(), entry.setup.shape.cols()),
            (rows, cols)
        );
        let p = solved(entry);
        assert_eq!(entry.black_lead(), Some(lead), "{rows}x{cols}");
        assert_eq!((p.black, p.white), (black, white), "{rows}x{cols}");
    }
}

#[test]
#[ignore = "about ten minutes in release: cargo test --release --test perfect_play -- --ignored"]
fn six_by_six_is_a_white_win_20_to_16() {
    let output = othello()
        .args(["perfect-play", "--boards", "6x6", "--rule-sets", "full"])
        .args([
            "--goals",
            "normal",
            "--placements",
            "standard",
            "--hash-mb",
            "1024",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("| 6x6 | full | no | no | -4 | W 20-16 | "),
        "{text}"
    );
}

/// The claim behind listing rows <= columns only: the start of RxC turned over its main
/// diagonal is the start of CxR, and the values agree.
#[test]
fn rxc_and_cxr_are_the_same_game_turned_over() {
    let pairs = [(3, 4), (3, 5), (3, 6), (4, 5)];
    for &(rows, cols) in &pairs {
        let setup = |rows, cols| Setup {
            shape: Shape::new(rows, cols).unwrap(),
            ..Setup::default()
        };
        let (a, b) = (ref_start(&setup(rows, cols)), ref_start(&setup(cols, rows)));
        for r in 0..rows {
            for c in 0..cols {
                assert_eq!(a.at((r, c)), b.at((c, r)), "{rows}x{cols} ({r}, {c})");
            }
        }
    }
    let mut o = options(&[(3, 4), (4, 3), (3, 5), (5, 3), (3, 6), (6, 3)]);
    o.place_anywhere = vec![false];
    let (table, _) = run(&o);
    let value = |rows, cols, variant| {
        table
            .iter()
            .find(|e| {
                (e.setup.shape.rows(), e.setup.shape.cols(), e.setup.variant)
                    == (rows, cols, variant)
            })
            .and_then(TableEntry::black_lead)
            .unwrap()
    };
    for entry in &table {
        let (rows, cols, v) = (
            entry.setup.shape.rows(),
            entry.setup.shape.cols(),
            entry.setup.variant,
        );
        assert_eq!(
            value(rows, cols, v),
            value(cols, rows, v),
            "{rows}x{cols} {v:?}"
        );
    }
}

fn othello() -> Command {
    Command::cargo_bin("othello").unwrap()
}

/// The table's rows, each split into its cells.
fn rows(markdown: &str) -> Vec<Vec<String>> {
    markdown
        .lines()
        .filter(|l| l.starts_with("| ") && l.as_bytes()[2].is_ascii_digit())
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_command_prints_a_markdown_table_sorted_by_size() {
    let output = othello()
        .args(["perfect-play", "--max-cells", "16", "--threads", "1"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# Perfect play on small boards");
    assert!(
        lines[2].starts_with("Made by `othello perfect-play --max-cells 16 --threads 1` (othello ")
            && lines[2].contains(" cores"),
        "{}",
        lines[2]
    );
    assert!(text.contains("RxC and CxR are the same game turned over"));
    assert!(text.contains(
        "\n| board | rules | misère | place-anywhere | Black − White | perfect play | best first moves | nodes | seconds |\n| --- |"
    ));
    let table = rows(&text);
    assert_eq!(table.len(), 32);
    assert!(table.iter().all(|r| r.len() == 9), "{table:?}");
    let cells = |r: &Vec<String>| {
        let (rows, cols) = r[0].split_once('x').unwrap();
        rows.parse::<usize>().unwrap() * cols.parse::<usize>().unwrap()
    };
    assert!(table.windows(2).all(|w| cells(&w[0]) <= cells(&w[1])));
    let row = |board: &str, rules: &str, misere: &str, anywhere: &str| {
        table
            .iter()
            .find(|r| r[..4] == [board, rules, misere, anywhere])
            .unwrap_or_else(|| panic!("no {board} {rules} {misere} {anywhere}"))
    };
    let four = row("4x4", "full", "no", "no");
    assert_eq!(four[4..7], ["-8", "W 11-3 (2 empty)", "a2 b1 c4 d3"]);
    assert_eq!(four[7], "1,476");
    // 4x4 place-anywhere is a draw.
    assert_eq!(row("4x4", "full", "no", "yes")[4..6], ["0", "draw 8-8"]);
    assert!(text.contains("\nTotals: 32 solved, 0 not solved in their time, 0 not tried; "));
    assert!(text.contains("\n- 4x4 full: `b1 a1 a2 c1 d4 a3 d1 b4 a4 c4`\n"));
    let log = String::from_utf8(output.stderr).unwrap();
    assert_eq!(log.lines().count(), 2 * 32, "{log}");
    assert!(log.contains("perfect-play: 4x4 full: solving (no time limit)\n"));
    assert!(log.contains("perfect-play: 4x4 full, misère, place-anywhere: solving (1h)\n"));
}

/// A fresh file under the test target directory.
fn temp_file(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_signal_caches_the_entry_it_stopped_and_starts_no_other() {
    let cache = temp_file("perfect-play-interrupted.txt");
    let options = PerfectPlayOptions {
        rule_sets: vec![RuleSet::Full],
        misere: vec![false],
        place_anywhere: vec![false],
        cache: Some(cache.clone()),
        ..options(&[(4, 4), (4, 5)])
    };
    // As if SIGTERM had come before the first entry's search began.
    options.interrupt.raise(15);
    let (mut out, mut log) = (Vec::new(), Vec::new());
    let error = perfect_play(&options, &mut out, &mut log).unwrap_err();
    assert_eq!(error.downcast_ref::<Stopped>().map(|s| s.signal), Some(15));
    assert!(out.is_empty(), "no document");
    let log = String::from_utf8(log).unwrap();
    assert!(log.contains("4x4 full: not solved in 0s"), "{log}");
    assert!(!log.contains("4x5"), "{log}");
    let text = std::fs::read_to_string(&cache).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(
        lines[0].starts_with("4x4 full normal standard unsolved limit=0s nodes="),
        "{text}"
    );
}

/// A run stopped as the solver began testing first moves for a tie with the best has proved
/// the value in its journal: the table gives it, says the entry is not solved, and counts it
/// apart from those solved and those not.
#[test]
fn an_entry_stopped_among_the_ties_gives_its_value() {
    use othello::rules::{Color, Rules, Variant};
    use othello::search::{RootMoves, SolveProgress};
    use othello::solve::{solve_position_within, SolveOptions};
    use std::ops::ControlFlow;
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-play-ties");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let simple = Variant {
        rule_set: RuleSet::Simple,
        ..Variant::default()
    };
    let rules = Rules::<u64>::new(Shape::new(4, 5).unwrap(), simple).unwrap();
    let start = rules.start(Color::Black, Color::White);
    let solve = SolveOptions {
        which: RootMoves::Ties,
        search: Config::solver(16, 1, Evaluation::default()),
        max_empties: None,
        journal: Some(folder.join("4x5-simple-normal-standard.txt")),
        limit: None,
        interrupt: Interrupt::default(),
    };
    let at_ties = Box::new(|p: &SolveProgress| {
        if p.ties {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let stopped = solve_position_within(&rules, &start, &solve, Some(at_ties)).unwrap();
    assert!(stopped.is_err(), "{stopped:?}");
    let cache = temp_file("perfect-play-ties.txt");
    let line = "4x5 simple normal standard unsolved limit=1m nodes=1000 seconds=60.000\n";
    std::fs::write(&cache, line).unwrap();
    let options = PerfectPlayOptions {
        rule_sets: vec![RuleSet::Simple],
        misere: vec![false],
        place_anywhere: vec![false],
        cache: Some(cache),
        journals: Some(folder),
        from_cache: true,
        ..options(&[(4, 5)])
    };
    let (_, doc) = run(&options);
    // Black − White is -8, a1 among the best first moves (see the 4x5 SIMPLE entry).
    assert!(
        doc.contains("| 4x5 | simple | no | no | -8 (proved; not solved in 1m) | - | "),
        "{doc}"
    );
    assert!(doc.contains("a1 -8"), "{doc}");
    assert!(
        doc.contains(
            "Totals: 0 solved, 1 with the value proved but not solved in their time, 0 not \
             solved"
        ),
        "{doc}"
    );
}

/// Runs the command; returns stdout and stderr.
fn perfect_play_command(args: &[&str]) -> (String, String) {
    let output = othello()
        .args(["perfect-play", "--threads", "1"])
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The table without the seconds, which vary from run to run.
fn without_seconds(markdown: &str) -> Vec<Vec<String>> {
    rows(markdown)
        .into_iter()
        .map(|mut r| {
            r.pop();
            r
        })
        .collect()
}

#[test]
fn a_run_resumes_from_its_cache() {
    let cache = temp_file("perfect-play-resume.txt");
    let path = cache.to_str().unwrap();
    let (_, log) = perfect_play_command(&["--max-cells", "12", "--cache", path]);
    assert!(!log.contains("(cached)"));
    let text = std::fs::read_to_string(&cache).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries.len(), 16);
    assert!(entries.iter().any(|l| l.starts_with(
        "3x4 full normal standard solved black=12 white=0 empty=0 best=a1 \
         line=a1a2b3pad1d2a3pac3pad3 nodes=518 seconds="
    )));
    // A larger run takes the 16 entries from the file and adds the 16 new ones.
    let (resumed, log) = perfect_play_command(&["--max-cells", "16", "--cache", path]);
    assert_eq!(log.matches("(cached)").count(), 16, "{log}");
    assert_eq!(log.matches(": solving (").count(), 16, "{log}");
    let text = std::fs::read_to_string(&cache).unwrap();
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 32);
    assert!(resumed.contains("(16 entries from the cache"));
    let (fresh, _) = perfect_play_command(&["--max-cells", "16"]);
    assert_eq!(without_seconds(&resumed), without_seconds(&fresh));
    // Everything is in the file now.
    let (again, log) = perfect_play_command(&["--max-cells", "16", "--cache", path]);
    assert_eq!(log.matches("(cached)").count(), 32, "{log}");
    assert_eq!(without_seconds(&again), without_seconds(&fresh));
}

/// The arguments for the full-rules, normal-goal, place-anywhere entries of `boards`, each
/// within `limit`, with the cache file `cache`.
fn anywhere_entries<'a>(boards: &'a str, limit: &'a str, cache: &'a str) -> Vec<&'a str> {
    vec![
        "--boards",
        boards,
        "--rule-sets",
        "full",
        "--goals",
        "normal",
        "--placements",
        "anywhere",
        "--place-anywhere-limit",
        limit,
        "--cache",
        cache,
    ]
}

#[test]
fn unsolved_entries_are_tried_again_only_with_more_time() {
    let cache = temp_file("perfect-play-unsolved.txt");
    let path = cache.to_str().unwrap();
    std::fs::write(
        &cache,
        "3x3 full normal anywhere unsolved limit=2s nodes=5 seconds=2.000\n",
    )
    .unwrap();
    let args = |limit| anywhere_entries("3x3,3x4,4x3", limit, path);
    // As much time as before, or less: still unsolved, and the boards around it not tried.
    for limit in ["2s", "1s"] {
        let (text, log) = perfect_play_command(&args(limit));
        let table = rows(&text);
        assert_eq!(table[0][4], "not solved in 2s", "{text}");
        assert_eq!(table[0][7..], ["5", "2.000"]);
        for r in &table[1..] {
            assert_eq!(r[4], "not tried (3x3 not solved in 2s)", "{text}");
        }
        assert!(!log.contains("solving"), "{log}");
        assert!(text.contains("Totals: 0 solved, 1 not solved in their time, 2 not tried; "));
    }
    // More time: solved, and the file says so on a later line.
    let (text, log) = perfect_play_command(&args("3s"));
    assert_eq!(log.matches(": solving (3s)").count(), 3, "{log}");
    let table = rows(&text);
    assert!(table.iter().all(|r| !r[4].starts_with("not")), "{text}");
    let (again, log) = perfect_play_command(&args("1s"));
    assert_eq!(log.matches("(cached)").count(), 3, "{log}");
    assert_eq!(without_seconds(&again), without_seconds(&text));
}

#[test]
fn from_cache_lists_what_the_cache_holds_and_solves_nothing() {
    let cache = temp_file("perfect-play-from-cache.txt");
    let path = cache.to_str().unwrap();
    let cached = "3x4 full normal anywhere unsolved limit=2s nodes=5 seconds=2.000\n";
    std::fs::write(&cache, cached).unwrap();
    let mut args = anywhere_entries("3x3,3x4,3x5", "1h", path);
    args.push("--from-cache");
    let (text, log) = perfect_play_command(&args);
    assert!(!log.contains("solving"), "{log}");
    let table = rows(&text);
    // Not in the file; unsolved in 2 s, listed as such though this run's limit is longer; and
    // a board that holds the unsolved one, which a run would pass over.
    assert_eq!(table[0][4], "not tried yet", "{text}");
    assert_eq!(table[1][4], "not solved in 2s", "{text}");
    assert_eq!(table[2][4], "not tried (3x4 not solved in 2s)", "{text}");
    assert!(text.contains("from the cache of earlier runs"), "{text}");
    assert!(text.contains("Totals: 0 solved, 1 not solved in their time, 2 not tried; "));
    // The file is only read.
    assert_eq!(std::fs::read_to_string(&cache).unwrap(), cached);

    // A cache that is not there is an error, not an empty table.
    let missing = temp_file("perfect-play-no-such-cache.txt");
    othello()
        .args(["perfect-play", "--boards", "3x3", "--from-cache", "--cache"])
        .arg(&missing)
        .assert()
        .failure()
        .stderr(predicates::str::contains("cannot read"));
    assert!(!missing.exists());
}

#[test]
fn an_unsolved_entry_shows_what_its_journal_proves() {
    // 4x4 full rules: Black's first moves a2, b1, c4 and d3 are one move turned over, each
    // worth -8 (White wins 11-3). After b1, White to move: the discs are b1, b2, c2 and b3.
    let after_b1 = "(w -b-- -bb- -bw- ----)";
    let cache = temp_file("perfect-play-proved-cache.txt");
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-play-proved");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let journal = folder.join("4x4-full-normal-standard.txt");
    std::fs::write(
        &cache,
        "4x4 full normal standard unsolved limit=1s nodes=5 seconds=1.000\n",
    )
    .unwrap();
    let value_for = |bounds: &str| {
        let board = "board 4x4 full normal standard";
        std::fs::write(&journal, format!("{board}\n{after_b1} {bounds}\n")).unwrap();
        listed_4x4(&cache, &folder)
    };
    // The value of one first move proves that Black gets at least as much; its three images
    // under the board's symmetries have the same value, so all four first moves are known,
    // which proves the value itself.
    assert_eq!(
        value_for("8 8"),
        [
            "-8 (proved; not solved in 1s)",
            "a2 -8, b1 -8, c4 -8, d3 -8"
        ]
    );
    // White gets at least 8 after each first move: Black gets at most -8.
    assert_eq!(
        value_for("8 16"),
        [
            "not solved in 1s (at most -8)",
            "a2 at most -8, b1 at most -8, c4 at most -8, d3 at most -8"
        ]
    );
    assert_eq!(value_for("-16 10")[0], "not solved in 1s (at least -10)");
    assert_eq!(
        value_for("-10 10")[1],
        "a2 -10 to +10, b1 -10 to +10, c4 -10 to +10, d3 -10 to +10"
    );
    // A bound that says nothing, and no journal, add nothing.
    assert_eq!(value_for("-16 16"), ["not solved in 1s", "-"]);
    std::fs::remove_file(&journal).unwrap();
    assert_eq!(listed_4x4(&cache, &folder), ["not solved in 1s", "-"]);
    // Listing only reads journals.
    assert!(!journal.exists());
}

#[test]
fn a_run_stopped_at_its_limit_tells_what_its_journal_proves() {
    // The 5x6 SIMPLE start is worth -10 to Black, c1 is one of its best moves, and the whole
    // solve takes minutes: a millisecond stops it with only what the journal held.
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-play-stopped-proved");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("5x6-simple-normal-standard.txt"),
        "board 5x6 simple normal standard\n(w --b--- --bb-- --bw-- ------ ------) 10 10\n",
    )
    .unwrap();
    let (text, log) = perfect_play_command(&[
        "--boards",
        "5x6",
        "--rule-sets",
        "simple",
        "--goals",
        "normal",
        "--placements",
        "standard",
        "--limit",
        "1ms",
        "--journals",
        folder.to_str().unwrap(),
    ]);
    assert!(
        log.contains("not solved in 1ms (")
            && log.contains("; proved, Black - White: at least -10 (c1 -10)\n"),
        "{log}"
    );
    let row = &rows(&text)[0];
    assert_eq!(
        [&row[4], &row[6]],
        ["not solved in 1ms (at least -10)", "c1 -10"]
    );
}

/// The value and best-first-moves cells of the 4x4 full-rules entry of `cache`, listed with the
/// journals of `folder`.
fn listed_4x4(cache: &std::path::Path, folder: &std::path::Path) -> [String; 2] {
    let (text, log) = perfect_play_command(&[
        "--boards",
        "4x4",
        "--rule-sets",
        "full",
        "--goals",
        "normal",
        "--placements",
        "standard",
        "--cache",
        cache.to_str().unwrap(),
        "--journals",
        folder.to_str().unwrap(),
        "--from-cache",
    ]);
    assert!(!log.contains("solving"), "{log}");
    let row = &rows(&text)[0];
    [row[4].clone(), row[6].clone()]
}

#[test]
fn a_line_cut_short_at_the_end_of_the_cache_is_removed() {
    let cache = temp_file("perfect-play-cut.txt");
    let path = cache.to_str().unwrap();
    let args = [
        "--boards",
        "3x3",
        "--placements",
        "standard",
        "--cache",
        path,
    ];
    perfect_play_command(&args);
    let whole = std::fs::read_to_string(&cache).unwrap();
    // The run was stopped as it wrote its last entry.
    let cut = &whole[..whole.len() - 30];
    std::fs::write(&cache, cut).unwrap();
    let (_, log) = perfect_play_command(&args);
    assert!(
        log.contains("the last line is cut short and is removed"),
        "{log}"
    );
    assert_eq!(log.matches(": solving (").count(), 1, "{log}");
    // The entry is solved again and written whole (its time may differ).
    let without_seconds = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.split(" seconds=").next().unwrap().to_string())
            .collect()
    };
    let now = std::fs::read_to_string(&cache).unwrap();
    assert_eq!(without_seconds(&now), without_seconds(&whole));
}

#[test]
fn a_cache_under_the_older_heading_is_still_a_cache() {
    // Older caches name the source file the format was described in before it moved.
    let cache = temp_file("perfect-play-older-heading.txt");
    let heading = "# othello perfect-play cache: one finished entry a line \
                   (see src/commands/perfect_play.rs)\n";
    std::fs::write(&cache, format!("{heading}3x3 full normal standard sol")).unwrap();
    let (status, stderr) = on_cache(&cache, &[]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains("the last line is cut short and is removed"),
        "{stderr}"
    );
    let now = std::fs::read_to_string(&cache).unwrap();
    assert!(now.starts_with(heading), "{now}");
    assert!(now.contains("\n3x3 full normal standard solved "), "{now}");
}

#[test]
fn a_cache_that_does_not_replay_is_an_error() {
    let cache = temp_file("perfect-play-bad.txt");
    // 3x3 full ends 0-9, not 1-8.
    std::fs::write(
        &cache,
        "# a comment\n3x3 full normal standard solved black=1 white=8 empty=0 best=b3 \
         line=c2c1pab3paa3pac3 nodes=72 seconds=0.000\n",
    )
    .unwrap();
    let output = othello()
        .args([
            "perfect-play",
            "--threads",
            "1",
            "--boards",
            "3x3",
            "--cache",
        ])
        .arg(&cache)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("line 2: the line ends 0-9, not 1-8"),
        "{stderr}"
    );
}

#[test]
fn bad_input_is_a_usage_error_and_status_2() {
    for (args, message) in [
        (vec!["--boards", "2x4"], "\"2x4\" is not a board"),
        (vec!["--boards", "4x4x4"], "is not a board"),
        (vec!["--max-cells", "8"], "8 is not in 9..=676"),
        (
            vec!["--max-cells", "20", "--boards", "4x4"],
            "cannot be used with",
        ),
        (vec!["--goals", "fewest"], "possible values: normal, misere"),
        (
            vec!["--rule-sets", "othello"],
            "possible values: full, simple",
        ),
        (
            vec!["--placements", "x"],
            "possible values: standard, anywhere",
        ),
        (vec!["--limit", "3q"], "unknown time unit"),
        (vec!["--limit", "3y"], "from 1ms to a day"),
        (vec!["--limit", "30"], "write 30s for seconds"),
        (vec!["--rules", "simple"], "not --rules or --place-anywhere"),
        (vec!["--place-anywhere"], "not --rules or --place-anywhere"),
        (vec!["--hash-mb", "0"], "hash"),
    ] {
        let output = othello().arg("perfect-play").args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        // As clap renders it: the error, then the pointer to --help.
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains("try '--help'"), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn limits_and_board_lists() {
    assert_eq!(othello::durations::text(Duration::from_secs(3600)), "1h");
    assert_eq!(othello::durations::text(Duration::from_secs(600)), "10m");
    assert_eq!(othello::durations::text(Duration::from_secs(90)), "90s");
    assert_eq!(
        othello::durations::text(Duration::from_millis(1500)),
        "1500ms"
    );
    let boards: Vec<String> = boards_up_to(36).iter().map(|b| b.to_string()).collect();
    assert_eq!(
        boards.join(" "),
        "3x3 3x4 3x5 4x4 3x6 4x5 3x7 3x8 4x6 5x5 3x9 4x7 3x10 5x6 4x8 3x11 5x7 3x12 4x9 6x6"
    );
}

#[test]
fn the_published_table_is_the_cache_listed() {
    // docs/perfect-play.md is what this command prints, then notes written by hand; every
    // solved line of the cache is replayed as it is read, and the journals of the entries not
    // solved give what their runs proved.
    let cache = concat!(env!("CARGO_MANIFEST_DIR"), "/data/perfect-play-cache.txt");
    let doc = include_str!("../docs/perfect-play.md");
    let notes = doc.find("\n## How the hard entries were solved\n").unwrap();
    let table = &doc[..notes];
    let output = othello()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["perfect-play", "--max-cells", "36", "--cache"])
        .arg("data/perfect-play-cache.txt")
        .args(["--journals", "data/perfect-play-journals", "--from-cache"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{cache}: {output:?}");
    assert_eq!(String::from_utf8(output.stdout).unwrap(), table);
}

#[test]
fn with_journals_an_unsolved_entry_goes_on_and_counts_its_runs() {
    let cache = temp_file("perfect-play-journal-cache.txt");
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-play-journals");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let journal = folder.join("3x3-full-normal-anywhere.txt");
    // An earlier run stopped at its limit of 2 s.
    std::fs::write(
        &cache,
        "3x3 full normal anywhere unsolved limit=2s nodes=5 seconds=2.000\n",
    )
    .unwrap();
    std::fs::write(
        &journal,
        "board 3x3 full normal anywhere\nrun nodes=5 seconds=2.000 stopped\n",
    )
    .unwrap();
    let mut args = anywhere_entries("3x3", "1s", cache.to_str().unwrap());
    args.extend(["--journals", folder.to_str().unwrap()]);
    // Less time than before, but the journal carries the entry on: it is tried again.
    let (text, log) = perfect_play_command(&args);
    assert!(
        log.contains("3x3 full, place-anywhere: solving (1s)"),
        "{log}"
    );
    assert!(log.contains(" over 2 runs"), "{log}");
    let table = rows(&text);
    assert_eq!(table[0][4], "-1", "{text}");
    assert!(table[0][8].ends_with(" (2 runs)"), "{text}");
    let nodes: u64 = table[0][7].replace(',', "").parse().unwrap();
    let cached = std::fs::read_to_string(&cache).unwrap();
    let last = cached.lines().last().unwrap();
    assert!(
        last.starts_with("3x3 full normal anywhere solved "),
        "{cached}"
    );
    assert!(
        last.ends_with(" earlier-runs=1 earlier-nodes=5 earlier-seconds=2.000"),
        "{cached}"
    );
    assert!(last.contains(&format!(" nodes={} ", nodes - 5)), "{cached}");
    let kept = std::fs::read_to_string(&journal).unwrap();
    let runs: Vec<&str> = kept.lines().filter(|l| l.starts_with("run ")).collect();
    assert_eq!(runs.len(), 2, "{kept}");
    assert!(
        runs[1].starts_with(&format!("run nodes={} ", nodes - 5)),
        "{kept}"
    );
    assert!(runs[1].ends_with(" solved"), "{kept}");
    // Read back, the entry keeps its runs.
    args.push("--from-cache");
    args.retain(|a| *a != "--journals" && *a != folder.to_str().unwrap());
    let (listed, _) = perfect_play_command(&args);
    assert_eq!(rows(&listed)[0][7..], table[0][7..]);
}

/// Runs the command on `cache` (3x3 standard entries); returns the status and stderr.
fn on_cache(cache: &std::path::Path, extra: &[&str]) -> (Option<i32>, String) {
    let output = othello()
        .args(["perfect-play", "--threads", "1", "--boards", "3x3"])
        .args(["--placements", "standard", "--cache"])
        .arg(cache)
        .args(extra)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_cache_whose_best_moves_are_not_legal_is_an_error() {
    let cache = temp_file("perfect-play-best.txt");
    let line = "3x3 full normal standard solved black=0 white=9 empty=0 best=BEST \
                line=c2c1pab3paa3pac3 nodes=72 seconds=0.000";
    for (best, message) in [
        ("a1,b3,c2", "best=a1: not a legal first move"),
        ("z9", "best=z9"),
        ("b3,b3,c2", "best=b3: listed twice"),
        ("b3", "the line's first move c2 is not among best="),
    ] {
        let text = format!("{}\n", line.replace("BEST", best));
        std::fs::write(&cache, &text).unwrap();
        for extra in [&[][..], &["--from-cache"][..]] {
            let (status, stderr) = on_cache(&cache, extra);
            assert_eq!(status, Some(1), "{best}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{best}: {stderr}");
            assert!(stderr.contains("line 1: "), "{best}: {stderr}");
            assert!(stderr.contains(message), "{best}: {stderr}");
            assert_eq!(std::fs::read_to_string(&cache).unwrap(), text);
        }
    }
}

#[test]
fn a_file_that_is_not_a_cache_is_left_as_it_is() {
    let cache = temp_file("perfect-play-not-a-cache.txt");
    // No newline at the end: its one line would be taken as cut short by a stopped run.
    for text in [
        "my notes",
        "# my notes\nmore notes",
        "\n3x3 full normal standard sol",
    ] {
        std::fs::write(&cache, text).unwrap();
        let (status, stderr) = on_cache(&cache, &[]);
        assert_eq!(status, Some(1), "{text:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("is not a perfect-play cache"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&cache).unwrap(), text);
    }
}

#[test]
fn seconds_past_any_run_are_refused_and_totals_do_not_overflow() {
    let cache = temp_file("perfect-play-seconds.txt");
    let solved = "3x3 full normal standard solved black=0 white=9 empty=0 best=b3,c2 \
                  line=c2c1pab3paa3pac3";
    for (fields, message) in [
        (
            "nodes=72 seconds=1e19 earlier-runs=1 earlier-nodes=1 earlier-seconds=1e19",
            "seconds=1e19 is not a number of seconds from 0 to 1000000000",
        ),
        ("nodes=72 seconds=inf", "seconds=inf"),
    ] {
        std::fs::write(&cache, format!("{solved} {fields}\n")).unwrap();
        let (status, stderr) = on_cache(&cache, &["--from-cache"]);
        assert_eq!(status, Some(1), "{fields}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
    // Counts that each fit but add up past 2^64 nodes are listed, not wrapped to a small count.
    let most = u64::MAX;
    std::fs::write(
        &cache,
        format!(
            "{solved} nodes={most} seconds=1e9 earlier-runs=4294967295 earlier-nodes={most} \
             earlier-seconds=1e9\n"
        ),
    )
    .unwrap();
    let output = othello()
        .args(["perfect-play", "--boards", "3x3", "--rule-sets", "full"])
        .args(["--goals", "normal", "--placements", "standard"])
        .args(["--from-cache", "--cache"])
        .arg(&cache)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("| 18,446,744,073,709,551,615 |"), "{text}");
}

/// A SIMPLE place-anywhere solve of 22 empty cells values every set of them first, one node a
/// set: the 2^31 and 2^32 nodes of the table's 31- and 32-cell entries are such counts, not a
/// counter that wrapped.
#[test]
fn the_sets_of_empty_cells_count_as_nodes() {
    let output = othello()
        .args(["solve", "--position", "(b ------ --wb-- ------ ------)"])
        .args(["--rules", "simple", "--place-anywhere", "--threads", "1"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let nodes: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!((1 << 22..(1 << 22) + 1000).contains(&nodes), "{text}");
}

#[test]
fn a_cache_that_is_a_journal_is_refused() {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfect-play-cache-journal");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let journal = folder.join("3x3-full-normal-standard.txt");
    let text = "board 3x3 full normal standard\n";
    std::fs::write(&journal, text).unwrap();
    let (status, stderr) = on_cache(&journal, &["--journals", folder.to_str().unwrap()]);
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("is the journal of 3x3 full: give the cache another name"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), text);
}
