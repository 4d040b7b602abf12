//! The words `othello play` prints: the help, the board as drawn, moves announced and refused,
//! values and levels, the end of a game. Kept apart so that what a person reads can change
//! without touching how the game is run.

use crate::notation::{first_moves, MoveList};
use crate::protocols::line::Sides;
use crate::rules::Winner;
use crate::rules::{Bits, Color, Game, Geometry, IllegalMove, Move, Square};
use crate::search::{Config, Report, DISC};
use crate::start::Start;
use crate::wording::Counted;
use anstyle::{AnsiColor, Style};

const BLACK: Style = AnsiColor::BrightBlue.on_default().bold();
const WHITE: Style = AnsiColor::BrightYellow.on_default().bold();
const LEGAL: Style = AnsiColor::Green.on_default();
const LAST: Style = AnsiColor::BrightRed.on_default().bold();

/// The first two lines: how to start, and how to read the board.
pub(super) const GREETING: &[&str] = &[
    "othello: type a move such as f5, or help.",
    "X is Black, O White; + marks a legal move, [ ] the last move, x and o the discs it turned.",
];

/// The commands, as `help` prints them.
pub(super) const HELP: &[&str] = &[
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

/// The rules in words, for the first line.
pub fn rules_text(start: &Start) -> String {
    let v = start.variant();
    let mut text = format!("{} board, {v}", start.shape());
    if v.misere {
        text += " (fewer discs win)";
    }
    text
}

/// What `level` alone says: how the computer searches now.
pub(super) fn level_text(config: &Config) -> String {
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

/// Where a value comes from, as a hint or the computer's summary says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Label {
    /// Solved, or searched to the end.
    Exact,
    /// The opening book's.
    Book,
    /// A search this many moves deep.
    Depth(u32),
}

impl Label {
    /// The label of a value: exact wherever it is, else the book's, else a search's of `depth`.
    pub(super) fn new(exact: bool, book: bool, depth: u32) -> Label {
        if exact {
            Label::Exact
        } else if book {
            Label::Book
        } else {
            Label::Depth(depth)
        }
    }

    /// The label of a search's `report`, or of the book's move when `book`.
    pub(super) fn of(report: &Report, book: bool) -> Label {
        Label::new(report.exact, book, report.depth)
    }
}

/// A value in words, for `color`: the outcome where exact, else discs to one place (never
/// `-0.0`) and where the value comes from.
pub(super) fn value_text(color: Color, score: i32, label: Label) -> String {
    value_and_line(color, score, label, &[])
}

/// [`value_text`] with the first moves expected `after` the move valued, where there are any.
pub(super) fn value_and_line(color: Color, score: i32, label: Label, after: &[Move]) -> String {
    const SHOWN: usize = 8;
    let line = if after.is_empty() {
        String::new()
    } else {
        format!("then {}", first_moves(after, SHOWN))
    };
    let source = match label {
        Label::Exact => {
            let discs = score / DISC;
            let outcome = match discs.cmp(&0) {
                std::cmp::Ordering::Greater => format!("{} wins by {discs}", color.name()),
                std::cmp::Ordering::Less => format!("{} loses by {}", color.name(), -discs),
                std::cmp::Ordering::Equal => "a draw".to_string(),
            };
            if line.is_empty() {
                return format!("{outcome} with perfect play");
            }
            return format!("{outcome} with perfect play ({line})");
        }
        Label::Book => "book".to_string(),
        Label::Depth(depth) => format!("depth {depth}"),
    };
    let source = if line.is_empty() {
        source
    } else {
        format!("{source}; {line}")
    };
    // Tenths, rounded once, so that a value just below zero reads as +0.0.
    let tenths = (score as f64 / (DISC as f64 / 10.0)).round() as i64;
    let sign = if tenths < 0 { '-' } else { '+' };
    let tenths = tenths.abs();
    format!(
        "{sign}{}.{} discs for {} ({source})",
        tenths / 10,
        tenths % 10,
        color.name()
    )
}

/// The moves so far, passes the game made included, as one standard move list.
pub(super) fn moves_text<B: Bits>(game: &Game<B>) -> String {
    let list: MoveList = game.moves().collect();
    if list.is_empty() {
        "(none)".to_string()
    } else {
        list.to_string()
    }
}

/// `Moves: ` and the game so far.
pub(super) fn moves_line<B: Bits>(game: &Game<B>) -> String {
    format!("Moves: {}", moves_text(game))
}

/// Cells as squares, space-separated.
pub(super) fn squares_text<B: Bits>(g: &Geometry<B>, cells: &[usize]) -> String {
    let squares: Vec<String> = cells.iter().map(|&m| g.square(m).to_string()).collect();
    squares.join(" ")
}

/// A side's name, marked when the computer plays it.
fn side_text(color: Color, computer: Option<Sides>) -> String {
    if computer.is_some_and(|s| s.includes(color)) {
        format!("{} (computer)", color.name())
    } else {
        color.name().to_string()
    }
}

/// The lines after a move in `game`: who played where, what turned, a pass that followed, the
/// opening reached.
pub(super) fn played_text<B: Bits>(
    game: &Game<B>,
    computer: Option<Sides>,
    (square, color, flips): (Square, Color, B),
    passed: Option<Color>,
    out: &mut Vec<String>,
) {
    let g = &game.rules().geometry;
    let turned: Vec<String> = flips.iter().map(|i| g.square(i).to_string()).collect();
    let flipping = if turned.is_empty() {
        "flipping nothing".to_string()
    } else {
        format!("flipping {}", turned.join(" "))
    };
    let who = side_text(color, computer);
    out.push(format!("{who} plays {square}, {flipping}."));
    if let Some(c) = passed {
        out.push(format!("{} has no legal move and passes.", c.name()));
    }
    if let Some(opening) = crate::opening::names::here(game) {
        out.push(format!("Opening: {}.", opening.name));
    }
}

/// Why `square` cannot be played in `game`.
pub(super) fn refused_text<B: Bits>(game: &Game<B>, e: IllegalMove, square: Square) -> String {
    match e {
        IllegalMove::OffBoard(_) => {
            format!("{square} is off the {} board.", game.shape())
        }
        IllegalMove::Occupied(_) => format!("{square} is occupied."),
        IllegalMove::FlanksNothing(_) => format!("{square} flips nothing."),
        IllegalMove::TouchesNothing(_) => {
            let other = game.position().to_move.opposite();
            format!("{square} touches no {} disc.", other.name().to_lowercase())
        }
        IllegalMove::GameOver => "The game is over (new starts again).".to_string(),
        e => format!("{e}."),
    }
}

/// The board as drawn: the discs, the legal moves and the last move marked, then the score and
/// whose turn it is (or the result).
pub(super) struct Drawing<'a, B> {
    pub(super) game: &'a Game<B>,
    /// The last move on the board and the discs it turned.
    pub(super) last: Option<(Square, B)>,
    /// The side that resigned: no legal moves are marked then, and the result says so.
    pub(super) resigned: Option<Color>,
    pub(super) computer: Option<Sides>,
    /// Discs, legal moves and the last move in colour.
    pub(super) colour: bool,
}

impl<B: Bits> Drawing<'_, B> {
    pub(super) fn draw(&self, out: &mut Vec<String>) {
        let shape = self.game.shape();
        let legal = match self.resigned {
            Some(_) => B::ZERO,
            None => self.game.legal_moves(),
        };
        let g = &self.game.rules().geometry;
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
                let (mark, style) = match self.game.position().color_at(i) {
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
        let score = self.game.score();
        let totals = format!("Black (X) {}, White (O) {}", score.black, score.white);
        let to_move = self.game.to_move().filter(|_| self.resigned.is_none());
        out.push(match to_move {
            Some(c) => format!("{totals}. {} to move.", side_text(c, self.computer)),
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
        let score = self.game.score();
        let misere = if self.game.variant().misere {
            " (misère: fewer discs win)"
        } else {
            ""
        };
        let by = score.black.abs_diff(score.white);
        match self.game.winner() {
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
