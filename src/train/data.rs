//! Training positions on disk.
//!
//! A file (little-endian) is a header: the magic `OTHELLOD`, the format version (u32), rows,
//! columns, rule set (0 full, 1 simple), misère (0/1) and place-anywhere (0/1) as bytes; then
//! fixed-size records, one per position: the game's number (u32), the black discs and the white
//! discs as bit sets of `ceil(cells / 8)` bytes each (cell `i` is bit `i % 8` of byte `i / 8`,
//! cells numbered row by row from the top-left), the side to move (0 Black, 1 White), the label
//! (i16: the final disc difference for the side to move, counted as the search counts it, so
//! under misère fewer discs is a positive label) and whether the label is exact (1) or the
//! game's result backed up from a later exact solve (0). For 8x8 a record is 24 bytes.

use crate::rules::{Bits, Color, Position, RuleSet, Shape, Variant};
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"OTHELLOD";
const VERSION: u32 = 1;
const HEADER: usize = 17;

/// What the positions of a file are played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub shape: Shape,
    pub variant: Variant,
}

impl Board {
    fn bytes_per_side(self) -> usize {
        self.shape.cells().div_ceil(8)
    }

    /// The size of one record.
    pub fn record_len(self) -> usize {
        4 + 2 * self.bytes_per_side() + 1 + 2 + 1
    }

    pub fn header(self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend([
            self.shape.rows() as u8,
            self.shape.cols() as u8,
            u8::from(self.variant.rule_set == RuleSet::Simple),
            u8::from(self.variant.misere),
            u8::from(self.variant.place_anywhere),
        ]);
        out
    }

    fn from_header(bytes: &[u8]) -> Result<Board, String> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("not a training file (no OTHELLOD header)".into());
        }
        let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if version != VERSION {
            return Err(format!(
                "training file version {version}; this program reads {VERSION}"
            ));
        }
        let shape = Shape::new(bytes[12].into(), bytes[13].into()).map_err(|e| e.to_string())?;
        if let Some(&b) = bytes[14..HEADER].iter().find(|&&b| b > 1) {
            return Err(format!(
                "not a training file (a rules byte of {b}, where 0 or 1 belongs)"
            ));
        }
        let variant = Variant {
            rule_set: if bytes[14] == 1 {
                RuleSet::Simple
            } else {
                RuleSet::Full
            },
            misere: bytes[15] == 1,
            place_anywhere: bytes[16] == 1,
        };
        Ok(Board { shape, variant })
    }

    /// Why `record` (one record's bytes) holds no position of this board, if it does not:
    /// both colours on one cell, a disc past the last cell, a side to move or an exactness
    /// flag other than 0 or 1, or a label larger than the board. Every reader checks each
    /// record here, so what is fitted or measured never indexes past a table.
    fn check(self, record: &[u8]) -> Result<(), String> {
        let n = self.bytes_per_side();
        let cells = self.shape.cells();
        let (black, white) = (&record[4..4 + n], &record[4 + n..4 + 2 * n]);
        for (i, (&b, &w)) in black.iter().zip(white).enumerate() {
            if b & w != 0 {
                let cell = 8 * i + (b & w).trailing_zeros() as usize;
                return Err(format!("both colours on cell {cell}"));
            }
            // The bits of the last byte past the last cell.
            let on_board = match cells - 8 * i {
                left if left >= 8 => 0xFF,
                left => (1u8 << left) - 1,
            };
            if (b | w) & !on_board != 0 {
                return Err(format!("a disc off the board (past its {cells} cells)"));
            }
        }
        let (to_move, exact) = (record[4 + 2 * n], record[7 + 2 * n]);
        if to_move > 1 {
            return Err(format!("side to move {to_move} (0 Black, 1 White)"));
        }
        if exact > 1 {
            return Err(format!("exactness flag {exact} (0 or 1)"));
        }
        let label = i16::from_le_bytes([record[5 + 2 * n], record[6 + 2 * n]]);
        if label.unsigned_abs() as usize > cells {
            return Err(format!(
                "label {label}, more discs than the board's {cells} cells"
            ));
        }
        Ok(())
    }
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub game: u32,
    pub black: Vec<u8>,
    pub white: Vec<u8>,
    pub to_move: Color,
    pub label: i16,
    pub exact: bool,
}

impl Sample {
    pub fn new<B: Bits>(
        board: Board,
        game: u32,
        pos: &Position<B>,
        label: i32,
        exact: bool,
    ) -> Self {
        let pack = |set: B| {
            let mut bytes = vec![0u8; board.bytes_per_side()];
            for i in set.iter() {
                bytes[i / 8] |= 1 << (i % 8);
            }
            bytes
        };
        Sample {
            game,
            black: pack(pos.black),
            white: pack(pos.white),
            to_move: pos.to_move,
            label: label.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            exact,
        }
    }

    pub fn position<B: Bits>(&self) -> Position<B> {
        Position {
            black: unpack(&self.black),
            white: unpack(&self.white),
            to_move: self.to_move,
        }
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.black);
        out.extend_from_slice(&self.white);
        out.push(u8::from(self.to_move == Color::White));
        out.extend_from_slice(&self.label.to_le_bytes());
        out.push(u8::from(self.exact));
    }
}

/// A bit set from `ceil(cells / 8)` bytes, cell `i` in bit `i % 8` of byte `i / 8`.
fn unpack<B: Bits>(bytes: &[u8]) -> B {
    let mut set = B::ZERO;
    for (i, &byte) in bytes.iter().enumerate() {
        for bit in 0..8 {
            if byte >> bit & 1 == 1 {
                set |= B::bit(8 * i + bit);
            }
        }
    }
    set
}

/// One record of a [`Records`], read in place.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    board: Board,
    bytes: &'a [u8],
}

impl Record<'_> {
    fn side(&self) -> usize {
        self.board.bytes_per_side()
    }

    pub fn game(&self) -> u32 {
        u32::from_le_bytes([self.bytes[0], self.bytes[1], self.bytes[2], self.bytes[3]])
    }

    pub fn to_move(&self) -> Color {
        if self.bytes[4 + 2 * self.side()] == 1 {
            Color::White
        } else {
            Color::Black
        }
    }

    pub fn label(&self) -> i16 {
        let at = 5 + 2 * self.side();
        i16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    pub fn exact(&self) -> bool {
        self.bytes[7 + 2 * self.side()] == 1
    }

    pub fn position<B: Bits>(&self) -> Position<B> {
        let n = self.side();
        Position {
            black: unpack(&self.bytes[4..4 + n]),
            white: unpack(&self.bytes[4 + n..4 + 2 * n]),
            to_move: self.to_move(),
        }
    }

    pub fn to_sample(&self) -> Sample {
        let n = self.side();
        Sample {
            game: self.game(),
            black: self.bytes[4..4 + n].to_vec(),
            white: self.bytes[4 + n..4 + 2 * n].to_vec(),
            to_move: self.to_move(),
            label: self.label(),
            exact: self.exact(),
        }
    }
}

/// Positions of one board kept as their records, end to end in one buffer (24 bytes a
/// position on 8x8), so that millions of them fit in memory.
#[derive(Clone, Debug)]
pub struct Records {
    board: Board,
    bytes: Vec<u8>,
}

impl Records {
    pub fn new(board: Board) -> Records {
        Records {
            board,
            bytes: Vec::new(),
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn len(&self) -> usize {
        self.bytes.len() / self.board.record_len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn get(&self, i: usize) -> Record<'_> {
        let len = self.board.record_len();
        Record {
            board: self.board,
            bytes: &self.bytes[i * len..(i + 1) * len],
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Record<'_>> + '_ {
        self.bytes
            .chunks_exact(self.board.record_len())
            .map(|bytes| Record {
                board: self.board,
                bytes,
            })
    }
}

/// A training file read whole.
pub struct DataFile {
    pub records: Records,
    /// Bytes after the last whole record (a write cut short), left out.
    pub torn: usize,
}

/// Reads a training file, as many positions as a fit takes
/// ([`crate::train::fit::max_positions`]).
pub fn read(path: &Path) -> Result<DataFile, String> {
    let mut torn = 0;
    let records = read_all(&[path], crate::train::fit::max_positions, |_, cut| {
        torn = cut
    })?;
    Ok(DataFile { records, torn })
}

/// Reads training files of one board into one [`Records`], refused when they hold more than
/// `max_records(board)` positions in all; `torn` hears of each file's torn last record.
///
/// The files' lengths are weighed before anything is read or kept, so a file too large is
/// refused at once; one whose length says nothing (a pipe) is refused once past the cap.
pub fn read_all(
    paths: &[impl AsRef<Path>],
    max_records: impl Fn(Board) -> usize,
    mut torn: impl FnMut(&Path, usize),
) -> Result<Records, String> {
    let mut opened = Vec::new();
    let mut promised = 0u64;
    for path in paths {
        let path = path.as_ref();
        let (board, input, whole) = open(path)?;
        if let Some((first, _, _)) = opened.first() {
            if *first != board {
                return Err(format!(
                    "{}: another board or rule set than the files before it",
                    path.display()
                ));
            }
        }
        promised += whole.unwrap_or(0);
        opened.push((board, path, input));
    }
    let Some(&(board, _, _)) = opened.first() else {
        return Err("no training file".into());
    };
    let cap = max_records(board);
    let too_many = |path: &Path, held: String| {
        format!(
            "{}: {held}; a fit or a test takes at most {cap} on {}x{} (see README, \
             \"Training the evaluation\")",
            path.display(),
            board.shape.rows(),
            board.shape.cols()
        )
    };
    if promised > cap as u64 {
        let last = opened[opened.len() - 1].1;
        return Err(too_many(
            last,
            format!("the files given hold {promised} positions"),
        ));
    }
    let mut records = Records::new(board);
    records
        .bytes
        .reserve_exact(promised as usize * board.record_len());
    let mut count = 0u64;
    for (_, path, input) in opened {
        let cut = each_record(path, board, input, |record| {
            count += 1;
            if count > cap as u64 {
                return Err(too_many(path, "too many positions".to_string()));
            }
            records.bytes.extend_from_slice(record);
            Ok(())
        })?;
        if cut > 0 {
            torn(path, cut);
        }
    }
    Ok(records)
}

/// Opens a training file and reads its header: the board, the file at its first record, and
/// the whole records that its length promises where it has one (a regular file).
fn open(path: &Path) -> Result<(Board, BufReader<File>, Option<u64>), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let mut input = BufReader::new(file);
    let mut header = [0u8; HEADER];
    input.read_exact(&mut header).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            format!("{}: not a training file (too short)", path.display())
        }
        _ => format!("{}: {e}", path.display()),
    })?;
    let board = Board::from_header(&header).map_err(|e| format!("{}: {e}", path.display()))?;
    let whole = len.map(|len| len.saturating_sub(HEADER as u64) / board.record_len() as u64);
    Ok((board, input, whole))
}

/// Calls `f` with each whole record of `input`, a file of `board` past its header, each one
/// checked first (a record that holds no position is an error naming it, counted from 1);
/// returns the bytes of a torn last record. An error of `f` stops the reading.
fn each_record(
    path: &Path,
    board: Board,
    mut input: impl Read,
    mut f: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<usize, String> {
    let mut record = vec![0u8; board.record_len()];
    for number in 1u64.. {
        let mut filled = 0;
        while filled < record.len() {
            match input.read(&mut record[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        if filled < record.len() {
            return Ok(filled);
        }
        board
            .check(&record)
            .map_err(|e| format!("{}: record {number}: {e}", path.display()))?;
        f(&record)?;
    }
    unreachable!("records are counted in 64 bits")
}

/// Opens `path` for adding records: a new (or empty) file gets the header; an existing one
/// must be a training file for `board`, whose records are all checked, and loses a torn last
/// record. Anything else (another file, a folder, a pipe) is refused and left as it was.
/// Returns the file and which of games 0 to `games - 1` it already holds, in order.
pub fn open_for_append(path: &Path, board: Board, games: u32) -> Result<(File, Vec<u32>), String> {
    let name = || path.display();
    let len = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(format!(
                "{}: not a regular file, so no training file is written there",
                name()
            ))
        }
        Ok(m) => m.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // Created only if still absent: an existing file is never truncated.
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", name()))?;
            return start(path, file, board);
        }
        Err(e) => return Err(format!("{}: {e}", name())),
    };
    if len == 0 {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", name()))?;
        return start(path, file, board);
    }
    // Only the games asked for are kept, so a large file is scanned in little memory.
    let mut done: Vec<u32> = Vec::new();
    let mut records = 0u64;
    let (found, input, _) = open(path)?;
    if found != board {
        return Err(format!(
            "{} holds positions of another board or rule set",
            name()
        ));
    }
    each_record(path, board, input, |record| {
        let game = u32::from_le_bytes([record[0], record[1], record[2], record[3]]);
        if game < games && done.last() != Some(&game) {
            done.push(game);
            // Games that come back time and again stay at most twice the games asked for.
            if done.len() > 2 * games as usize {
                done.sort_unstable();
                done.dedup();
            }
        }
        records += 1;
        Ok(())
    })?;
    // A torn last record is cut through a copy renamed over the file, never in place.
    let whole = HEADER as u64 + records * board.record_len() as u64;
    if whole < len {
        crate::files::cut_to(path, whole).map_err(|e| format!("{}: {e}", name()))?;
    }
    done.sort_unstable();
    done.dedup();
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", name()))?;
    Ok((file, done))
}

/// Writes the header of a new training file, still empty, opened for appending.
fn start(path: &Path, mut file: File, board: Board) -> Result<(File, Vec<u32>), String> {
    // An empty file that filled between the look and the opening is left alone.
    if file.metadata().map(|m| m.len()).unwrap_or(1) != 0 {
        return Err(format!("{}: changed while being opened", path.display()));
    }
    file.write_all(&board.header())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((file, Vec::new()))
}
