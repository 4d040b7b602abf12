//! Stopping a long solve by a signal (Ctrl-C, or SIGTERM from a job runner) so that its work
//! is kept: the search stops as at its time limit, the journal and the cache record the run,
//! and a second signal ends the program at once.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// Which signal asked the program to stop, once one has. The default listens to none and is
/// never raised.
#[derive(Clone, Default)]
pub struct Interrupt {
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Listens to SIGINT and SIGTERM from now on: the first raises this, a second one does
    /// what the signal does by default (ends the program).
    pub fn on_signals() -> io::Result<Interrupt> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        use signal_hook::flag;
        let interrupt = Interrupt::default();
        let raised = Arc::new(AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM] {
            // The handlers run in this order: the default action only sees a flag that an
            // earlier signal set.
            flag::register_conditional_default(signal, Arc::clone(&raised))?;
            flag::register(signal, Arc::clone(&raised))?;
            flag::register_usize(signal, Arc::clone(&interrupt.signal), signal as usize)?;
        }
        Ok(interrupt)
    }

    /// The signal that asked to stop, if one has.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Relaxed) {
            0 => None,
            n => Some(n as i32),
        }
    }

    /// Raises it as `signal` would (for tests, and for callers stopping a solve themselves).
    pub fn raise(&self, signal: i32) {
        self.signal.store(signal as usize, Relaxed);
    }
}

impl std::fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Interrupt").field(&self.signal()).finish()
    }
}

/// Two handles are equal when they are raised by the same signals.
impl PartialEq for Interrupt {
    fn eq(&self, other: &Interrupt) -> bool {
        Arc::ptr_eq(&self.signal, &other.signal)
    }
}

impl Eq for Interrupt {}

/// A command stopped by a signal before it finished, its work kept.
#[derive(Debug, thiserror::Error)]
#[error("stopped by {}; the work done so far is kept", signal_name(*.signal))]
pub struct Stopped {
    pub signal: i32,
}

/// `SIGINT`, `SIGTERM`, ...: a signal's usual name.
pub fn signal_name(signal: i32) -> String {
    signal_hook::low_level::signal_name(signal).map_or(format!("signal {signal}"), str::to_string)
}
