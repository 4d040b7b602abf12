//! A contestant's process: lines in and out with deadlines, and a clean end. The program runs
//! under a keeper: a process forked from the referee that starts it, reports how it ended and
//! stays until all it started is gone. The keeper is a child subreaper, so whatever the program
//! starts stays below it in the process tree, even in a session of its own with its environment
//! cleared (`setsid env -i ...`): ending a contestant ends that whole tree, found by parent pid
//! in `/proc`, then the keeper's process group. The referee is a subreaper too, and reaps what
//! reaches it.

use crate::lines::LineReader;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The keepers of the contestants running now, so that a referee stopped by a signal can end
/// them (they are in process groups of their own, so a Ctrl-C at the terminal does not reach
/// them).
static LIVE: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// What to do, after the contestants are ended, when a signal stops the referee.
type AtStop = Box<dyn FnOnce() + Send>;
static AT_STOP: Mutex<Vec<AtStop>> = Mutex::new(Vec::new());

/// Lines a contestant may write ahead of the referee's reading; past that its writes wait, and
/// it is flagged as flooding.
const MAX_QUEUED: usize = 1024;

/// On SIGINT, SIGTERM or SIGHUP: end every live contestant, run what [`at_stop`] registered,
/// then exit as the signal would have (128 + its number). Called once, before the first
/// contestant starts.
pub fn end_contestants_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            if let Ok(live) = LIVE.lock() {
                for &keeper in live.iter() {
                    end_tree(keeper);
                }
            }
            let hooks = AT_STOP.lock().map(|mut h| std::mem::take(&mut *h));
            for hook in hooks.unwrap_or_default() {
                hook();
            }
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Registers `hook` to run when a signal stops the referee (see [`end_contestants_on_signals`]):
/// to keep what the match has written so far.
pub fn at_stop(hook: impl FnOnce() + Send + 'static) {
    if let Ok(mut hooks) = AT_STOP.lock() {
        hooks.push(Box::new(hook));
    }
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
    /// The keeper (see the module's notes); the program is its child.
    process: std::process::Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set when the process wrote [`MAX_QUEUED`] lines that the referee had not read.
    flooded: Arc<AtomicBool>,
    /// Set once the program has written a line.
    spoke: Arc<AtomicBool>,
    /// Where the keeper writes the program's wait status when it ends (non-blocking).
    status_pipe: std::fs::File,
    status: Option<ExitStatus>,
    /// Set once the output is closed, so later reads fail at once.
    closed: bool,
    last_stderr: Arc<Mutex<String>>,
    reaped: bool,
}

impl Child {
    /// Starts `command` with `sh -c` under a keeper, in a process group of its own.
    pub fn spawn(command: &str, env: &[(&str, String)]) -> io::Result<Child> {
        become_subreaper();
        let (status_read, status_write) = status_pipe()?;
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        for (key, value) in env {
            cmd.env(key, value);
        }
        let status_fd = status_write.as_raw_fd();
        // Only async-signal-safe calls happen between the fork and the exec.
        unsafe {
            cmd.pre_exec(move || keeper::start(status_fd));
        }
        let mut process = cmd.spawn()?;
        drop(status_write);
        if let Ok(mut live) = LIVE.lock() {
            live.push(process.id() as libc::pid_t);
        }
        let stdout = process.stdout.take().expect("stdout is piped");
        let stderr = process.stderr.take().expect("stderr is piped");
        let (sender, lines) = mpsc::sync_channel(MAX_QUEUED);
        let flooded = Arc::new(AtomicBool::new(false));
        let spoke = Arc::new(AtomicBool::new(false));
        let (flag, said) = (Arc::clone(&flooded), Arc::clone(&spoke));
        thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stdout));
            while let Some(line) = next_text(&mut reader) {
                said.store(true, Ordering::Relaxed);
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
            spoke,
            status_pipe: std::fs::File::from(status_read),
            status: None,
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
        let status = self.status_within(Duration::from_millis(200));
        let stderr = self.last_words();
        Silence::Closed { status, stderr }
    }

    /// The last line the process wrote on stderr, once the reader has had a moment to take
    /// it in (it may still hold the last words as the process exits).
    fn last_words(&self) -> String {
        thread::sleep(Duration::from_millis(10));
        self.last_stderr
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }

    /// How the program ended, if it has by `wait` from now.
    fn status_within(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + wait;
        loop {
            if let Some(status) = self.peek_status() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// How the program ended, if its keeper has said.
    fn peek_status(&mut self) -> Option<ExitStatus> {
        use std::os::unix::process::ExitStatusExt;
        if self.status.is_none() {
            let mut raw = [0u8; 4];
            // The keeper writes the four bytes at once, so they arrive together or not at all.
            if let Ok(4) = self.status_pipe.read(&mut raw) {
                self.status = Some(ExitStatus::from_raw(i32::from_ne_bytes(raw)));
            }
        }
        self.status
    }

    /// Why the program never ran, if it did not: the shell could not find it (status 127) or
    /// run it (126), and it ended without writing a line. A program that ran and then failed
    /// is a crash in its game, not this.
    fn never_ran(&mut self) -> Option<String> {
        if self.spoke.load(Ordering::Relaxed) {
            return None;
        }
        let status = self.status_within(Duration::from_millis(200))?;
        if !matches!(status.code(), Some(126 | 127)) || self.spoke.load(Ordering::Relaxed) {
            return None;
        }
        let stderr = self.last_words();
        Some(if stderr.is_empty() {
            status.to_string()
        } else {
            format!("{stderr} ({status})")
        })
    }

    /// Ends the process: closes its input, gives it `grace` to leave by itself, then kills all
    /// it started, and it, and reaps them. Says why the program never ran, if it did not (see
    /// [`Child::never_ran`]).
    pub fn end(mut self, grace: Duration) -> Option<String> {
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
        let never_ran = self.never_ran();
        self.kill_and_reap();
        never_ran
    }

    fn kill_and_reap(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        // The keeper is not reaped yet, so its number and its group's are still ours.
        let keeper = self.process.id() as libc::pid_t;
        end_tree(keeper);
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|&p| p != keeper);
        }
        let _ = self.process.wait();
        reap_orphans();
        self.reaped = true;
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill_and_reap();
    }
}

/// A pipe for the keeper's report: the read end non-blocking, both closed on exec.
fn status_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    if unsafe { libc::fcntl(read.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((read, write))
}

/// The keeper: what runs in the process forked to start a contestant, before its `exec`.
mod keeper {
    use std::io;

    /// Makes this process a child subreaper and forks: the child goes on to run the program;
    /// this process stays as its keeper and never returns.
    pub fn start(status_fd: libc::c_int) -> io::Result<()> {
        unsafe {
            if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            match libc::fork() {
                -1 => Err(io::Error::last_os_error()),
                0 => Ok(()),
                program => keep(program, status_fd),
            }
        }
    }

    /// Reaps the program and all it leaves behind; writes the program's wait status to
    /// `status_fd` when it ends, and exits once nothing is left below it. It holds no pipe of
    /// the referee's, so that each closes when the process it belongs to ends.
    unsafe fn keep(program: libc::pid_t, status_fd: libc::c_int) -> ! {
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::signal(signal, libc::SIG_DFL);
        }
        close_all_but(status_fd);
        let mut report = status_fd;
        loop {
            let mut status: libc::c_int = 0;
            let pid = libc::waitpid(-1, &mut status, 0);
            if pid == program && report >= 0 {
                let bytes = status.to_ne_bytes();
                libc::write(report, bytes.as_ptr().cast(), bytes.len());
                libc::close(report);
                report = -1;
            } else if pid < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                // No child left: the program and everything it started are gone.
                libc::_exit(0);
            }
        }
    }

    /// Closes every descriptor but `keep`: with `close_range` where the kernel has it (5.9
    /// on), one by one up to the limit on open files otherwise.
    unsafe fn close_all_but(keep: libc::c_int) {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        let most = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur.min(1 << 16) as libc::c_int
        } else {
            1024
        };
        for (first, last) in [(0, keep - 1), (keep + 1, libc::c_int::MAX)] {
            if first > last {
                continue;
            }
            let closed = libc::syscall(
                libc::SYS_close_range,
                first as libc::c_uint,
                last as libc::c_uint,
                0,
            );
            if closed != 0 {
                for fd in first..=last.min(most) {
                    libc::close(fd);
                }
            }
        }
    }
}

/// Makes this process the reaper of its orphaned descendants, once.
fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    });
}

/// Kills every process below `keeper`, then its process group (the keeper and the program,
/// with whatever stayed in the group). The keeper is a subreaper, so a process whose parent
/// dies stays below it: killing in rounds until no live process is left there ends the whole
/// tree, however it forks meanwhile.
fn end_tree(keeper: libc::pid_t) {
    for _ in 0..400 {
        let below = descendants(keeper);
        if below.is_empty() {
            break;
        }
        for pid in below {
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        thread::sleep(Duration::from_millis(2));
    }
    unsafe {
        libc::kill(-keeper, libc::SIGKILL);
    }
}

/// The live (not zombie) processes below `root` in the process tree, from `/proc`.
fn descendants(root: libc::pid_t) -> Vec<libc::pid_t> {
    let table: Vec<(libc::pid_t, libc::pid_t, bool)> = processes()
        .filter_map(|(pid, dir)| {
            let (state, parent) = state_and_parent(&dir)?;
            Some((pid, parent, state == "Z"))
        })
        .collect();
    let mut tree = vec![root];
    let mut live = Vec::new();
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        for &(pid, p, zombie) in &table {
            if p == parent && !tree.contains(&pid) {
                tree.push(pid);
                if !zombie {
                    live.push(pid);
                }
            }
        }
        i += 1;
    }
    live
}

/// The state letter and parent pid of the process whose `/proc` directory is `dir`.
fn state_and_parent(dir: &std::path::Path) -> Option<(String, libc::pid_t)> {
    let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
    // After the name in parentheses: the state, then the parent's pid.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.to_string();
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

/// Every process in `/proc`: its pid and its directory there.
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

/// Reaps the dead processes this process adopted as a subreaper (what escaped a keeper that
/// was itself killed), so that they do not pile up as zombies over a long match. The keepers
/// of live contestants are left to their own `Child`.
fn reap_orphans() {
    let me = std::process::id() as libc::pid_t;
    let live: Vec<libc::pid_t> = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
    for (pid, dir) in processes() {
        if let Some((state, parent)) = state_and_parent(&dir) {
            if state == "Z" && parent == me && !live.contains(&pid) {
                unsafe {
                    libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
                }
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
