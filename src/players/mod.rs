//! Players: anything that picks a move for the side to move in a game of any size. The engine
//! wraps the search; random, greedy and fixed-weights players are the yardsticks it is measured
//! against. The table pairs a game with the engine, for the protocols and the terminal game.

mod baseline;
mod book;
mod engine;
mod engine_game;
mod player;

pub use baseline::{Preference, Yardstick};
pub use book::BookUse;
pub use engine::EnginePlayer;
pub use engine_game::{Analysis, AnyEngineGame, EngineGame, EngineGameOf};
pub use player::Player;

use crate::rules::{Bits, Rules};
use crate::search::{Confidence, Config, Evaluation};
use std::fmt;
use std::str::FromStr;

/// Which player, with its settings: `random`, `greedy`, `weights`, or the engine as
/// comma-separated settings such as `depth=6` or `time=50ms,hash=32,seed=7`; an engine cuts
/// selectively at the default confidence unless `probcut=off` or `probcut=SIGMAS` says
/// otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Random,
    Greedy,
    Weights,
    Engine(Config),
}

/// Why a player description was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error(
        "unknown setting {0:?} (expected depth=N, time=DURATION, hash=MB, seed=N, threads=N, \
         eval=NAME or probcut=SIGMAS|off)"
    )]
    Setting(String),
    #[error("{0}")]
    Value(String),
}

impl FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<Self, SpecError> {
        match text.trim() {
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            "weights" => return Ok(PlayerSpec::Weights),
            _ => {}
        }
        let mut config = Config::unlimited().with_probcut(Some(Confidence::DEFAULT));
        let mut seen: Vec<&str> = Vec::new();
        for setting in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = setting
                .split_once('=')
                .ok_or_else(|| SpecError::Setting(setting.to_string()))?;
            let key = key.trim();
            // A second value would silently win over the first: say which one is meant.
            if seen.contains(&key) {
                return Err(SpecError::Value(format!(
                    "{key} is given twice in {:?}: give it once",
                    text.trim()
                )));
            }
            seen.push(key);
            let value = value.trim();
            let number = |what: &str| {
                value.parse::<u64>().map_err(|_| {
                    SpecError::Value(format!("{what} must be a whole number, not {value:?}"))
                })
            };
            let within = |what: &str, range: std::ops::RangeInclusive<u64>| {
                number(what).and_then(|n| {
                    range.contains(&n).then_some(n).ok_or_else(|| {
                        SpecError::Value(format!(
                            "{what}={value}: {what} is from {} to {}",
                            range.start(),
                            range.end()
                        ))
                    })
                })
            };
            match key {
                "depth" => config.depth = Some(within("depth", 1..=MAX_DEPTH as u64)? as u32),
                "time" => {
                    config.move_time =
                        Some(crate::durations::parse(value).map_err(SpecError::Value)?)
                }
                "hash" => config.hash_mb = parse_hash_mb(value).map_err(SpecError::Value)?,
                "seed" => config.seed = Some(number("seed")?),
                "threads" => config.threads = within("threads", 1..=MAX_THREADS as u64)? as usize,
                "eval" => config.eval = value.parse().map_err(SpecError::Value)?,
                "probcut" => {
                    config.probcut = match value {
                        "off" => None,
                        _ => Some(value.parse().map_err(SpecError::Value)?),
                    }
                }
                _ => return Err(SpecError::Setting(setting.to_string())),
            }
        }
        if config.depth.is_none() && config.move_time.is_none() {
            config.move_time = Config::default().move_time;
        }
        Ok(PlayerSpec::Engine(config))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Weights => f.write_str("weights"),
            PlayerSpec::Engine(c) => {
                let mut parts = Vec::new();
                if let Some(d) = c.depth {
                    parts.push(format!("depth={d}"));
                }
                if let Some(t) = c.move_time {
                    parts.push(format!("time={}ms", t.as_millis()));
                }
                parts.push(format!("hash={}", c.hash_mb));
                if let Some(s) = c.seed {
                    parts.push(format!("seed={s}"));
                }
                if c.threads > 1 {
                    parts.push(format!("threads={}", c.threads));
                }
                if c.eval == Evaluation::Classic {
                    parts.push(format!("eval={}", c.eval));
                }
                match c.probcut {
                    Some(Confidence::DEFAULT) => {}
                    Some(confidence) => parts.push(format!("probcut={confidence}")),
                    None => parts.push("probcut=off".to_string()),
                }
                f.write_str(&parts.join(","))
            }
        }
    }
}

impl PlayerSpec {
    /// This player with its engine's evaluation chosen within the program's `chosen` one
    /// (see [`Evaluation::within`]).
    pub fn evaluating_within(self, chosen: &Evaluation) -> PlayerSpec {
        match self {
            PlayerSpec::Engine(config) => {
                let eval = config.eval.within(chosen);
                PlayerSpec::Engine(config.with_eval(eval))
            }
            other => other,
        }
    }

    /// A player for games under `rules`. `seed` varies the yardsticks' choices between equal
    /// moves; the engine plays from `book` where it has the position.
    pub fn build<B: Bits>(
        &self,
        rules: Rules<B>,
        seed: u64,
        book: Option<&BookUse>,
    ) -> Box<dyn Player<B>> {
        match self {
            PlayerSpec::Random => Box::new(Yardstick::random(rules, seed)),
            PlayerSpec::Greedy => Box::new(Yardstick::greedy(rules, seed)),
            PlayerSpec::Weights => Box::new(Yardstick::square_weights(rules, seed)),
            PlayerSpec::Engine(config) => {
                Box::new(EnginePlayer::new(rules, config.clone()).with_book(book.cloned()))
            }
        }
    }
}

/// The deepest search a player is given, as `--depth` allows.
pub const MAX_DEPTH: u32 = 60;

/// The most threads a player searches with, as `--threads` allows.
pub const MAX_THREADS: usize = 1024;

/// The largest transposition table, in megabytes.
pub const MAX_HASH_MB: usize = 8192;

/// A transposition table size in megabytes, from 1 to [`MAX_HASH_MB`].
pub fn parse_hash_mb(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "{text:?} is not a table size from 1 to {MAX_HASH_MB} megabytes"
        )),
    }
}

#[cfg(test)]
mod tests;
