//! `othello play`: a game for people at a terminal. The board with letters and numbers, legal
//! moves marked, moves typed as `f5` or `row col`, reasons for refused moves, passes and the
//! end in words, and commands (undo, redo, hint, save, load, ...).
//!
//! [`Session::handle`] is the pure core: one typed line in, the lines to print out. [`run`] does
//! the reading and writing around it. The line protocol (`othello` with no subcommand) is the
//! one graders diff; this is the one people read, so its words may change.
//!
//! The game and its engine are a [`Table`]; the board around it keeps what the sitting adds
//! (what undo took back, the program's sides, a resignation, how the board is shown).

use crate::lines::{LineReader, Unreadable, MAX_LINE};
use crate::notation::{MoveList, PositionString, RecordFormat};
use crate::players::BookUse;
use crate::players::Table;
use crate::protocols::line::Sides;
use crate::rules::Winner;
use crate::rules::{Bits, Color, Game, Geometry, IllegalMove, Move, Passes, Square};
use crate::search::{Config, Progress, Report, DISC};
use crate::start::Start;
use crate::words::Counted;
use anstyle::{AnsiColor, Style};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, BufRead, Read, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

const BLACK: Style = AnsiColor::BrightBlue.on_default().bold();
const WHITE: Style = AnsiColor::BrightYellow.on_default().bold();
const LEGAL: Style = AnsiColor::Green.on_default();
const LAST: Style = AnsiColor::BrightRed.on_default().bold();

/// How a game is set up.
#[derive(Clone, Debug)]
pub struct Options {
    pub start: Start,
    /// Moves played from the start before the game is handed over.
    pub moves: MoveList,
    /// The sides the program plays.
    pub computer: Option<Sides>,
    /// How the program searches, for its moves and for hints.
    pub config: Config,
    /// The opening book the program plays (and hints) from where it has the position.
    pub book: Option<BookUse>,
    /// Discs, legal moves and the last move in colour (for a terminal).
    pub colour: bool,
    /// The program's thinking shown as it goes, on standard error, and summed up after each
    /// of its moves (for a terminal).
    pub thinking: bool,
}

/// The game on the terminal's board: the table (the game and the engine) and what the sitting
/// keeps beside it: what undo took back, the program's sides, how the board is shown.
struct Board<B> {
    table: Table<B>,
    redo: Vec<Move>,
    computer: Option<Sides>,
    /// The last move on the board and the discs it turned, to mark them.
    last: Option<(Square, B)>,
    colour: bool,
    thinking: bool,
    /// Set when Ctrl-C stopped the program's thinking: the sitting ends.
    interrupted: bool,
    /// The side that resigned: the game is over, and `undo` takes the resignation back.
    resigned: Option<Color>,
    /// Raised by Ctrl-C (SIGINT) at any moment of the sitting.
    ctrl_c: Arc<AtomicBool>,
}

/// What the sitting asks of its board, whatever the board's width: the one place the
/// width is erased.
trait Sitting {
    /// The program's moves if it is to move, then the board.
    fn open(&mut self, out: &mut Vec<String>);
    fn show(&self, out: &mut Vec<String>);
    /// Whether Ctrl-C stopped the program's thinking.
    fn interrupted(&self) -> bool;
    fn moves_text(&self) -> String;
    fn moves_line(&self) -> String;
    /// Where the game started and its moves, each with its mover: what `save` writes.
    fn record(&self) -> (PositionString, Vec<(Color, Move)>);
    /// The review of the game so far (`othello analyze`), as lines.
    fn analysis(&self, config: &Config) -> Vec<String>;
    fn set_depth(&mut self, depth: u32);
    fn computer(&self) -> Option<Sides>;
    /// A move, or a command about the game itself.
    fn command(&mut self, line: &str, words: &[&str], out: &mut Vec<String>);
}

impl<B: Bits> Sitting for Board<B> {
    fn open(&mut self, out: &mut Vec<String>) {
        self.computer_moves(out);
        Board::show(self, out);
    }
    fn show(&self, out: &mut Vec<String>) {
        Board::show(self, out)
    }
    fn interrupted(&self) -> bool {
        self.interrupted
    }
    fn moves_text(&self) -> String {
        moves_text(self.game())
    }
    fn moves_line(&self) -> String {
        moves_line(self.game())
    }
    fn record(&self) -> (PositionString, Vec<(Color, Move)>) {
        let game = self.game();
        let start = PositionString::from_position(&game.rules().geometry, game.start());
        (start, game.record().collect())
    }
    fn analysis(&self, config: &Config) -> Vec<String> {
        analysis(self.game(), config)
    }
    fn set_depth(&mut self, depth: u32) {
        self.table.set_limits(Some(depth), None)
    }
    fn computer(&self) -> Option<Sides> {
        self.computer
    }
    fn command(&mut self, line: &str, words: &[&str], out: &mut Vec<String>) {
        Board::command(self, line, words, out)
    }
}

/// One sitting, fed a typed line at a time.
pub struct Session {
    options: Options,
    board: Box<dyn Sitting>,
    over: bool,
    /// Whether Ctrl-C ended the sitting.
    stopped: bool,
    /// One SIGINT flag for the whole sitting: a Ctrl-C stops a search, and one that comes at
    /// any other moment (outside a search, or with input piped) ends the sitting at the next
    /// read instead of being lost.
    ctrl_c: Arc<AtomicBool>,
    hook: Option<signal_hook::SigId>,
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(id) = self.hook.take() {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// The commands, as `help` prints them.
const HELP: &[&str] = &[
    "Type a move as f5 (column letter, row number), as row col (3 4), or several as f5d6c3. Commands:",
    "  undo        take back your last move (and the computer's reply)",
    "  redo        play a taken-back move again",
    "  hint [N]    the engine's best move (or N best) and its value in discs (Ctrl-C stops it)",
    "  moves       the game so far, in standard notation",
    "  analyze     every move so far beside the engine's best, and the discs it lost",
    "  save FILE   write the game to FILE (save FILE ggf, save FILE moves: other forms)",
    "  load FILE   play the game in FILE (saved, a GGF record or a move list)",
    "              (a name with spaces in quotes: save \"my game.txt\")",
    "  new         start again",
    "  level N     the computer searches N moves ahead (level alone: the level now)",
    "  swap        the computer takes the other side",
    "  resign      give up this game (then new, undo, save or quit)",
    "  quit        leave (the moves so far are printed)",
    "  help        this list",
];

/// The longest file `load` reads: a 26x26 game saves in about 3 KiB.
const MAX_FILE: u64 = 64 * 1024;

impl Session {
    /// A sitting from `options`; fails if the start or its moves are not a legal game.
    pub fn new(options: Options) -> Result<Session, String> {
        let ctrl_c = Arc::new(AtomicBool::new(false));
        let board = new_board(
            &options.start,
            &options.moves,
            options.computer,
            &options,
            &ctrl_c,
        )?;
        let hook = signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&ctrl_c));
        Ok(Session {
            options,
            board,
            over: false,
            stopped: false,
            ctrl_c,
            hook: hook.ok(),
        })
    }

    /// Whether Ctrl-C came since the sitting began (the sitting then ends at the next read).
    pub fn ctrl_c_pressed(&self) -> bool {
        self.ctrl_c.load(Relaxed)
    }

    /// The first screen: the board, and the program's moves if it opens.
    pub fn greeting(&mut self) -> Vec<String> {
        let mut out = vec![
            "othello: type a move such as f5, or help.".to_string(),
            "X is Black, O White; + marks a legal move, [ ] the last move, x and o the discs it turned."
                .to_string(),
        ];
        self.board.open(&mut out);
        self.check_interrupted(&mut out);
        out
    }

    /// Ends the sitting, with the moves so far, if Ctrl-C stopped the program's thinking.
    fn check_interrupted(&mut self, out: &mut Vec<String>) {
        if self.board.interrupted() {
            out.push("Interrupted.".to_string());
            out.push(self.moves_line());
            self.over = true;
            self.stopped = true;
        }
    }

    /// Whether the sitting has ended (quit, or Ctrl-C).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether Ctrl-C ended the sitting (while the program thought, or at the prompt).
    pub fn stopped_by_ctrl_c(&self) -> bool {
        self.stopped
    }

    /// The game so far in standard notation.
    pub fn moves_text(&self) -> String {
        self.board.moves_text()
    }

    /// `Moves: ` and the game so far: how a sitting ends, so nothing is lost.
    pub fn moves_line(&self) -> String {
        self.board.moves_line()
    }

    /// Carries out one typed line; returns the lines to print.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let words: Vec<&str> = line.split_whitespace().collect();
        let command = words.first().map(|w| w.to_ascii_lowercase());
        // A file's name may hold spaces, given in quotes.
        let quoted;
        let words = match command.as_deref() {
            Some("save" | "load") => match split_quoted(line) {
                Ok(split) => {
                    quoted = split;
                    quoted.iter().map(String::as_str).collect()
                }
                Err(e) => return vec![e],
            },
            _ => words,
        };
        match (command.as_deref(), &words[..]) {
            (None, _) => self.board.show(&mut out),
            (Some("help" | "?"), _) => out.extend(HELP.iter().map(|l| l.to_string())),
            (Some("analyze" | "analyse"), _) => {
                out.extend(self.board.analysis(&self.options.config))
            }
            (Some("quit" | "exit"), _) => {
                out.push(self.moves_line());
                self.over = true;
            }
            (Some("new"), _) => {
                match self.restart(&self.options.start.clone(), &MoveList::default()) {
                    Ok(()) => {
                        out.push("New game.".to_string());
                        self.board.open(&mut out);
                    }
                    Err(e) => out.push(e),
                }
            }
            (Some("load"), [_, path]) => match read_game(path) {
                Ok((start, moves)) => {
                    let start = start.map_or(self.options.start.clone(), |p| {
                        Start::Position(p, self.options.start.variant())
                    });
                    match self.restart(&start, &moves) {
                        Ok(()) => {
                            out.push(format!("Loaded {path}."));
                            self.board.open(&mut out);
                        }
                        Err(e) => out.push(format!("Cannot load {path}: {e}.")),
                    }
                }
                Err(e) => out.push(format!("Cannot load {path}: {e}.")),
            },
            (Some("save"), [_, path, form @ ..]) if form.len() <= 1 => {
                match self.save(path, form.first().copied()) {
                    Ok(()) => out.push(format!("Saved to {path}.")),
                    Err(e) => out.push(format!("Cannot save to {path}: {e}")),
                }
            }
            (Some("load" | "save"), _) => out.push(
                "Name a file: save FILE [game|ggf|moves], load FILE (a name with spaces in \
                     quotes)."
                    .into(),
            ),
            (Some("level"), [_, n]) => match n.parse::<u32>() {
                Ok(depth @ 1..=60) => {
                    self.options.config.depth = Some(depth);
                    self.options.config.move_time = None;
                    self.board.set_depth(depth);
                    out.push(format!(
                        "The computer now searches {} ahead.",
                        Counted(depth, "move")
                    ));
                }
                _ => out.push(format!("{n:?} is not a level from 1 to 60.")),
            },
            (Some("level"), [_]) => out.push(level_text(&self.options.config)),
            (Some("level"), _) => out.push("Give one level: level 6.".to_string()),
            _ => self.board.command(line, &words, &mut out),
        }
        self.check_interrupted(&mut out);
        out
    }

    /// `save FILE [FORM]`: the game in the form named, else the one the file's name asks for.
    fn save(&self, path: &str, form: Option<&str>) -> Result<(), String> {
        let format = match form {
            Some(word) => word.parse::<RecordFormat>().map_err(|e| format!("{e}."))?,
            None => RecordFormat::for_path(path),
        };
        // A move list is read back from the usual start, so it cannot hold any other.
        if format == RecordFormat::Moves && !matches!(self.options.start, Start::Setup(_)) {
            return Err("a move list cannot hold this game's start position; \
                        save it as game or ggf."
                .into());
        }
        let (start, moves) = self.board.record();
        let text = format.write(&start, &moves).map_err(|e| format!("{e}."))?;
        save_game(path, &text)
    }

    /// Starts again from `start` and `moves`, keeping the program's sides and settings.
    fn restart(&mut self, start: &Start, moves: &MoveList) -> Result<(), String> {
        let computer = self.board.computer();
        self.board = new_board(start, moves, computer, &self.options, &self.ctrl_c)?;
        self.options.start = start.clone();
        Ok(())
    }
}

/// The board for a start and the moves played from it.
fn new_board(
    start: &Start,
    moves: &MoveList,
    computer: Option<Sides>,
    options: &Options,
    ctrl_c: &Arc<AtomicBool>,
) -> Result<Box<dyn Sitting>, String> {
    crate::with_bits!(start.shape(), |B| {
        let (rules, position) = start.rules_and_position::<B>().map_err(|e| e.to_string())?;
        let game = Game::from_position(rules, position, Passes::Automatic);
        let mut board = Board {
            table: Table::from_game(game, options.config.clone()).with_book(options.book.clone()),
            redo: Vec::new(),
            computer,
            last: None,
            colour: options.colour,
            thinking: options.thinking,
            interrupted: false,
            resigned: None,
            ctrl_c: Arc::clone(ctrl_c),
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
        Ok(Box::new(board) as Box<dyn Sitting>)
    })
}

impl<B: Bits> Board<B> {
    fn game(&self) -> &Game<B> {
        self.table.game()
    }

    /// A move or a command that needs the board.
    fn command(&mut self, line: &str, words: &[&str], out: &mut Vec<String>) {
        match words[0].to_ascii_lowercase().as_str() {
            "undo" => self.undo(out),
            "redo" => self.redo(out),
            "hint" => match words.get(1).map(|n| n.parse::<usize>()) {
                None => self.hint(out),
                Some(Ok(n @ 1..=64)) => self.hints(n, out),
                Some(_) => out.push("hint N lists the N best moves, N from 1 to 64.".to_string()),
            },
            "resign" => self.resign(out),
            "pass" | "pa" => self.pass(out),
            "moves" => out.push(moves_line(self.game())),
            "swap" => {
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
            _ => match self.read_move(line) {
                Ok(square) => {
                    if self.play(square, out) {
                        self.redo.clear();
                        self.computer_moves(out);
                        self.show(out);
                    }
                }
                Err(why) => match self.read_line_of_moves(line) {
                    Some(squares) => self.play_line(&squares, out),
                    None => out.push(why),
                },
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

    /// A line of two moves or more, such as `f5d6c3` (passes left out or written `pa`), as
    /// the squares to play; `None` when the line is not one.
    fn read_line_of_moves(&self, line: &str) -> Option<Vec<Square>> {
        let list = line.trim().parse::<MoveList>().ok()?;
        let squares: Vec<Square> = list
            .iter()
            .filter_map(|m| match m {
                Move::Play(square) => Some(*square),
                Move::Pass => None,
            })
            .collect();
        (squares.len() >= 2).then_some(squares)
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

    /// `f5`, `F5` or `row col`, as a square; what is wrong otherwise.
    fn read_move(&self, line: &str) -> Result<Square, String> {
        let text = line.trim();
        let off = || format!("{text} is off the {} board.", self.game().shape());
        let square = match crate::protocols::line::MoveLine::parse(text) {
            Some(m) => m.square().ok_or_else(off)?,
            None => text
                .parse::<Square>()
                .map_err(|_| format!("{text:?} is not a move or a command (type help)."))?,
        };
        match self.game().shape().index(square) {
            Some(_) => Ok(square),
            None => Err(off()),
        }
    }

    /// Plays a person's move; says why not if it is illegal. Whether it was played.
    fn play(&mut self, square: Square, out: &mut Vec<String>) -> bool {
        if self.resigned.is_some() {
            out.push(self.why(IllegalMove::GameOver, square));
            return false;
        }
        match self.table.try_play(Move::Play(square)) {
            Ok(played) => {
                self.announce(square, played.color, played.flips, played.passed, out);
                true
            }
            Err(e) => {
                out.push(self.why(e, square));
                false
            }
        }
    }

    fn why(&self, e: IllegalMove, square: Square) -> String {
        match e {
            IllegalMove::OffBoard(_) => {
                format!("{square} is off the {} board.", self.game().shape())
            }
            IllegalMove::Occupied(_) => format!("{square} is occupied."),
            IllegalMove::FlanksNothing(_) => format!("{square} flips nothing."),
            IllegalMove::TouchesNothing(_) => {
                let other = self.game().position().to_move.opposite();
                format!("{square} touches no {} disc.", other.name().to_lowercase())
            }
            IllegalMove::GameOver => "The game is over (new starts again).".to_string(),
            e => format!("{e}."),
        }
    }

    /// The lines after a move: who played where, what turned, a pass that followed.
    fn announce(
        &mut self,
        square: Square,
        color: Color,
        flips: B,
        passed: Option<Color>,
        out: &mut Vec<String>,
    ) {
        let g = &self.game().rules().geometry;
        let turned: Vec<String> = flips.iter().map(|i| g.square(i).to_string()).collect();
        let flipping = if turned.is_empty() {
            "flipping nothing".to_string()
        } else {
            format!("flipping {}", turned.join(" "))
        };
        let who = if self.is_computer(color) {
            format!("{} (computer)", color.name())
        } else {
            color.name().to_string()
        };
        out.push(format!("{who} plays {square}, {flipping}."));
        if let Some(c) = passed {
            out.push(format!("{} has no legal move and passes.", c.name()));
        }
        if let Some(opening) = crate::opening::names::here(self.game()) {
            out.push(format!("Opening: {}.", opening.name));
        }
        self.last = Some((square, flips));
    }

    /// The side to move; none once the game is over, by the rules or by a resignation.
    fn to_move(&self) -> Option<Color> {
        self.game().to_move().filter(|_| self.resigned.is_none())
    }

    /// The side to move gives up: the game is over, the sitting goes on.
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
            let Some(report) = self.think(color) else {
                break;
            };
            let Some(best) = report.best else { break };
            let square = self.game().rules().geometry.square(best);
            if !self.play(square, out) {
                break;
            }
            if self.thinking {
                let value = self.value(color, &report);
                // The first moves of the expected line: enough to read, short enough for a row.
                let shown = report.pv.len().min(8);
                let more = if report.pv.len() > shown { " ..." } else { "" };
                let line = squares_text(&self.game().rules().geometry, &report.pv[..shown]);
                let secs = report.elapsed.as_secs_f64();
                out.push(format!("  ({value}, {secs:.1} s; expects {line}{more})"));
            }
        }
    }

    /// The engine's search for `color`, shown as it goes when `thinking` is on. `None` when
    /// Ctrl-C stopped it.
    fn think(&mut self, color: Color) -> Option<Report> {
        if let Some(report) = self.table.book_move(color) {
            return Some(report);
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
        let report = self.table.search_watched(Box::new(move |p: &Progress| {
            if let (Some(bar), Some((_, score))) = (&shown, p.best) {
                bar.set_message(format!(
                    "{} thinks: depth {}, {:+.2} discs, {}: {}",
                    color.name(),
                    p.depth,
                    score.hundredths() as f64 / DISC as f64,
                    Counted(p.nodes, "node"),
                    squares_text(&geometry, &p.pv)
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
        (!self.interrupted).then_some(report)
    }

    /// A search's value in words, for `color`: exact when it reached the end.
    fn value(&self, color: Color, report: &Report) -> String {
        value_text(color, report.score, report.exact, report.depth)
    }

    /// `hint N`: the `count` best moves for the side to move, best first, each searched one
    /// move less deep within a share of the time (exact where the solver reaches).
    fn hints(&mut self, count: usize, out: &mut Vec<String>) {
        let Some(color) = self.to_move() else {
            out.push("The game is over: no hint.".to_string());
            return;
        };
        // Ctrl-C stops the hint at once, and nothing more.
        let lines = self.table.analyse_moves_until(color, count, &self.ctrl_c);
        let stopped = self.ctrl_c.swap(false, Relaxed);
        let Some(lines) = lines.filter(|_| !stopped) else {
            out.push("Hint stopped.".to_string());
            return;
        };
        for (i, a) in lines.iter().enumerate() {
            let value = value_text(color, a.score, a.exact, a.depth);
            out.push(format!("Hint {}: {}, {value}.", i + 1, a.best));
        }
    }
}

/// A value for `color` in words: the outcome when exact, else discs and the depth.
fn value_text(color: Color, score: i32, exact: bool, depth: u32) -> String {
    if exact {
        let discs = score / DISC;
        let outcome = match discs.cmp(&0) {
            std::cmp::Ordering::Greater => format!("{} wins by {discs}", color.name()),
            std::cmp::Ordering::Less => format!("{} loses by {}", color.name(), -discs),
            std::cmp::Ordering::Equal => "a draw".to_string(),
        };
        format!("{outcome} with perfect play")
    } else {
        format!(
            "{:+.1} discs for {} (depth {depth})",
            score as f64 / DISC as f64,
            color.name(),
        )
    }
}

impl<B: Bits> Board<B> {
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

    /// The engine's move for the side to move, with its value.
    fn hint(&mut self, out: &mut Vec<String>) {
        let Some(color) = self.to_move() else {
            out.push("The game is over: no hint.".to_string());
            return;
        };
        let Some(report) = self.think(color) else {
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
        out.push(format!("Hint: {square}, {}.", self.value(color, &report)));
    }

    /// The board, the score and whose turn it is (or the result).
    fn show(&self, out: &mut Vec<String>) {
        let shape = self.game().shape();
        let legal = match self.resigned {
            Some(_) => B::ZERO,
            None => self.game().legal_moves(),
        };
        let g = &self.game().rules().geometry;
        let letters: String = (0..shape.cols())
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        out.push(format!("   {letters}"));
        let last = self.last.and_then(|(sq, _)| g.index(sq));
        let turned = self.last.map_or(B::ZERO, |(_, flips)| flips);
        for r in 0..shape.rows() {
            let mut row = format!("{:>2} ", r + 1);
            for c in 0..shape.cols() {
                let i = r * shape.cols() + c;
                let (mark, style) = match self.game().position().color_at(i) {
                    Some(Color::Black) if turned.contains(i) => ('x', BLACK),
                    Some(Color::White) if turned.contains(i) => ('o', WHITE),
                    Some(Color::Black) => ('X', BLACK),
                    Some(Color::White) => ('O', WHITE),
                    None if legal.contains(i) => ('+', LEGAL),
                    None => ('.', Style::new()),
                };
                let before = if last == Some(i) {
                    '['
                } else if c > 0 && last == Some(i - 1) {
                    ']'
                } else {
                    ' '
                };
                self.paint(&mut row, before, LAST);
                self.paint(&mut row, mark, style);
            }
            if last == Some(r * shape.cols() + shape.cols() - 1) {
                self.paint(&mut row, ']', LAST);
            }
            out.push(row.trim_end().to_string());
        }
        let score = self.game().score();
        let totals = format!("Black (X) {}, White (O) {}", score.black, score.white);
        out.push(match self.to_move() {
            Some(c) => {
                let who = if self.is_computer(c) {
                    " (computer)"
                } else {
                    ""
                };
                format!("{totals}. {}{who} to move.", c.name())
            }
            None => format!("{totals}. {}", self.result()),
        });
    }

    /// Appends `c`, in `style` when colour is on.
    fn paint(&self, row: &mut String, c: char, style: Style) {
        if self.colour && c != ' ' {
            row.push_str(&format!("{}{c}{}", style.render(), style.render_reset()));
        } else {
            row.push(c);
        }
    }

    /// The end in words.
    fn result(&self) -> String {
        if let Some(c) = self.resigned {
            let other = c.opposite().name();
            return format!("Game over: {} resigned; {other} wins.", c.name());
        }
        let score = self.game().score();
        let misere = if self.game().variant().misere {
            " (misère: fewer discs win)"
        } else {
            ""
        };
        let by = score.black.abs_diff(score.white);
        match self.game().winner() {
            Some(Winner::Tie) | None => format!("Game over: a draw{misere}."),
            Some(Winner::Black) => format!(
                "Game over: Black wins {}-{}, by {by}{misere}.",
                score.black, score.white
            ),
            Some(Winner::White) => format!(
                "Game over: White wins {}-{}, by {by}{misere}.",
                score.white, score.black
            ),
        }
    }
}

/// The moves so far, passes the game made included, as one standard move list.
fn moves_text<B: Bits>(game: &Game<B>) -> String {
    let list: MoveList = game.moves().collect();
    if list.is_empty() {
        "(none)".to_string()
    } else {
        list.to_string()
    }
}

/// `Moves: ` and the game so far.
fn moves_line<B: Bits>(game: &Game<B>) -> String {
    format!("Moves: {}", moves_text(game))
}

/// Cells as squares, space-separated.
fn squares_text<B: Bits>(g: &Geometry<B>, cells: &[usize]) -> String {
    let squares: Vec<String> = cells.iter().map(|&m| g.square(m).to_string()).collect();
    squares.join(" ")
}

/// The review of `game` so far, searched as deep as the computer plays (at most
/// [`analysis::DEPTH`]) and solved from [`analysis::EXACT_EMPTIES`] empty cells on.
fn analysis<B: Bits>(game: &Game<B>, config: &Config) -> Vec<String> {
    use crate::analysis;
    let start = PositionString::from_position(&game.rules().geometry, game.start());
    let start = Start::Position(start, game.variant());
    let moves: MoveList = game.moves().collect();
    let options = analysis::AnalyzeOptions {
        exact_empties: analysis::EXACT_EMPTIES,
        depth: Some(config.depth.unwrap_or(analysis::DEPTH).min(analysis::DEPTH)),
        move_time: None,
        hash_mb: config.hash_mb,
        threads: config.threads,
        eval: config.eval.clone(),
    };
    let mut text = Vec::new();
    let written = analysis::analyze(&start, &moves, &options, &mut |_, _| {})
        .map_err(|e| e.to_string())
        .and_then(|review| analysis::write_text(&review, &mut text).map_err(|e| e.to_string()));
    match written {
        Ok(()) => String::from_utf8_lossy(&text)
            .lines()
            .map(String::from)
            .collect(),
        Err(e) => vec![format!("Cannot analyze the game: {e}.")],
    }
}

/// The words of `line`, where a word in double or single quotes may hold spaces (and the other
/// quote); a quote left open is refused rather than taken as part of a name.
fn split_quoted(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(&first) = chars.peek() else {
            return Ok(words);
        };
        let mut word = String::new();
        if first == '"' || first == '\'' {
            chars.next();
            loop {
                match chars.next() {
                    Some(c) if c == first => break,
                    Some(c) => word.push(c),
                    None => {
                        return Err("A quote is left open: put the file's name between two \" \
                                    or two '."
                            .to_string())
                    }
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                word.push(c);
            }
        }
        words.push(word);
    }
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it, a link
/// replaced rather than written through). A file already there is replaced only when `load`
/// reads it as a game: anything else may be something the person keeps.
fn save_game(path: &str, text: &str) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_ok() && std::fs::metadata(path).is_ok() {
        if let Err(e) = read_game(path) {
            return Err(format!("it is not a saved game ({e}), so it is kept."));
        }
    }
    crate::files::write_atomic(path.as_ref(), text.as_bytes()).map_err(|e| format!("{e}."))
}

/// The text of the file at `path`, at most [`MAX_FILE`] bytes. Anything but a regular file (a
/// FIFO, a device, a folder) is refused: checked before opening, and again on the file opened,
/// which is opened without blocking so that a FIFO put there meanwhile cannot hang the game.
fn read_regular(path: &Path) -> io::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let not_regular = || io::Error::new(io::ErrorKind::InvalidInput, "not a regular file");
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE {
        let message = format!("over {} KiB, too large for a saved game", MAX_FILE / 1024);
        return Err(io::Error::new(io::ErrorKind::InvalidData, message));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// A saved game: what `save` writes (a position string line, then the moves), a GGF record
/// or a bare move list.
fn read_game(path: &str) -> Result<(Option<PositionString>, MoveList), String> {
    let text = read_regular(path.as_ref()).map_err(|e| e.to_string())?;
    let record = text
        .parse::<crate::notation::GameRecord>()
        .map_err(|e| e.to_string())?;
    Ok((record.position, record.moves))
}

/// What `level` alone says: how the computer searches now.
fn level_text(config: &Config) -> String {
    let time = config.move_time.map(|t| match t.as_millis() {
        ms if ms % 1000 == 0 => format!("{}s", ms / 1000),
        ms => format!("{ms}ms"),
    });
    match (config.depth, time) {
        (Some(d), None) => format!(
            "Level {d}: the computer searches {} ahead.",
            Counted(d, "move")
        ),
        (Some(d), Some(t)) => {
            format!(
                "Level {d}: the computer searches {} ahead, within {t} a move.",
                Counted(d, "move")
            )
        }
        (None, Some(t)) => format!("The computer thinks for {t} a move (level N sets a depth)."),
        (None, None) => "The computer searches to the end of the game.".to_string(),
    }
}

/// The rules in words, for the first line.
pub fn rules_text(start: &Start) -> String {
    let v = start.variant();
    let mut text = format!("{} board, {v}", start.shape());
    if v.misere {
        text += " (fewer discs win)";
    }
    text
}

/// What one read of the keyboard gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    Line(String),
    Unreadable(Unreadable),
    /// End of input (or Ctrl-D).
    End,
    /// Ctrl-C at the prompt.
    Interrupted,
}

/// Where typed lines come from.
pub trait Keyboard {
    /// The next line, after showing `prompt` where the keyboard shows one.
    fn read(&mut self, prompt: &str) -> io::Result<Typed>;

    /// Runs `work`, the program's turn between two reads (a reply, perhaps a search).
    fn busy<T>(&mut self, work: impl FnOnce() -> T) -> T {
        work()
    }
}

/// Piped input: plain bounded lines, no prompt.
impl<R: BufRead> Keyboard for LineReader<R> {
    fn read(&mut self, _prompt: &str) -> io::Result<Typed> {
        Ok(match self.next_line()? {
            None => Typed::End,
            Some(Ok(text)) => Typed::Line(text.to_string()),
            Some(Err(unreadable)) => Typed::Unreadable(unreadable),
        })
    }
}

/// A terminal: line editing and history.
///
/// Ctrl-C is a signal (SIGINT) only while the program is busy, where it stops a search; at all
/// other times the terminal passes it on as a key, so one typed between a reply and the next
/// prompt waits in the input for the line editor, which ends the sitting, instead of coming as a
/// signal that nothing is waiting for.
pub struct Terminal {
    editor: rustyline::DefaultEditor,
    /// The terminal's settings as found, restored at the end; `None` when stdin has none.
    found: Option<libc::termios>,
}

impl Terminal {
    pub fn new() -> io::Result<Terminal> {
        let editor = rustyline::DefaultEditor::new().map_err(io::Error::other)?;
        let mut found = std::mem::MaybeUninit::<libc::termios>::uninit();
        // SAFETY: tcgetattr fills the termios it is given when it returns 0.
        let found = (unsafe { libc::tcgetattr(libc::STDIN_FILENO, found.as_mut_ptr()) } == 0)
            .then(|| unsafe { found.assume_init() });
        let terminal = Terminal { editor, found };
        terminal.ctrl_c_signals(false);
        Ok(terminal)
    }

    /// Whether the terminal turns Ctrl-C (and Ctrl-\, Ctrl-Z) into signals.
    fn ctrl_c_signals(&self, on: bool) {
        if let Some(mut settings) = self.found {
            if !on {
                settings.c_lflag &= !libc::ISIG;
            }
            // SAFETY: settings is a valid termios read from this terminal. A failure leaves the
            // terminal as it was, where Ctrl-C still stops a search.
            unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &settings) };
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.ctrl_c_signals(true);
    }
}

impl Keyboard for Terminal {
    fn read(&mut self, prompt: &str) -> io::Result<Typed> {
        use rustyline::error::ReadlineError;
        match self.editor.readline(prompt) {
            Ok(text) if text.len() > MAX_LINE => Ok(Typed::Unreadable(Unreadable::TooLong)),
            Ok(text) => {
                if !text.trim().is_empty() {
                    let _ = self.editor.add_history_entry(text.as_str());
                }
                Ok(Typed::Line(text))
            }
            Err(ReadlineError::Eof) => Ok(Typed::End),
            Err(ReadlineError::Interrupted) => Ok(Typed::Interrupted),
            Err(ReadlineError::Io(e)) => Err(e),
            Err(e) => Err(io::Error::other(e)),
        }
    }

    fn busy<T>(&mut self, work: impl FnOnce() -> T) -> T {
        self.ctrl_c_signals(true);
        let done = work();
        self.ctrl_c_signals(false);
        done
    }
}

/// How a sitting ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `quit`, or the end of input.
    Left,
    /// Ctrl-C (SIGINT), at the prompt or while the program thought: the command ends with
    /// status 130, as a program the signal stopped.
    Interrupted,
}

/// Plays a sitting, reading `keyboard` and writing `output`. At the end of input or a Ctrl-C
/// the moves so far are printed, so nothing is lost.
pub fn run(
    mut session: Session,
    keyboard: &mut impl Keyboard,
    mut output: impl Write,
) -> io::Result<Ending> {
    writeln!(output, "{}.", rules_text(&session.options.start))?;
    for line in keyboard.busy(|| session.greeting()) {
        writeln!(output, "{line}")?;
    }
    while !session.is_over() {
        output.flush()?;
        let typed = if session.ctrl_c_pressed() {
            Typed::Interrupted
        } else {
            keyboard.read("> ")?
        };
        let replies = match typed {
            Typed::Line(text) => keyboard.busy(|| session.handle(&text)),
            Typed::Unreadable(unreadable) => vec![format!("Ignored {unreadable}.")],
            Typed::End => {
                writeln!(output, "{}", session.moves_line())?;
                break;
            }
            Typed::Interrupted => {
                writeln!(output, "{}", session.moves_line())?;
                output.flush()?;
                return Ok(Ending::Interrupted);
            }
        };
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
    }
    output.flush()?;
    Ok(if session.stopped_by_ctrl_c() {
        Ending::Interrupted
    } else {
        Ending::Left
    })
}

#[cfg(test)]
mod tests;
