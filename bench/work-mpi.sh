#!/usr/bin/env bash
# The cost of a split solve run as one MPI job against the direct solve: the CPU seconds
# (user+sys) of `othello solve --threads 1` against those of every rank of
# `mpirun -n RANKS othello solve --work DIR --mpi` (after the split, counted too), the nodes of
# each, and the wall time of the MPI run. Ranks beyond the cores share them (--oversubscribe):
# the CPU ratio stays meaningful (though each node then costs more CPU: decisions.md, "Jobs no
# pass asks for any more"), the wall time does not; the nodes' ratio is the same on any machine
# and moves far less from run to run.
#
#   bench/work-mpi.sh                              # 4 and 8 ranks on the three boards below
#   RANKS="2 4" SPLIT=200 bench/work-mpi.sh "5 6" "--rules simple|4 6 --misere"
#
# A board is "ROWS COLS [SOLVE OPTIONS]" with, before a `|`, the global options. Environment:
# SPLIT (40), RANKS ("4 8"), OTHELLO (a binary built with --features mpi; default: `cargo build
# --release --features mpi`'s).
set -euo pipefail
cd "$(dirname "$0")/.."
split=${SPLIT:-40}
read -r -a ranks <<<"${RANKS:-4 8}"
if [[ -z ${OTHELLO:-} ]]; then
    cargo build --release --features mpi --quiet
    OTHELLO=${CARGO_TARGET_DIR:-target}/release/othello
fi
boards=("$@")
((${#boards[@]})) || boards=("6 6" "5 7" "--rules simple|4 7")
root=()
if [[ $(id -u) == 0 ]]; then root=(--allow-run-as-root); fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cpu() { awk '{printf "%.2f", $1 + $2}' "$1"; }
wall() { awk '{printf "%.2f", $3}' "$1"; }
nodes() { awk '$1 == "Nodes:" {print $2}' "$1"; }
printf '%-26s %6s %10s %10s %10s %6s %10s %6s\n' board ranks direct_cpu split_cpu run_cpu ratio run_wall nodes
for board in "${boards[@]}"; do
    global=""
    if [[ $board == *"|"* ]]; then
        global=${board%%|*}
        board=${board#*|}
    fi
    read -r rows cols extra <<<"$board"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S %e' -o "$scratch/direct.time" "$OTHELLO" $global solve \
        --rows "$rows" --cols "$cols" $extra --threads 1 >"$scratch/direct.out" 2>/dev/null
    for n in "${ranks[@]}"; do
        rm -rf "$scratch/work"
        # shellcheck disable=SC2086
        /usr/bin/time -f '%U %S %e' -o "$scratch/split.time" "$OTHELLO" $global solve \
            --rows "$rows" --cols "$cols" $extra --split "$split" --work "$scratch/work" \
            >/dev/null 2>&1
        /usr/bin/time -f '%U %S %e' -o "$scratch/run.time" mpirun "${root[@]}" --oversubscribe \
            -n "$n" "$OTHELLO" solve --work "$scratch/work" --mpi >"$scratch/run.out" 2>/dev/null
        if ! diff <(grep -v '^Nodes:' "$scratch/direct.out") <(grep -v '^Nodes:' "$scratch/run.out") >/dev/null; then
            echo "WARNING: $global ${rows}x$cols $extra: the MPI solve's report differs from the direct one"
        fi
        d=$(cpu "$scratch/direct.time")
        s=$(cpu "$scratch/split.time")
        r=$(cpu "$scratch/run.time")
        printf '%-26s %6s %10s %10s %10s %6.2f %10s %6.2f\n' "${global:+$global }${rows}x$cols${extra:+ $extra}" \
            "$n" "$d" "$s" "$r" "$(awk -v a="$s" -v b="$r" -v c="$d" 'BEGIN{print (a + b) / c}')" \
            "$(wall "$scratch/run.time")" \
            "$(awk -v a="$(nodes "$scratch/run.out")" -v b="$(nodes "$scratch/direct.out")" 'BEGIN{print a / b}')"
    done
done
