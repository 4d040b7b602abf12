use super::data::{self, Board, Sample};
use super::fit::{fit, measure, FitOptions};
use super::generate::{generate, generate_shard, GenOptions};
use crate::rules::{Bits, Setup, Shape, Variant};
use std::path::{Path, PathBuf};

/// A training file read whole.
struct DataFile {
    records: data::Records,
    /// The length of its header (by its version): where the records begin.
    header_len: usize,
    /// Bytes after the last whole record (a write cut short), left out.
    torn: usize,
}

/// Reads a training file as `train fit` does, as many positions as a fit takes. A finished
/// file that holds other than the records its header counts is refused.
fn read_file(path: &Path) -> Result<DataFile, String> {
    let records = data::read_all(&[path], super::fit::max_positions, |_| {})?;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (board, header_len) = Board::from_header(&bytes)?;
    let whole = header_len + records.len() * board.record_len();
    Ok(DataFile {
        records,
        header_len,
        torn: bytes.len().saturating_sub(whole),
    })
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    dir
}

fn options(rows: usize, cols: usize, games: u32, threads: usize) -> GenOptions {
    GenOptions {
        setup: Setup::standard(Shape::new(rows, cols).unwrap(), Variant::default()),
        first: 0,
        games,
        seed: 7,
        random_moves: 2,
        random_rate: 10,
        exact_empties: 8,
        threads,
        search: crate::search::Config::to_depth(2).with_hash_mb(1),
    }
}

fn sorted(path: &std::path::Path) -> Vec<Sample> {
    let mut samples: Vec<Sample> = read_file(path)
        .unwrap()
        .records
        .iter()
        .map(|r| r.to_sample())
        .collect();
    samples.sort_by(|a, b| (a.game, &a.black, &a.white).cmp(&(b.game, &b.black, &b.white)));
    samples
}

/// `bytes` of a training file with the count of its header marking it still being written, as
/// a run stopped midway leaves it.
fn opened(bytes: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    if bytes.len() >= 25 {
        bytes[17..25].copy_from_slice(&u64::MAX.to_le_bytes());
    }
    bytes
}

/// `bytes` of a training file of `board`, cut between two records, with the count of its header
/// set to the records left: a finished file of fewer games.
fn counted(board: Board, bytes: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    let records = (bytes.len() - 25) / board.record_len();
    bytes[17..25].copy_from_slice(&(records as u64).to_le_bytes());
    bytes
}

#[test]
fn games_are_the_same_on_any_threads_and_a_stopped_run_resumes() {
    let (one, two) = (scratch("one"), scratch("two"));
    let report = generate(&options(5, 6, 12, 1), &one, false).unwrap();
    assert_eq!((report.games, report.skipped), (12, 0));
    // Half the games, then the rest on two threads.
    generate(&options(5, 6, 6, 1), &two, false).unwrap();
    let report = generate(&options(5, 6, 12, 2), &two, false).unwrap();
    assert_eq!((report.games, report.skipped), (6, 6));
    assert_eq!(sorted(&one), sorted(&two));
    // A finished file counts its records: one cut short, even between two records, is refused
    // by the reader and by a run that would add to it, and left as it is.
    let whole = std::fs::read(&one).unwrap();
    let record = read_file(&one).unwrap().records.board().record_len();
    for cut in [5, record] {
        let short = &whole[..whole.len() - cut];
        std::fs::write(&one, short).unwrap();
        let e = read_file(&one).err().unwrap();
        assert!(e.contains("cut short or damaged"), "{e}");
        let e = generate(&options(5, 6, 12, 1), &one, false).unwrap_err();
        assert!(e.contains("cut short or damaged"), "{e}");
        assert_eq!(std::fs::read(&one).unwrap(), short);
    }
    // A torn last record of a run stopped midway is dropped when the file is taken up again,
    // and the count set once the run is done.
    std::fs::write(&one, opened(&whole[..whole.len() - 5])).unwrap();
    let torn = read_file(&one).unwrap();
    assert_eq!(torn.torn, record - 5);
    let report = generate(&options(5, 6, 12, 1), &one, false).unwrap();
    // The torn game's other records remain, so the game counts as present.
    assert_eq!(report.games, 0);
    let file = read_file(&one).unwrap();
    assert_eq!((file.torn, file.header_len), (0, 25));
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(bytes, counted(file.records.board(), &bytes));
    for path in [one, two] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn labels_are_exact_near_the_end_and_from_the_movers_side() {
    let path = scratch("labels");
    generate(&options(4, 5, 6, 1), &path, false).unwrap();
    let file = read_file(&path).unwrap();
    let board = file.records.board();
    assert_eq!(
        board,
        Board {
            shape: Shape::new(4, 5).unwrap(),
            variant: Variant::default()
        }
    );
    crate::with_bits!(board.shape, |B| {
        let rules = crate::rules::Rules::<B>::new(board.shape, board.variant).unwrap();
        let mut engine =
            crate::search::Engine::new(rules.clone(), crate::search::Config::default());
        for s in file.records.iter().map(|r| r.to_sample()) {
            let pos = s.position::<B>();
            let empties = rules.empty(&pos).count();
            assert_eq!(s.exact, empties <= 8, "{s:?}");
            if s.exact {
                assert_eq!(engine.solve_exact(&pos, false).score, s.label as i32);
            }
        }
    });
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_fit_beats_knowing_nothing_on_held_out_games() {
    let path = scratch("fit");
    let mut o = options(4, 4, 300, 2);
    o.exact_empties = 12;
    o.random_moves = 3;
    generate(&o, &path, false).unwrap();
    let file = read_file(&path).unwrap();
    let fit_options = FitOptions {
        phases: 3,
        epochs: 40,
        held_out: 5,
        regularize: 1.0,
        threads: 2,
    };
    let (weights, reports) = fit(&file.records, &fit_options).unwrap();
    // The weights file reads back.
    let back = crate::search::weights::Weights::from_bytes(&weights.to_bytes()).unwrap();
    assert_eq!(back, weights);
    // Better than always guessing zero on the exactly labelled held-out positions.
    let mut guess_zero = 0.0;
    let mut count = 0;
    for r in file
        .records
        .iter()
        .filter(|r| r.game() % 5 == 0 && r.exact())
    {
        guess_zero += (r.label() as f64).abs();
        count += 1;
    }
    let error: f64 = reports
        .iter()
        .map(|r| r.exact_error * r.exact as f64)
        .sum::<f64>()
        / count as f64;
    assert!(
        count > 0 && error < guess_zero / count as f64,
        "{reports:?}"
    );
    // `train test` measures the same, and with 1 every position.
    assert_eq!(measure(&file.records, &weights, 5).unwrap(), reports);
    let all = measure(&file.records, &weights, 1).unwrap();
    let tested: usize = all.iter().map(|r| r.test).sum();
    assert_eq!(
        (tested, all.iter().map(|r| r.train).sum()),
        (file.records.len(), 0)
    );
    // Weights made for another board are refused.
    let other = crate::search::weights::Weights::zero(4, 5, Variant::default(), 3);
    assert!(measure(&file.records, &other, 5).is_err());
    std::fs::remove_file(path).unwrap();
}

/// A record given as the bytes of its two sides and the rest of it (side to move, label,
/// exactness); its game is its place in the file.
type RawRecord = (Vec<u8>, Vec<u8>, [u8; 4]);

/// A training file of `board` with these records.
fn file_of(name: &str, board: Board, records: &[RawRecord]) -> PathBuf {
    let path = scratch(name);
    let mut bytes = board.header();
    for (game, (black, white, rest)) in records.iter().enumerate() {
        bytes.extend_from_slice(&(game as u32).to_le_bytes());
        bytes.extend_from_slice(black);
        bytes.extend_from_slice(white);
        bytes.extend_from_slice(rest);
    }
    std::fs::write(&path, bytes).unwrap();
    path
}

fn board(rows: usize, cols: usize) -> Board {
    Board {
        shape: Shape::new(rows, cols).unwrap(),
        variant: Variant::default(),
    }
}

#[test]
fn records_that_hold_no_position_are_refused_naming_them() {
    // 6x6: 36 cells in 5 bytes a side, the last byte's top four bits off the board.
    let six = board(6, 6);
    let start = (vec![0, 0x10, 0, 0, 0], vec![0, 0x08, 0, 0, 0]);
    let good = (start.0.clone(), start.1.clone(), [0, 4, 0, 1]);
    let cases: [(RawRecord, &str); 6] = [
        (
            (vec![0, 0x18, 0, 0, 0], start.1.clone(), [0, 0, 0, 1]),
            "record 2: both colours on cell 11",
        ),
        (
            (start.0.clone(), vec![0, 0, 0, 0, 0x10], [0, 0, 0, 1]),
            "record 2: a disc off the board (past its 36 cells)",
        ),
        (
            (start.0.clone(), start.1.clone(), [2, 0, 0, 1]),
            "record 2: side to move 2 (0 Black, 1 White)",
        ),
        (
            (start.0.clone(), start.1.clone(), [0, 0, 0, 7]),
            "record 2: exactness flag 7 (0 or 1)",
        ),
        (
            (start.0.clone(), start.1.clone(), [0, 37, 0, 1]),
            "record 2: label 37, more discs than the board's 36 cells",
        ),
        (
            (start.0.clone(), start.1.clone(), [1, 0xDB, 0xFF, 0]),
            "record 2: label -37, more discs than the board's 36 cells",
        ),
    ];
    for (bad, why) in cases {
        let path = file_of("bad-record", six, &[good.clone(), bad]);
        let e = read_file(&path).err();
        // Adding games to such a file is refused as well, and the file is left as it was.
        let before = std::fs::read(&path).unwrap();
        let append = data::open_for_append(&path, six, 0..10).err();
        assert_eq!(std::fs::read(&path).unwrap(), before);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(e, Some(format!("{}: {why}", path.display())));
        assert_eq!(append, Some(format!("{}: {why}", path.display())));
    }
    let path = file_of("good-record", six, std::slice::from_ref(&good));
    assert_eq!(read_file(&path).unwrap().records.len(), 1);
    // A rules byte other than 0 or 1 is no training file's.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[15] = 2;
    std::fs::write(&path, bytes).unwrap();
    let e = read_file(&path).err().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(e.ends_with("not a training file (a rules byte of 2, where 0 or 1 belongs)"));
}

#[test]
fn a_fit_takes_no_more_positions_than_its_cap() {
    assert_eq!(super::fit::max_positions(board(8, 8)), 33_554_432);
    let four = board(4, 4);
    let record = (vec![0x40, 0x02], vec![0x20, 0x04], [0, 0, 0, 1]);
    let path = file_of("capped", four, &vec![record; 5]);
    let read = |cap: usize, path: &std::path::Path| {
        data::read_all(&[path], |_| cap, |_| {}).map(|r| r.len())
    };
    assert_eq!(read(5, &path), Ok(5));
    // Refused from the file's length, before a record is read.
    let e = read(4, &path).unwrap_err();
    assert!(e.contains("the files given hold 5 positions; a fit or a test takes at most 4 on 4x4"));
    // A pipe has no length: refused once past the cap.
    let fifo = scratch("capped-fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let bytes = std::fs::read(&path).unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            // The reader stops early, so the write may fail on a closed pipe.
            let _ = std::fs::File::create(&fifo).and_then(|mut f| f.write_all(&bytes));
        })
    };
    let e = read(4, &fifo).unwrap_err();
    writer.join().unwrap();
    for p in [path, fifo] {
        std::fs::remove_file(p).unwrap();
    }
    assert!(
        e.contains("too many positions; a fit or a test takes at most 4"),
        "{e}"
    );
}

#[test]
fn a_fit_refuses_phases_no_weights_file_holds() {
    let four = board(4, 4);
    let record = (vec![0x40, 0x02], vec![0x20, 0x04], [0, 0, 0, 1]);
    let path = file_of("phases", four, &[record]);
    let records = read_file(&path).unwrap().records;
    std::fs::remove_file(&path).unwrap();
    for phases in [0, 65] {
        let o = FitOptions {
            phases,
            epochs: 1,
            held_out: 0,
            regularize: 1.0,
            threads: 1,
        };
        let e = fit(&records, &o).unwrap_err();
        assert_eq!(e, format!("{phases} phases: a weights file holds 1 to 64"));
    }
}

#[test]
fn only_a_training_file_or_none_is_added_to() {
    let four = board(4, 4);
    // Another file, and a training file of another board, are refused and left whole.
    let other = scratch("not-training");
    std::fs::write(&other, "my notes, kept as they are\n").unwrap();
    let e = data::open_for_append(&other, four, 0..10).unwrap_err();
    assert!(
        e.ends_with("not a training file (no OTHELLOD header)"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "my notes, kept as they are\n"
    );
    let five = file_of("five", board(5, 5), &[]);
    let e = data::open_for_append(&five, four, 0..10).unwrap_err();
    assert!(
        e.ends_with("holds positions of another board or rule set"),
        "{e}"
    );
    assert_eq!(std::fs::read(&five).unwrap(), board(5, 5).header());
    // An empty file is taken as a new one.
    std::fs::write(&other, "").unwrap();
    drop(data::open_for_append(&other, four, 0..10).unwrap());
    assert_eq!(std::fs::read(&other).unwrap(), four.header());
    // Only the games asked for are counted as there.
    let record = (vec![0x40, 0x02], vec![0x20, 0x04], [0, 0, 0, 1]);
    let three = file_of("three-games", four, &vec![record; 3]);
    let (_, done, _) = data::open_for_append(&three, four, 0..2).unwrap();
    assert_eq!(done, [0, 1]);
    for p in [other, five, three] {
        std::fs::remove_file(p).unwrap();
    }
}

/// The samples of training files read together, in the order a fit reads them.
fn read_together(paths: &[&PathBuf]) -> Result<Vec<Sample>, String> {
    let records = data::read_all(paths, |_| 1 << 20, |_| {})?;
    Ok(records.iter().map(|r| r.to_sample()).collect())
}

/// Shard `index` of `size` games of the games of `options`.
fn shard_of(options: &GenOptions, index: u32, size: u32) -> GenOptions {
    GenOptions {
        first: index * size,
        games: size,
        ..options.clone()
    }
}

#[test]
fn shards_in_any_order_read_and_fit_as_the_one_run() {
    let base = options(4, 5, 16, 2);
    let one = scratch("shards-one");
    generate(&base, &one, false).unwrap();
    let shards: Vec<PathBuf> = (0..4).map(|i| scratch(&format!("shard-{i}"))).collect();
    for (i, path) in shards.iter().enumerate() {
        let report = generate_shard(&shard_of(&base, i as u32, 4), path, false).unwrap();
        assert_eq!((report.games, report.skipped), (4, 0));
        assert!(!data::partial_path(path).unwrap().exists());
    }
    // A shard is the same bytes on any number of threads: its games are written in order.
    let single = scratch("shard-single");
    generate_shard(&shard_of(&options(4, 5, 16, 1), 1, 4), &single, false).unwrap();
    assert_eq!(
        std::fs::read(&single).unwrap(),
        std::fs::read(&shards[1]).unwrap()
    );
    std::fs::remove_file(&single).unwrap();
    let whole = read_together(&[&one]).unwrap();
    let shuffled = read_together(&[&shards[2], &shards[0], &shards[3], &shards[1]]).unwrap();
    assert_eq!(shuffled, whole);
    assert!(whole.windows(2).all(|w| w[0].game <= w[1].game));
    assert_eq!(whole.last().map(|s| s.game), Some(15));
    // The same weights, to the bit.
    let o = FitOptions {
        phases: 3,
        epochs: 10,
        held_out: 3,
        regularize: 1.0,
        threads: 2,
    };
    let records = |paths: &[&PathBuf]| data::read_all(paths, |_| 1 << 20, |_| {}).unwrap();
    let (a, _) = fit(&records(&[&one]), &o).unwrap();
    let (b, _) = fit(
        &records(&[&shards[3], &shards[1], &shards[0], &shards[2]]),
        &o,
    )
    .unwrap();
    assert_eq!(a.to_bytes(), b.to_bytes());
    // A game given twice is refused, naming both files.
    let e = read_together(&[&shards[1], &one]).unwrap_err();
    assert_eq!(
        e,
        format!(
            "game 4 is in both {} and {}: each game may be given once (shards of one run do \
             not overlap)",
            shards[1].display(),
            one.display()
        )
    );
    for p in shards.iter().chain([&one]) {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn a_stopped_shard_goes_on_from_its_partial_file_and_never_damages_its_own() {
    let base = options(4, 5, 16, 1);
    let shard = shard_of(&base, 1, 4);
    let reference = scratch("partial-reference");
    generate_shard(&shard, &reference, false).unwrap();
    let finished = std::fs::read(&reference).unwrap();
    let record = board(4, 5).record_len();
    let header = board(4, 5).header().len();
    // Where the second game's records begin.
    let second = header
        + record
            * read_file(&reference)
                .unwrap()
                .records
                .iter()
                .take_while(|r| r.game() == 4)
                .count();
    let out = scratch("partial-out");
    let partial = data::partial_path(&out).unwrap();
    // Stopped in the header, inside a record, and between two records of one game (whose
    // other records must be played again, not taken as the whole game).
    for cut in [5, finished.len() - 3, second + record] {
        let _ = std::fs::remove_file(&out);
        std::fs::write(&partial, opened(&finished[..cut])).unwrap();
        let report = generate_shard(&shard, &out, false).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), finished, "cut at {cut}");
        assert!(report.games >= 1, "cut at {cut}: {report:?}");
        assert!(!partial.exists());
    }
    // Run again, a finished shard is left as it is, the very file.
    let inode = |p: &PathBuf| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let before = inode(&out);
    let report = generate_shard(&shard, &out, false).unwrap();
    assert_eq!((report.games, report.skipped), (0, 4));
    assert_eq!(
        (inode(&out), std::fs::read(&out).unwrap()),
        (before, finished.clone())
    );
    assert!(!partial.exists());
    // A file of the first of these games (a smaller shard) has the others added.
    let smaller = counted(board(4, 5), &finished[..second]);
    std::fs::write(&out, &smaller).unwrap();
    let report = generate_shard(&shard, &out, false).unwrap();
    assert_eq!((report.games, report.skipped), (3, 1));
    assert_eq!(std::fs::read(&out).unwrap(), finished);
    // While a run writes the partial file (it holds a lock on it), another is refused.
    std::fs::write(&out, &smaller).unwrap();
    std::fs::write(&partial, opened(&finished[..second])).unwrap();
    let held = std::fs::File::open(&partial).unwrap();
    held.lock().unwrap();
    let e = generate_shard(&shard, &out, false).unwrap_err();
    assert_eq!(
        e,
        format!("{}: another run is writing this shard", partial.display())
    );
    drop(held);
    // A partial file of other games is refused and left for the user to remove.
    let other = scratch("partial-other");
    generate_shard(&shard_of(&base, 2, 4), &other, false).unwrap();
    std::fs::rename(&other, &partial).unwrap();
    let e = generate_shard(&shard, &out, false).unwrap_err();
    assert!(
        e.starts_with(&format!(
            "{} holds game 8, not one of this shard's games 4 to 7",
            partial.display()
        )),
        "{e}"
    );
    assert!(e.ends_with("(remove it to start this shard again)"), "{e}");
    assert_eq!(std::fs::read(&out).unwrap(), smaller);
    for p in [reference, out, partial] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn a_shard_is_written_only_over_a_shard_of_its_games() {
    let base = options(4, 5, 16, 1);
    let shard = shard_of(&base, 0, 4);
    let out = scratch("foreign-out");
    let partial = data::partial_path(&out).unwrap();
    // Another shard's file, another board's, a torn one, and no training file at all.
    generate_shard(&shard_of(&base, 3, 4), &out, false).unwrap();
    let other_shard = std::fs::read(&out).unwrap();
    let e = generate_shard(&shard, &out, false).unwrap_err();
    assert_eq!(
        e,
        format!(
            "{} holds game 12, not one of this shard's games 0 to 3, so it is not replaced",
            out.display()
        )
    );
    let own = scratch("foreign-own");
    generate_shard(&shard, &own, false).unwrap();
    let own_bytes = std::fs::read(&own).unwrap();
    let torn = &own_bytes[..own_bytes.len() - 1];
    // Cut between two records: only the count in its header tells.
    let record = board(4, 5).record_len();
    let halved = &own_bytes[..25 + (own_bytes.len() - 25) / record / 2 * record];
    let unfinished = opened(&own_bytes);
    std::fs::remove_file(&own).unwrap();
    let mut old = b"OTHELLOD\x01\x00\x00\x00\x04\x05\x00\x00\x00".to_vec();
    old.extend_from_slice(&own_bytes[25..]);
    let cases: [(&[u8], &str); 7] = [
        (&other_shard, "not one of this shard's games"),
        (
            &board(6, 6).header(),
            "holds positions of another board or rule set",
        ),
        (torn, "cut short or damaged"),
        (halved, "cut short or damaged"),
        (
            &unfinished,
            "still being written, so it is no finished shard",
        ),
        (
            &old,
            "a version 1 training file, which train gen does not add to",
        ),
        (b"my notes\n", "not a training file"),
    ];
    for (bytes, why) in cases {
        std::fs::write(&out, bytes).unwrap();
        let e = generate_shard(&shard, &out, false).unwrap_err();
        assert!(e.contains(why), "{e}");
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
        assert!(!partial.exists());
    }
    // An empty file is no shard yet: it is made one.
    std::fs::write(&out, b"").unwrap();
    let report = generate_shard(&shard, &out, false).unwrap();
    assert_eq!(report.games, 4);
    assert_eq!(read_file(&out).unwrap().records.get(0).game(), 0);
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn the_phase_table_is_markdown_with_two_decimals() {
    use super::fit::{write_reports, PhaseReport};
    let report = PhaseReport {
        phase: 3,
        empties: (12, 15),
        train: 900,
        test: 100,
        test_error: 4.256,
        exact: 40,
        exact_error: 3.5,
        classic_error: 7.0,
    };
    let mut out = Vec::new();
    write_reports(&mut out, &[report]).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("| phase | empties | train | test |"));
    assert_eq!(
        lines[2],
        "| 3 | 12-15 | 900 | 100 | 4.26 | 40 | 3.50 | 7.00 |"
    );
}
