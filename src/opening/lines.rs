//! Files of opening lines, one move list a line, that a match or a series of games starts from.

use crate::lines::list_entries;
use crate::notation::MoveList;
use crate::rules::{Game, Move, Passes, Setup};
use anyhow::{bail, Context};
use std::io::BufRead;
use std::path::Path;

/// The most an openings file may hold: far more than any list of openings needs, and a bound
/// on what an endless file (`/dev/zero`) costs before it is refused.
pub const MAX_OPENINGS_FILE: u64 = 16 << 20;

/// The openings of the file at `path` (see [`read_openings`]), read whole up to
/// [`MAX_OPENINGS_FILE`]; an error names the file.
pub fn read_openings_file(path: &Path, setup: &Setup) -> anyhow::Result<Vec<Vec<Move>>> {
    let bytes = crate::files::read_capped(path, MAX_OPENINGS_FILE, "an openings file")
        .with_context(|| format!("cannot read {}", path.display()))?;
    read_openings(&bytes[..], setup).with_context(|| path.display().to_string())
}

/// Opening lines, one per line in standard notation (`f5d6c3`, `pa` for a pass); blank lines
/// and lines starting with `#` are skipped. Every line must be playable on `setup`'s board.
pub fn read_openings(input: impl BufRead, setup: &Setup) -> anyhow::Result<Vec<Vec<Move>>> {
    let mut openings = Vec::new();
    for line in list_entries(input) {
        let (number, text) = line?;
        let at = || format!("line {number}");
        let moves = text.parse::<MoveList>().with_context(at)?.0;
        let ends = crate::with_bits!(setup.shape, |B| {
            let mut game = Game::<B>::new(setup, Passes::Explicit)?;
            for (i, &played) in moves.iter().enumerate() {
                if let Err(e) = game.play_listed(played) {
                    bail!("{}: move {} is not legal: {e}", at(), i + 1);
                }
            }
            game.is_over()
        });
        if ends {
            bail!("{}: the opening ends the game", at());
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        bail!("the openings file has no opening lines");
    }
    Ok(openings)
}
