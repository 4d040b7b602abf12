use super::positions::*;
use super::*;
use crate::interrupt::Interrupt;
use crate::progress::Progress;
use crate::rules::{Bits, Game, Move, Position, Rules, Shape, Variant};
use crate::rules::{Color, Passes, RuleSet, Setup, Square};
use crate::search::{Config, Engine, Evaluation};
use std::time::Duration;

fn rules(side: usize) -> Rules<u64> {
    Rules::new(Shape::square(side).unwrap(), Variant::default()).unwrap()
}

fn options(deviation: u32, margin: i32, depth: u32, exact_empties: u32) -> LearnOptions {
    LearnOptions {
        deviation,
        margin,
        exact_empties,
        games: None,
        threads: 2,
        search: Config::to_depth(depth)
            .with_hash_mb(1)
            .with_eval(Evaluation::Classic),
        save_every: Duration::from_secs(3600),
    }
}

/// A book learned on a square board from the standard start.
fn learned(side: usize, o: &LearnOptions) -> (Book, LearnReport) {
    let r = rules(side);
    let mut book = Book::new(&r, &r.start(Color::Black, Color::White));
    let report = learn(
        &mut book,
        &[],
        o,
        &Interrupt::default(),
        &Progress::hidden(),
        &mut |_| Ok(()),
    )
    .unwrap();
    (book, report)
}

/// The first `n` moves of a 6x6 game, each the lowest legal cell.
fn first_moves(r: &Rules<u64>, n: usize) -> Vec<Move> {
    let mut game = game_after(6, &[]);
    let mut line = Vec::new();
    for _ in 0..n {
        let m = Move::Play(r.geometry.square(game.legal_moves().lowest().unwrap()));
        game.try_play(m).unwrap();
        line.push(m);
    }
    line
}

fn solver(r: &Rules<u64>) -> Engine<u64> {
    Engine::new(
        r.clone(),
        Config::unlimited()
            .with_hash_mb(4)
            .with_eval(Evaluation::Classic),
    )
}

/// The exact value of `pos` for its side to move.
fn solve(e: &mut Engine<u64>, r: &Rules<u64>, pos: &Position<u64>) -> i32 {
    if r.is_over(pos) {
        return r.margin(pos, pos.to_move);
    }
    if r.moves(pos).is_empty() {
        return -solve(e, r, &r.pass(pos));
    }
    e.clear();
    e.solve_exact(pos, false).score
}

fn game_after(side: usize, moves: &[&str]) -> Game<u64> {
    let setup = Setup::standard(Shape::square(side).unwrap(), Variant::default());
    let mut game = Game::new(&setup, Passes::Automatic).unwrap();
    for m in moves {
        let m: crate::notation::MoveList = m.parse().unwrap();
        game.play_listed(m.0[0]).unwrap();
    }
    game
}

#[test]
fn a_4x4_book_is_exact_and_agrees_with_the_solver_in_every_orientation() {
    let (book, report) = learned(4, &options(6, 64, 2, 12));
    assert!(
        report.done && report.games > 0 && book.len() > 20,
        "{report:?}"
    );
    let r = rules(4);
    let mut e = solver(&r);
    let start = r.start(Color::Black, Color::White);
    let frame = Frame::new(r.clone());
    let (root, _) = book.find(&frame, &start).unwrap();
    assert_eq!(root.level, Level::Exact);
    assert_eq!(root.value as i32, solve(&mut e, &r, &start));
    // Every position two plies deep, in whichever orientation the game reached it: each book
    // move is legal there and worth what the solver says.
    let first = game_after(4, &[]);
    let mut checked = 0;
    for a in first.legal_moves().iter() {
        let mut g = first.clone();
        g.try_play(Move::Play(r.geometry.square(a))).unwrap();
        for b in std::iter::once(None).chain(g.legal_moves().iter().map(Some)) {
            let mut h = g.clone();
            if let Some(b) = b {
                h.try_play(Move::Play(r.geometry.square(b))).unwrap();
            }
            for m in book.moves(&h) {
                let mut after = h.clone();
                after
                    .try_play(m.played)
                    .expect("a book move is legal in the game");
                let pos = after.position();
                let value = solve(&mut e, &r, pos);
                let value = if pos.to_move == h.position().to_move {
                    value
                } else {
                    -value
                };
                assert_eq!(m.level, Level::Exact);
                assert_eq!(m.value, value, "{:?} then {}", h.position(), m.played);
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "{checked}");
}

#[test]
fn a_move_found_in_a_rotated_position_comes_back_in_the_games_frame() {
    let r: Rules<u64> = rules(8);
    let frame = Frame::new(r.clone());
    let game = game_after(8, &["f5"]);
    let mut book = Book::new(&r, game.start());
    // The book knows d6 after f5; asked after each of the four first moves, which are f5
    // turned and reflected, it answers the move that d6 turns into.
    let (key, s) = frame.canonical(game.position());
    let d6 = r.geometry.index(Square::new(5, 3)).unwrap();
    book.insert(
        key,
        BookPosition::from_leaf(Leaf {
            cell: frame.key_cell(s, d6) as u16,
            value: 3,
            level: Level::Depth(4),
        }),
    );
    for (first, reply) in [("f5", "d6"), ("e6", "f4"), ("d3", "c5"), ("c4", "e3")] {
        let g = game_after(8, &[first]);
        let moves = book.moves(&g);
        assert_eq!(moves.len(), 1, "{first}");
        assert_eq!(moves[0].played.to_string(), reply, "after {first}");
        assert_eq!(moves[0].value, 3);
        assert!(!moves[0].linked);
        assert_eq!(choose(&book, &g, 0, 7), Some(moves[0].played));
    }
    // Not in the book: the start, and a position after two moves.
    assert!(book.moves(&game_after(8, &[])).is_empty());
    assert!(book.moves(&game_after(8, &["f5", "d6"])).is_empty());
}

/// The engine's choice from `book` with `margin` (see `players::BookUse`).
fn choose(book: &Book, game: &Game<u64>, margin: u32, seed: u64) -> Option<Move> {
    let book = std::sync::Arc::new(book.clone());
    crate::players::BookUse::new(book, margin, seed)
        .choose(game)
        .map(|m| m.played)
}

#[test]
fn fix_redoes_the_negamax_and_choose_keeps_within_the_margin() {
    let (mut book, _) = learned(6, &options(2, 3, 2, 8));
    assert_eq!(book.fix(), 0, "a learned book is already fixed");
    // The four first moves are one move under the board's symmetries: the book's choices
    // begin at the reply.
    let first = book.moves(&game_after(6, &[]))[0].played.to_string();
    let game = game_after(6, &[&first]);
    let moves = book.moves(&game);
    assert!(moves.len() >= 2, "{moves:?}");
    assert!(moves.windows(2).all(|w| w[0].value >= w[1].value));
    // Raise the value of the second move's position (a loss for the mover there): after a
    // fix the start's value is what that move is now worth.
    let r = rules(6);
    let frame = Frame::new(r.clone());
    let second = moves.iter().find(|m| m.linked && m.value < moves[0].value);
    if let Some(second) = second {
        let mut after = game.clone();
        after.try_play(second.played).unwrap();
        let (key, _) = frame.canonical(after.position());
        book.entry_mut(&key).unwrap().leaf = Some(Leaf {
            cell: 0,
            value: -60,
            level: Level::Exact,
        });
        book.entry_mut(&key).unwrap().links.clear();
        assert!(book.fix() > 0);
        let best = &book.moves(&game)[0];
        assert_eq!(best.played, second.played);
        assert_eq!(best.value, 60);
        assert_eq!(book.find(&frame, game.position()).unwrap().0.value, 60);
    }
    // Margin 0: always a best move; a wide margin: more than one move over many draws.
    let (mut book, _) = learned(6, &options(2, 3, 2, 8));
    let moves = book.moves(&game);
    let best = moves[0].value;
    let mut seen = std::collections::HashSet::new();
    for seed in 0..200 {
        let m = choose(&book, &game, 0, seed).unwrap();
        assert!(moves.iter().any(|b| b.played == m && b.value == best));
        seen.insert(choose(&book, &game, 100, seed).unwrap());
    }
    assert!(seen.len() >= 2);
    book.entries.clear();
    assert_eq!(choose(&book, &game, 100, 1), None);
}

#[test]
fn a_6x6_book_is_exact_where_it_says_so() {
    let (book, report) = learned(6, &options(2, 1, 2, 10));
    assert!(report.done, "{report:?}");
    let r = rules(6);
    let frame = Frame::new(r.clone());
    let mut e = solver(&r);
    let mut exact = 0;
    for (key, entry) in book.entries() {
        let pos = frame.position(key).unwrap();
        if entry.level == Level::Exact {
            assert_eq!(entry.value as i32, solve(&mut e, &r, &pos), "{pos:?}");
            exact += 1;
        }
        // Games below a position add up; a leaf is never one of the links.
        assert!(entry.games.games() <= entry.games.lines as u64);
        assert!(entry.leaf.is_none_or(|l| !entry.links_cell(l.cell)));
    }
    assert!(exact > 0);
}

#[test]
fn a_resumed_learn_makes_the_book_of_one_run_on_any_number_of_threads() {
    let o = options(3, 2, 2, 10);
    let (whole, report) = learned(6, &o);
    assert!(report.done);
    let r = rules(6);
    let mut book = Book::new(&r, &r.start(Color::Black, Color::White));
    let mut one_thread = o.clone();
    one_thread.threads = 1;
    one_thread.games = Some(1);
    let quiet = Progress::hidden();
    let first = learn(
        &mut book,
        &[],
        &one_thread,
        &Interrupt::default(),
        &quiet,
        &mut |_| Ok(()),
    )
    .unwrap();
    assert!(!first.done && first.games < report.games);
    let bytes = to_bytes(&book);
    let mut book = from_bytes(&bytes).unwrap();
    let mut saves = 0;
    let rest = learn(
        &mut book,
        &[],
        &o,
        &Interrupt::default(),
        &quiet,
        &mut |_| {
            saves += 1;
            Ok(())
        },
    )
    .unwrap();
    assert!(rest.done && saves >= 1);
    assert_eq!(first.games + rest.games, report.games);
    assert_eq!(book, whole);
    // Learning again finds nothing to add.
    let again = learn(
        &mut book,
        &[],
        &o,
        &Interrupt::default(),
        &quiet,
        &mut |_| Ok(()),
    );
    assert_eq!(again.unwrap().games, 0);
    assert_eq!(book, whole);
}

#[test]
fn a_signal_stops_learning_with_the_book_saved() {
    let r = rules(6);
    let mut book = Book::new(&r, &r.start(Color::Black, Color::White));
    let stop = Interrupt::default();
    stop.raise(2);
    let mut saved = None;
    let report = learn(
        &mut book,
        &[],
        &options(3, 2, 2, 10),
        &stop,
        &Progress::hidden(),
        &mut |b| {
            saved = Some(b.len());
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(report.stopped, Some(2));
    assert_eq!(report.games, 0);
    // Its search stopped at once, the start was not valued: the book is saved as it was, for
    // the next run to go on from.
    assert_eq!(saved, Some(0));
    let (whole, _) = learned(6, &options(3, 2, 2, 10));
    learn(
        &mut book,
        &[],
        &options(3, 2, 2, 10),
        &Interrupt::default(),
        &Progress::hidden(),
        &mut |_| Ok(()),
    )
    .unwrap();
    assert_eq!(book, whole);
}

#[test]
fn learning_after_moves_adds_their_line() {
    let r = rules(6);
    let mut book = Book::new(&r, &r.start(Color::Black, Color::White));
    // Two moves from the start: the first legal move, then the first legal reply.
    let line = first_moves(&r, 2);
    let mut o = options(1, 0, 2, 10);
    o.games = Some(1);
    let quiet = Progress::hidden();
    learn(
        &mut book,
        &line,
        &o,
        &Interrupt::default(),
        &quiet,
        &mut |_| Ok(()),
    )
    .unwrap();
    let texts: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    for n in 0..=2 {
        let moves: Vec<&str> = texts[..n].iter().map(|t| t.as_str()).collect();
        let g = game_after(6, &moves);
        assert!(!book.moves(&g).is_empty(), "{moves:?}");
    }
    // Each move of the line is a link of the position before it.
    let g = game_after(6, &[&texts[0]]);
    assert!(book
        .moves(&g)
        .iter()
        .any(|m| m.played == line[1] && m.linked));
    let bad: crate::notation::MoveList = "a1".parse().unwrap();
    let refused = learn(
        &mut book,
        &bad.0,
        &o,
        &Interrupt::default(),
        &quiet,
        &mut |_| Ok(()),
    );
    assert!(refused.unwrap_err().to_string().contains("move 1 (a1)"));
}

#[test]
fn the_file_round_trips_and_every_damage_is_named() {
    let (book, _) = learned(4, &options(2, 1, 2, 12));
    let bytes = to_bytes(&book);
    assert_eq!(from_bytes(&bytes).unwrap(), book);
    assert_eq!(to_bytes(&from_bytes(&bytes).unwrap()), bytes);
    let error = |b: &[u8]| from_bytes(b).unwrap_err().to_string();
    // A flipped bit anywhere after the magic and version: the checksum, or the length.
    for at in [
        10,
        20,
        40,
        bytes.len() / 2,
        bytes.len() - 5,
        bytes.len() - 1,
    ] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        let e = error(&b);
        assert!(
            e.contains("damaged") || e.contains("truncated"),
            "byte {at}: {e}"
        );
    }
    let mut b = bytes.clone();
    b[bytes.len() / 2] ^= 1;
    assert!(error(&b).contains("checksum"));
    for len in [0, 5, 20, bytes.len() - 1, bytes.len() / 2] {
        let e = error(&bytes[..len]);
        assert!(
            e.contains("truncated") || (len < 8 && e.contains("not an opening book")),
            "{len}: {e}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(error(&longer).contains("after the end"));
    let mut b = bytes.clone();
    b[0] = b'X';
    assert!(error(&b).contains("not an opening book"));
    assert!(error(b"PK\x03\x04 a zip file").contains("not an opening book"));
    let mut b = bytes.clone();
    b[8] = 2;
    assert_eq!(
        error(&b),
        "book format version 2, but this program reads version 1"
    );
}

#[test]
fn a_book_is_refused_for_another_game() {
    let r = rules(6);
    let book = Book::new(&r, &r.start(Color::Black, Color::White));
    let other = rules(8);
    let e = book.check(&other, &other.start(Color::Black, Color::White));
    assert_eq!(
        e.unwrap_err().to_string(),
        "the book is for a 6x6 board, the game is on 8x8"
    );
    let simple = Variant {
        rule_set: RuleSet::Simple,
        ..Variant::default()
    };
    let s: Rules<u64> = Rules::new(Shape::square(6).unwrap(), simple).unwrap();
    let e = book
        .check(&s, &s.start(Color::Black, Color::White))
        .unwrap_err();
    assert!(e.to_string().contains("simple rules"), "{e}");
    // The start with the colours swapped is the same game turned over; another is not.
    assert!(book.check(&r, &r.start(Color::White, Color::Black)).is_ok());
    assert!(book.check(&r, &r.start(Color::Black, Color::Black)).is_ok());
    let moved = r.play_unchecked(&r.start(Color::Black, Color::White), 8);
    assert_eq!(book.check(&r, &moved), Err(Mismatch::Start));
    // Nor does it answer for a game on another board.
    assert!(book.moves(&game_after(8, &[])).is_empty());
}

#[test]
fn the_built_in_book_loads_and_knows_the_start_and_the_openings_file() {
    let book = super::built_in().expect("books/8x8.book is whole");
    let rules = Rules::<u64>::new(Shape::STANDARD, Variant::default()).unwrap();
    let start = rules.start(Color::Black, Color::White);
    book.check(&rules, &start).unwrap();
    assert!(book.len() > 10_000, "{} positions", book.len());
    let mut game = Game::from_position(rules.clone(), start, Passes::Automatic);
    // The four first moves are one under the symmetries, played as e6 whichever the file
    // keeps.
    let first = book.moves(&game);
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0].played.to_string(), "e6");
    // Each opening of the strength matches is in the book, with moves below it.
    let openings = include_str!("../../../openings/8x8.txt");
    for line in openings.lines().filter(|l| !l.starts_with('#')) {
        game = Game::from_position(rules.clone(), start, Passes::Automatic);
        for &m in line.parse::<crate::notation::MoveList>().unwrap().iter() {
            game.play_listed(m).unwrap();
        }
        assert!(!book.moves(&game).is_empty(), "{line}");
    }
}

/// A scratch file in the system's temporary folder, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!("othello-{name}-{}", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_book_of_positions_without_links_reads_back() {
    let r = rules(8);
    let book = Book::new(&r, &r.start(Color::Black, Color::White));
    let mut one = book.clone();
    let key = Frame::new(r.clone())
        .canonical(&r.start(Color::Black, Color::White))
        .0;
    one.insert(key, BookPosition::finished(0));
    for b in [book, one] {
        assert_eq!(from_bytes(&to_bytes(&b)).unwrap(), b);
    }
}

#[test]
fn a_file_is_refused_by_its_first_bytes_before_the_rest_is_read() {
    // Endless, and not a book: refused at its first bytes.
    let e = read(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(matches!(e, BookFileError::Foreign), "{e}");
    let e = read_edax(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(e.to_string().contains("not an Edax book"), "{e}");
    // A header that gives more bytes than a book may take: refused without reading them.
    let r = rules(8);
    let bytes = to_bytes(&Book::new(&r, &r.start(Color::Black, Color::White)));
    let file = TempFile::new("huge.book");
    let mut huge = bytes.clone();
    huge[16..24].copy_from_slice(&(1u64 << 40).to_le_bytes());
    std::fs::write(&file.0, &huge).unwrap();
    let e = read(&file.0).unwrap_err();
    assert!(matches!(e, BookFileError::TooLarge(_)), "{e}");
    assert!(e.to_string().contains("1 GiB"), "{e}");
    // A book followed by gigabytes (a sparse file): read only as far as its header says.
    std::fs::write(&file.0, &bytes).unwrap();
    let f = std::fs::File::options().write(true).open(&file.0).unwrap();
    f.set_len(3 << 30).unwrap();
    let e = read(&file.0).unwrap_err();
    assert!(e.to_string().contains("after the end"), "{e}");
    // Edax's header counting more positions than a book may hold.
    let edax = TempFile::new("huge.dat");
    let mut theirs = edax::write(&edax::EdaxBook::new(edax::EdaxOptions::default()));
    theirs[38..42].copy_from_slice(&i32::MAX.to_le_bytes());
    std::fs::write(&edax.0, &theirs).unwrap();
    let e = read_edax(&edax.0).unwrap_err();
    assert!(e.to_string().contains("1 GiB"), "{e}");
}

#[test]
fn learning_opens_the_book_of_its_start_or_begins_one() {
    let start = |side| {
        let shape = Shape::square(side).unwrap();
        crate::start::Start::Setup(Setup::standard(shape, Variant::default()))
    };
    let file = TempFile::new("open.book");
    // No file: a new book of the start, holding nothing yet.
    let new = open_or_create(&file.0, &start(6)).unwrap();
    assert!(new.is_empty());
    write(&file.0, &new).unwrap();
    assert_eq!(open_or_create(&file.0, &start(6)).unwrap(), new);
    // A book of another board is refused, saying what to give.
    let e = open_or_create(&file.0, &start(8)).unwrap_err();
    assert!(matches!(e, OpenError::OtherStart(_)), "{e}");
    assert!(
        e.to_string()
            .ends_with("give the book's board and rule options"),
        "{e}"
    );
    // A file that is not a book is refused as such, and left as it was.
    std::fs::write(&file.0, b"not a book").unwrap();
    let e = open_or_create(&file.0, &start(6)).unwrap_err();
    assert!(matches!(e, OpenError::File(BookFileError::Foreign)), "{e}");
    assert_eq!(std::fs::read(&file.0).unwrap(), b"not a book");
}

/// Moves whose positions are images of one another under the board's symmetries are one
/// move: a book learned through one of the four first moves of 6x6 lists that move alone at
/// the start (its images are no best move out of the book beside it), before `fix` and after.
#[test]
fn images_of_a_linked_move_are_not_listed_beside_it() {
    let r = rules(6);
    let mut book = Book::new(&r, &r.start(Color::Black, Color::White));
    let line = first_moves(&r, 2);
    let mut o = options(2, 4, 2, 10);
    o.games = Some(3);
    learn(
        &mut book,
        &line,
        &o,
        &Interrupt::default(),
        &Progress::hidden(),
        &mut |_| Ok(()),
    )
    .unwrap();
    let frame = Frame::new(r.clone());
    let start = game_after(6, &[]);
    let after = |m: &BookMove| {
        let Move::Play(square) = m.played else {
            panic!("no pass at the start")
        };
        let cell = r.geometry.index(square).unwrap();
        frame.canonical(&frame.child(start.position(), cell).0).0
    };
    for fixed in [false, true] {
        if fixed {
            book.fix();
        }
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 1, "fixed: {fixed}: {moves:?}");
        for (i, a) in moves.iter().enumerate() {
            for b in &moves[..i] {
                assert_ne!(after(a), after(b), "{moves:?}");
            }
        }
        let (key, _) = frame.canonical(start.position());
        assert_eq!(book.entry(&key).unwrap().value as i32, moves[0].value);
    }
}

/// The book's moves, each as the position it leads to, so that images compare equal.
fn reached(book: &Book, game: &Game<u64>) -> Vec<(Vec<u8>, i32, bool)> {
    let frame = Frame::new(game.rules().clone());
    book.moves(game)
        .iter()
        .map(|m| {
            let mut after = game.clone();
            after.try_play(m.played).expect("a book move is legal");
            (frame.canonical(after.position()).0, m.value, m.linked)
        })
        .collect()
}

/// Games added are in the book move by move, each move a link, down to the first position the
/// solver takes (`exact_empties`) or to `plies`; a bad move in any game changes nothing.
#[test]
fn games_added_are_in_the_book_linked_move_by_move() {
    let r = rules(6);
    let quiet = (Interrupt::default(), Progress::hidden());
    let a = first_moves(&r, 16);
    let mut book = Book::new(&r, &r.start(Color::Black, Color::White));
    let mut bad = a.clone();
    bad[5] = bad[4];
    let o = options(0, 0, 2, 20);
    let add = |book: &mut Book, games: &[Vec<Move>], plies: Option<u32>| {
        add_games(book, games, plies, &o, &quiet.0, &quiet.1)
    };
    let e = add(&mut book, &[a.clone(), bad], None).unwrap_err();
    assert!(e.to_string().contains("game 2, move 6"), "{e}");
    assert!(book.is_empty());
    let report = add(&mut book, std::slice::from_ref(&a), None).unwrap();
    // 32 empty cells at the start: the 13th position (12 moves in) has 20 and is the last.
    assert_eq!((report.games, report.added), (1, 13), "{report:?}");
    let frame = Frame::new(r.clone());
    let mut game = game_after(6, &[]);
    for (ply, &m) in a.iter().enumerate().take(12) {
        let mut after = game.clone();
        after.try_play(m).unwrap();
        let key = frame.canonical(after.position()).0;
        assert!(
            reached(&book, &game)
                .iter()
                .any(|(k, _, linked)| *k == key && *linked),
            "ply {ply}"
        );
        game = after;
    }
    assert_eq!(
        book.find(&frame, game.position()).unwrap().0.level,
        Level::Exact
    );
    // Again, adding nothing; with --plies 3 into a new book, four positions.
    let again = add(&mut book, std::slice::from_ref(&a), None).unwrap();
    assert_eq!(again.added, 0);
    let mut short = Book::new(&r, &r.start(Color::Black, Color::White));
    let report = add(&mut short, &[a], Some(3)).unwrap();
    assert_eq!(report.added, 4);
}

/// A merged book holds both books' positions, with the values the negamax gives; merging
/// either way round gives the same positions; books of other games are refused.
#[test]
fn merged_books_hold_both_and_agree_either_way() {
    let r = rules(6);
    let quiet = (Interrupt::default(), Progress::hidden());
    let learn_after = |moves: &[Move]| {
        let mut book = Book::new(&r, &r.start(Color::Black, Color::White));
        let mut o = options(2, 2, 2, 10);
        o.games = Some(4);
        learn(&mut book, moves, &o, &quiet.0, &quiet.1, &mut |_| Ok(())).unwrap();
        book
    };
    let a = learn_after(&first_moves(&r, 2));
    let start = game_after(6, &[]);
    let other = start
        .legal_moves()
        .iter()
        .map(|c| Move::Play(r.geometry.square(c)))
        .find(|&m| {
            let mut g = start.clone();
            g.try_play(m).unwrap();
            let mut h = game_after(6, &[]);
            h.try_play(first_moves(&r, 1)[0]).unwrap();
            Frame::new(r.clone()).canonical(g.position()).0
                != Frame::new(r.clone()).canonical(h.position()).0
        });
    let mut line = vec![other.unwrap_or(first_moves(&r, 1)[0])];
    line.extend(first_moves(&r, 3).into_iter().skip(2));
    let b = learn_after(&line[..1]);
    let (mut ab, mut ba) = (a.clone(), b.clone());
    let report = ab.merge(&b).unwrap();
    ba.merge(&a).unwrap();
    assert!(report.added > 0, "{report:?}");
    for (key, _) in a.entries().chain(b.entries()) {
        assert!(ab.entry(key).is_some() && ba.entry(key).is_some());
    }
    let keys = |book: &Book| {
        let mut k: Vec<Vec<u8>> = book.entries().map(|(k, _)| k.to_vec()).collect();
        k.sort();
        k
    };
    assert_eq!(keys(&ab), keys(&ba));
    let mut fixed = ab.clone();
    assert_eq!(fixed.fix(), 0, "a merged book is fixed");
    let r4 = rules(4);
    let four = Book::new(&r4, &r4.start(Color::Black, Color::White));
    assert!(ab.merge(&four).is_err());
}

/// Pruned to its first moves or to its best lines, a book keeps the values of what it keeps.
#[test]
fn a_pruned_book_keeps_its_values() {
    let (book, _) = learned(6, &options(3, 3, 2, 10));
    let start = game_after(6, &[]);
    let root = reached(&book, &start);
    for options in [
        PruneOptions {
            margin: None,
            plies: Some(2),
        },
        PruneOptions {
            margin: Some(0),
            plies: None,
        },
    ] {
        let mut pruned = book.clone();
        let dropped = pruned.prune(options);
        assert!(dropped > 0, "{options:?}");
        assert_eq!(dropped + pruned.len(), book.len());
        let values: Vec<i32> = reached(&pruned, &start).iter().map(|m| m.1).collect();
        assert_eq!(values[0], root[0].1, "{options:?}");
        if options.plies == Some(2) {
            // The start and the positions after its moves, no more.
            let linked = root.iter().filter(|m| m.2).count();
            assert_eq!(pruned.len(), 1 + linked);
        }
    }
    // Nothing is dropped from a book whose every position play reaches.
    let mut whole = book.clone();
    assert_eq!(whole.prune(PruneOptions::default()), 0);
    assert_eq!(whole, book);
}

/// The move played from a book does not depend on which image of it the file keeps, nor on the
/// order of its links: of the four first moves of 8x8, e6.
#[test]
fn the_book_move_does_not_depend_on_the_file() {
    let r: Rules<u64> = rules(8);
    let frame = Frame::new(r.clone());
    let start = game_after(8, &[]);
    let (key, s) = frame.canonical(start.position());
    let mut played = Vec::new();
    for first in ["f5", "d3", "c4", "e6"] {
        let cell = r.geometry.index(first.parse().unwrap()).unwrap();
        let mut book = Book::new(&r, start.start());
        let mut entry = BookPosition::from_leaf(Leaf {
            cell: frame.key_cell(s, cell) as u16,
            value: 1,
            level: Level::Depth(4),
        });
        // Two links of equal value, in either order: the first move and the parallel f4
        // after it stand for positions that are in the book.
        entry.links.push(Link {
            cell: frame.key_cell(s, cell) as u16,
            value: 1,
        });
        entry.leaf = None;
        book.insert(key.clone(), entry);
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 1, "{first}: {moves:?}");
        played.push(moves[0].played.to_string());
    }
    assert_eq!(played, ["e6"; 4]);
}

/// Edax reads the exported bounds as its own negamax leaves them: an exact value is its own
/// bounds, a searched one lies within them (they meet where the errors of the searches below
/// cannot move it), never the unknown ±127 where something is known.
#[test]
fn exported_bounds_are_edax_s_negamax() {
    let (book, _) = learned(8, &options(3, 2, 2, 0));
    let edax = book.to_edax().unwrap();
    assert!(!edax.positions.is_empty());
    for p in &edax.positions {
        assert!(
            p.lower <= p.value && p.value <= p.upper,
            "{} {} {}",
            p.lower,
            p.value,
            p.upper
        );
        assert!(p.lower > -64 && p.upper < 64, "{} {}", p.lower, p.upper);
        if p.level == 60 {
            assert_eq!(p.lower, p.upper);
        }
    }
    // A 4x4 book is exact everywhere: its bounds meet (8x8 only goes to Edax, so through
    // the bounds' own function on an exact 8x8 book instead).
    let mut exact = book.clone();
    for (_, entry) in exact.entries.iter_mut() {
        entry.level = Level::Exact;
        if let Some(leaf) = entry.leaf.as_mut() {
            leaf.level = Level::Exact;
        }
    }
    exact.fix();
    for p in &exact.to_edax().unwrap().positions {
        assert_eq!((p.lower, p.upper), (p.value, p.value));
    }
}

/// The game after `moves` (from the 8x8 start), and its ply.
fn eight_after(moves: &str) -> Game<u64> {
    let rules = Rules::<u64>::new(Shape::STANDARD, Variant::default()).unwrap();
    let start = rules.start(Color::Black, Color::White);
    let mut game = Game::from_position(rules, start, Passes::Automatic);
    for &m in moves.parse::<crate::notation::MoveList>().unwrap().iter() {
        game.play_listed(m).unwrap();
    }
    game
}

/// Every named opening is in the built-in book, each of its moves there, and its main line
/// (the book's first moves, as the engine plays them) stays in the book to ply 20 at least.
#[test]
fn the_built_in_book_holds_every_named_opening_and_its_main_line() {
    let book = super::built_in().expect("books/8x8.book is whole");
    let mut short = Vec::new();
    for opening in crate::opening::names::all() {
        let moves = &opening.line;
        let mut game = eight_after("");
        for (ply, &m) in moves.iter().enumerate() {
            assert!(
                book.moves(&game).iter().any(|b| {
                    let (mut a, mut b2) = (game.clone(), game.clone());
                    a.play_listed(m).unwrap();
                    b2.play_listed(b.played).unwrap();
                    let frame = Frame::new(game.rules().clone());
                    frame.canonical(a.position()).0 == frame.canonical(b2.position()).0
                }),
                "{}: move {} is not in the book",
                opening.name,
                ply + 1
            );
            game.play_listed(m).unwrap();
        }
        let mut ply = moves.len();
        while let Some(m) = book.moves(&game).first().filter(|m| m.linked) {
            game.play_listed(m.played).unwrap();
            ply += 1;
        }
        if ply < 20 {
            short.push(format!("{} (ply {ply})", opening.name));
        }
    }
    assert!(short.is_empty(), "main lines out of the book: {short:?}");
}

/// Takizawa's line of perfect play (a draw) is in the built-in book to its 40th move and
/// valued 0, the truth, from its 13th to its 26th and from its 30th on.
#[test]
fn the_built_in_book_holds_takizawa_s_line_at_its_value() {
    let book = super::built_in().expect("books/8x8.book is whole");
    let line = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8";
    let frame = Frame::new(Rules::<u64>::new(Shape::STANDARD, Variant::default()).unwrap());
    for ply in 0..=40 {
        let game = eight_after(&line[..2 * ply]);
        let Some((entry, _)) = book.find(&frame, game.position()) else {
            panic!("ply {ply} is not in the book");
        };
        if (13..=26).contains(&ply) || ply >= 30 {
            assert_eq!(entry.value, 0, "ply {ply}");
        }
    }
}
