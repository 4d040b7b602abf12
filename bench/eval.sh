#!/bin/sh
# The learned evaluation against the classic one at equal time, through `othello match` over
# the openings file (each opening with both colours).
#   bench/eval.sh [GAMES] [MOVE_TIME]      defaults: 160 50ms
# Both sides are `othello engine --move-time MOVE_TIME`, one with `--eval classic`. WEIGHTS=FILE
# plays the learned side with those weights instead of the built-in ones; ROWS, COLS, RULES
# (full|simple), MISERE=1 and OPENINGS choose another game (the default openings are 8x8).
# JOBS games at a time (default 1; at most the number of free cores).
set -eu
cd "$(dirname "$0")/.."
GAMES=${1:-160}
MOVE_TIME=${2:-50ms}
cargo build --release --quiet
OTHELLO=target/release/othello
GAME="--rows ${ROWS:-8} --cols ${COLS:-8} --rules ${RULES:-full}"
if [ "${MISERE:-0}" = 1 ]; then
    GAME="$GAME --misere"
fi
LEARNED="$OTHELLO"
if [ -n "${WEIGHTS:-}" ]; then
    LEARNED="$OTHELLO --weights $WEIGHTS"
fi
OPENING_ARGS=""
if [ -n "${OPENINGS:-}" ] || [ "${ROWS:-8}x${COLS:-8}" = 8x8 ]; then
    OPENING_ARGS="--openings ${OPENINGS:-openings/8x8.txt}"
fi
echo "othello $(git rev-parse --short HEAD 2>/dev/null || echo '?'): learned against classic, $MOVE_TIME a move, $GAMES games ($GAME)"
# shellcheck disable=SC2086
"$OTHELLO" match $GAME $OPENING_ARGS \
    --a "$LEARNED engine $GAME --move-time $MOVE_TIME" --a-name learned \
    --b "$OTHELLO --eval classic engine $GAME --move-time $MOVE_TIME" --b-name classic \
    --move-time "$MOVE_TIME" --games "$GAMES" --jobs "${JOBS:-1}" \
    --games-out "${GAMES_OUT:-target/eval-games.txt}"
echo "games written to ${GAMES_OUT:-target/eval-games.txt}"
