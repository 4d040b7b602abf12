//! The manual page and the shells' completion scripts, both made from the command line's
//! definition.

use super::parse::command;
use crate::cli::error::AppError;

/// A completion script of every subcommand and option for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "othello", &mut script);
    script
}

/// The manual page, in roff: the program and its options, then every subcommand (nested ones
/// too) with its synopsis, description and options, all on one page.
pub fn manpage() -> std::io::Result<Vec<u8>> {
    let mut command = command();
    // Built, the subcommands carry the global options (listed once, at the top) and their full
    // names.
    command.build();
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    page.extend_from_slice(b".SH COMMANDS\n");
    for sub in command.get_subcommands() {
        command_section(sub, &mut page)?;
    }
    man.render_version_section(&mut page)?;
    // Each rendered piece opens with the same two-line preamble; the page needs it once.
    let text = String::from_utf8_lossy(&page).into_owned();
    let mut seen = std::collections::HashSet::new();
    let mut kept = String::new();
    for line in text.lines() {
        let preamble = line.starts_with(".ie \\n(.g") || line.starts_with(".el .ds Aq");
        if !preamble || seen.insert(line) {
            kept += line;
            kept.push('\n');
        }
    }
    Ok(kept.into_bytes())
}

/// One subcommand of the man page, as a subsection of COMMANDS; its own subcommands follow.
fn command_section(sub: &clap::Command, page: &mut Vec<u8>) -> std::io::Result<()> {
    if sub.get_name() == "help" {
        return Ok(());
    }
    let name = sub.get_bin_name().unwrap_or(sub.get_name()).to_string();
    let own = sub
        .clone()
        .mut_args(|a| if a.is_global_set() { a.hide(true) } else { a });
    let man = clap_mangen::Man::new(own);
    let mut piece = Vec::new();
    man.render_synopsis_section(&mut piece)?;
    man.render_description_section(&mut piece)?;
    man.render_options_section(&mut piece)?;
    page.extend_from_slice(format!(".SS \"{}\"\n", name.replace('-', "\\-")).as_bytes());
    // The pieces' own section headings become paragraph breaks inside the subsection.
    for line in String::from_utf8_lossy(&piece).lines() {
        let line = if line.starts_with(".SH ") {
            ".PP"
        } else {
            line
        };
        page.extend_from_slice(line.as_bytes());
        page.push(b'\n');
    }
    for nested in sub.get_subcommands() {
        command_section(nested, page)?;
    }
    Ok(())
}

/// Text made whole before it is written, so that a closed stdout is a quiet end, not a panic
/// inside the generator.
pub fn print(text: &[u8]) -> Result<(), AppError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text)?;
    Ok(stdout.flush()?)
}
