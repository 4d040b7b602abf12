//! Prints the protocol input of one random game: the five header lines, then one legal move per
//! line (`row col`, 1-based) until the game is over. Pipe it into the referee:
//!
//! ```text
//! cargo run --release --example random_game -- 8 8 --seed 3 | cargo run --release
//! ```
//!
//! Arguments: `ROWS COLS [--seed N] [--first B|W] [--top-left B|W] [--misere] [--simple]
//! [--place-anywhere] [--invalid-every K]`. `--simple` and `--place-anywhere` only change which
//! moves are chosen: give the referee the same rules (`--rules simple`, `--place-anywhere`).
//! `--invalid-every K` puts an illegal move line before every K-th move, which the referee must
//! answer with INVALID.

use othello::protocols::line::MoveLine;
use othello::rules::{Bits, Color, Game, Move, Passes, RuleSet, Setup, Shape, Square, Variant};
use std::io::{self, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: random_game ROWS COLS [--seed N] [--first B|W] [--top-left B|W] \
                     [--misere] [--simple] [--place-anywhere] [--invalid-every K]";

struct Args {
    setup: Setup,
    seed: Option<u64>,
    invalid_every: Option<usize>,
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("random_game: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    othello::with_bits!(args.setup.shape, |B| play::<B>(&args))
}

fn play<B: Bits>(args: &Args) -> ExitCode {
    let mut game = match Game::<B>::new(&args.setup, Passes::Automatic) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("random_game: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = args.seed.unwrap_or_else(seed_from_clock);
    if args.seed.is_none() {
        eprintln!("random_game: --seed {seed}");
    }
    let mut rng = XorShift::new(seed);

    let s = &args.setup;
    let mut lines = vec![
        s.shape.rows().to_string(),
        s.shape.cols().to_string(),
        s.first.letter().to_string(),
        s.top_left.letter().to_string(),
        if s.variant.misere { "<" } else { ">" }.to_string(),
    ];
    let mut played = 0;
    while game.to_move().is_some() {
        if args.invalid_every.is_some_and(|k| played % k == k - 1) {
            lines.push(illegal_line(&game, &mut rng));
        }
        let moves: Vec<usize> = game.legal_moves().iter().collect();
        let square = game.rules().geometry.square(moves[rng.below(moves.len())]);
        game.try_play(Move::Play(square))
            .expect("a legal move is accepted");
        lines.push(MoveLine::from(square).to_string());
        played += 1;
    }
    // A reader that stops early (`| head`) is not an error.
    let _ = writeln!(io::stdout(), "{}", lines.join("\n"));
    ExitCode::SUCCESS
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut variant = Variant {
        rule_set: RuleSet::Full,
        place_anywhere: false,
        misere: false,
    };
    let (mut first, mut top_left) = (Color::Black, Color::White);
    let mut seed = None;
    let mut invalid_every = None;
    let mut sides = Vec::new();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--seed" => seed = Some(number(&value()?)?),
            "--first" => first = color(&value()?)?,
            "--top-left" => top_left = color(&value()?)?,
            "--misere" => variant.misere = true,
            "--simple" => variant.rule_set = RuleSet::Simple,
            "--place-anywhere" => variant.place_anywhere = true,
            "--invalid-every" => match number(&value()?)? {
                0 => return Err("--invalid-every needs a positive number".into()),
                k => invalid_every = Some(k as usize),
            },
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => sides.push(number(&arg)? as usize),
        }
    }
    let [rows, cols] = sides[..] else {
        return Err("expected ROWS and COLS".into());
    };
    let setup = Setup {
        shape: Shape::new(rows, cols).map_err(|e| e.to_string())?,
        variant,
        first,
        top_left,
    };
    Ok(Args {
        setup,
        seed,
        invalid_every,
    })
}

fn number(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| format!("not a number: {text:?}"))
}

fn color(text: &str) -> Result<Color, String> {
    Color::from_letter(text).ok_or(format!("expected B or W, not {text:?}"))
}

/// A line the referee must refuse: an occupied cell, a cell off the board, or not a move at all.
fn illegal_line<B: Bits>(game: &Game<B>, rng: &mut XorShift) -> String {
    let shape = game.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    match rng.below(3) {
        0 => {
            let occupied: Vec<Square> = shape
                .squares()
                .filter(|&sq| game.disc(sq).is_some())
                .collect();
            let sq = occupied[rng.below(occupied.len())];
            MoveLine::from(sq).to_string()
        }
        1 => format!("{} {}", rows + 1, rng.below(cols) + 1),
        _ => "pass".to_string(),
    }
}

fn seed_from_clock() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(1, |d| d.as_nanos() as u64)
}

/// Marsaglia's xorshift64: small, fast, and plenty for picking moves.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> Self {
        // Spread the bits of small seeds (splitmix64's finaliser); the state must not be zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        XorShift((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`); the slight bias does not matter here.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
