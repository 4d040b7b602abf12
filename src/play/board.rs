//! The game on the board at the terminal: a [`EngineGame`] (the game and the engine) and what play
//! keeps beside it (what undo took back, the program's sides, a resignation, how the board is
//! shown); moves and the commands about the game carried out on it, the program's moves among
//! them. [`AnyBoard`] hides the board's width from the rest of `play`.

use super::command::{BoardCommand, TypedMoves};
use super::options::Options;
use super::text::{self, Drawing, Label};
use crate::notation::{MoveList, PositionString};
use crate::opening::book::Book;
use crate::players::EngineGame;
use crate::protocols::line::Sides;
use crate::rules::{Bits, ByColor, Color, Game, IllegalMove, Move, Passes, Square};
use crate::search::time::GameClock;
use crate::search::{Config, Report, SolveProgress, DISC};
use crate::start::Start;
use crate::wording::Counted;
use indicatif::{ProgressBar, ProgressStyle};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The game on the terminal's board: the table (the game and the engine) and what play keeps
/// beside it: what undo took back, the program's sides, how the board is shown.
struct InHand<B> {
    table: EngineGame<B>,
    redo: Vec<Move>,
    computer: Option<Sides>,
    /// The last move on the board and the discs it turned, to mark them.
    last: Option<(Square, B)>,
    colour: bool,
    thinking: bool,
    /// Set when Ctrl-C stopped the program's thinking: play ends.
    interrupted: bool,
    /// The side that resigned: the game is over, and `undo` takes the resignation back.
    resigned: Option<Color>,
    /// Raised by Ctrl-C (SIGINT) at any moment of play.
    ctrl_c: Arc<AtomicBool>,
    /// The computer's game clock for each colour, under `--time`.
    clocks: ByColor<Option<GameClock>>,
}

/// An [`InHand`] of any width, as the rest of `play` asks of it: the one place the width is
/// erased.
pub(super) trait AnyBoard {
    /// The program's moves if it is to move, then the board.
    fn open(&mut self, out: &mut Vec<String>);
    fn show(&self, out: &mut Vec<String>);
    /// Whether Ctrl-C stopped the program's thinking.
    fn interrupted(&self) -> bool;
    fn moves_text(&self) -> String;
    fn moves_line(&self) -> String;
    /// Where the game started and its moves, each with its mover: what `save` writes.
    fn record(&self) -> (PositionString, Vec<(Color, Move)>);
    /// Black's margin once the game is over by the rules (not by a resignation).
    fn result(&self) -> Option<i32>;
    /// The review of the game so far (`othello analyze`), as lines.
    fn analysis(&self, config: &Config) -> Vec<String>;
    fn set_depth(&mut self, depth: u32);
    fn computer(&self) -> Option<Sides>;
    /// A move, or a command about the game itself.
    fn carry_out(&mut self, command: BoardCommand, out: &mut Vec<String>);
}

impl<B: Bits> AnyBoard for InHand<B> {
    fn open(&mut self, out: &mut Vec<String>) {
        self.computer_moves(out);
        InHand::show(self, out);
    }
    fn show(&self, out: &mut Vec<String>) {
        InHand::show(self, out)
    }
    fn interrupted(&self) -> bool {
        self.interrupted
    }
    fn moves_text(&self) -> String {
        text::moves_text(self.game())
    }
    fn moves_line(&self) -> String {
        text::moves_line(self.game())
    }
    fn result(&self) -> Option<i32> {
        let game = self.game();
        let rules = game.rules();
        let end = game.position();
        rules.is_over(end).then(|| rules.margin(end, Color::Black))
    }
    fn record(&self) -> (PositionString, Vec<(Color, Move)>) {
        let game = self.game();
        let start = PositionString::from_position(&game.rules().geometry, game.start());
        (start, game.record().collect())
    }
    fn analysis(&self, config: &Config) -> Vec<String> {
        analysis(self.game(), config, self.table.book())
    }
    fn set_depth(&mut self, depth: u32) {
        self.table.set_limits(Some(depth), None)
    }
    fn computer(&self) -> Option<Sides> {
        self.computer
    }
    fn carry_out(&mut self, command: BoardCommand, out: &mut Vec<String>) {
        InHand::carry_out(self, command, out)
    }
}

/// The board for a start and the moves played from it.
pub(super) fn new_board(
    start: &Start,
    moves: &MoveList,
    computer: Option<Sides>,
    options: &Options,
    ctrl_c: &Arc<AtomicBool>,
) -> Result<Box<dyn AnyBoard>, String> {
    crate::with_bits!(start.shape(), |B| {
        let (rules, position) = start.rules_and_position::<B>().map_err(|e| e.to_string())?;
        let game = Game::from_position(rules, position, Passes::Automatic);
        let mut board = InHand {
            table: EngineGame::from_game(game, options.config.clone())
                .with_book(options.book.clone()),
            redo: Vec::new(),
            computer,
            last: None,
            colour: options.colour,
            thinking: options.thinking,
            interrupted: false,
            resigned: None,
            ctrl_c: Arc::clone(ctrl_c),
            clocks: ByColor::new(|_| options.config.clock.map(GameClock::new)),
        };
        for (i, &played) in moves.iter().enumerate() {
            let done = board
                .table
                .play_listed(played)
                .map_err(|e| format!("move {} ({played}): {e}", i + 1))?;
            if let Move::Play(square) = done.played {
                board.last = Some((square, done.flips));
            }
        }
        Ok(Box::new(board) as Box<dyn AnyBoard>)
    })
}

impl<B: Bits> InHand<B> {
    fn game(&self) -> &Game<B> {
        self.table.game()
    }

    /// A move or a command that needs the board.
    fn carry_out(&mut self, command: BoardCommand, out: &mut Vec<String>) {
        match command {
            BoardCommand::Undo => self.undo(out),
            BoardCommand::Redo => self.redo(out),
            BoardCommand::Hint => self.hint(out),
            BoardCommand::Hints(n) => self.hints(n, out),
            BoardCommand::Resign => self.resign(out),
            BoardCommand::Pass => self.pass(out),
            BoardCommand::Moves => out.push(text::moves_line(self.game())),
            BoardCommand::Swap => self.swap(out),
            BoardCommand::Play(typed) => self.play_typed(&typed, out),
        }
    }

    /// The computer takes the other side (none after both, both people after none).
    fn swap(&mut self, out: &mut Vec<String>) {
        self.computer = match self.computer {
            None | Some(Sides::White) => Some(Sides::Black),
            Some(Sides::Black) => Some(Sides::White),
            Some(Sides::Both) => None,
        };
        out.push(match self.computer {
            Some(Sides::Black) => "The computer plays Black.".to_string(),
            Some(Sides::White) => "The computer plays White.".to_string(),
            _ => "Nobody's computer: two people play.".to_string(),
        });
        self.computer_moves(out);
        self.show(out);
    }

    /// A typed move, or a line of them; why not when it is neither.
    fn play_typed(&mut self, typed: &TypedMoves, out: &mut Vec<String>) {
        match typed.square(self.game().shape()) {
            Ok(square) => {
                if self.play(square, out) {
                    self.redo.clear();
                    self.computer_moves(out);
                    self.show(out);
                }
            }
            Err(why) => match typed.line() {
                Some(squares) => self.play_line(&squares, out),
                None => out.push(why),
            },
        }
    }

    /// A typed pass: the game passes by itself for a side with no move, so a pass is only ever
    /// taken as saying so.
    fn pass(&self, out: &mut Vec<String>) {
        let last = self.game().record().last();
        match (last, self.to_move()) {
            (Some((passed, Move::Pass)), Some(_)) => out.push(format!(
                "Noted: {} had no move and has passed.",
                passed.name()
            )),
            (_, None) => out.push("The game is over (new starts again).".to_string()),
            (_, Some(color)) => out.push(format!(
                "{} has a move and cannot pass (a side with none is passed over by itself).",
                color.name()
            )),
        }
    }

    /// Plays a typed line of moves for whoever is to move, each announced, stopping at the
    /// first that cannot be played; then the computer's moves, if it is its turn.
    fn play_line(&mut self, squares: &[Square], out: &mut Vec<String>) {
        let mut played = false;
        for &square in squares {
            // `play` says why a move cannot be played, off the board too.
            if !self.play(square, out) {
                break;
            }
            played = true;
        }
        if played {
            self.redo.clear();
            self.computer_moves(out);
            self.show(out);
        }
    }

    /// Plays a person's move; says why not if it is illegal. Whether it was played.
    fn play(&mut self, square: Square, out: &mut Vec<String>) -> bool {
        if self.resigned.is_some() {
            out.push(text::refused_text(
                self.game(),
                IllegalMove::GameOver,
                square,
            ));
            return false;
        }
        match self.table.try_play(Move::Play(square)) {
            Ok(played) => {
                let game = self.game();
                let mv = (square, played.color, played.flips);
                text::played_text(game, self.computer, mv, played.passed, out);
                self.last = Some((square, played.flips));
                true
            }
            Err(e) => {
                out.push(text::refused_text(self.game(), e, square));
                false
            }
        }
    }

    /// The side to move; none once the game is over, by the rules or by a resignation.
    fn to_move(&self) -> Option<Color> {
        self.game().to_move().filter(|_| self.resigned.is_none())
    }

    /// The side to move gives up: the game is over, play goes on.
    fn resign(&mut self, out: &mut Vec<String>) {
        match self.to_move() {
            Some(c) => {
                self.resigned = Some(c);
                self.redo.clear();
                out.push(format!(
                    "{} resigns; {} wins.",
                    c.name(),
                    c.opposite().name()
                ));
                self.show(out);
            }
            None => out.push("The game is already over.".to_string()),
        }
    }

    fn is_computer(&self, color: Color) -> bool {
        self.computer.is_some_and(|s| s.includes(color))
    }

    /// While the program is to move, its moves.
    fn computer_moves(&mut self, out: &mut Vec<String>) {
        while let Some(color) = self.to_move() {
            if !self.is_computer(color) {
                break;
            }
            let Some(Thought { report, book }) = self.think(color) else {
                break;
            };
            let Some(best) = report.best else { break };
            let square = self.game().rules().geometry.square(best);
            if !self.play(square, out) {
                break;
            }
            if self.thinking {
                let value = text::value_text(color, report.score, Label::of(&report, book));
                // The first moves of the expected line: enough to read, short enough for a row.
                let shown = report.pv.len().min(8);
                let more = if report.pv.len() > shown { " ..." } else { "" };
                let line = text::squares_text(&self.game().rules().geometry, &report.pv[..shown]);
                let secs = report.elapsed.as_secs_f64();
                let left = match self.clocks[color] {
                    Some(clock) => format!(", {:.0} s left", clock.left.as_secs_f64()),
                    None => String::new(),
                };
                out.push(format!(
                    "  ({value}, {secs:.1} s{left}; expects {line}{more})"
                ));
            }
        }
    }

    /// The engine's move for `color`: the book's, else a search shown as it goes when
    /// `thinking` is on. `None` when Ctrl-C stopped it.
    fn think(&mut self, color: Color) -> Option<Thought> {
        let owed = Instant::now();
        let thought = self.think_owed(color, owed);
        if let Some(clock) = &mut self.clocks[color] {
            clock.charge(owed.elapsed());
        }
        thought
    }

    fn think_owed(&mut self, color: Color, owed: Instant) -> Option<Thought> {
        if let Some(report) = self.table.book_move(color) {
            return Some(Thought { report, book: true });
        }
        if let Some(clock) = self.clocks[color] {
            let game = self.game();
            let budget = clock.budget(owed.elapsed(), game.rules(), game.position());
            self.table.set_budget(budget);
        }
        // Ctrl-C stops the search rather than the program, so the game can be printed.
        let spinner = self.thinking.then(|| {
            let bar = ProgressBar::new_spinner().with_message(format!("{} thinks", color.name()));
            if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {wide_msg}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        let shown = spinner.clone();
        let geometry = self.game().rules().geometry.clone();
        let stop = Arc::clone(&self.ctrl_c);
        let report = self
            .table
            .search_watched(Box::new(move |p: &SolveProgress| {
                if let (Some(bar), Some((_, score))) = (&shown, p.best) {
                    bar.set_message(format!(
                        "{} thinks: depth {}, {:+.2} discs, {}: {}",
                        color.name(),
                        p.depth,
                        score.hundredths() as f64 / DISC as f64,
                        Counted(p.nodes, "node"),
                        text::squares_text(&geometry, &p.pv)
                    ));
                }
                if stop.load(Relaxed) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            }));
        if let Some(bar) = spinner {
            bar.finish_and_clear();
        }
        self.interrupted = self.ctrl_c.load(Relaxed);
        (!self.interrupted).then_some(Thought {
            report,
            book: false,
        })
    }

    /// `hint N`: the `count` best moves for the side to move, best first: the book's where it
    /// has the position, else every move valued alike within the time (each position after a
    /// move searched to one depth, or solved). `hint 1` is `hint`.
    fn hints(&mut self, count: usize, out: &mut Vec<String>) {
        let Some(color) = self.to_move() else {
            out.push("The game is over: no hint.".to_string());
            return;
        };
        if count == 1 {
            let mut one = Vec::new();
            self.hint(&mut one);
            out.extend(one.into_iter().map(|l| l.replacen("Hint: ", "Hint 1: ", 1)));
            return;
        }
        // Ctrl-C stops the hint at once, and nothing more.
        let lines = self.table.analyse_moves_until(color, count, &self.ctrl_c);
        let stopped = self.ctrl_c.swap(false, Relaxed);
        let Some(lines) = lines.filter(|_| !stopped) else {
            out.push("Hint stopped.".to_string());
            return;
        };
        for (i, a) in lines.iter().enumerate() {
            let label = Label::new(a.exact, a.book, a.depth);
            let hinted = self.hinted(color, a.best, a.score, label, &a.pv);
            out.push(format!("Hint {}: {hinted}.", i + 1));
        }
    }

    /// Takes back to the person's previous turn: their last move and the program's replies.
    /// After a resignation, takes back the resignation.
    fn undo(&mut self, out: &mut Vec<String>) {
        if let Some(c) = self.resigned.take() {
            out.push(format!("{} takes back the resignation.", c.name()));
            self.show(out);
            return;
        }
        let mut taken = Vec::new();
        while let Some(played) = self.table.undo() {
            taken.push(played);
            let mover = self.game().position().to_move;
            if !self.is_computer(mover) {
                break;
            }
        }
        // Nothing but the program's opening moves to take back: keep them.
        if self
            .game()
            .to_move()
            .is_some_and(|c| self.is_computer(c) && self.computer != Some(Sides::Both))
        {
            for &m in taken.iter().rev() {
                let _ = self.table.play_listed(m);
            }
            taken.clear();
        }
        if taken.is_empty() {
            out.push("Nothing to take back.".to_string());
            return;
        }
        let text: Vec<String> = taken.iter().rev().map(|m| m.to_string()).collect();
        out.push(format!("Took back {}.", text.join(" ")));
        self.redo.extend(taken);
        self.last = None;
        self.show(out);
    }

    /// Plays the last move taken back, and the program's replies.
    fn redo(&mut self, out: &mut Vec<String>) {
        let Some(Move::Play(square)) = self.redo.pop() else {
            out.push("Nothing to redo.".to_string());
            return;
        };
        if self.play(square, out) {
            // The program's replies were taken back with it; they come again from the search.
            while self
                .game()
                .to_move()
                .is_some_and(|c| self.is_computer(c) && !self.redo.is_empty())
            {
                match self.redo.pop() {
                    Some(Move::Play(sq)) => {
                        self.play(sq, out);
                    }
                    _ => break,
                }
            }
            self.computer_moves(out);
        }
        self.show(out);
    }

    /// The engine's move for the side to move, with its value and the line it expects: the
    /// book's best where it has the position, else a search as the computer plays.
    fn hint(&mut self, out: &mut Vec<String>) {
        let Some(color) = self.to_move() else {
            out.push("The game is over: no hint.".to_string());
            return;
        };
        if let Some(a) = self.table.book_lines(color).into_iter().next() {
            let label = Label::new(a.exact, true, a.depth);
            let hinted = self.hinted(color, a.best, a.score, label, &a.pv);
            out.push(format!("Hint: {hinted}."));
            return;
        }
        let Some(Thought { report, book }) = self.think(color) else {
            // Ctrl-C stops the hint, not the game.
            self.interrupted = false;
            self.ctrl_c.store(false, Relaxed);
            out.push("Hint stopped.".to_string());
            return;
        };
        let Some(best) = report.best else {
            out.push("No move to suggest.".to_string());
            return;
        };
        let square = self.game().rules().geometry.square(best);
        let line: Vec<Move> = self.game().rules().line(self.game().position(), &report.pv);
        let label = Label::of(&report, book);
        let hinted = self.hinted(color, Move::Play(square), report.score, label, &line);
        out.push(format!("Hint: {hinted}."));
    }

    /// A hinted move for `color` in words: the move, the named opening it leads to, its value
    /// and the moves of `line` (which starts with the move) after it.
    fn hinted(&self, color: Color, best: Move, score: i32, label: Label, line: &[Move]) -> String {
        let named = self.opening_after(best);
        let value = text::value_and_line(color, score, label, &line[line.len().min(1)..]);
        format!("{best}{named}, {value}")
    }

    /// ` (Tiger)` where `played` reaches a named opening, ` (toward Tiger)` where it is on the
    /// way to one (the one reached soonest); nothing elsewhere.
    fn opening_after(&self, played: Move) -> String {
        let mut game = self.game().clone();
        if game.play_listed(played).is_err() {
            return String::new();
        }
        match crate::opening::names::toward(&game) {
            Some((opening, 0)) => format!(" ({})", opening.name),
            Some((opening, _)) => format!(" (toward {})", opening.name),
            None => String::new(),
        }
    }

    /// The board, the score and whose turn it is (or the result).
    fn show(&self, out: &mut Vec<String>) {
        Drawing {
            game: self.game(),
            last: self.last,
            resigned: self.resigned,
            computer: self.computer,
            colour: self.colour,
        }
        .draw(out)
    }
}

/// The engine's move and whether it came from the book.
struct Thought {
    report: Report,
    book: bool,
}

/// The review of `game` so far, searched as deep as the computer plays (at most
/// [`analysis::DEPTH`]) and solved from [`analysis::EXACT_EMPTIES`] empty cells on, with the
/// values of `book` where it holds the move played.
fn analysis<B: Bits>(game: &Game<B>, config: &Config, book: Option<Arc<Book>>) -> Vec<String> {
    use crate::analysis;
    let start = PositionString::from_position(&game.rules().geometry, game.start());
    let start = Start::Position(start, game.variant());
    let moves: MoveList = game.moves().collect();
    let options = analysis::AnalyzeOptions {
        exact_empties: analysis::EXACT_EMPTIES,
        search: Config::to_depth(config.depth.unwrap_or(analysis::DEPTH).min(analysis::DEPTH))
            .with_hash_mb(config.hash_mb)
            .with_threads(config.threads)
            .with_eval(config.eval.clone()),
        book,
    };
    let mut text = Vec::new();
    let written = analysis::analyze(&start, &moves, &options, &mut |_, _| {})
        .map_err(|e| e.to_string())
        .and_then(|review| {
            analysis::write_text(&review, &mut text)
                .and_then(|()| analysis::write_chart(&review, &mut text))
                .map_err(|e| e.to_string())
        });
    match written {
        Ok(()) => String::from_utf8_lossy(&text)
            .lines()
            .map(String::from)
            .collect(),
        Err(e) => vec![format!("Cannot analyze the game: {e}.")],
    }
}
