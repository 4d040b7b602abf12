//! Golden transcripts of `othello play` with its input piped (no prompt, no colour): for every
//! `tests/play/NAME.args` (the arguments after `play`, one a line) the binary reads `NAME.in`
//! and its output must equal `NAME.out` exactly, with nothing on stderr and exit status 0 (the
//! same runner as `tests/show.rs`: `tests/golden`).
//! Each case runs in a scratch directory holding copies of `tests/play/*.game`, so `save` and
//! `load` name files there. `tests/play/README.md` says what each case shows.

mod golden;

use assert_cmd::Command;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// Runs one case in a scratch directory holding copies of the `*.game` files; returns what
/// differs.
fn check(args_file: &Path) -> Vec<String> {
    let name = args_file.file_stem().unwrap().to_string_lossy();
    let scratch = std::env::temp_dir().join(format!("othello-play-{name}-{}", std::process::id()));
    fs::create_dir_all(&scratch).unwrap();
    for entry in fs::read_dir(args_file.parent().unwrap()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "game") {
            fs::copy(&path, scratch.join(path.file_name().unwrap())).unwrap();
        }
    }
    let problems =
        golden::check_args_case("play", args_file, Some(&scratch), Duration::from_secs(60));
    fs::remove_dir_all(&scratch).unwrap();
    problems
}

#[test]
fn play_transcripts() {
    golden::check_all(&golden::cases("play", "args", 8), check);
}

#[test]
fn a_bad_start_is_a_usage_error() {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["play", "--moves", "a1"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr,
        "othello: move 1 (a1): a1 flanks no line of opponent discs\n"
    );
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-play-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// `othello play` for two people in `dir`, fed `input`; its stdout.
fn play_in(dir: &Path, input: &str) -> String {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .current_dir(dir)
        .args(["play", "--computer", "none"])
        .write_stdin(input)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn save_keeps_a_file_that_is_not_a_game_and_the_game_goes_on() {
    let dir = scratch("save-foreign");
    fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let out = play_in(&dir, "f5\nsave notes.txt\nd6\nmoves\n");
    assert!(
        out.contains("Cannot save to notes.txt: it is not a saved game ("),
        "{out}"
    );
    assert!(out.contains("Moves: f5d6"), "{out}");
    assert_eq!(
        fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "my notes\n"
    );
    // A saved game is replaced.
    let out = play_in(&dir, "f5\nsave g.game\nd6\nsave g.game\n");
    assert_eq!(out.matches("Saved to g.game.").count(), 2, "{out}");
    assert!(fs::read_to_string(dir.join("g.game"))
        .unwrap()
        .ends_with("\nf5d6\n"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_replaces_a_link_instead_of_writing_through_it() {
    let dir = scratch("save-link");
    fs::write(dir.join("kept.game"), "f5\n").unwrap();
    std::os::unix::fs::symlink("kept.game", dir.join("link.game")).unwrap();
    let out = play_in(&dir, "f5\nd6\nsave link.game\n");
    assert!(out.contains("Saved to link.game."), "{out}");
    assert_eq!(fs::read_to_string(dir.join("kept.game")).unwrap(), "f5\n");
    let link = fs::symlink_metadata(dir.join("link.game")).unwrap();
    assert!(link.is_file(), "the link was written through");
    assert!(fs::read_to_string(dir.join("link.game"))
        .unwrap()
        .ends_with("\nf5d6\n"));
    fs::remove_dir_all(&dir).unwrap();
}

/// A save that cannot be written (no file may grow: `ulimit -f 0`) leaves the old save whole.
#[test]
fn a_failed_save_keeps_the_old_one() {
    let dir = scratch("save-ulimit");
    fs::write(dir.join("good.game"), "f5\n").unwrap();
    let output = std::process::Command::new("sh")
        .current_dir(&dir)
        .args([
            "-c",
            "ulimit -f 0; printf 'f5\\nd6\\nsave good.game\\n' | \"$0\" play --computer none",
        ])
        .arg(env!("CARGO_BIN_EXE_othello"))
        .output()
        .unwrap();
    assert_eq!(
        fs::read_to_string(dir.join("good.game")).unwrap(),
        "f5\n",
        "{output:?}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// `load` of a FIFO, a folder or a device is refused at once: nothing waits for a writer.
#[test]
fn load_refuses_what_is_not_a_regular_file() {
    let dir = scratch("load-fifo");
    let fifo = std::ffi::CString::new(dir.join("pipe.game").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path it is given.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    fs::create_dir(dir.join("folder")).unwrap();
    let out = play_in(
        &dir,
        "f5\nload pipe.game\nload folder\nload /dev/zero\nmoves\n",
    );
    for name in ["pipe.game", "folder", "/dev/zero"] {
        assert!(
            out.contains(&format!("Cannot load {name}: not a regular file.")),
            "{out}"
        );
    }
    assert!(out.contains("Moves: f5"), "{out}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A forced move's hint gives its true value (here the game's end: Black loses by 8).
#[test]
fn a_forced_moves_hint_has_its_true_value() {
    let output = Command::cargo_bin("othello")
        .unwrap()
        .args(["play", "--rows", "4", "--cols", "4", "--computer", "none"])
        .args(["--moves", "b1a1c4d4d3b4a4c1d1d2paa3"])
        .write_stdin("hint\n")
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        out.contains("Hint: a2, Black loses by 8 with perfect play."),
        "{out}"
    );
}
