//! `othello show`: plays a move list and prints every step in words ("Black at
//! B1, flipping White at B2."), each followed by the position string after it, then the result.

use crate::notation::{MoveList, PositionString};
use crate::rules::{Bits, Color, Game, IllegalMove, Move, Passes, Position, RuleSet, Rules};
use crate::rules::{Square, Winner};
use crate::start::Start;
use std::io::Write;

/// How a shown game stands after its last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Numbered steps printed: moves and passes.
    pub steps: usize,
    /// Disc counts `(black, white)`.
    pub score: (u32, u32),
    /// The winner if the game is over.
    pub winner: Option<Winner>,
}

/// A move of the list that cannot be played where it stands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} of the list ({listed}{by}) is illegal: {reason}")]
pub struct IllegalListedMove {
    /// 1-based position in the list.
    pub number: usize,
    /// The move in upper case: `B1` or `PA`.
    pub listed: String,
    /// `, Black` or `, White` while the game is on; empty once it is over.
    pub by: String,
    pub reason: String,
}

/// Plays `moves` from `start`, printing each step and the result to `out`. A forced pass is
/// shown as its own step whether the list records it with `pa` or goes straight on with the
/// other player's move. An illegal move stops the showing with the steps before it printed and
/// an [`IllegalListedMove`] error.
pub fn show(start: &Start, moves: &MoveList, out: &mut dyn Write) -> anyhow::Result<Shown> {
    crate::with_bits!(start.shape(), |B| show_in::<B>(start, moves, out))
}

fn show_in<B: Bits>(start: &Start, moves: &MoveList, out: &mut dyn Write) -> anyhow::Result<Shown> {
    {
        let (rules, position) = start.rules_and_position::<B>()?;
        let mut printer = Printer {
            rules: rules.clone(),
            out,
            steps: 0,
        };
        let g = &rules.geometry;
        let to_move = if rules.is_over(&position) {
            "game over".to_string()
        } else {
            format!("{} to move", position.to_move.name())
        };
        writeln!(printer.out, "Start, {}x{}, {to_move}.", g.rows(), g.cols())?;
        printer.position(&position)?;

        let mut game = Game::from_position(rules.clone(), position, Passes::Automatic);
        // A forced pass is shown as its own step; a `pa` in the list may record it.
        if game.position().to_move != position.to_move {
            printer.pass(position.to_move, game.position())?;
        }
        for (i, &listed) in moves.iter().enumerate() {
            let mover = game.to_move();
            let illegal = |reason: String| IllegalListedMove {
                number: i + 1,
                listed: format!("{listed:#}"),
                by: mover.map_or(String::new(), |c| format!(", {}", c.name())),
                reason,
            };
            let played = game.play_listed(listed).map_err(|e| match (e, mover) {
                (IllegalMove::PassWithMoves(c), _) => {
                    let n = rules.moves(game.position()).count();
                    let s = if n == 1 { "" } else { "s" };
                    illegal(format!(
                        "{} has {n} legal move{s}, so may not pass",
                        c.name()
                    ))
                }
                (e, _) => illegal(why(e, &rules, game.position())),
            })?;
            let Move::Play(square) = played.played else {
                // The game's own pass, recorded by the list: already shown.
                continue;
            };
            let after = match played.passed {
                Some(_) => rules.pass(game.position()),
                None => *game.position(),
            };
            let flips: Vec<Square> = played
                .flips
                .iter()
                .map(|i| rules.geometry.square(i))
                .collect();
            printer.play(played.color, square, &flips, &after)?;
            if let Some(passed) = played.passed {
                printer.pass(passed, game.position())?;
            }
        }

        let score = game.position().score();
        let winner = game.winner();
        let (b, w) = score;
        match winner {
            Some(Winner::Tie) => writeln!(printer.out, "Tie, {b} to {w}.")?,
            Some(winner) => {
                let color = winner
                    .color()
                    .expect("a winner that is not a tie has a colour");
                let (mine, theirs) = match color {
                    Color::Black => (b, w),
                    Color::White => (w, b),
                };
                let misere = if rules.variant.misere {
                    " (misère: fewer discs win)"
                } else {
                    ""
                };
                writeln!(
                    printer.out,
                    "{} wins, {mine} to {theirs}{misere}.",
                    color.name()
                )?;
            }
            None => writeln!(
                printer.out,
                "Game not over: Black {b}, White {w}; {} to move.",
                game.position().to_move.name()
            )?,
        }
        if let Some(opening) = crate::opening::names::of_game(&game) {
            writeln!(printer.out, "Opening: {}.", opening.name)?;
        }
        Ok(Shown {
            steps: printer.steps,
            score,
            winner,
        })
    }
}

/// Writes numbered steps, each followed by an indented position string.
struct Printer<'a, B> {
    rules: Rules<B>,
    out: &'a mut dyn Write,
    steps: usize,
}

impl<B: Bits> Printer<'_, B> {
    fn position(&mut self, position: &Position<B>) -> std::io::Result<()> {
        let text = PositionString::from_position(&self.rules.geometry, position);
        writeln!(self.out, "    {text}")
    }

    fn play(
        &mut self,
        color: Color,
        square: Square,
        flips: &[Square],
        after: &Position<B>,
    ) -> std::io::Result<()> {
        self.steps += 1;
        let flipped = if flips.is_empty() {
            "nothing".to_string()
        } else {
            let squares: Vec<String> = flips.iter().map(|s| format!("{s:#}")).collect();
            format!("{} at {}", color.opposite().name(), squares.join(", "))
        };
        writeln!(
            self.out,
            "{}. {} at {square:#}, flipping {flipped}.",
            self.steps,
            color.name()
        )?;
        self.position(after)
    }

    fn pass(&mut self, color: Color, after: &Position<B>) -> std::io::Result<()> {
        self.steps += 1;
        writeln!(self.out, "{}. {} passes.", self.steps, color.name())?;
        self.position(after)
    }
}

/// Why a square cannot be played, in the words of the output.
fn why<B: Bits>(e: IllegalMove, rules: &Rules<B>, position: &Position<B>) -> String {
    let g = &rules.geometry;
    match e {
        IllegalMove::GameOver => "the game is over".to_string(),
        IllegalMove::OffBoard(sq) => format!("{sq:#} is off the {}x{} board", g.rows(), g.cols()),
        IllegalMove::Occupied(sq) => format!("{sq:#} is occupied"),
        IllegalMove::FlanksNothing(sq) => {
            debug_assert_eq!(rules.variant.rule_set, RuleSet::Full);
            format!("{sq:#} flips nothing")
        }
        IllegalMove::TouchesNothing(sq) => format!(
            "{sq:#} touches no {} disc",
            position.to_move.opposite().name()
        ),
        // Passes are made by the game here, so a square is never refused for one.
        IllegalMove::MustPass(c) => format!("{} has no legal move", c.name()),
        IllegalMove::PassWithMoves(c) => format!("{} may not pass", c.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Setup, Variant};

    fn run(start: &Start, moves: &str) -> (String, anyhow::Result<Shown>) {
        let mut out = Vec::new();
        let result = show(start, &moves.parse().unwrap(), &mut out);
        (String::from_utf8(out).unwrap(), result)
    }

    fn from(position: &str, variant: Variant) -> Start {
        Start::Position(position.parse().unwrap(), variant)
    }

    fn small(rows: usize, cols: usize, variant: Variant) -> Start {
        Start::Setup(Setup::standard(
            crate::rules::Shape::new(rows, cols).unwrap(),
            variant,
        ))
    }

    fn illegal(result: anyhow::Result<Shown>) -> IllegalListedMove {
        result
            .unwrap_err()
            .downcast::<IllegalListedMove>()
            .expect("an illegal move")
    }

    #[test]
    fn the_4x4_sample_game_ends_as_the_rules_say() {
        let start = small(4, 4, Variant::default());
        let (out, shown) = run(&start, "B1 A1 C4 D4 D3 B4 A4 C1 D1 D2 A3 A2");
        let shown = shown.unwrap();
        assert_eq!(shown.steps, 13);
        assert_eq!(shown.score, (4, 12));
        assert_eq!(shown.winner, Some(Winner::White));
        assert!(out.contains("\n11. Black passes.\n    (w wwwb -www -bww bwww)\n"));
        assert!(out.ends_with("\nWhite wins, 12 to 4.\n"));
    }

    #[test]
    fn ties_and_misere_results() {
        let full = "(b bbww bbww bbww bbww)";
        let (out, shown) = run(&from(full, Variant::default()), "");
        assert_eq!(
            out,
            format!("Start, 4x4, game over.\n    {full}\nTie, 8 to 8.\n")
        );
        assert_eq!(shown.unwrap().winner, Some(Winner::Tie));
        let misere = Variant {
            misere: true,
            ..Variant::default()
        };
        let (out, _) = run(&from("(w bbbw bbbw bbbw bbbw)", misere), "");
        assert!(out.ends_with("\nWhite wins, 4 to 12 (misère: fewer discs win).\n"));
        let (out, _) = run(&from("(w bbbw bbbw bbbw bbbw)", Variant::default()), "");
        assert!(out.ends_with("\nBlack wins, 12 to 4.\n"));
    }

    #[test]
    fn a_forced_pass_at_the_end_of_the_list_is_shown() {
        let start = small(4, 4, Variant::default());
        let (out, shown) = run(&start, "B1 A1 C4 D4 D3 B4 A4 C1 D1 D2");
        assert_eq!(shown.unwrap().winner, None);
        assert!(out.ends_with(
            "11. Black passes.\n    (w wwwb -www -bww bwww)\n\
             Game not over: Black 3, White 11; White to move.\n"
        ));
        // `pa` may record the pass; a second one may not.
        let (_, shown) = run(&start, "B1 A1 C4 D4 D3 B4 A4 C1 D1 D2 pa");
        assert_eq!(shown.unwrap().steps, 11);
        let err = illegal(run(&start, "B1 A1 C4 D4 D3 B4 A4 C1 D1 D2 pa pa").1);
        assert_eq!(err.number, 12);
        assert_eq!(
            err.to_string(),
            "move 12 of the list (PA, White) is illegal: White has 2 legal moves, so may not pass"
        );
    }

    #[test]
    fn illegal_moves_say_why() {
        let why = |start: &Start, moves: &str| illegal(run(start, moves).1).reason;
        let full = small(4, 4, Variant::default());
        assert_eq!(why(&full, "B1 B1"), "B1 is occupied");
        assert_eq!(why(&full, "A1"), "A1 flips nothing");
        assert_eq!(why(&full, "E1"), "E1 is off the 4x4 board");
        assert_eq!(why(&full, "pa"), "Black has 4 legal moves, so may not pass");
        let simple = small(
            5,
            5,
            Variant {
                rule_set: RuleSet::Simple,
                ..Variant::default()
            },
        );
        assert_eq!(why(&simple, "A5"), "A5 touches no White disc");
        let anywhere = small(
            3,
            3,
            Variant {
                place_anywhere: true,
                ..Variant::default()
            },
        );
        assert_eq!(
            why(&anywhere, "pa"),
            "Black has 5 legal moves, so may not pass"
        );
        let (out, result) = run(&anywhere, "C1 C2 A3 B3 C3 A1");
        let err = illegal(result);
        assert_eq!(
            err.to_string(),
            "move 6 of the list (A1) is illegal: the game is over"
        );
        assert!(out.contains("\n5. Black at C3, flipping White at C2, B3.\n"));
        assert!(!out.contains("wins"));
    }

    #[test]
    fn big_and_odd_boards() {
        let anywhere = Variant {
            place_anywhere: true,
            ..Variant::default()
        };
        let (out, shown) = run(&small(26, 26, anywhere), "z26 a1");
        assert_eq!(shown.unwrap().score, (3, 3));
        assert!(out.contains("\n1. Black at Z26, flipping nothing.\n"));
        assert!(out.contains("\n2. White at A1, flipping nothing.\n"));
        assert!(out.ends_with("Game not over: Black 3, White 3; Black to move.\n"));
        // 5x3: the block sits at row 1, column 0.
        let (out, _) = run(&small(5, 3, Variant::default()), "");
        assert!(out.starts_with("Start, 5x3, Black to move.\n    (b --- wb- bw- --- ---)\n"));
    }
}
