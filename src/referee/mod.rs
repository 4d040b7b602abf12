//! `othello match`: a referee that runs games between two programs under the tournament rules (move triples).
//! An illegal move, an illegal pass, a malformed line, a crash or a late move loses the game on
//! the spot; every game's processes are ended and reaped before the next one starts.

mod child;
mod sides;

pub use child::end_contestants_on_signals;
pub use sides::{Forfeit, Protocol, Reason, SideSpec};

use crate::notation::MoveList;
use crate::rules::{Bits, Color, Game, IllegalMove, Move, Passes, Setup, Winner};
use sides::Contestant;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// A match: two contestants, how many games, on what board, from which openings.
pub struct Match {
    pub sides: [SideSpec; 2],
    pub games: usize,
    pub setup: Setup,
    /// Opening lines; each is played twice, colours swapped. Empty: every game from the start.
    pub openings: Vec<Vec<Move>>,
    /// Games played at the same time (each on its own thread and processes).
    pub jobs: usize,
}

/// How one game ended.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Which side (0 = A, 1 = B) moved first (standard Black, the triples' White).
    pub first: usize,
    pub opening: String,
    /// Every move, opening included, with its mover.
    pub moves: Vec<(Color, Move)>,
    /// Discs of the first and second mover when the game ended.
    pub discs: [u32; 2],
    /// The winning side (0 = A, 1 = B), or `None` for a draw.
    pub winner: Option<usize>,
    /// The side that lost on the spot, and why.
    pub forfeit: Option<(usize, Forfeit)>,
    /// Per side: moves made and time taken (the opening not included).
    pub moves_made: [usize; 2],
    pub time_used: [Duration; 2],
    pub longest: [Duration; 2],
}

impl GameRecord {
    /// The game in standard notation (`f5d6c3...`, `pa` for a pass).
    pub fn move_text(&self) -> String {
        MoveList(self.moves.iter().map(|&(_, m)| m).collect()).to_string()
    }

    /// One line: the moves, the sides in order of play, the discs, and a forfeit if any.
    pub fn line(&self, names: &[String; 2]) -> String {
        let mut line = format!(
            "{} {}-{} {}-{}",
            self.move_text(),
            names[self.first],
            names[1 - self.first],
            self.discs[0],
            self.discs[1]
        );
        if let Some((side, f)) = &self.forfeit {
            line.push_str(&format!(" forfeit:{}:{}", names[*side], f.reason));
        }
        line
    }
}

/// Plays game number `index` (from 0) of the match.
pub fn play_game(m: &Match, index: usize) -> GameRecord {
    crate::with_bits!(m.setup.shape, |B| play_game_in::<B>(m, index))
}

fn play_game_in<B: Bits>(m: &Match, index: usize) -> GameRecord {
    let first = index % 2;
    let opening = if m.openings.is_empty() {
        &[][..]
    } else {
        &m.openings[(index / 2) % m.openings.len()][..]
    };
    let side_of = |c: Color| match c {
        Color::Black => first,
        Color::White => 1 - first,
    };
    let color_of = |side: usize| {
        if side == first {
            Color::Black
        } else {
            Color::White
        }
    };
    let mut record = GameRecord {
        first,
        opening: String::new(),
        moves: Vec::new(),
        discs: [0, 0],
        winner: None,
        forfeit: None,
        moves_made: [0, 0],
        time_used: [Duration::ZERO; 2],
        longest: [Duration::ZERO; 2],
    };
    let mut game = Game::<B>::new(&m.setup, Passes::Explicit).expect("with_bits! fits the board");
    for &played in opening {
        // Openings are checked when they are read; one that does not fit this board ends here.
        if game.play_listed(played).is_err() {
            break;
        }
    }
    // A pass the line leaves out is implied, and recorded.
    record.moves = game.record().collect();
    record.opening = record.move_text();

    let mut contestants: Vec<Option<Contestant>> = Vec::new();
    for side in 0..2 {
        match Contestant::start(
            &m.sides[side],
            m.setup.shape,
            &record.moves,
            color_of(side),
            &record.opening,
        ) {
            Ok(c) => contestants.push(Some(c)),
            Err(f) => {
                record.forfeit = Some((side, f));
                contestants.push(None);
                break;
            }
        }
    }

    // Clocks start once both sides are ready.
    for c in contestants.iter_mut().flatten() {
        c.start_clock();
    }
    while record.forfeit.is_none() {
        let Some(mover) = game.to_move() else { break };
        let side = side_of(mover);
        let must_pass = game.must_pass();
        let contestant = contestants[side].as_mut().expect("both started");
        let (played, took) = match contestant.ask(must_pass) {
            Ok(answer) => answer,
            Err(f) => {
                record.forfeit = Some((side, f));
                break;
            }
        };
        record.moves_made[side] += 1;
        record.time_used[side] += took;
        record.longest[side] = record.longest[side].max(took);
        if let Err(e) = game.try_play(played) {
            let reason = match e {
                IllegalMove::PassWithMoves(_) => Reason::IllegalPass,
                _ => Reason::IllegalMove,
            };
            let shown = match played {
                Move::Play(square) => square.to_string(),
                Move::Pass => "a pass".to_string(),
            };
            record.forfeit = Some((side, Forfeit::new(reason, format!("{shown}: {e}"))));
            break;
        }
        record.moves.push((mover, played));
        // The last move reaches the other side too, so it sees the game end.
        let over = game.is_over();
        if let Err(f) = contestants[1 - side]
            .as_mut()
            .expect("both started")
            .tell(mover, played)
        {
            if !over {
                record.forfeit = Some((1 - side, f));
            }
        }
    }
    for c in contestants.into_iter().flatten() {
        c.end();
    }

    let score = game.score();
    record.discs = [score.black, score.white];
    record.winner = match &record.forfeit {
        Some((side, _)) => Some(1 - side),
        None => match game.winner() {
            Some(Winner::Black) => Some(first),
            Some(Winner::White) => Some(1 - first),
            _ => None,
        },
    };
    record
}

/// Totals over a match, per side.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub games: usize,
    pub wins: [usize; 2],
    pub draws: usize,
    pub discs: [u64; 2],
    pub forfeits: [BTreeMap<Reason, usize>; 2],
    pub moves_made: [usize; 2],
    pub time_used: [Duration; 2],
    pub longest: [Duration; 2],
}

impl Totals {
    pub fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        match g.winner {
            Some(w) => self.wins[w] += 1,
            None => self.draws += 1,
        }
        self.discs[g.first] += u64::from(g.discs[0]);
        self.discs[1 - g.first] += u64::from(g.discs[1]);
        if let Some((side, f)) = &g.forfeit {
            *self.forfeits[*side].entry(f.reason).or_default() += 1;
        }
        for s in 0..2 {
            self.moves_made[s] += g.moves_made[s];
            self.time_used[s] += g.time_used[s];
            self.longest[s] = self.longest[s].max(g.longest[s]);
        }
    }

    /// A's score: a win is 1, a draw a half.
    pub fn score(&self, side: usize) -> f64 {
        self.wins[side] as f64 + self.draws as f64 / 2.0
    }
}

/// Runs the match: one line per game on `out` as it ends, then the results table; every
/// game's record on `games_out`; a progress bar on `progress`.
pub fn run_match(
    m: &Match,
    out: &mut dyn Write,
    mut games_out: Option<&mut dyn Write>,
    mut progress: Option<&mut dyn Write>,
) -> io::Result<Totals> {
    let names = [m.sides[0].name.clone(), m.sides[1].name.clone()];
    let mut totals = Totals::default();
    writeln!(
        out,
        "{:>4}  {:<8} {:<8} {:<10} {:>7}  {:<24} detail",
        "game", "first", "second", "winner", "discs", "opening"
    )?;
    if let Some(p) = progress.as_deref_mut() {
        bar(p, &totals, m.games, &names)?;
    }
    // Games run on `jobs` threads; their lines come out in game order all the same.
    let next = AtomicUsize::new(0);
    let (sender, records) = mpsc::channel();
    std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..m.jobs.clamp(1, m.games.max(1)) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= m.games || sender.send((index, play_game(m, index))).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (index, g) in records {
            waiting.insert(index, g);
            while let Some(g) = waiting.remove(&printed) {
                totals.add(&g);
                game_line(out, printed, &g, &names)?;
                if let Some(w) = games_out.as_deref_mut() {
                    writeln!(w, "{}", g.line(&names))?;
                    w.flush()?;
                }
                if let Some(p) = progress.as_deref_mut() {
                    bar(p, &totals, m.games, &names)?;
                }
                printed += 1;
            }
        }
        Ok(())
    })?;
    if let Some(p) = progress {
        writeln!(p)?;
    }
    table(out, m, &totals)?;
    Ok(totals)
}

fn game_line(
    out: &mut dyn Write,
    index: usize,
    g: &GameRecord,
    names: &[String; 2],
) -> io::Result<()> {
    let winner = g.winner.map_or("draw", |w| names[w].as_str());
    let detail = g.forfeit.as_ref().map_or(String::new(), |(side, f)| {
        format!("{} loses: {}: {}", names[*side], f.reason, f.detail)
    });
    let opening = if g.opening.is_empty() {
        "-"
    } else {
        &g.opening
    };
    writeln!(
        out,
        "{:>4}  {:<8} {:<8} {:<10} {:>7}  {:<24} {}",
        index + 1,
        names[g.first],
        names[1 - g.first],
        winner,
        format!("{}-{}", g.discs[0], g.discs[1]),
        opening,
        detail
    )?;
    out.flush()
}

fn bar(out: &mut dyn Write, t: &Totals, games: usize, names: &[String; 2]) -> io::Result<()> {
    const WIDTH: usize = 30;
    let done = t.games * WIDTH / games.max(1);
    write!(
        out,
        "\r[{}{}] {}/{} games  {} {}  {} {}  draws {}",
        "#".repeat(done),
        "-".repeat(WIDTH - done),
        t.games,
        games,
        names[0],
        t.wins[0],
        names[1],
        t.wins[1],
        t.draws
    )?;
    out.flush()
}

fn table(out: &mut dyn Write, m: &Match, t: &Totals) -> io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{:<8} {:>5} {:>6} {:>5} {:>6} {:>6} {:>9} {:>10} {:>10}  program",
        "side", "wins", "losses", "draws", "score", "discs", "forfeits", "mean move", "longest"
    )?;
    for s in 0..2 {
        let forfeits: usize = t.forfeits[s].values().sum();
        let mean = if t.moves_made[s] == 0 {
            Duration::ZERO
        } else {
            t.time_used[s] / t.moves_made[s] as u32
        };
        writeln!(
            out,
            "{:<8} {:>5} {:>6} {:>5} {:>6.1} {:>6} {:>9} {:>8.1}ms {:>8.1}ms  {} ({})",
            m.sides[s].name,
            t.wins[s],
            t.wins[1 - s],
            t.draws,
            t.score(s),
            t.discs[s],
            forfeits,
            mean.as_secs_f64() * 1e3,
            t.longest[s].as_secs_f64() * 1e3,
            m.sides[s].command,
            m.sides[s].protocol,
        )?;
    }
    for s in 0..2 {
        if t.forfeits[s].is_empty() {
            continue;
        }
        let reasons: Vec<String> = Reason::ALL
            .iter()
            .filter_map(|r| t.forfeits[s].get(r).map(|n| format!("{r} {n}")))
            .collect();
        writeln!(
            out,
            "forfeits by {}: {}",
            m.sides[s].name,
            reasons.join(", ")
        )?;
    }
    writeln!(
        out,
        "time used: {} {:.1}s over {} moves, {} {:.1}s over {} moves",
        m.sides[0].name,
        t.time_used[0].as_secs_f64(),
        t.moves_made[0],
        m.sides[1].name,
        t.time_used[1].as_secs_f64(),
        t.moves_made[1]
    )?;
    Ok(())
}
