//! The layout of a training file (see the module above): its header by version, and its
//! fixed-size records, packed and unpacked.

use crate::rules::{Bits, Color, Position, RuleSet, Shape, Variant};

pub(super) const MAGIC: &[u8; 8] = b"OTHELLOD";
pub(super) const VERSION: u32 = 2;
/// The header of version 1: no count of records.
pub(super) const HEADER_V1: usize = 17;
/// Where the count of records stands, and the length of the header.
pub(super) const COUNT_AT: usize = 17;
pub(super) const HEADER: usize = 25;
/// The count of a file still being written.
pub(super) const OPEN: u64 = u64::MAX;

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

/// What the positions of a file are played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub shape: Shape,
    pub variant: Variant,
}

impl Board {
    pub(super) fn bytes_per_side(self) -> usize {
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
    pub(in crate::train) fn from_header(bytes: &[u8]) -> Result<(Board, usize), String> {
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
    pub(super) fn check(self, record: &[u8]) -> Result<(), String> {
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
    pub(super) bytes: Vec<u8>,
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
