//! `othello match`: the referee of games between two programs.

use super::options::{GameRules, TournamentBoard};
use crate::cli::error::AppError;
use anyhow::Context;
use othello::progress::Progress;
use othello::referee::{self, Protocol, SideSpec};
use othello::search::time::TimeControl;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

/// The options of `othello match`; its help is its [`super::Command`]'s doc comment.
#[derive(clap::Args)]
pub struct Args {
    /// The first program's command.
    #[arg(long)]
    pub a: String,
    /// The second program's command.
    #[arg(long)]
    pub b: String,
    /// How the referee speaks to the first program: tournament move triples, the Go Text
    /// Protocol or NBoard's.
    #[arg(long, default_value = "triples", value_parser = protocol())]
    pub a_protocol: Protocol,
    /// How the referee speaks to the second program.
    #[arg(long, default_value = "triples", value_parser = protocol())]
    pub b_protocol: Protocol,
    /// The first program's name in the report.
    #[arg(long, default_value = "A")]
    pub a_name: String,
    /// The second program's name in the report.
    #[arg(long, default_value = "B")]
    pub b_name: String,
    /// Games to play, colours alternating: each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at the same time; keep it at most the number of cores, or the programs
    /// slow each other down.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
    /// The longest a move may take [default: 1s without --time].
    #[arg(long, value_parser = othello::durations::parse)]
    pub move_time: Option<Duration>,
    /// A game clock for each program, such as 5m: a program whose moves take more loses on
    /// time. Tell each program its clock in its command (`othello engine --time 5m`); a GTP
    /// program hears it from `time_settings` and `time_left`.
    #[arg(long, value_parser = othello::durations::parse)]
    pub time: Option<Duration>,
    /// With --time: what each move adds back to the mover's clock, such as 2s.
    #[arg(long, value_parser = othello::durations::parse, requires = "time")]
    pub inc: Option<Duration>,
    /// The first program's limit, if it differs.
    #[arg(long, value_parser = othello::durations::parse)]
    pub a_move_time: Option<Duration>,
    /// The second program's limit, if it differs.
    #[arg(long, value_parser = othello::durations::parse)]
    pub b_move_time: Option<Duration>,
    /// Opening lines, one per line (f5d6c3); each is played twice with colours swapped.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Write every game here: its moves (f5d6c3...), the sides in order, the discs.
    #[arg(long)]
    pub games_out: Option<PathBuf>,
    #[command(flatten)]
    pub board: TournamentBoard,
}

/// The protocols a `match` side may speak (`seed001`, an old name of the triples, still
/// accepted).
fn protocol() -> impl clap::builder::TypedValueParser<Value = Protocol> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("triples").alias("seed001"),
        PossibleValue::new("gtp"),
        PossibleValue::new("nboard"),
    ])
    .try_map(|text| text.parse::<Protocol>())
}

pub fn run(args: Args, rules: GameRules) -> Result<(), AppError> {
    let setup = args.board.setup(rules);
    let clock = TimeControl::of(args.time, args.inc);
    // Without a clock, a move may take a second unless told otherwise.
    let move_time = match clock {
        Some(_) => args.move_time,
        None => Some(args.move_time.unwrap_or(Duration::from_secs(1))),
    };
    let sides = [
        SideSpec {
            name: args.a_name,
            command: args.a,
            protocol: args.a_protocol,
            move_time: args.a_move_time.or(move_time),
            clock,
        },
        SideSpec {
            name: args.b_name,
            command: args.b,
            protocol: args.b_protocol,
            move_time: args.b_move_time.or(move_time),
            clock,
        },
    ];
    for side in &sides {
        if let Some(why) = side.protocol.cannot_play(setup.shape) {
            return Err(AppError::Usage(format!(
                "side {} speaks {}: {why}",
                side.name, side.protocol
            )));
        }
    }
    if let (Some(out), Some(input)) = (&args.games_out, &args.openings) {
        othello::files::refuse_output_over_input(out, [input.as_path()])
            .map_err(|e| AppError::Usage(format!("--games-out: {e}")))?;
    }
    let openings = match &args.openings {
        Some(path) => othello::opening::lines::read_openings_file(path, &setup)?,
        None => Vec::new(),
    };
    referee::end_contestants_on_signals().context("cannot watch for signals")?;
    let games_out = match &args.games_out {
        Some(path) => Some(
            referee::GamesFile::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None => None,
    };
    let m = referee::Match {
        sides,
        games: args.games,
        setup,
        openings,
        jobs: args.jobs.into(),
    };
    let progress = Progress::counter(m.games as u64, "games");
    let mut games_file = games_out.clone();
    let played = referee::run_match(
        &m,
        &mut io::stdout().lock(),
        games_file.as_mut().map(|w| w as &mut dyn Write),
        &progress,
    );
    // The games played are kept even when the match stopped on an error; a match that
    // played none leaves the old file as it was.
    if let (Some(games), Some(path)) = (games_out, &args.games_out) {
        if played.is_ok() || games.written() {
            games
                .commit()
                .with_context(|| format!("cannot write {}", path.display()))?;
        } else {
            games.discard();
        }
    }
    played?;
    Ok(())
}
