#!/bin/sh
# Our engine against Zebra (Gunnar Andersson's engine, with its real evaluation) through
# `othello match`, one thread each.
#   bench/zebra.sh [GAMES] [MOVE_TIME] [DEPTH/EXACT/WLD]     defaults: 32 1s 19/20/22
# Zebra has no time control, only levels: a midgame depth and the empty cells from which it
# solves exactly and for win/loss/draw. Equal time a move is found by choosing the level whose
# mean move (printed by the match) is ours; Zebra gets ZEBRA_TIME a move (default 120s) before
# the referee calls it a forfeit. It is built outside the repository by bench/zebra-build.sh
# (skipped, with the reason, when its source cannot be had), and driven by bench/zebra_gtp.py,
# which runs one Zebra process a move.
# Environment: OTHELLO (a binary already built), OURS (more engine options, e.g. "--time 60s"
# for a game clock in place of MOVE_TIME), OPENINGS (openings/8x8.txt, each with both colours),
# JOBS (games at a time, default 1: at most the free cores), GAMES_OUT (target/zebra-games.txt).
set -eu
cd "$(dirname "$0")/.."
GAMES=${1:-32}
MOVE_TIME=${2:-1s}
LEVEL=${3:-19/20/22}
IFS=/ read -r DEPTH EXACT WLD <<EOF_LEVEL
$LEVEL
EOF_LEVEL
status=0
ZEBRA_DIR=$(bench/zebra-build.sh) || status=$?
if [ "$status" -eq 3 ]; then
    echo "SKIPPED: Zebra could not be built (reason above)" >&2
    exit 0
elif [ "$status" -ne 0 ]; then
    exit "$status"
fi
if [ -z "${OTHELLO:-}" ]; then
    cargo build --release --quiet
    OTHELLO=target/release/othello
fi
if [ -n "${OURS:-}" ]; then
    ENGINE="$OTHELLO engine --threads 1 ${OURS}"
    LIMIT="--a-move-time ${ZEBRA_TIME:-120s}"
else
    ENGINE="$OTHELLO engine --threads 1 --move-time $MOVE_TIME"
    LIMIT="--a-move-time $MOVE_TIME"
fi
OUT=${GAMES_OUT:-target/zebra-games.txt}
echo "othello $(git rev-parse --short HEAD 2>/dev/null || echo '?') ($ENGINE) vs Zebra $DEPTH/$EXACT/$WLD, $GAMES games"
# shellcheck disable=SC2086
"$OTHELLO" match \
    --a "$ENGINE" --a-name othello $LIMIT \
    --b "python3 bench/zebra_gtp.py --zebra-dir $ZEBRA_DIR --depth $DEPTH --exact $EXACT --wld $WLD" \
    --b-protocol gtp --b-name zebra --b-move-time "${ZEBRA_TIME:-120s}" \
    --games "$GAMES" --openings "${OPENINGS:-openings/8x8.txt}" --jobs "${JOBS:-1}" --games-out "$OUT"
echo "games written to $OUT"
