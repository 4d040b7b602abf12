//! The referee: games between two programs under the tournament rules (`othello match`, move
//! triples or an engine protocol), and between two players in this process (`othello selfplay`).
//! An illegal move, an illegal pass, a malformed line, a crash or a late move loses the game on
//! the spot; every game's processes are ended and reaped before the next one starts. A program
//! that cannot be run at all is an error of the match, not a game lost.

mod child;
mod selfplay;
mod sides;

pub use child::{at_stop, end_contestants_on_signals};
pub use selfplay::{default_opening_plies, selfplay, MoveTimes, Series, Tally};
pub use sides::{Forfeit, Protocol, Reason, SideSpec};

use crate::files::AtomicFile;
use crate::notation::MoveList;
use crate::progress::Progress;
use crate::rules::{Bits, Color, Game, IllegalMove, Move, Passes, Setup, Winner};
use crate::wording::Counted;
use sides::{Contestant, StartError};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// A side whose program could not be run (the shell could not find or execute it, or no
/// process could be started): the match stops with this error.
#[derive(Debug)]
pub struct CannotStart {
    pub name: String,
    pub command: String,
    pub why: String,
}

impl std::fmt::Display for CannotStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "side {} cannot start {:?}: {}",
            self.name, self.command, self.why
        )
    }
}

impl std::error::Error for CannotStart {}

/// The games file of a match, written whole or not at all: the lines go to a temporary file
/// beside it, renamed over it when the match ends ([`GamesFile::commit`]) or a signal stops
/// it, so that neither a crash nor a stop leaves half a file or loses the file it replaces.
#[derive(Clone)]
pub struct GamesFile {
    file: Arc<Mutex<Option<AtomicFile>>>,
    written: Arc<AtomicBool>,
}

impl GamesFile {
    /// Starts the replacement of `path`, committed by a signal's stop too when a game was
    /// written; needs [`end_contestants_on_signals`] for that.
    pub fn create(path: &Path) -> io::Result<GamesFile> {
        let games = GamesFile {
            file: Arc::new(Mutex::new(Some(AtomicFile::create(path)?))),
            written: Arc::new(AtomicBool::new(false)),
        };
        let on_stop = games.clone();
        at_stop(move || {
            if on_stop.written() {
                let _ = on_stop.commit();
            } else {
                on_stop.discard();
            }
        });
        Ok(games)
    }

    /// Whether anything was written: a match stopped before its first game leaves the old file.
    pub fn written(&self) -> bool {
        self.written.load(Ordering::SeqCst)
    }

    /// Leaves the file as it was, and removes what was written; later writes go nowhere.
    pub fn discard(&self) {
        drop(self.file.lock().ok().and_then(|mut f| f.take()));
    }

    /// Renames what was written over the file; later writes go nowhere.
    pub fn commit(&self) -> io::Result<()> {
        let file = self.file.lock().ok().and_then(|mut f| f.take());
        file.map_or(Ok(()), AtomicFile::commit)
    }
}

impl Write for GamesFile {
    /// Writes `buf` whole under the lock, so that a stop commits only whole writes.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut file = self
            .file
            .lock()
            .map_err(|_| io::Error::other("the games file was poisoned"))?;
        if let Some(f) = file.as_mut() {
            f.write_all(buf)?;
            self.written.store(true, Ordering::SeqCst);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.lock() {
            Ok(mut file) => file.as_mut().map_or(Ok(()), Write::flush),
            Err(_) => Ok(()),
        }
    }
}

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
pub struct GameResult {
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

impl GameResult {
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
pub fn play_game(m: &Match, index: usize) -> Result<GameResult, CannotStart> {
    crate::with_bits!(m.setup.shape, |B| play_game_in::<B>(m, index))
}

fn play_game_in<B: Bits>(m: &Match, index: usize) -> Result<GameResult, CannotStart> {
    let cannot_start = |side: usize, why: String| CannotStart {
        name: m.sides[side].name.clone(),
        command: m.sides[side].command.clone(),
        why,
    };
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
    let mut record = GameResult {
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
            Err(StartError::Forfeit(f)) => {
                record.forfeit = Some((side, f));
                contestants.push(None);
                break;
            }
            Err(StartError::CannotStart(why)) => {
                for c in contestants.into_iter().flatten() {
                    c.end();
                }
                return Err(cannot_start(side, why));
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
    // A side that never ran lost no game: the match cannot be played.
    let mut never_ran = None;
    for (side, c) in contestants.into_iter().enumerate() {
        if let Some(why) = c.and_then(Contestant::end) {
            never_ran.get_or_insert(cannot_start(side, why));
        }
    }
    if let Some(e) = never_ran {
        return Err(e);
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
    Ok(record)
}

/// Totals over a match, per side.
#[derive(Clone, Debug, Default)]
pub struct SideTotals {
    pub games: usize,
    pub wins: [usize; 2],
    pub draws: usize,
    pub discs: [u64; 2],
    pub forfeits: [BTreeMap<Reason, usize>; 2],
    pub moves_made: [usize; 2],
    pub time_used: [Duration; 2],
    pub longest: [Duration; 2],
}

impl SideTotals {
    pub fn add(&mut self, g: &GameResult) {
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
/// game's record on `games_out`; the games played and the wins on `progress`. A side that cannot start stops
/// the match with [`CannotStart`] once the games before it are out.
pub fn run_match(
    m: &Match,
    out: &mut dyn Write,
    mut games_out: Option<&mut dyn Write>,
    progress: &Progress,
) -> anyhow::Result<SideTotals> {
    let names = [m.sides[0].name.clone(), m.sides[1].name.clone()];
    let mut totals = SideTotals::default();
    writeln!(
        out,
        "{:>4}  {:<8} {:<8} {:<10} {:>7}  {:<24} detail",
        "game", "first", "second", "winner", "discs", "opening"
    )?;
    bar(progress, &totals, &names);
    // Games run on `jobs` threads; their lines come out in game order all the same.
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (sender, records) = mpsc::channel();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..m.jobs.clamp(1, m.games.max(1)) {
            let sender = sender.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= m.games || failed.load(Ordering::SeqCst) {
                    break;
                }
                let game = play_game(m, index);
                failed.fetch_or(game.is_err(), Ordering::SeqCst);
                if sender.send((index, game)).is_err() {
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
                let g = g?;
                totals.add(&g);
                // The record first: a game shown on stdout is one a stop keeps.
                if let Some(w) = games_out.as_deref_mut() {
                    // One write per line, so that a stop keeps whole lines only.
                    w.write_all(format!("{}\n", g.line(&names)).as_bytes())?;
                    w.flush()?;
                }
                progress.suspend(|| game_line(out, printed, &g, &names))?;
                bar(progress, &totals, &names);
                printed += 1;
            }
        }
        Ok(())
    })?;
    progress.finish();
    table(out, m, &totals)?;
    Ok(totals)
}

fn game_line(
    out: &mut dyn Write,
    index: usize,
    g: &GameResult,
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

/// The games played and each side's wins so far.
fn bar(progress: &Progress, t: &SideTotals, names: &[String; 2]) {
    progress.set(
        t.games as u64,
        format!(
            "{} {}  {} {}  draws {}",
            names[0], t.wins[0], names[1], t.wins[1], t.draws
        ),
    );
}

fn table(out: &mut dyn Write, m: &Match, t: &SideTotals) -> io::Result<()> {
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
        "time used: {} {:.1}s over {}, {} {:.1}s over {}",
        m.sides[0].name,
        t.time_used[0].as_secs_f64(),
        Counted(t.moves_made[0], "move"),
        m.sides[1].name,
        t.time_used[1].as_secs_f64(),
        Counted(t.moves_made[1], "move")
    )?;
    Ok(())
}
