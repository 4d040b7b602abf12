//! Durations as the command line and the files write them: read in humantime's syntax,
//! written back in the largest whole unit.

use std::time::Duration;

/// A duration in humantime's syntax, such as `250ms`, `1.5s`, `2m`, `1h` or `1h 30m`, from 1ms
/// to a day. A bare number is refused: whether `2` meant seconds or milliseconds is a guess, and
/// a wrong guess plays a game in 2 ms.
pub fn parse(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(format!(
            "{text:?} needs a unit: write {text}s for seconds or {text}ms for milliseconds"
        ));
    }
    let duration = humantime::parse_duration(text)
        .map_err(|e| format!("{text:?} is not a duration such as 500ms or 2s ({e})"))?;
    if duration < Duration::from_millis(1) || duration > Duration::from_secs(86_400) {
        return Err(format!("{text:?} is not a time from 1ms to a day"));
    }
    Ok(duration)
}

/// `1h`, `10m`, `90s` or `250ms`: as `--limit` reads it.
pub fn text(d: Duration) -> String {
    let ms = d.as_millis();
    match ms {
        0 => "0s".to_string(),
        _ if ms.is_multiple_of(3_600_000) => format!("{}h", ms / 3_600_000),
        _ if ms.is_multiple_of(60_000) => format!("{}m", ms / 60_000),
        _ if ms.is_multiple_of(1000) => format!("{}s", ms / 1000),
        _ => format!("{ms}ms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humantime_spans_from_a_millisecond_to_a_day() {
        assert_eq!(parse("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse("1ms"), Ok(Duration::from_millis(1)));
        assert_eq!(parse("24h"), Ok(Duration::from_secs(86_400)));
        assert!(parse("100us").is_err());
        assert!(parse("25h").is_err());
        assert!(parse("0ms").is_err());
        assert!(parse("3 parsecs").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn a_duration_is_written_in_its_largest_whole_unit_and_reads_back() {
        for (d, written) in [
            (Duration::from_secs(3600), "1h"),
            (Duration::from_secs(600), "10m"),
            (Duration::from_secs(90), "90s"),
            (Duration::from_millis(1500), "1500ms"),
        ] {
            assert_eq!(text(d), written);
            assert_eq!(parse(written), Ok(d));
        }
    }
}
