//! [`Session`]: the pure core of `othello play`, fed one typed line at a time and answering
//! with the lines to print. It keeps what outlives one game (the settings, the Ctrl-C flag,
//! whether play is over) and hands the game in hand to its board.

use super::board::{new_board, AnyBoard};
use super::command::Command;
use super::files::{read_game, save_game};
use super::options::Options;
use super::text::{self, GREETING, HELP};
use crate::notation::{MoveList, RecordFormat};
use crate::rules::Color;
use crate::start::Start;
use crate::wording::Counted;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// One run of `othello play` (its games, after `new` or `load`, included), fed a typed line at
/// a time.
pub struct Session {
    pub(super) options: Options,
    board: Box<dyn AnyBoard>,
    over: bool,
    /// Whether Ctrl-C ended play.
    stopped: bool,
    /// One SIGINT flag for all of play: a Ctrl-C stops a search, and one that comes at any
    /// other moment (outside a search, or with input piped) ends play at the next read instead
    /// of being lost.
    pub(super) ctrl_c: Arc<AtomicBool>,
    hook: Option<signal_hook::SigId>,
    /// The GGF properties of the record the game was loaded from (players, date, ...), written
    /// back when it is saved as GGF; none for a new game.
    loaded: Vec<(String, String)>,
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(id) = self.hook.take() {
            signal_hook::low_level::unregister(id);
        }
    }
}

impl Session {
    /// Play from `options`; fails if the start or its moves are not a legal game.
    pub fn new(options: Options) -> Result<Session, String> {
        let ctrl_c = Arc::new(AtomicBool::new(false));
        let board = new_board(
            &options.start,
            &options.moves,
            options.computer,
            &options,
            &ctrl_c,
        )?;
        let hook = signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&ctrl_c));
        Ok(Session {
            options,
            board,
            over: false,
            stopped: false,
            ctrl_c,
            hook: hook.ok(),
            loaded: Vec::new(),
        })
    }

    /// Whether Ctrl-C came since play began (play then ends at the next read).
    pub fn ctrl_c_pressed(&self) -> bool {
        self.ctrl_c.load(Relaxed)
    }

    /// The first screen: the board, and the program's moves if it opens.
    pub fn greeting(&mut self) -> Vec<String> {
        let mut out: Vec<String> = GREETING.iter().map(|l| l.to_string()).collect();
        self.board.open(&mut out);
        self.check_interrupted(&mut out);
        out
    }

    /// Ends play, with the moves so far, if Ctrl-C stopped the program's thinking.
    fn check_interrupted(&mut self, out: &mut Vec<String>) {
        if self.board.interrupted() {
            out.push("Interrupted.".to_string());
            out.push(self.moves_line());
            self.over = true;
            self.stopped = true;
        }
    }

    /// Whether play has ended (quit, or Ctrl-C).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether Ctrl-C ended play (while the program thought, or at the prompt).
    pub fn stopped_by_ctrl_c(&self) -> bool {
        self.stopped
    }

    /// The game so far in standard notation.
    pub fn moves_text(&self) -> String {
        self.board.moves_text()
    }

    /// `Moves: ` and the game so far: how play ends, so nothing is lost.
    pub fn moves_line(&self) -> String {
        self.board.moves_line()
    }

    /// Carries out one typed line; returns the lines to print.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let mut out = Vec::new();
        match line.parse::<Command>() {
            Ok(command) => self.carry_out(command, &mut out),
            Err(refusal) => out.push(refusal),
        }
        self.check_interrupted(&mut out);
        out
    }

    fn carry_out(&mut self, command: Command, out: &mut Vec<String>) {
        match command {
            Command::Show => self.board.show(out),
            Command::Help => out.extend(HELP.iter().map(|l| l.to_string())),
            Command::Analyze => out.extend(self.board.analysis(&self.options.config)),
            Command::Quit => {
                out.push(self.moves_line());
                self.over = true;
            }
            Command::New => {
                let start = self.options.start.clone();
                match self.restart(&start, &MoveList::default()) {
                    Ok(()) => {
                        self.loaded.clear();
                        out.push("New game.".to_string());
                        self.board.open(out);
                    }
                    Err(e) => out.push(e),
                }
            }
            Command::Load(path) => self.load(&path, out),
            Command::Save { path, form } => match self.save(&path, form.as_deref()) {
                Ok(()) => out.push(format!("Saved to {path}.")),
                Err(e) => out.push(format!("Cannot save to {path}: {e}")),
            },
            Command::Level(depth) => {
                self.options.config.depth = Some(depth);
                self.options.config.move_time = None;
                self.board.set_depth(depth);
                out.push(format!(
                    "The computer now searches {} ahead.",
                    Counted(depth, "move")
                ));
            }
            Command::LevelNow => out.push(text::level_text(&self.options.config)),
            Command::Board(command) => self.board.carry_out(command, out),
        }
    }

    /// `load FILE`: plays the game in the file, from its own start if it has one; the game in
    /// hand stays if the file cannot be read as a game.
    fn load(&mut self, path: &str, out: &mut Vec<String>) {
        match read_game(path) {
            Ok((record, count)) => {
                let mut variant = self.options.start.variant();
                // GGS's anti-Othello is played under misère.
                variant.misere |= record.anti();
                let start = match record.position {
                    Some(p) => Start::Position(p, variant),
                    None => self.options.start.clone(),
                };
                match self.restart(&start, &record.moves) {
                    Ok(()) => {
                        self.loaded = record.properties;
                        if count > 1 {
                            out.push(format!("Loaded {path} (the first of {count} games)."));
                        } else {
                            out.push(format!("Loaded {path}."));
                        }
                        self.board.open(out);
                    }
                    Err(e) => out.push(format!("Cannot load {path}: {e}.")),
                }
            }
            Err(e) => out.push(format!("Cannot load {path}: {e}.")),
        }
    }

    /// `save FILE [FORM]`: the game in the form named, else the one the file's name asks for.
    fn save(&self, path: &str, form: Option<&str>) -> Result<(), String> {
        let format = match form {
            Some(word) => word.parse::<RecordFormat>().map_err(|e| format!("{e}."))?,
            None => RecordFormat::for_path(path),
        };
        // A move list is read back from the usual start, so it cannot hold any other.
        if format == RecordFormat::Moves && !matches!(self.options.start, Start::Setup(_)) {
            return Err("a move list cannot hold this game's start position; \
                        save it as game or ggf."
                .into());
        }
        let (start, moves) = self.board.record();
        let text = format
            .write(&start, &moves, &self.ggf_properties())
            .map_err(|e| format!("{e}."))?;
        save_game(path, &text)
    }

    /// What a GGF record of the game in hand says beside its moves: the loaded record's
    /// properties, then, where it had none, the program (`PC`), the date (`DT`), the players
    /// (`PB`, `PW`: `othello` for the computer's side) and GGS's game type (`TY`: the board's
    /// size, `a` after it under misère); the result (`RE`, Black's margin) once the game is
    /// over, `?` before.
    fn ggf_properties(&self) -> Vec<(String, String)> {
        let mut properties = self.loaded.clone();
        let mut add = |name: &str, value: String, replace: bool| match properties
            .iter_mut()
            .find(|(n, _)| n == name)
        {
            Some(kept) if replace => kept.1 = value,
            Some(_) => {}
            None => properties.push((name.to_string(), value)),
        };
        add("PC", "othello".to_string(), false);
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now());
        add("DT", now.to_string(), false);
        let player = |color: Color| {
            if self.board.computer().is_some_and(|s| s.includes(color)) {
                "othello".to_string()
            } else {
                std::env::var("USER").unwrap_or_else(|_| "person".to_string())
            }
        };
        add("PB", player(Color::Black), false);
        add("PW", player(Color::White), false);
        let variant = self.options.start.variant();
        let size = self.options.start.shape().rows();
        let kind = format!("{size}{}", if variant.misere { "a" } else { "" });
        add("TY", kind, false);
        match self.board.result() {
            Some(margin) => add("RE", format!("{margin:+}.000"), true),
            None => add("RE", "?".to_string(), false),
        }
        properties
    }

    /// Starts again from `start` and `moves`, keeping the program's sides and settings.
    fn restart(&mut self, start: &Start, moves: &MoveList) -> Result<(), String> {
        let computer = self.board.computer();
        self.board = new_board(start, moves, computer, &self.options, &self.ctrl_c)?;
        self.options.start = start.clone();
        Ok(())
    }
}
