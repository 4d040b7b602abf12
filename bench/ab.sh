#!/usr/bin/env bash
# Compares builds of our solver on the same FFO lines: each binary in turn (A, B, A, B, ...)
# for ROUNDS rounds, so that a noisy or warming machine weighs on each alike. Prints each run's
# wall seconds and nodes, then per binary the median of the runs and each position's median.
#   bench/ab.sh BINARY BINARY...   environment: DATA (tests/data/fforum-40-59.obf),
#                                  LINES (sed lines of DATA, say 14,18,19; default all),
#                                  ROUNDS (3), THREADS (nproc), HASH_MB (1024)
# Node counts repeat exactly with THREADS=1 only. Each run's output is kept in target/ab/ (in
# $CARGO_TARGET_DIR/ab/ when that is set, so that a run on another machine can write them where
# they are collected even when it is stopped partway).
# The script works from the repository root whatever the caller's directory: DATA, when
# relative, is taken from there, and the default is the copy of FFO #40-#59 in tests/data/.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/ab.sh BINARY BINARY... (see the comment at its top)" >&2; exit 2; }
bins=()
for b in "$@"; do
    [ -x "$b" ] || { echo "ab.sh: not an executable: $b" >&2; exit 2; }
    bins+=("$(realpath "$b")")
done
cd "$(dirname "$0")/.."
DATA=${DATA:-tests/data/fforum-40-59.obf}
LINES=${LINES:-}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-$(nproc)}
HASH_MB=${HASH_MB:-1024}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=$TARGET/ab
mkdir -p "$OUT"
[ -f "$DATA" ] || { echo "SKIPPED: no FFO file at $DATA (set DATA)"; exit 0; }
if [ -n "$LINES" ]; then
    # "1-13,18" -> "1,13p;18p;"
    script=""
    IFS=, read -r -a items <<<"$LINES"
    for item in "${items[@]}"; do script+="${item/-/,}p;"; done
    sed -n "$script" "$DATA" >"$OUT/lines.obf"
else
    cp "$DATA" "$OUT/lines.obf"
fi
# "NODES WALL" from the "# N positions, K of N agree with the file, NODES nodes, S s, R nodes/s"
# line of a run's output.
totals_of() {
    awk '/^# .* positions,/ {for (i = 1; i < NF; i++) {if ($(i + 1) ~ /^nodes,?$/) n = $i; if ($(i + 1) ~ /^s,?$/) s = $i}; print n, s}' "$1"
}
positions=$(grep -cv '^\s*\(#\|$\)' "$OUT/lines.obf" || true)
[ "$positions" -gt 0 ] || { echo "ab.sh: no positions in lines '$LINES' of $DATA" >&2; exit 2; }

echo "# $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); $positions positions; threads $THREADS, hash $HASH_MB MB, $ROUNDS rounds"
printf '%-8s %5s %10s %14s  %s\n' binary round "wall s" nodes path
for ((r = 1; r <= ROUNDS; r++)); do
    for i in "${!bins[@]}"; do
        out=$OUT/$i-$r.out
        "${bins[$i]}" solve --file "$OUT/lines.obf" --threads "$THREADS" --hash-mb "$HASH_MB" >"$out" 2>&1 || {
            tail -5 "$out" >&2
            echo "ab.sh: ${bins[$i]} failed" >&2
            exit 1
        }
        grep -q "$positions of $positions agree" "$out" || echo "WARNING: $(basename "$out"): not every score agrees with the file"
        read -r nodes wall < <(totals_of "$out")
        printf '%-8s %5s %10s %14s  %s\n' "$((i + 1))" "$r" "$wall" "$nodes" "${bins[$i]}"
    done
done

median() { sort -n | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "# medians over the rounds: wall seconds of the whole set, then of each position in turn"
for i in "${!bins[@]}"; do
    total=$(for ((r = 1; r <= ROUNDS; r++)); do
        totals_of "$OUT/$i-$r.out" | cut -d' ' -f2
    done | median)
    each=""
    for ((p = 1; p <= positions; p++)); do
        each+=" $(for ((r = 1; r <= ROUNDS; r++)); do
            awk -v p="$p" '!/^#/ && $1 == p {print $NF}' "$OUT/$i-$r.out"
        done | median)"
    done
    printf '%-8s %10s |%s\n' "$((i + 1))" "$total" "$each"
done
