//! The solve journal of each entry, so that an entry stopped at its time limit goes on where it
//! stopped, and what a journal proves so far.

use crate::notation::VariantWords;
use crate::rules::{Color, Rules, Setup, Variant};
use crate::solve::journal::{self, Proved};
use std::path::{Path, PathBuf};

/// The journal of `setup` in the folder of journals.
pub(super) fn journal_path(folder: &Path, setup: &Setup) -> PathBuf {
    let words = VariantWords(setup.variant).to_string().replace(' ', "-");
    folder.join(format!("{}-{words}.txt", setup.shape))
}

/// What the journal of an entry not solved proves of Black − White under perfect play, from
/// the start and after each first move; `None` without a journal.
pub(super) fn proved_leads(folder: &Path, setup: &Setup) -> anyhow::Result<Option<Proved>> {
    let s = *setup;
    let path = journal_path(folder, &s);
    crate::with_bits!(s.shape, |B| {
        let rules = Rules::<B>::new(s.shape, s.variant)?;
        let start = rules.start(s.first, s.top_left);
        let Some(journal) = journal::load(&path, &rules)? else {
            return Ok(None);
        };
        Ok(Some(black_lead(
            Proved::of(&journal, &rules, &start),
            start.to_move,
            s.variant,
        )))
    })
}

/// `proved`, what a journal proves for `first`, the side to move at the start, in the discs it
/// wants (fewer under misère), as Black − White.
pub(super) fn black_lead(proved: Proved, first: Color, variant: Variant) -> Proved {
    if (first == Color::Black) != variant.misere {
        proved
    } else {
        proved.turned_over()
    }
}
