#!/bin/sh
# Our engine against gtp-rhino (Debian's grhino) through `othello match`.
#   bench/rhino.sh [GAMES] [MOVE_TIME] [LEVEL]      defaults: 50 100ms 5
# Installs grhino with apt-get when it is missing (root only); skips with a message when that
# cannot be done. gtp-rhino has no time control, so it gets RHINO_TIME a move (default 600s, more
# than level 5 ever took here); our engine gets
# MOVE_TIME, enforced by the referee. Rhino runs under `nice` (RHINO_NICE, default 19): it has no
# clock, so when games run side by side (JOBS) the engine on the clock gets the CPU first. Openings: $OPENINGS (default openings/8x8.txt), each
# played with both colours; JOBS games at a time (default 1; at most the number of free cores).
# WEIGHTS=FILE plays our engine with those learned weights (`othello --weights FILE engine`);
# OTHELLO=BINARY plays a binary already built (a copy, so that a rebuild cannot change it mid-match).
set -eu
cd "$(dirname "$0")/.."
GAMES=${1:-50}
MOVE_TIME=${2:-100ms}
LEVEL=${3:-5}
RHINO=$(command -v gtp-rhino || echo /usr/games/gtp-rhino)
if [ ! -x "$RHINO" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing grhino (apt-get)..." >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq grhino) >&2 ||
            { echo "SKIPPED: grhino could not be installed" >&2; exit 0; }
    else
        echo "SKIPPED: gtp-rhino is not installed and apt-get cannot be run here" >&2
        exit 0
    fi
fi
if [ -z "${OTHELLO:-}" ]; then
    cargo build --release --quiet
    OTHELLO=target/release/othello
fi
NICE=
if command -v nice >/dev/null; then NICE="nice -n ${RHINO_NICE:-19} "; fi
ENGINE="$OTHELLO engine"
if [ -n "${WEIGHTS:-}" ]; then
    ENGINE="$OTHELLO --weights $WEIGHTS engine"
fi
OUT=${GAMES_OUT:-target/rhino-games.txt}
echo "othello $(git rev-parse --short HEAD 2>/dev/null || echo '?') at $MOVE_TIME vs gtp-rhino -l $LEVEL, $GAMES games"
"$OTHELLO" match \
    --a "$ENGINE --move-time $MOVE_TIME" --a-name othello --a-move-time "$MOVE_TIME" \
    --b "$NICE$RHINO -l $LEVEL" --b-protocol gtp --b-name rhino$LEVEL --b-move-time "${RHINO_TIME:-600s}" \
    --games "$GAMES" --openings "${OPENINGS:-openings/8x8.txt}" --jobs "${JOBS:-1}" --games-out "$OUT"
echo "games written to $OUT"
