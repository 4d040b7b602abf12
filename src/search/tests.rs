use super::*;
use crate::rules::{Color, Variant};

fn engine<B: Bits>(rows: usize, cols: usize, variant: Variant, config: Config) -> Engine<B> {
    Engine::new(Rules::new(rows, cols, variant).unwrap(), config)
}

fn depth(d: u32) -> Config {
    Config {
        depth: Some(d),
        move_time: None,
        ..Config::default()
    }
}

#[test]
fn four_by_four_start_is_a_white_win_by_eleven_to_three() {
    let mut e = engine::<u64>(4, 4, Variant::default(), depth(20));
    let start = e.rules().start(Color::Black, Color::White);
    let solved = e.solve_exact(&start, true);
    // Black to move loses 3-11.
    assert_eq!(solved.score, 3 - 11);
    assert!(solved.moves.iter().all(|&(_, s)| s <= -8));
    let report = e.search(&start);
    assert!(report.exact);
    assert_eq!(report.score, -8 * DISC);
}
