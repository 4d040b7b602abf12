//! A contestant's process: lines in and out with deadlines, and a clean end. The process runs
//! in its own process group so that ending it also ends whatever it started (a script's
//! children), and it is always reaped. What it started in a session of its own (`setsid`)
//! leaves the group, so every process also carries a mark in its environment, and the referee
//! ends whatever process still bears the mark; on Linux the referee is a child subreaper, so such
//! processes become its children once their parents are gone, and it reaps them.

use crate::protocols::LineReader;
use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The process groups of the contestants running now, so that a referee stopped by a signal
/// can end them (they are in groups of their own, so a Ctrl-C at the terminal does not reach
/// them).
static LIVE: Mutex<Vec<(libc::pid_t, String)>> = Mutex::new(Vec::new());

/// The environment variable that marks every process a contestant starts.
const MARK: &str = "OTHELLO_CONTESTANT";

/// Numbers the contestants' marks.
static SPAWNED: AtomicU64 = AtomicU64::new(0);

/// Lines a contestant may write ahead of the referee's reading; past that its writes wait, and
/// it is flagged as flooding.
const MAX_QUEUED: usize = 1024;

/// On SIGINT, SIGTERM or SIGHUP: kill every live contestant's group, then exit as the signal
/// would have (128 + its number). Called once, before the first contestant starts.
pub fn end_contestants_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            if let Ok(live) = LIVE.lock() {
                for (pid, mark) in live.iter() {
                    unsafe {
                        libc::kill(-pid, libc::SIGKILL);
                    }
                    end_marked(mark);
                }
            }
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Why no line came.
#[derive(Debug)]
pub enum Silence {
    /// The deadline passed.
    Timeout,
    /// The process closed its output (it exited or crashed): how it ended, if it has, and the
    /// last line it wrote on stderr.
    Closed {
        status: Option<ExitStatus>,
        stderr: String,
    },
}

impl std::fmt::Display for Silence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Silence::Timeout => f.write_str("no answer in time"),
            Silence::Closed { status, stderr } => {
                match status {
                    Some(s) => write!(f, "the program ended ({s})")?,
                    None => f.write_str("the program closed its output")?,
                }
                if !stderr.is_empty() {
                    write!(f, "; its last words: {stderr:?}")?;
                }
                Ok(())
            }
        }
    }
}

pub struct Child {
    process: std::process::Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set when the process wrote [`MAX_QUEUED`] lines that the referee had not read.
    flooded: Arc<AtomicBool>,
    /// The value of [`MARK`] in its environment and its descendants'.
    mark: String,
    /// Set once the output is closed, so later reads fail at once.
    closed: bool,
    last_stderr: Arc<Mutex<String>>,
    reaped: bool,
}

impl Child {
    /// Starts `command` with `sh -c`, in a process group of its own.
    pub fn spawn(command: &str, env: &[(&str, String)]) -> io::Result<Child> {
        become_subreaper();
        let mark = format!(
            "{}-{}",
            std::process::id(),
            SPAWNED.fetch_add(1, Ordering::Relaxed)
        );
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .env(MARK, &mark)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        for (key, value) in env {
            cmd.env(key, value);
        }
        let mut process = cmd.spawn()?;
        if let Ok(mut live) = LIVE.lock() {
            live.push((process.id() as libc::pid_t, mark.clone()));
        }
        let stdout = process.stdout.take().expect("stdout is piped");
        let stderr = process.stderr.take().expect("stderr is piped");
        let (sender, lines) = mpsc::sync_channel(MAX_QUEUED);
        let flooded = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&flooded);
        thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stdout));
            while let Some(line) = next_text(&mut reader) {
                let sent = match sender.try_send(line) {
                    Ok(()) => Ok(()),
                    Err(TrySendError::Full(line)) => {
                        flag.store(true, Ordering::Relaxed);
                        sender.send(line).map_err(drop)
                    }
                    Err(TrySendError::Disconnected(_)) => Err(()),
                };
                if sent.is_err() {
                    break;
                }
            }
        });
        let last_stderr = Arc::new(Mutex::new(String::new()));
        let keep = Arc::clone(&last_stderr);
        thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stderr));
            while let Some(line) = next_text(&mut reader) {
                let line = line.trim();
                if !line.is_empty() {
                    if let Ok(mut last) = keep.lock() {
                        *last = line.chars().take(200).collect();
                    }
                }
            }
        });
        Ok(Child {
            stdin: process.stdin.take(),
            process,
            lines,
            flooded,
            mark,
            closed: false,
            last_stderr,
            reaped: false,
        })
    }

    /// Whether the process has written [`MAX_QUEUED`] lines ahead of the referee's reading.
    pub fn flooded(&self) -> bool {
        self.flooded.load(Ordering::Relaxed)
    }

    /// Writes one line. A process that has gone counts as closed.
    pub fn send(&mut self, line: &str) -> Result<(), Silence> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|_| self.closed_now())
    }

    /// The next line, without its line ending, if it comes before `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Result<String, Silence> {
        if self.closed {
            return Err(self.closed_now());
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Silence::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(self.closed_now())
            }
        }
    }

    /// How the process ended, waiting a moment for it to finish exiting.
    fn closed_now(&mut self) -> Silence {
        let until = Instant::now() + Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < until {
            // Peek without reaping: the group is killed before the leader is reaped, so its
            // number cannot have been reused.
            if let Some(s) = self.peek_status() {
                status = Some(s);
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // The stderr reader may still hold the last words for a moment.
        thread::sleep(Duration::from_millis(10));
        let stderr = self
            .last_stderr
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default();
        Silence::Closed { status, stderr }
    }

    fn peek_status(&mut self) -> Option<ExitStatus> {
        use std::os::unix::process::ExitStatusExt;
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let pid = self.process.id() as libc::id_t;
        // WNOWAIT leaves the process a zombie, so it is reaped (and its number freed) only in
        // `end`.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        if r != 0 || unsafe { info.si_pid() } == 0 {
            return None;
        }
        let status = unsafe { info.si_status() };
        Some(match info.si_code {
            libc::CLD_EXITED => ExitStatus::from_raw(status << 8),
            _ => ExitStatus::from_raw(status & 0x7f),
        })
    }

    /// Ends the process: closes its input, gives it `grace` to leave by itself, then kills its
    /// whole group and reaps it.
    pub fn end(mut self, grace: Duration) {
        self.stdin = None;
        let until = Instant::now() + grace;
        while !self.closed && Instant::now() < until {
            match self
                .lines
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(_) => {}
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        self.kill_and_reap();
    }

    fn kill_and_reap(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        // The leader is not reaped yet, so the group number is still ours.
        let pid = self.process.id() as libc::pid_t;
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|&(p, _)| p != pid);
        }
        let _ = self.process.wait();
        end_marked(&self.mark);
        reap_orphans();
        self.reaped = true;
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill_and_reap();
    }
}

/// Makes this process the reaper of its orphaned descendants (Linux), once.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        });
    }
}

/// Kills every process whose environment bears `mark` (those a contestant started and that
/// left its process group), and reaps those that have become this process's children. The
/// environment is the one they started with, read from `/proc`; elsewhere this does nothing.
fn end_marked(mark: &str) {
    let wanted = format!("{MARK}={mark}");
    let me = std::process::id() as libc::pid_t;
    // A process killed now may have started another a moment ago: look again until none.
    for _ in 0..10 {
        let found: Vec<libc::pid_t> = processes()
            .filter(|&(pid, _)| pid != me)
            .filter(|(_, dir)| {
                std::fs::read(dir.join("environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == wanted.as_bytes()))
            })
            .map(|(pid, _)| pid)
            .collect();
        if found.is_empty() {
            return;
        }
        for &pid in &found {
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        // Reap those that are (or become, as their parents die) this process's children; a
        // pid that is not ours answers at once.
        for &pid in &found {
            for _ in 0..20 {
                let r = unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
                if r != 0 {
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Every process in `/proc` (none where there is no `/proc`): its pid and its directory there.
fn processes() -> impl Iterator<Item = (libc::pid_t, std::path::PathBuf)> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<libc::pid_t>().ok()?;
            Some((pid, entry.path()))
        })
}

/// Reaps the dead processes this process adopted as a subreaper (descendants of contestants
/// whose parents died first), so that they do not pile up as zombies over a long match. The
/// leaders of live contestants are left to their own `Child`.
fn reap_orphans() {
    let me = std::process::id().to_string();
    let live: Vec<libc::pid_t> = LIVE
        .lock()
        .map(|l| l.iter().map(|&(pid, _)| pid).collect())
        .unwrap_or_default();
    for (pid, dir) in processes() {
        let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        // After the name in parentheses: the state, then the parent's pid.
        let mut fields = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace());
        let (state, parent) = match &mut fields {
            Some(f) => (f.next(), f.next()),
            None => continue,
        };
        if state == Some("Z") && parent == Some(me.as_str()) && !live.contains(&pid) {
            unsafe {
                libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
            }
        }
    }
}

/// The next line, or what is wrong with it in angle brackets (`<a line over 4096 bytes>`), so
/// that the side reading it sees a malformed line; `None` at the end of the stream.
fn next_text(reader: &mut LineReader<impl BufRead>) -> Option<String> {
    match reader.next_line() {
        Ok(Some(Ok(text))) => Some(text.to_string()),
        Ok(Some(Err(unreadable))) => Some(format!("<{unreadable}>")),
        Ok(None) | Err(_) => None,
    }
}
