//! Which run of a job array this is: a split solve's job or a training shard, numbered by the
//! command line or by the scheduler that started the array (Slurm, or a Kubernetes Indexed Job).

use std::fmt;

/// The variables that number a run of a job array, in the order they are asked: Slurm's, then
/// that of a Kubernetes Indexed Job.
pub const INDEX_VARIABLES: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// Why no index could be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// None given and none of [`INDEX_VARIABLES`] set.
    Missing,
    /// A variable is set but holds no number (its name and value).
    NotANumber { name: &'static str, value: String },
}

/// The index of a run: `given` on the command line, else the first of [`INDEX_VARIABLES`] that
/// `var` finds set (the environment, in the program). One that is set must be a number (spaces
/// around it aside), never passed over for the next.
pub fn index(
    given: Option<u64>,
    var: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<u64, IndexError> {
    if let Some(index) = given {
        return Ok(index);
    }
    for name in INDEX_VARIABLES {
        let Some(value) = var(name) else {
            continue;
        };
        return value
            .to_str()
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| IndexError::NotANumber {
                name,
                value: value.to_string_lossy().into_owned(),
            });
    }
    Err(IndexError::Missing)
}

/// Shard `index` of `size` games: its first game and its number of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub first: u32,
    pub games: u32,
}

/// A shard whose last game number would not fit a training file's 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardTooFar {
    pub index: u64,
    pub size: u32,
}

impl fmt::Display for ShardTooFar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shard {} of {} games: its games would pass the last game number, {}",
            self.index,
            self.size,
            u32::MAX
        )
    }
}

impl Shard {
    /// Games `index * size` to `(index + 1) * size - 1`.
    pub fn new(index: u64, size: u32) -> Result<Shard, ShardTooFar> {
        let first = index
            .checked_mul(size as u64)
            .filter(|&first| first <= (u32::MAX - size.saturating_sub(1)) as u64)
            .ok_or(ShardTooFar { index, size })?;
        Ok(Shard {
            index,
            first: first as u32,
            games: size,
        })
    }

    /// The number of its last game.
    pub fn last(&self) -> u64 {
        self.first as u64 + self.games as u64 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env<'a>(pairs: &'a [(&str, &str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn the_command_line_comes_first_then_slurm_then_kubernetes() {
        let both = [("SLURM_ARRAY_TASK_ID", "4"), ("JOB_COMPLETION_INDEX", "7")];
        assert_eq!(index(Some(2), env(&both)), Ok(2));
        assert_eq!(index(None, env(&both)), Ok(4));
        assert_eq!(index(None, env(&both[1..])), Ok(7));
        assert_eq!(index(None, env(&[("SLURM_ARRAY_TASK_ID", " 5\n")])), Ok(5));
        assert_eq!(index(None, env(&[])), Err(IndexError::Missing));
    }

    #[test]
    fn a_variable_that_holds_no_number_is_refused_not_passed_over() {
        let bad = [("SLURM_ARRAY_TASK_ID", "x"), ("JOB_COMPLETION_INDEX", "7")];
        assert_eq!(
            index(None, env(&bad)),
            Err(IndexError::NotANumber {
                name: "SLURM_ARRAY_TASK_ID",
                value: "x".into()
            })
        );
        let negative = [("JOB_COMPLETION_INDEX", "-1")];
        assert!(index(None, env(&negative)).is_err());
    }

    #[test]
    fn a_shard_holds_its_games_and_stops_at_the_last_game_number() {
        let shard = Shard::new(3, 1000).unwrap();
        assert_eq!((shard.first, shard.games, shard.last()), (3000, 1000, 3999));
        let size = 1 << 16;
        let last = Shard::new((1 << 16) - 1, size).unwrap();
        assert_eq!(last.last(), u32::MAX as u64);
        assert_eq!(
            Shard::new(1 << 16, size),
            Err(ShardTooFar {
                index: 1 << 16,
                size
            })
        );
        assert!(Shard::new(u64::MAX, 2).is_err());
    }
}
