//! The parse policy: what clap's derived definitions cannot say. The line protocol's search
//! options need `--computer`; one given before a subcommand's name says where it goes; the
//! subcommands that take no rules refuse the global rule options and do not list them.

use super::command::Cli;
use crate::cli::error::AppError;
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{Arg, CommandFactory, FromArgMatches};

/// The global options that a subcommand refuses (its help does not list them), and why.
const REFUSED_GLOBALS: [(&str, &str); 4] = [
    (
        "perfect-play",
        "perfect-play takes --rule-sets, --goals and --placements, not --rules or --place-anywhere",
    ),
    (
        "bench",
        "bench searches fixed cases, each under its own rules: --rules and --place-anywhere do not apply",
    ),
    ("completions", "completions takes no rules: --rules and --place-anywhere do not apply"),
    ("manpage", "manpage takes no rules: --rules and --place-anywhere do not apply"),
];

/// The options of the line protocol (no subcommand), which no subcommand takes from before its
/// name.
const LINE_PROTOCOL_ONLY: [&str; 6] = [
    "computer",
    "depth",
    "move_time",
    "hash_mb",
    "seed",
    "threads",
];

/// The whole command line as clap sees it: the derived definitions, with the global rule
/// options hidden from the help of the subcommands that refuse them. Completions and the man
/// page are made from it too.
pub fn command() -> clap::Command {
    hide_refused_globals(Cli::command())
}

fn hide_refused_globals(mut command: clap::Command) -> clap::Command {
    // A subcommand that has an option of a global's name keeps it and does not get the
    // global: a hidden copy is still parsed (and refused) but not listed.
    let hidden: Vec<Arg> = ["rules", "place_anywhere"]
        .into_iter()
        .filter_map(|id| command.get_arguments().find(|a| a.get_id() == id))
        .map(|a| a.clone().hide(true))
        .collect();
    for (name, _) in REFUSED_GLOBALS {
        command = command.mut_subcommand(name, |sub| sub.args(hidden.clone()));
    }
    command
}

/// Parses the command line. `--help`, `--version` and every bad command line come back as
/// errors (see [`AppError`]).
pub fn parse() -> Result<Cli, AppError> {
    parse_from(std::env::args_os().collect())
}

fn parse_from(args: Vec<std::ffi::OsString>) -> Result<Cli, AppError> {
    let mut command = command();
    let matches = match command.try_get_matches_from_mut(&args) {
        Ok(matches) => matches,
        Err(e) => {
            // `othello --depth 4 play` fails for want of --computer; the real mistake is
            // where the option stands, which the parse without that requirement shows.
            let relaxed = hide_refused_globals(
                Cli::command().mut_args(|a| a.requires(clap::builder::Resettable::Reset)),
            )
            .try_get_matches_from(&args);
            return Err(match relaxed.map(|m| misplaced(&mut command, &m)) {
                Ok(Some(hint)) => hint,
                _ => e.into(),
            });
        }
    };
    if let Some(hint) = misplaced(&mut command, &matches) {
        return Err(hint);
    }
    // The matches are kept to tell options given from defaults: the global options name one
    // variant, which perfect-play (lists of them) and bench (cases with their own) refuse.
    for (name, refusal) in REFUSED_GLOBALS {
        if let Some(sub) = matches.subcommand_matches(name) {
            let given = |id| sub.value_source(id) == Some(ValueSource::CommandLine);
            if given("rules") || given("place_anywhere") {
                let sub = command.find_subcommand_mut(name).expect("it was parsed");
                return Err(sub.error(ErrorKind::ArgumentConflict, refusal).into());
            }
        }
    }
    Ok(Cli::from_arg_matches(&matches)?)
}

/// A line-protocol option given before a subcommand's name, which would apply to nothing: the
/// error says where it goes (after the name, where the subcommand takes it) or that it does not
/// apply.
fn misplaced(command: &mut clap::Command, matches: &clap::ArgMatches) -> Option<AppError> {
    let name = matches.subcommand_name()?;
    let id = LINE_PROTOCOL_ONLY
        .into_iter()
        .find(|id| matches.value_source(id) == Some(ValueSource::CommandLine))?;
    let arg = command.get_arguments().find(|a| a.get_id() == id)?;
    let long = arg
        .get_long()
        .expect("every option has a long name")
        .to_string();
    let values: Vec<String> = matches
        .get_raw(id)
        .into_iter()
        .flatten()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    let sub = command.find_subcommand(name)?;
    let takes_it = sub.get_arguments().any(|a| {
        !a.is_hide_set()
            && (a.get_long() == Some(&long)
                || a.get_all_aliases()
                    .is_some_and(|l| l.contains(&long.as_str())))
    });
    let message = if takes_it {
        format!(
            "--{long} before the subcommand is an option of the line protocol; give it after: \
             othello {name} --{long} {}",
            values.join(" ")
        )
    } else {
        format!(
            "--{long} is an option of the line protocol (othello with no subcommand), which \
             {name} does not take"
        )
    };
    Some(command.error(ErrorKind::ArgumentConflict, message).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::command::Command;
    use crate::cli::manual::{completions, manpage};
    use crate::cli::options::EngineDefaults;
    use clap::Parser;
    use othello::referee::Protocol;
    use othello::search::Evaluation;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_line_protocol_takes_search_options_only_with_a_computer_side() {
        use clap::error::ErrorKind;
        for option in ["--depth=3", "--move-time=1s", "--seed=3", "--threads=2"] {
            let refused = Cli::try_parse_from(["othello", option]).err();
            let kind = refused.as_ref().map(clap::Error::kind);
            assert_eq!(kind, Some(ErrorKind::MissingRequiredArgument), "{option}");
            assert!(Cli::try_parse_from(["othello", "--computer=W", option]).is_ok());
            for sub in ["engine", "gtp", "nboard"] {
                let parsed = Cli::try_parse_from(["othello", sub, "--color=W", option]);
                let parsed = parsed.or_else(|_| Cli::try_parse_from(["othello", sub, option]));
                assert!(parsed.is_ok(), "{sub} {option}");
            }
        }
        assert!(Cli::try_parse_from(["othello", "--hash-mb=3"]).is_ok());
    }

    fn parses(args: &str) -> Result<Cli, AppError> {
        parse_from(args.split(' ').map(Into::into).collect())
    }

    /// The text clap prints for a refused command line.
    fn refusal(args: &str) -> String {
        match parses(args) {
            Err(AppError::Clap(e)) if e.use_stderr() => e.render().to_string(),
            Err(e) => panic!("{args}: not a clap error: {e:?}"),
            Ok(_) => panic!("{args}: accepted"),
        }
    }

    #[test]
    fn every_option_and_subcommand_has_a_help_line() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {}", arg.get_id()));
                }
            }
            for sub in command.get_subcommands() {
                if sub.get_about().is_none() {
                    missing.push(format!("{path} {}", sub.get_name()));
                }
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut command = command();
        command.build();
        let mut missing = Vec::new();
        walk(&command, "othello", &mut missing);
        assert!(missing.is_empty(), "no help line: {missing:?}");
    }

    #[test]
    fn a_colour_is_spelled_either_way_everywhere() {
        for colour in ["black", "white", "B", "W", "b", "w", "White"] {
            let line = format!("othello perft --depth 1 --first {colour} --top-left {colour}");
            assert!(parses(&line).is_ok(), "{line}");
            let line = format!("othello engine --color {colour}");
            assert!(parses(&line).is_ok(), "{line}");
            let line = format!("othello play --computer {colour}");
            assert!(parses(&line).is_ok(), "{line}");
            let line = format!("othello --computer {colour}");
            assert!(parses(&line).is_ok(), "{line}");
        }
        assert!(parses("othello --computer both").is_ok());
        assert!(parses("othello play --computer none").is_ok());
        assert!(parses("othello engine --color green").is_err());
        // The help names the other spelling.
        let help = command()
            .find_subcommand_mut("play")
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(help.contains("black: Black (or B)"), "{help}");
        assert!(help.contains("B and W do too"), "{help}");
    }

    #[test]
    fn a_search_depth_is_depth_or_level_everywhere() {
        for option in ["--depth", "--level"] {
            for line in [
                format!("othello play {option} 3"),
                format!("othello --computer W {option} 3"),
                format!("othello engine --color W {option} 3"),
                format!("othello gtp {option} 3"),
                format!("othello nboard {option} 3"),
                format!("othello perft {option} 3"),
                format!("othello train gen --out x {option} 3"),
                format!("othello bench --positions x {option} 3"),
            ] {
                assert!(parses(&line).is_ok(), "{line}");
            }
        }
        let Ok(Cli {
            command: Some(Command::Play(play)),
            ..
        }) = parses("othello play --level 5")
        else {
            panic!("play --level 5 is refused");
        };
        let config = play
            .engine
            .config(EngineDefaults::PLAY, &Evaluation::Classic);
        assert_eq!(
            (config.depth, config.move_time, config.threads),
            (Some(5), None, 1)
        );
        let help = command()
            .find_subcommand_mut("play")
            .unwrap()
            .render_help()
            .to_string();
        assert!(help.contains("--depth <DEPTH>"), "{help}");
        assert!(help.contains("[alias: --level]"), "{help}");
    }

    #[test]
    fn a_line_protocol_option_before_a_subcommand_says_where_it_goes() {
        let text = refusal("othello --depth 4 play");
        assert!(text.contains("othello play --depth 4"), "{text}");
        assert!(text.contains("Usage:") && text.contains("--help"), "{text}");
        let text = refusal("othello --move-time 2s engine --color B");
        assert!(text.contains("give it after"), "{text}");
        let text = refusal("othello --seed 3 perft --depth 2");
        assert!(text.contains("perft does not take"), "{text}");
        // Without a subcommand the options are the line protocol's, as before.
        assert!(parses("othello --computer W --depth 4").is_ok());
        let text = refusal("othello --depth 4");
        assert!(text.contains("--computer"), "{text}");
    }

    #[test]
    fn commands_that_refuse_the_rule_options_do_not_list_them() {
        let mut command = command();
        command.build();
        for name in ["bench", "perfect-play", "completions", "manpage"] {
            let sub = command.find_subcommand_mut(name).unwrap();
            let help = sub.render_long_help().to_string();
            assert!(!help.contains("--rules "), "{name}: {help}");
            assert!(!help.contains("--place-anywhere "), "{name}: {help}");
            assert!(!help.contains("--place-anywhere\n"), "{name}: {help}");
            for given in ["--rules simple", "--place-anywhere"] {
                let text = refusal(&format!("othello {name} {given}"));
                assert!(text.contains("Usage: othello"), "{name} {given}: {text}");
            }
        }
        let help = command.find_subcommand_mut("perft").unwrap().render_help();
        assert!(help.to_string().contains("--rules"));
        assert!(parses("othello --rules simple perft --depth 1").is_ok());
    }

    #[test]
    fn match_lists_its_protocols() {
        let help = command()
            .find_subcommand_mut("match")
            .unwrap()
            .render_help()
            .to_string();
        assert!(
            help.contains("[possible values: triples, gtp, nboard]"),
            "{help}"
        );
        let Ok(Cli {
            command: Some(Command::Match(args)),
            ..
        }) = parses("othello match --a x --b y --a-protocol seed001 --b-protocol gtp")
        else {
            panic!("the protocols are refused");
        };
        assert_eq!(args.a_protocol, Protocol::Triples);
        assert_eq!(args.b_protocol, Protocol::Gtp);
        let text = refusal("othello match --a x --b y --a-protocol uci");
        assert!(text.contains("triples, gtp, nboard"), "{text}");
    }

    #[test]
    fn completions_and_the_man_page_name_every_subcommand() {
        use clap_complete::Shell;
        for shell in [
            Shell::Bash,
            Shell::Zsh,
            Shell::Fish,
            Shell::Elvish,
            Shell::PowerShell,
        ] {
            let script = String::from_utf8(completions(shell)).unwrap();
            for name in ["perft", "perfect-play", "selfplay", "completions"] {
                assert!(script.contains(name), "{shell}: no {name}");
            }
        }
        let page = String::from_utf8(manpage().unwrap()).unwrap();
        assert!(page.contains(".SH NAME\nothello \\- Othello"), "{page}");
        for name in ["perft", "perfect\\-play", "train gen", "manpage"] {
            assert!(
                page.contains(&format!(".SS \"othello {name}\"")),
                "no {name}"
            );
        }
        assert_eq!(page.matches(".ds Aq").count(), 2, "the preamble once");
    }
}
