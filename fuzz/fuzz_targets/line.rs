//! The line protocol: a session fed the input a line at a time, as `othello` (no subcommand)
//! reads it. The first byte picks the rules and whether the program plays a side.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::protocols::line::{Computer, Options, Session, Sides};
use othello::rules::RuleSet;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let options = Options {
        rule_set: if choice & 1 == 0 {
            RuleSet::Full
        } else {
            RuleSet::Simple
        },
        place_anywhere: choice & 2 != 0,
        computer: match (choice >> 2) & 3 {
            1 => Some(Computer {
                sides: Sides::Black,
                config: common::quick(),
                book: common::book(),
            }),
            2 => Some(Computer {
                sides: Sides::White,
                config: common::quick(),
                book: common::book(),
            }),
            _ => None,
        },
    };
    let mut session = Session::new(options.clone());
    // The lines of one turn (score, board rows, turn) once the header is in.
    let mut turn_lines = None;
    let mut total = 0usize;
    let read = common::each_line(input, |line| {
        let Ok(replies) = session.handle(line) else {
            return false;
        };
        total += replies.len();
        match turn_lines {
            None if !replies.is_empty() => turn_lines = Some(replies.len()),
            None => {}
            // A person's move alone: INVALID, or VALID and the next turn.
            Some(n) if options.computer.is_none() => assert!(
                replies == ["INVALID"] || (replies.len() == n + 1 && replies[0] == "VALID"),
                "{replies:?}"
            ),
            Some(_) => {}
        }
        for reply in &replies {
            assert!(!reply.is_empty() && !reply.contains('\n'), "{reply:?}");
        }
        !session.is_over()
    });
    // Every reply is a turn, and every turn but a rejected line's is a disc on the board.
    let cells = 26 * 26;
    if let Some(n) = turn_lines {
        assert!(
            total <= (read + cells + 1) * (n + 2),
            "{total} lines for {read}"
        );
    }
});
