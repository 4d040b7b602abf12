//! An independent reference for the rules and the line protocol: a grid of cells and the obvious
//! loops, written from the seeds rather than from the library, so that the bitboard code can be
//! checked against something that shares none of its tricks (shifts, edge masks, bit widths).
//!
//! Nothing here uses the `othello` crate.

// Each test crate that includes this module uses a different part of it.
#![allow(dead_code)]

/// The colour of a disc and of the player owning it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    pub fn letter(self) -> char {
        match self {
            Colour::Black => 'B',
            Colour::White => 'W',
        }
    }
}

/// The rule changes a game can be played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RefVariant {
    /// Legal next to an opponent disc; flips exactly the neighbouring opponent discs.
    pub simple: bool,
    /// Every empty cell is legal; no passes; over when the board is full.
    pub place_anywhere: bool,
    /// Fewer discs wins.
    pub misere: bool,
}

/// A cell as (row, column), both 0-based, row 0 on top.
pub type Cell = (usize, usize);

/// The eight directions as (row step, column step).
pub const DIRECTIONS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A position: the discs and the side to move. Moves and passes are not checked here; see
/// [`RefGame`] for the checked game flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub rows: usize,
    pub cols: usize,
    pub variant: RefVariant,
    pub cells: Vec<Vec<Option<Colour>>>,
    pub to_move: Colour,
}

impl RefBoard {
    pub fn empty(rows: usize, cols: usize, variant: RefVariant, to_move: Colour) -> Self {
        assert!(
            (3..=26).contains(&rows) && (3..=26).contains(&cols),
            "{rows}x{cols}"
        );
        RefBoard {
            rows,
            cols,
            variant,
            cells: vec![vec![None; cols]; rows],
            to_move,
        }
    }

    /// The four-disc start of the line protocol: `top_left` on the top-left and bottom-right
    /// cells of the 2x2 block whose top-left cell is (rows/2 - 1, cols/2 - 1).
    pub fn start(
        rows: usize,
        cols: usize,
        variant: RefVariant,
        first: Colour,
        top_left: Colour,
    ) -> Self {
        let mut board = RefBoard::empty(rows, cols, variant, first);
        let (r, c) = (rows / 2 - 1, cols / 2 - 1);
        board.cells[r][c] = Some(top_left);
        board.cells[r + 1][c + 1] = Some(top_left);
        board.cells[r][c + 1] = Some(top_left.other());
        board.cells[r + 1][c] = Some(top_left.other());
        board
    }

    pub fn at(&self, (r, c): Cell) -> Option<Colour> {
        self.cells[r][c]
    }

    /// The cell one step from `(r, c)` in direction `(dr, dc)`, if it is on the board.
    fn step(&self, (r, c): Cell, (dr, dc): (isize, isize)) -> Option<Cell> {
        let r = r.checked_add_signed(dr)?;
        let c = c.checked_add_signed(dc)?;
        (r < self.rows && c < self.cols).then_some((r, c))
    }

    /// The discs a `colour` disc put on the (empty) cell would flip, in row-major order.
    pub fn flips_for(&self, colour: Colour, cell: Cell) -> Vec<Cell> {
        let opponent = Some(colour.other());
        let mut flips = Vec::new();
        for dir in DIRECTIONS {
            if self.variant.simple {
                if let Some(next) = self.step(cell, dir) {
                    if self.at(next) == opponent {
                        flips.push(next);
                    }
                }
                continue;
            }
            let mut run = Vec::new();
            let mut here = self.step(cell, dir);
            while let Some(next) = here {
                if self.at(next) != opponent {
                    break;
                }
                run.push(next);
                here = self.step(next, dir);
            }
            // A run counts only when an own disc closes it; the board edge or a gap does not.
            if !run.is_empty() && here.is_some_and(|end| self.at(end) == Some(colour)) {
                flips.extend(run);
            }
        }
        flips.sort_unstable();
        flips
    }

    /// The flips of a move by the side to move.
    pub fn flips(&self, cell: Cell) -> Vec<Cell> {
        self.flips_for(self.to_move, cell)
    }

    pub fn is_legal_for(&self, colour: Colour, cell: Cell) -> bool {
        if cell.0 >= self.rows || cell.1 >= self.cols || self.at(cell).is_some() {
            return false;
        }
        if self.variant.place_anywhere {
            return true;
        }
        if self.variant.simple {
            return DIRECTIONS.iter().any(|&d| {
                self.step(cell, d)
                    .is_some_and(|n| self.at(n) == Some(colour.other()))
            });
        }
        !self.flips_for(colour, cell).is_empty()
    }

    /// Every legal move of `colour`, in row-major order (never a pass).
    pub fn legal_moves_for(&self, colour: Colour) -> Vec<Cell> {
        let mut moves = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.is_legal_for(colour, (r, c)) {
                    moves.push((r, c));
                }
            }
        }
        moves
    }

    pub fn legal_moves(&self) -> Vec<Cell> {
        self.legal_moves_for(self.to_move)
    }

    pub fn has_move(&self, colour: Colour) -> bool {
        (0..self.rows).any(|r| (0..self.cols).any(|c| self.is_legal_for(colour, (r, c))))
    }

    /// Puts a disc of the side to move on `cell`, flips, and hands the turn to the other side
    /// (even if it cannot move). Returns the flips. Legality is not checked.
    pub fn play(&mut self, cell: Cell) -> Vec<Cell> {
        let flips = self.flips(cell);
        self.cells[cell.0][cell.1] = Some(self.to_move);
        for &(r, c) in &flips {
            self.cells[r][c] = Some(self.to_move);
        }
        self.to_move = self.to_move.other();
        flips
    }

    pub fn pass(&mut self) {
        self.to_move = self.to_move.other();
    }

    pub fn is_full(&self) -> bool {
        self.cells.iter().flatten().all(Option::is_some)
    }

    /// Neither side can move; under place-anywhere that is exactly a full board.
    pub fn is_over(&self) -> bool {
        if self.variant.place_anywhere {
            return self.is_full();
        }
        !self.has_move(Colour::Black) && !self.has_move(Colour::White)
    }

    /// Disc counts (black, white).
    pub fn score(&self) -> (u32, u32) {
        let count = |colour| {
            self.cells
                .iter()
                .flatten()
                .filter(|&&cell| cell == Some(colour))
                .count()
        };
        (count(Colour::Black) as u32, count(Colour::White) as u32)
    }

    /// The winner by disc count (`None` for a tie), whether or not the game is over.
    pub fn winner(&self) -> Option<Colour> {
        let (black, white) = self.score();
        if black == white {
            return None;
        }
        let more = if black > white {
            Colour::Black
        } else {
            Colour::White
        };
        Some(if self.variant.misere {
            more.other()
        } else {
            more
        })
    }

    /// The board as the protocol prints it.
    pub fn board_rows(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|row| {
                let cells: Vec<String> = row
                    .iter()
                    .map(|cell| cell.map_or('.', Colour::letter).to_string())
                    .collect();
                cells.join(" ")
            })
            .collect()
    }
}

/// What a checked move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPlayed {
    pub colour: Colour,
    pub flips: Vec<Cell>,
    /// The side skipped after the move because it had no legal move.
    pub passed: Option<Colour>,
}

/// The checked game flow: only legal moves are played; the turn goes to the opponent if they
/// can move, back to the mover if only the mover can, and nowhere once neither can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefGame {
    pub board: RefBoard,
    /// `None` once the game is over.
    pub turn: Option<Colour>,
    /// The side skipped when the game began, if any.
    pub passed_at_start: Option<Colour>,
}

impl RefGame {
    /// A game from `board`, with `board.to_move` to move if it can.
    pub fn new(board: RefBoard) -> Self {
        let mover = board.to_move;
        let mut game = RefGame {
            board,
            turn: None,
            passed_at_start: None,
        };
        game.passed_at_start = game.hand_over(mover);
        game
    }

    /// Gives the turn to `next` if it can move, else to the other side if that can, else ends
    /// the game. Returns the side skipped.
    fn hand_over(&mut self, next: Colour) -> Option<Colour> {
        if self.board.has_move(next) {
            self.turn = Some(next);
            self.board.to_move = next;
            None
        } else if self.board.has_move(next.other()) {
            self.turn = Some(next.other());
            self.board.to_move = next.other();
            Some(next)
        } else {
            self.turn = None;
            None
        }
    }

    pub fn legal_moves(&self) -> Vec<Cell> {
        match self.turn {
            Some(colour) => self.board.legal_moves_for(colour),
            None => Vec::new(),
        }
    }

    /// Plays `cell` if it is legal now; `None` (and no change) otherwise.
    pub fn try_play(&mut self, cell: Cell) -> Option<RefPlayed> {
        let colour = self.turn?;
        if !self.board.is_legal_for(colour, cell) {
            return None;
        }
        let flips = self.board.play(cell);
        let passed = self.hand_over(colour.other());
        Some(RefPlayed {
            colour,
            flips,
            passed,
        })
    }

    pub fn is_over(&self) -> bool {
        self.turn.is_none()
    }

    /// `Some(winner)` once the game is over, with `Some(None)` for a tie.
    pub fn outcome(&self) -> Option<Option<Colour>> {
        self.is_over().then(|| self.board.winner())
    }
}

/// The longest input line, in bytes before the `\n`, that the protocol reads as text.
pub const MAX_LINE: usize = 4096;

/// The rule set chosen by the command line of a protocol session: `--rules full|simple`
/// (or `--rules=...`) and `--place-anywhere`. `None` for anything else, such as a subcommand.
pub fn protocol_args(args: &[String]) -> Option<RefVariant> {
    let mut variant = RefVariant::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let rules = match arg.as_str() {
            "--place-anywhere" => {
                variant.place_anywhere = true;
                continue;
            }
            "--rules" => args.next()?.as_str(),
            other => other.strip_prefix("--rules=")?,
        };
        variant.simple = match rules {
            "full" => false,
            "simple" => true,
            _ => return None,
        };
    }
    Some(variant)
}

/// The exact standard output of the line protocol for a whole session. Panics if `args` ask for
/// something else than the protocol or the header is bad or incomplete.
pub fn reference_session(args: &[String], input: &str) -> String {
    reference_session_bytes(args, input.as_bytes())
        .expect("a protocol session with known arguments and a valid header")
}

/// As [`reference_session`] on raw bytes; `None` instead of a panic for arguments other than
/// `--rules full|simple` and `--place-anywhere`, and for a bad or incomplete header (those
/// sessions end with a nonzero status, which is not the emulator's business).
pub fn reference_session_bytes(args: &[String], input: &[u8]) -> Option<String> {
    let mut variant = protocol_args(args)?;
    let mut out = String::new();
    let mut say = |line: &str| {
        out.push_str(line);
        out.push('\n');
    };
    say(if variant.simple { "SIMPLE" } else { "FULL" });

    let mut lines = split_lines(input);
    let mut header = Vec::new();
    for _ in 0..5 {
        header.push(lines.next()?.map(str::trim_ascii)?);
    }
    let side = |text: &str| -> Option<usize> {
        let n = decimal(text)?;
        (3..=26).contains(&n).then_some(n)
    };
    let colour = |text: &str| match text {
        "B" | "b" => Some(Colour::Black),
        "W" | "w" => Some(Colour::White),
        _ => None,
    };
    let (rows, cols) = (side(header[0])?, side(header[1])?);
    let (first, top_left) = (colour(header[2])?, colour(header[3])?);
    variant.misere = match header[4] {
        ">" => false,
        "<" => true,
        _ => return None,
    };

    let mut game = RefGame::new(RefBoard::start(rows, cols, variant, first, top_left));
    print_turn(&game, &mut say);
    for line in lines {
        if game.is_over() {
            break;
        }
        let cell = line.and_then(parse_move);
        let played = cell.and_then(|(r, c)| {
            // 1-based on the wire; 0 is never a row or column.
            game.try_play((r.checked_sub(1)?, c.checked_sub(1)?))
        });
        if played.is_some() {
            say("VALID");
            print_turn(&game, &mut say);
        } else {
            say("INVALID");
        }
    }
    Some(out)
}

/// The input split on `\n` (a last line without one counts too); a line over [`MAX_LINE`]
/// bytes or not UTF-8 is `None`.
fn split_lines(input: &[u8]) -> impl Iterator<Item = Option<&str>> {
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    let pieces = if input.is_empty() {
        None
    } else {
        Some(body.split(|&b| b == b'\n'))
    };
    pieces.into_iter().flatten().map(|line| {
        if line.len() > MAX_LINE {
            None
        } else {
            std::str::from_utf8(line).ok()
        }
    })
}

/// A non-empty run of ASCII digits as a number; saturates rather than fail, since any number
/// too big for a board is as invalid as any other.
fn decimal(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.bytes().fold(0usize, |n, b| {
        n.saturating_mul(10).saturating_add(usize::from(b - b'0'))
    }))
}

/// Exactly two whitespace-separated decimal numbers, 1-based row then column.
fn parse_move(line: &str) -> Option<(usize, usize)> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    match tokens[..] {
        [row, col] => Some((decimal(row)?, decimal(col)?)),
        _ => None,
    }
}

/// The score, the board, then whose turn it is or who won.
fn print_turn(game: &RefGame, say: &mut impl FnMut(&str)) {
    let (black, white) = game.board.score();
    say(&format!("B: {black}  W: {white}"));
    for row in game.board.board_rows() {
        say(&row);
    }
    match (game.turn, game.outcome()) {
        (Some(colour), _) => say(&format!("TURN: {}", colour.letter())),
        (None, outcome) => {
            let name = match outcome.flatten() {
                Some(colour) => colour.letter().to_string(),
                None => "NONE".to_string(),
            };
            say(&format!("WINNER: {name}"));
        }
    }
}

/// Choices from the case's seed (splitmix64), so that a failing case replays exactly.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
    pub fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.below(choices.len())]
    }
    pub fn pick_owned(&mut self, mut choices: Vec<String>) -> String {
        choices.swap_remove(self.below(choices.len()))
    }
}

/// The case count of a property test: `default`, or `PROPTEST_CASES` for long soak runs.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}
