//! The named openings.
