#!/usr/bin/env bash
# The cost of a split solve against the direct one, one thread each: the CPU seconds (user+sys)
# of `othello solve` against those of `--split N --run-local --workers K` (the split, then the
# coordinator and every job), nodes, jobs, and how the jobs' times spread. The direct and split runs of a
# board run one after the other, so compare ratios, not seconds across boards.
#
#   bench/work-efficiency.sh                      # the three boards below, 40 jobs asked
#   SPLIT=100 bench/work-efficiency.sh "6 6" "--rules simple|4 7"
#
# A board is "ROWS COLS" with, before a `|`, the global options (`--rules simple`). Environment:
# SPLIT (40), OTHELLO (the binary; default: `cargo build --release`'s), WORKERS (K, 1), BATCH
# (unset: the jobs run under `--run-local --workers K`, each worker keeping one solver; S: the rounds
# run as a job array would run them, one process a task of S jobs, `--job I --batch S`, then
# `--merge`, so BATCH=1 is a cluster's one process a job).
set -euo pipefail
cd "$(dirname "$0")/.."
split=${SPLIT:-40}
if [[ -z ${OTHELLO:-} ]]; then
    cargo build --release --quiet
    OTHELLO=${CARGO_TARGET_DIR:-target}/release/othello
fi
boards=("$@")
((${#boards[@]})) || boards=("6 6" "5 7" "--rules simple|4 7")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cpu() { awk '{printf "%.2f", $1 + $2}' "$1"; }
printf '%-22s %10s %10s %6s %14s %14s %s\n' board direct_s split_s ratio direct_nodes split_nodes jobs
for board in "${boards[@]}"; do
    global=""
    if [[ $board == *"|"* ]]; then
        global=${board%%|*}
        board=${board#*|}
    fi
    read -r rows cols <<<"$board"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S' -o "$scratch/direct.time" "$OTHELLO" $global solve \
        --rows "$rows" --cols "$cols" --threads 1 >"$scratch/direct.out" 2>/dev/null
    rm -rf "$scratch/work"
    if [[ -z ${BATCH:-} ]]; then
        # shellcheck disable=SC2086
        /usr/bin/time -f '%U %S' -o "$scratch/split.time" "$OTHELLO" $global solve \
            --rows "$rows" --cols "$cols" --split "$split" --work "$scratch/work" --run-local \
            --workers "${WORKERS:-1}" >"$scratch/split.out" 2>"$scratch/split.err"
    else
        # shellcheck disable=SC2086,SC2016 # the loop's own variables, expanded by its bash
        /usr/bin/time -f '%U %S' -o "$scratch/split.time" bash -c '
            set -euo pipefail
            o=$1 dir=$2 batch=$3
            last=$("$o" "${@:4}" --work "$dir" | tail -n 1)
            while :; do
                jobs=${last##*: }
                jobs=${jobs% job*}
                for ((t = 0; t * batch < jobs; t++)); do
                    "$o" solve --work "$dir" --job "$t" --batch "$batch" >/dev/null
                done
                rc=0
                last=$("$o" solve --work "$dir" --merge 2>"$dir.err") || rc=$?
                if ((rc == 0)); then break; fi
                ((rc == 4)) || exit "$rc"
                last=$(tail -n 1 <<<"$last")
            done
            printf "%s\n" "$last"
        ' batch "$OTHELLO" "$scratch/work" "$BATCH" $global solve --rows "$rows" \
            --cols "$cols" --split "$split" >"$scratch/split.out"
        mv "$scratch/work.err" "$scratch/split.err"
    fi
    if ! diff <(grep -v '^Nodes:' "$scratch/direct.out") <(grep -v '^Nodes:' "$scratch/split.out") >/dev/null; then
        echo "WARNING: $global ${rows}x$cols: the split solve's report differs from the direct one"
    fi
    d=$(cpu "$scratch/direct.time")
    s=$(cpu "$scratch/split.time")
    dn=$(awk '/^Nodes:/{print $2}' "$scratch/direct.out")
    sn=$(awk '/^Nodes:/{print $2}' "$scratch/split.out")
    # `N jobs, M cancelled, ...` (the coordinator) or `N jobs in R rounds, ...` (BATCH).
    jobs=$(grep -o '[0-9]* jobs\?[ ,].*' "$scratch/split.err" | tail -1 || true)
    printf '%-22s %10s %10s %6.2f %14s %14s %s\n' "${global:+$global }${rows}x$cols" "$d" "$s" \
        "$(awk -v a="$s" -v b="$d" 'BEGIN{print a / b}')" "$dn" "$sn" "$jobs"
done
