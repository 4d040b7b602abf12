//! `othello selfplay`: a series of games between two players, colours alternating, each random
//! opening played twice so that neither side gets the better half of the openings.

use crate::players::BookUse;
use crate::players::PlayerSpec;
use crate::progress::Progress;
use crate::random::splitmix;
use crate::rules::{Bits, Color, Game, Move, Passes, Setup, Shape, Winner};
use crate::wording::Counted;
use std::io::Write;
use std::time::{Duration, Instant};

/// What to play.
#[derive(Clone, Debug)]
pub struct Series {
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub games: usize,
    /// The board and variant; `first` and `top_left` fix the start position.
    pub setup: Setup,
    /// Random plies played before the players take over.
    pub opening_plies: usize,
    pub seed: u64,
    /// The opening book the engine players play from where it has the position.
    pub book: Option<BookUse>,
}

/// Per-player move statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    pub moves: usize,
    pub total: Duration,
    pub longest: Duration,
    /// Moves that took longer than the player's time limit plus 5 ms.
    pub late: usize,
    /// Moves that needed thought (see [`crate::players::Player::settled`]), and their time.
    pub open: usize,
    pub open_total: Duration,
}

/// The result of a series, from A's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: usize,
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    /// Sum over games of A's discs less B's.
    pub disc_difference: i64,
    pub a_times: MoveTimes,
    pub b_times: MoveTimes,
}

impl Tally {
    /// Wins plus half the draws, as a fraction of the games.
    pub fn a_score(&self) -> f64 {
        (self.a_wins as f64 + self.draws as f64 / 2.0) / self.games.max(1) as f64
    }
}

/// The default number of random opening plies: more on bigger boards, none on the smallest.
pub fn default_opening_plies(shape: Shape) -> usize {
    (shape.cells() / 16).min(8)
}

/// Plays the series. `progress` shows the games played and the results so far.
pub fn selfplay(
    series: &Series,
    out: &mut dyn Write,
    progress: &Progress,
) -> anyhow::Result<Tally> {
    crate::with_bits!(series.setup.shape, |B| selfplay_in::<B>(
        series, out, progress
    ))
}

fn selfplay_in<B: Bits>(
    series: &Series,
    out: &mut dyn Write,
    progress: &Progress,
) -> anyhow::Result<Tally> {
    let setup = &series.setup;
    writeln!(
        out,
        "# selfplay {}, {}: a = {}, b = {}, {}, {} random opening {}, seed {}",
        setup.shape,
        setup.variant,
        series.a,
        series.b,
        Counted(series.games, "game"),
        series.opening_plies,
        if series.opening_plies == 1 {
            "ply"
        } else {
            "plies"
        },
        series.seed
    )?;
    writeln!(out, "# game a-colour result black white opening")?;
    let mut tally = Tally::default();
    let limit = |spec: &PlayerSpec| match spec {
        PlayerSpec::Engine(c) => c.move_time,
        _ => None,
    };
    let (a_limit, b_limit) = (limit(&series.a), limit(&series.b));
    for g in 0..series.games {
        // Games 2k and 2k+1 share an opening, with the colours swapped.
        let mut opening_rng = series.seed ^ (g as u64 / 2).wrapping_mul(0x9E37_79B9);
        let a_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let seed = series.seed.wrapping_add(g as u64);
        let mut game = Game::<B>::new(setup, Passes::Automatic)?;
        let mut a = series
            .a
            .build(game.rules().clone(), seed, series.book.as_ref());
        let mut b = series
            .b
            .build(game.rules().clone(), seed ^ 0x5555, series.book.as_ref());
        let mut opening = Vec::new();
        for _ in 0..series.opening_plies {
            let moves: Vec<usize> = game.legal_moves().iter().collect();
            if moves.is_empty() {
                break;
            }
            let m = moves[(splitmix(&mut opening_rng) % moves.len() as u64) as usize];
            let square = game.rules().geometry.square(m);
            game.try_play(Move::Play(square))?;
            opening.push(square.to_string());
        }
        while let Some(color) = game.to_move() {
            let (player, times, limit) = if color == a_color {
                (&mut a, &mut tally.a_times, a_limit)
            } else {
                (&mut b, &mut tally.b_times, b_limit)
            };
            let clock = Instant::now();
            let choice = player.choose(&game);
            let took = clock.elapsed();
            times.moves += 1;
            times.total += took;
            times.longest = times.longest.max(took);
            if limit.is_some_and(|l| took > l + Duration::from_millis(5)) {
                times.late += 1;
            }
            if !player.settled() {
                times.open += 1;
                times.open_total += took;
            }
            let played = choice.ok_or_else(|| anyhow::anyhow!("a player found no move"))?;
            game.try_play(played)
                .map_err(|e| anyhow::anyhow!("a player chose an illegal move: {e}"))?;
        }
        let score = game.score();
        let (black, white) = (score.black, score.white);
        let winner = game.winner().unwrap_or(Winner::Tie);
        let (a_discs, b_discs) = match a_color {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        tally.games += 1;
        tally.disc_difference += a_discs as i64 - b_discs as i64;
        let result = match winner.color() {
            None => {
                tally.draws += 1;
                "draw"
            }
            Some(c) if c == a_color => {
                tally.a_wins += 1;
                "a"
            }
            Some(_) => {
                tally.b_wins += 1;
                "b"
            }
        };
        progress.suspend(|| {
            writeln!(
                out,
                "{} {} {result} {black} {white} {}",
                g + 1,
                a_color.letter(),
                opening.join("")
            )
        })?;
        progress.set(
            g as u64 + 1,
            format!(
                "a {}  b {}  draws {}",
                tally.a_wins, tally.b_wins, tally.draws
            ),
        );
    }
    progress.finish();
    write_summary(&tally, out)?;
    Ok(tally)
}

fn write_summary(t: &Tally, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "# a wins {}, b wins {}, draws {} of {}: a scores {:.1}%, average disc difference (a - b) {:+.2}",
        t.a_wins,
        t.b_wins,
        t.draws,
        Counted(t.games, "game"),
        100.0 * t.a_score(),
        t.disc_difference as f64 / t.games.max(1) as f64
    )?;
    for (name, m) in [("a", &t.a_times), ("b", &t.b_times)] {
        let mean =
            |total: Duration, moves: usize| total.as_secs_f64() * 1000.0 / moves.max(1) as f64;
        writeln!(
            out,
            "# {name}: {}, mean {:.2} ms, longest {:.2} ms, {} over the limit + 5 ms; \
             {} not forced or solved, mean {:.2} ms",
            Counted(m.moves, "move"),
            mean(m.total, m.moves),
            m.longest.as_secs_f64() * 1000.0,
            m.late,
            m.open,
            mean(m.open_total, m.open),
        )?;
    }
    Ok(())
}
