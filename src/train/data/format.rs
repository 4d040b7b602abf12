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
//!
//! Version 2 adds, after the rules bytes, the number of records (u64), so that a file cut short,
//! even between two records, is caught; `u64::MAX` there marks a file still being written (a
//! `train gen` run stopped or under way), whose count is set when the run ends. Version 1 files
//! (no count) are still read by `train fit` and `train test`; `train gen` adds to none.

use crate::files::{FileLock, LockKind};
use crate::rules::{Bits, Color, Position, RuleSet, Shape, Variant};
use crate::words::Counted;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"OTHELLOD";
const VERSION: u32 = 2;
/// The header of version 1: no count of records.
const HEADER_V1: usize = 17;
/// Where the count of records stands, and the length of the header.
const COUNT_AT: usize = 17;
const HEADER: usize = 25;
/// The count of a file still being written.
const OPEN: u64 = u64::MAX;

/// What a file's header says of its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A version 1 file, which does not say.
    Unknown,
    /// Still being written, or left so by a run that stopped.
    Open,
    /// Finished, with this many records.
    Finished(u64),
}

/// A file's header read.
#[derive(Clone, Copy, Debug)]
struct Head {
    board: Board,
    count: Count,
    /// The header's length: where the records begin.
    len: usize,
}

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

    /// The header of a file of this board that is still being written (see [`Count`]).
    pub fn header(self) -> Vec<u8> {
        self.header_counting(OPEN)
    }

    /// The header of a finished file of `records` records.
    pub fn header_counting(self, records: u64) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend([
            self.shape.rows() as u8,
            self.shape.cols() as u8,
            u8::from(self.variant.rule_set == RuleSet::Simple),
            u8::from(self.variant.misere),
            u8::from(self.variant.place_anywhere),
        ]);
        out.extend_from_slice(&records.to_le_bytes());
        out
    }

    /// Reads the first [`HEADER_V1`] bytes of a header: the board, and the header's length
    /// by its version.
    fn from_header(bytes: &[u8]) -> Result<(Board, usize), String> {
        if bytes.len() < HEADER_V1 || &bytes[..8] != MAGIC {
            return Err("not a training file (no OTHELLOD header)".into());
        }
        let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        let len = match version {
            1 => HEADER_V1,
            VERSION => HEADER,
            _ => {
                return Err(format!(
                    "training file version {version}; this program reads 1 and {VERSION}"
                ))
            }
        };
        let shape = Shape::new(bytes[12].into(), bytes[13].into()).map_err(|e| e.to_string())?;
        if let Some(&b) = bytes[14..HEADER_V1].iter().find(|&&b| b > 1) {
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
        Ok((Board { shape, variant }, len))
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
    /// The length of its header (by its version): where the records begin.
    pub header_len: usize,
    /// Bytes after the last whole record (a write cut short), left out.
    pub torn: usize,
}

/// Reads a training file, as many positions as a fit takes
/// ([`crate::train::fit::max_positions`]). A finished file that holds other than the records
/// its header counts is refused.
pub fn read(path: &Path) -> Result<DataFile, String> {
    let (head, _, _) = open(path)?;
    let records = read_all(&[path], crate::train::fit::max_positions, |_| {})?;
    let len = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    let whole = (head.len + records.len() * head.board.record_len()) as u64;
    Ok(DataFile {
        records,
        header_len: head.len,
        torn: len.saturating_sub(whole) as usize,
    })
}

/// Whether a file whose header says `count` and that holds `records` whole records and `torn`
/// bytes more is whole: an error where a finished file holds other than its count (cut short,
/// even between records, or grown); a warning where a file still being written, or one of
/// version 1, is read as far as it goes.
fn check_count(
    path: &Path,
    count: Count,
    records: u64,
    torn: usize,
) -> Result<Option<String>, String> {
    let name = path.display();
    let torn_part = |lead: &str, tail: &str| match torn {
        0 => String::new(),
        n => format!("{lead}{} of a torn last one{tail}", Counted(n, "byte")),
    };
    match count {
        Count::Finished(n) if n == records && torn == 0 => Ok(None),
        Count::Finished(n) => Err(format!(
            "{name}: its header counts {} but it holds {}{}: the file was cut short or \
             damaged (make it again)",
            Counted(n, "position"),
            Counted(records, "whole position"),
            torn_part(" and ", "")
        )),
        Count::Open => Ok(Some(format!(
            "{name}: not finished (a train gen run stopped, or still runs): its {} read{}",
            Counted(records, "whole position"),
            torn_part(", ", " left out")
        ))),
        Count::Unknown if torn > 0 => Ok(Some(format!(
            "{name}: {} of a torn last record left out",
            Counted(torn, "byte")
        ))),
        Count::Unknown => Ok(None),
    }
}

/// Reads training files of one board into one [`Records`], refused when they hold more than
/// `max_records(board)` positions in all, or when a finished file holds other than the
/// records its header counts; `warn` hears of a file read as far as it goes (one still being
/// written, or a version 1 file with a torn last record).
/// The records come ordered by game number (a game's own in the order of its file), and a
/// game found in two files is refused, so shards of one run, given in any order, read as the
/// records of that run and fit to the same weights.
///
/// The files' lengths are weighed before anything is read or kept, so a file too large is
/// refused at once; one whose length says nothing (a pipe) is refused once past the cap.
pub fn read_all(
    paths: &[impl AsRef<Path>],
    max_records: impl Fn(Board) -> usize,
    mut warn: impl FnMut(String),
) -> Result<Records, String> {
    let mut opened = Vec::new();
    let mut promised = 0u64;
    for path in paths {
        let path = path.as_ref();
        let (head, input, whole) = open(path)?;
        if let Some((first, _, _, _)) = opened.first() {
            if *first != head.board {
                return Err(format!(
                    "{}: another board or rule set than the files before it",
                    path.display()
                ));
            }
        }
        promised += match head.count {
            Count::Finished(n) => n.min(whole.unwrap_or(n)),
            _ => whole.unwrap_or(0),
        };
        opened.push((head.board, head.count, path, input));
    }
    let Some(&(board, _, _, _)) = opened.first() else {
        return Err("no training file".into());
    };
    // Records are numbered in 32 bits where their games are sorted.
    let cap = max_records(board).min(u32::MAX as usize);
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
        let last = opened[opened.len() - 1].2;
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
    let mut runs: Vec<Run> = Vec::new();
    for (file, (_, declared, path, input)) in opened.iter_mut().enumerate() {
        let path: &Path = path;
        let before = count;
        let cut = each_record(path, board, input, |record| {
            count += 1;
            if count > cap as u64 {
                return Err(too_many(path, "too many positions".to_string()));
            }
            let game = u32::from_le_bytes([record[0], record[1], record[2], record[3]]);
            match runs.last_mut() {
                Some(run) if run.game == game && run.file == file as u32 => run.len += 1,
                _ => runs.push(Run {
                    game,
                    start: (count - 1) as u32,
                    len: 1,
                    file: file as u32,
                }),
            }
            records.bytes.extend_from_slice(record);
            Ok(())
        })?;
        if let Some(warning) = check_count(path, *declared, count - before, cut)? {
            warn(warning);
        }
    }
    let in_order = runs.windows(2).all(|w| w[0].game <= w[1].game);
    if !in_order {
        // Stable: a game's records keep their order, and a game is in one file only.
        runs.sort_by_key(|run| run.game);
    }
    if let Some(w) = runs
        .windows(2)
        .find(|w| w[0].game == w[1].game && w[0].file != w[1].file)
    {
        let (a, b) = (w[0].file.min(w[1].file), w[0].file.max(w[1].file));
        return Err(format!(
            "game {} is in both {} and {}: each game may be given once (shards of one run \
             do not overlap)",
            w[0].game,
            opened[a as usize].2.display(),
            opened[b as usize].2.display()
        ));
    }
    if !in_order {
        let len = board.record_len();
        let mut sorted = Vec::with_capacity(records.bytes.len());
        for run in &runs {
            let at = run.start as usize * len;
            sorted.extend_from_slice(&records.bytes[at..at + run.len as usize * len]);
        }
        records.bytes = sorted;
    }
    Ok(records)
}

/// Records of one game, one after another in one file: the `len` records from number `start`
/// (counted over all the files read) of file number `file`.
struct Run {
    game: u32,
    start: u32,
    len: u32,
    file: u32,
}

/// Opens a training file and reads its header: what it says, the file at its first record,
/// and the whole records that its length promises where it has one (a regular file).
fn open(path: &Path) -> Result<(Head, BufReader<File>, Option<u64>), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let mut input = BufReader::new(file);
    let short = |e: io::Error| match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            format!("{}: not a training file (too short)", path.display())
        }
        _ => format!("{}: {e}", path.display()),
    };
    let mut header = [0u8; HEADER];
    input.read_exact(&mut header[..HEADER_V1]).map_err(short)?;
    let (board, header_len) =
        Board::from_header(&header).map_err(|e| format!("{}: {e}", path.display()))?;
    let count = if header_len == HEADER {
        input.read_exact(&mut header[HEADER_V1..]).map_err(short)?;
        match u64::from_le_bytes(header[COUNT_AT..HEADER].try_into().expect("8 bytes")) {
            OPEN => Count::Open,
            n => Count::Finished(n),
        }
    } else {
        Count::Unknown
    };
    let whole = len.map(|len| len.saturating_sub(header_len as u64) / board.record_len() as u64);
    let head = Head {
        board,
        count,
        len: header_len,
    };
    Ok((head, input, whole))
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

/// What a training file holds, read record by record with little memory.
struct Scan {
    /// The games in the range asked for, in order, each once.
    games: Vec<u32>,
    /// A game outside that range, if the file holds one.
    outside: Option<u32>,
    /// What its header says of its records.
    count: Count,
    /// The length of the header and the whole records.
    whole: u64,
    /// The file's length: `whole` and a torn last record.
    len: u64,
    /// Where the records of the file's last game begin (its last run of records), so that a
    /// game cut short by a stop can be cut whole.
    last_game_at: u64,
}

/// Reads the training file at `path`, which must be a version 2 file of `board`, checking
/// every record, and for a finished file the count of them.
fn scan(path: &Path, board: Board, range: Range<u64>) -> Result<Scan, String> {
    let (head, input, _) = open(path)?;
    if head.board != board {
        return Err(format!(
            "{} holds positions of another board or rule set",
            path.display()
        ));
    }
    if head.count == Count::Unknown {
        return Err(format!(
            "{}: a version 1 training file, which train gen does not add to (train fit and \
             train test still read it): give a new --out",
            path.display()
        ));
    }
    let len = board.record_len() as u64;
    let mut games: Vec<u32> = Vec::new();
    let mut outside = None;
    let mut records = 0u64;
    let mut last: Option<u32> = None;
    let mut last_game_at = HEADER as u64;
    let cap = 2 * (range.end - range.start).min(1 << 31);
    let torn = each_record(path, board, input, |record| {
        let game = u32::from_le_bytes([record[0], record[1], record[2], record[3]]);
        if last != Some(game) {
            last = Some(game);
            last_game_at = HEADER as u64 + records * len;
            if !range.contains(&(game as u64)) {
                outside.get_or_insert(game);
            } else if games.last() != Some(&game) {
                games.push(game);
                // Games that come back time and again stay at most twice the games asked for.
                if games.len() as u64 > cap {
                    games.sort_unstable();
                    games.dedup();
                }
            }
        }
        records += 1;
        Ok(())
    })?;
    check_count(path, head.count, records, torn)?;
    games.sort_unstable();
    games.dedup();
    let whole = HEADER as u64 + records * len;
    Ok(Scan {
        games,
        outside,
        count: head.count,
        whole,
        len: whole + torn as u64,
        last_game_at,
    })
}

/// Opens `path` for adding records: a new (or empty) file gets the header; an existing one
/// must be a version 2 training file for `board`, whose records are all checked (and, for a
/// finished file, counted against its header), and loses a torn last record. Anything else
/// (another file, a folder, a pipe) is refused and left as it was. The file is locked for the
/// run (`.NAME.lock` beside it), so that two runs do not add to it at once. Returns the file,
/// which of the games `range` it already holds, in order, and what keeps its count.
pub fn open_for_append(
    path: &Path,
    board: Board,
    range: Range<u64>,
) -> Result<(File, Vec<u32>, Appending), String> {
    let name = || path.display();
    let appending = |lock, open| Appending {
        path: path.to_path_buf(),
        board,
        open,
        _lock: lock,
    };
    let lock = || match FileLock::try_take(path, LockKind::Exclusive) {
        Ok(Some(lock)) => Ok(lock),
        Ok(None) => Err(format!("{}: another run is adding to it", name())),
        Err(e) => Err(format!("{}: {e}", FileLock::path_for(path).display())),
    };
    let len = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(format!(
                "{}: not a regular file, so no training file is written there",
                name()
            ))
        }
        Ok(m) => m.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let lock = lock()?;
            // Created only if still absent: an existing file is never truncated.
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", name()))?;
            let (file, done) = start(path, file, board)?;
            return Ok((file, done, appending(lock, true)));
        }
        Err(e) => return Err(format!("{}: {e}", name())),
    };
    let lock = lock()?;
    if len == 0 {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", name()))?;
        let (file, done) = start(path, file, board)?;
        return Ok((file, done, appending(lock, true)));
    }
    // Only the games asked for are kept, so a large file is scanned in little memory.
    let held = scan(path, board, range)?;
    // A torn last record is cut through a copy renamed over the file, never in place.
    if held.whole < held.len {
        crate::files::cut_to(path, held.whole).map_err(|e| format!("{}: {e}", name()))?;
    }
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", name()))?;
    Ok((file, held.games, appending(lock, held.count == Count::Open)))
}

/// A training file that a run adds to: what sets its count once the run is done.
#[derive(Debug)]
pub struct Appending {
    path: PathBuf,
    board: Board,
    /// Whether its header says it is still being written (new, or left so by a stopped run).
    open: bool,
    _lock: FileLock,
}

impl Appending {
    /// Marks the file as being written, before the first record is added: a run stopped from
    /// here on leaves it so, and the next run counts its records again.
    pub fn begin(&mut self) -> Result<(), String> {
        if !self.open {
            set_count(&self.path, OPEN)?;
            self.open = true;
        }
        Ok(())
    }

    /// Sets the count of a file being written to its records, once `file` (the file added
    /// to) is synced; a file left as it was keeps its count.
    pub fn finish(self, file: &File) -> Result<(), String> {
        if !self.open {
            return Ok(());
        }
        let name = self.path.display();
        file.sync_all().map_err(|e| format!("{name}: {e}"))?;
        let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
        set_count(&self.path, whole_records(&self.path, self.board, len)?)
    }
}

/// The records of a file of `board` that is `len` bytes long, refused where they are not whole
/// (a write cut short).
fn whole_records(path: &Path, board: Board, len: u64) -> Result<u64, String> {
    let body = len.saturating_sub(HEADER as u64);
    let record = board.record_len() as u64;
    if len < HEADER as u64 || !body.is_multiple_of(record) {
        return Err(format!(
            "{}: ends in a torn record after its run, so its count is not set",
            path.display()
        ));
    }
    Ok(body / record)
}

/// Writes `count` into the header of the training file at `path`, in place: the file is being
/// written by this run under its lock, and the count is one field of fixed length.
fn set_count(path: &Path, count: u64) -> Result<(), String> {
    use std::io::{Seek, SeekFrom};
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.seek(SeekFrom::Start(COUNT_AT as u64))
        .and_then(|_| file.write_all(&count.to_le_bytes()))
        .and_then(|()| file.sync_data())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The hidden file beside a shard's `out` that its games are added to until they are all
/// played: `.NAME.partial`.
pub fn partial_path(out: &Path) -> Result<PathBuf, String> {
    let name = out
        .file_name()
        .ok_or_else(|| format!("{}: names no file", out.display()))?;
    let mut hidden = std::ffi::OsString::from(".");
    hidden.push(name);
    hidden.push(".partial");
    Ok(out.with_file_name(hidden))
}

/// How a shard's file stands when a run starts.
pub enum Shard {
    /// `out` holds every game of the range that gave positions: nothing to play.
    Finished { games: usize },
    /// Games are added to `file`, the partial file, already holding `done`.
    Writing {
        file: File,
        done: Vec<u32>,
        end: ShardEnd,
    },
}

/// What makes a partial file the shard's file once its games are played.
pub struct ShardEnd {
    board: Board,
    partial: PathBuf,
    out: PathBuf,
    /// The partial file began as a copy of `out`, which therefore stands unchanged when no
    /// game adds a position.
    copied: bool,
}

/// Opens the shard of games `range` written to `out`: a shard's file is only ever renamed
/// into place whole, its games gathered meanwhile in [`partial_path`], so a stopped run leaves
/// `out` as it was and the partial file to go on with. An existing `out` must be a finished
/// shard of `board` within `range` (a file of other games, another board, or no training file
/// is refused and left alone); one lacking games (a smaller shard of the same numbers) has
/// them added. A partial file is locked while it is written, so two runs of one shard do not
/// both add to it; taken up again, it loses its last game, which a stop may have cut short.
pub fn open_shard(out: &Path, board: Board, range: Range<u64>) -> Result<Shard, String> {
    let name = out.display();
    let existing = match std::fs::metadata(out) {
        Ok(m) if !m.is_file() => {
            return Err(format!(
                "{name}: not a regular file, so no shard is written there"
            ))
        }
        Ok(m) if m.len() == 0 => None,
        Ok(_) => {
            let held = scan(out, board, range.clone())?;
            if let Some(game) = held.outside {
                return Err(format!(
                    "{name} holds game {game}, not one of this shard's games {} to {}, so it is \
                     not replaced",
                    range.start,
                    range.end - 1
                ));
            }
            if held.count == Count::Open {
                return Err(format!(
                    "{name}: its header says it is still being written, so it is no finished \
                     shard and is not replaced"
                ));
            }
            Some(held)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let partial = partial_path(out)?;
    let pname = partial.display();
    let lock = |file: &File| match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(format!("{pname}: another run is writing this shard"))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{pname}: {e}")),
    };
    let end = |copied| ShardEnd {
        board,
        partial: partial.clone(),
        out: out.to_path_buf(),
        copied,
    };
    match std::fs::symlink_metadata(&partial) {
        Ok(m) if !m.is_file() => Err(format!(
            "{pname}: not a regular file, so no shard is written there"
        )),
        Ok(_) => {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .append(true)
                .open(&partial)
                .map_err(|e| format!("{pname}: {e}"))?;
            lock(&file)?;
            // The partial file is no file a user keeps: it is cut in place, under its lock.
            let cut = |file: &File, len: u64| {
                file.set_len(len)
                    .and_then(|()| file.sync_all())
                    .map_err(|e| format!("{pname}: {e}"))
            };
            let mut head = Vec::new();
            (&file)
                .take(HEADER as u64)
                .read_to_end(&mut head)
                .map_err(|e| format!("{pname}: {e}"))?;
            if head.len() < HEADER && board.header().starts_with(&head) {
                // Stopped while its header was written.
                cut(&file, 0)?;
                file.write_all(&board.header())
                    .map_err(|e| format!("{pname}: {e}"))?;
                return Ok(Shard::Writing {
                    file,
                    done: Vec::new(),
                    end: end(false),
                });
            }
            let refused = |e: String| format!("{e} (remove it to start this shard again)");
            let held = scan(&partial, board, range.clone()).map_err(refused)?;
            if let Some(game) = held.outside {
                return Err(refused(format!(
                    "{pname} holds game {game}, not one of this shard's games {} to {}",
                    range.start,
                    range.end - 1
                )));
            }
            if held.last_game_at < held.len {
                cut(&file, held.last_game_at)?;
            }
            let done = scan(&partial, board, range)?.games;
            Ok(Shard::Writing {
                file,
                done,
                end: end(false),
            })
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let done = existing.map(|held| held.games);
            if done.as_ref().map(Vec::len) == Some((range.end - range.start) as usize) {
                return Ok(Shard::Finished {
                    games: done.map_or(0, |d| d.len()),
                });
            }
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .append(true)
                .create_new(true)
                .open(&partial)
                .map_err(|e| format!("{pname}: {e}"))?;
            lock(&file)?;
            // The copy's header says it is being written; its count is set when it is done.
            let written = file.write_all(&board.header()).and_then(|()| match &done {
                Some(_) => File::open(out).and_then(|mut f| {
                    io::Seek::seek(&mut f, io::SeekFrom::Start(HEADER as u64))?;
                    io::copy(&mut f, &mut file).map(drop)
                }),
                None => Ok(()),
            });
            written.map_err(|e| format!("{pname}: {e}"))?;
            Ok(Shard::Writing {
                file,
                end: end(done.is_some()),
                done: done.unwrap_or_default(),
            })
        }
        Err(e) => Err(format!("{pname}: {e}")),
    }
}

impl ShardEnd {
    /// Makes the partial file, `file`, the shard's file: its records counted into its header,
    /// synced, then renamed over `out`. Where it began as a copy of `out` and `added` nothing,
    /// it is removed instead, and `out` stands as it was.
    pub fn finish(self, file: File, added: bool) -> Result<(), String> {
        let pname = self.partial.display();
        file.sync_all().map_err(|e| format!("{pname}: {e}"))?;
        // Renamed or removed while still locked, so no other run takes it up meanwhile.
        let done = if self.copied && !added {
            std::fs::remove_file(&self.partial).map_err(|e| format!("{pname}: {e}"))
        } else {
            // Counted from its length: every record in it was checked or written by a run.
            let len = file.metadata().map_err(|e| format!("{pname}: {e}"))?.len();
            let records = whole_records(&self.partial, self.board, len)?;
            set_count(&self.partial, records)?;
            std::fs::rename(&self.partial, &self.out)
                .map_err(|e| format!("{}: {e}", self.out.display()))
        };
        drop(file);
        done
    }
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
