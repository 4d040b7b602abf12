//! Edax's book files: what reads writes back as the same bytes (but for the date's padding byte,
//! which is not kept), and a book that passes the check finds each of its positions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::opening::book::edax;

fuzz_target!(|data: &[u8]| {
    let Ok(book) = edax::read(data) else {
        return;
    };
    let mut written = edax::write(&book);
    written[17] = data[17];
    assert!(written == data, "written bytes differ from those read");
    if book.check().is_ok() {
        for p in &book.positions {
            let (found, s) = book
                .probe(p.player, p.opponent)
                .expect("a position is found");
            assert_eq!((found, s), (p, 0));
        }
    }
});
