use super::*;

/// The game of a session on a board of at most 64 cells.
fn game_of(s: &Session) -> &crate::rules::Game<u64> {
    match &s.table {
        crate::rules::AnyWidth::W64(t) => t.game(),
        _ => panic!("a small board"),
    }
}
use crate::rules::{Color, Square};

const START: &str = "---------------------------O*------*O---------------------------";

fn session(depth: u32) -> Session {
    Session::new(Settings {
        variant: Variant::default(),
        book: None,
        config: Config::to_depth(depth),
    })
}

/// What the session writes for `lines`: (output, notes).
fn feed(s: &mut Session, lines: &[&str]) -> (String, String) {
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    for line in lines {
        s.handle(line, &mut out, &mut notes).unwrap();
    }
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(notes).unwrap(),
    )
}

#[test]
fn reads_commands() {
    assert_eq!(parse("  "), Ok(None));
    assert_eq!(parse("nboard 2"), Ok(Some(Command::NBoard(2))));
    assert_eq!(parse("set depth 12"), Ok(Some(Command::SetDepth(12))));
    assert_eq!(parse("set contempt -3.5"), Ok(Some(Command::SetContempt)));
    assert_eq!(
        parse("move F5/-1.25/3.0"),
        Ok(Some(Command::Move(Move::Play(Square::new(4, 5)))))
    );
    assert_eq!(parse("move pa"), Ok(Some(Command::Move(Move::Pass))));
    assert_eq!(parse("hint 4"), Ok(Some(Command::Hint(4))));
    assert_eq!(parse("ping 17"), Ok(Some(Command::Ping("17".into()))));
    assert!(matches!(
        parse("set game (;BO[8];)"),
        Err(NBoardError::Game(_))
    ));
    assert!(matches!(parse("analyze"), Err(NBoardError::Unsupported(_))));
    assert!(matches!(parse("hint -1"), Err(NBoardError::Argument(..))));
}

#[test]
fn evaluations_are_discs_with_two_decimals() {
    assert_eq!(eval_text(0), "0.00");
    assert_eq!(eval_text(-5), "-0.05");
    assert_eq!(eval_text(1234), "12.34");
    assert_eq!(eval_text(-6400), "-64.00");
}

#[test]
fn go_answers_without_moving_and_move_plays() {
    let mut s = session(3);
    let game = format!("set game (;GM[Othello]BO[8 {START} *]B[f5]W[f6];)");
    let (out, notes) = feed(&mut s, &["nboard 2", &game, "go"]);
    assert_eq!(notes, "");
    assert!(out.starts_with("set myname othello\nstatus thinking\nnodestats "));
    assert!(out.contains("\n=== "));
    assert_eq!(game_of(&s).moves().len(), 2, "go does not play");
    feed(&mut s, &["move e6"]);
    assert_eq!(game_of(&s).moves().len(), 3);
    assert_eq!(game_of(&s).to_move(), Some(Color::White));
    let (_, notes) = feed(&mut s, &["move a1"]);
    assert!(
        notes.contains("a1 is not a legal move for white"),
        "{notes}"
    );
    assert_eq!(game_of(&s).moves().len(), 3);
}

#[test]
fn hint_lists_the_best_moves_best_first() {
    let mut s = session(2);
    let (out, _) = feed(
        &mut s,
        &[&format!("set game (;BO[8 {START} *];)"), "hint 4"],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&"status thinking"));
    assert_eq!(lines.last(), Some(&"status"));
    // The four first moves are symmetrical: all four, with equal evaluations.
    let evals: Vec<&str> = lines[1..5]
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert!(evals.iter().all(|e| *e == evals[0]), "{out}");
    assert_eq!(lines.len(), 6);
}

#[test]
fn a_move_after_a_missing_pass_passes_first() {
    let mut s = session(2);
    // 4x4: black has no move after white's b4; the GUI sends white's d3 without a pass.
    let game = "set game (;BO[4 ---- -O*- -*O- ---- *]B[b1]W[a1]B[a2]W[c1]B[d1]W[a3]B[c4]W[d4]B[a4]W[b4];)";
    let (_, notes) = feed(&mut s, &[game, "move D3"]);
    assert_eq!(notes, "");
    assert_eq!(game_of(&s).moves().len(), 12, "a pass and d3");
    assert!(game_of(&s).is_over());
    let (out, _) = feed(&mut s, &["go"]);
    assert!(out.contains("=== PA/-12.00/"), "{out}");
}

#[test]
fn a_bad_game_leaves_the_old_one() {
    let mut s = session(1);
    feed(&mut s, &[&format!("set game (;BO[8 {START} *]B[f5];)")]);
    let (_, notes) = feed(&mut s, &[&format!("set game (;BO[8 {START} *]B[a1];)")]);
    assert!(notes.contains("move 1: a1 is not a legal move for black"));
    assert_eq!(game_of(&s).moves().len(), 1);
}

/// A move and its evaluation, as NBoard writes them.
type Said = (String, String);

/// Every `search` line's move and evaluation, and `go`'s.
fn hints_and_go(out: &str) -> (Vec<Said>, Option<Said>) {
    let hints = out
        .lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("search ")?.split(' ');
            let pv = w.next()?;
            Some((pv[..2].to_string(), w.next()?.to_string()))
        })
        .collect();
    let go = out.lines().find_map(|l| {
        let mut parts = l.strip_prefix("=== ")?.split('/');
        Some((parts.next()?.to_string(), parts.next()?.to_string()))
    });
    (hints, go)
}

/// At equal depth `go` plays a move `hint` ranks first, with the same evaluation,
/// whichever comes first, with several threads searching (helpers once searched past the depth
/// asked for, leaving deeper values in the shared table: after f5 at depth 4, `hint 2` ranked
/// F6 first and `go` then played D6).
#[test]
fn hint_and_go_agree_at_equal_depth() {
    for moves in [
        "B[f5]",
        "B[f5]W[d6]",
        "B[f5]W[f6]B[e6]",
        "B[f5]W[f4]B[e3]W[f6]",
    ] {
        for depth in 3..=5 {
            for order in [["hint 3", "go"], ["go", "hint 2"]] {
                let mut s = Session::new(Settings {
                    variant: Variant::default(),
                    book: None,
                    config: Config::to_depth(depth).with_threads(4),
                });
                let game = format!("set game (;GM[Othello]BO[8 {START} *]{moves};)");
                let (out, _) = feed(&mut s, &[&game, order[0], order[1]]);
                let (hints, go) = hints_and_go(&out);
                let go = go.expect("go answers");
                let best = &hints.first().expect("hint answers").1;
                // Moves of equal value may be ranked in either order, so `go` names one of
                // the moves `hint` gives the best evaluation, and that evaluation.
                let tied: Vec<&Said> = hints.iter().filter(|(_, v)| v == best).collect();
                assert!(
                    tied.contains(&&go),
                    "{moves} at depth {depth}, {order:?}:\n{out}"
                );
            }
        }
    }
}

/// A forced move is searched: its evaluation is the real one, not 0.00 at depth 0. In this
/// 4x4 game Black's only move, a2, ends it lost by 8.
#[test]
fn a_forced_move_has_a_true_evaluation() {
    let mut s = Session::new(Settings {
        variant: Variant::default(),
        book: None,
        config: Config::default(),
    });
    let game = "set game (;BO[4 ---- -O*- -*O- ---- *]B[b1]W[a1]B[c4]W[d4]B[d3]W[b4]B[a4]W[c1]B[d1]W[d2]B[pa]W[a3];)";
    let (out, notes) = feed(&mut s, &[game, "go", "hint 3"]);
    assert_eq!(notes, "");
    assert!(out.contains("=== A2/-8.00/"), "{out}");
    assert!(out.contains("search A2 -8.00 0 100%"), "{out}");
}

#[test]
fn a_game_clock_is_charged_by_go_and_kept_while_the_game_goes_on() {
    let clock: crate::search::time::TimeControl = "3s".parse().unwrap();
    let mut s = Session::new(Settings {
        variant: Variant::default(),
        book: None,
        config: Config {
            clock: Some(clock),
            move_time: None,
            ..Config::default()
        },
    });
    let full = Some(clock.main);
    let game = format!("set game (;GM[Othello]BO[8 {START} *]B[f5]W[f6];)");
    let (out, notes) = feed(&mut s, &["nboard 2", &game, "go"]);
    assert_eq!(notes, "");
    assert!(out.contains("\n=== "), "{out}");
    let black = s.time_left(Color::Black).unwrap();
    assert!(black < clock.main, "go is charged to the side to move");
    assert!(
        black > clock.main / 2,
        "one move takes a small share: {black:?}"
    );
    assert_eq!(s.time_left(Color::White), full);
    // A hint has the move's budget (no other limit here) and costs the clock nothing.
    let (out, _) = feed(&mut s, &["hint 2"]);
    assert!(out.ends_with("status\n"), "{out}");
    assert_eq!(s.time_left(Color::Black), Some(black));
    // The GUI plays the move and sends the game again, longer: the same game, the same clocks.
    feed(&mut s, &["move e6"]);
    let longer = format!("set game (;GM[Othello]BO[8 {START} *]B[f5]W[f6]B[e6];)");
    feed(&mut s, &[&longer, "go"]);
    assert_eq!(s.time_left(Color::Black), Some(black));
    assert!(s.time_left(Color::White).unwrap() < clock.main);
    // A move taken back is still this game.
    feed(&mut s, &[&game]);
    assert_eq!(s.time_left(Color::Black), Some(black));
    // Another game starts new clocks.
    let other = format!("set game (;GM[Othello]BO[8 {START} *]B[d3];)");
    feed(&mut s, &[&other]);
    assert_eq!(s.time_left(Color::Black), full);
    assert_eq!(s.time_left(Color::White), full);
}
