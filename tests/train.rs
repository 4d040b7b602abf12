//! `othello train gen`, `fit` and `test` from the command line, and `--weights` refusing a bad
//! file.

use assert_cmd::Command;
use std::fs;

fn othello() -> Command {
    Command::cargo_bin("othello").unwrap()
}

#[test]
fn gen_fit_and_play_with_the_weights() {
    let dir = std::env::temp_dir().join(format!("othello-train-cli-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let data = dir.join("6x6.dat");
    let weights = dir.join("6x6.weights");
    let gen = othello()
        .args([
            "train", "gen", "--rows", "6", "--cols", "6", "--games", "40",
        ])
        .args([
            "--depth",
            "2",
            "--exact-empties",
            "10",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&data)
        .output()
        .unwrap();
    assert!(gen.status.success(), "{gen:?}");
    assert!(String::from_utf8_lossy(&gen.stdout).starts_with("40 games added (0 already there)"));
    let fit = othello()
        .args(["train", "fit", "--phases", "4", "--epochs", "20", "--out"])
        .arg(&weights)
        .arg(&data)
        .output()
        .unwrap();
    assert!(fit.status.success(), "{fit:?}");
    let table = String::from_utf8_lossy(&fit.stdout);
    assert!(table.starts_with("| phase | empties |"), "{table}");
    // `train test` measures the same weights on the same held-out games to the same table.
    let test = othello()
        .arg("--weights")
        .arg(&weights)
        .args(["train", "test"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(test.status.success(), "{test:?}");
    let fit_rows: Vec<&str> = table.lines().filter(|l| l.starts_with('|')).collect();
    let test_table = String::from_utf8_lossy(&test.stdout);
    assert_eq!(test_table.lines().collect::<Vec<_>>(), fit_rows);
    // With no learned weights for the board there is nothing to measure.
    let none = othello()
        .args(["--eval", "classic", "train", "test"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(2), "{none:?}");
    assert!(String::from_utf8_lossy(&none.stderr).contains("no learned weights for 6x6"));
    // The engine plays 6x6 with them; the classic evaluation stays selectable.
    let game = othello()
        .arg("--weights")
        .arg(&weights)
        .args(["selfplay", "--rows", "6", "--cols", "6", "--games", "2"])
        .args(["--a", "depth=2", "--b", "depth=2,eval=classic"])
        .output()
        .unwrap();
    assert!(game.status.success(), "{game:?}");
    // A bad file is an error (exit status 2), never a silent fallback.
    let refused = |why: &str| {
        let bad = othello()
            .arg("--weights")
            .arg(&weights)
            .args(["perft", "--depth", "1"])
            .output()
            .unwrap();
        assert_eq!(bad.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&bad.stderr);
        assert!(stderr.contains(why), "{stderr}");
    };
    let mut bytes = fs::read(&weights).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    fs::write(&weights, bytes).unwrap();
    refused("corrupt (checksum mismatch)");
    // An endless or huge file is refused once past the cap, not read to its end.
    fs::File::create(&weights)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    refused("too large for a weights file");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_default_evaluation_on_8x8_is_the_built_in_learned_one() {
    let games = |args: &[&str]| {
        let out = othello()
            .args([
                "selfplay", "--games", "4", "--a", "depth=3", "--b", "depth=3",
            ])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        games_of(&out.stdout)
    };
    let learned = games(&[]);
    let classic = games(&["--eval", "classic"]);
    assert_ne!(learned, classic);
    // Player specs choose per player within one run; the classic one matches --eval classic.
    let by_spec = othello()
        .args(["selfplay", "--games", "4"])
        .args(["--a", "depth=3,eval=classic", "--b", "depth=3,eval=classic"])
        .output()
        .unwrap();
    assert_eq!(games_of(&by_spec.stdout), classic);
    // --weights and --eval classic contradict each other.
    let both = othello()
        .args([
            "--eval",
            "classic",
            "--weights",
            "w",
            "perft",
            "--depth",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
}

/// The game lines of a selfplay report (not its header or timings).
fn games_of(stdout: &[u8]) -> String {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A scratch folder of its own for each test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-train-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The header of an 8x8 training file under the full rules.
const HEADER_8X8: &[u8] = b"OTHELLOD\x01\x00\x00\x00\x08\x08\x00\x00\x00";

/// `othello ARGS` with its address space cut to about 1 GB, so that a run that tries to take
/// more aborts rather than squeezes the machine.
fn othello_in_1gb(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("othello");
    std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" \"$@\"")
        .arg(bin)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_record_that_holds_no_position_is_an_error_not_a_panic() {
    let dir = scratch("bad-record");
    // One 8x8 record, game 0, with both colours on every cell.
    let data = dir.join("r1.dat");
    let mut bytes = HEADER_8X8.to_vec();
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(&[0xFF; 16]);
    bytes.extend_from_slice(&[0, 0, 0, 1]);
    fs::write(&data, bytes).unwrap();
    let fit = othello()
        .args(["train", "fit", "--held-out", "0", "--out"])
        .arg(dir.join("r1.w"))
        .arg(&data)
        .output()
        .unwrap();
    let test = othello()
        .args(["train", "test", "--held-out", "1"])
        .arg(&data)
        .output()
        .unwrap();
    for out in [fit, test] {
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr,
            format!(
                "othello: {}: record 1: both colours on cell 0\n",
                data.display()
            )
        );
    }
    assert!(!dir.join("r1.w").exists());
    // On 6x6 (5 bytes a side) the built-in weights measured such a record past their tables.
    let mut bytes = b"OTHELLOD\x01\x00\x00\x00\x06\x06\x00\x00\x00".to_vec();
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(&[0x0F; 10]);
    bytes.extend_from_slice(&[0, 0, 0, 1]);
    fs::write(&data, bytes).unwrap();
    let test = othello()
        .args(["train", "test", "--held-out", "1"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(test.status.code(), Some(2), "{test:?}");
    assert_eq!(
        String::from_utf8_lossy(&test.stderr),
        format!(
            "othello: {}: record 1: both colours on cell 0\n",
            data.display()
        )
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_weights_header_is_checked_against_the_file_before_memory_is_taken() {
    let dir = scratch("weights-header");
    // 8x8 with 11 patterns, claiming 65,535 phases (about 22 GB of tables) in 29 bytes.
    let mut bytes = b"OTHELLOW\x01\x00\x00\x00\x08\x08\x00\x00\x00\xff\xff\x0b\x00".to_vec();
    let sum = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    bytes.extend_from_slice(&sum.to_le_bytes());
    let path = dir.join("many.weights");
    fs::write(&path, bytes).unwrap();
    let out = othello_in_1gb(&[
        "--weights".as_ref(),
        path.as_ref(),
        "perft".as_ref(),
        "--depth".as_ref(),
        "1".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the weights file has 65535 phases; this program reads 1 to 64"),
        "{stderr}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fit_is_refused_more_positions_than_its_cap_before_reading_them() {
    let dir = scratch("sparse");
    // A sparse file of 4 GiB: 178,956,969 positions of zeros, more than a fit takes on 8x8.
    let data = dir.join("huge.dat");
    let file = fs::File::create(&data).unwrap();
    std::io::Write::write_all(&mut &file, HEADER_8X8).unwrap();
    file.set_len(4 << 30).unwrap();
    let w = dir.join("huge.weights");
    let out = othello_in_1gb(&[
        "train".as_ref(),
        "fit".as_ref(),
        data.as_ref(),
        "--out".as_ref(),
        w.as_ref(),
    ]);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the files given hold 178956969 positions; a fit or a test takes at most 33554432 on 8x8"),
        "{stderr}"
    );
}

/// A small 4x4 training file in `dir`.
fn small_data(dir: &std::path::Path) -> std::path::PathBuf {
    let data = dir.join("4x4.dat");
    let gen = othello()
        .args(["train", "gen", "--rows", "4", "--cols", "4", "--games", "6"])
        .args(["--depth", "1", "--threads", "1", "--out"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(gen.status.success(), "{gen:?}");
    data
}

#[test]
fn a_fit_never_writes_over_its_inputs_or_a_file_it_does_not_know() {
    let dir = scratch("fit-out");
    let data = small_data(&dir);
    let kept = fs::read(&data).unwrap();
    let fit = |before: &[&str], out: &std::path::Path| {
        othello()
            .args(before)
            .args(["train", "fit", "--phases", "2", "--epochs", "2", "--out"])
            .arg(out)
            .arg(&data)
            .output()
            .unwrap()
    };
    let refused = |out: std::process::Output, why: &str| {
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(why), "{stderr}");
    };
    // The data itself, also by another spelling.
    refused(fit(&[], &data), "is also an input");
    refused(fit(&[], &dir.join(".").join("4x4.dat")), "is also an input");
    assert_eq!(fs::read(&data).unwrap(), kept);
    // A file that is no weights file.
    let notes = dir.join("notes.txt");
    fs::write(&notes, "my notes\n").unwrap();
    refused(
        fit(&[], &notes),
        "not a weights file, so it is not replaced",
    );
    assert_eq!(fs::read_to_string(&notes).unwrap(), "my notes\n");
    // Weights are written, and may be written again; not over the --weights in use.
    let weights = dir.join("4x4.weights");
    assert!(fit(&[], &weights).status.success());
    let first = fs::read(&weights).unwrap();
    assert!(fit(&[], &weights).status.success());
    let w = weights.to_str().unwrap();
    refused(fit(&["--weights", w], &weights), "is also an input");
    assert_eq!(fs::read(&weights).unwrap(), first);
    // A link is replaced by the new file, never written through.
    let link = dir.join("link.weights");
    std::os::unix::fs::symlink(&weights, &link).unwrap();
    fs::write(&weights, b"OTHELLOW, damaged").unwrap();
    assert!(fit(&[], &link).status.success());
    assert_eq!(fs::read(&weights).unwrap(), b"OTHELLOW, damaged");
    assert_eq!(fs::read(&link).unwrap(), first);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gen_adds_only_to_a_training_file() {
    let dir = scratch("gen-out");
    let gen = |out: &std::path::Path| {
        othello()
            .args(["train", "gen", "--rows", "4", "--cols", "4", "--games", "2"])
            .args(["--depth", "1", "--threads", "1", "--out"])
            .arg(out)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap()
    };
    let notes = dir.join("notes.txt");
    fs::write(&notes, "my notes, kept as they are\n").unwrap();
    let out = gen(&notes);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a training file"));
    assert_eq!(
        fs::read_to_string(&notes).unwrap(),
        "my notes, kept as they are\n"
    );
    // A pipe is not opened (which would wait for a writer for ever).
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let out = gen(&fifo);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    fs::remove_dir_all(&dir).unwrap();
}
