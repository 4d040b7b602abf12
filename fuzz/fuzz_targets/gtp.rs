//! GTP: a session answering each input line as `othello gtp` does; each reply reads back as
//! itself, and vertices round-trip.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use othello::protocols::gtp::{self, Command, CommandError, Request, Session, Settings, Vertex};
use othello::rules::{RuleSet, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let variant = Variant {
        rule_set: if choice & 1 == 0 {
            RuleSet::Full
        } else {
            RuleSet::Simple
        },
        place_anywhere: choice & 2 != 0,
        misere: choice & 4 != 0,
    };
    let mut session = Session::new(Settings {
        variant,
        config: common::quick(),
        book: common::book(),
    });
    common::each_line(input, |line| {
        let request = match line {
            Ok(text) => {
                if let Ok(vertex) = text.trim().parse::<Vertex>() {
                    let again: Vertex = vertex.to_string().parse().expect("a vertex reads back");
                    assert_eq!(again, vertex);
                }
                match gtp::parse(text) {
                    Some(request) => request,
                    None => return true,
                }
            }
            Err(why) => Request {
                id: None,
                command: Err(CommandError::Unreadable(why.to_string())),
            },
        };
        let reply = session.handle(&request);
        assert_eq!(reply.id, request.id);
        let text = reply.to_string();
        assert!(
            text.ends_with("\n\n") && !text[..text.len() - 2].contains("\n\n"),
            "{text:?}"
        );
        let first = text.lines().next().unwrap_or("");
        let back: gtp::Reply = first.parse().expect("a reply's first line reads back");
        assert_eq!((back.id, back.success), (reply.id, reply.success));
        request.command != Ok(Command::Quit)
    });
});
