//! `othello gtp` against gtp-rhino (Debian's `grhino` package), refereed here: two whole games,
//! one with each colour. Every move either engine announces must be legal, both must accept the
//! other's moves, and both must report the same final score as the referee counts.
//!
//! Skipped, with a message, when gtp-rhino is not installed (`apt-get install grhino`).

use othello::rules::{Color, Game, Move, Passes, Setup, Square, Winner};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn gtp_rhino() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("gtp-rhino"))
        .find(|p| p.is_file())
}

/// A GTP engine in a child process.
struct Engine {
    name: &'static str,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(name: &'static str, program: &PathBuf, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Engine {
            name,
            child,
            input,
            output,
        }
    }

    /// Sends a command; returns the reply text, or panics on a `?` reply.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).unwrap();
            assert!(n > 0, "{} closed its output after {command:?}", self.name);
            if line.trim_end().is_empty() && !reply.is_empty() {
                break;
            }
            reply.push_str(&line);
        }
        let reply = reply.trim_end().to_string();
        let text = reply
            .strip_prefix('=')
            .unwrap_or_else(|| panic!("{} refused {command:?}: {reply}", self.name));
        text.trim().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

fn word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Plays one game, `ours` as black or white; returns the final score both agreed on.
fn play_game(rhino_path: &PathBuf, ours_plays: Color) -> String {
    let ours_path = PathBuf::from(env!("CARGO_BIN_EXE_othello"));
    let mut ours = Engine::start("othello", &ours_path, &["gtp", "--depth", "2"]);
    let mut rhino = Engine::start("gtp-rhino", rhino_path, &["-l", "1"]);
    for e in [&mut ours, &mut rhino] {
        assert_eq!(e.ask("protocol_version"), "2");
        e.ask("boardsize 8");
        e.ask("clear_board");
    }
    let mut game = Game::<u64>::new(&Setup::default(), Passes::Automatic).unwrap();
    let mut moves = 0;
    while let Some(color) = game.to_move() {
        let (mover, other) = if color == ours_plays {
            (&mut ours, &mut rhino)
        } else {
            (&mut rhino, &mut ours)
        };
        let reply = mover.ask(&format!("genmove {}", word(color)));
        let square: Square = reply
            .parse()
            .unwrap_or_else(|_| panic!("{} answered genmove with {reply:?}", mover.name));
        game.try_play(Move::Play(square))
            .unwrap_or_else(|e| panic!("{} played {reply}: {e}", mover.name));
        // Passes are left out: gtp-rhino refuses `play <colour> pass` and passes by itself.
        other.ask(&format!("play {} {reply}", word(color)));
        moves += 1;
    }
    let (b, w) = (game.score().black, game.score().white);
    // Ours counts discs only; gtp-rhino gives the cells left empty to the winner.
    let empty = 64 - b - w;
    let (expected, rhino_expected) = match game.winner().unwrap() {
        Winner::Black => (format!("B+{}", b - w), format!("B+{}", b - w + empty)),
        Winner::White => (format!("W+{}", w - b), format!("W+{}", w - b + empty)),
        Winner::Tie => ("0".to_string(), "0".to_string()),
    };
    assert_eq!(ours.ask("final_score"), expected);
    assert_eq!(rhino.ask("final_score"), rhino_expected);
    println!("othello as {}: {moves} moves, {expected}", word(ours_plays));
    expected
}

#[test]
fn plays_gtp_rhino_with_both_colours() {
    let Some(rhino) = gtp_rhino() else {
        println!("skipped: gtp-rhino is not installed (apt-get install grhino to run this test)");
        return;
    };
    play_game(&rhino, Color::Black);
    play_game(&rhino, Color::White);
}
