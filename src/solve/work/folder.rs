//! The files of a work folder: what is solved (`work.txt`), each round's jobs
//! (`round-R.jobs`), each job's result (`round-R/job-I.result`) and the journals that keep a
//! stopped job's work (`journals/`), and the estimates kept from one merge to the next
//! (`estimates.txt`). All are text, written whole or not at all.

use crate::files::{read_capped_text, write_atomic, FileLock, LockKind};
use crate::notation::{MoveList, PositionString};
use crate::rules::{Color, RuleSet, Setup, Shape, Variant};
use crate::search::RootMoves;
use crate::start::Start;
use anyhow::{bail, Context};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The versions of the formats; a file of another version is refused (the estimates, only a
/// cache, are left aside).
const WORK_FORMAT: &str = "othello-solve-work 1";
const JOBS_FORMAT: &str = "othello-solve-jobs 1";
const RESULT_FORMAT: &str = "othello-solve-result 2";
const ESTIMATES_FORMAT: &str = "othello-solve-estimates 1";

/// The largest file of a work folder read: a round of a million jobs is some 100 MB.
const MAX_FILE: u64 = 1 << 30;

/// The largest time a result may give for its job, as a journal's runs: some 31 years.
const MAX_SECONDS: f64 = 1e9;

/// The line that ends a result: the FNV-1a hash of every byte before it, so that a result
/// edited or damaged is refused rather than merged into a wrong value.
const CHECK: &str = "check: ";

fn check_line(text: &str) -> String {
    format!(
        "{CHECK}{:016x}\n",
        crate::search::weights::fnv1a(text.as_bytes())
    )
}

/// The program that writes the files.
fn program() -> String {
    format!("othello {}", env!("CARGO_PKG_VERSION"))
}

/// What a work folder solves: everything a job or a merge needs, so that neither needs the
/// command that split it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub start: Start,
    pub moves: MoveList,
    /// Which root moves get exact values: [`RootMoves::Ties`] or [`RootMoves::All`].
    pub which: RootMoves,
    /// The number of jobs asked for.
    pub split: usize,
    /// How many discs are placed beyond the root before a position is a job: positions with
    /// more empty cells than the root's less this are merged from their moves.
    pub depth: u32,
}

impl Plan {
    pub fn text(&self) -> String {
        let v = self.start.variant();
        let yes = |b: bool| if b { "yes" } else { "no" };
        let mut t = String::new();
        t += "# othello: one position split into jobs whose results merge into its value.\n";
        t += "# Written by `othello solve --split`; read by --job, --merge and --run-local.\n";
        let _ = writeln!(t, "format: {WORK_FORMAT}");
        let _ = writeln!(t, "program: {}", program());
        let _ = writeln!(t, "rules: {}", v.rule_set);
        let _ = writeln!(t, "place-anywhere: {}", yes(v.place_anywhere));
        let _ = writeln!(t, "misere: {}", yes(v.misere));
        match &self.start {
            Start::Setup(s) => {
                let _ = writeln!(t, "start: {} {} {}", s.shape, s.first, s.top_left);
            }
            Start::Position(p, _) => {
                let _ = writeln!(t, "start: {p}");
            }
        }
        let moves = if self.moves.is_empty() {
            "-".to_string()
        } else {
            crate::solve::position::line_text(&self.moves.0)
        };
        let _ = writeln!(t, "moves: {moves}");
        let which = match self.which {
            RootMoves::All => "all",
            RootMoves::Ties | RootMoves::Best => "ties",
        };
        let _ = writeln!(t, "moves-proved: {which}");
        let _ = writeln!(t, "split: {}", self.split);
        let _ = writeln!(t, "depth: {}", self.depth);
        t
    }

    pub fn parse(text: &str) -> anyhow::Result<Plan> {
        let fields = Fields::read(text, WORK_FORMAT)?;
        let yes = |key: &str| -> anyhow::Result<bool> {
            match fields.get(key)? {
                "yes" => Ok(true),
                "no" => Ok(false),
                other => bail!("{key}: {other:?} is not yes or no"),
            }
        };
        let rule_set: RuleSet = fields
            .get("rules")?
            .parse()
            .map_err(|e| anyhow::anyhow!("rules: {e}"))?;
        let variant = Variant {
            rule_set,
            place_anywhere: yes("place-anywhere")?,
            misere: yes("misere")?,
        };
        let start_text = fields.get("start")?;
        let start = if start_text.starts_with('(') {
            let p: PositionString = start_text
                .parse()
                .map_err(|e| anyhow::anyhow!("start: {e}"))?;
            Start::Position(p, variant)
        } else {
            let words: Vec<&str> = start_text.split_whitespace().collect();
            let [shape, first, top_left] = words[..] else {
                bail!("start: {start_text:?} is not a board, a first player and a top-left colour");
            };
            let shape: Shape = shape.parse().map_err(|e| anyhow::anyhow!("start: {e}"))?;
            Start::Setup(Setup {
                shape,
                variant,
                first: parse_color(first)?,
                top_left: parse_color(top_left)?,
            })
        };
        let moves = match fields.get("moves")? {
            "-" => MoveList::default(),
            text => text.parse().map_err(|e| anyhow::anyhow!("moves: {e}"))?,
        };
        let which = match fields.get("moves-proved")? {
            "ties" => RootMoves::Ties,
            "all" => RootMoves::All,
            other => bail!("moves-proved: {other:?} is not ties or all"),
        };
        Ok(Plan {
            start,
            moves,
            which,
            split: fields.number("split")?,
            depth: fields.number("depth")?,
        })
    }
}

fn parse_color(word: &str) -> anyhow::Result<Color> {
    word.parse().map_err(anyhow::Error::msg)
}

/// The `key: value` lines of a file, after its comments, the first of which names the format.
struct Fields<'a> {
    lines: Vec<(&'a str, &'a str)>,
}

impl<'a> Fields<'a> {
    fn read(text: &'a str, format: &str) -> anyhow::Result<Fields<'a>> {
        Self::read_lines(&text.lines().collect::<Vec<_>>(), format)
    }

    fn read_lines(lines: &[&'a str], format: &str) -> anyhow::Result<Fields<'a>> {
        let mut kept = Vec::new();
        for line in lines {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                bail!("{line:?} is not a `key: value` line");
            };
            kept.push((key.trim(), value.trim()));
        }
        match kept.first() {
            Some(&("format", f)) if f == format => Ok(Fields { lines: kept }),
            Some(&("format", f)) => bail!("format {f:?}, not {format:?}"),
            _ => bail!("no `format: {format}` line: not a file of this kind"),
        }
    }

    fn get(&self, key: &str) -> anyhow::Result<&'a str> {
        let mut found = self.lines.iter().filter(|(k, _)| *k == key);
        match (found.next(), found.next()) {
            (Some(&(_, v)), None) => Ok(v),
            (None, _) => bail!("no `{key}:` line"),
            (Some(_), Some(_)) => bail!("two `{key}:` lines"),
        }
    }

    fn number<T: std::str::FromStr>(&self, key: &str) -> anyhow::Result<T> {
        let text = self.get(key)?;
        text.parse()
            .map_err(|_| anyhow::anyhow!("{key}: {text:?} is not a number in range"))
    }
}

/// What a job is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// The value of the position within this window (fail-soft).
    Window { alpha: i32, beta: i32 },
    /// A line of perfect play from the position, whose value is this.
    Line { value: i32 },
}

/// One job of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub task: Task,
    /// The estimate that placed it, in discs for the side to move.
    pub estimate: i32,
    /// The journal it keeps its work in, a file under `journals/`: one per position and its
    /// images, shared by the rounds that search it again.
    pub journal: String,
    pub position: PositionString,
}

/// The jobs of one round, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub number: u32,
    pub jobs: Vec<Job>,
}

impl Round {
    pub fn text(&self) -> String {
        let mut t = String::new();
        t += "# othello: the jobs of one round of a split solve, one a line:\n";
        t += "#   index `window` alpha beta estimate journal position   (the value within the window)\n";
        t += "#   index `line` value - estimate journal position        (a line of perfect play)\n";
        let _ = writeln!(t, "format: {JOBS_FORMAT}");
        let _ = writeln!(t, "round: {}", self.number);
        let _ = writeln!(t, "jobs: {}", self.jobs.len());
        for (i, job) in self.jobs.iter().enumerate() {
            let _ = writeln!(t, "{}", job.line(i as u64));
        }
        t
    }

    pub fn parse(text: &str) -> anyhow::Result<Round> {
        let (head, body): (Vec<&str>, Vec<&str>) = text
            .lines()
            .partition(|l| !l.starts_with(|c: char| c.is_ascii_digit()));
        let fields = Fields::read_lines(&head, JOBS_FORMAT)?;
        let number = fields.number("round")?;
        let count: usize = fields.number("jobs")?;
        if count != body.len() {
            bail!("says {count} jobs and lists {}", body.len());
        }
        let mut jobs = Vec::with_capacity(count);
        for (i, line) in body.iter().enumerate() {
            let job = parse_job(line).with_context(|| format!("job line {line:?}"))?;
            if job.0 != i as u64 {
                bail!("job {} listed where job {i} belongs", job.0);
            }
            jobs.push(job.1);
        }
        Ok(Round { number, jobs })
    }
}

impl Job {
    /// The job as a jobs file lists it, under `index`: `index task a b estimate journal
    /// position`.
    pub fn line(&self, index: u64) -> String {
        let task = match self.task {
            Task::Window { alpha, beta } => format!("window {alpha} {beta}"),
            Task::Line { value } => format!("line {value} -"),
        };
        format!(
            "{index} {task} {} {} {}",
            self.estimate, self.journal, self.position
        )
    }

    /// A job line and its index, as [`Job::line`] writes them.
    pub fn parse_line(line: &str) -> anyhow::Result<(u64, Job)> {
        parse_job(line)
    }
}

fn parse_job(line: &str) -> anyhow::Result<(u64, Job)> {
    let mut words = line.splitn(7, ' ');
    let mut next = |what: &str| words.next().with_context(|| format!("no {what}"));
    let index: u64 = next("index")?.parse()?;
    let kind = next("task")?;
    let (a, b) = (next("value")?, next("value")?);
    let task = match kind {
        "window" => {
            let (alpha, beta) = (a.parse()?, b.parse()?);
            if alpha >= beta {
                bail!("an empty window");
            }
            Task::Window { alpha, beta }
        }
        "line" if b == "-" => Task::Line { value: a.parse()? },
        _ => bail!("{kind:?} is not a task"),
    };
    let estimate = next("estimate")?.parse()?;
    let journal = next("journal")?.to_string();
    if journal.len() != 16 || !journal.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("{journal:?} is not a journal name");
    }
    let position = next("position")?
        .parse()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((
        index,
        Job {
            task,
            estimate,
            journal,
            position,
        },
    ))
}

/// What a finished job found.
#[derive(Clone, Debug, PartialEq)]
pub struct JobResult {
    pub round: u32,
    pub job: usize,
    pub position: PositionString,
    pub task: Task,
    /// The fail-soft score of a window; the value of a line.
    pub score: i32,
    /// A move that reaches the score (`pa` for a pass, `-` for none), in standard notation.
    pub best: String,
    /// A line's moves, in standard notation.
    pub line: MoveList,
    pub nodes: u64,
    pub seconds: f64,
    pub program: String,
}

impl JobResult {
    pub fn text(&self) -> String {
        let mut t = String::new();
        t += "# othello: the result of one job of a split solve.\n";
        let _ = writeln!(t, "format: {RESULT_FORMAT}");
        let _ = writeln!(t, "program: {}", self.program);
        let _ = writeln!(t, "round: {}", self.round);
        let _ = writeln!(t, "job: {}", self.job);
        let _ = writeln!(t, "position: {}", self.position);
        match self.task {
            Task::Window { alpha, beta } => {
                let _ = writeln!(t, "window: {alpha} {beta}");
            }
            Task::Line { value } => {
                let _ = writeln!(t, "line-value: {value}");
            }
        }
        let bound = match self.task {
            Task::Window { alpha, .. } if self.score <= alpha => "at most",
            Task::Window { beta, .. } if self.score >= beta => "at least",
            _ => "exact",
        };
        let _ = writeln!(t, "score: {}", self.score);
        let _ = writeln!(t, "bound: {bound}");
        let _ = writeln!(t, "best: {}", self.best);
        if let Task::Line { .. } = self.task {
            let line = if self.line.is_empty() {
                "-".to_string()
            } else {
                crate::solve::position::line_text(&self.line.0)
            };
            let _ = writeln!(t, "line: {line}");
        }
        let _ = writeln!(t, "nodes: {}", self.nodes);
        let _ = writeln!(t, "seconds: {:.3}", self.seconds);
        let check = check_line(&t);
        t + &check
    }

    /// A result's text, refused where its last line is not the check of the lines before it.
    pub fn parse(text: &str) -> anyhow::Result<JobResult> {
        let fields = Fields::read(text, RESULT_FORMAT)?;
        let body = text.trim_end_matches('\n');
        let start = body.rfind('\n').map_or(0, |i| i + 1);
        if !body[start..].starts_with(CHECK) {
            bail!("no `{CHECK}` line at its end: cut short, or not written by this program");
        }
        let line = &body[start..];
        if check_line(&text[..start]).trim_end() != line {
            bail!("its contents do not match its check line: edited or damaged");
        }
        let position = fields
            .get("position")?
            .parse()
            .map_err(|e| anyhow::anyhow!("position: {e}"))?;
        let task = match (fields.get("window"), fields.get("line-value")) {
            (Ok(w), Err(_)) => {
                let mut words = w.split_whitespace().map(str::parse::<i32>);
                match (words.next(), words.next(), words.next()) {
                    (Some(Ok(alpha)), Some(Ok(beta)), None) if alpha < beta => {
                        Task::Window { alpha, beta }
                    }
                    _ => bail!("window: {w:?} is not two numbers, the first below the second"),
                }
            }
            (Err(_), Ok(_)) => Task::Line {
                value: fields.number("line-value")?,
            },
            _ => bail!("neither one `window:` nor one `line-value:` line"),
        };
        let line = match (task, fields.get("line")) {
            (Task::Line { .. }, Ok("-")) => MoveList::default(),
            (Task::Line { .. }, Ok(text)) => {
                text.parse().map_err(|e| anyhow::anyhow!("line: {e}"))?
            }
            (Task::Line { .. }, Err(e)) => return Err(e),
            (Task::Window { .. }, _) => MoveList::default(),
        };
        let seconds: f64 = fields.number("seconds")?;
        if !(0.0..=MAX_SECONDS).contains(&seconds) || seconds.is_sign_negative() {
            bail!("seconds: {seconds} is not a number of seconds from 0 to {MAX_SECONDS}");
        }
        Ok(JobResult {
            round: fields.number("round")?,
            job: fields.number("job")?,
            position,
            task,
            score: fields.number("score")?,
            best: fields.get("best")?.to_string(),
            line,
            nodes: fields.number("nodes")?,
            seconds,
            program: fields.get("program")?.to_string(),
        })
    }

    /// A result of this program.
    pub fn new(round: u32, job: usize, of: &Job) -> JobResult {
        JobResult {
            round,
            job,
            position: of.position.clone(),
            task: of.task,
            score: 0,
            best: "-".to_string(),
            line: MoveList::default(),
            nodes: 0,
            seconds: 0.0,
            program: program(),
        }
    }
}

/// The paths of a work folder.
#[derive(Clone, Debug)]
pub struct Folder {
    pub dir: PathBuf,
}

impl Folder {
    pub fn new(dir: &Path) -> Folder {
        Folder {
            dir: dir.to_path_buf(),
        }
    }

    pub fn plan_path(&self) -> PathBuf {
        self.dir.join("work.txt")
    }

    pub fn round_path(&self, round: u32) -> PathBuf {
        self.dir.join(format!("round-{round}.jobs"))
    }

    pub fn results_dir(&self, round: u32) -> PathBuf {
        self.dir.join(format!("round-{round}"))
    }

    pub fn result_path(&self, round: u32, job: usize) -> PathBuf {
        self.results_dir(round).join(format!("job-{job}.result"))
    }

    pub fn journal_path(&self, name: &str) -> PathBuf {
        self.dir.join("journals").join(format!("{name}.journal"))
    }

    /// The lock on the folder as a whole: shared by the runs that each solve their own jobs or
    /// merge, exclusive for `--run-local`, which runs every job and merge itself. Refused in
    /// one line while another run holds it in a way this one cannot share.
    pub fn lock(&self, kind: LockKind) -> anyhow::Result<FileLock> {
        let path = self.plan_path();
        match FileLock::try_take(&path, kind) {
            Ok(Some(lock)) => Ok(lock),
            Ok(None) => match kind {
                LockKind::Shared => bail!(
                    "{}: another run is solving this folder with --run-local; wait for it to end",
                    self.dir.display()
                ),
                LockKind::Exclusive => bail!(
                    "{}: another run is working in this folder (a --run-local, a --merge or a \
                     job); wait for it to end",
                    self.dir.display()
                ),
            },
            Err(e) => Err(anyhow::Error::from(e).context(format!(
                "cannot lock {}",
                FileLock::path_for(&path).display()
            ))),
        }
    }

    /// The plan, or why the folder holds none.
    pub fn plan(&self) -> anyhow::Result<Plan> {
        let path = self.plan_path();
        let text = read_capped_text(&path, MAX_FILE, "a work file").with_context(|| {
            format!(
                "{}: not a work folder (`othello solve --split N --work DIR` makes one)",
                self.dir.display()
            )
        })?;
        Plan::parse(&text).with_context(|| format!("{}: damaged or foreign", path.display()))
    }

    /// The rounds written so far, the first is 1; none before the split has written one.
    pub fn rounds(&self) -> anyhow::Result<Vec<Round>> {
        let mut rounds = Vec::new();
        for number in 1.. {
            let path = self.round_path(number);
            if !path.exists() {
                break;
            }
            let text = read_capped_text(&path, MAX_FILE, "a jobs file")
                .with_context(|| format!("cannot read {}", path.display()))?;
            let round = Round::parse(&text)
                .with_context(|| format!("{}: damaged or foreign", path.display()))?;
            if round.number != number {
                bail!("{}: says it is round {}", path.display(), round.number);
            }
            rounds.push(round);
        }
        Ok(rounds)
    }

    /// The result of `job` of `round`, if it has one: checked against the job, so that a
    /// result of another job or another solve is refused rather than merged.
    pub fn result(&self, round: u32, index: usize, job: &Job) -> anyhow::Result<Option<JobResult>> {
        let path = self.result_path(round, index);
        if !path.exists() {
            return Ok(None);
        }
        let text = read_capped_text(&path, MAX_FILE, "a result file")
            .with_context(|| format!("cannot read {}", path.display()))?;
        let name = path.display();
        let remove = "remove it to run the job again";
        let result = JobResult::parse(&text)
            .with_context(|| format!("{name}: damaged or foreign result ({remove})"))?;
        if result.program != program() {
            bail!(
                "{name}: a result of {}, not of this program ({}); {remove}",
                result.program,
                program()
            );
        }
        let task = |t: Task| match t {
            Task::Window { alpha, beta } => format!("the window {alpha} {beta}"),
            Task::Line { value } => format!("a line of value {value}"),
        };
        if (result.round, result.job) != (round, index) {
            bail!(
                "{name}: the result of round {} job {}, not of round {round} job {index}; {remove}",
                result.round,
                result.job
            );
        }
        if result.position != job.position {
            bail!(
                "{name}: a result of {}, where round {round} job {index} solves {}; {remove}",
                result.position,
                job.position
            );
        }
        if result.task != job.task {
            bail!(
                "{name}: a result of {}, where round {round} job {index} asks for {}; {remove}",
                task(result.task),
                task(job.task)
            );
        }
        Ok(Some(result))
    }

    pub fn write_round(&self, round: &Round) -> anyhow::Result<()> {
        std::fs::create_dir_all(self.results_dir(round.number))
            .with_context(|| format!("cannot create {}", self.dir.display()))?;
        let path = self.round_path(round.number);
        write_atomic(&path, round.text().as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    pub fn write_result(&self, result: &JobResult) -> anyhow::Result<()> {
        let path = self.result_path(result.round, result.job);
        write_atomic(&path, result.text().as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    pub fn estimates_path(&self) -> PathBuf {
        self.dir.join("estimates.txt")
    }

    /// The estimates earlier merges kept under the evaluation `mark` names, as (depth,
    /// estimate, position). Only a cache, whose loss costs time alone: none when the file is
    /// missing, damaged, foreign or of another evaluation, and the next write replaces it.
    pub fn estimates(&self, mark: &str) -> Vec<(u32, i32, PositionString)> {
        let text = match read_capped_text(&self.estimates_path(), MAX_FILE, "an estimates file") {
            Ok(text) => text,
            Err(_) => return Vec::new(),
        };
        parse_estimates(&text, mark).unwrap_or_default()
    }

    /// Writes the estimates `entries` (depth, estimate, position) made under the evaluation
    /// `mark` names, in a stable order.
    pub fn write_estimates(
        &self,
        mark: &str,
        entries: Vec<(u32, i32, PositionString)>,
    ) -> anyhow::Result<()> {
        let mut lines: Vec<String> = entries
            .into_iter()
            .map(|(depth, estimate, pos)| format!("{depth} {estimate} {pos}"))
            .collect();
        lines.sort_unstable();
        let mut text = format!(
            "# othello: estimates ordering the top of a split solve's tree, kept from one \
             merge to the next;\n# deleting this file costs time only. One a line: depth \
             estimate position.\nformat: {ESTIMATES_FORMAT}\nprogram: {}\nevaluation: \
             {mark}\nentries: {}\n",
            program(),
            lines.len()
        );
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        let path = self.estimates_path();
        write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The entries of an estimates file made under `mark`, or why there are none.
fn parse_estimates(text: &str, mark: &str) -> anyhow::Result<Vec<(u32, i32, PositionString)>> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let header = lines.len().min(4);
    let fields = Fields::read_lines(&lines[..header], ESTIMATES_FORMAT)?;
    if fields.get("evaluation")? != mark {
        bail!("made under another evaluation");
    }
    let count: usize = fields.number("entries")?;
    let body = &lines[header..];
    if body.len() != count {
        bail!("{} entries, {count} said", body.len());
    }
    body.iter()
        .map(|line| {
            let mut words = line.splitn(3, ' ');
            let (Some(depth), Some(estimate), Some(pos)) =
                (words.next(), words.next(), words.next())
            else {
                bail!("a short line");
            };
            Ok((depth.parse()?, estimate.parse()?, pos.parse()?))
        })
        .collect()
}
