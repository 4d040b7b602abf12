#!/bin/sh
# Two engines at equal time a move, through `othello match` over the 8x8 openings file (each
# opening with both colours): a lever of strength measured alone, the engine with it against
# the engine without it.
#   bench/versus.sh GAMES MOVE_TIME "A's engine options" "B's engine options"
#   bench/versus.sh 100 100ms "" "--probcut off"        # selective search against none
# Environment: A_BIN, B_BIN (the binaries; default: `cargo build --release`'s, so that a
# build from before a change plays the one after it), JOBS (games at a time, default 1: more
# than the free cores and the clocks lie), GAMES_OUT (target/versus-games.txt).
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 4 ] || { echo "usage: bench/versus.sh GAMES MOVE_TIME A_OPTIONS B_OPTIONS" >&2; exit 2; }
GAMES=$1
MOVE_TIME=$2
if [ -z "${A_BIN:-}" ] || [ -z "${B_BIN:-}" ]; then
    cargo build --release --quiet
fi
A_BIN=${A_BIN:-target/release/othello}
B_BIN=${B_BIN:-target/release/othello}
echo "othello $(git rev-parse --short HEAD 2>/dev/null || echo '?'): A ($A_BIN engine $3) against B ($B_BIN engine $4), $MOVE_TIME a move, $GAMES games"
# shellcheck disable=SC2086
"$A_BIN" match --openings openings/8x8.txt \
    --a "$A_BIN engine --move-time $MOVE_TIME $3" --a-name A \
    --b "$B_BIN engine --move-time $MOVE_TIME $4" --b-name B \
    --move-time "$MOVE_TIME" --games "$GAMES" --jobs "${JOBS:-1}" \
    --games-out "${GAMES_OUT:-target/versus-games.txt}"
echo "games written to ${GAMES_OUT:-target/versus-games.txt}"
