//! The transposition table: entries, their bounds, and buckets that grow with the stores.

use super::score::Score;
use crate::random::splitmix;
use std::alloc::{handle_alloc_error, Layout};
use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicU8, AtomicUsize,
    Ordering::{Acquire, Relaxed, Release},
};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is exactly the score.
    Exact,
    /// The true value is at least the score (a cut-off).
    Lower,
    /// The true value is at most the score.
    Upper,
}

impl Bound {
    /// What a fail-soft `score` searched with the window `(alpha, beta)` says.
    pub fn of<T: Ord>(score: T, alpha: T, beta: T) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound answers a search with the window
    /// `(alpha, beta)` without searching.
    pub fn settles<T: Ord>(self, score: T, alpha: T, beta: T) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// No move stored.
pub const NO_MOVE: u16 = u16::MAX;
/// The depth stored for a value solved to the end of the game: deeper than any search.
pub const SOLVED: u8 = u8::MAX;
/// The deepest search a slot records as such; a deeper one is stored as this deep (it is
/// then found too shallow for searches as deep as itself, never wrongly deep enough).
pub const MAX_DEPTH: u8 = 191;
/// A slot's depth byte above [`MAX_DEPTH`] marks a solved value, and what it would cost to
/// solve again (log2 of the nodes, at most 63) counts above this.
const SOLVED_BASE: u8 = MAX_DEPTH + 1;

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    score: i32,
    best: u16,
    /// The depth searched, or [`SOLVED_BASE`] plus the cost of a solved value: the larger,
    /// the more a full bucket keeps it.
    depth: u8,
    /// Bound in the low two bits, the table's generation above them.
    flags: u8,
}

impl Slot {
    fn data(self) -> u64 {
        u64::from(self.score as u32)
            | u64::from(self.best) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.flags) << 56
    }

    fn from_data(key: u64, data: u64) -> Slot {
        Slot {
            key,
            score: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            flags: (data >> 56) as u8,
        }
    }
}

/// A stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: Score,
    pub best: Option<usize>,
    /// Moves searched (at most [`MAX_DEPTH`] is kept), or [`SOLVED`].
    pub depth: u8,
    pub bound: Bound,
    /// For a solved value, about log2 of the nodes its search took (at most 63 is kept): of
    /// two solved values, a full bucket keeps the costlier, since the solver stores every
    /// position it solves and a long solve fills any table many times over.
    pub cost: u8,
}

impl Entry {
    /// The cost of a solved value that took `nodes` nodes (see [`Entry::cost`]).
    pub fn cost_of(nodes: u64) -> u8 {
        (u64::BITS - nodes.leading_zeros()) as u8
    }
}

/// A fixed-size table of two-slot buckets: one slot keeps the deeper result (of solved ones,
/// the costlier), the other the newest, and results from earlier moves give way first.
/// Threads share one table without locks. A slot is two words, the key XOR the data and the
/// data, so a slot torn by two threads writing at once reads back under no key and is
/// ignored. The words are zeroed memory the system hands out lazily, on huge pages where the
/// system allows, since nearly every probe is a cache and TLB miss; each part uses a prefix of
/// its memory that grows with the stores (see [`Buckets`]), so a small search costs little.
///
pub struct Table {
    // The solver keeps the positions near the end of the game in a part of their own, a
    // sixteenth the size of the main one (besides it): they are most of its probes, each cheap
    // to solve again, and a small part is quicker to reach (fewer TLB and cache misses) and
    // keeps them from pushing the costlier solves out of the main part.
    main: Buckets,
    near_end: Buckets,
    generation: AtomicU8,
    /// Mixed into every stored key: a new salt forgets every entry at once (their keys read
    /// back as noise), without touching the memory.
    salt: u64,
}

impl Table {
    /// A table whose main part takes at most about `megabytes` (rounded down to a power of two
    /// of slots; at least 1024), and its near-the-end part a sixteenth of that (at least 1024);
    /// each starts at 1 MB or less and grows as stores come (see [`Buckets`]).
    pub fn new(megabytes: usize) -> Self {
        let (main, near_end) = Self::slots(megabytes);
        Table {
            main: Buckets::new(main),
            near_end: Buckets::new(near_end),
            generation: AtomicU8::new(0),
            salt: 0,
        }
    }

    /// The slots of the main part and of the near-the-end part of a table of `megabytes`.
    fn slots(megabytes: usize) -> (usize, usize) {
        let bytes = megabytes.saturating_mul(1 << 20);
        let wanted = (bytes / 16).max(1024);
        let main = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        (main, (main / 16).max(1024))
    }

    /// A table of the size [`Table::new`] gives, in `file`, mapped shared: processes that map
    /// the same file share its entries as threads share one table (worker ranks on one node;
    /// the torn-slot check holds across processes as across threads). The file's memory is
    /// reserved here, so that a file system too small for it (a container's `/dev/shm`) is an
    /// error now, not a bus error in the middle of a search; both parts are in use whole from
    /// the start, since each process would otherwise grow its own prefix of the same memory.
    #[cfg(target_os = "linux")]
    pub fn in_file(megabytes: usize, file: &std::fs::File) -> std::io::Result<Table> {
        use std::os::fd::AsRawFd;
        let (main, near_end) = Self::slots(megabytes);
        let (main_len, near_len) = (2 * main, 2 * near_end);
        let total = Words::bytes(main_len + near_len);
        file.set_len(total as u64)?;
        let length = libc::off_t::try_from(total).map_err(std::io::Error::other)?;
        // SAFETY: a plain call on an open descriptor; it returns an error number, not -1.
        match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, length) } {
            0 => {}
            errno => return Err(std::io::Error::from_raw_os_error(errno)),
        }
        let main_words = Words::mapped(file, 0, main_len)?;
        let near_words = Words::mapped(file, Words::bytes(main_len), near_len)?;
        Ok(Table {
            main: Buckets::whole(main_words, main),
            near_end: Buckets::whole(near_words, near_end),
            generation: AtomicU8::new(0),
            salt: 0,
        })
    }

    /// Marks the start of a new search, so the old results are replaced first.
    pub fn new_search(&self) {
        let next = (self.generation.load(Relaxed) + 1) & 0x3F;
        self.generation.store(next, Relaxed);
    }

    /// Forgets everything. The slots keep their contents, but under a new salt no stored key
    /// reads back as any position's, and as entries of an older generation they give way
    /// first; so the memory (already paged in) is neither zeroed nor given back.
    pub fn clear(&mut self) {
        let mut state = self.salt;
        self.salt = splitmix(&mut state);
        self.new_search();
    }

    #[inline]
    fn buckets(&self, part: TableSection) -> &Buckets {
        match part {
            TableSection::Main => &self.main,
            TableSection::NearEnd => &self.near_end,
        }
    }

    /// Starts bringing the bucket of `key` into the cache, for a probe a little later: the
    /// bucket is nearly always a cache miss, and the work in between hides the wait.
    #[inline]
    pub fn prefetch(&self, part: TableSection, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let buckets = self.buckets(part);
            let bucket = buckets.words[2 * buckets.bucket(key)..].as_ptr();
            // SAFETY: a prefetch is only a hint, and the address is inside the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (part, key);
    }

    /// The first cut-off that `cut` finds in the entries of `places` (each read where `at`
    /// says), for an enhanced transposition cut-off. The buckets of the first 64 are all
    /// fetched before any is read, so that their cache misses overlap; places past the 64th
    /// are read as they come, before those.
    #[inline]
    pub fn first_cut<P: Copy + Default, T>(
        &self,
        places: impl IntoIterator<Item = P>,
        at: impl Fn(&P) -> (TableSection, u64),
        cut: impl Fn(&P, Entry) -> Option<T>,
    ) -> Option<T> {
        let read = |p: &P| {
            let (part, key) = at(p);
            cut(p, self.probe(part, key)?)
        };
        let mut fetched = [P::default(); 64];
        let mut n = 0;
        for p in places {
            if n < fetched.len() {
                let (part, key) = at(&p);
                self.prefetch(part, key);
                fetched[n] = p;
                n += 1;
            } else if let Some(found) = read(&p) {
                return Some(found);
            }
        }
        fetched[..n].iter().find_map(read)
    }

    pub fn probe(&self, part: TableSection, key: u64) -> Option<Entry> {
        let buckets = self.buckets(part);
        let b = buckets.bucket(key);
        let slot = [buckets.slot(b, self.salt), buckets.slot(b + 1, self.salt)]
            .into_iter()
            .find(|s| s.key == key && s.flags != 0)?;
        let (depth, cost) = if slot.depth >= SOLVED_BASE {
            (SOLVED, slot.depth - SOLVED_BASE)
        } else {
            (slot.depth, 0)
        };
        Some(Entry {
            score: Score(slot.score),
            best: (slot.best != NO_MOVE).then_some(slot.best as usize),
            depth,
            bound: match slot.flags & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            cost,
        })
    }

    pub fn store(&self, part: TableSection, key: u64, entry: Entry) {
        let buckets = self.buckets(part);
        let b = buckets.bucket(key);
        let generation = self.generation.load(Relaxed);
        let flags = (generation << 2)
            | match entry.bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            };
        let value = |s: &Slot| {
            let current = (s.flags >> 2) == generation && s.flags != 0;
            (current as u32) * 256 + s.depth as u32
        };
        let pair = [buckets.slot(b, self.salt), buckets.slot(b + 1, self.salt)];
        let i = if pair[0].key == key {
            0
        } else if pair[1].key == key {
            1
        } else if value(&pair[0]) <= value(&pair[1]) {
            0
        } else {
            1
        };
        let old = pair[i];
        if old.key == key && old.flags != 0 && old.depth >= SOLVED_BASE && entry.depth < SOLVED {
            // A shallow search never replaces a solved result of the same position.
            return;
        }
        // Keep a known best move when the new result has none.
        let best = match entry.best {
            Some(m) => m as u16,
            None if old.key == key => old.best,
            None => NO_MOVE,
        };
        let depth = if entry.depth == SOLVED {
            SOLVED_BASE + entry.cost.min(u8::MAX - SOLVED_BASE)
        } else {
            entry.depth.min(MAX_DEPTH)
        };
        buckets.put(
            b + i,
            Slot {
                key,
                score: entry.score.0,
                best,
                depth,
                flags,
            },
            self.salt,
        );
        buckets.count_store(key, self.salt);
    }
}

/// The part of the [`Table`] that keeps a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableSection {
    /// Every search's positions but the solver's near the end.
    #[default]
    Main,
    /// The solver's positions with few empty cells left.
    NearEnd,
}

/// The slots a part of the table starts with (1 MB), unless it is smaller.
const FIRST_SLOTS: usize = 1 << 16;
/// One store in this many (those whose key has its top bits clear) is counted towards growing.
const SAMPLED: usize = 64;
/// A part doubles once a sixteenth as many stores as its slots in use have come: growing
/// sooner loses entries on the way; at a sixteenth it keeps about what a table of its full
/// size keeps.
const GROW_AT: usize = 16;

/// Two-slot buckets of a power of two of slots, of which a power-of-two prefix is in use: it
/// starts at [`FIRST_SLOTS`] and doubles as stores come (see [`GROW_AT`]), up to the whole.
/// The system zeroes each page of the mapping at its first write, and the keys spread the
/// writes over all of it: growing, a small search in a large table pays only for the memory
/// it needs.
struct Buckets {
    words: Words,
    /// Slots in use less one.
    mask: AtomicUsize,
    /// Slots less one.
    full: usize,
    /// Sampled stores since the prefix in use last doubled.
    stores: AtomicUsize,
    growing: AtomicBool,
}

impl Buckets {
    fn new(slots: usize) -> Self {
        Buckets::over(Words::zeroed(2 * slots), slots, slots.min(FIRST_SLOTS))
    }

    /// Buckets over `words` (zeroed, `slots` of them), all in use from the start.
    #[cfg(target_os = "linux")]
    fn whole(words: Words, slots: usize) -> Self {
        Buckets::over(words, slots, slots)
    }

    /// Buckets over `words` (zeroed, `slots` of them), of which the first `in_use` are in use.
    fn over(words: Words, slots: usize, in_use: usize) -> Self {
        Buckets {
            words,
            mask: AtomicUsize::new(in_use - 1),
            full: slots - 1,
            stores: AtomicUsize::new(0),
            growing: AtomicBool::new(false),
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask.load(Relaxed) & !1
    }

    /// Counts a store of `key` (stored under `salt`) and doubles the prefix in use when it is
    /// due.
    #[inline]
    fn count_store(&self, key: u64, salt: u64) {
        if key >> 58 != 0 {
            return;
        }
        let mask = self.mask.load(Relaxed);
        if mask != self.full && Self::due(self.stores.fetch_add(1, Relaxed) + 1, mask) {
            self.grow(salt);
        }
    }

    /// Whether `stores` sampled stores call for doubling a prefix of `mask` plus one slots.
    fn due(stores: usize, mask: usize) -> bool {
        stores * SAMPLED * GROW_AT > mask
    }

    /// Doubles the prefix in use, moving each entry whose key has the new mask bit to the same
    /// place in the new half, where the larger mask finds it. A store another thread makes
    /// meanwhile may be lost, and a slot torn by the move reads back under no key: at worst
    /// entries are lost, as at any replacement.
    #[cold]
    fn grow(&self, salt: u64) {
        if self.growing.swap(true, Acquire) {
            return;
        }
        // Read again: another thread may have doubled it since.
        let mask = self.mask.load(Relaxed);
        if mask != self.full && Self::due(self.stores.load(Relaxed), mask) {
            let slots = mask + 1;
            for index in 0..slots {
                let slot = self.slot(index, salt);
                if slot.flags != 0 && slot.key as usize & slots != 0 {
                    self.put(index + slots, slot, salt);
                    self.words[2 * index].store(0, Relaxed);
                    self.words[2 * index + 1].store(0, Relaxed);
                }
            }
            self.stores.store(0, Relaxed);
            self.mask.store(2 * mask + 1, Relaxed);
        }
        self.growing.store(false, Release);
    }

    /// The slot at `index`, its key read back under `salt`.
    #[inline]
    fn slot(&self, index: usize, salt: u64) -> Slot {
        let w = &self.words[2 * index..2 * index + 2];
        let data = w[1].load(Relaxed);
        Slot::from_data(w[0].load(Relaxed) ^ data ^ salt, data)
    }

    #[inline]
    fn put(&self, index: usize, slot: Slot, salt: u64) {
        let data = slot.data();
        self.words[2 * index].store(slot.key ^ data ^ salt, Relaxed);
        self.words[2 * index + 1].store(data, Relaxed);
    }
}

/// Zeroed atomic words in one allocation: mapped memory, on huge pages where the system
/// allows, on Linux; the global allocator elsewhere.
struct Words {
    ptr: std::ptr::NonNull<AtomicU64>,
    len: usize,
}

// SAFETY: the words are atomics (in a shared file, other processes' writes are atomic too).
unsafe impl Send for Words {}
unsafe impl Sync for Words {}

impl Words {
    fn bytes(len: usize) -> usize {
        len * std::mem::size_of::<AtomicU64>()
    }

    fn layout(len: usize) -> Layout {
        Layout::array::<AtomicU64>(len).expect("a table size that fits memory")
    }

    #[cfg(target_os = "linux")]
    fn zeroed(len: usize) -> Words {
        let private = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
        // A fresh private anonymous mapping: its pages read as zero.
        Self::map(len, private, -1, 0).unwrap_or_else(|_| handle_alloc_error(Self::layout(len)))
    }

    /// `len` words of `file` from byte `offset` (a multiple of the page size), mapped shared.
    #[cfg(target_os = "linux")]
    fn mapped(file: &std::fs::File, offset: usize, len: usize) -> std::io::Result<Words> {
        use std::os::fd::AsRawFd;
        let offset = libc::off_t::try_from(offset).map_err(std::io::Error::other)?;
        Self::map(len, libc::MAP_SHARED, file.as_raw_fd(), offset)
    }

    /// `len` words mapped with `flags` from `fd` at `offset`, on huge pages where the system
    /// allows.
    #[cfg(target_os = "linux")]
    fn map(len: usize, flags: i32, fd: i32, offset: libc::off_t) -> std::io::Result<Words> {
        let bytes = Self::bytes(len);
        // SAFETY: a new mapping, checked below; a file's outlives its descriptor.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                flags,
                fd,
                offset,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: the range is this mapping; the advice changes no contents.
        unsafe { libc::madvise(raw, bytes, libc::MADV_HUGEPAGE) };
        Ok(Words {
            ptr: std::ptr::NonNull::new(raw as *mut AtomicU64).expect("mmap never maps page 0"),
            len,
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn zeroed(len: usize) -> Words {
        let layout = Self::layout(len);
        // SAFETY: the layout has a non-zero size; zeroed memory is valid for atomics.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw as *mut AtomicU64) else {
            handle_alloc_error(layout)
        };
        Words { ptr, len }
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` holds `len` initialised atomics for the life of `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        let raw = self.ptr.as_ptr();
        #[cfg(target_os = "linux")]
        // SAFETY: mapped in `map` with this length.
        unsafe {
            libc::munmap(raw as *mut libc::c_void, Self::bytes(self.len))
        };
        #[cfg(not(target_os = "linux"))]
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe {
            std::alloc::dealloc(raw as *mut u8, Self::layout(self.len))
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_keeps_what_it_stores() {
        let t = Table::new(1);
        let e = Entry {
            score: Score(-7),
            best: Some(12),
            depth: 5,
            bound: Bound::Lower,
            cost: 0,
        };
        t.store(TableSection::Main, 42, e);
        assert_eq!(t.probe(TableSection::Main, 42), Some(e));
        assert_eq!(t.probe(TableSection::Main, 43), None);
    }

    #[test]
    fn the_parts_keep_their_positions_apart() {
        let t = Table::new(1);
        let e = solved(9);
        t.store(TableSection::NearEnd, 42, e);
        assert_eq!(t.probe(TableSection::NearEnd, 42), Some(e));
        assert_eq!(t.probe(TableSection::Main, 42), None);
        // The main part's bucket of the same key keeps its own entry.
        t.store(TableSection::Main, 42, solved(20));
        assert_eq!(t.probe(TableSection::NearEnd, 42), Some(e));
        assert_eq!(t.probe(TableSection::Main, 42), Some(solved(20)));
        // A sixteenth of the main part, at least 1024 slots.
        for megabytes in [1, 64] {
            let t = Table::new(megabytes);
            assert_eq!(16 * (t.near_end.full + 1), t.main.full + 1);
        }
        assert_eq!(Table::new(0).near_end.full + 1, 1024);
    }

    #[test]
    fn a_table_grows_with_its_stores_and_keeps_them() {
        let t = Table::new(8);
        let full = t.main.full;
        let slots = full as u64 + 1;
        assert_eq!(t.main.mask.load(Relaxed) + 1, FIRST_SLOTS);
        // Each key below the slots in use when it is stored, so that none shares a bucket (and
        // none is 0, the key an empty slot reads back under the first salt).
        let key = |i: u64| 2 * i;
        let mut last = t.main.mask.load(Relaxed);
        for i in 1..slots / 2 {
            t.store(TableSection::Main, key(i), solved(i as u8 % 60));
            let mask = t.main.mask.load(Relaxed);
            assert!(mask == last || mask == 2 * last + 1, "{mask} after {last}");
            assert!(
                key(i) as usize <= mask,
                "key {} beyond the slots in use",
                key(i)
            );
            last = mask;
        }
        assert_eq!(last, full, "grown to the whole table");
        for i in 1..slots / 2 {
            assert_eq!(
                t.probe(TableSection::Main, key(i)),
                Some(solved(i as u8 % 60)),
                "key {i}"
            );
        }
        // The other part grows with its own stores only.
        assert_eq!(
            t.near_end.mask.load(Relaxed) + 1,
            FIRST_SLOTS.min(t.near_end.full + 1)
        );
    }

    #[test]
    fn threads_storing_while_it_grows_never_read_back_a_wrong_entry() {
        let t = Table::new(4);
        let slots = t.main.full as u64 + 1;
        // Scores name their keys; the keys crowd the buckets, so that slots are replaced,
        // moved and torn while the table grows.
        let entry = |key: u64| Entry {
            score: Score((key % 1000) as i32),
            best: Some((key % 64) as usize),
            depth: 3,
            bound: Bound::Exact,
            cost: 0,
        };
        std::thread::scope(|s| {
            for thread in 0..4 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..2 * slots {
                        let key = 4 * i + thread + 1;
                        t.store(TableSection::Main, key, entry(key));
                        if let Some(found) = t.probe(TableSection::Main, key / 2) {
                            assert_eq!(found, entry(key / 2));
                        }
                    }
                });
            }
        });
        assert_eq!(
            t.main.mask.load(Relaxed),
            t.main.full,
            "grown to the whole table"
        );
        let mut kept = 0;
        for key in 1..=8 * slots {
            if let Some(found) = t.probe(TableSection::Main, key) {
                assert_eq!(found, entry(key), "key {key}");
                kept += 1;
            }
        }
        assert!(
            kept > slots / 2,
            "only {kept} of {slots} slots hold an entry"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn tables_in_one_file_share_their_entries() {
        let path = std::env::temp_dir().join(format!("othello-table-{}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        let _ = std::fs::remove_file(&path);
        // Two mappings of one file, as two processes would have.
        let (a, b) = (
            Table::in_file(2, &file).unwrap(),
            Table::in_file(2, &file).unwrap(),
        );
        for key in [42, 1 << 40, u64::MAX / 3] {
            a.store(TableSection::Main, key, solved(9));
            b.store(TableSection::NearEnd, key, solved(4));
            assert_eq!(b.probe(TableSection::Main, key), Some(solved(9)));
            assert_eq!(a.probe(TableSection::NearEnd, key), Some(solved(4)));
        }
        assert_eq!(a.probe(TableSection::Main, 43), None);
        assert_eq!(file.metadata().unwrap().len(), (2 << 20) + (2 << 20) / 16);
    }

    fn solved(cost: u8) -> Entry {
        Entry {
            score: Score(3),
            best: None,
            depth: SOLVED,
            bound: Bound::Exact,
            cost,
        }
    }

    #[test]
    fn a_full_bucket_keeps_the_costlier_solve() {
        let t = Table::new(1);
        // Keys that differ above the table's mask share a bucket.
        let key = |i: u64| (i << 40) | 6;
        t.store(TableSection::Main, key(1), solved(5));
        t.store(TableSection::Main, key(2), solved(30));
        assert_eq!(t.probe(TableSection::Main, key(2)), Some(solved(30)));
        for i in 3..10 {
            t.store(TableSection::Main, key(i), solved(4 + i as u8));
            assert_eq!(
                t.probe(TableSection::Main, key(i)),
                Some(solved(4 + i as u8))
            );
            assert_eq!(
                t.probe(TableSection::Main, key(2)),
                Some(solved(30)),
                "after {i}"
            );
        }
        assert_eq!(t.probe(TableSection::Main, key(1)), None);
        // Costs past what a slot holds are kept as the most it holds.
        t.store(TableSection::Main, key(11), solved(200));
        assert_eq!(
            t.probe(TableSection::Main, key(11)).map(|e| e.cost),
            Some(63)
        );
    }

    #[test]
    fn a_deep_search_is_never_read_back_as_solved() {
        let t = Table::new(1);
        let deep = Entry {
            score: Score(10),
            best: Some(3),
            depth: 250,
            bound: Bound::Lower,
            cost: 0,
        };
        t.store(TableSection::Main, 7, deep);
        assert_eq!(
            t.probe(TableSection::Main, 7),
            Some(Entry {
                depth: MAX_DEPTH,
                ..deep
            })
        );
    }
}
