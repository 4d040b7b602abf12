//! `othello analyze`: golden reviews of small games (`tests/analyze/NAME.args`, as for
//! `show`; `tests/analyze/README.md` says what each shows), and on 8x8 the two checks of a
//! review's values: a perfect-play line loses nothing once it is solved, and a blunder loses
//! what the solver says it does.

mod golden;

use assert_cmd::Command;
use othello::rules::{Move, Rules, Shape, Variant};
use othello::search::{Config, Engine, RootMoves};
use std::path::Path;
use std::time::Duration;

/// One line of perfect play of 8x8, a draw (Takizawa's solution; `tests/data/README.md`).
const PERFECT_LINE: &str = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2\
g3h4f1e1f2g1b1f8g8b3h3b2h5b7a3a4a1a2c1h2h1g2b8a8g7h8h7h6";

#[test]
fn analyze_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/analyze");
    golden::check_all(&golden::cases("analyze", "args", 10), |case| {
        golden::check_args_case("analyze", case, Some(&dir), Duration::from_secs(60))
    });
}

/// The review as JSON objects, one a move.
fn review(args: &[&str]) -> Vec<serde_json::Value> {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .arg("analyze")
        .args(["--threads", "1", "--json"])
        .args(args)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Every move of the perfect-play line from 22 empty cells on (ply 39) is exact and loses
/// nothing.
#[test]
fn a_perfect_line_loses_nothing_once_solved() {
    let moves = review(&[
        "--exact-empties",
        "22",
        "--depth",
        "1",
        "--moves",
        PERFECT_LINE,
    ]);
    assert_eq!(moves.len(), 60);
    for m in &moves[38..] {
        assert_eq!(m["exact"], true, "{m}");
        assert_eq!(m["loss"], 0, "{m}");
        assert_eq!(m["value"], 0, "{m}");
    }
}

/// The perfect line to 14 empty cells, then Black's worst move there: the review's loss is
/// the solver's difference between the best move and that one.
#[test]
fn a_blunder_loses_what_the_solver_says() {
    let list: othello::notation::MoveList = PERFECT_LINE.parse().unwrap();
    let rules = Rules::<u64>::new(Shape::STANDARD, Variant::default()).unwrap();
    let mut game = othello::rules::Game::from_position(
        rules.clone(),
        rules.start(othello::rules::Color::Black, othello::rules::Color::White),
        othello::rules::Passes::Automatic,
    );
    for &m in &list.0[..46] {
        game.play_listed(m).unwrap();
    }
    let mut engine = Engine::new(rules.clone(), Config::default());
    let solved = engine.solve_root(game.position(), RootMoves::All);
    let (worst, worst_value) = *solved.moves.last().unwrap();
    let loss = solved.score - worst_value;
    assert!(loss > 0, "{solved:?}");
    let blunder = Move::Play(rules.geometry.square(worst));
    let moves = format!(
        "{}{blunder}",
        othello::notation::MoveList(list.0[..46].to_vec())
    );
    let reviewed = review(&["--exact-empties", "14", "--depth", "1", "--moves", &moves]);
    let last = reviewed.last().unwrap();
    assert_eq!(last["ply"], 47, "{last}");
    assert_eq!(last["move"], blunder.to_string(), "{last}");
    assert_eq!(last["exact"], true, "{last}");
    assert_eq!(last["loss"], loss, "{last}");
    assert_eq!(last["best_value"], solved.score, "{last}");
}

/// The review at depth `depth` of `moves`, without the book, as JSON rows.
fn searched(moves: &str, depth: u32) -> Vec<serde_json::Value> {
    let depth = depth.to_string();
    review(&["--no-book", "--moves", moves, "--depth", &depth])
}

/// Every move of a position is valued alike (each position after a move searched to one
/// depth), so a row never contradicts itself: where the move played is the best, or its
/// image, its value is the best value, and no move is worth more than the best. Once the best
/// value came from a search of the position and the move's from a search of the next one,
/// one move shallower, and depth parity showed through (`f5 f5 +1.17 -1.23` at depth 1).
#[test]
fn a_review_never_contradicts_itself_at_any_depth() {
    for depth in 1..=6 {
        let rows = searched("f5d6c3d3c4", depth);
        assert_eq!(rows.len(), 5);
        // The four first moves are images of one another: none loses anything.
        assert_eq!(rows[0]["loss"], 0.0, "depth {depth}: {}", rows[0]);
        for row in &rows {
            let (value, best) = (row["value"].as_f64(), row["best_value"].as_f64());
            assert!(value <= best, "depth {depth}: {row}");
            if row["move"] == row["best"] {
                assert_eq!(value, best, "depth {depth}: {row}");
            } else {
                assert!(row["loss"].as_f64() > Some(0.0), "depth {depth}: {row}");
                assert!(!row["line"].as_array().unwrap().is_empty(), "{row}");
            }
            assert_eq!(row["source"], "search", "{row}");
            assert_eq!(row["depth"], depth, "{row}");
        }
    }
}

/// Moves that are images of one another under the board's symmetries are valued as one:
/// each first move of 8x8 is worth what the others are, and the score for Black after it is
/// that value.
#[test]
fn images_of_a_move_have_one_value() {
    let first: Vec<serde_json::Value> = ["f5", "d3", "c4", "e6"]
        .iter()
        .map(|m| searched(m, 5).remove(0))
        .collect();
    for row in &first {
        assert_eq!(row["value"], first[0]["value"], "{first:?}");
        assert_eq!(row["black"], row["value"], "{row}");
        assert_eq!(row["loss"], 0.0, "{row}");
    }
}

/// `--plot FILE` draws the score for Black after every move reviewed as an SVG image, written
/// whole (through a temporary file), each mistake and blunder marked; the table ends with the
/// same score as a chart of text.
#[test]
fn a_plot_draws_the_score_of_every_move() {
    let dir = std::env::temp_dir().join(format!("othello-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.svg");
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["analyze", "--rows", "4", "--cols", "4", "--threads", "1"])
        .args(["--moves", "b1a1c4d4d3b4a4c1d1d2a3a2"])
        .arg("--plot")
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("Score for Black (a column a move):"),
        "{text}"
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    // The score's line has a point a move reviewed (12), and the sample game has a blunder
    // and two mistakes.
    let longest = svg
        .split("<polyline")
        .skip(1)
        .map(|p| {
            p.split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .map(|points| points.split_whitespace().count())
        .max();
    assert_eq!(longest, Some(12), "{svg}");
    assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "only the image: {leftovers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Records as GGS's public archive gives them (`tests/analyze/ggs_archive.ggf`: the first game
/// of its `Othello.01e4.ggf`, with `pass` spelt out and evaluations and times on the moves; a
/// 2009 synchro match line from a random start, `TY[s8r18]`, with `PA`): every
/// game is read, replayed legally to its end, and ends with the result its `RE` gives (Black's
/// margin, empty cells to the winner as GGS counts them).
#[test]
fn real_ggs_records_replay_to_their_results() {
    use othello::notation::GameRecord;
    use othello::rules::{Color, Game, Passes};
    use othello::start::Start;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/analyze/ggs_archive.ggf");
    let text = std::fs::read_to_string(path).unwrap();
    let records = GameRecord::parse_all(&text).unwrap();
    assert_eq!(records.len(), 3);
    for (i, record) in records.iter().enumerate() {
        let position = record.position.clone().expect("GGF gives its board");
        let start = Start::Position(position, Variant::default());
        let (rules, pos) = start.rules_and_position::<u64>().unwrap();
        let mut game = Game::from_position(rules.clone(), pos, Passes::Automatic);
        for (n, &m) in record.moves.0.iter().enumerate() {
            game.play_listed(m)
                .unwrap_or_else(|e| panic!("game {}, move {} ({m}): {e}", i + 1, n + 1));
        }
        assert!(game.is_over(), "game {}", i + 1);
        let end = game.position();
        let margin = rules.margin(end, Color::Black);
        let empty = rules.empty(end).count_ones() as i32;
        let counted = margin + margin.signum() * empty;
        let re: f64 = record.property("RE").unwrap().parse().unwrap();
        assert_eq!(counted, re as i32, "game {}", i + 1);
    }
}
