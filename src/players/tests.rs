use super::*;
use std::time::Duration;

#[test]
fn specs_parse_and_print() {
    assert_eq!("random".parse(), Ok(PlayerSpec::Random));
    let spec: PlayerSpec = "depth=6,hash=8".parse().unwrap();
    assert_eq!(spec.to_string(), "depth=6,hash=8");
    let spec: PlayerSpec = "time=50ms,seed=3".parse().unwrap();
    assert_eq!(spec.to_string(), "time=50ms,hash=16,seed=3");
    assert!("depth=x".parse::<PlayerSpec>().is_err());
    assert!("speed=3".parse::<PlayerSpec>().is_err());
}

#[test]
fn durations() {
    assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
    assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
    assert_eq!(parse_duration("40"), Ok(Duration::from_millis(40)));
    assert!(parse_duration("0ms").is_err());
    assert!(parse_duration("3 parsecs").is_err());
    assert!(parse_duration("").is_err());
}
