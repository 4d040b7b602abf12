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
