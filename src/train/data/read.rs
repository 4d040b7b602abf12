//! Reading training files: each record checked as it is read, and a finished file's records
//! counted against its header.

use super::format::{Board, Count, Records, COUNT_AT, HEADER, HEADER_V1, OPEN};
use crate::wording::Counted;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::ops::Range;
use std::path::Path;

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

/// A file's header read.
#[derive(Clone, Copy, Debug)]
struct Head {
    board: Board,
    count: Count,
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
    let head = Head { board, count };
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
pub(super) struct Scan {
    /// The games in the range asked for, in order, each once.
    pub games: Vec<u32>,
    /// A game outside that range, if the file holds one.
    pub outside: Option<u32>,
    /// What its header says of its records.
    pub count: Count,
    /// The length of the header and the whole records.
    pub whole: u64,
    /// The file's length: `whole` and a torn last record.
    pub len: u64,
    /// Where the records of the file's last game begin (its last run of records), so that a
    /// game cut short by a stop can be cut whole.
    pub last_game_at: u64,
}

/// Reads the training file at `path`, which must be a version 2 file of `board`, checking
/// every record, and for a finished file the count of them.
pub(super) fn scan(path: &Path, board: Board, range: Range<u64>) -> Result<Scan, String> {
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
