use super::check::{next_board, standard_rules};
use super::*;
use crate::rules::{Color, Game, Move, Passes, Position, Rules, Setup, Shape, Square, Variant};

/// Edax's start: black (to move) on d5 and e4, white on d4 and e5.
const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

fn rules() -> Rules<u64> {
    standard_rules()
}

/// The board after Edax moves `x` from `(player, opponent)`.
fn after(board: (u64, u64), x: u8) -> (u64, u64) {
    assert!(x == PASS || rules().moves_for(board.0, board.1) & (1 << x) != 0);
    next_board(&rules(), board.0, board.1, x)
}

fn link(score: i8, square: u8) -> EdaxLink {
    EdaxLink { score, square }
}

/// The start with its four (symmetric) moves linked to the one position after f5, which has
/// d6 linked and a leaf on f6; d6's position has a leaf on c3.
fn small_book() -> EdaxBook {
    let a = after(START, 37); // f5
    let b = after(a, 43); // f5 d6
    let mut root = EdaxPosition::new(START.0, START.1);
    root.links = [37, 44, 19, 26].map(|x| link(1, x)).to_vec(); // f5 e6 d3 c4
    root.value = 1;
    let mut pa = EdaxPosition::new(a.0, a.1);
    pa.links = vec![link(-1, 43)];
    pa.leaf = link(-4, 45); // f6
    pa.value = -1;
    let mut pb = EdaxPosition::new(b.0, b.1);
    pb.leaf = link(1, 18); // c3
    pb.value = 1;
    (pb.wins, pb.draws, pb.losses, pb.lines) = (3, 1, 2, 7);
    (pa.wins, pa.draws, pa.losses, pa.lines) = (2, 1, 3, 7);
    (root.wins, root.draws, root.losses, root.lines) = (3, 1, 2, 7);
    for p in [&mut root, &mut pa, &mut pb] {
        (p.lower, p.upper, p.level) = (p.value - 2, p.value + 2, 10);
    }
    let positions = [root, pa, pb].iter().map(EdaxPosition::unique).collect();
    EdaxBook {
        release: RELEASE,
        date: EdaxDate::from_unix(1_700_000_000),
        options: EdaxOptions {
            level: 10,
            n_empties: 50,
            ..EdaxOptions::default()
        },
        positions,
    }
}

#[test]
fn symmetries_of_bits_follow_squares() {
    for s in 0..8 {
        for x in 0..64 {
            assert_eq!(
                symmetric_bits(1 << x, s),
                1 << symmetric_square(x, s),
                "s {s} x {x}"
            );
        }
        assert_eq!(symmetric_square(PASS, s), PASS);
        assert_eq!(symmetric_square(NO_MOVE, s), NO_MOVE);
    }
    // Transposition swaps rows and columns: B1 (1) and A2 (8).
    assert_eq!(symmetric_square(1, 4), 8);
    assert_eq!(
        symmetric_bits(0x0000_0000_0000_00ff, 4),
        0x0101_0101_0101_0101
    );
}

#[test]
fn unique_board_is_the_same_for_every_orientation() {
    let a = after(START, 37);
    let (up, uo, s) = unique_board(a.0, a.1);
    assert_eq!((symmetric_bits(a.0, s), symmetric_bits(a.1, s)), (up, uo));
    for t in 0..8 {
        let (p, o) = (symmetric_bits(a.0, t), symmetric_bits(a.1, t));
        let (p2, o2, _) = unique_board(p, o);
        assert_eq!((p2, o2), (up, uo));
        assert!((up, uo) <= (p, o));
    }
    // The four first moves lead to one unique board.
    let boards: Vec<_> = [37, 44, 19, 26]
        .map(|x| {
            let b = after(START, x);
            let (p, o, _) = unique_board(b.0, b.1);
            (p, o)
        })
        .to_vec();
    assert!(boards.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn our_start_is_edax_start() {
    let game: Game<u64> = Game::new(&Setup::default(), Passes::Automatic).unwrap();
    let board = board_from_position(game.rules(), game.position()).unwrap();
    assert_eq!(board, START);
    assert_eq!(color_by_parity(START.0, START.1), Color::Black);
    let back: Position<u64> = position_from_board(START.0, START.1, Color::Black);
    assert_eq!(&back, game.position());
    let after_f5 = after(START, 37);
    let ours: Position<u64> = position_from_board(after_f5.0, after_f5.1, Color::White);
    let mut game = game;
    game.try_play(Move::Play(Square::new(4, 5))).unwrap();
    assert_eq!(&ours, game.position());
    assert_eq!(color_by_parity(after_f5.0, after_f5.1), Color::White);
}

#[test]
fn other_boards_and_rules_are_refused() {
    let setup = Setup::standard(Shape::square(6).unwrap(), Variant::default());
    let game: Game<u64> = Game::new(&setup, Passes::Automatic).unwrap();
    let err = board_from_position(game.rules(), game.position()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Edax books hold 8x8 boards under the standard rules, not 6x6 with full rules"
    );
    let misere = Variant {
        misere: true,
        ..Variant::default()
    };
    let game: Game<u64> =
        Game::new(&Setup::standard(Shape::STANDARD, misere), Passes::Automatic).unwrap();
    assert!(board_from_position(game.rules(), game.position()).is_err());
}

#[test]
fn moves_and_squares() {
    assert_eq!(move_to_edax(Move::Play(Square::new(4, 5))), Some(37)); // f5
    assert_eq!(move_to_edax(Move::Play(Square::new(0, 0))), Some(0)); // a1
    assert_eq!(move_to_edax(Move::Play(Square::new(7, 7))), Some(63)); // h8
    assert_eq!(move_to_edax(Move::Play(Square::new(8, 0))), None);
    assert_eq!(move_to_edax(Move::Pass), Some(PASS));
    for x in 0..=PASS {
        assert_eq!(move_to_edax(move_from_edax(x).unwrap()), Some(x));
    }
    assert_eq!(move_from_edax(NO_MOVE), None);
    assert_eq!(EdaxLink::NONE.to_move(), None);
    assert_eq!(
        [0, 37, 63, PASS, NO_MOVE].map(square_name),
        ["a1", "f5", "h8", "pa", "--"]
    );
}

#[test]
fn dates() {
    let d = |y, mo, da, h, mi, s| EdaxDate {
        year: y,
        month: mo,
        day: da,
        hour: h,
        minute: mi,
        second: s,
    };
    assert_eq!(EdaxDate::from_unix(0), d(1970, 1, 1, 0, 0, 0));
    assert_eq!(EdaxDate::from_unix(951_782_400), d(2000, 2, 29, 0, 0, 0));
    assert_eq!(
        EdaxDate::from_unix(1_700_000_000),
        d(2023, 11, 14, 22, 13, 20)
    );
    assert_eq!(
        EdaxDate::from_unix(1_735_689_599),
        d(2024, 12, 31, 23, 59, 59)
    );
}

#[test]
fn bytes_follow_the_layout_field_by_field() {
    let book = small_book();
    let bytes = write(&book);
    let n_links: usize = book.positions.iter().map(|p| p.links.len()).sum();
    assert_eq!(bytes.len(), 42 + 3 * 42 + 2 * n_links);
    assert_eq!(&bytes[0..8], b"XADEKOOB"); // two little-endian u32 magic words
    assert_eq!(bytes[8..10], [4, 6]);
    assert_eq!(bytes[10..18], [0xe7, 0x07, 11, 14, 22, 13, 20, 0]); // 2023-11-14 22:13:20
    let i32_at = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!([18, 22, 26, 30, 34].map(i32_at), [10, 50, 2, 1, 0]);
    assert_eq!(i32_at(38), 3);
    let mut at = 42;
    for p in &book.positions {
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let i16_at = |at: usize| i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
        assert_eq!((u64_at(at), u64_at(at + 8)), (p.player, p.opponent));
        assert_eq!(
            [16, 20, 24, 28].map(|o| u32_at(at + o)),
            [p.wins, p.draws, p.losses, p.lines]
        );
        assert_eq!(
            [32, 34, 36].map(|o| i16_at(at + o)),
            [p.value, p.lower, p.upper]
        );
        assert_eq!(bytes[at + 38..at + 40], [p.links.len() as u8, p.level]);
        at += 40;
        for l in p.links.iter().chain([&p.leaf]) {
            assert_eq!(bytes[at..at + 2], [l.score as u8, l.square]);
            at += 2;
        }
    }
    assert_eq!(at, bytes.len());
    // The root's four links, and a missing leaf: score -127, square 65.
    assert_eq!(bytes[80..82], [4, 10]);
    assert_eq!(bytes[90..92], [0x81, 65]);
}

#[test]
fn round_trip() {
    let book = small_book();
    book.check().unwrap();
    let bytes = write(&book);
    let back = read(&bytes).unwrap();
    assert_eq!(back, book);
    assert_eq!(write(&back), bytes);
    let empty = EdaxBook::new(EdaxOptions::default());
    assert_eq!(read(&write(&empty)).unwrap(), empty);
    assert_eq!(write(&empty).len(), 42);
}

#[test]
fn probe_finds_any_orientation() {
    let book = small_book();
    let b = after(after(START, 37), 43); // f5 d6
    let (p, s) = book.probe(b.0, b.1).unwrap();
    assert_eq!(symmetric_square(p.leaf.square, s), 18); // c3 here
    assert_eq!(p.value, 1);
    // The same line turned half a turn: c4 e3, whose leaf is then f6.
    let t = after(after(START, 26), 20);
    let (p, s) = book.probe(t.0, t.1).unwrap();
    assert_eq!(square_name(symmetric_square(p.leaf.square, s)), "f6");
    assert!(book.probe(after(START, 37).1, after(START, 37).0).is_none());
}

#[test]
fn check_finds_what_edax_cannot_use() {
    let book = small_book();
    let broken = |f: &dyn Fn(&mut EdaxBook)| {
        let mut b = book.clone();
        f(&mut b);
        b.check().unwrap_err().to_string()
    };
    let root = book
        .positions
        .iter()
        .position(|p| p.links.len() == 4)
        .unwrap();
    let start_turned = |b: &mut EdaxBook| {
        let p = &mut b.positions[root];
        let turned = (symmetric_bits(p.player, 1), symmetric_bits(p.opponent, 1));
        assert_ne!(turned, (p.player, p.opponent));
        (p.player, p.opponent) = turned;
    };
    assert!(broken(&start_turned).contains("not in Edax's unique orientation"));
    assert!(
        broken(&|b| b.positions[root].links[0].square = 0).contains("link a1 is not a legal move")
    );
    let twice = broken(&|b| b.positions[root].links[1].square = b.positions[root].links[0].square);
    assert!(twice.contains("is there twice"), "{twice}");
    let leaf = broken(&|b| b.positions[root].leaf.square = b.positions[root].links[0].square);
    assert!(
        leaf.contains("is not a legal move outside the links"),
        "{leaf}"
    );
    assert!(broken(&|b| b.positions[root].leaf.square = PASS).contains("leaf pa"));
    assert!(broken(&|b| {
        b.positions.retain(|p| p.links.len() != 1);
    })
    .contains("leads to a position missing from the book"));
    assert!(broken(&|b| {
        let p = b.positions[0].clone();
        b.positions.push(p);
    })
    .contains("twice"));
}

#[test]
fn malformed_input_is_an_error() {
    let bytes = write(&small_book());
    // Every cut is refused, with the part that was cut.
    for len in 0..bytes.len() {
        let err = read(&bytes[..len]);
        match len {
            0 => assert!(err.is_err()),
            _ => assert!(
                matches!(
                    err,
                    Err(EdaxError::Truncated { .. }) | Err(EdaxError::Count { .. })
                ),
                "length {len}: {err:?}"
            ),
        }
    }
    assert_eq!(
        read(&bytes[..100]).unwrap_err().to_string(),
        "Edax book cut short: position 2 is incomplete at byte 100 of 100"
    );
    assert_eq!(
        read(&bytes[..20]).unwrap_err().to_string(),
        "Edax book cut short: the header's options is incomplete at byte 20 of 20"
    );
    // The count must match what follows; a negative one is refused.
    let with_count = |n: i32| {
        let mut b = bytes.clone();
        b[38..42].copy_from_slice(&n.to_le_bytes());
        read(&b).unwrap_err().to_string()
    };
    assert_eq!(
        with_count(4),
        "Edax book header says 4 positions, the file holds 3"
    );
    assert_eq!(
        with_count(1),
        "Edax book header says 1 position, the file holds 3"
    );
    assert_eq!(with_count(-1), "Edax book header gives -1 positions");
    let huge = with_count(i32::MAX);
    assert!(huge.contains("2147483647 positions"), "{huge}");
    // Foreign files and other versions.
    for foreign in [
        &b"(;GM[Othello]PC[x]"[..],
        b"EDAXBOOK",
        b"XADEKOOC",
        b"\x89PNG",
    ] {
        assert_eq!(
            read(foreign).unwrap_err(),
            EdaxError::NotEdax,
            "{foreign:?}"
        );
    }
    assert!(matches!(read(b"XADE"), Err(EdaxError::Truncated { .. })));
    let mut v3 = bytes.clone();
    v3[8] = 3;
    assert_eq!(
        read(&v3).unwrap_err().to_string(),
        "Edax book of version 3.6; only version 4 (Edax 4.x) is read"
    );
    // Trailing bytes are an incomplete position, not ignored.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(read(&longer), Err(EdaxError::Truncated { .. })));
    // Fields out of range.
    let mut both = bytes.clone();
    both[42 + 8..42 + 16].copy_from_slice(&bytes[42..42 + 8]);
    assert_eq!(
        read(&both).unwrap_err().to_string(),
        "Edax book position 1: a square holds discs of both sides"
    );
    let leaf_at = 42 + 40 + 2 * usize::from(bytes[42 + 38]);
    let mut bad_leaf = bytes.clone();
    bad_leaf[leaf_at + 1] = 66;
    assert_eq!(
        read(&bad_leaf).unwrap_err().to_string(),
        "Edax book position 1: leaf on square 66"
    );
    let mut bad_link = bytes.clone();
    bad_link[42 + 41] = 65;
    assert_eq!(
        read(&bad_link).unwrap_err().to_string(),
        "Edax book position 1: link to square 65"
    );
    let mut no_centre = bytes.clone();
    no_centre[42..58].fill(0);
    assert!(read(&no_centre)
        .unwrap_err()
        .to_string()
        .contains("centre is empty"));
}

#[test]
fn arbitrary_bytes_never_panic() {
    let bytes = write(&small_book());
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2000 {
        let mut b = bytes.clone();
        for _ in 0..4 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let at = (state >> 33) as usize % b.len();
            b[at] = (state >> 17) as u8;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        b.truncate(42 + (state >> 40) as usize % (b.len() - 41));
        let _ = read(&b).map(|book| book.check());
    }
}
