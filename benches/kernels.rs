//! The hot kernels, each on its own: the flips of a move, the legal moves of a position, and
//! exact solves of positions a few moves from the end.
//!
//! `cargo bench --bench kernels` (`-- --quick` for a short run; `-- flips` for one group).
//! Every position comes from games of seeded random moves, so each run measures the same work;
//! compare runs with `-- --save-baseline before` and then `-- --baseline before`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use othello::random::splitmix;
use othello::rules::{Bits, Color, Flips, Position, Rules, Shape, Variant, WithFlips, Words, Work};
use othello::search::{Config, Engine};
use std::hint::black_box;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// Seeds of the random games the positions are drawn from.
const SEEDS: std::ops::Range<u64> = 1..9;

fn rules<B: Bits>(rows: usize, cols: usize) -> Rules<B> {
    Rules::new(Shape::new(rows, cols).unwrap(), Variant::default()).unwrap()
}

/// The positions of one game of random moves drawn with `seed`, from the start to the end,
/// each one after a move (a pass is made, not kept): the same game every run.
fn random_game<B: Bits>(rules: &Rules<B>, seed: u64) -> Vec<Position<B>> {
    let mut state = seed;
    let mut pos = rules.start(Color::Black, Color::White);
    let mut game = vec![pos];
    while !rules.is_over(&pos) {
        let moves = rules.moves(&pos);
        if moves.is_empty() {
            pos = rules.pass(&pos);
            continue;
        }
        let pick = splitmix(&mut state) % u64::from(moves.count());
        let cell = moves.iter().nth(pick as usize).unwrap();
        pos = rules.play_unchecked(&pos, cell);
        game.push(pos);
    }
    game
}

/// Positions of the random games whose side to move has a move and whose empty cells number
/// within `empties`, every fourth of each game so that they spread over the range: the midgame
/// for the rules' kernels, the last moves for the solver.
fn positions<B: Bits>(
    rules: &Rules<B>,
    empties: std::ops::RangeInclusive<u32>,
    per_game: usize,
) -> Vec<Position<B>> {
    SEEDS
        .flat_map(|seed| {
            random_game(rules, seed)
                .into_iter()
                .filter(|pos| {
                    empties.contains(&rules.empty(pos).count()) && !rules.moves(pos).is_empty()
                })
                .step_by(4)
                .take(per_game)
        })
        .collect()
}

fn move_count<B: Bits>(rules: &Rules<B>, positions: &[Position<B>]) -> u64 {
    positions
        .iter()
        .map(|pos| u64::from(rules.moves(pos).count()))
        .sum()
}

/// A loop over positions through one kernel. A function generic over the kernel cannot be a
/// closure, so each loop is a type; [`Chosen`] runs it with the kernel the rules choose.
trait KernelLoop<B: Bits> {
    fn run<F: Flips<B>>(self, kernel: F) -> B;
}

/// A [`KernelLoop`] for [`Rules::with_flips`]: it runs inside the chosen kernel's own `run`,
/// where the kernel's processor features are on, as the search's loops do.
struct Chosen<L>(L);

impl<B: Bits, L: KernelLoop<B>> WithFlips<B> for Chosen<L> {
    type Output = B;

    fn with<F: Flips<B>>(self, kernel: F) -> B {
        kernel.run(WithKernel {
            job: self.0,
            kernel,
            bits: PhantomData,
        })
    }
}

struct WithKernel<B, L, F> {
    job: L,
    kernel: F,
    bits: PhantomData<B>,
}

impl<B: Bits, L: KernelLoop<B>, F: Flips<B>> Work for WithKernel<B, L, F> {
    type Output = B;

    #[inline(always)]
    fn work(self) -> B {
        self.job.run(self.kernel)
    }
}

/// Every move of every position made through the kernel (the SIMD lanes where the board and
/// the processor allow), as the search makes them; the discs of the positions reached are
/// folded together so that none is skipped.
struct MakeMoves<'a, B> {
    rules: &'a Rules<B>,
    positions: &'a [Position<B>],
}

impl<B: Bits> KernelLoop<B> for MakeMoves<'_, B> {
    #[inline(always)]
    fn run<F: Flips<B>>(self, kernel: F) -> B {
        let mut seen = B::ZERO;
        for pos in self.positions {
            let (mine, theirs) = (pos.mover(), pos.opponent());
            for cell in self.rules.moves_by(kernel, mine, theirs).iter() {
                let flips = kernel.flips(cell, mine, theirs);
                seen ^= self.rules.play_flips(pos, cell, flips).black;
            }
        }
        seen
    }
}

/// The legal moves of every position through the kernel, folded together.
struct FindMoves<'a, B> {
    rules: &'a Rules<B>,
    positions: &'a [Position<B>],
}

impl<B: Bits> KernelLoop<B> for FindMoves<'_, B> {
    #[inline(always)]
    fn run<F: Flips<B>>(self, kernel: F) -> B {
        self.positions.iter().fold(B::ZERO, |seen, pos| {
            seen ^ self.rules.moves_by(kernel, pos.mover(), pos.opponent())
        })
    }
}

/// Making every move of midgame positions: through the rules' kernel, and one call of
/// [`Rules::play_unchecked`] at a time as the rest of the program does.
fn flips_on<B: Bits>(c: &mut Criterion, rows: usize, cols: usize, width: &str) {
    let rules = rules::<B>(rows, cols);
    let positions = positions(&rules, 20..=(rows * cols) as u32 - 20, 6);
    let board = format!("{rows}x{cols} {width}");
    let mut group = c.benchmark_group("flips");
    group.throughput(Throughput::Elements(move_count(&rules, &positions)));
    group.bench_function(BenchmarkId::new(&board, "kernel"), |b| {
        b.iter(|| {
            rules.with_flips(Chosen(MakeMoves {
                rules: &rules,
                positions: black_box(&positions),
            }))
        })
    });
    group.bench_function(BenchmarkId::new(&board, "play_unchecked"), |b| {
        b.iter(|| {
            let mut seen = B::ZERO;
            for pos in black_box(&positions) {
                for cell in rules.moves(pos).iter() {
                    seen ^= rules.play_unchecked(pos, cell).black;
                }
            }
            seen
        })
    });
    group.finish();
}

/// The legal moves of midgame positions, through the rules' kernel and through
/// [`Rules::moves`].
fn moves_on<B: Bits>(c: &mut Criterion, rows: usize, cols: usize, width: &str) {
    let rules = rules::<B>(rows, cols);
    let positions = positions(&rules, 20..=(rows * cols) as u32 - 20, 6);
    let board = format!("{rows}x{cols} {width}");
    let mut group = c.benchmark_group("moves");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(BenchmarkId::new(&board, "kernel"), |b| {
        b.iter(|| {
            rules.with_flips(Chosen(FindMoves {
                rules: &rules,
                positions: black_box(&positions),
            }))
        })
    });
    group.bench_function(BenchmarkId::new(&board, "Rules::moves"), |b| {
        b.iter(|| {
            black_box(&positions)
                .iter()
                .fold(B::ZERO, |seen, pos| seen ^ rules.moves(pos))
        })
    });
    group.finish();
}

fn flips(c: &mut Criterion) {
    flips_on::<u64>(c, 8, 8, "u64");
    flips_on::<u128>(c, 10, 10, "u128");
}

fn moves(c: &mut Criterion) {
    moves_on::<u64>(c, 8, 8, "u64");
    moves_on::<u128>(c, 10, 10, "u128");
    moves_on::<Words<4>>(c, 16, 16, "Words<4>");
}

/// Exact solves of 8x8 positions with `empties` empty cells, one thread, best move only.
/// Up to 9 empty cells the shallow solver does all the work below the root; above, the
/// solver's node with its table takes the first moves. The table is cleared before each
/// round, outside the time, so that every round does the same work.
fn solve(c: &mut Criterion) {
    let rules = rules::<u64>(8, 8);
    let config = Config {
        hash_mb: 1,
        threads: 1,
        move_time: None,
        ..Config::default()
    };
    let mut engine = Engine::new(rules.clone(), config);
    let mut group = c.benchmark_group("solve");
    for empties in [8, 10, 12] {
        let positions = positions(&rules, empties..=empties, 1);
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(BenchmarkId::new("8x8", format!("{empties} empties")), |b| {
            b.iter_custom(|rounds| {
                let mut took = Duration::ZERO;
                for _ in 0..rounds {
                    engine.clear();
                    let clock = Instant::now();
                    for pos in &positions {
                        black_box(engine.solve_exact(black_box(pos), false));
                    }
                    took += clock.elapsed();
                }
                took
            })
        });
    }
    group.finish();
}

criterion_group!(kernels, flips, moves, solve);
criterion_main!(kernels);
