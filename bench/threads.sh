#!/usr/bin/env bash
# Thread scaling and the big solves: wall-clock times of our solver and search with 1, 2, 4, ...
# threads up to every core, then the all-core runs the engine-speed targets name (FFO #40-#59, the
# 6x6 start). Prints one table; the runs' own output goes to target/threads/.
#   bench/threads.sh         environment: OTHELLO (our binary, already built: skips cargo),
#                            DATA (tests/data/fforum-40-59.obf), SCALING_LINES (1-5),
#                            MAX_THREADS (nproc), THREAD_COUNTS (1 2 4 ... MAX_THREADS),
#                            HASH_MB (1024), SKIP (space-separated: scaling bench ffo 6x6)
# The script works from the repository root whatever the caller's directory: DATA, when
# relative, is taken from there, and the default is the copy of FFO #40-#59 in tests/data/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DATA=${DATA:-tests/data/fforum-40-59.obf}
SCALING_LINES=${SCALING_LINES:-1-5}
MAX_THREADS=${MAX_THREADS:-$(nproc)}
HASH_MB=${HASH_MB:-1024}
SKIP=" ${SKIP:-} "
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
case $TARGET in /*) ;; *) TARGET=$ROOT/$TARGET ;; esac
OUT=$TARGET/threads
mkdir -p "$OUT"

if [ -n "${OTHELLO:-}" ]; then
    OURS=$OTHELLO
else
    cargo build --release --quiet
    OURS=$TARGET/release/othello
fi
[ -f "$DATA" ] || { echo "SKIPPED: no FFO file at $DATA (set DATA)"; exit 0; }

counts=()
if [ -n "${THREAD_COUNTS:-}" ]; then
    read -r -a counts <<<"$THREAD_COUNTS"
else
    for ((n = 1; n < MAX_THREADS; n *= 2)); do counts+=("$n"); done
    counts+=("$MAX_THREADS")
fi

# Runs a command, its output to $1; sets WALL to its wall-clock seconds.
run_timed() {
    local out=$1 status=0 TIMEFORMAT='%3R'
    shift
    { time "$@" >"$out" 2>&1 || status=$?; } 2>"$out.time"
    if [ "$status" -ne 0 ]; then tail -5 "$out" >&2; echo "threads.sh: failed ($status): $*" >&2; exit 1; fi
    WALL=$(cat "$out.time")
}
# The "N positions, ..., K nodes" summary line of `solve --file`.
nodes_of() { awk '/^# .* positions/ {for (i = 1; i < NF; i++) if ($(i + 1) ~ /^nodes,?$/) print $i}' "$1"; }
agree_of() { sed -n 's/^# [0-9]* positions, \([0-9]* of [0-9]*\) agree.*/\1/p' "$1"; }

echo "# othello $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); hash $HASH_MB MB"
printf '%-28s %8s %10s %8s %16s %s\n' work threads "wall s" speedup nodes note

if [[ $SKIP != *" scaling "* ]]; then
    case $SCALING_LINES in *-*) first=${SCALING_LINES%-*} last=${SCALING_LINES#*-} ;; *) first=$SCALING_LINES last=$SCALING_LINES ;; esac
    sed -n "${first},${last}p" "$DATA" >"$OUT/scaling.obf"
    base=
    for n in "${counts[@]}"; do
        run_timed "$OUT/scaling-$n.out" "$OURS" solve --file "$OUT/scaling.obf" --threads "$n" --hash-mb "$HASH_MB"
        base=${base:-$WALL}
        printf '%-28s %8s %10s %8.2f %16s %s\n' "solve $(basename "$DATA") $SCALING_LINES" "$n" "$WALL" \
            "$(awk -v a="$base" -v b="$WALL" 'BEGIN {print a / b}')" "$(nodes_of "$OUT/scaling-$n.out")" "$(agree_of "$OUT/scaling-$n.out") agree"
    done
fi
if [[ $SKIP != *" bench "* ]]; then
    for n in "${counts[@]}"; do
        run_timed "$OUT/bench-$n.out" "$OURS" bench --threads "$n"
        rate=$(sed -n 's/.* \([0-9]*\) knodes\/s.*/\1/p' "$OUT/bench-$n.out")
        printf '%-28s %8s %10s %8s %16s %s\n' "bench" "$n" "$WALL" - - "$rate knodes/s"
    done
fi
if [[ $SKIP != *" ffo "* ]]; then
    run_timed "$OUT/ffo-all.out" "$OURS" solve --file "$DATA" --threads "$MAX_THREADS" --hash-mb "$HASH_MB"
    printf '%-28s %8s %10s %8s %16s %s\n' "solve $(basename "$DATA")" "$MAX_THREADS" "$WALL" - \
        "$(nodes_of "$OUT/ffo-all.out")" "$(agree_of "$OUT/ffo-all.out") agree"
fi
if [[ $SKIP != *" 6x6 "* ]]; then
    run_timed "$OUT/6x6.out" "$OURS" solve --rows 6 --cols 6 --threads "$MAX_THREADS" --hash-mb "$HASH_MB"
    printf '%-28s %8s %10s %8s %16s %s\n' "solve 6x6 start" "$MAX_THREADS" "$WALL" - \
        "$(sed -n 's/^Nodes: \([0-9]*\) in.*/\1/p' "$OUT/6x6.out")" "$(grep -m1 'to move' "$OUT/6x6.out")"
fi
echo "# wall s: elapsed seconds of the whole process; speedup: against the first row of its work"
