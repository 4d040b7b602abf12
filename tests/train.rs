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

/// `othello train gen` of 4x4 games, quick to play, with `args` after them; no job array
/// variable is passed on unless `env` sets it.
fn gen_4x4(args: &[&str], out: &std::path::Path, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = othello();
    cmd.args(["train", "gen", "--rows", "4", "--cols", "4", "--depth", "1"])
        .args([
            "--random-moves",
            "2",
            "--exact-empties",
            "8",
            "--threads",
            "2",
        ])
        .args(args)
        .arg("--out")
        .arg(out)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .envs(env.iter().copied())
        .timeout(std::time::Duration::from_secs(60));
    cmd.output().unwrap()
}

/// The records of 4x4 training files (12 bytes each past the header), ordered by game, each
/// game's in the order of its file.
fn records_4x4(paths: &[&std::path::Path]) -> Vec<Vec<u8>> {
    let mut records: Vec<Vec<u8>> = paths
        .iter()
        .flat_map(|p| {
            let bytes = fs::read(p).unwrap();
            assert_eq!(
                &bytes[..17],
                b"OTHELLOD\x02\x00\x00\x00\x04\x04\x00\x00\x00"
            );
            // The header counts the records: the file is finished.
            let count = u64::from_le_bytes(bytes[17..25].try_into().unwrap());
            assert_eq!((bytes.len() as u64 - 25), 12 * count);
            bytes[25..]
                .chunks(12)
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
        })
        .collect();
    records.sort_by_key(|r| u32::from_le_bytes([r[0], r[1], r[2], r[3]]));
    records
}

#[test]
fn shards_of_a_run_hold_its_games_and_fit_its_weights() {
    let dir = scratch("shards");
    let one = dir.join("one.dat");
    let out = gen_4x4(&["--games", "16"], &one, &[]);
    assert!(out.status.success(), "{out:?}");
    let shards: Vec<_> = (0..4).map(|i| dir.join(format!("shard{i}.dat"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let i = i.to_string();
        let out = gen_4x4(&["--shard", &i, "--shard-size", "4"], shard, &[]);
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with("4 games added (0 already there)"),
            "{stdout}"
        );
        let first = 4 * i.parse::<u32>().unwrap();
        assert!(
            stdout.contains(&format!("shard {i}: games {first} to {}", first + 3)),
            "{stdout}"
        );
    }
    let paths: Vec<&std::path::Path> = shards.iter().map(|p| p.as_path()).collect();
    assert_eq!(records_4x4(&paths), records_4x4(&[&one]));
    // Fitted in another order, the shards give the one run's weights, byte for byte.
    let fit = |data: &[&std::path::Path], out: &std::path::Path| {
        let fit = othello()
            .args([
                "train",
                "fit",
                "--phases",
                "3",
                "--epochs",
                "10",
                "--held-out",
                "3",
            ])
            .arg("--out")
            .arg(out)
            .args(data)
            .output()
            .unwrap();
        assert!(fit.status.success(), "{fit:?}");
        fit.stdout
    };
    let (a, b) = (dir.join("one.weights"), dir.join("shards.weights"));
    let table = fit(&[&one], &a);
    let shuffled = [paths[2], paths[0], paths[3], paths[1]];
    let shard_table = fit(&shuffled, &b);
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    let rows = |t: &[u8]| {
        String::from_utf8_lossy(t)
            .lines()
            .filter(|l| l.starts_with('|'))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&table), rows(&shard_table));
    // `train test` too measures the shards as the one run.
    let test = |data: &[&std::path::Path]| {
        let out = othello()
            .arg("--weights")
            .arg(&a)
            .args(["train", "test", "--held-out", "3"])
            .args(data)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        out.stdout
    };
    assert_eq!(test(&shuffled), test(&[&one]));
    // A finished shard run again is left as it is, the very file.
    let inode =
        |p: &std::path::Path| std::os::unix::fs::MetadataExt::ino(&fs::metadata(p).unwrap());
    let (kept, before) = (fs::read(&shards[1]).unwrap(), inode(&shards[1]));
    let again = gen_4x4(&["--shard", "1", "--shard-size", "4"], &shards[1], &[]);
    assert!(again.status.success(), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stdout).starts_with("0 games added (4 already there)"));
    assert_eq!(
        (fs::read(&shards[1]).unwrap(), inode(&shards[1])),
        (kept, before)
    );
    // A game given twice, in a shard and the run, is refused naming both files.
    let twice = othello()
        .args(["train", "fit", "--out"])
        .arg(dir.join("twice.weights"))
        .arg(&shards[1])
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(2), "{twice:?}");
    assert_eq!(
        String::from_utf8_lossy(&twice.stderr),
        format!(
            "othello: game 4 is in both {} and {}: each game may be given once (shards of one \
             run do not overlap)\n",
            shards[1].display(),
            one.display()
        )
    );
    assert!(!dir.join("twice.weights").exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_index_comes_from_the_job_array() {
    let dir = scratch("shard-index");
    let made = |name: &str, args: &[&str], env: &[(&str, &str)]| {
        let path = dir.join(name);
        let out = gen_4x4(args, &path, env);
        assert!(out.status.success(), "{name}: {out:?}");
        fs::read(path).unwrap()
    };
    let size = ["--shard-size", "4"];
    let two = made("given.dat", &["--shard", "2", "--shard-size", "4"], &[]);
    let one = made("given1.dat", &["--shard", "1", "--shard-size", "4"], &[]);
    assert_ne!(one, two);
    assert_eq!(
        made("slurm.dat", &size, &[("SLURM_ARRAY_TASK_ID", "2")]),
        two
    );
    assert_eq!(
        made("k8s.dat", &size, &[("JOB_COMPLETION_INDEX", "2")]),
        two
    );
    // Slurm's is asked first; --shard wins over both.
    let both = [("SLURM_ARRAY_TASK_ID", "1"), ("JOB_COMPLETION_INDEX", "2")];
    assert_eq!(made("both.dat", &size, &both), one);
    let given = ["--shard", "2", "--shard-size", "4"];
    assert_eq!(
        made("over.dat", &given, &[("SLURM_ARRAY_TASK_ID", "1")]),
        two
    );
    // No index anywhere, or one that is no number: a usage error, and no file.
    let refused = |env: &[(&str, &str)], why: &str| {
        let path = dir.join("refused.dat");
        let out = gen_4x4(&size, &path, env);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("othello: {why}\n")
        );
        assert!(!path.exists());
        assert!(!dir.join(".refused.dat.partial").exists());
    };
    refused(
        &[],
        "--shard-size needs the shard's index: give --shard I, or run it as a job array \
         (which sets SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)",
    );
    refused(
        &[("SLURM_ARRAY_TASK_ID", "x"), ("JOB_COMPLETION_INDEX", "2")],
        "SLURM_ARRAY_TASK_ID=x: a shard index is a number from 0",
    );
    assert_eq!(
        made("spaced.dat", &size, &[("JOB_COMPLETION_INDEX", " 2\n")]),
        two
    );
    refused(
        &[("SLURM_ARRAY_TASK_ID", ""), ("JOB_COMPLETION_INDEX", "2")],
        "SLURM_ARRAY_TASK_ID=: a shard index is a number from 0",
    );
    refused(
        &[("JOB_COMPLETION_INDEX", "-1")],
        "JOB_COMPLETION_INDEX=-1: a shard index is a number from 0",
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// `train fit` and `train test` refuse a finished shard cut short, by a few bytes or between two
/// records (only the count in its header tells then), naming it; a file that a stopped run left
/// unfinished is read as far as it goes, with a warning naming it.
#[test]
fn fit_and_test_refuse_a_cut_shard_and_warn_of_an_unfinished_file() {
    let dir = scratch("cut-shard");
    let shard = dir.join("shard.dat");
    let made = gen_4x4(&["--shard", "0", "--shard-size", "8"], &shard, &[]);
    assert!(made.status.success(), "{made:?}");
    let whole = fs::read(&shard).unwrap();
    let records = (whole.len() - 25) / 12;
    let weights = dir.join("w.weights");
    let fit = othello()
        .args(["train", "fit", "--phases", "2", "--epochs", "5", "--out"])
        .arg(&weights)
        .arg(&shard)
        .output()
        .unwrap();
    assert!(fit.status.success(), "{fit:?}");
    let runs = |data: &std::path::Path| {
        let fit = othello()
            .args(["train", "fit", "--phases", "2", "--epochs", "5", "--out"])
            .arg(dir.join("cut.weights"))
            .arg(data)
            .output()
            .unwrap();
        let test = othello()
            .arg("--weights")
            .arg(&weights)
            .args(["train", "test", "--held-out", "1"])
            .arg(data)
            .output()
            .unwrap();
        [fit, test]
    };
    let cut = dir.join("cut.dat");
    for (len, held) in [
        (
            whole.len() - 5,
            format!(
                "{} whole positions and 7 bytes of a torn last one",
                records - 1
            ),
        ),
        (
            25 + records / 2 * 12,
            format!("{} whole positions", records / 2),
        ),
    ] {
        fs::write(&cut, &whole[..len]).unwrap();
        for out in runs(&cut) {
            assert_eq!(out.status.code(), Some(2), "{out:?}");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                format!(
                    "othello: {}: its header counts {records} positions but it holds {held}: the \
                     file was cut short or damaged (make it again)\n",
                    cut.display()
                )
            );
        }
        assert!(!dir.join("cut.weights").exists());
    }
    // Left unfinished by a stopped run: read, and said so.
    let mut open = whole[..whole.len() - 5].to_vec();
    open[17..25].copy_from_slice(&u64::MAX.to_le_bytes());
    fs::write(&cut, &open).unwrap();
    for out in runs(&cut) {
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "othello: {}: not finished (a train gen run stopped, or still runs): its {} \
                 whole positions read, 7 bytes of a torn last one left out\n",
                cut.display(),
                records - 1
            )
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_shards_are_refused_and_files_left_as_they_were() {
    let dir = scratch("bad-shards");
    let out = dir.join("s.dat");
    let usage = |args: &[&str], why: &str| {
        let run = gen_4x4(args, &out, &[]);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        assert!(!out.exists());
    };
    // Past the last game number a training file holds, the index or the size.
    let last = "its games would pass the last game number, 4294967295";
    usage(&["--shard", "1", "--shard-size", "4294967295"], last);
    usage(&["--shard", "1073741824", "--shard-size", "4"], last);
    usage(
        &["--shard", "18446744073709551615", "--shard-size", "2"],
        last,
    );
    usage(
        &["--shard", "18446744073709551616", "--shard-size", "2"],
        "invalid value",
    );
    usage(&["--shard", "0", "--shard-size", "0"], "invalid value '0'");
    usage(&["--shard", "0"], "--shard-size <S>");
    usage(
        &["--games", "8", "--shard-size", "4"],
        "cannot be used with",
    );
    // The last shard that fits is made.
    let run = gen_4x4(&["--shard", "1073741823", "--shard-size", "4"], &out, &[]);
    assert!(run.status.success(), "{run:?}");
    assert!(String::from_utf8_lossy(&run.stdout).contains("games 4294967292 to 4294967295"));
    // Over another shard, another board, or a file of notes, nothing is written.
    let other = fs::read(&out).unwrap();
    let six = dir.join("six.dat");
    let made = othello()
        .args([
            "train", "gen", "--rows", "6", "--cols", "6", "--games", "0", "--out",
        ])
        .arg(&six)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let cases: [(Vec<u8>, &str); 3] = [
        (
            other,
            "holds game 4294967292, not one of this shard's games 0 to 3",
        ),
        (
            fs::read(&six).unwrap(),
            "holds positions of another board or rule set",
        ),
        (b"my notes\n".to_vec(), "not a training file"),
    ];
    for (bytes, why) in cases {
        fs::write(&out, &bytes).unwrap();
        let run = gen_4x4(&["--shard", "0", "--shard-size", "4"], &out, &[]);
        assert_eq!(run.status.code(), Some(2), "{run:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(why), "{stderr}");
        assert_eq!(fs::read(&out).unwrap(), bytes);
        assert!(!dir.join(".s.dat.partial").exists());
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// `train probcut` writes the midgame fits and, for the selective solve, an end fit per number
/// of empty cells solved; without end fits (`--end-max 0`) the midgame lines are the same.
#[test]
fn probcut_fits_the_midgame_and_the_end() {
    let dir = scratch("probcut");
    let fit = |end_max: &str| -> String {
        let out = dir.join(format!("end-{end_max}.probcut"));
        let fitted = othello()
            .args(["train", "probcut", "--rows", "6", "--cols", "6"])
            .args(["--positions", "60", "--max-depth", "4", "--phases", "1"])
            .args(["--end-max", end_max, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(fitted.status.success(), "{fitted:?}");
        fs::read_to_string(&out).unwrap()
    };
    let text = fit("18");
    assert!(text.contains("\nboard 6x6\n"), "{text}");
    assert!(text.contains("\nfit 4 2 1-36 "), "{text}");
    // Games that reach 18 empty cells (nearly all) give the end fit its samples.
    let end = text
        .lines()
        .find(|l| l.starts_with("end 18 8 "))
        .unwrap_or_else(|| panic!("{text}"));
    let samples: usize = end.rsplit(' ').next().unwrap().parse().unwrap();
    assert!((30..=60).contains(&samples), "{end}");
    let midgame = fit("0");
    assert!(!midgame.contains("\nend "), "{midgame}");
    let fits = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("fit "))
            .map(String::from)
            .collect()
    };
    assert_eq!(fits(&text), fits(&midgame));
    fs::remove_dir_all(&dir).unwrap();
}
