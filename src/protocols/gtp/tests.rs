use super::*;
use crate::rules::{AnyWidth, Position};

/// The table of a session on a board of at most 64 cells.
fn table(s: &mut Session) -> &mut EngineGame<u64> {
    match &mut s.table {
        AnyWidth::W64(t) => t,
        _ => panic!("a small board"),
    }
}

fn score(s: &mut Session) -> (u32, u32) {
    let score = table(s).game().score();
    (score.black, score.white)
}

/// The time limit of `color`'s next move, and its target where that differs.
fn budget(s: &mut Session, color: Color) -> Option<Duration> {
    targets(s, color).map(|b| b.limit)
}

fn targets(s: &mut Session, color: Color) -> Option<crate::search::time::Budget> {
    let t = match &s.table {
        AnyWidth::W64(t) => t,
        _ => panic!("a small board"),
    };
    s.clocks.budget(t, color)
}

fn session(depth: u32) -> Session {
    Session::new(Settings {
        variant: Variant::default(),
        book: None,
        clock_cap: None,
        config: Config::to_depth(depth),
    })
}

/// The reply to `line`, as it is written.
fn ask(s: &mut Session, line: &str) -> String {
    s.handle(&parse(line).expect("a command")).to_string()
}

#[test]
fn reads_ids_comments_and_arguments() {
    assert_eq!(parse("   "), None);
    assert_eq!(parse("# only a comment"), None);
    let r = parse("12 genmove B # why").unwrap();
    assert_eq!(
        (r.id, r.command),
        (Some(12), Ok(Command::GenMove(Color::Black)))
    );
    let r = parse("play\tWhite\tD3\r").unwrap();
    let d3 = Move::Play(Square::new(2, 3));
    assert_eq!(r.command, Ok(Command::Play(Color::White, d3)));
    assert_eq!(
        parse("play w PASS").unwrap().command,
        Ok(Command::Play(Color::White, Move::Pass))
    );
    assert_eq!(parse("7").unwrap().command, Err(CommandError::Syntax));
    let huge = parse("99999999999999999999999 name").unwrap();
    assert_eq!((huge.id, huge.command), (None, Err(CommandError::Unknown)));
    for bad in [
        "play b",
        "play b d3 x",
        "play red d3",
        "play b a0",
        "boardsize",
        "komi x",
    ] {
        assert_eq!(
            parse(bad).unwrap().command,
            Err(CommandError::Syntax),
            "{bad}"
        );
    }
}

#[test]
fn replies_carry_the_id_and_end_with_a_blank_line() {
    let mut s = session(2);
    assert_eq!(ask(&mut s, "5 name"), "=5 othello\n\n");
    assert_eq!(ask(&mut s, "clear_board"), "=\n\n");
    assert_eq!(ask(&mut s, "9 undo"), "?9 cannot undo\n\n");
    assert_eq!(ask(&mut s, "3 nonsense"), "?3 unknown command\n\n");
}

#[test]
fn genmove_plays_its_move_and_either_colour_may_play() {
    let mut s = session(2);
    assert_eq!(ask(&mut s, "play white e3"), "=\n\n");
    assert_eq!(table(&mut s).game().to_move(), Some(Color::Black));
    assert_eq!(score(&mut s), (1, 4));
    let reply = ask(&mut s, "genmove black");
    let square = reply[2..].trim().parse::<crate::rules::Square>().unwrap();
    assert_eq!(table(&mut s).game().disc(square), Some(Color::Black));
    assert_eq!(table(&mut s).game().moves().len(), 2);
    let suggestion = ask(&mut s, "reg_genmove white");
    assert!(suggestion[2..]
        .trim()
        .parse::<crate::rules::Square>()
        .is_ok());
    assert_eq!(
        table(&mut s).game().moves().len(),
        2,
        "reg_genmove does not play"
    );
    assert_eq!(ask(&mut s, "play black pass"), "? illegal move\n\n");
}

#[test]
fn final_score_names_the_winner_or_a_draw() {
    let mut s = session(2);
    assert_eq!(ask(&mut s, "final_score"), "? cannot score\n\n");
    // 3x3, full: five black, four white; then the same with colours swapped; then a draw with
    // one empty cell (4-4).
    ask(&mut s, "boardsize 3");
    let b = Some(Color::Black);
    let w = Some(Color::White);
    let cells = [b, b, b, b, b, w, w, w, w];
    let load = |s: &mut Session, cells: &[Option<Color>]| {
        let position = Position::from_cells(cells.iter().copied(), Color::Black);
        table(s).load(position, &[]).unwrap();
    };
    load(&mut s, &cells);
    assert_eq!(ask(&mut s, "final_score"), "= B+1\n\n");
    let swapped: Vec<_> = cells.iter().map(|c| c.map(Color::opposite)).collect();
    load(&mut s, &swapped);
    assert_eq!(ask(&mut s, "final_score"), "= W+1\n\n");
    let draw = [b, b, b, b, None, w, w, w, w];
    load(&mut s, &draw);
    assert!(table(&mut s).game().is_over());
    assert_eq!(ask(&mut s, "final_score"), "= 0\n\n");
    assert_eq!(ask(&mut s, "genmove white"), "= pass\n\n");
}

#[test]
fn the_clock_shares_time_over_the_moves_left() {
    let mut s = session(2);
    assert_eq!(
        budget(&mut s, Color::Black),
        None,
        "no time settings: no clock"
    );
    ask(&mut s, "time_settings 60 0 0");
    // Main time: the clock's budget (57 s in hand over 22 moves that need thought).
    let main = targets(&mut s, Color::Black).unwrap();
    assert_eq!(main.target, Duration::from_secs(57) / 22);
    assert_eq!(main.limit, main.target * 4);
    // Byo-yomi: 2 s a move, less a tenth.
    ask(&mut s, "time_left white 10 5");
    assert_eq!(
        budget(&mut s, Color::White),
        Some(Duration::from_millis(1800))
    );
    ask(&mut s, "time_left white 0 0");
    assert_eq!(budget(&mut s, Color::White), Some(Duration::from_millis(1)));
    // Byo-yomi: the period's stones start again once played.
    ask(&mut s, "time_settings 0 10 2");
    ask(&mut s, "time_left black 4 2");
    assert_eq!(
        budget(&mut s, Color::Black),
        Some(Duration::from_millis(1800))
    );
    s.clocks.charge(Color::Black, Duration::from_secs(1));
    s.clocks.charge(Color::Black, Duration::from_secs(1));
    assert_eq!(s.clocks.clocks[0].stones, 2);
    assert_eq!(s.clocks.clocks[0].left, Duration::from_secs(10));
    // Byo-yomi time without stones: no limit.
    ask(&mut s, "time_settings 0 1 0");
    assert_eq!(budget(&mut s, Color::Black), None);
}

#[test]
fn showboard_draws_any_size() {
    let mut s = session(1);
    ask(&mut s, "boardsize 26");
    let board = ask(&mut s, "showboard");
    assert!(board.starts_with("= black (X) 2, white (O) 2, black to move\n"));
    assert!(board.contains("\n 26 . . ."));
    assert!(board.contains("\n 13 . . . . . . . . . . . . O X"));
    assert!(board.ends_with("\n\n"));
    assert!(
        !board.trim_end().contains("\n\n"),
        "no blank line inside a reply"
    );
}

#[test]
fn run_stops_after_quit_and_survives_bad_bytes() {
    let input: &[u8] = b"name\n\xff\xfe\n1 quit\nname\n";
    let mut out = Vec::new();
    run(
        Settings {
            variant: Variant::default(),
            book: None,
            clock_cap: None,
            config: Config::default(),
        },
        input,
        &mut out,
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        out,
        "= othello\n\n? syntax error: a line that is not UTF-8 text\n\n=1\n\n"
    );
}
