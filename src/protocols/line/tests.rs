use super::*;

fn session(options: Options, input: &[u8]) -> (Result<Ending, RunError>, String) {
    let mut out = Vec::new();
    let result = run(options, input, &mut out);
    (result, String::from_utf8(out).unwrap())
}

#[test]
fn the_specification_example_opening_moves() {
    let (result, out) = session(Options::default(), b"4\n4\nB\nB\n>\n2 4\n1 2\n1 4\n");
    assert!(matches!(result, Ok(Ending::InputEnded)));
    let want = "FULL\nB: 2  W: 2\n. . . .\n. B W .\n. W B .\n. . . .\nTURN: B\nVALID\n\
                B: 4  W: 1\n. . . .\n. B B B\n. W B .\n. . . .\nTURN: W\nVALID\n\
                B: 3  W: 3\n. W . .\n. W B B\n. W B .\n. . . .\nTURN: B\nINVALID\n";
    assert_eq!(out, want);
}

#[test]
fn simple_greeting_and_header_error_print_nothing_else() {
    let options = Options {
        rule_set: RuleSet::Simple,
        place_anywhere: false,
        computer: None,
    };
    let (result, out) = session(options, b"4\n4\nQ\n");
    assert_eq!(out, "SIMPLE\n");
    match result {
        Err(RunError::Header(HeaderError::Invalid(HeaderField::FirstPlayer, got))) => {
            assert_eq!(got, "\"Q\"")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn input_ending_in_the_header_names_the_awaited_line() {
    let (result, out) = session(Options::default(), b"4\n4\n");
    assert_eq!(out, "FULL\n");
    assert!(matches!(
        result,
        Err(RunError::Header(HeaderError::Ended(
            HeaderField::FirstPlayer
        )))
    ));
}

#[test]
fn bad_move_lines_are_invalid_and_the_game_goes_on() {
    let mut input =
        b"4\n4\nB\nB\n>\n\n2\n2 4 1\nb 2\n0 0\n99999999999999999999 1\n-1 2\n+2 4\n".to_vec();
    input.extend(vec![b'1'; 5000]);
    input.extend(b"\n\xff\xfe\n 2\t4 \r\n");
    let (result, out) = session(Options::default(), &input);
    assert!(matches!(result, Ok(Ending::InputEnded)));
    let replies: Vec<&str> = out
        .lines()
        .filter(|l| *l == "VALID" || *l == "INVALID")
        .collect();
    assert_eq!(replies, [vec!["INVALID"; 10], vec!["VALID"]].concat());
}

#[test]
fn game_over_prints_the_winner_and_stops_reading() {
    // 3x3, place-anywhere: five empty cells, then the board is full.
    let options = Options {
        rule_set: RuleSet::Full,
        place_anywhere: true,
        computer: None,
    };
    let (result, out) = session(
        options,
        b"3\n3\nB\nW\n<\n3 3\n1 3\n3 1\n2 3\n3 2\nnot read\n",
    );
    assert!(matches!(result, Ok(Ending::Finished)));
    assert!(
        out.ends_with("WINNER: B\n") || out.ends_with("WINNER: W\n"),
        "{out}"
    );
    assert!(!out.contains("not read"));
    assert_eq!(out.matches("VALID").count(), 5);
}

#[test]
fn a_closed_output_is_an_io_error_not_a_panic() {
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let result = run(Options::default(), &b"4\n4\nB\nB\n>\n"[..], Closed);
    assert!(matches!(result, Err(RunError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe));
}

#[test]
fn move_lines_parse_two_unsigned_integers_only() {
    assert_eq!(MoveLine::parse(" 3  4 "), Some(MoveLine { row: 3, col: 4 }));
    for bad in [
        "", "3", "3 4 5", "3,4", "+3 4", "-3 4", "3 x", "٣ 4", "3\u{a0}4",
    ] {
        assert_eq!(MoveLine::parse(bad), None, "{bad:?}");
    }
    assert_eq!(MoveLine { row: 0, col: 1 }.square(), None);
    assert_eq!(MoveLine { row: 300, col: 1 }.square(), None);
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    fn valid_header() -> impl Strategy<Value = Vec<Vec<u8>>> {
        let color = prop::sample::select(vec!["B", "W"]);
        (
            3u8..=26,
            3u8..=26,
            color.clone(),
            color,
            prop::sample::select(vec![">", "<"]),
        )
            .prop_map(|(r, c, first, top_left, win)| {
                let lines = [
                    r.to_string(),
                    c.to_string(),
                    first.into(),
                    top_left.into(),
                    win.into(),
                ];
                lines.into_iter().map(String::into_bytes).collect()
            })
    }

    fn header_line() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            (3u8..=26).prop_map(|n| n.to_string().into_bytes()),
            (3u8..=26).prop_map(|n| n.to_string().into_bytes()),
            prop::sample::select(vec!["B", "W", "b", " w ", ">", "<", "", "0", "27", "x"])
                .prop_map(|s| s.as_bytes().to_vec()),
            prop::collection::vec(any::<u8>(), 0..12),
        ]
    }

    fn move_line() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            4 => (0usize..30, 0usize..30).prop_map(|(r, c)| format!("{r} {c}").into_bytes()),
            1 => prop::collection::vec(any::<u8>(), 0..12),
            1 => "[0-9 \\t]{0,12}".prop_map(String::into_bytes),
        ]
    }

    fn is_protocol_line(line: &str) -> bool {
        let cells = |l: &str| l.split(' ').all(|c| matches!(c, "B" | "W" | "."));
        matches!(
            line,
            "FULL" | "SIMPLE" | "VALID" | "INVALID" | "TURN: B" | "TURN: W"
        ) || line.starts_with("WINNER: ")
            || (line.starts_with("B: ") && line.contains("  W: "))
            || cells(line)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn any_input_gives_protocol_lines_or_a_header_error(
            header in prop_oneof![valid_header(), prop::collection::vec(header_line(), 0..6)],
            moves in prop::collection::vec(move_line(), 0..120),
            simple in any::<bool>(),
            anywhere in any::<bool>(),
        ) {
            let mut input = Vec::new();
            for line in header.iter().chain(&moves) {
                input.extend(line);
                input.push(b'\n');
            }
            let rule_set = if simple { RuleSet::Simple } else { RuleSet::Full };
            let options = Options { rule_set, place_anywhere: anywhere, computer: None };
            let mut out = Vec::new();
            let result = run(options, &input[..], &mut out);
            let out = String::from_utf8(out).unwrap();
            match result {
                Err(RunError::Header(_)) => prop_assert_eq!(out.lines().count(), 1),
                Err(RunError::Io(e)) => prop_assert!(false, "{}", e),
                Ok(_) => {
                    for line in out.lines() {
                        prop_assert!(is_protocol_line(line), "{:?}", line);
                    }
                }
            }
        }
    }
}
