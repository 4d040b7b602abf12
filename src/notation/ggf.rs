//! GGF game records, as NBoard's `set game` sends them and files keep them:
//! `(;GM[Othello]...BO[8 <cells> *]B[f5]W[d6/-1.00/0.5];)`. The board (`BO`) and the moves
//! (`B`, `W`) fix the game; every other property (players, result, date, type, ...) is kept as
//! it was written, so that a record read and written again loses none of them. A file may
//! hold many games, one after another, and GGS's match lines put a count before the games of
//! a match (`1 (;...;)`, `2 (;...;)(;...;)`).

use crate::rules::{Color, Move, MAX_SIDE, MIN_SIDE};

/// The start position and moves of a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfGame {
    /// Rows and columns (GGF boards are square).
    pub size: usize,
    /// The start position, row-major from the top-left.
    pub cells: Vec<Option<Color>>,
    pub to_move: Color,
    pub moves: Vec<(Color, Move)>,
    /// Every other property, in the record's order, but `GM` (always `Othello`): name, value.
    pub properties: Vec<(String, String)>,
}

/// Why a game record was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GgfError {
    #[error("a game record starts with \"(;\" and ends with \";)\"")]
    Brackets,
    #[error("property {0:?} has no closing ']'")]
    Unclosed(String),
    #[error("no board (BO[...]) in the game record")]
    NoBoard,
    #[error("bad board {0:?}: expected a size from 3 to 26, one of '-', '*', 'O' per cell, then '*' or 'O' to move")]
    Board(String),
    #[error("bad move {0:?}: expected a square such as f5 or pa, optionally with /eval/time")]
    Move(String),
    /// Text between properties that is none, at character `at` (from 1) of the record's text.
    #[error(
        "character {at}: {found:?} is not a property (a name in capitals, then its value in [...])"
    )]
    NotAProperty { at: usize, found: String },
    /// A move by the side not to move: a pass is a move of its own in GGF.
    #[error(
        "character {at}: move {number} is {}'s, but {} is to move (a pass is written as a move, PA)",
        .color.name(),
        .expected.name()
    )]
    OutOfTurn {
        at: usize,
        number: usize,
        color: Color,
        expected: Color,
    },
}

impl GgfGame {
    /// The standard 8x8 start, black to move, and `moves` played from it.
    pub fn standard(moves: Vec<(Color, Move)>) -> GgfGame {
        let mut cells = vec![None; 64];
        let (b, w) = (Some(Color::Black), Some(Color::White));
        (cells[27], cells[28], cells[35], cells[36]) = (w, b, b, w);
        GgfGame {
            size: 8,
            cells,
            to_move: Color::Black,
            moves,
            properties: Vec::new(),
        }
    }

    /// The value of the property `name`, if the record has it.
    pub fn property(&self, name: &str) -> Option<&str> {
        property(&self.properties, name)
    }

    /// Whether GGS's game type (`TY`) says anti-Othello (`8a`): the fewer discs win.
    pub fn anti(&self) -> bool {
        self.property("TY").is_some_and(is_anti)
    }
}

/// The value of the property `name` among `properties`, if it is there.
pub fn property<'a>(properties: &'a [(String, String)], name: &str) -> Option<&'a str> {
    properties
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Whether a GGS game type is anti-Othello: its letters, after the board size, include `a`
/// (`8a`, `s8a`, `10ar12`).
pub fn is_anti(kind: &str) -> bool {
    kind.trim_start_matches(|c: char| c.is_ascii_alphabetic() && c != 'a')
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .contains('a')
}

impl std::str::FromStr for GgfGame {
    type Err = GgfError;
    fn from_str(text: &str) -> Result<GgfGame, GgfError> {
        parse_ggf(text)
    }
}

impl std::fmt::Display for GgfGame {
    /// `(;GM[Othello]<properties>BO[8 <row> ... *]B[f5]W[d6];)`: a row per block, `*` black,
    /// `O` white.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mark = |disc: Option<Color>| match disc {
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
            None => '-',
        };
        f.write_str("(;GM[Othello]")?;
        for (name, value) in &self.properties {
            write!(f, "{name}[{value}]")?;
        }
        write!(f, "BO[{}", self.size)?;
        for row in self.cells.chunks(self.size.max(1)) {
            let row: String = row.iter().map(|&d| mark(d)).collect();
            write!(f, " {row}")?;
        }
        write!(f, " {}]", mark(Some(self.to_move)))?;
        for (color, played) in &self.moves {
            let tag = match color {
                Color::Black => 'B',
                Color::White => 'W',
            };
            write!(f, "{tag}[{played}]")?;
        }
        f.write_str(";)")
    }
}

/// Reads a GGF game record (text after it is ignored). Between `(;` and `;)` stand properties
/// only, a name in capitals and its value in brackets, with white space between them; anything
/// else (a stray byte, a name in small letters, a nested variation) is refused where it stands,
/// never skipped. Each move must be the side to move's, passes written, so that no move is
/// dropped or played by the other side.
pub fn parse_ggf(text: &str) -> Result<GgfGame, GgfError> {
    parse_one(text).map(|(game, _)| game)
}

/// Why a file of game records was refused: the game's number (from 1) and why. The first
/// game's error reads as a lone record's (its characters count from the file's start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfFileError {
    pub number: usize,
    pub error: GgfError,
}

impl std::fmt::Display for GgfFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.number > 1 {
            write!(f, "game {}: ", self.number)?;
        }
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for GgfFileError {}

/// Reads every game record of a text: records one after another, white space between them,
/// each group of a GGS match line after its count (`2 (;...;)(;...;)`). A text that holds no
/// record is refused as one without brackets.
pub fn parse_ggf_games(text: &str) -> Result<Vec<GgfGame>, GgfFileError> {
    let mut games = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let number = games.len() + 1;
        // A match line's count of games: digits, then white space, before the first.
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits > 0 && rest[digits..].starts_with(char::is_whitespace) {
            rest = rest[digits..].trim_start();
        }
        let (game, used) = parse_one(rest).map_err(|error| GgfFileError { number, error })?;
        games.push(game);
        rest = rest[used..].trim_start();
    }
    if games.is_empty() {
        return Err(GgfFileError {
            number: 1,
            error: GgfError::Brackets,
        });
    }
    Ok(games)
}

/// One record from the start of `text`, and how many bytes of `text` it took.
fn parse_one(text: &str) -> Result<(GgfGame, usize), GgfError> {
    // Where `rest` stands in `text`, as a character from 1.
    let at = |rest: &str| text[..text.len() - rest.len()].chars().count() + 1;
    let mut rest = text
        .trim_start()
        .strip_prefix("(;")
        .ok_or(GgfError::Brackets)?;
    let mut board = None;
    let mut moves = Vec::new();
    let mut properties = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(";)") {
            rest = after;
            break;
        }
        if rest.is_empty() {
            return Err(GgfError::Brackets);
        }
        let name_len = rest
            .find(|c: char| !c.is_ascii_uppercase())
            .unwrap_or(rest.len());
        let key = &rest[..name_len];
        if key.is_empty() || !rest[name_len..].starts_with('[') {
            let first = rest.chars().next().map_or(0, char::len_utf8);
            let word = rest
                .find(|c: char| !c.is_alphanumeric())
                .unwrap_or(rest.len());
            let found = &rest[..if word == 0 { first } else { word }];
            return Err(GgfError::NotAProperty {
                at: at(rest),
                found: found.to_string(),
            });
        }
        let close = rest[name_len..]
            .find(']')
            .ok_or_else(|| GgfError::Unclosed(key.to_string()))?
            + name_len;
        let value = &rest[name_len + 1..close];
        match key {
            "BO" => board = Some(parse_board(value)?),
            "B" => moves.push((Color::Black, parse_move(value)?, at(rest))),
            "W" => moves.push((Color::White, parse_move(value)?, at(rest))),
            "GM" => {}
            _ => properties.push((key.to_string(), value.to_string())),
        }
        rest = &rest[close + 1..];
    }
    let (size, cells, to_move) = board.ok_or(GgfError::NoBoard)?;
    let mut expected = to_move;
    for (i, &(color, _, at)) in moves.iter().enumerate() {
        if color != expected {
            return Err(GgfError::OutOfTurn {
                at,
                number: i + 1,
                color,
                expected,
            });
        }
        expected = color.opposite();
    }
    let game = GgfGame {
        size,
        cells,
        to_move,
        moves: moves.into_iter().map(|(c, m, _)| (c, m)).collect(),
        properties,
    };
    Ok((game, text.len() - rest.len()))
}

/// A colour as GGF boards write it: `*` black, `O` white.
fn disc(c: char) -> Option<Option<Color>> {
    match c {
        '-' | '.' => Some(None),
        '*' | 'X' | 'x' | '#' => Some(Some(Color::Black)),
        'O' | 'o' => Some(Some(Color::White)),
        _ => None,
    }
}

/// `8 <64 cells, spaces allowed between them> <side to move>`.
fn parse_board(value: &str) -> Result<(usize, Vec<Option<Color>>, Color), GgfError> {
    let bad = || GgfError::Board(value.to_string());
    let value = value.trim();
    let digits = value.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let size: usize = value[..digits].parse().map_err(|_| bad())?;
    if !(MIN_SIDE..=MAX_SIDE).contains(&size) {
        return Err(bad());
    }
    let marks: Vec<char> = value[digits..]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let Some((&side, cells)) = marks.split_last() else {
        return Err(bad());
    };
    if cells.len() != size * size {
        return Err(bad());
    }
    let cells = cells
        .iter()
        .map(|&c| disc(c))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(bad)?;
    let to_move = disc(side).flatten().ok_or_else(bad)?;
    Ok((size, cells, to_move))
}

/// A move such as `f5`, `F5/-1.00/0.5`, `pa` or `pass`.
pub fn parse_move(value: &str) -> Result<Move, GgfError> {
    let played = value.split('/').next().unwrap_or("").trim();
    played
        .parse::<Move>()
        .map_err(|_| GgfError::Move(value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;

    const START: &str = "---------------------------O*------*O---------------------------";

    #[test]
    fn records_round_trip() {
        let game = GgfGame::standard(vec![
            (Color::Black, Move::Play(Square::new(4, 5))),
            (Color::White, Move::Pass),
        ]);
        let text = game.to_string();
        assert!(text.starts_with("(;GM[Othello]BO[8 -------- "), "{text}");
        assert!(text.ends_with(" *]B[f5]W[pa];)"), "{text}");
        assert_eq!(text.parse::<GgfGame>(), Ok(game));
    }

    #[test]
    fn reads_nboards_record() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[8]\
             BO[8 {START} *]B[F5]W[f6/-1.00/0.1]B[pa];)"
        );
        let game = parse_ggf(&text).unwrap();
        assert_eq!(game.size, 8);
        assert_eq!(game.to_move, Color::Black);
        assert_eq!(game.cells[27], Some(Color::White));
        assert_eq!(game.cells[28], Some(Color::Black));
        assert_eq!(game.cells.iter().flatten().count(), 4);
        assert_eq!(
            game.moves,
            vec![
                (Color::Black, Move::Play(Square::new(4, 5))),
                (Color::White, Move::Play(Square::new(5, 5))),
                (Color::Black, Move::Pass),
            ]
        );
    }

    /// A record in GGS's archive form keeps its players, ratings, date, clocks, type and
    /// result when read and written again; its moves keep their squares (evaluations and
    /// times, which GGS writes after them, are not kept).
    #[test]
    fn a_ggs_record_keeps_its_properties() {
        let text = format!(
            "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alpha]PW[beta]RB[2197.01]\
             RW[2199.72]TI[05:00//02:00]TY[8]RE[+6.000]BO[8 {START} *]B[d3//3.95]\
             W[c5/-18.40/0.10]B[pass//1.67];)"
        );
        let game = parse_ggf(&text).unwrap();
        assert_eq!(game.property("PB"), Some("alpha"));
        assert_eq!(game.property("RE"), Some("+6.000"));
        assert_eq!(game.property("GM"), None);
        assert!(!game.anti());
        let again = game.to_string();
        assert!(
            again.starts_with(
                "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alpha]PW[beta]\
                 RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[+6.000]BO[8 "
            ),
            "{again}"
        );
        assert!(again.ends_with("B[d3]W[c5]B[pa];)"), "{again}");
        assert_eq!(again.parse::<GgfGame>(), Ok(game));
    }

    #[test]
    fn anti_othello_is_read_from_the_game_type() {
        for (kind, anti) in [
            ("8", false),
            ("8a", true),
            ("s8r18", false),
            ("s8a", true),
            ("10ar12", true),
            ("k8", false),
        ] {
            assert_eq!(is_anti(kind), anti, "{kind}");
        }
    }

    /// Files hold games one after another, and GGS's match lines a count before each match's
    /// games; a broken one is named by its number.
    #[test]
    fn a_file_holds_many_games_and_match_lines() {
        let one = format!("(;GM[Othello]PB[a]BO[8 {START} *]B[f5];)");
        let two = format!("(;GM[Othello]PB[b]TY[8a]BO[8 {START} *]B[d3]W[c3];)");
        let text = format!("{one}\n{two}\n1 {one}\n2 {one}{two}\n");
        let games = parse_ggf_games(&text).unwrap();
        assert_eq!(games.len(), 5);
        assert_eq!(games[1].property("PB"), Some("b"));
        assert!(games[4].anti() && !games[3].anti());
        assert_eq!(games[4].moves.len(), 2);
        let broken = format!("{one}\n(;GM[Othello]B[f5];)\n");
        let err = parse_ggf_games(&broken).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 2: no board (BO[...]) in the game record"
        );
        assert_eq!(parse_ggf_games("  \n").unwrap_err().number, 1);
    }

    #[test]
    fn rows_may_be_spaced_and_boards_of_other_sizes_read() {
        let game = parse_ggf("(;BO[4 ---- -O*- -*O- ---- O];)").unwrap();
        assert_eq!((game.size, game.to_move), (4, Color::White));
        assert_eq!(game.cells[5], Some(Color::White));
    }

    #[test]
    fn refuses_broken_records() {
        assert_eq!(parse_ggf("GM[Othello]"), Err(GgfError::Brackets));
        assert_eq!(parse_ggf("(;GM[Othello];)"), Err(GgfError::NoBoard));
        assert!(matches!(
            parse_ggf("(;BO[8 --- *];)"),
            Err(GgfError::Board(_))
        ));
        assert!(matches!(
            parse_ggf("(;BO[2 ---- *];)"),
            Err(GgfError::Board(_))
        ));
        let bad_move = format!("(;BO[8 {START} *]B[k;)");
        assert!(matches!(parse_ggf(&bad_move), Err(GgfError::Unclosed(_))));
        let bad_square = format!("(;BO[8 {START} *]B[z0];)");
        assert!(matches!(parse_ggf(&bad_square), Err(GgfError::Move(_))));
    }

    #[test]
    fn text_that_is_no_property_is_refused_where_it_stands() {
        let err = |text: &str| parse_ggf(text).unwrap_err().to_string();
        // 8 + 64 + 3 characters before the stray byte.
        let stray = format!("(;GM[Othello]BO[8 {START} *]B[f5]\0W[d6]B[f4];)");
        assert_eq!(
            err(&stray),
            "character 91: \"\\0\" is not a property (a name in capitals, then its value in [...])"
        );
        let lower = format!("(;BO[8 {START} *]B[f5]w[d6];)");
        assert_eq!(
            err(&lower),
            "character 80: \"w\" is not a property (a name in capitals, then its value in [...])"
        );
        let nested = format!("(;BO[8 {START} *](;B[f5]W[d6];);)");
        assert!(err(&nested).starts_with("character 75: \"(\" is not a property"));
        let junk = format!("(;BO[8 {START} *] junk B[f5];)");
        assert!(err(&junk).starts_with("character 76: \"junk\" is not a property"));
        // Spaces and line breaks between properties are no junk; nor is a value holding ";)".
        let spaced = format!("(;GM[Othello]\n  C[hi ;)] BO[8 {START} *]\nB[f5] W[d6];)");
        assert_eq!(parse_ggf(&spaced).unwrap().moves.len(), 2);
    }

    #[test]
    fn each_move_is_the_side_to_moves_and_a_pass_is_written() {
        let err = |text: &str| parse_ggf(text).unwrap_err().to_string();
        let twice = format!("(;BO[8 {START} *]B[f5]B[d6];)");
        assert_eq!(
            err(&twice),
            "character 80: move 2 is Black's, but White is to move (a pass is written as a move, \
             PA)"
        );
        let white_first = format!("(;BO[8 {START} *]W[f5];)");
        assert!(err(&white_first).starts_with("character 75: move 1 is White's, but Black"));
        let white_to_move = format!("(;BO[8 {START} O]W[f4]B[pa]W[e3];)");
        assert_eq!(parse_ggf(&white_to_move).unwrap().moves.len(), 3);
    }
}
