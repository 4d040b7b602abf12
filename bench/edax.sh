#!/usr/bin/env bash
# Side-by-side CPU time of our engine and Edax 4.6 on the same work: perft from the 8x8 start and
# exact solves of FFO positions. Builds both; Edax runs with an all-zero evaluation file, since its
# real weights are not ours to ship (so its midgame ordering is blind, as a plain solver's would be).
#   bench/edax.sh            environment: REPS (1), THREADS (1), PERFT_DEPTH (12), FFO_LINES (1-5),
#                            DATA (tests/data/fforum-40-59.obf), HASH_MB (256),
#                            EDAX_SRC / EDAX_GIT / EDAX_REF (v4.6), EDAX_ARCH, EDAX_CC (gcc)
#                            OTHELLO (our binary, already built: skips cargo), EDAX_BIN (Edax,
#                            already built from EDAX_SRC: skips make), for machines without compilers
# Edax's source comes from $EDAX_SRC (a work tree), ../edax-reversi, or a bare git mirror
# ($EDAX_GIT, else /work/.mirror/*edax-reversi*); without one it prints SKIPPED and exits 0.
# Nothing of Edax goes into the repository: it is built and run under target/edax/.
# The script works from the repository root whatever the caller's directory: DATA, when
# relative, is taken from there, and the default is the copy of FFO #40-#59 in tests/data/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

REPS=${REPS:-1}
THREADS=${THREADS:-1}
PERFT_DEPTH=${PERFT_DEPTH:-12}
FFO_LINES=${FFO_LINES:-1-5}
DATA=${DATA:-tests/data/fforum-40-59.obf}
HASH_MB=${HASH_MB:-256}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
case $TARGET in /*) ;; *) TARGET=$ROOT/$TARGET ;; esac
EDAX_DIR=$TARGET/edax

skip() { echo "SKIPPED: $*"; exit 0; }
die() { echo "edax.sh: $*" >&2; exit 1; }

# --- Edax and its all-zero evaluation file, built by bench/edax-build.sh (into target/edax/) ------
mkdir -p "$TARGET"
status=0
BUILT=$(bench/edax-build.sh 2>"$EDAX_DIR.build.err") || status=$?
[ "$status" -ne 3 ] || skip "$(tail -1 "$EDAX_DIR.build.err")"
cat "$EDAX_DIR.build.err" >&2
[ "$status" -eq 0 ] || die "building Edax failed"
{ read -r EDAX; read -r EVAL; read -r EDAX_DESC; } <<<"$BUILT"
RUN=$EDAX_DIR/run
mkdir -p "$RUN/data"

[ -f "$DATA" ] || skip "no FFO file at $DATA (set DATA)"

case $FFO_LINES in
    *-*) FIRST=${FFO_LINES%-*} LAST=${FFO_LINES#*-} ;;
    *) FIRST=$FFO_LINES LAST=$FFO_LINES ;;
esac
[ "$FIRST" -ge 1 ] && [ "$LAST" -ge "$FIRST" ] || die "FFO_LINES must be N or A-B, not $FFO_LINES"

# --- our binary ----------------------------------------------------------------------------------
if [ -n "${OTHELLO:-}" ]; then
    OURS=$(cd "$(dirname "$OTHELLO")" && pwd)/$(basename "$OTHELLO")
else
    cargo build --release --quiet
    OURS=$TARGET/release/othello
fi
OUR_THREADS=()
# Only pass --threads where our solver has it; otherwise ours runs on one thread.
if "$OURS" solve --help | grep -q -- --threads; then OUR_THREADS=(--threads "$THREADS"); fi

: >"$RUN/data/book.dat"

# Edax's -h is log2 of the main table's entries; a 24-byte entry (hash.h: Board + HashData) plus
# the pv and shallow tables of 1/16 each (search.c) make 27 bytes an entry: largest fit in HASH_MB.
HBITS=10
while [ $((27 << (HBITS + 1))) -le $((HASH_MB << 20)) ] && [ "$HBITS" -lt 32 ]; do HBITS=$((HBITS + 1)); done

EDAX_OPTS=(-n "$THREADS" -h "$HBITS" -eval-file "$EVAL" -book-usage off)
sed -n "${FIRST},${LAST}p" "$DATA" >"$RUN/ffo.obf"
N_FFO=$(wc -l <"$RUN/ffo.obf")
[ "$N_FFO" -ge 1 ] || die "no lines $FFO_LINES in $DATA"
case $(basename "$DATA") in
    fforum-40-59.obf) FFO_NAME="FFO #$((FIRST + 39))"
        [ "$N_FFO" -eq 1 ] || FFO_NAME="$FFO_NAME-#$((FIRST + 38 + N_FFO))" ;;
    *) FFO_NAME="$(basename "$DATA") $FIRST-$((FIRST + N_FFO - 1))" ;;
esac
echo "perft $PERFT_DEPTH" >"$RUN/perft.in"
echo "perft 1" >"$RUN/perft1.in"

# Runs a command, its output to $1; sets CPU to its user+sys seconds (children included).
run_timed() {
    local out=$1 status=0 TIMEFORMAT='%3U %3S'
    shift
    { time "$@" >"$out" 2>&1 || status=$?; } 2>"$out.time"
    if [ "$status" -ne 0 ]; then tail -5 "$out" >&2; die "failed ($status): $*"; fi
    CPU=$(awk '{printf "%.3f", $1 + $2}' "$out.time")
}
edax_perft() { # input file
    # Its shell's `perft` is plain leaf counting (the -count option hashes transpositions). Level 1
    # keeps the start-up book creation (no book file) from searching; the book file is scratch.
    rm -f "$RUN/perft-book.dat"
    (cd "$RUN" && exec "$EDAX" "${EDAX_OPTS[@]}" -l 1 -book-file "$RUN/perft-book.dat" <"$1")
}
edax_solve() { (cd "$RUN" && exec "$EDAX" "${EDAX_OPTS[@]}" -l 60 -solve "$RUN/ffo.obf"); }

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

OUR_START=() EDAX_START=() OUR_PERFT=() EDAX_PERFT=() OUR_FFO=() EDAX_FFO=()
for rep in $(seq 1 "$REPS"); do
    echo "rep $rep/$REPS: start-up, perft $PERFT_DEPTH, $FFO_NAME..." >&2
    # perft 1 is next to no work: what each pays to start (Edax loads its weights, clears its hash).
    run_timed "$RUN/ours-start.out" "$OURS" perft --depth 1
    OUR_START+=("$CPU")
    run_timed "$RUN/edax-start.out" edax_perft "$RUN/perft1.in"
    EDAX_START+=("$CPU")
    run_timed "$RUN/ours-perft.out" "$OURS" perft --depth "$PERFT_DEPTH"
    OUR_PERFT+=("$CPU")
    run_timed "$RUN/edax-perft.out" edax_perft "$RUN/perft.in"
    EDAX_PERFT+=("$CPU")
    run_timed "$RUN/ours-ffo.out" "$OURS" solve --file "$RUN/ffo.obf" --hash-mb "$HASH_MB" "${OUR_THREADS[@]}"
    OUR_FFO+=("$CPU")
    run_timed "$RUN/edax-ffo.out" edax_solve
    EDAX_FFO+=("$CPU")
done

# --- what each reported ------------------------------------------------------------------------
OUR_LEAVES=$(awk -v d="$PERFT_DEPTH" '$1 == d {print $2}' "$RUN/ours-perft.out")
# Edax counts a game that ended before the last ply nowhere (it shows it once, as a win, draw or
# loss, on the row one past its end); ours counts it as a leaf at every greater depth, as the
# published table does. Adding those rows up turns Edax's count into the published one.
EDAX_LEAVES=$(awk -F, -v d="$PERFT_DEPTH" '/^ *[0-9]+,/ {wdl += $4 + $5 + $6; if ($1 + 0 == d) printf "%.0f\n", $2 + wdl}' "$RUN/edax-perft.out")
OUR_NODES=$(awk '/^# .* positions/ {for (i = 1; i < NF; i++) if ($(i + 1) ~ /^nodes,?$/) print $i}' "$RUN/ours-ffo.out")
EDAX_NODES=$(awk '/ nodes in / {for (i = 1; i < NF; i++) if ($(i + 1) == "nodes" && $(i + 2) == "in") print $i}' "$RUN/edax-ffo.out")
OUR_SCORES=$(awk '!/^#/ && NF >= 4 {printf "%s%d", sep, $4; sep = " "}' "$RUN/ours-ffo.out")
EDAX_SCORES=$(awk '/^ *[0-9]+\|/ {printf "%s%d", sep, $3; sep = " "}' "$RUN/edax-ffo.out")

row() { # work, ours cpu list name, edax cpu list name, ours nodes, edax nodes
    local -n o=$2 e=$3
    local om em
    om=$(median "${o[@]}") em=$(median "${e[@]}")
    awk -v w="$1" -v o="$om" -v e="$em" -v on="$4" -v en="$5" \
        'BEGIN {printf "%-18s %11.3f %11.3f %10s %14s %14s\n", w, o, e, (e > 0 ? sprintf("%.2f", o / e) : "-"), on, en}'
}
CPU_MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
OUR_BUILD="cargo build --release${RUSTFLAGS:+, RUSTFLAGS=$RUSTFLAGS}"
[ -z "${OTHELLO:-}" ] || OUR_BUILD="prebuilt $OTHELLO"
echo "# ours: othello $(git rev-parse --short HEAD 2>/dev/null || echo '?') ($OUR_BUILD); Edax: $EDAX_DESC, zero weights"
echo "# $(nproc) cores, ${CPU_MODEL:-unknown cpu}; REPS=$REPS THREADS=$THREADS (ours: ${OUR_THREADS[*]:-1 thread}) hash ${HASH_MB} MB (Edax -h $HBITS)"
printf '%-18s %11s %11s %10s %14s %14s\n' work "ours CPU s" "Edax CPU s" ours/Edax "ours nodes" "Edax nodes"
row "start-up (perft 1)" OUR_START EDAX_START - -
row "perft $PERFT_DEPTH" OUR_PERFT EDAX_PERFT "${OUR_LEAVES:-?}" "${EDAX_LEAVES:-?}"
row "$FFO_NAME" OUR_FFO EDAX_FFO "${OUR_NODES:-?}" "${EDAX_NODES:-?}"
echo "# CPU s: median user+sys of the whole process (start-up included); perft nodes: leaves at depth $PERFT_DEPTH; solve nodes: each engine's own count"
[ -n "$OUR_LEAVES" ] && [ "$OUR_LEAVES" = "$EDAX_LEAVES" ] ||
    echo "WARNING: perft $PERFT_DEPTH leaves differ: ours ${OUR_LEAVES:-none}, Edax ${EDAX_LEAVES:-none}"
echo "# $FFO_NAME scores: ours ${OUR_SCORES:-none}; Edax ${EDAX_SCORES:-none}"
[ -n "$OUR_SCORES" ] && [ "$OUR_SCORES" = "$EDAX_SCORES" ] ||
    echo "WARNING: FFO scores differ: ours ${OUR_SCORES:-none}, Edax ${EDAX_SCORES:-none}"
exit 0
