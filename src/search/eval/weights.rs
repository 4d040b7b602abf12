//! Learned pattern weights: one table per pattern and game phase, in hundredths of a disc, and
//! the file they are kept in.
//!
//! The file (little-endian): the magic `OTHELLOW`, the format version (u32), rows, columns, the
//! rule set (0 full, 1 simple), misère (0/1) and place-anywhere (0/1) as bytes, the number of
//! phases and of patterns (u16 each); for each pattern its cell count (u8) and cells as
//! (row, column) byte pairs; then for each phase a bias (i16), every pattern's table of 3^n
//! weights and two mobility tables of [`MOBILITY`] weights (by the number of moves of the side
//! to move, then of its opponent, the last entry standing for that many or more); last, the
//! FNV-1a 64-bit hash of everything before it (u64). The patterns are stored so that a file
//! made for another pattern set is refused rather than misread.

use super::patterns::{phase, Indices, PatternSet};
use crate::rules::{Bits, Position, RuleSet, Rules, Variant};
use crate::search::midgame::probcut::ProbCut;
use std::io::Write as _;
use std::path::Path;
use std::sync::{Arc, OnceLock};

const MAGIC: &[u8; 8] = b"OTHELLOW";
/// Entries of each mobility table.
pub const MOBILITY: usize = 40;
pub const VERSION: u32 = 1;
/// The most phases a weights file holds: more than one a number of empty cells gains nothing
/// on 8x8, and the tables of a phase take up to 0.6 MB unpacked (8x9), so a file can never
/// ask for more than about 40 MB.
pub const MAX_PHASES: usize = 64;

/// Weights for one board shape and variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub rows: usize,
    pub cols: usize,
    pub variant: Variant,
    pub set: PatternSet,
    /// Per phase: a bias, and one table: each pattern's table, then the two mobility tables
    /// (see [`Weights::table`]).
    pub bias: Vec<i16>,
    pub tables: Vec<Vec<i16>>,
    /// How far searches with these weights may be trusted to cut selectively: the file
    /// beside the weights (`NAME.probcut`), if there is one. Not part of the weights file.
    pub probcut: Option<Arc<ProbCut>>,
}

/// Why a weights file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    #[error("not a weights file (no OTHELLOW header)")]
    Magic,
    #[error("weights format version {0}; this program reads version {VERSION}")]
    Version(u32),
    #[error("the weights file is cut short")]
    Short,
    #[error("the weights file is corrupt (checksum mismatch)")]
    Checksum,
    #[error("the weights file's patterns are not this program's patterns for {0}x{1}")]
    Patterns(usize, usize),
    #[error("the weights file has {0} bytes after its tables")]
    Trailing(usize),
    #[error("the weights file has {0} phases; this program reads 1 to {MAX_PHASES}")]
    Phases(usize),
}

impl Weights {
    /// All-zero weights for `rows` x `cols` under `variant`, with `phases` phases.
    pub fn zero(rows: usize, cols: usize, variant: Variant, phases: usize) -> Weights {
        Weights::zero_for(PatternSet::new(rows, cols), rows, cols, variant, phases)
    }

    /// [`Weights::zero`] for the pattern set `set` of `rows` x `cols`.
    fn zero_for(
        set: PatternSet,
        rows: usize,
        cols: usize,
        variant: Variant,
        phases: usize,
    ) -> Weights {
        let tables = vec![vec![0; set.tables_len() + 2 * MOBILITY]; phases];
        Weights {
            rows,
            cols,
            variant,
            set,
            bias: vec![0; phases],
            tables,
            probcut: None,
        }
    }

    pub fn phases(&self) -> usize {
        self.bias.len()
    }

    /// How many tables a phase has: one per pattern, then the two mobility tables.
    pub fn table_count(&self) -> usize {
        self.set.patterns.len() + 2
    }

    /// Where table `k` (of [`Weights::table_count`]) lies in a phase's one table.
    fn table_range(&self, k: usize) -> std::ops::Range<usize> {
        let n = self.set.patterns.len();
        if k < n {
            return self.set.table_range(k);
        }
        let start = self.set.tables_len() + (k - n) * MOBILITY;
        start..start + MOBILITY
    }

    /// Phase `p`'s table `k`: pattern `k`'s weights by index, or for `k` = patterns and
    /// patterns + 1 the mobility weights of the side to move and of its opponent.
    pub fn table(&self, p: usize, k: usize) -> &[i16] {
        &self.tables[p][self.table_range(k)]
    }

    /// [`Weights::table`], to change.
    pub fn table_mut(&mut self, p: usize, k: usize) -> &mut [i16] {
        let range = self.table_range(k);
        &mut self.tables[p][range]
    }

    /// The estimate of `pos` for its side to move, in hundredths of a disc.
    #[inline]
    pub fn evaluate<B: Bits>(&self, rules: &Rules<B>, pos: &Position<B>) -> i32 {
        self.evaluate_with_mobility(rules, pos, both_moves(rules, pos, rules.moves(pos)))
    }

    /// [`Weights::evaluate`], given the moves of both sides, the side to move's first.
    #[inline]
    pub fn evaluate_with_mobility<B: Bits>(
        &self,
        rules: &Rules<B>,
        pos: &Position<B>,
        moves: [B; 2],
    ) -> i32 {
        let (mut sum, table) = self.bias_and_mobility(rules, pos, moves);
        let set = &self.set;
        set.for_each_index(pos, |k, index| sum += table[set.start(k) + index] as i32);
        sum
    }

    /// [`Weights::evaluate_with_mobility`], given the placements' indices for `pos`'s side to
    /// move (see [`PatternSet::play`]).
    #[inline]
    pub fn evaluate_read<B: Bits>(
        &self,
        rules: &Rules<B>,
        pos: &Position<B>,
        moves: [B; 2],
        indices: &Indices,
    ) -> i32 {
        let (sum, table) = self.bias_and_mobility(rules, pos, moves);
        sum + self.set.sum_kept(indices, table)
    }

    /// The phase's bias and mobility weights for `pos`, whose sides have `moves` (the side to
    /// move's first), and the phase's one table.
    #[inline]
    fn bias_and_mobility<B: Bits>(
        &self,
        rules: &Rules<B>,
        pos: &Position<B>,
        moves: [B; 2],
    ) -> (i32, &[i16]) {
        let empties = rules.empty(pos).count() as usize;
        let p = phase(empties, self.set.cells, self.phases());
        let table = &self.tables[p];
        let mobility = self.set.tables_len();
        let [mine, theirs] = moves.map(mobility_entry);
        let sum = self.bias[p] as i32
            + table[mobility + mine] as i32
            + table[mobility + MOBILITY + theirs] as i32;
        (sum, table)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(self.rows as u8);
        out.push(self.cols as u8);
        out.push(u8::from(self.variant.rule_set == RuleSet::Simple));
        out.push(u8::from(self.variant.misere));
        out.push(u8::from(self.variant.place_anywhere));
        out.extend_from_slice(&(self.phases() as u16).to_le_bytes());
        out.extend_from_slice(&(self.set.patterns.len() as u16).to_le_bytes());
        for p in &self.set.patterns {
            out.push(p.cells.len() as u8);
            for &(r, c) in &p.cells {
                out.extend([r as u8, c as u8]);
            }
        }
        for (p, bias) in self.bias.iter().enumerate() {
            out.extend_from_slice(&bias.to_le_bytes());
            for k in 0..self.table_count() {
                pack(self.table(p, k), &mut out);
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a file's bytes, checking the header, the patterns and the checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(WeightsError::Magic);
        }
        let version = u32::from_le_bytes(r.array()?);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        // The checksum first: a damaged file is called damaged, whatever part was hit.
        let body = bytes.len().checked_sub(8).ok_or(WeightsError::Short)?;
        let sum = u64::from_le_bytes(bytes[body..].try_into().map_err(|_| WeightsError::Short)?);
        if body < r.at || sum != fnv1a(&bytes[..body]) {
            return Err(WeightsError::Checksum);
        }
        let mut r = Reader {
            bytes: &bytes[..body],
            at: r.at,
        };
        debug_assert_eq!(r.at, BOARD_BYTES.start);
        let (rows, cols, variant) = board_of(r.take(BOARD_BYTES.len())?);
        let phases = u16::from_le_bytes(r.array()?) as usize;
        let count = u16::from_le_bytes(r.array()?) as usize;
        if !(3..=26).contains(&rows) || !(3..=26).contains(&cols) {
            return Err(WeightsError::Patterns(rows, cols));
        }
        if !(1..=MAX_PHASES).contains(&phases) {
            return Err(WeightsError::Phases(phases));
        }
        // Everything is checked against the bytes there are before the tables are made: the
        // patterns, then the phases, each at least a bias and two bytes a table (one run of
        // zeros), so a short file never costs the memory its header claims.
        let set = PatternSet::new(rows, cols);
        if count != set.patterns.len() {
            return Err(WeightsError::Patterns(rows, cols));
        }
        for p in &set.patterns {
            let n = r.take(1)?[0] as usize;
            let cells: Vec<(usize, usize)> = r
                .take(2 * n)?
                .chunks(2)
                .map(|rc| (rc[0] as usize, rc[1] as usize))
                .collect();
            if cells != p.cells {
                return Err(WeightsError::Patterns(rows, cols));
            }
        }
        let least_phase = 2 + 2 * (set.patterns.len() + 2);
        if body - r.at < phases * least_phase {
            return Err(WeightsError::Short);
        }
        let mut weights = Weights::zero_for(set, rows, cols, variant, phases);
        for p in 0..phases {
            weights.bias[p] = i16::from_le_bytes(r.array()?);
            for k in 0..weights.table_count() {
                r.unpack(weights.table_mut(p, k))?;
            }
        }
        if r.at != body {
            return Err(WeightsError::Trailing(body - r.at));
        }
        Ok(weights)
    }
}

/// Whether `start`, a file's first bytes (8 or more), begins a weights file: the magic alone,
/// so that a damaged weights file is still known as one.
pub fn is_weights_file(start: &[u8]) -> bool {
    start.starts_with(MAGIC)
}

/// `(name, weights, fits)` for each name: the bytes of `weights/NAME.weights` and the text of
/// `weights/NAME.probcut`, the selective search's fits for those weights.
macro_rules! built_in {
    ($($name:literal),* $(,)?) => {
        &[$((
            $name,
            include_bytes!(concat!("../../../weights/", $name, ".weights")),
            include_str!(concat!("../../../weights/", $name, ".probcut")),
        )),*]
    };
}

/// The weights that ship with the program (`weights/` in the source; its README says how they
/// and their fits were made), as file bytes and text. Each is named by its board and what
/// differs from the full rules with the normal goal.
const BUILT_IN: &[(&str, &[u8], &str)] = built_in![
    "8x8",
    "8x8-misere",
    "6x6",
    "6x6-misere",
    "6x6-simple",
    "6x6-simple-misere"
];

/// The built-in weights, each read on its first use, so a run pays only for the board it plays
/// (and one that never evaluates for none).
static BUILT_IN_READ: [OnceLock<Option<Arc<Weights>>>; BUILT_IN.len()] =
    [const { OnceLock::new() }; BUILT_IN.len()];

/// The built-in weights for a board and variant, read the first time they are asked for.
pub fn built_in(rows: usize, cols: usize, variant: Variant) -> Option<Arc<Weights>> {
    let board = (rows, cols, variant);
    let i = BUILT_IN
        .iter()
        .position(|(_, bytes, _)| bytes.get(BOARD_BYTES).map(board_of) == Some(board))?;
    BUILT_IN_READ[i].get_or_init(|| read_built_in(i)).clone()
}

fn read_built_in(i: usize) -> Option<Arc<Weights>> {
    let (name, bytes, fits) = BUILT_IN[i];
    match Weights::from_bytes(bytes) {
        Ok(mut w) => {
            w.probcut = fits.parse().ok().and_then(|fits| fitting(&w, fits));
            Some(Arc::new(w))
        }
        Err(e) => {
            // The bytes are compiled in and tested: only a damaged binary gets here.
            let _ = writeln!(
                std::io::stderr(),
                "othello: the built-in {name} weights are damaged ({e}); the classic evaluation \
                 is used"
            );
            None
        }
    }
}

/// Where a weights file's header says its board, after the magic and the version.
const BOARD_BYTES: std::ops::Range<usize> = 12..17;

/// The board and variant of a weights file's header: rows, columns, rule set (1 simple),
/// misère and place-anywhere, one byte each.
fn board_of(header: &[u8]) -> (usize, usize, Variant) {
    let byte = |i: usize| header.get(i).copied().unwrap_or(0);
    let variant = Variant {
        rule_set: if byte(2) == 1 {
            RuleSet::Simple
        } else {
            RuleSet::Full
        },
        misere: byte(3) == 1,
        place_anywhere: byte(4) == 1,
    };
    (byte(0).into(), byte(1).into(), variant)
}

/// The largest weights file read: a phase of the largest pattern set packs into at most about
/// 0.5 MB (three bytes a weight), and the built-in files take 0.4-1.6 MB in all.
const MAX_FILE: u64 = 64 << 20;

/// Reads a weights file; a missing, damaged or oversized file is an error naming it.
pub fn read(path: &Path) -> Result<Weights, String> {
    let bytes = crate::files::read_capped(path, MAX_FILE, "a weights file")
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut weights =
        Weights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let beside = path.with_extension("probcut");
    if beside.exists() {
        let text = crate::files::read_capped(&beside, MAX_FILE, "a probcut file")
            .map_err(|e| format!("{}: {e}", beside.display()))?;
        let probcut: ProbCut = String::from_utf8_lossy(&text)
            .parse()
            .map_err(|e| format!("{}: {e}", beside.display()))?;
        weights.probcut = Some(fitting(&weights, probcut).ok_or_else(|| {
            format!(
                "{}: made for another board or rules than its weights",
                beside.display()
            )
        })?);
    }
    Ok(weights)
}

/// `probcut` for `weights`, if it was made for their board and rules.
fn fitting(weights: &Weights, probcut: ProbCut) -> Option<Arc<ProbCut>> {
    let board = |rows, cols, variant| (rows, cols, variant);
    (board(probcut.rows, probcut.cols, probcut.variant)
        == board(weights.rows, weights.cols, weights.variant))
    .then(|| Arc::new(probcut))
}

/// The mobility tables' entries for `pos`: by the number of moves of the side to move, then of
/// its opponent.
pub fn mobility<B: Bits>(rules: &Rules<B>, pos: &Position<B>) -> [usize; 2] {
    both_moves(rules, pos, rules.moves(pos)).map(mobility_entry)
}

/// The moves of both sides of `pos`: `moves`, those of the side to move (`rules.moves(pos)`),
/// then its opponent's.
pub fn both_moves<B: Bits>(rules: &Rules<B>, pos: &Position<B>, moves: B) -> [B; 2] {
    [moves, rules.moves_for(pos.opponent(), pos.mover())]
}

/// A mobility table's entry for a side with `moves`.
#[inline]
fn mobility_entry<B: Bits>(moves: B) -> usize {
    (moves.count() as usize).min(MOBILITY - 1)
}

/// Appends `table` packed, since most configurations are rare and their weights zero or small:
/// a weight `w` other than zero is the LEB128 varint of its zigzag code (`2w` for `w > 0`,
/// `-2w - 1` for `w < 0`); a run of `n` zeros is a zero byte followed by the varint of `n - 1`.
fn pack(table: &[i16], out: &mut Vec<u8>) {
    let varint = |mut v: u32, out: &mut Vec<u8>| loop {
        if v < 0x80 {
            out.push(v as u8);
            break;
        }
        out.push(v as u8 | 0x80);
        v >>= 7;
    };
    let mut i = 0;
    while i < table.len() {
        let w = table[i] as i32;
        if w == 0 {
            let run = table[i..].iter().take_while(|&&x| x == 0).count();
            out.push(0);
            varint(run as u32 - 1, out);
            i += run;
        } else {
            varint(if w > 0 { 2 * w } else { -2 * w - 1 } as u32, out);
            i += 1;
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WeightsError> {
        let slice = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or(WeightsError::Short)?;
        self.at += n;
        Ok(slice)
    }

    fn varint(&mut self) -> Result<u32, WeightsError> {
        let mut v = 0u32;
        for shift in (0..32).step_by(7) {
            let byte = self.take(1)?[0];
            v |= ((byte & 0x7F) as u32) << shift;
            if byte < 0x80 {
                return Ok(v);
            }
        }
        Err(WeightsError::Checksum)
    }

    /// Fills `table` from packed weights.
    fn unpack(&mut self, table: &mut [i16]) -> Result<(), WeightsError> {
        let mut i = 0;
        while i < table.len() {
            let code = self.varint()?;
            if code == 0 {
                let run = self.varint()? as usize + 1;
                let zeros = table.get_mut(i..i + run).ok_or(WeightsError::Checksum)?;
                zeros.fill(0);
                i += run;
            } else {
                let w = if code % 2 == 0 {
                    (code / 2) as i64
                } else {
                    -((code as i64 + 1) / 2)
                };
                table[i] = i16::try_from(w).map_err(|_| WeightsError::Checksum)?;
                i += 1;
            }
        }
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], WeightsError> {
        let mut a = [0; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
}

/// The 64-bit FNV-1a hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_weights_load() {
        // Read directly: turning them on here would change the other tests' engines.
        let mut boards = Vec::new();
        for (i, (name, _, _)) in BUILT_IN.iter().enumerate() {
            let w = read_built_in(i).unwrap_or_else(|| panic!("{name} is damaged"));
            // Each has the selective search's fits, made for its board and rules.
            let probcut = w
                .probcut
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: no probcut"));
            assert!(probcut.fits().len() >= 3, "{name}");
            // The name says the board and the variant: "6x6-simple-misere".
            let mut parts = name.split('-');
            let (rows, cols) = parts.next().unwrap().split_once('x').unwrap();
            let mut variant = Variant::default();
            for part in parts {
                match part {
                    "simple" => variant.rule_set = RuleSet::Simple,
                    "misere" => variant.misere = true,
                    _ => panic!("{name}: unknown part {part}"),
                }
            }
            let board = (rows.parse().unwrap(), cols.parse().unwrap(), variant);
            assert_eq!((w.rows, w.cols, w.variant), board, "{name}");
            assert_eq!(w.set, PatternSet::new(w.rows, w.cols), "{name}");
            assert!(!boards.contains(&board), "{name} is built in twice");
            boards.push(board);
            let found = built_in(board.0, board.1, board.2).unwrap();
            assert_eq!((found.rows, found.cols, found.variant), board, "{name}");
        }
        let none = built_in(7, 7, Variant::default());
        assert!(none.is_none(), "no 7x7 weights are built in");
    }

    #[test]
    fn a_file_reads_back_and_damage_is_refused() {
        let mut w = Weights::zero(6, 6, Variant::default(), 3);
        w.bias[1] = -7;
        w.table_mut(2, 0)[5] = 300;
        w.table_mut(2, 0)[6] = i16::MIN;
        w.table_mut(2, 0)[7] = i16::MAX;
        w.table_mut(0, 1)[0] = -1;
        let last = w.table_count() - 1;
        w.table_mut(0, last)[39] = 5;
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes), Ok(w.clone()));
        let mut bad = bytes.clone();
        bad[bytes.len() / 2] ^= 1;
        assert_eq!(Weights::from_bytes(&bad), Err(WeightsError::Checksum));
        assert_eq!(
            Weights::from_bytes(&bytes[..bytes.len() - 3]),
            Err(WeightsError::Checksum)
        );
        assert_eq!(Weights::from_bytes(&bytes[..10]), Err(WeightsError::Short));
        assert_eq!(Weights::from_bytes(b"nonsense"), Err(WeightsError::Magic));
        let mut other = bytes.clone();
        other[8] = 9;
        assert_eq!(Weights::from_bytes(&other), Err(WeightsError::Version(9)));
        // Extra bytes under a right checksum: not this program's layout.
        let mut longer = bytes[..bytes.len() - 8].to_vec();
        longer.push(0);
        longer.extend_from_slice(&fnv1a(&longer).to_le_bytes());
        assert_eq!(Weights::from_bytes(&longer), Err(WeightsError::Trailing(1)));
    }

    #[test]
    fn a_header_never_costs_more_memory_than_its_file_holds() {
        // A header and its patterns, claiming `phases` phases, with no tables after them.
        let claim = |phases: u16| {
            let mut bytes = Weights::zero(8, 8, Variant::default(), 1).to_bytes();
            let set = PatternSet::new(8, 8);
            let header = 21
                + set
                    .patterns
                    .iter()
                    .map(|p| 1 + 2 * p.cells.len())
                    .sum::<usize>();
            bytes.truncate(header);
            bytes[17..19].copy_from_slice(&phases.to_le_bytes());
            bytes.extend_from_slice(&fnv1a(&bytes).to_le_bytes());
            Weights::from_bytes(&bytes)
        };
        assert_eq!(claim(65_535), Err(WeightsError::Phases(65_535)));
        assert_eq!(claim(0), Err(WeightsError::Phases(0)));
        // Within the cap, the phases must fit in the bytes there are.
        assert_eq!(claim(MAX_PHASES as u16), Err(WeightsError::Short));
        assert_eq!(claim(1), Err(WeightsError::Short));
    }
}
