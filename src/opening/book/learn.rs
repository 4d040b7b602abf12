//! Growing a book by self-play, after Edax's "deviate": from the learning root, every book
//! position within `deviation` plies whose best move out of the book (its leaf) is within
//! `margin` discs of its value gets that move played, and a line of best moves follows to
//! where values are exact, each new position searched (`depth`) or solved (`exact_empties`).
//! Each line is a game: its end's result counts in the games of every position above it.
//!
//! Learning goes in rounds: the lines to play are found on the book as it is, played on every
//! core against that same book, and added in the order they were found, so a round does not
//! depend on the threads. A run stops between rounds (a resumed run then makes the same book
//! as one run), or mid-round at a signal, keeping the lines finished: the searches under way
//! stop at once, and what they had found is dropped.

use super::{add_link, Book, BookPosition, Frame, Leaf, Level};
use crate::progress::Progress;
use crate::rules::{Bits, Game, Move, Passes, Position, Rules};
use crate::search::{Config, Engine, RootMoves, DISC};
use crate::wording::Counted;
use crate::{interrupt::Interrupt, start::BadPosition};
use std::collections::{HashSet, VecDeque};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most lines of one round: a round's work is saved only at its end.
pub const ROUND_LINES: usize = 64;

/// How `learn` grows the book.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// Moves near the best are explored at positions fewer than this many plies from the root.
    pub deviation: u32,
    /// How near, in discs.
    pub margin: i32,
    /// Positions with this many empty cells or fewer are solved; lines end there.
    pub exact_empties: u32,
    /// Stop after the round in which this many games have been played (none: when nothing
    /// is left to explore).
    pub games: Option<u64>,
    /// Positions searched at once, each by a searcher of its own.
    pub threads: usize,
    /// Each searcher's search, which values new positions: its depth, its table (one a
    /// searcher) and its evaluation. It searches on one thread: the book grows by searching
    /// several positions at once.
    pub search: Config,
    /// The book is saved after a round once this long has passed since the last save.
    pub save_every: Duration,
}

/// What a run of `learn` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnReport {
    /// Lines played this run.
    pub games: u64,
    /// Positions added this run.
    pub added: usize,
    /// Positions in the book now.
    pub positions: usize,
    /// Whether nothing is left to explore under these options.
    pub done: bool,
    /// The signal that stopped the run, if one did.
    pub stopped: Option<i32>,
}

/// Grows `book` from its start after `moves` (which are added to it), calling `save` after a
/// round now and then and once at the end. A move of `moves` that is not legal is a
/// [`BadPosition`].
pub fn learn(
    book: &mut Book,
    moves: &[Move],
    options: &LearnOptions,
    interrupt: &Interrupt,
    progress: &Progress,
    save: &mut dyn FnMut(&Book) -> std::io::Result<()>,
) -> anyhow::Result<LearnReport> {
    crate::with_bits!(book.header.shape, |B| learn_in::<B>(
        book, moves, options, interrupt, progress, save
    ))
}

/// The searches of one thread.
struct Searcher<B> {
    engine: Engine<B>,
    exact_empties: u32,
    /// Set when a signal stopped the engine's search: what it returned is not a value.
    halted: Arc<AtomicBool>,
}

/// A search stopped by a signal before it finished.
struct Halted;

impl<B: Bits> Searcher<B> {
    /// A searcher whose searches stop as soon as `interrupt` is raised: the engine asks its
    /// observer every million nodes or so, a fraction of a second.
    fn new(engine: Engine<B>, exact_empties: u32, interrupt: &Interrupt) -> Searcher<B> {
        let halted = Arc::new(AtomicBool::new(false));
        let mut searcher = Searcher {
            engine,
            exact_empties,
            halted: Arc::clone(&halted),
        };
        let interrupt = interrupt.clone();
        searcher.engine.observe(Some(Box::new(move |_| {
            if interrupt.signal().is_some() {
                halted.store(true, Relaxed);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })));
        searcher
    }

    /// Whether the last search was stopped by a signal.
    fn check(&self) -> Result<(), Halted> {
        match self.halted.swap(false, Relaxed) {
            true => Err(Halted),
            false => Ok(()),
        }
    }

    /// The exact value of `pos`, and its best move.
    fn solve(&mut self, pos: &Position<B>) -> Result<(Option<usize>, i32), Halted> {
        self.engine.clear();
        let solved = self.engine.solve_root_within(pos, RootMoves::Best, None);
        self.check()?;
        let solved = solved.ok_or(Halted)?;
        Ok((solved.best, solved.score))
    }

    /// The best move of `pos` (in the book's frame) other than those of `excluded`, with its
    /// value: solved near the end, searched before (`None` where there is no such move). Each
    /// search starts from an empty table, so that its result depends on nothing else.
    fn leaf(
        &mut self,
        frame: &Frame<B>,
        pos: &Position<B>,
        excluded: B,
    ) -> Result<Option<Leaf>, Halted> {
        let rules = &frame.rules;
        // A move whose position is an image of an excluded one's is that move again.
        let excluded = excluded | frame.images_of(pos, excluded);
        let among = rules.moves(pos) & !excluded;
        let Some(first) = among.lowest() else {
            return Ok(None);
        };
        self.engine.clear();
        if rules.empty(pos).count() <= self.exact_empties {
            if excluded.is_empty() {
                let (best, score) = self.solve(pos)?;
                return Ok(Some(Leaf {
                    cell: best.unwrap_or(first) as u16,
                    value: score as i16,
                    level: Level::Exact,
                }));
            }
            // A solve takes every move: the moves left are solved one by one.
            let mut best: Option<Leaf> = None;
            for m in among.iter() {
                let (child, passed) = frame.child(pos, m);
                let value = if rules.is_over(&child) {
                    frame.margin(&child)
                } else {
                    self.solve(&child)?.1 as i16
                };
                let value = if passed { value } else { -value };
                if best.is_none_or(|b| value > b.value) {
                    best = Some(Leaf {
                        cell: m as u16,
                        value,
                        level: Level::Exact,
                    });
                }
            }
            return Ok(best);
        }
        let report = self.engine.search_among(pos, among);
        self.check()?;
        let cell = report.best.unwrap_or(first) as u16;
        Ok(Some(if report.exact {
            Leaf {
                cell,
                value: (report.score / DISC) as i16,
                level: Level::Exact,
            }
        } else {
            Leaf {
                cell,
                value: (report.score as f64 / DISC as f64).round() as i16,
                level: Level::Depth(report.depth.min(254) as u8),
            }
        }))
    }

    /// A line from the book position `from` through its leaf, then best moves to where the
    /// values are exact or the line meets the book.
    fn line(&mut self, frame: &Frame<B>, book: &Book, from: &[u8]) -> Result<Line, Halted> {
        let mut line = Line::default();
        let (Some(mut parent), Some(leaf)) =
            (frame.position(from), book.entry(from).and_then(|e| e.leaf))
        else {
            return Ok(line);
        };
        let mut parent_key = from.to_vec();
        let mut cell = leaf.cell;
        loop {
            line.edges.push((parent_key, cell));
            let (child, _) = frame.child(&parent, cell as usize);
            let key = frame.canonical(&child).0;
            if book.entry(&key).is_some() || line.entries.iter().any(|(k, _)| *k == key) {
                break;
            }
            let Some(pos) = frame.position(&key) else {
                break;
            };
            if frame.rules.is_over(&pos) {
                line.entries
                    .push((key, BookPosition::finished(frame.margin(&pos))));
                break;
            }
            let Some(leaf) = self.leaf(frame, &pos, B::ZERO)? else {
                break;
            };
            line.entries
                .push((key.clone(), BookPosition::from_leaf(leaf)));
            if leaf.level == Level::Exact {
                break;
            }
            (parent, parent_key, cell) = (pos, key, leaf.cell);
        }
        Ok(line)
    }
}

/// What a line found: new positions, and the moves it played (position key, cell).
#[derive(Default)]
struct Line {
    entries: Vec<(Vec<u8>, BookPosition)>,
    edges: Vec<(Vec<u8>, u16)>,
}

/// Runs `work` on each item on every searcher's thread; an item not started before a signal
/// comes back `None`.
fn on_every_core<B: Bits, T: Sync, R: Send>(
    searchers: &mut [Searcher<B>],
    items: &[T],
    interrupt: &Interrupt,
    work: impl Fn(&mut Searcher<B>, &T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for searcher in searchers.iter_mut() {
            let (next, results, work) = (&next, &results, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Relaxed);
                if i >= items.len() || interrupt.signal().is_some() {
                    break;
                }
                let r = work(searcher, &items[i]);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// A searcher a thread, as `options` asks.
fn searchers<B: Bits>(
    rules: &Rules<B>,
    options: &LearnOptions,
    interrupt: &Interrupt,
) -> Vec<Searcher<B>> {
    (0..options.threads.max(1))
        .map(|_| {
            let engine = Engine::new(rules.clone(), options.search.clone());
            Searcher::new(engine, options.exact_empties, interrupt)
        })
        .collect()
}

/// The positions of the game of `moves` from `start`, the start first; where a move is not
/// legal, which one and why.
fn path_of<B: Bits>(
    rules: &Rules<B>,
    start: Position<B>,
    moves: &[Move],
) -> Result<Vec<Position<B>>, String> {
    let mut game = Game::from_position(rules.clone(), start, Passes::Automatic);
    let mut path = vec![*game.position()];
    for (i, &m) in moves.iter().enumerate() {
        game.play_listed(m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        path.push(*game.position());
    }
    Ok(path)
}

/// The cell played from `pos` to `next`, in the frame of `pos`'s key (symmetry `s`).
fn played<B: Bits>(
    frame: &Frame<B>,
    s: usize,
    pos: &Position<B>,
    next: &Position<B>,
) -> Option<u16> {
    let cell = (next.occupied() & !pos.occupied()).lowest()?;
    Some(frame.key_cell(s, cell) as u16)
}

fn learn_in<B: Bits>(
    book: &mut Book,
    moves: &[Move],
    options: &LearnOptions,
    interrupt: &Interrupt,
    progress: &Progress,
    save: &mut dyn FnMut(&Book) -> std::io::Result<()>,
) -> anyhow::Result<LearnReport> {
    let rules = Rules::<B>::new(book.header.shape, book.header.variant)?;
    let frame = Frame::new(rules.clone());
    let mut searchers = searchers(&rules, options, interrupt);
    let before = book.len();
    // The line of `moves`, each position in the book and linked to the next.
    let path = path_of(&rules, book.start(&frame), moves).map_err(BadPosition)?;
    for (i, pos) in path.iter().enumerate() {
        let (key, s) = frame.canonical(pos);
        if book.entry(&key).is_none() {
            let Some(keyed) = frame.position(&key) else {
                continue;
            };
            let entry = match searchers[0].leaf(&frame, &keyed, B::ZERO) {
                _ if rules.is_over(&keyed) => BookPosition::finished(frame.margin(&keyed)),
                Ok(Some(leaf)) => BookPosition::from_leaf(leaf),
                Ok(None) | Err(Halted) => continue,
            };
            book.insert(key.clone(), entry);
        }
        if let Some(cell) = path
            .get(i + 1)
            .and_then(|next| played(&frame, s, pos, next))
        {
            add_link(book, &frame, &key, cell);
        }
    }
    research(book, &frame, &mut searchers, interrupt);
    book.fix_in(&frame);
    let root = frame.canonical(path.last().expect("the start")).0;

    let started = Instant::now();
    let mut saved = Instant::now();
    let mut games = 0u64;
    let mut done = false;
    let mut round = 0;
    while interrupt.signal().is_none() && options.games.is_none_or(|g| games < g) {
        let todo = deviations(book, &frame, &root, options);
        if todo.is_empty() {
            done = true;
            break;
        }
        round += 1;
        let finished = AtomicUsize::new(0);
        let (positions, total) = (book.len(), todo.len());
        let snapshot: &Book = book;
        let lines = on_every_core(&mut searchers, &todo, interrupt, |s, from| {
            let line = s.line(&frame, snapshot, from);
            let n = finished.fetch_add(1, Relaxed) + 1;
            progress.message(format!(
                "book learn: round {round}, line {n}/{total}; {}, {}, {:.0} s",
                Counted(games + n as u64, "game"),
                Counted(positions, "position"),
                started.elapsed().as_secs_f64()
            ));
            line.ok()
        });
        // A line whose search a signal stopped is dropped whole.
        let lines: Vec<Line> = lines.into_iter().flatten().flatten().collect();
        games += lines.len() as u64;
        merge(book, &frame, lines.into_iter());
        research(book, &frame, &mut searchers, interrupt);
        book.fix_in(&frame);
        if saved.elapsed() >= options.save_every {
            progress.suspend(|| save(book))?;
            saved = Instant::now();
        }
    }
    progress.suspend(|| save(book))?;
    Ok(LearnReport {
        games,
        added: book.len() - before,
        positions: book.len(),
        done,
        stopped: interrupt.signal(),
    })
}

/// The book positions whose leaf is to be played next, in the order a breadth-first walk
/// from `root` meets them: fewer than `deviation` plies from it, through moves within
/// `margin` of the best, with a leaf within `margin` too. At most [`ROUND_LINES`].
fn deviations<B: Bits>(
    book: &Book,
    frame: &Frame<B>,
    root: &[u8],
    options: &LearnOptions,
) -> Vec<Vec<u8>> {
    let mut todo = Vec::new();
    let mut seen: HashSet<Vec<u8>> = HashSet::from([root.to_vec()]);
    let mut queue = VecDeque::from([(root.to_vec(), 0u32)]);
    while let Some((key, ply)) = queue.pop_front() {
        if ply >= options.deviation {
            continue;
        }
        let (Some(entry), Some(pos)) = (book.entry(&key), frame.position(&key)) else {
            continue;
        };
        let near = |value: i16| entry.value as i32 - value as i32 <= options.margin;
        if entry
            .leaf
            .is_some_and(|l| near(l.value) && !entry.links_cell(l.cell))
        {
            todo.push(key.clone());
            if todo.len() >= ROUND_LINES {
                break;
            }
        }
        for link in entry.links.iter().filter(|l| near(l.value)) {
            let child = frame.canonical(&frame.child(&pos, link.cell as usize).0).0;
            if seen.insert(child.clone()) {
                queue.push_back((child, ply + 1));
            }
        }
    }
    todo
}

/// Adds the lines' positions and moves to the book, in order (a position two lines found is
/// the first's), and links each new position to the book's positions its moves reach.
fn merge<B: Bits>(book: &mut Book, frame: &Frame<B>, lines: impl Iterator<Item = Line>) {
    let mut added = Vec::new();
    for line in lines {
        for (key, entry) in line.entries {
            if book.entry(&key).is_none() {
                book.insert(key.clone(), entry);
                added.push(key);
            }
        }
        for (key, cell) in line.edges {
            add_link(book, frame, &key, cell);
        }
    }
    link_added(book, frame, added);
}

/// Links each of the positions `added` to the book's positions its moves reach.
fn link_added<B: Bits>(book: &mut Book, frame: &Frame<B>, added: Vec<Vec<u8>>) {
    for key in added {
        let Some(pos) = frame.position(&key) else {
            continue;
        };
        for m in frame.rules.moves(&pos).iter() {
            let child = frame.canonical(&frame.child(&pos, m).0).0;
            if book.entry(&child).is_some() {
                add_link(book, frame, &key, m as u16);
            }
        }
    }
}

/// Searches again, on every core, the leaf of every position whose leaf has become a link
/// (or is the image of one): the best move among those still out of the book. A run stopped before that leaves them
/// for the next (which begins here).
fn research<B: Bits>(
    book: &mut Book,
    frame: &Frame<B>,
    searchers: &mut [Searcher<B>],
    interrupt: &Interrupt,
) {
    let doubled = |key: &[u8], e: &BookPosition| {
        let Some(pos) = frame.position(key) else {
            return false;
        };
        e.leaf.is_some() && frame.open_leaf(&pos, e.leaf, e.linked()).is_none()
    };
    let mut keys: Vec<Vec<u8>> = book
        .entries()
        .filter(|(k, e)| doubled(k, e))
        .map(|(k, _)| k.to_vec())
        .collect();
    keys.sort_unstable();
    let snapshot: &Book = book;
    let leaves = on_every_core(searchers, &keys, interrupt, |s, key| {
        let pos = frame.position(key)?;
        let excluded = snapshot.entry(key)?.linked::<B>();
        s.leaf(frame, &pos, excluded).ok()
    });
    for (key, leaf) in keys.iter().zip(leaves) {
        if let (Some(Some(leaf)), Some(entry)) = (leaf, book.entry_mut(key)) {
            entry.leaf = leaf;
        }
    }
}

/// What a run of [`add_games`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddReport {
    /// Games read.
    pub games: usize,
    /// Positions added.
    pub added: usize,
    /// Positions in the book now.
    pub positions: usize,
    /// The signal that stopped the run, if one did.
    pub stopped: Option<i32>,
}

/// Adds the positions of `games` (each a list of moves from the book's start) to the book,
/// each linked to the next, as Edax's `book add` does: a game is followed to its end, to the
/// first position with `options.exact_empties` empty cells or fewer (solved), or to `plies`
/// moves. New positions are valued as `learn` values them, on every core, and the negamax
/// is redone. A move that is not legal is a [`BadPosition`] naming its game, before any
/// search. A signal stops the searches: the positions valued by then are kept, and the same
/// command adds the rest.
pub fn add_games(
    book: &mut Book,
    games: &[Vec<Move>],
    plies: Option<u32>,
    options: &LearnOptions,
    interrupt: &Interrupt,
    progress: &Progress,
) -> anyhow::Result<AddReport> {
    crate::with_bits!(book.header.shape, |B| add_games_in::<B>(
        book, games, plies, options, interrupt, progress
    ))
}

fn add_games_in<B: Bits>(
    book: &mut Book,
    games: &[Vec<Move>],
    plies: Option<u32>,
    options: &LearnOptions,
    interrupt: &Interrupt,
    progress: &Progress,
) -> anyhow::Result<AddReport> {
    let rules = Rules::<B>::new(book.header.shape, book.header.variant)?;
    let frame = Frame::new(rules.clone());
    let before = book.len();
    // Every game is played through first, so that a bad one changes nothing.
    let mut fresh: Vec<Vec<u8>> = Vec::new();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut edges: Vec<(Vec<u8>, u16)> = Vec::new();
    for (g, moves) in games.iter().enumerate() {
        let path = path_of(&rules, book.start(&frame), moves)
            .map_err(|e| BadPosition(format!("game {}, {e}", g + 1)))?;
        let last = plies.map_or(path.len(), |p| path.len().min(p as usize + 1));
        for (i, pos) in path[..last].iter().enumerate() {
            let (key, s) = frame.canonical(pos);
            if book.entry(&key).is_none() && seen.insert(key.clone()) {
                fresh.push(key.clone());
            }
            // The game ends here for the book: below, the solver plays.
            if rules.is_over(pos) || rules.empty(pos).count() <= options.exact_empties {
                break;
            }
            if let Some(cell) = path[..last]
                .get(i + 1)
                .and_then(|next| played(&frame, s, pos, next))
            {
                edges.push((key, cell));
            }
        }
    }
    let mut searchers = searchers(&rules, options, interrupt);
    let (done, total, started) = (AtomicUsize::new(0), fresh.len(), Instant::now());
    let entries = on_every_core(&mut searchers, &fresh, interrupt, |s, key| {
        let pos = frame.position(key)?;
        let entry = if rules.is_over(&pos) {
            BookPosition::finished(frame.margin(&pos))
        } else {
            BookPosition::from_leaf(s.leaf(&frame, &pos, B::ZERO).ok()??)
        };
        let n = done.fetch_add(1, Relaxed) + 1;
        progress.message(format!(
            "book add: position {n}/{total}, {:.0} s",
            started.elapsed().as_secs_f64()
        ));
        Some(entry)
    });
    let mut added = Vec::new();
    for (key, entry) in fresh.into_iter().zip(entries) {
        if let Some(Some(entry)) = entry {
            book.insert(key.clone(), entry);
            added.push(key);
        }
    }
    for (key, cell) in edges {
        add_link(book, &frame, &key, cell);
    }
    link_added(book, &frame, added);
    research(book, &frame, &mut searchers, interrupt);
    book.fix_in(&frame);
    Ok(AddReport {
        games: games.len(),
        added: book.len() - before,
        positions: book.len(),
        stopped: interrupt.signal(),
    })
}
